// Structs passed by value to a kernel: two matrices with their element pointer inside, and an
// affine map with an array member. out = a * in + b + bump[column & 1] where in is in range.
// warpstep: --kernel affine --grid 3 --block 4 --arg struct:s32=3,s32=2,s32=4,f32[8]=iota --arg struct:s32=4,s32=3,s32=4,f32[12]=0 --arg struct:f32=2.0,f64=0.5,s32=10,s32=20
struct Matrix { int width; int height; int stride; float *elements; };
struct Affine { float a; double b; int bump[2]; };
__device__ float at(const Matrix m, int r, int c) { return m.elements[r * m.stride + c]; }
extern "C" __global__ void affine(Matrix in, Matrix out, Affine s) {
  int r = blockIdx.x, c = threadIdx.x;
  if (r < in.height && c < in.width)
    out.elements[r * out.stride + c] = s.a * at(in, r, c) + (float)s.b + s.bump[c & 1];
}
