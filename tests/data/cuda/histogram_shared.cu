// A 64-bin histogram of bytes with per-block shared bins (shared atomics), merged with global
// atomics; a grid-stride loop over the input.
// warpstep: --kernel histogram_shared --grid 2 --block 64 --arg u8[1000]=rand:4 --arg 1000 --arg u32[64]=0
#define BINS 64

extern "C" __global__ void histogram_shared(const unsigned char *data, int n, unsigned *bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}
