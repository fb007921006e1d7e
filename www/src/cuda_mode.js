// A small CodeMirror StreamLanguage mode for CUDA C (the device code warpstep compiles): C/C++
// keywords and types, CUDA's qualifiers and built-ins, preprocessor lines, numbers, strings,
// comments and `// warpstep:` launch lines. Written here rather than taken from a package: the
// app only needs highlighting, and this keeps the bundle small.
import { StreamLanguage } from '@codemirror/language';

const words = (s) => new Set(s.split(' '));
const KEYWORDS = words('if else for while do break continue return switch case default goto sizeof typedef struct union enum template typename extern static inline const volatile constexpr auto using namespace class public private operator new delete true false nullptr');
const TYPES = words('void bool char short int long float double signed unsigned size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t dim3 float2 float3 float4 int2 int3 int4 uint2 uint3 uint4 half');
const CUDA = words('__global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__ __noinline__ __launch_bounds__ __managed__');
const BUILTINS = words('threadIdx blockIdx blockDim gridDim warpSize');

const cuda = {
  name: 'cuda',
  startState: () => ({ inComment: false }),
  token(stream, state) {
    if (state.inComment) {
      if (stream.skipTo('*/')) { stream.match('*/'); state.inComment = false; } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.sol() && stream.match(/^\s*#\s*\w+/)) return 'meta';
    if (stream.eatSpace()) return null;
    if (stream.match(/^\/\/\s*warpstep:.*/)) return 'meta';
    if (stream.match('//')) { stream.skipToEnd(); return 'comment'; }
    if (stream.match('/*')) { state.inComment = true; return 'comment'; }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return 'string';
    if (stream.match(/^(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)[uUlLfF]*/)) return 'number';
    if (stream.match(/^[A-Za-z_]\w*/)) return wordStyle(stream.current());
    if (stream.match(/^[-+*/%=<>!&|^~?:]+/)) return 'operator';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
};

function wordStyle(w) {
  if (CUDA.has(w)) return 'keyword';
  if (KEYWORDS.has(w)) return 'keyword';
  if (TYPES.has(w)) return 'typeName';
  if (BUILTINS.has(w)) return 'variableName';
  if (/^(__syncthreads|__syncwarp|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|__threadfence\w*|atomic\w+)$/.test(w)) return 'labelName';
  return null;
}

export const cudaLanguage = StreamLanguage.define(cuda);
