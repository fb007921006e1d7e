// Kernels for the unified local memory experiment (issue 16): Gebhart et al., "Unifying Primary
// Cache, Scratch, and Register File Memories in a Throughput Processor", MICRO'12, Table 1 and
// Table 6. Written for warpstep to stand for two of the paper's benchmarks we do not have:
//
//   dgemm_regblock   DGEMM's register-limited shape (Table 1: 57 registers a thread without
//                    spills, 66.5 shared bytes a thread): each thread keeps a 1 x 16 strip of C in
//                    registers (16 doubles) and the CTA stages a 16 x 16 tile of B in shared
//                    memory, after Volkov and Demmel's GEMM (the paper's [11] family).
//                    grid (N/16, M/64), block 64; C = A (M x K) . B (K x N), row-major, K % 16 = 0.
//   cache_gather     a cache-limited kernel (Table 1's bfs/VectorAdd class: few registers, no
//                    shared memory, DRAM traffic that a larger primary cache removes): each thread
//                    sums `reps` words of a `words`-word table at pseudo-random places; the table
//                    (256 KB in the experiment) fits the unified design's 348 KB cache, not the
//                    partitioned 64 KB. grid (n/256), block 256.
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
        const double av = a[row * k + k0 + kk];
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
