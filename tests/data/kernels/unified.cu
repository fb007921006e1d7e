// Kernels for the unified local memory experiment (issue 16): Gebhart et al., "Unifying Primary
// Cache, Scratch, and Register File Memories in a Throughput Processor", MICRO'12, Table 1 and
// Table 6. Written for warpstep to stand for two of the paper's benchmarks we do not have:
//
//   dgemm_regblock   DGEMM's register-limited shape (Table 1: 57 registers a thread without
//                    spills, 66.5 shared bytes a thread): each thread keeps a 1 x 16 strip of C in
//                    registers (16 doubles) and the CTA stages a 16 x 16 tile of B in shared
//                    memory, after Volkov and Demmel's GEMM (the paper's [11] family).
//                    grid (N/16, M/64), block 64; C = A (M x K) . B (K x N), K % 16 = 0; B and C
//                    row-major, A column-major (a[kk * M + row], as Volkov and Demmel store it)
//                    so that a warp's 32 rows read one coalesced run, as in a tuned DGEMM,
//                    rather than 32 lines that only a cache makes cheap.
//   cache_gather     a cache-limited kernel (Table 1's bfs/VectorAdd class: few registers, no
//                    shared memory, DRAM traffic that a larger primary cache removes): each thread
//                    sums `reps` words of a `words`-word table at pseudo-random places; the table
//                    (256 KB in the experiment) fits the unified design's 348 KB cache, not the
//                    partitioned 64 KB. grid (n/256), block 256.
//   needle32_1       Needleman-Wunsch at Table 1's shape (18 registers, 264.1 shared bytes a
//   needle32_2       thread): the algorithm of Rodinia's nw with 32 x 32 tiles and 32-thread
//                    CTAs instead of the corpus's 16 (a 33 x 33 int score tile and a 32 x 32 int
//                    reference tile: 8452 bytes / 32 threads = 264.125). Same arguments as the
//                    corpus's needle_cuda_shared_1/2: (reference, matrix, unused, cols, penalty,
//                    i, block_width); block 32, grid i. matrix is cols x cols, row 0 and column 0
//                    hold the gap penalties; block_width = (cols - 1) / 32. The host launches
//                    needle32_1 for i = 1 .. block_width (the tile anti-diagonals of the upper-left
//                    triangle), then needle32_2 for i = block_width - 1 down to 1 (the lower-right
//                    triangle). A CTA stages its tile's reference values and the scores above and
//                    to the left of the tile in shared memory, scores the tile in 63 anti-diagonal
//                    steps (thread t owns the tile's row t), and writes the 32 x 32 scores back.
//                    ptxas: 17 registers, 8452 shared bytes a CTA (see nw_score_tile).
//
// nvcc -ccbin g++-11 -ptx -arch=sm_52 -o unified.sm_52.ptx unified.cu

#define TILE 16
#define ROWS 64  // threads (rows of C) per CTA

extern "C" __global__ void dgemm_regblock(double *c, const double *a, const double *b, int m,
                                          int n, int k) {
  __shared__ double bs[TILE][TILE];
  const int row = blockIdx.y * ROWS + threadIdx.x;
  const int col0 = blockIdx.x * TILE;
  double acc[TILE];
#pragma unroll
  for (int j = 0; j < TILE; ++j) acc[j] = 0.0;
  for (int k0 = 0; k0 < k; k0 += TILE) {
    // 64 threads stage the 256 elements of B's tile, 4 each.
#pragma unroll
    for (int e = threadIdx.x; e < TILE * TILE; e += ROWS) {
      const int kk = e / TILE, jj = e % TILE;
      bs[kk][jj] = b[(k0 + kk) * n + col0 + jj];
    }
    __syncthreads();
    if (row < m) {
#pragma unroll
      for (int kk = 0; kk < TILE; ++kk) {
        const double av = a[(k0 + kk) * m + row];
#pragma unroll
        for (int j = 0; j < TILE; ++j) acc[j] += av * bs[kk][j];
      }
    }
    __syncthreads();
  }
  if (row < m) {
#pragma unroll
    for (int j = 0; j < TILE; ++j) c[row * n + col0 + j] = acc[j];
  }
}

extern "C" __global__ void cache_gather(unsigned *out, const unsigned *table, unsigned words,
                                        unsigned reps) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = t * 2654435761u;
  unsigned sum = 0;
  for (unsigned r = 0; r < reps; ++r) {
    h = h * 1664525u + 1013904223u;  // a linear congruential walk over the table
    sum += table[(h >> 8) % words];
  }
  out[t] = sum;
}

#define NW_TILE 32  // needle32: tile side and threads per CTA

// Scores one NW_TILE x NW_TILE tile of the score matrix. `corner` is the matrix index of the
// cell up and to the left of the tile's first cell; the tile's top neighbours (row above) and
// left neighbours (column to the left) are already final.
// `PITCH` is the score tile's row length in words: NW_TILE + 1 as Rodinia lays it out (the
// anti-diagonal's cells are then 32 words apart: one bank of 32, a 32-way conflict), or
// NW_TILE + 2 for needle32p (33 words apart: every lane its own bank).
template <int PITCH>
static __device__ __forceinline__ void nw_score_tile(int (*score)[PITCH],
                                                     int (*subst)[NW_TILE],
                                                     const int *reference, int *matrix,
                                                     int cols, int penalty, int corner) {
  const int t = threadIdx.x;
  if (t == 0) score[0][0] = matrix[corner];
  score[0][t + 1] = matrix[corner + t + 1];
  score[t + 1][0] = matrix[corner + (t + 1) * cols];
  // The staging loops stay rolled: unrolled (nvcc's default) they keep many addresses live and
  // ptxas allocates 32 registers; rolled, 17, near Table 1's 18 (same partitions: 1024 threads
  // at 384 KB, 768 at 256 KB, 384 at 128 KB; with 32 registers 384 KB holds 992).
#pragma unroll 1
  for (int r = 0; r < NW_TILE; ++r) subst[r][t] = reference[corner + (r + 1) * cols + t + 1];
  __syncthreads();
  // Step s scores the cells (t + 1, s - t + 1) of the tile's anti-diagonal s.
  for (int s = 0; s < 2 * NW_TILE - 1; ++s) {
    const int c = s - t;
    if (c >= 0 && c < NW_TILE) {
      const int match = score[t][c] + subst[t][c];
      const int gap_left = score[t + 1][c] - penalty;
      const int gap_up = score[t][c + 1] - penalty;
      score[t + 1][c + 1] = max(match, max(gap_left, gap_up));
    }
    __syncthreads();
  }
#pragma unroll 1
  for (int r = 0; r < NW_TILE; ++r) matrix[corner + (r + 1) * cols + t + 1] = score[r + 1][t + 1];
}

// Launch i of the upper-left triangle: CTA b takes tile (row i - 1 - b, column b).
extern "C" __global__ void needle32_1(int *reference, int *matrix, int *unused, int cols,
                                      int penalty, int i, int block_width) {
  __shared__ int score[NW_TILE + 1][NW_TILE + 1];
  __shared__ int subst[NW_TILE][NW_TILE];
  const int tile_row = i - 1 - (int)blockIdx.x;
  const int tile_col = blockIdx.x;
  nw_score_tile(score, subst, reference, matrix, cols, penalty,
                (tile_row * cols + tile_col) * NW_TILE);
}

// Launch i of the lower-right triangle: CTA b takes tile (row block_width - 1 - b, column
// block_width - i + b).
extern "C" __global__ void needle32_2(int *reference, int *matrix, int *unused, int cols,
                                      int penalty, int i, int block_width) {
  __shared__ int score[NW_TILE + 1][NW_TILE + 1];
  __shared__ int subst[NW_TILE][NW_TILE];
  const int tile_row = block_width - 1 - (int)blockIdx.x;
  const int tile_col = block_width - i + (int)blockIdx.x;
  nw_score_tile(score, subst, reference, matrix, cols, penalty,
                (tile_row * cols + tile_col) * NW_TILE);
}

// needle32p_1 / needle32p_2: needle32_1 / needle32_2 with the score tile padded to 34 words a
// row (8584 shared bytes a CTA, 268.25 a thread): the same scores, no bank conflicts on the
// anti-diagonal in 32 banks of 4 bytes. An ablation for the experiment (docs/unified.md).
extern "C" __global__ void needle32p_1(int *reference, int *matrix, int *unused, int cols,
                                       int penalty, int i, int block_width) {
  __shared__ int score[NW_TILE + 1][NW_TILE + 2];
  __shared__ int subst[NW_TILE][NW_TILE];
  const int tile_row = i - 1 - (int)blockIdx.x;
  const int tile_col = blockIdx.x;
  nw_score_tile(score, subst, reference, matrix, cols, penalty,
                (tile_row * cols + tile_col) * NW_TILE);
}

extern "C" __global__ void needle32p_2(int *reference, int *matrix, int *unused, int cols,
                                       int penalty, int i, int block_width) {
  __shared__ int score[NW_TILE + 1][NW_TILE + 2];
  __shared__ int subst[NW_TILE][NW_TILE];
  const int tile_row = block_width - 1 - (int)blockIdx.x;
  const int tile_col = block_width - i + (int)blockIdx.x;
  nw_score_tile(score, subst, reference, matrix, cols, penalty,
                (tile_row * cols + tile_col) * NW_TILE);
}
