// An inclusive prefix sum of one block's values (Hillis-Steele, double-buffered in shared
// memory), each block scanning its own segment.
// warpstep: --kernel scan --grid 2 --block 128 --arg s32[256]=rand:5:-9:9 --arg s32[256]=0
#define N 128

extern "C" __global__ void scan(const int *in, int *out) {
  __shared__ int buf[2][N];
  int t = threadIdx.x;
  int base = blockIdx.x * N;
  int cur = 0;
  buf[0][t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < N; off *= 2) {
    int v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  out[base + t] = buf[cur][t];
}
