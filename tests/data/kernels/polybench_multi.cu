// PolyBench's multi-launch cache-insensitive programs for the MRPB experiment (issue 33; MRPB
// paper Table 2: 2mm, 3mm, 3dconv and fdtd, all CI), written for warpstep with the access
// patterns and launches of the PolyBench/GPU ports the paper ran: one thread per output
// element, 32 x 8 blocks, row-major arrays, accumulators updated in memory inside the loop as
// in the ports. Each program is several launches one after another: 2mm two products, 3mm
// three, 3dconv one launch per plane of its cube, fdtd three kernels per time step.

extern "C" {

// 2mm, first product: tmp = alpha A B (A ni x nk, B nk x nj). A warp reads one element of A
// (broadcast) and a coalesced row segment of B per step.
__global__ void mm2_1(float alpha, const float *a, const float *b, float *tmp, int ni, int nj,
                      int nk) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    tmp[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; k++) tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

// 2mm, second product: D = beta D + tmp C (tmp ni x nj, C nj x nl).
__global__ void mm2_2(float beta, const float *tmp, const float *c, float *d, int ni, int nl,
                      int nj) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nl) {
    d[i * nl + j] *= beta;
    for (int k = 0; k < nj; k++) d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
  }
}

// 3mm's three products (E = A B, F = C D, G = E F) are one kernel: C = A B (A ni x nk,
// B nk x nj).
__global__ void mm3(const float *a, const float *b, float *c, int ni, int nj, int nk) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    c[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; k++) c[i * nj + j] += a[i * nk + k] * b[k * nj + j];
  }
}

// 3dconv: one launch per interior plane i of an ni x nj x nk cube; a thread per (j, k) of the
// plane reads 11 neighbours on planes i - 1, i and i + 1 (the port's stencil points).
__global__ void conv3d(const float *a, float *b, int ni, int nj, int nk, int i) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1 && k > 0 && k < nk - 1) {
#define A(p, q, r) a[((p) * nj + (q)) * nk + (r)]
    b[(i * nj + j) * nk + k] =
        0.5f * A(i - 1, j - 1, k - 1) - 0.25f * A(i + 1, j - 1, k - 1) +
        0.75f * A(i, j - 1, k) + 2.0f * A(i, j, k) - 0.5f * A(i, j + 1, k) +
        0.125f * A(i - 1, j - 1, k + 1) + 1.5f * A(i + 1, j - 1, k + 1) -
        0.375f * A(i - 1, j, k + 1) + 0.625f * A(i + 1, j, k + 1) -
        1.25f * A(i - 1, j + 1, k + 1) + 0.875f * A(i + 1, j + 1, k + 1);
#undef A
  }
}

// fdtd-2d, one time step t in three launches over an nx x ny grid: ey from hz (row above),
// ex from hz (column left), hz from ex and ey. ex is nx x (ny + 1), ey (nx + 1) x ny,
// hz nx x ny; row 0 of ey takes the source fict[t].
__global__ void fdtd_1(const float *fict, float *ex, float *ey, float *hz, int nx, int ny,
                       int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0)
      ey[j] = fict[t];
    else
      ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__global__ void fdtd_2(float *ex, float *ey, float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny && j > 0)
    ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

__global__ void fdtd_3(float *ex, float *ey, float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j] +
                                              ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

}  // extern "C"
