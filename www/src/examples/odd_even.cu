// warpstep: --grid 1 --block 8 --arg s32[8]=iota --arg s32[8]=0
// Odd and even lanes of one warp take different paths, then meet again.
// Step through it: at the if, the warp splits (mask 01010101 / 10101010) and the SIMT stack
// pushes one entry per path; each path runs with half the lanes; at out[t] the stack pops and
// the whole warp runs together again.
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
    // every lane again: the warp has reconverged
    out[t] = v + t;
}
