// warpstep: --grid 1 --block 32 --arg f32[1024]=iota --arg f32[32]=0
// Each thread sums one row of a 32 x 32 tile in shared memory.
// PAD 0: row t starts at word 32 * t, so at every step all 32 lanes read the same bank
//        (a 32-way bank conflict: each read takes 32 passes).
// PAD 1: rows are 33 words apart, so the 32 lanes read 32 different banks (one pass).
// Change PAD, press Apply, and compare the bank grid and the cycle count.
#define PAD 0
#define N 32

__global__ void row_sums(const float *in, float *out) {
    __shared__ float tile[N][N + PAD];
    int t = threadIdx.x;
    for (int r = 0; r < N; r++)
        tile[r][t] = in[r * N + t];      // lane t writes column t of row r: no conflict
    __syncthreads();
    float sum = 0.0f;
    for (int c = 0; c < N; c++)
        sum += tile[t][c];               // lane t reads row t: the conflict (or not)
    out[t] = sum;
}
