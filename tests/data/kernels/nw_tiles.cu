// Needleman-Wunsch scores by tiles along the block anti-diagonals, one CTA of T threads per
// tile: the wavefront scheme Rodinia's nw uses, written for warpstep's tests (issue 28).
// The score tile is (T+1) x (T+1) ints, so a row is 68 bytes. Walking a tile's anti-diagonal,
// thread tx touches row d - tx + 1: nvcc folds that into `tile - 64*tx` in a 32-bit register
// and adds the row as an immediate, `[%r+68]` (the loop is unrolled, as Rodinia's is). For tx > 0 the register is "negative" and the
// sum wraps back into the tile on the hardware's 32-bit shared addresses.
//
// score: n x n (n = T * tiles + 1), row 0 and column 0 hold the gap penalties; sim: the
// similarity of each pair, same shape. Host order: nw_upper with grid d for d = 1..tiles,
// then nw_lower with grid d for d = tiles-1 down to 1.
#define T 16

__device__ int best_of(int diagonal, int left, int up) {
  int m = diagonal > left ? diagonal : left;
  return m > up ? m : up;
}

__device__ void score_tile(const int *sim, int *score, int n, int gap, int tile_row,
                           int tile_col) {
  __shared__ int s[T + 1][T + 1];
  __shared__ int w[T][T];
  int tx = threadIdx.x;
  int corner = n * T * tile_row + T * tile_col;
  if (tx == 0) s[0][0] = score[corner];
  for (int r = 0; r < T; r++) w[r][tx] = sim[corner + n * (r + 1) + tx + 1];
  s[tx + 1][0] = score[corner + n * (tx + 1)];
  s[0][tx + 1] = score[corner + tx + 1];
  __syncthreads();
#pragma unroll
  for (int d = 0; d < 2 * T - 1; d++) {
    int r = d - tx + 1;
    if (r >= 1 && r <= T) {
      int c = tx + 1;
      s[r][c] = best_of(s[r - 1][c - 1] + w[r - 1][c - 1], s[r][c - 1] - gap, s[r - 1][c] - gap);
    }
    __syncthreads();
  }
  for (int r = 1; r <= T; r++) score[corner + n * r + tx + 1] = s[r][tx + 1];
}

extern "C" __global__ void nw_upper(const int *sim, int *score, int n, int gap, int diagonal) {
  score_tile(sim, score, n, gap, diagonal - 1 - blockIdx.x, blockIdx.x);
}

extern "C" __global__ void nw_lower(const int *sim, int *score, int n, int gap, int diagonal,
                                   int tiles) {
  int col = blockIdx.x + tiles - diagonal;
  score_tile(sim, score, n, gap, tiles - 1 - blockIdx.x, col);
}
