// More of Table 5's benchmarks for warpstep's XOR experiment (van den Braak et al., "Configurable
// XOR Hash Functions for Banked Scratchpad Memories in GPUs", IEEE TC; `warpstep experiment
// xor`, docs/xor.md), beside xor.cu's: the paper's two histograms and the SDK's 1-D Haar
// wavelet. Written for warpstep after the access patterns of the public versions, with any
// conflict-avoiding padding taken out as the paper's baselines do. Integer data, so every output
// is checked exactly against the host's reference (xor_reference_suite.rs).

// ---------------------------------------------------------------------------------------------
// Histograms (the paper's hist64 and hist256, §7.1 and §7.2: "histograms of 64 and 256 bins ...
// using a replication factor of 32, which is the number of sub-histograms in shared memory per
// thread block"). The input is the CUDA SDK's: 32-bit words of four packed bytes, read with a
// grid-stride loop, each block writing one partial histogram (the SDK's d_PartialHistograms).
// hist64 counts the byte's top six bits (the SDK's histogram64 bin), hist256 the byte. Thread t
// counts into sub-histogram t mod 32 (Gómez-Luna et al.'s replication, the paper's ref. [18]),
// which starts at word BINS * (t mod 32) and is updated with shared atomics (the SDK's
// histogram256 on Fermi). An update's word is BINS * lane + bin: the lane (a structured offset
// in bits 6-10 or 8-12) beside the data-dependent bin, whose low five bits pick the bank under
// mod. The merge has thread b sum bin b over the 32 sub-histograms: words BINS * r + b,
// consecutive across a warp.
#define HIST_REP 32

template <int BINS, int SHIFT>
__device__ void histogram(unsigned *partial, const unsigned *data, int words) {
  __shared__ unsigned s[HIST_REP * BINS];
  for (int i = threadIdx.x; i < HIST_REP * BINS; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned *mine = s + (threadIdx.x % HIST_REP) * BINS;
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < words;
       pos += blockDim.x * gridDim.x) {
    unsigned d = data[pos];
    atomicAdd(mine + (((d >> 0) & 0xffu) >> SHIFT), 1u);
    atomicAdd(mine + (((d >> 8) & 0xffu) >> SHIFT), 1u);
    atomicAdd(mine + (((d >> 16) & 0xffu) >> SHIFT), 1u);
    atomicAdd(mine + (((d >> 24) & 0xffu) >> SHIFT), 1u);
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < BINS; bin += blockDim.x) {
    unsigned sum = 0;
    for (int r = 0; r < HIST_REP; r++) sum += s[r * BINS + bin];
    partial[blockIdx.x * BINS + bin] = sum;
  }
}

extern "C" __global__ void hist64(unsigned *partial, const unsigned *data, int words) {
  histogram<64, 2>(partial, data, words);
}

extern "C" __global__ void hist256(unsigned *partial, const unsigned *data, int words) {
  histogram<256, 0>(partial, data, words);
}

// ---------------------------------------------------------------------------------------------
// 1-D Haar wavelet decomposition (the CUDA SDK's dwtHaar1D): a block of 512 threads takes 1,024
// ints through 10 levels. Level 1 reads words 2t and 2t + 1 (2-way conflicts) and keeps the
// approximations at words t; level i > 1 has thread t < 512 >> (i - 1) read words 2^i t and
// 2^i t + 2^(i-1), strides up to 32-way conflicting: the SDK's `idx + (idx >> LOG_NUM_BANKS)`
// padding is taken out. Unnormalised (sum and difference, not times 1/sqrt(2)), so the data
// stay integers. Detail coefficients go to their final place in `out` (level i's of block b at
// (512 >> (i - 1)) * gridDim + b * (512 >> (i - 1)) + t, as the SDK stores them; out[0, gridDim)
// is left for the host's next pass), the block's last approximation to approx[b].
#define HAAR_THREADS 512
#define HAAR_LEVELS 10

extern "C" __global__ void dwt_haar1d(int *out, int *approx, const int *in) {
  __shared__ int s[2 * HAAR_THREADS];
  int t = threadIdx.x;
  int b = blockIdx.x;
  int g = gridDim.x;
  const int *src = in + b * 2 * HAAR_THREADS;
  s[t] = src[t];
  s[t + HAAR_THREADS] = src[t + HAAR_THREADS];
  __syncthreads();
  int d0 = s[2 * t];
  int d1 = s[2 * t + 1];
  __syncthreads();
  out[HAAR_THREADS * g + b * HAAR_THREADS + t] = d0 - d1;
  s[t] = d0 + d1;
  __syncthreads();
  int threads = HAAR_THREADS >> 1;
  int step = 1;
  int i0 = 2 * t;
  for (int level = 1; level < HAAR_LEVELS; level++) {
    if (t < threads) {
      int i1 = i0 + step;
      out[threads * g + b * threads + t] = s[i0] - s[i1];
      s[i0] = s[i0] + s[i1];
      threads >>= 1;
      step <<= 1;
      i0 <<= 1;
    }
    __syncthreads();
  }
  if (t == 0) approx[b] = s[0];
}

// ---------------------------------------------------------------------------------------------
// Needleman-Wunsch (Rodinia's nw, needle_cuda_shared_1 and _2: the paper's NW-1 and NW-2): one
// block of 16 threads scores a 16 x 16 tile of the (cols x cols) matrix, tiles along one block
// anti-diagonal per launch (kernel 1 the upper-left triangle's diagonals, kernel 2 the
// lower-right's). The tile's scores sit in s[17][17] with its north and west borders, the
// similarities in w[16][16]. The wavefront has thread t on row r - t of diagonal r: words
// 17 (r - t + 1) + t + 1, 16 apart across the lanes, so 16 lanes fall in two banks (8-way);
// w's reads are 15 apart and conflict-free. Rodinia's tiles have no padding to take out.
#define NW_B 16

__device__ int nw_max(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

__device__ void nw_tile(const int *sim, int *score, int cols, int penalty, int tile_y,
                        int tile_x) {
  __shared__ int s[NW_B + 1][NW_B + 1];
  __shared__ int w[NW_B][NW_B];
  int t = threadIdx.x;
  int nw = cols * NW_B * tile_y + NW_B * tile_x;
  int first = nw + cols + 1 + t;
  if (t == 0) s[0][0] = score[nw];
  for (int r = 0; r < NW_B; r++) w[r][t] = sim[first + cols * r];
  __syncthreads();
  s[t + 1][0] = score[nw + cols * (t + 1)];
  __syncthreads();
  s[0][t + 1] = score[nw + 1 + t];
  __syncthreads();
  // The upper-left half of the tile's anti-diagonals, then the lower-right half.
  for (int d = 0; d < NW_B; d++) {
    if (t <= d) {
      int x = t + 1;
      int y = d - t + 1;
      s[y][x] = nw_max(s[y - 1][x - 1] + w[y - 1][x - 1], s[y][x - 1] - penalty,
                       s[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  for (int d = NW_B - 2; d >= 0; d--) {
    if (t <= d) {
      int x = t + NW_B - d;
      int y = NW_B - t;
      s[y][x] = nw_max(s[y - 1][x - 1] + w[y - 1][x - 1], s[y][x - 1] - penalty,
                       s[y - 1][x] - penalty);
    }
    __syncthreads();
  }
  for (int r = 0; r < NW_B; r++) score[first + cols * r] = s[r + 1][t + 1];
}

// Block anti-diagonal `diagonal` (1 .. tiles) of the upper-left triangle: tile (diagonal - 1 -
// b, b).
extern "C" __global__ void nw_1(const int *sim, int *score, int cols, int penalty,
                                int diagonal) {
  nw_tile(sim, score, cols, penalty, diagonal - 1 - blockIdx.x, blockIdx.x);
}

// Block anti-diagonal `diagonal` (tiles - 1 .. 1) of the lower-right triangle: tile
// (tiles - 1 - b, b + tiles - diagonal).
extern "C" __global__ void nw_2(const int *sim, int *score, int cols, int penalty, int diagonal,
                                int tiles) {
  nw_tile(sim, score, cols, penalty, tiles - 1 - blockIdx.x, blockIdx.x + tiles - diagonal);
}

// ---------------------------------------------------------------------------------------------
// LU decomposition's perimeter step (Rodinia's lud_perimeter, the paper's LUD): with the
// 16 x 16 diagonal block at (offset, offset) factorised, block b of 32 threads updates the
// row block b + 1 to its right (threads 0-15, one column each: forward substitution with the
// diagonal block's unit-lower part) and the column block b + 1 below it (threads 16-31, one row
// each: the upper part, then a division by the pivot). Row-block threads read the tiles
// row-wise (words 16 i + t, conflict-free); column-block threads walk their own row of the
// column tile, words 16 t + i: 16 apart, 16 lanes in two banks (8-way). Rodinia's tiles have no
// padding to take out.
#define LUD_B 16

extern "C" __global__ void lud_perimeter(float *m, int dim, int offset) {
  __shared__ float dia[LUD_B][LUD_B];
  __shared__ float row[LUD_B][LUD_B];
  __shared__ float col[LUD_B][LUD_B];
  int at = offset * dim + offset;
  int block = (blockIdx.x + 1) * LUD_B;
  if (threadIdx.x < LUD_B) {
    int t = threadIdx.x;
    for (int i = 0; i < LUD_B / 2; i++) dia[i][t] = m[at + i * dim + t];
    for (int i = 0; i < LUD_B; i++) row[i][t] = m[at + i * dim + block + t];
  } else {
    int t = threadIdx.x - LUD_B;
    for (int i = LUD_B / 2; i < LUD_B; i++) dia[i][t] = m[at + i * dim + t];
    for (int i = 0; i < LUD_B; i++) col[i][t] = m[at + (block + i) * dim + t];
  }
  __syncthreads();
  if (threadIdx.x < LUD_B) {
    int t = threadIdx.x;
    for (int i = 1; i < LUD_B; i++)
      for (int j = 0; j < i; j++) row[i][t] -= dia[i][j] * row[j][t];
  } else {
    int t = threadIdx.x - LUD_B;
    for (int i = 0; i < LUD_B; i++) {
      for (int j = 0; j < i; j++) col[t][i] -= col[t][j] * dia[j][i];
      col[t][i] /= dia[i][i];
    }
  }
  __syncthreads();
  if (threadIdx.x < LUD_B) {
    int t = threadIdx.x;
    for (int i = 1; i < LUD_B; i++) m[at + i * dim + block + t] = row[i][t];
  } else {
    int t = threadIdx.x - LUD_B;
    for (int i = 0; i < LUD_B; i++) m[at + (block + i) * dim + t] = col[i][t];
  }
}
