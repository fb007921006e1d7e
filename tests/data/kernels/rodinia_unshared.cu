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

}  // extern "C"
