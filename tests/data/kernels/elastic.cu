// Kernels for the elastic pipeline experiment (issue 14): Gou & Gaydadjiev, "Elastic pipeline:
// addressing GPU on-chip shared memory bank conflicts", CF'11, Table 4. Written for warpstep
// after the paper's descriptions of the CUDA SDK 2.2 kernels and of Manavski's AES (its [17]),
// with the same shared-memory access patterns; docs/elastic-kernels.md derives each pattern's
// conflict degree on the paper's shared memory (8 banks of 4 bytes and an 8-wide SIMD: a warp
// of 32 is served as 4 sub-warps of 8 consecutive lanes).
//
// The paper's "*" kernels had the SDK's bank-conflict padding undone; both forms are here: the
// unpadded ones for the elastic pipeline runs (Figs. 8, 9), the padded ones for Fig. 10
// (hand-optimised code on the baseline).
//
//   transpose16, transpose16_padded   grid (16,16), block (16,16): a 256 x 256 matrix
//   reduce_interleaved                grid (16384), block (256): one partial sum per block
//   dct8x8, idct8x8 (and _padded)     grid (16,32), block (8,4,2): a 512 x 512 image
//   dct_short, idct_short (_padded)   grid (16,16), block (8,4,4): a 512 x 512 image of shorts
//   aes_encrypt, aes_decrypt          grid (257), block (256): AES-128, 4 threads per 16 bytes

// ---------------------------------------------------------------------------------------------
// Transpose (the SDK's "transpose", 16 x 16 tiles, one element per thread). A thread copies its
// element into the tile by rows, then writes one element of the transposed tile, reading the
// tile by columns. With rows of 16 words, the 8 lanes of a sub-warp (one threadIdx.y,
// threadIdx.x 0-7 or 8-15) read words 16 apart in the column read: all in one bank, 8 passes;
// the row write is conflict-free. The SDK pads a row to 17 words, which puts the 8 column words
// in 8 banks.

#define TR_TILE 16

template <int ROW>
__device__ __forceinline__ void transpose_tile(float *out, const float *in, int width,
                                               int height) {
  __shared__ float tile[TR_TILE * ROW];
  unsigned x = blockIdx.x * TR_TILE + threadIdx.x;
  unsigned y = blockIdx.y * TR_TILE + threadIdx.y;
  if (x < width && y < height) tile[threadIdx.y * ROW + threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TR_TILE + threadIdx.x;
  y = blockIdx.x * TR_TILE + threadIdx.y;
  if (x < height && y < width) out[y * height + x] = tile[threadIdx.x * ROW + threadIdx.y];
}

// `in` is `height` rows of `width`; `out` gets `width` rows of `height`.
extern "C" __global__ void transpose16(float *out, const float *in, int width, int height) {
  transpose_tile<TR_TILE>(out, in, width, height);
}

extern "C" __global__ void transpose16_padded(float *out, const float *in, int width,
                                              int height) {
  transpose_tile<TR_TILE + 1>(out, in, width, height);
}

// ---------------------------------------------------------------------------------------------
// Reduction with interleaved addressing and a strided index (the SDK's second reduction
// kernel): in step s the first blockDim.x / (2 s) threads add element index + s into element
// index = 2 s tid. Eight consecutive lanes touch words 2 s apart: 2, 4, then 8 of them share a
// bank, and the degree of the same instructions changes from step to step (Table 4's
// "irregular"). blockDim.x is a power of two, at most 256.

extern "C" __global__ void reduce_interleaved(const int *in, int *out, unsigned n) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// ---------------------------------------------------------------------------------------------
// 8 x 8 DCT and IDCT (the SDK dct8x8's second kernel): a block of (8,4,2) threads transforms a
// 32 x 16 tile of the image, eight 8 x 8 blocks. Thread (x, y, z) owns column x of block (y, z):
// it copies that column into the tile, transforms row x of the block (8 loads, 8 stores,
// step 1), then its column (step one tile row), and copies the column out. A warp is one z,
// a sub-warp one y: in the row pass its 8 lanes read and write words one tile row apart. With
// 32-word rows they are all in one bank (8 passes, 16 of the 48 shared accesses); the SDK pads
// a row to 33 words. The 1-D transform is the orthonormal DCT-II (DCT-III for the inverse) by
// an even/odd split, so the 2-D result is the orthonormal 2-D DCT of each 8 x 8 block.

#define DCT_TW 32
#define DCT_TH 16

// Half cosines: H[j] = cos(j pi / 16) / 2; C0 = 1 / sqrt(8).
#define DCT_C0 0.35355339059327373f
#define DCT_H1 0.49039264020161522f
#define DCT_H2 0.46193976625564337f
#define DCT_H3 0.41573480615127262f
#define DCT_H5 0.27778511650980114f
#define DCT_H6 0.19134171618254492f
#define DCT_H7 0.09754516100806417f

// Transforms the 8 values p[0], p[step], ..., p[7 * step] in place.
template <bool INVERSE>
__device__ __forceinline__ void dct8(float *p, int step) {
  float v0 = p[0 * step], v1 = p[1 * step], v2 = p[2 * step], v3 = p[3 * step];
  float v4 = p[4 * step], v5 = p[5 * step], v6 = p[6 * step], v7 = p[7 * step];
  if (!INVERSE) {
    float a0 = v0 + v7, a1 = v1 + v6, a2 = v2 + v5, a3 = v3 + v4;
    float b0 = v0 - v7, b1 = v1 - v6, b2 = v2 - v5, b3 = v3 - v4;
    float e0 = a0 + a3, e1 = a1 + a2, d0 = a0 - a3, d1 = a1 - a2;
    p[0 * step] = DCT_C0 * (e0 + e1);
    p[4 * step] = DCT_C0 * (e0 - e1);
    p[2 * step] = DCT_H2 * d0 + DCT_H6 * d1;
    p[6 * step] = DCT_H6 * d0 - DCT_H2 * d1;
    p[1 * step] = DCT_H1 * b0 + DCT_H3 * b1 + DCT_H5 * b2 + DCT_H7 * b3;
    p[3 * step] = DCT_H3 * b0 - DCT_H7 * b1 - DCT_H1 * b2 - DCT_H5 * b3;
    p[5 * step] = DCT_H5 * b0 - DCT_H1 * b1 + DCT_H7 * b2 + DCT_H3 * b3;
    p[7 * step] = DCT_H7 * b0 - DCT_H5 * b1 + DCT_H3 * b2 - DCT_H1 * b3;
  } else {
    float s = DCT_C0 * (v0 + v4), t = DCT_C0 * (v0 - v4);
    float u = DCT_H2 * v2 + DCT_H6 * v6, w = DCT_H6 * v2 - DCT_H2 * v6;
    float e0 = s + u, e3 = s - u, e1 = t + w, e2 = t - w;
    float o0 = DCT_H1 * v1 + DCT_H3 * v3 + DCT_H5 * v5 + DCT_H7 * v7;
    float o1 = DCT_H3 * v1 - DCT_H7 * v3 - DCT_H1 * v5 - DCT_H5 * v7;
    float o2 = DCT_H5 * v1 - DCT_H1 * v3 + DCT_H7 * v5 + DCT_H3 * v7;
    float o3 = DCT_H7 * v1 - DCT_H5 * v3 + DCT_H3 * v5 - DCT_H1 * v7;
    p[0 * step] = e0 + o0;
    p[7 * step] = e0 - o0;
    p[1 * step] = e1 + o1;
    p[6 * step] = e1 - o1;
    p[2 * step] = e2 + o2;
    p[5 * step] = e2 - o2;
    p[3 * step] = e3 + o3;
    p[4 * step] = e3 - o3;
  }
}

// `src` and `dst` are images of `pitch` floats a row; the grid covers them in 32 x 16 tiles.
template <int ROW, bool INVERSE>
__device__ __forceinline__ void dct_tile(float *dst, const float *src, int pitch) {
  __shared__ float tile[DCT_TH * ROW];
  const int col = threadIdx.y * 8 + threadIdx.x;  // this thread's column in the tile
  const int row0 = threadIdx.z * 8;               // first row of its 8 x 8 block
  const int offset = (blockIdx.y * DCT_TH + row0) * pitch + blockIdx.x * DCT_TW + col;
  float *column = tile + row0 * ROW + col;
#pragma unroll
  for (int k = 0; k < 8; k++) column[k * ROW] = src[offset + k * pitch];
  __syncthreads();
  dct8<INVERSE>(tile + (row0 + threadIdx.x) * ROW + threadIdx.y * 8, 1);
  __syncthreads();
  dct8<INVERSE>(column, ROW);
  // The column pass wrote the very words this thread reads back; without the barrier the
  // compiler forwards them in registers and drops the 8 loads the SDK kernel makes.
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 8; k++) dst[offset + k * pitch] = column[k * ROW];
}

extern "C" __global__ void dct8x8(float *dst, const float *src, int pitch) {
  dct_tile<DCT_TW, false>(dst, src, pitch);
}

extern "C" __global__ void idct8x8(float *dst, const float *src, int pitch) {
  dct_tile<DCT_TW, true>(dst, src, pitch);
}

extern "C" __global__ void dct8x8_padded(float *dst, const float *src, int pitch) {
  dct_tile<DCT_TW + 1, false>(dst, src, pitch);
}

extern "C" __global__ void idct8x8_padded(float *dst, const float *src, int pitch) {
  dct_tile<DCT_TW + 1, true>(dst, src, pitch);
}

// ---------------------------------------------------------------------------------------------
// 8 x 8 DCT and IDCT on 16-bit data (the SDK dct8x8's short kernels, Table 4's DCT_short and
// IDCT_short): a block of (8,4,4) threads transforms a 32 x 32 tile of shorts in place, sixteen
// 8 x 8 blocks. Lane = threadIdx.y * 8 + threadIdx.x (0-31), band = 8 threadIdx.z. Four phases,
// 40 shared instructions a thread:
//   load    lanes 0-15 copy two shorts (one word) of each of the band's 8 rows: 8 word stores;
//   columns lane l transforms a column of the band: lanes 0-15 the even columns 2l, lanes 16-31
//           the odd ones, so a sub-warp's 8 lanes touch 8 different words: 8 + 8 short accesses;
//   rows    lane l transforms the 8 shorts of row l at column band as 4 words: 4 + 4 accesses;
//   store   lanes 0-15 copy the band's rows back: 8 word loads.
// With 32-short rows (16 words) the row pass's 8 lanes read words 16 apart: one bank, 8 passes,
// the only conflicts; (2 x 8 + 4 x 16 + 4 x 8 x 8 + 2 x 8) / (2 x 8 + 4 x 16 + 4 x 8 + 2 x 8)
// = 2.75 passes a sub-warp access, Table 4's degree. The SDK pads a row to 34 shorts.
// Arithmetic is fixed point: the constants of dct8 times 2^14, each output rounded to nearest
// ((x + 2^13) >> 14, an arithmetic shift) and kept in a short.

#define DS_TILE 32
#define DS_Q 14
#define DS_C0 5793   // round(DCT_C0 * 2^14)
#define DS_H1 8035
#define DS_H2 7568
#define DS_H3 6811
#define DS_H5 4551
#define DS_H6 3135
#define DS_H7 1598

__device__ __forceinline__ short ds_round(int x) { return (short)((x + (1 << (DS_Q - 1))) >> DS_Q); }

// Transforms v[0..7] in place: the integer twin of dct8.
template <bool INVERSE>
__device__ __forceinline__ void dct8_short(int *v) {
  if (!INVERSE) {
    int a0 = v[0] + v[7], a1 = v[1] + v[6], a2 = v[2] + v[5], a3 = v[3] + v[4];
    int b0 = v[0] - v[7], b1 = v[1] - v[6], b2 = v[2] - v[5], b3 = v[3] - v[4];
    int e0 = a0 + a3, e1 = a1 + a2, d0 = a0 - a3, d1 = a1 - a2;
    v[0] = ds_round(DS_C0 * (e0 + e1));
    v[4] = ds_round(DS_C0 * (e0 - e1));
    v[2] = ds_round(DS_H2 * d0 + DS_H6 * d1);
    v[6] = ds_round(DS_H6 * d0 - DS_H2 * d1);
    v[1] = ds_round(DS_H1 * b0 + DS_H3 * b1 + DS_H5 * b2 + DS_H7 * b3);
    v[3] = ds_round(DS_H3 * b0 - DS_H7 * b1 - DS_H1 * b2 - DS_H5 * b3);
    v[5] = ds_round(DS_H5 * b0 - DS_H1 * b1 + DS_H7 * b2 + DS_H3 * b3);
    v[7] = ds_round(DS_H7 * b0 - DS_H5 * b1 + DS_H3 * b2 - DS_H1 * b3);
  } else {
    int s = DS_C0 * (v[0] + v[4]), t = DS_C0 * (v[0] - v[4]);
    int u = DS_H2 * v[2] + DS_H6 * v[6], w = DS_H6 * v[2] - DS_H2 * v[6];
    int e0 = s + u, e3 = s - u, e1 = t + w, e2 = t - w;
    int o0 = DS_H1 * v[1] + DS_H3 * v[3] + DS_H5 * v[5] + DS_H7 * v[7];
    int o1 = DS_H3 * v[1] - DS_H7 * v[3] - DS_H1 * v[5] - DS_H5 * v[7];
    int o2 = DS_H5 * v[1] - DS_H1 * v[3] + DS_H7 * v[5] + DS_H3 * v[7];
    int o3 = DS_H7 * v[1] - DS_H5 * v[3] + DS_H3 * v[5] - DS_H1 * v[7];
    v[0] = ds_round(e0 + o0);
    v[7] = ds_round(e0 - o0);
    v[1] = ds_round(e1 + o1);
    v[6] = ds_round(e1 - o1);
    v[2] = ds_round(e2 + o2);
    v[5] = ds_round(e2 - o2);
    v[3] = ds_round(e3 + o3);
    v[4] = ds_round(e3 - o3);
  }
}

// `img` is an image of `pitch` shorts a row (pitch even), transformed in place in 32 x 32
// tiles; ROW is the tile's row in shorts (even).
template <int ROW, bool INVERSE>
__device__ __forceinline__ void dct_short_tile(short *img, int pitch) {
  __shared__ unsigned words[DS_TILE * ROW / 2];
  short *tile = (short *)words;
  const int lane = threadIdx.y * 8 + threadIdx.x;
  const int band = threadIdx.z * 8;
  short *global = img + (blockIdx.y * DS_TILE + band) * pitch + blockIdx.x * DS_TILE + 2 * lane;
  short *shared = tile + band * ROW + 2 * lane;
  if (lane < DS_TILE / 2) {
#pragma unroll
    for (int i = 0; i < 8; i++) *(unsigned *)(shared + i * ROW) = *(const unsigned *)(global + i * pitch);
  }
  __syncthreads();
  {
    short *column = tile + band * ROW + (lane < 16 ? 2 * lane : 2 * (lane - 16) + 1);
    int v[8];
#pragma unroll
    for (int i = 0; i < 8; i++) v[i] = column[i * ROW];
    dct8_short<INVERSE>(v);
#pragma unroll
    for (int i = 0; i < 8; i++) column[i * ROW] = (short)v[i];
  }
  __syncthreads();
  {
    unsigned *row = (unsigned *)(tile + lane * ROW + band);
    int v[8];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      unsigned w = row[j];
      v[2 * j] = (short)(w & 0xffffu);
      v[2 * j + 1] = (short)(w >> 16);
    }
    dct8_short<INVERSE>(v);
#pragma unroll
    for (int j = 0; j < 4; j++) row[j] = (unsigned)(unsigned short)v[2 * j] | ((unsigned)(unsigned short)v[2 * j + 1] << 16);
  }
  __syncthreads();
  if (lane < DS_TILE / 2) {
#pragma unroll
    for (int i = 0; i < 8; i++) *(unsigned *)(global + i * pitch) = *(const unsigned *)(shared + i * ROW);
  }
}

extern "C" __global__ void dct_short(short *img, int pitch) {
  dct_short_tile<DS_TILE, false>(img, pitch);
}

extern "C" __global__ void idct_short(short *img, int pitch) {
  dct_short_tile<DS_TILE, true>(img, pitch);
}

extern "C" __global__ void dct_short_padded(short *img, int pitch) {
  dct_short_tile<DS_TILE + 2, false>(img, pitch);
}

extern "C" __global__ void idct_short_padded(short *img, int pitch) {
  dct_short_tile<DS_TILE + 2, true>(img, pitch);
}

// ---------------------------------------------------------------------------------------------
// AES-128 with T-tables in shared memory (after Manavski's aesEncrypt128/aesDecrypt128, the
// paper's Fig. 2). 256 threads a block, 4 threads per 16-byte AES block: thread tx holds state
// column c = tx % 4 of block tx / 4 as a little-endian word (byte r = row r). Each block first
// builds the four 256-word tables in shared memory from the S-box. A round (paper's phases):
//   I   four byte loads from the other state buffer, row r from column (c +- r) % 4 (ShiftRows):
//       the 8 lanes of a sub-warp read 8 different words of two AES blocks, one per bank;
//   II  four table loads T_r[byte]: data-dependent indices, so 8 lanes land in random banks
//       (on average 2.6 passes for 8 uniform lanes on 8 banks) -- the conflicts;
//   III xor with the round key (global memory, as the original's texture);
//   IV  one store of the new column to the other buffer, conflict-free.
// The last round looks the S-box up byte-wise (encrypt: byte 3 of T1; decrypt: a fifth table
// holding the inverse S-box) and stores 4 bytes. Round keys: 44 words (decrypt: the equivalent
// inverse cipher's, InvMixColumns applied to rounds 1-9, last round first).

__constant__ unsigned char aes_sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

__constant__ unsigned char aes_inv_sbox[256] = {
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
    0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87, 0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
    0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
    0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16, 0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
    0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
    0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02, 0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
    0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
    0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89, 0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
    0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
    0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d, 0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
    0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d,
};

#define AES_THREADS 256

__device__ __forceinline__ unsigned gf_double(unsigned b) {
  return ((b << 1) ^ ((b & 0x80) ? 0x1b : 0)) & 0xff;
}

__device__ __forceinline__ unsigned rotl8(unsigned w, int bytes) {
  return (w << (8 * bytes)) | (w >> (32 - 8 * bytes));
}

// Byte `r` of word `w` of a shared buffer (a byte load, as the original's UByte4 union).
__device__ __forceinline__ unsigned byte_of(const unsigned *buf, unsigned w, int r) {
  return reinterpret_cast<const unsigned char *>(buf + w)[r];
}

// One full round: column c of the block at `base` from `src` into `dst[tx]`. SHIFT is 1 for
// ShiftRows (row r from column c + r), 3 for InvShiftRows (c - r = c + 3 r, mod 4).
template <unsigned SHIFT>
__device__ __forceinline__ void aes_round(unsigned *dst, const unsigned *src, const unsigned *t0,
                                          const unsigned *t1, const unsigned *t2,
                                          const unsigned *t3, unsigned key, unsigned tx,
                                          unsigned base, unsigned c) {
  unsigned b0 = byte_of(src, base + c, 0);                           // phase I
  unsigned b1 = byte_of(src, base + ((c + SHIFT * 1) & 3), 1);
  unsigned b2 = byte_of(src, base + ((c + SHIFT * 2) & 3), 2);
  unsigned b3 = byte_of(src, base + ((c + SHIFT * 3) & 3), 3);
  unsigned w = t0[b0] ^ t1[b1] ^ t2[b2] ^ t3[b3];                     // phase II
  dst[tx] = w ^ key;                                                  // phases III, IV
}

template <bool DECRYPT>
__device__ __forceinline__ void aes_block(unsigned *out, const unsigned *in, const unsigned *rk) {
  __shared__ unsigned stage1[AES_THREADS], stage2[AES_THREADS];
  __shared__ unsigned t0[256], t1[256], t2[256], t3[256];
  __shared__ unsigned inv_sbox[DECRYPT ? 256 : 1];
  constexpr unsigned SHIFT = DECRYPT ? 3 : 1;
  const unsigned tx = threadIdx.x;
  const unsigned c = tx & 3, base = tx & ~3u;

  // Tables: encrypt T0[x] = (2s, s, s, 3s) with s = S[x]; decrypt T0[x] = (14s, 9s, 13s, 11s)
  // with s = InvS[x]; T_r = T0 rotated left by r bytes.
  stage1[tx] = in[blockIdx.x * AES_THREADS + tx];
  unsigned entry;
  if (!DECRYPT) {
    unsigned s = aes_sbox[tx], s2 = gf_double(s);
    entry = s2 | (s << 8) | (s << 16) | ((s2 ^ s) << 24);
  } else {
    unsigned s = aes_inv_sbox[tx], s2 = gf_double(s), s4 = gf_double(s2), s8 = gf_double(s4);
    entry = (s8 ^ s4 ^ s2) | ((s8 ^ s) << 8) | ((s8 ^ s4 ^ s) << 16) | ((s8 ^ s2 ^ s) << 24);
    inv_sbox[tx] = s;
  }
  t0[tx] = entry;
  t1[tx] = rotl8(entry, 1);
  t2[tx] = rotl8(entry, 2);
  t3[tx] = rotl8(entry, 3);
  __syncthreads();

  // The round keys are read through the read-only (texture) path, as Manavski's kernel fetches
  // them from a texture (tex1Dfetch): cached on chip, not read from DRAM by every warp.
  stage2[tx] = stage1[tx] ^ __ldg(rk + c);  // AddRoundKey
  __syncthreads();

#pragma unroll
  for (int round = 1; round < 10; round++) {
    unsigned *src = (round & 1) ? stage2 : stage1;
    unsigned *dst = (round & 1) ? stage1 : stage2;
    aes_round<SHIFT>(dst, src, t0, t1, t2, t3, __ldg(rk + 4 * round + c), tx, base, c);
    __syncthreads();
  }

  // Round 10 (SubBytes, ShiftRows, AddRoundKey) from stage1 into stage2, byte by byte.
  unsigned b0 = byte_of(stage1, base + c, 0);
  unsigned b1 = byte_of(stage1, base + ((c + SHIFT * 1) & 3), 1);
  unsigned b2 = byte_of(stage1, base + ((c + SHIFT * 2) & 3), 2);
  unsigned b3 = byte_of(stage1, base + ((c + SHIFT * 3) & 3), 3);
  unsigned key = __ldg(rk + 40 + c);
  // volatile: four byte stores, as the original (the compiler would merge them into one).
  volatile unsigned char *o = reinterpret_cast<unsigned char *>(stage2 + tx);
  if (!DECRYPT) {
    o[3] = byte_of(t1, b3, 3) ^ (key >> 24);
    o[2] = byte_of(t1, b2, 3) ^ ((key >> 16) & 0xff);
    o[1] = byte_of(t1, b1, 3) ^ ((key >> 8) & 0xff);
    o[0] = byte_of(t1, b0, 3) ^ (key & 0xff);
  } else {
    o[3] = byte_of(inv_sbox, b3, 0) ^ (key >> 24);
    o[2] = byte_of(inv_sbox, b2, 0) ^ ((key >> 16) & 0xff);
    o[1] = byte_of(inv_sbox, b1, 0) ^ ((key >> 8) & 0xff);
    o[0] = byte_of(inv_sbox, b0, 0) ^ (key & 0xff);
  }
  __syncthreads();
  out[blockIdx.x * AES_THREADS + tx] = stage2[tx];
}

// `in` and `out`: gridDim.x * 256 words (64 AES blocks per thread block, FIPS-197 byte order,
// little-endian words); `rk`: 44 round-key words (aes_decrypt: the equivalent inverse cipher's).
extern "C" __global__ void aes_encrypt(unsigned *out, const unsigned *in, const unsigned *rk) {
  aes_block<false>(out, in, rk);
}

extern "C" __global__ void aes_decrypt(unsigned *out, const unsigned *in, const unsigned *rk) {
  aes_block<true>(out, in, rk);
}
