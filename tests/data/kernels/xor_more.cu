// Still more of Table 5's benchmarks for warpstep's XOR experiment (van den Braak et al.,
// "Configurable XOR Hash Functions for Banked Scratchpad Memories in GPUs", IEEE TC; `warpstep
// experiment xor`), beside xor.cu's and xor_suite.cu's: Rodinia's LUD diagonal step (LUD-2) and
// lavaMD, and the paper's two FFT kernels (FFT-1, FFT-2, its ref. [15]). Written for warpstep after
// the access patterns of the public versions (no code taken from them); none of them has padding
// to take out. Host references in src/research/experiment/xor_reference_more.rs.

// ---------------------------------------------------------------------------------------------
// LU decomposition's diagonal step (Rodinia's lud_diagonal, the paper's LUD-2): one block of 16
// threads factorises a 16 x 16 tile in place (Doolittle, no pivoting: unit-lower L below the
// diagonal, U on and above it). Rodinia runs it on one diagonal tile a launch; here block b takes
// tile b of a batch (m + 256 b, rows of 16) so that a launch fills the machine. Step i first has
// thread t > i finish L's column i on its own row, shadow[t][i]: words 16 t + i, 16 apart, the
// 16 lanes in two banks (up to 8-way; the reads of shadow[t][j] alike), then U's row i + 1,
// shadow[i + 1][t] (consecutive, conflict-free; shadow[j][t] too, shadow[i + 1][j] a broadcast).
// Rodinia's other shared-memory kernel, lud_internal, reads peri_col[ty][k] (two rows 16 words
// apart in a warp: different banks) and peri_row[k][tx] (the same 16 words for both half-warps: a
// broadcast), so it has no conflicts on 32 banks: Table 5's LUD-2 (mask 15 over the row bits 5-8)
// is this kernel's column walk.
#define LUD_B 16

extern "C" __global__ void lud_diagonal(float *m) {
  __shared__ float shadow[LUD_B][LUD_B];
  float *tile = m + blockIdx.x * LUD_B * LUD_B;
  int t = threadIdx.x;
  for (int i = 0; i < LUD_B; i++) shadow[i][t] = tile[i * LUD_B + t];
  __syncthreads();
  for (int i = 0; i < LUD_B - 1; i++) {
    if (t > i) {
      for (int j = 0; j < i; j++) shadow[t][i] -= shadow[t][j] * shadow[j][i];
      shadow[t][i] /= shadow[i][i];
    }
    __syncthreads();
    if (t > i) {
      for (int j = 0; j < i + 1; j++) shadow[i + 1][t] -= shadow[i + 1][j] * shadow[j][t];
    }
    __syncthreads();
  }
  for (int i = 1; i < LUD_B; i++) tile[i * LUD_B + t] = shadow[i][t];
}

// ---------------------------------------------------------------------------------------------
// lavaMD (Rodinia's kernel_gpu_cuda): particles in a bx x by x bz grid of boxes, 100 a box; block
// b (128 threads) computes the potential and force on box b's particles from its own box and its
// (up to 26) neighbours, thread t < 100 one particle. Rodinia computes in double (main.h's
// `#define fp double`), and so does this: a particle's position is four doubles (v, x, y, z:
// Rodinia's FOUR_VECTOR of fp), its charge a double, alpha and the exponential double. So the
// home box's positions (ra) and each neighbour's (rb) sit in shared memory as 32-byte structs:
// thread t reads and writes the doubles at words 8 t + 2 k, stride 8 words (a 64-bit access
// counted by its first word, as GPGPU-Sim does: src/mem/shared_banks.rs), 8-way under mod, and
// the charges (qb) at words 2 t, stride 2, 2-way: the strides of Table 5's lavaMD row (bit-vector
// k1=1 k2=6 mask=3; bitwise permutation (3)(4)(5)(6)(7)), which a float version (stride 4) does
// not have. The inner loop's rb[j] / qb[j] are broadcasts. The neighbours are found from the
// box's coordinates (Rodinia's host list holds the same boxes, home first, then dz, dy, dx from
// -1 to 1); the force accumulates in registers in Rodinia's order and is stored at the end.
#define PAR_PER_BOX 100

struct four {
  double v, x, y, z;
};

extern "C" __global__ void lava_md(four *fv, const four *rv, const double *qv, int bx, int by,
                                   int bz, double alpha) {
  __shared__ four ra[PAR_PER_BOX];
  __shared__ four rb[PAR_PER_BOX];
  __shared__ double qb[PAR_PER_BOX];
  int box = blockIdx.x;
  int t = threadIdx.x;
  int x = box % bx, y = (box / bx) % by, z = box / (bx * by);
  double a2 = 2.0 * alpha * alpha;
  int first_i = box * PAR_PER_BOX;
  if (t < PAR_PER_BOX) ra[t] = rv[first_i + t];
  four f = {0.0, 0.0, 0.0, 0.0};
  for (int k = -1; k < 27; k++) {
    int nx = x, ny = y, nz = z;
    if (k >= 0) {
      if (k == 13) continue;  // the home box, done first
      nx = x + k % 3 - 1;
      ny = y + (k / 3) % 3 - 1;
      nz = z + k / 9 - 1;
      if (nx < 0 || nx >= bx || ny < 0 || ny >= by || nz < 0 || nz >= bz) continue;
    }
    int first_j = ((nz * by + ny) * bx + nx) * PAR_PER_BOX;
    __syncthreads();
    if (t < PAR_PER_BOX) {
      rb[t] = rv[first_j + t];
      qb[t] = qv[first_j + t];
    }
    __syncthreads();
    if (t < PAR_PER_BOX) {
      for (int j = 0; j < PAR_PER_BOX; j++) {
        double r2 = ra[t].v + rb[j].v - (ra[t].x * rb[j].x + ra[t].y * rb[j].y + ra[t].z * rb[j].z);
        double u2 = a2 * r2;
        double vij = exp(-u2);
        double fs = 2.0 * vij;
        double dx = ra[t].x - rb[j].x;
        double dy = ra[t].y - rb[j].y;
        double dz = ra[t].z - rb[j].z;
        f.v += qb[j] * vij;
        f.x += qb[j] * (fs * dx);
        f.y += qb[j] * (fs * dy);
        f.z += qb[j] * (fs * dz);
      }
    }
  }
  if (t < PAR_PER_BOX) fv[first_i + t] = f;
}

// ---------------------------------------------------------------------------------------------
// FFT (the paper's FFT-1 and FFT-2, its ref. [15]): a block of 512 threads transforms 1,024
// complex floats held in shared memory as (re, im) word pairs, so complex c is words 2c and
// 2c + 1 (Table 5's k1 = 1 for both). Forward transforms, unscaled, natural order out.
#define FFT_N 1024
#define FFT_THREADS 512
#define FFT_LOG 10
#define FFT_PI 3.14159265358979f

// FFT-1: in-place radix-2 decimation in time. The input is scattered to bit-reversed places
// (thread t's complex t to rev(t): across a warp rev(t) differs in bits 5-9, words 64 apart, all
// in one bank under mod, 32-way), then stages of span h = 1 .. 512: thread t's butterfly takes
// complex i = 2h (t / h) + t mod h and i + h (for h < 32 the lanes' i skip bit log2 h: 4-way at
// h = 1, 2-way up to h = 16; from h = 32, consecutive complex: 2-way from the pairs).
extern "C" __global__ void fft_radix2(float *out, const float *in) {
  __shared__ float s[2 * FFT_N];
  int t = threadIdx.x;
  const float *src = in + blockIdx.x * 2 * FFT_N;
  for (int c = t; c < FFT_N; c += FFT_THREADS) {
    int r = __brev(c) >> (32 - FFT_LOG);
    s[2 * r] = src[2 * c];
    s[2 * r + 1] = src[2 * c + 1];
  }
  __syncthreads();
  for (int h = 1; h < FFT_N; h <<= 1) {
    int k = t & (h - 1);
    int i = 2 * (t - k) + k;
    int j = i + h;
    float sn, cs;
    __sincosf(-FFT_PI * k / h, &sn, &cs);
    float are = s[2 * i], aim = s[2 * i + 1];
    float bre = s[2 * j] * cs - s[2 * j + 1] * sn;
    float bim = s[2 * j] * sn + s[2 * j + 1] * cs;
    s[2 * i] = are + bre;
    s[2 * i + 1] = aim + bim;
    s[2 * j] = are - bre;
    s[2 * j + 1] = aim - bim;
    __syncthreads();
  }
  float *dst = out + blockIdx.x * 2 * FFT_N;
  for (int w = t; w < 2 * FFT_N; w += FFT_THREADS) dst[w] = s[w];
}

// FFT-2: radix-2 Stockham autosort (no bit reversal), ping-ponging between two shared buffers.
// Stage Ns = 1 .. 512 has thread t read complex t and t + 512 (consecutive across a warp: 2-way
// from the pairs) and write the butterfly to (t / Ns) 2 Ns + t mod Ns and Ns further (for Ns < 32
// the lanes skip bit log2 Ns: 4-way at Ns = 1, 2-way up to 16; then consecutive, 2-way).
extern "C" __global__ void fft_stockham(float *out, const float *in) {
  __shared__ float s[2][2 * FFT_N];
  int t = threadIdx.x;
  const float *src = in + blockIdx.x * 2 * FFT_N;
  for (int w = t; w < 2 * FFT_N; w += FFT_THREADS) s[0][w] = src[w];
  __syncthreads();
  int from = 0;
  for (int ns = 1; ns < FFT_N; ns <<= 1) {
    int k = t & (ns - 1);
    float sn, cs;
    __sincosf(-FFT_PI * k / ns, &sn, &cs);
    const float *x = s[from];
    float *y = s[1 - from];
    float are = x[2 * t], aim = x[2 * t + 1];
    float cre = x[2 * (t + FFT_THREADS)], cim = x[2 * (t + FFT_THREADS) + 1];
    float bre = cre * cs - cim * sn;
    float bim = cre * sn + cim * cs;
    int d = 2 * (t - k) + k;
    y[2 * d] = are + bre;
    y[2 * d + 1] = aim + bim;
    y[2 * (d + ns)] = are - bre;
    y[2 * (d + ns) + 1] = aim - bim;
    from = 1 - from;
    __syncthreads();
  }
  float *dst = out + blockIdx.x * 2 * FFT_N;
  for (int w = t; w < 2 * FFT_N; w += FFT_THREADS) dst[w] = s[from][w];
}

// ---------------------------------------------------------------------------------------------
// MRI gridding's radix sort step (Parboil's mri-gridding splitSort, one of the paper's MRI-grid
// kernels): a block of 256 threads sorts its 1,024 keys (4 a thread, with their values) stably by
// one 4-bit digit, four 1-bit splits, and counts the digit's histogram with shared atomics. A
// split writes each key's packed flag (1 in the low half for a 0 bit, in the high half for a 1) at
// its current place, words 4 t + k on the first split (stride 4, 4-way), data-dependent places
// after, then scans the 1,024 flags (Blelloch, 256 threads: words 2 s t + s - 1 and 2 s t + 2 s - 1,
// strides 2 to 1,024 as scan512's; Parboil's CONFLICT_FREE_OFFSET shifts by 32 bits in all and is
// zero: no padding to take out) and reads each key's new place back. Keys and values go to
// separate output buffers (Parboil sorts in place; the shared accesses are the same).
#define SORT_BS 256
#define SORT_N (4 * SORT_BS)
#define SORT_BITS 4

extern "C" __global__ void split_sort(unsigned *keys_out, unsigned *values_out, unsigned *histo,
                                      const unsigned *keys, const unsigned *values, int iter) {
  __shared__ unsigned flags[SORT_N + 1];
  __shared__ unsigned histo_s[1 << SORT_BITS];
  int t = threadIdx.x;
  int base = blockIdx.x * SORT_N;
  unsigned key[4], val[4];
  int pos[4];
  for (int k = 0; k < 4; k++) {
    key[k] = keys[base + 4 * t + k];
    val[k] = values[base + 4 * t + k];
    pos[k] = 4 * t + k;
  }
  if (t < (1 << SORT_BITS)) histo_s[t] = 0;
  __syncthreads();
  int shift = SORT_BITS * iter;
  for (int k = 0; k < 4; k++) atomicAdd(&histo_s[(key[k] >> shift) & ((1 << SORT_BITS) - 1)], 1u);
  for (int bit = shift; bit < shift + SORT_BITS; bit++) {
    unsigned flag[4];
    for (int k = 0; k < 4; k++) {
      flag[k] = (key[k] >> bit) & 1u;
      flags[pos[k]] = 1u << (16 * flag[k]);
    }
    // Exclusive scan of flags[0, 1024), the total to flags[1024].
    int stride = 1;
    for (int pairs = SORT_N / 2; pairs > 0; pairs >>= 1) {
      __syncthreads();
      for (int j = t; j < pairs; j += SORT_BS) {
        int bi = 2 * stride * (j + 1) - 1;
        flags[bi] += flags[bi - stride];
      }
      stride <<= 1;
    }
    __syncthreads();
    if (t == 0) {
      flags[SORT_N] = flags[SORT_N - 1];
      flags[SORT_N - 1] = 0;
    }
    for (int pairs = 1; pairs < SORT_N; pairs <<= 1) {
      stride >>= 1;
      __syncthreads();
      for (int j = t; j < pairs; j += SORT_BS) {
        int bi = 2 * stride * (j + 1) - 1;
        unsigned a = flags[bi - stride];
        flags[bi - stride] = flags[bi];
        flags[bi] += a;
      }
    }
    __syncthreads();
    unsigned zeros = flags[SORT_N] & 0xffffu;
    for (int k = 0; k < 4; k++)
      pos[k] = ((flags[pos[k]] >> (16 * flag[k])) & 0xffffu) + (flag[k] ? zeros : 0u);
    __syncthreads();
  }
  for (int k = 0; k < 4; k++) {
    keys_out[base + pos[k]] = key[k];
    values_out[base + pos[k]] = val[k];
  }
  if (t < (1 << SORT_BITS)) histo[gridDim.x * t + blockIdx.x] = histo_s[t];
}
