// Warp-level sum with __shfl_down_sync: lane 0 of every warp writes its warp's sum.
extern "C" __global__ void warp_sum(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// Every lane gets the value of lane (lane ^ 1), (lane + 1) % 32 and lane 0 of its warp.
extern "C" __global__ void shuffle_modes(const int *in, int *xor1, int *up1, int *idx0) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    xor1[i] = __shfl_xor_sync(0xffffffffu, v, 1);
    up1[i] = __shfl_up_sync(0xffffffffu, v, 1);
    idx0[i] = __shfl_sync(0xffffffffu, v, 0);
}
