// Kernels of the XOR bank-hashing paper's kinds (van den Braak et al., IEEE TC, Table 5) that
// the elastic set (elastic.cu) does not cover, written for warpstep's XOR experiment
// (`warpstep experiment xor`, docs/xor.md). Each keeps the bank conflicts of its SDK original
// with the hand padding taken out, as the paper's baselines do. Integer data, so every output
// is checked exactly against the host's reference. Compiled by warpstep itself
// (`warpstep ptx xor.cu > xor.warpstep.ptx`).

// ---------------------------------------------------------------------------------------------
// Fast Walsh transform (the CUDA SDK's fastWalshTransform, fwtBatch1Kernel): one block
// transforms 1,024 ints in shared memory with radix-4 butterflies, strides 256, 64, 16, 4 and
// 1. Thread t of a stride-s step touches words i0 = 4 (t - t mod s) + t mod s and i0 + s,
// i0 + 2s, i0 + 3s: below a stride of 32 the lanes' words are 4 s apart in runs of s.
#define FWT_N 1024

extern "C" __global__ void fwt1024(int *out, const int *in) {
  __shared__ int s[FWT_N];
  const int *src = in + blockIdx.x * FWT_N;
  for (int i = threadIdx.x; i < FWT_N; i += blockDim.x) s[i] = src[i];
  for (int stride = FWT_N >> 2; stride > 0; stride >>= 2) {
    __syncthreads();
    int lo = threadIdx.x & (stride - 1);
    int i0 = ((threadIdx.x - lo) << 2) + lo;
    int i1 = i0 + stride;
    int i2 = i1 + stride;
    int i3 = i2 + stride;
    int d0 = s[i0];
    int d1 = s[i1];
    int d2 = s[i2];
    int d3 = s[i3];
    int t = d0;
    d0 = d0 + d2;
    d2 = t - d2;
    t = d1;
    d1 = d1 + d3;
    d3 = t - d3;
    s[i0] = d0 + d1;
    s[i1] = d0 - d1;
    s[i2] = d2 + d3;
    s[i3] = d2 - d3;
  }
  __syncthreads();
  int *dst = out + blockIdx.x * FWT_N;
  for (int i = threadIdx.x; i < FWT_N; i += blockDim.x) dst[i] = s[i];
}

// ---------------------------------------------------------------------------------------------
// Work-efficient exclusive scan (Blelloch; GPU Gems 3 ch. 39 before its conflict-free offsets,
// the paper's "matrix scan" kind): one block scans 512 ints. The up-sweep's step with offset o
// has lane t read words o (2t + 1) - 1 and o (2t + 2) - 1: 2 o apart, up to 16-way conflicts.
#define SCAN_N 512

extern "C" __global__ void scan512(int *out, const int *in) {
  __shared__ int s[SCAN_N];
  int t = threadIdx.x;
  const int *src = in + blockIdx.x * SCAN_N;
  s[2 * t] = src[2 * t];
  s[2 * t + 1] = src[2 * t + 1];
  int offset = 1;
  for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    offset *= 2;
  }
  if (t == 0) s[SCAN_N - 1] = 0;
  for (int d = 1; d < SCAN_N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      int v = s[ai];
      s[ai] = s[bi];
      s[bi] += v;
    }
  }
  __syncthreads();
  int *dst = out + blockIdx.x * SCAN_N;
  dst[2 * t] = s[2 * t];
  dst[2 * t + 1] = s[2 * t + 1];
}

// ---------------------------------------------------------------------------------------------
// Column convolution (the CUDA SDK's convolutionColumnsKernel, the paper's conv kind) with its
// `+ 1` padding removed: a block (16, 8) filters 16 columns x 32 rows with a 17-tap kernel,
// keeping them with 8-row halos column-major in s[16][48]. Lane (x, y) of a warp (x 0-15,
// y 0-1) reads word 48 x + y + c: 48 = 16 (mod 32), so a warp's 32 words fall in 4 banks,
// 8-way conflicts on every access.
#define CONV_R 8
#define CONV_ROWS 48

extern "C" __global__ void conv_cols(int *out, const int *in, const int *taps, int width,
                                     int height) {
  __shared__ int s[16][CONV_ROWS];
  int x = threadIdx.x;
  int y = threadIdx.y;
  int col = blockIdx.x * 16 + x;
  int row0 = blockIdx.y * 32 - 8;
  for (int i = 0; i < 6; i++) {
    int row = row0 + i * 8 + y;
    s[x][i * 8 + y] = (row >= 0 && row < height) ? in[row * width + col] : 0;
  }
  __syncthreads();
  for (int i = 1; i < 5; i++) {
    int sum = 0;
    for (int j = -CONV_R; j <= CONV_R; j++) sum += taps[CONV_R + j] * s[x][i * 8 + y + j];
    out[(row0 + i * 8 + y) * width + col] = sum;
  }
}
