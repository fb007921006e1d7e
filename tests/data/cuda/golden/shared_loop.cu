// A volatile shared counter bumped in a loop that is not unrolled: the loop is rotated so the
// next trip's load is in flight across the back edge.
extern "C" __global__ void shared_loop(int *out) {
  volatile __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = 0;
#pragma unroll 1
  for (int r = 0; r < 16; r++) s[t] += 1;
  out[t] = s[t];
}
