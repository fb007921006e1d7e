// warpstep: --grid 1 --block 8 --arg s32[8]=iota --arg s32[8]=0
// One warp of 8 threads: the even and the odd
// lanes take different paths, then meet again.
__global__ void odd_even(const int *in, int *out) {
    int t = threadIdx.x;
    int v = in[t];
    if (t % 2 == 0) {
        // even lanes: 0, 2, 4, 6
        v = v * 3 + 1;
        v = v * v;
        out[t] = v;
    } else {
        // odd lanes: 1, 3, 5, 7
        v = v / 2;
        out[t] = v;
    }
    // all 8 lanes again: reconverged
    out[t] = v + t;
}
