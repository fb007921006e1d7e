// Rodinia lud's three kernels (LU decomposition without pivoting, in place, in 16 x 16 blocks)
// for the MRPB experiment (issue 33; MRPB Table 3's LUD, 512 x 512). Ours, written for
// warpstep from the program's access pattern and launch: for each step at `offset` = 0, 16,
// ... the host runs
//   lud_diagonal   grid 1,                 block 16:     factorise the diagonal block;
//   lud_perimeter  grid n/16 - 1 (n = dim - offset), block 32: the blocks right of it (U rows,
//                  threads 0-15) and below it (L columns, threads 16-31);
//   lud_internal   grid (n/16 - 1)^2,      block 16 x 16: the trailing blocks -= L U;
// and lud_diagonal once more on the last block. `m` is row-major, `dim` x `dim`. Each kernel
// stages its blocks in shared memory, as Rodinia's does; rodinia_unshared.cu has LUD/U.
#define LUD_B 16

extern "C" {

// The diagonal block at (offset, offset): L (unit diagonal, below) and U (on and above) in
// place. Thread t loads column t of each row; step i first finishes column i of L below the
// diagonal (rows t > i), then row i + 1 of U (columns t > i).
__global__ void lud_diagonal(float *m, int dim, int offset) {
  __shared__ float a[LUD_B][LUD_B];
  int t = threadIdx.x;
  float *block = m + offset * dim + offset;
  for (int r = 0; r < LUD_B; r++) a[r][t] = block[r * dim + t];
  __syncthreads();
  for (int i = 0; i < LUD_B - 1; i++) {
    if (t > i) {
      for (int k = 0; k < i; k++) a[t][i] -= a[t][k] * a[k][i];
      a[t][i] /= a[i][i];
    }
    __syncthreads();
    if (t > i) {
      for (int k = 0; k < i + 1; k++) a[i + 1][t] -= a[i + 1][k] * a[k][t];
    }
    __syncthreads();
  }
  // Row 0 is U's first row unchanged.
  for (int r = 1; r < LUD_B; r++) block[r * dim + t] = a[r][t];
}

// The perimeter of step `offset`: block b right of the diagonal block (rows offset..+16,
// columns offset + 16 (b + 1)..) becomes U by forward substitution with the diagonal block's
// L, and block b below it becomes L by solving against its U. Threads 0-15 load the diagonal
// block's upper half and the row block, threads 16-31 its lower half and the column block.
__global__ void lud_perimeter(float *m, int dim, int offset) {
  __shared__ float dia[LUD_B][LUD_B];
  __shared__ float row[LUD_B][LUD_B];
  __shared__ float col[LUD_B][LUD_B];
  int b = blockIdx.x, t = threadIdx.x;
  float *diag = m + offset * dim + offset;
  float *right = diag + (b + 1) * LUD_B;
  float *below = diag + (b + 1) * LUD_B * dim;
  if (t < LUD_B) {
    for (int r = 0; r < LUD_B / 2; r++) dia[r][t] = diag[r * dim + t];
    for (int r = 0; r < LUD_B; r++) row[r][t] = right[r * dim + t];
  } else {
    int c = t - LUD_B;
    for (int r = LUD_B / 2; r < LUD_B; r++) dia[r][c] = diag[r * dim + c];
    for (int r = 0; r < LUD_B; r++) col[r][c] = below[r * dim + c];
  }
  __syncthreads();
  if (t < LUD_B) {
    // Column t of the row block: U = L^-1 A.
    for (int r = 1; r < LUD_B; r++)
      for (int k = 0; k < r; k++) row[r][t] -= dia[r][k] * row[k][t];
  } else {
    // Row t - 16 of the column block: L = A U^-1.
    int c = t - LUD_B;
    for (int i = 0; i < LUD_B; i++) {
      for (int k = 0; k < i; k++) col[c][i] -= col[c][k] * dia[k][i];
      col[c][i] /= dia[i][i];
    }
  }
  __syncthreads();
  if (t < LUD_B) {
    for (int r = 1; r < LUD_B; r++) right[r * dim + t] = row[r][t];
  } else {
    int c = t - LUD_B;
    for (int r = 0; r < LUD_B; r++) below[r * dim + c] = col[r][c];
  }
}

// The trailing blocks of step `offset`: block (bx, by) at rows offset + 16 (by + 1).. and
// columns offset + 16 (bx + 1).. subtracts the product of its L block (left, in the
// perimeter's column) and its U block (above, in the perimeter's row).
__global__ void lud_internal(float *m, int dim, int offset) {
  __shared__ float up[LUD_B][LUD_B];
  __shared__ float left[LUD_B][LUD_B];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = offset + (blockIdx.y + 1) * LUD_B;
  int col0 = offset + (blockIdx.x + 1) * LUD_B;
  up[ty][tx] = m[(offset + ty) * dim + col0 + tx];
  left[ty][tx] = m[(row0 + ty) * dim + offset + tx];
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < LUD_B; k++) sum += left[ty][k] * up[k][tx];
  m[(row0 + ty) * dim + col0 + tx] -= sum;
}

}  // extern "C"
