// PolyBench-like kernels for the MRPB experiment (issue 13; MRPB paper Table 2, Fig. 2),
// written for warpstep with the access patterns of the PolyBench/GPU ports the paper ran:
// one thread per row or column, a loop over the other dimension, row-major n x n matrices,
// 256-thread blocks (2dconv: 32 x 8). The row walks (a thread reading A[i * n + j] with j in
// its loop) make the 32 lanes of a warp read 32 rows n * 4 bytes apart at once: with n a
// multiple of 1024 they fall in one set of a linearly indexed L1D (intra-warp contention).
// The accumulators are updated in memory inside the loop, as in the ports, so each iteration
// also stores.

extern "C" {

// atax: tmp = A x (row walk), then y = A^T tmp (column walk, coalesced).
__global__ void atax_1(const float *a, const float *x, float *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) tmp[i] += a[i * n + j] * x[j];
  }
}

__global__ void atax_2(const float *a, float *y, const float *tmp, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    for (int i = 0; i < n; i++) y[j] += a[i * n + j] * tmp[i];
  }
}

// bicg: s = A^T r (column walk), q = A p (row walk).
__global__ void bicg_1(const float *a, const float *r, float *s, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    s[j] = 0.0f;
    for (int i = 0; i < n; i++) s[j] += a[i * n + j] * r[i];
  }
}

__global__ void bicg_2(const float *a, const float *p, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = 0.0f;
    for (int j = 0; j < n; j++) q[i] += a[i * n + j] * p[j];
  }
}

// mvt: x1 += A y1 (row walk), x2 += A^T y2 (column walk).
__global__ void mvt_1(const float *a, float *x1, const float *y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) x1[i] += a[i * n + j] * y1[j];
  }
}

__global__ void mvt_2(const float *a, float *x2, const float *y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) x2[i] += a[j * n + i] * y2[j];
  }
}

// gesummv: y = alpha A x + beta B x, two row walks in one loop.
__global__ void gesummv(const float *a, const float *b, const float *x, float *y, float *tmp,
                        float alpha, float beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

// 2dconv: a 3 x 3 stencil over the interior, one thread per element (cache insensitive).
__global__ void conv2d(const float *a, float *b, int ni, int nj) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  const float c11 = 0.2f, c21 = 0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = 0.6f, c32 = -0.9f;
  const float c13 = 0.4f, c23 = 0.7f, c33 = 0.10f;
  if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1) {
    b[i * nj + j] = c11 * a[(i - 1) * nj + (j - 1)] + c21 * a[(i - 1) * nj + j] +
                    c31 * a[(i - 1) * nj + (j + 1)] + c12 * a[i * nj + (j - 1)] +
                    c22 * a[i * nj + j] + c32 * a[i * nj + (j + 1)] +
                    c13 * a[(i + 1) * nj + (j - 1)] + c23 * a[(i + 1) * nj + j] +
                    c33 * a[(i + 1) * nj + (j + 1)];
  }
}

// syrk: C = alpha A A^T + beta C, one thread per element of C (32 x 8 blocks, as the port).
// Lane j reads row j of A (a[j * m + k]): every warp of a block walks the same 32 rows, and the
// blocks resident at once walk different rows, so the L1D holds one block's rows or another's
// (cross-warp, cross-block contention: the paper's XW type). m = 288 (9 lines a row) spreads a
// warp's 32 rows over the sets, so one warp alone does not thrash.
__global__ void syrk(float alpha, float beta, const float *a, float *c, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
  }
}

// syr2k: C = alpha A B^T + alpha B A^T + beta C: syrk's pattern over two matrices (XW).
__global__ void syr2k(float alpha, float beta, const float *a, const float *b, float *c, int n,
                      int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) {
      c[i * n + j] += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
    }
  }
}

// gemm: C = alpha A B + beta C, one thread per element of C: a warp reads one element of A
// (broadcast) and one coalesced row segment of B per step (cache-insensitive, CI).
__global__ void gemm(float alpha, float beta, const float *a, const float *b, float *c, int ni,
                     int nj, int nk) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++) c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

}  // extern "C"
