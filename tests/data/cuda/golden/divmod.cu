// Signed and unsigned division by powers of two, as nvcc emits them.
extern "C" __global__ void divmod(const int *in, int *out) {
  int i = threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v;
  out[4 * i] = v / 16;
  out[4 * i + 1] = v % 16;
  out[4 * i + 2] = u / 16;
  out[4 * i + 3] = u % 16;
}
