// Rodinia's programs without shared memory for the MRPB experiment (issue 33; MRPB §5.6 and
// Table 3's "/U", "unshared versions", which read global memory where the originals stage
// tiles in shared memory). Ours, written for warpstep with the originals' launches.
//
// SRAD/U: Rodinia srad v2's two kernels (16 x 16 blocks, grid cols/16 x rows/16, row-major
// rows x cols image J), each thread reading its neighbours from global memory, clamped at the
// image border, where srad_cuda_1 and srad_cuda_2 load 16 x 16 tiles and their halos into
// shared memory first (MRPB Fig. 3).

#define BLOCK 16

extern "C" {

// SRAD/U, first kernel: the directional derivatives N, S, W, E of J at each pixel and the
// diffusion coefficient C (saturated to [0, 1]).
__global__ void srad_u_1(float *e_c, float *w_c, float *n_c, float *s_c, const float *j,
                         float *c, int cols, int rows, float q0sqr) {
  int x = blockIdx.x * BLOCK + threadIdx.x;
  int y = blockIdx.y * BLOCK + threadIdx.y;
  int k = y * cols + x;
  float jc = j[k];
  float n = j[(y > 0 ? y - 1 : 0) * cols + x] - jc;
  float s = j[(y < rows - 1 ? y + 1 : rows - 1) * cols + x] - jc;
  float w = j[y * cols + (x > 0 ? x - 1 : 0)] - jc;
  float e = j[y * cols + (x < cols - 1 ? x + 1 : cols - 1)] - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1.0f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float cv = 1.0f / (1.0f + den);
  c[k] = cv < 0.0f ? 0.0f : (cv > 1.0f ? 1.0f : cv);
  n_c[k] = n;
  s_c[k] = s;
  w_c[k] = w;
  e_c[k] = e;
}

// SRAD/U, second kernel: J += lambda / 4 * (c N + c_south S + c W + c_east E).
__global__ void srad_u_2(const float *e_c, const float *w_c, const float *n_c, const float *s_c,
                         float *j, const float *c, int cols, int rows, float lambda) {
  int x = blockIdx.x * BLOCK + threadIdx.x;
  int y = blockIdx.y * BLOCK + threadIdx.y;
  int k = y * cols + x;
  float cc = c[k];
  float cs = c[(y < rows - 1 ? y + 1 : rows - 1) * cols + x];
  float ce = c[y * cols + (x < cols - 1 ? x + 1 : cols - 1)];
  float d = cc * n_c[k] + cs * s_c[k] + cc * w_c[k] + ce * e_c[k];
  j[k] = j[k] + 0.25f * lambda * d;
}

// HS/U: Rodinia hotspot's calculate_temp (16 x 16 blocks, a pyramid of `iteration` steps per
// launch, each block computing its (16 - 2 border) square and recomputing a border of halo
// cells) with its three 16 x 16 shared arrays (temperature, power, the step's result) moved
// to global memory: each block owns 256 floats of each of `temp_on`, `power_on` and `temp_t`,
// which it reads and writes where the original reads and writes shared memory.
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))

__global__ void hotspot_u(int iteration, const float *power, const float *temp_src,
                          float *temp_dst, int grid_cols, int grid_rows, int border_cols,
                          int border_rows, float cap, float rx, float ry, float rz, float step,
                          float *temp_on, float *power_on, float *temp_t) {
  const float amb_temp = 80.0f;
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int tile = (by * gridDim.x + bx) * BLOCK * BLOCK;
  float *t_on = temp_on + tile, *p_on = power_on + tile, *t_t = temp_t + tile;
  float step_div_cap = step / cap;
  float rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
  int small_rows = BLOCK - iteration * 2, small_cols = BLOCK - iteration * 2;
  int blk_y = small_rows * by - border_rows, blk_x = small_cols * bx - border_cols;
  int blk_y_max = blk_y + BLOCK - 1, blk_x_max = blk_x + BLOCK - 1;
  int y = blk_y + ty, x = blk_x + tx;
  int index = grid_cols * y + x;
  if (IN_RANGE(y, 0, grid_rows - 1) && IN_RANGE(x, 0, grid_cols - 1)) {
    t_on[ty * BLOCK + tx] = temp_src[index];
    p_on[ty * BLOCK + tx] = power[index];
  }
  __syncthreads();
  int valid_y_min = blk_y < 0 ? -blk_y : 0;
  int valid_y_max = blk_y_max > grid_rows - 1 ? BLOCK - 1 - (blk_y_max - grid_rows + 1) : BLOCK - 1;
  int valid_x_min = blk_x < 0 ? -blk_x : 0;
  int valid_x_max = blk_x_max > grid_cols - 1 ? BLOCK - 1 - (blk_x_max - grid_cols + 1) : BLOCK - 1;
  int n = ty - 1 < valid_y_min ? valid_y_min : ty - 1;
  int s = ty + 1 > valid_y_max ? valid_y_max : ty + 1;
  int w = tx - 1 < valid_x_min ? valid_x_min : tx - 1;
  int e = tx + 1 > valid_x_max ? valid_x_max : tx + 1;
  bool computed = false;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK - i - 2) && IN_RANGE(ty, i + 1, BLOCK - i - 2) &&
        IN_RANGE(tx, valid_x_min, valid_x_max) && IN_RANGE(ty, valid_y_min, valid_y_max)) {
      computed = true;
      float t = t_on[ty * BLOCK + tx];
      t_t[ty * BLOCK + tx] =
          t + step_div_cap * (p_on[ty * BLOCK + tx] +
                              (t_on[s * BLOCK + tx] + t_on[n * BLOCK + tx] - 2.0f * t) * ry_1 +
                              (t_on[ty * BLOCK + e] + t_on[ty * BLOCK + w] - 2.0f * t) * rx_1 +
                              (amb_temp - t) * rz_1);
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed) t_on[ty * BLOCK + tx] = t_t[ty * BLOCK + tx];
    __syncthreads();
  }
  if (computed) temp_dst[index] = t_t[ty * BLOCK + tx];
}

// PF/U: Rodinia pathfinder's dynproc_kernel (256-thread blocks, a pyramid of `iteration` rows
// per launch, each block computing 256 - 2 iteration columns and recomputing a halo) with its
// two shared arrays (the previous row, the step's result) moved to per-block global scratch.
#define PF_BLOCK 256
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__global__ void pathfinder_u(int iteration, const int *wall, const int *src, int *results,
                             int cols, int rows, int start_step, int border, int *prev_g,
                             int *result_g) {
  int bx = blockIdx.x, tx = threadIdx.x;
  int *prev = prev_g + bx * PF_BLOCK, *result = result_g + bx * PF_BLOCK;
  int small_block_cols = PF_BLOCK - iteration * 2;
  int blk_x = small_block_cols * bx - border;
  int blk_x_max = blk_x + PF_BLOCK - 1;
  int x = blk_x + tx;
  int valid_x_min = blk_x < 0 ? -blk_x : 0;
  int valid_x_max = blk_x_max > cols - 1 ? PF_BLOCK - 1 - (blk_x_max - cols + 1) : PF_BLOCK - 1;
  int w = tx - 1 < valid_x_min ? valid_x_min : tx - 1;
  int e = tx + 1 > valid_x_max ? valid_x_max : tx + 1;
  bool valid = IN_RANGE(tx, valid_x_min, valid_x_max);
  if (IN_RANGE(x, 0, cols - 1)) prev[tx] = src[x];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, PF_BLOCK - i - 2) && valid) {
      computed = true;
      int shortest = MIN(MIN(prev[w], prev[tx]), prev[e]);
      result[tx] = shortest + wall[cols * (start_step + i) + x];
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed) prev[tx] = result[tx];
    __syncthreads();
  }
  if (computed) results[x] = result[tx];
}

// BP/U: Rodinia backprop's bpnn_layerforward_CUDA (16 x 16 blocks, one block per 16 input
// nodes, grid 1 x in / 16) with its shared input_node[16] and weight_matrix[16][16] moved to
// per-block global scratch: each block multiplies its 16 x 16 weights by its 16 inputs, sums
// each column down a tree in place, writes the products back and the column sums out.
#define BP_H 16

__global__ void backprop_u(const float *input, float *output_hidden, float *input_hidden,
                           float *hidden_partial_sum, int in, int hid, float *node_g,
                           float *weight_g) {
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int index = (hid + 1) * BP_H * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_in = BP_H * by + ty + 1;
  float *node = node_g + by * BP_H;
  float *weight = weight_g + by * BP_H * BP_H;
  if (tx == 0) node[ty] = input[index_in];
  __syncthreads();
  weight[ty * BP_H + tx] = input_hidden[index];
  __syncthreads();
  weight[ty * BP_H + tx] = weight[ty * BP_H + tx] * node[ty];
  __syncthreads();
  for (int p = 2; p <= BP_H; p *= 2) {
    if (ty % p == 0) weight[ty * BP_H + tx] += weight[(ty + p / 2) * BP_H + tx];
    __syncthreads();
  }
  input_hidden[index] = weight[ty * BP_H + tx];
  __syncthreads();
  if (tx == 0) hidden_partial_sum[by * hid + ty] = weight[tx * BP_H + ty];
}

// NW/U: Rodinia needle's two kernels (16-thread blocks, one block per 16 x 16 tile of an
// anti-diagonal of tiles; the first kernel on the growing diagonals, grid i = 1..width, the
// second on the shrinking ones, i = width - 1..1) without their shared score tile (17 x 17)
// and reference tile (16 x 16): each thread reads its cell's north-west, west and north scores
// and its reference score from global memory and writes its score straight into the score
// matrix, one cell of the tile's anti-diagonal a step as the originals do in shared memory.
// Arguments as the originals' (`out` is unused, as theirs is).
#define NW_B 16

__device__ void nw_u_tile(const int *ref, int *score, int cols, int penalty, int tile_row,
                          int tile_col) {
  int tx = threadIdx.x;
  int *tile = score + cols * NW_B * tile_row + NW_B * tile_col;
  const int *tref = ref + cols * NW_B * tile_row + NW_B * tile_col;
  // Upper-left triangle of the tile, then the lower-right one: step m's cells (y, x) with
  // y + x = m + 2 (first half) or y + x = 2 NW_B - m (second half), 1 <= y, x <= NW_B.
  for (int m = 0; m < 2 * NW_B - 1; m++) {
    int x = m < NW_B ? tx + 1 : tx + 1 + m - (NW_B - 1);
    int y = m < NW_B ? m - tx + 1 : NW_B - tx;
    int active = m < NW_B ? tx <= m : tx <= 2 * NW_B - 2 - m;
    if (active) {
      int nw = tile[(y - 1) * cols + x - 1] + tref[y * cols + x];
      int w = tile[y * cols + x - 1] - penalty;
      int n = tile[(y - 1) * cols + x] - penalty;
      int best = nw > w ? nw : w;
      tile[y * cols + x] = best > n ? best : n;
    }
    __syncthreads();
  }
}

__global__ void nw_u_1(const int *ref, int *score, int *out, int cols, int penalty, int i,
                       int block_width) {
  nw_u_tile(ref, score, cols, penalty, i - 1 - blockIdx.x, blockIdx.x);
}

__global__ void nw_u_2(const int *ref, int *score, int *out, int cols, int penalty, int i,
                       int block_width) {
  nw_u_tile(ref, score, cols, penalty, block_width - 1 - blockIdx.x,
            blockIdx.x + block_width - i);
}

// LUD/U: our Rodinia lud kernels (rodinia_lud.cu, same launches and arguments) without their
// shared blocks: each thread reads and writes the matrix in global memory where the originals
// stage the diagonal, perimeter and trailing blocks in shared memory, and the factorisation
// and the substitutions run in place in the matrix.
#define LUD_B 16

__global__ void lud_u_diagonal(float *m, int dim, int offset) {
  int t = threadIdx.x;
  float *a = m + offset * dim + offset;
  for (int i = 0; i < LUD_B - 1; i++) {
    if (t > i) {
      for (int k = 0; k < i; k++) a[t * dim + i] -= a[t * dim + k] * a[k * dim + i];
      a[t * dim + i] /= a[i * dim + i];
    }
    __syncthreads();
    if (t > i) {
      for (int k = 0; k < i + 1; k++) a[(i + 1) * dim + t] -= a[(i + 1) * dim + k] * a[k * dim + t];
    }
    __syncthreads();
  }
}

__global__ void lud_u_perimeter(float *m, int dim, int offset) {
  int b = blockIdx.x, t = threadIdx.x;
  float *dia = m + offset * dim + offset;
  if (t < LUD_B) {
    float *row = dia + (b + 1) * LUD_B;
    for (int r = 1; r < LUD_B; r++)
      for (int k = 0; k < r; k++) row[r * dim + t] -= dia[r * dim + k] * row[k * dim + t];
  } else {
    float *col = dia + (b + 1) * LUD_B * dim + (t - LUD_B) * dim;
    for (int i = 0; i < LUD_B; i++) {
      for (int k = 0; k < i; k++) col[i] -= col[k] * dia[k * dim + i];
      col[i] /= dia[i * dim + i];
    }
  }
}

__global__ void lud_u_internal(float *m, int dim, int offset) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = offset + (blockIdx.y + 1) * LUD_B;
  int col0 = offset + (blockIdx.x + 1) * LUD_B;
  float sum = 0.0f;
  for (int k = 0; k < LUD_B; k++)
    sum += m[(row0 + ty) * dim + offset + k] * m[(offset + k) * dim + col0 + tx];
  m[(row0 + ty) * dim + col0 + tx] -= sum;
}

}  // extern "C"
