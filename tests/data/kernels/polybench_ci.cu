// Cache-insensitive (CI) PolyBench-like kernels for the MRPB experiment (issue 28), written for
// warpstep with the access patterns and launch shapes of the PolyBench/GPU CUDA ports of gemm,
// correlation, covariance and 2dconv, at 256-point sizes fixed at compile time as the ports fix
// theirs (so the strides are constants in the PTX). Row-major matrices; accumulators live in
// memory and are updated inside the loops, as in the ports, so each iteration stores. The
// correlation and covariance kernels take the number of rows (observations) `n` as a
// parameter, so a run may walk fewer rows of the 256 columns (the same accesses, fewer steps).
//
//   gemm:        one thread per element of C, 32 x 8 blocks; per k: a[i][k] (one word for a
//                warp: broadcast), b[k][j] (one coalesced line), store c[i][j].
//   correlation: column means and deviations (one thread per column, 256-thread blocks, loop
//                over rows: coalesced), centre and scale the data (one thread per element,
//                32 x 8 blocks), then the correlation matrix: one thread per column j1 looping
//                over j2 > j1 and the rows; per step data[i][j1] (coalesced), data[i][j2]
//                (broadcast) and a store to sym[j1][j2] (32 lanes 1 KB apart: 32 writes).
//   covariance:  column means, centring, then the covariance matrix as above with j2 >= j1.
//   2dconv:      3 x 3 stencil, one thread per output point, 32 x 8 blocks.

#define PB_N 256
#define PB_EPS 0.1f

extern "C" {

__global__ void ci_gemm(float alpha, float beta, const float *a, const float *b, float *c) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= PB_N || col >= PB_N) return;
  float *acc = &c[row * PB_N + col];
  *acc *= beta;
  for (int k = 0; k < PB_N; ++k) *acc += alpha * a[row * PB_N + k] * b[k * PB_N + col];
}

// Column means (correlation and covariance).
__global__ void ci_mean(float *mean, const float *data, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= PB_N) return;
  mean[col] = 0.0f;
  for (int r = 0; r < n; ++r) mean[col] += data[r * PB_N + col];
  mean[col] /= (float)n;
}

// Column standard deviations (correlation).
__global__ void ci_std(const float *mean, float *sd, const float *data, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= PB_N) return;
  sd[col] = 0.0f;
  for (int r = 0; r < n; ++r) {
    float d = data[r * PB_N + col] - mean[col];
    sd[col] += d * d;
  }
  sd[col] = sqrtf(sd[col] / (float)n);
  if (sd[col] <= PB_EPS) sd[col] = 1.0f;
}

// Centre and scale every element (correlation).
__global__ void ci_corr_reduce(const float *mean, const float *sd, float *data, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= PB_N) return;
  float v = data[row * PB_N + col] - mean[col];
  data[row * PB_N + col] = v;
  data[row * PB_N + col] = v / (sqrtf((float)n) * sd[col]);
}

// The correlation matrix, one thread per column j1 (the upper triangle and its mirror).
__global__ void ci_corr(float *sym, const float *data, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= PB_N - 1) return;
  sym[j1 * PB_N + j1] = 1.0f;
  for (int j2 = j1 + 1; j2 < PB_N; ++j2) {
    float *acc = &sym[j1 * PB_N + j2];
    *acc = 0.0f;
    for (int r = 0; r < n; ++r) *acc += data[r * PB_N + j1] * data[r * PB_N + j2];
    sym[j2 * PB_N + j1] = *acc;
  }
}

// Centre every element (covariance).
__global__ void ci_covar_reduce(const float *mean, float *data, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= PB_N) return;
  data[row * PB_N + col] -= mean[col];
}

// The covariance matrix, one thread per column j1 (j2 from j1 on, and the mirror).
__global__ void ci_covar(float *sym, const float *data, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= PB_N) return;
  for (int j2 = j1; j2 < PB_N; ++j2) {
    float *acc = &sym[j1 * PB_N + j2];
    *acc = 0.0f;
    for (int r = 0; r < n; ++r) *acc += data[r * PB_N + j1] * data[r * PB_N + j2];
    sym[j2 * PB_N + j1] = *acc;
  }
}

// 3 x 3 stencil over the interior points.
__global__ void ci_conv2d(const float *in, float *out) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < 1 || col < 1 || row >= PB_N - 1 || col >= PB_N - 1) return;
  const float w[3][3] = {{0.2f, -0.3f, 0.4f}, {0.5f, 0.6f, 0.7f}, {-0.8f, -0.9f, 0.1f}};
  float s = 0.0f;
#pragma unroll
  for (int dr = -1; dr <= 1; ++dr)
#pragma unroll
    for (int dc = -1; dc <= 1; ++dc) s += w[dc + 1][dr + 1] * in[(row + dr) * PB_N + col + dc];
  out[row * PB_N + col] = s;
}

}  // extern "C"
