// More programs for the unified local memory experiment (issue 33): Gebhart et al., "Unifying
// Primary Cache, Scratch, and Register File Memories in a Throughput Processor", MICRO'12,
// Table 6's lu, pcr and GPU-mummer at the shapes Table 1 and §3.1 give them. Written for
// warpstep (the structure of the programs learnt from Rodinia's lud and mummergpu and from
// Zhang, Cohen and Owens' PCR, PPoPP'10, the paper's [26]; none of their code).
//
//   lu_diagonal    Rodinia lud's blocked LU decomposition (no pivoting, in place, row-major
//   lu_perimeter   n x n floats, LU_BS = 16): for each 16 x 16 diagonal block at `offset`,
//   lu_internal    lu_diagonal factors it (1 CTA, 16 threads, 1 KB shared: 64 bytes a thread),
//                  lu_perimeter solves the block row to its right and the block column below
//                  it (one CTA of 32 threads per block pair, 3 KB shared: Table 1's 96 bytes a
//                  thread), lu_internal updates the trailing matrix (a 16 x 16 CTA per block,
//                  2 KB shared: 8 bytes a thread). The host launches the three per offset
//                  (the last offset only lu_diagonal).
//   pcr_solve      Parallel cyclic reduction of many tridiagonal systems of PCR_N = 128
//                  equations, one CTA of 128 threads per system; the five arrays a, b, c, d, x
//                  live in shared memory (5 x 4 bytes: Table 1's 20 bytes a thread), log2(128)
//                  = 7 reduction steps, each read by a thread at distance 1, 2, 4 ... 64.
//                  System s has its own right-hand side d (streamed from global memory) and
//                  takes its coefficients a, b, c from matrix s % matrices (many right-hand
//                  sides of a few operators, as an ADI sweep has them): the coefficient arrays
//                  are what a cache can keep.
//   mummer_walk    GPU-mummer's access pattern (§3.1: "many parallel graph traversals across a
//                  large reference suffix tree. Each thread processes a single independent
//                  query", no shared memory): each thread walks a suffix trie of the reference
//                  (4 children a node, int4, 16 bytes; -1 for none) from the root along its
//                  query (one base a byte, 0-3) for as long as the trie has the next base, and
//                  writes how many bases matched. The trie's upper levels are shared by every
//                  query and hot in a cache; its deep levels are not.
//
// nvcc -ccbin g++-11 -ptx -arch=sm_52 -o unified_programs.sm_52.ptx unified_programs.cu

#define LU_BS 16

extern "C" __global__ void lu_diagonal(float *m, int n, int offset) {
  __shared__ float blk[LU_BS][LU_BS];
  const int t = threadIdx.x;  // thread t owns row t of the block
  float *base = m + offset * n + offset;
#pragma unroll 1
  for (int r = 0; r < LU_BS; ++r) blk[r][t] = base[r * n + t];
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < LU_BS - 1; ++k) {
    if (t > k) {
      const float l = blk[t][k] / blk[k][k];
      blk[t][k] = l;
#pragma unroll 1
      for (int j = k + 1; j < LU_BS; ++j) blk[t][j] -= l * blk[k][j];
    }
    __syncthreads();
  }
#pragma unroll 1
  for (int r = 0; r < LU_BS; ++r) base[r * n + t] = blk[r][t];
}

// CTA b: the block to the right of the diagonal block, (offset, offset + (b + 1) * 16), and the
// block below it, (offset + (b + 1) * 16, offset). Threads 0-15 take a column of the first
// (U = L_diag^-1 A), threads 16-31 a row of the second (L = A U_diag^-1).
extern "C" __global__ void lu_perimeter(float *m, int n, int offset) {
  __shared__ float dia[LU_BS][LU_BS];
  __shared__ float row[LU_BS][LU_BS];
  __shared__ float col[LU_BS][LU_BS];
  const int t = threadIdx.x % LU_BS;
  const bool upper = threadIdx.x < LU_BS;
  const int far = offset + (blockIdx.x + 1) * LU_BS;
#pragma unroll 1
  for (int r = threadIdx.x / LU_BS; r < LU_BS; r += 2)
    dia[r][t] = m[(offset + r) * n + offset + t];
#pragma unroll 1
  for (int r = 0; r < LU_BS; ++r) {
    if (upper)
      row[r][t] = m[(offset + r) * n + far + t];
    else
      col[r][t] = m[(far + r) * n + offset + t];
  }
  __syncthreads();
  if (upper) {
#pragma unroll 1
    for (int i = 1; i < LU_BS; ++i) {
      float v = row[i][t];
#pragma unroll 1
      for (int k = 0; k < i; ++k) v -= dia[i][k] * row[k][t];
      row[i][t] = v;
    }
  } else {
#pragma unroll 1
    for (int j = 0; j < LU_BS; ++j) {
      float v = col[t][j];
#pragma unroll 1
      for (int k = 0; k < j; ++k) v -= col[t][k] * dia[k][j];
      col[t][j] = v / dia[j][j];
    }
  }
  __syncthreads();
#pragma unroll 1
  for (int r = 0; r < LU_BS; ++r) {
    if (upper)
      m[(offset + r) * n + far + t] = row[r][t];
    else
      m[(far + r) * n + offset + t] = col[r][t];
  }
}

// CTA (bx, by): the trailing block (offset + (by + 1) * 16, offset + (bx + 1) * 16) less the
// product of its perimeter column block and perimeter row block.
extern "C" __global__ void lu_internal(float *m, int n, int offset) {
  __shared__ float prow[LU_BS][LU_BS];
  __shared__ float pcol[LU_BS][LU_BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gr = offset + (blockIdx.y + 1) * LU_BS + ty;
  const int gc = offset + (blockIdx.x + 1) * LU_BS + tx;
  prow[ty][tx] = m[(offset + ty) * n + gc];
  pcol[ty][tx] = m[gr * n + offset + tx];
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < LU_BS; ++k) sum += pcol[ty][k] * prow[k][tx];
  m[gr * n + gc] -= sum;
}

#define PCR_N 128
#define PCR_STEPS 7

extern "C" __global__ void pcr_solve(float *x_out, const float *a_in, const float *b_in,
                                     const float *c_in, const float *d_in, int matrices) {
  __shared__ float a[PCR_N], b[PCR_N], c[PCR_N], d[PCR_N], x[PCR_N];
  const int i = threadIdx.x;
  const int sys = blockIdx.x;
  const int mat = sys % matrices;
  a[i] = a_in[mat * PCR_N + i];
  b[i] = b_in[mat * PCR_N + i];
  c[i] = c_in[mat * PCR_N + i];
  d[i] = d_in[sys * PCR_N + i];
  __syncthreads();
  int s = 1;
#pragma unroll 1
  for (int step = 0; step < PCR_STEPS; ++step) {
    // Equation i eliminates its neighbours i - s and i + s (absent beyond the ends).
    float na = 0.0f, nb = b[i], nc = 0.0f, nd = d[i];
    if (i - s >= 0) {
      const float k1 = a[i] / b[i - s];
      nb -= c[i - s] * k1;
      nd -= d[i - s] * k1;
      na = -a[i - s] * k1;
    }
    if (i + s < PCR_N) {
      const float k2 = c[i] / b[i + s];
      nb -= a[i + s] * k2;
      nd -= d[i + s] * k2;
      nc = -c[i + s] * k2;
    }
    __syncthreads();
    a[i] = na;
    b[i] = nb;
    c[i] = nc;
    d[i] = nd;
    __syncthreads();
    s *= 2;
  }
  x[i] = d[i] / b[i];
  __syncthreads();
  x_out[sys * PCR_N + i] = x[i];
}

extern "C" __global__ void mummer_walk(int *matched, const int4 *trie,
                                       const unsigned char *queries, int query_len,
                                       int count) {
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= count) return;
  const unsigned char *query = queries + q * query_len;
  int node = 0, len = 0;
#pragma unroll 1
  while (len < query_len) {
    const int4 children = trie[node];
    const int base = query[len];
    const int next = base == 0 ? children.x : base == 1 ? children.y : base == 2 ? children.z
                                                                                 : children.w;
    if (next < 0) break;
    node = next;
    ++len;
  }
  matched[q] = len;
}
