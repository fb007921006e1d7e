// Independent thread scheduling (issue 15; book section 3.1.2): warp-synchronous instructions
// in divergent code, the intra-warp synchronisation the SIMT stack cannot give.
//
// - syncwarp_paths: each half of the warp writes its slot, meets the other half at a
//   __syncwarp() on its own path, then reads the other half's slot. Under convergence barriers
//   the two __syncwarp()s release together (PTX ISA bar.warp.sync); under the SIMT stack the
//   first path waits for lanes that cannot arrive, which the PTX ISA forbids before sm_70.
// - shfl_paths: each half reads the other half's value with its own __shfl_sync.
// - ballot_active: a ballot over the lanes that took a branch (__activemask()); the same in
//   both modes.
extern "C" __global__ void syncwarp_paths(int *out) {
    __shared__ int slot[32];
    int lane = threadIdx.x % 32;
    if (lane < 16) {
        slot[lane] = lane;
        __syncwarp();
        out[threadIdx.x] = slot[lane + 16];
    } else {
        slot[lane] = lane * 10;
        __syncwarp();
        out[threadIdx.x] = slot[lane - 16];
    }
}

extern "C" __global__ void shfl_paths(const int *in, int *out) {
    int lane = threadIdx.x % 32;
    int x = in[threadIdx.x];
    int v;
    if (lane < 16) {
        v = __shfl_sync(0xffffffffu, x, lane + 16);
    } else {
        v = __shfl_sync(0xffffffffu, x, lane - 16) + 1000;
    }
    out[threadIdx.x] = v;
}

extern "C" __global__ void ballot_active(const int *in, unsigned *out) {
    int x = in[threadIdx.x];
    unsigned r = 0;
    if (x > 0) {
        unsigned active = __activemask();
        r = __ballot_sync(active, (x & 1) != 0);
    }
    out[threadIdx.x] = r;
}
