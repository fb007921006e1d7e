// warpstep: --grid 1 --block 32 --arg f32[1024]=iota --arg f32[32]=0
// Each thread sums one row of a 32 x 32 tile.
// PAD 0: rows 32 words apart, all 32 lanes
//        read one bank (32-way conflict).
// PAD 1: rows 33 words apart, 32 banks.
// Change PAD, press Apply, compare.
#define PAD 0
#define N 32

__global__ void row_sums(const float *in, float *out) {
    __shared__ float tile[N][N + PAD];
    int t = threadIdx.x;
    // lane t writes column t: no conflict
    for (int r = 0; r < N; r++)
        tile[r][t] = in[r * N + t];
    __syncthreads();
    float sum = 0.0f;
    // lane t reads row t: the conflict
    for (int c = 0; c < N; c++)
        sum += tile[t][c];
    out[t] = sum;
}
