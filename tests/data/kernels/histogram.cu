// 64-bin histogram of bytes: each block counts into shared bins with shared-memory atomics,
// then adds its bins to the global histogram with global atomics.
#define BINS 64

extern "C" __global__ void histogram64(const unsigned char *data, int n, unsigned *hist) {
    __shared__ unsigned bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&hist[b], bins[b]);
}
