// An if/else on the lane, a guarded loop and warpSize.
extern "C" __global__ void branchy(int *out, int n) {
  int t = threadIdx.x;
  int acc = 0;
  if (t % 2 == 0)
    acc = t * 3;
  else
    acc = -t;
  for (int k = 0; k < n; k++) acc += k;
  out[t] = acc + warpSize;
}
