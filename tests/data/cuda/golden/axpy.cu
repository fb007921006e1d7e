extern "C" __global__ void axpy(float a, const float *x, float *y) {
  int i = threadIdx.x;
  y[i] = a * x[i] + y[i];
}
