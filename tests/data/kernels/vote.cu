// Warp votes: per warp, the ballot of (in[i] > threshold), whether any/all lanes pass, and each
// lane's rank among the passing lanes (popc of the ballot below it). Lanes past n are inactive.
extern "C" __global__ void vote(const int *in, int threshold, int n, unsigned *ballots,
                                int *any, int *all, int *rank) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned active = __activemask();
    int pass = in[i] > threshold;
    unsigned ballot = __ballot_sync(active, pass);
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        ballots[i / 32] = ballot;
    }
    int a = __any_sync(active, pass);
    int b = __all_sync(active, pass);
    if (lane == 0) {
        any[i / 32] = a;
        all[i / 32] = b;
    }
    rank[i] = pass ? __popc(ballot & ((1u << lane) - 1)) : -1;
}
