// A 1D stencil with a shared tile and halo (radius 3): out[i] = sum of in[i-3..i+3].
// warpstep: --kernel stencil1d --grid 4 --block 64 --arg s32[262]=rand:1:-50:50 --arg s32[256]=0 --arg 256
#define RADIUS 3
#define BLOCK 64

extern "C" __global__ void stencil1d(const int *in, int *out, int n) {
  __shared__ int tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  // `in` holds n + 2 * RADIUS values: element g of the output is centred on in[g + RADIUS].
  tile[l] = in[g + RADIUS];
  if (threadIdx.x < RADIUS) {
    tile[l - RADIUS] = in[g];
    tile[l + BLOCK] = in[g + RADIUS + BLOCK];
  }
  __syncthreads();
  int sum = 0;
  for (int k = -RADIUS; k <= RADIUS; k++) sum += tile[l + k];
  if (g < n) out[g] = sum;
}
