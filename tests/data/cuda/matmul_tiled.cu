// C = A * B for n x n matrices (n a multiple of TILE), 16x16 tiles staged in shared memory.
// warpstep: --kernel matmul_tiled --grid 2,2 --block 16,16 --arg f32[1024]=rand:2 --arg f32[1024]=rand:3 --arg f32[1024]=0 --arg 32
#define TILE 16

extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; t++) {
    as[ty][tx] = a[row * n + t * TILE + tx];
    bs[ty][tx] = b[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}
