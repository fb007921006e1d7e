// Tree reduction in shared memory (CUDA SDK reduction #3 style): each block sums blockDim.x
// elements (a power of two, at most 256) and writes one partial sum per block.
extern "C" __global__ void reduce_sum(const int *in, int *partial, int n) {
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}
