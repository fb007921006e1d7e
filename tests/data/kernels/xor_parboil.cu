// Parboil 2.5 mri-gridding's two shared-memory scan steps for warpstep's XOR experiment (van den
// Braak et al., "Configurable XOR Hash Functions for Banked Scratchpad Memories in GPUs", IEEE
// TC, Table 5's MRI-grid-2 and MRI-grid-3; `warpstep experiment xor`). Written for warpstep after
// the access pattern of scanLargeArray.cu's scan_inter1_kernel and scan_inter2_kernel (no code
// taken from it). Host references in src/research/experiment/xor_reference_parboil.rs.
//
// Parboil scans a large array in three levels: blocks of 1,024 elements (scan_L1_kernel), then
// the per-block sums as a tree of blocks of `dim_block` elements (128 for the sizes mri-gridding
// scans), each block run by dim_block / 2 threads: scan_inter1_kernel's Blelloch up-sweep on the
// way up, scan_inter2_kernel's down-sweep on the way down, on every iter-th element. A block of T
// threads takes 2T words: thread t loads elements 2 iter g + iter - 1 and 2 iter g + 2 iter - 1
// of the global array (g = the thread's global index) into s[2t] and s[2t + 1], sweeps, and
// stores them back in place.
//
// No padding. Parboil indexes s through CONFLICT_FREE_OFFSET(i), written
// `((i) >> LOG_NUM_BANKS + (i) >> (2*LOG_NUM_BANKS))`; `+` binds tighter than `>>`, so that is
// i >> (4 + i) >> 8, which is 0 for every index below 2^24: the kernels run with no offset at
// all, and the sweeps' strided pairs (stride 2, 4, .. 2T words) conflict as an unpadded scan's
// do. That is why Table 5 has functions for them. The kernels here index s directly.
//
// s is a fixed array for blocks of up to 128 threads (Parboil sizes it at launch; warpstep's
// launches here use 64 threads, dim_block 128).
#define SCAN_MAX_THREADS 128

// The up-sweep (reduce) phase: afterwards element j of a block holds the sum of the lowbit(j + 1)
// elements ending at j (a Fenwick tree; the last element the block's total).
extern "C" __global__ void scan_inter_up(unsigned *data, unsigned iter) {
  __shared__ unsigned s[2 * SCAN_MAX_THREADS];
  unsigned t = threadIdx.x;
  unsigned n = blockDim.x;
  unsigned g = blockIdx.x * n + t;
  unsigned lo = 2 * iter * g + iter - 1;
  unsigned hi = lo + iter;
  s[2 * t] = data[lo];
  s[2 * t + 1] = data[hi];
  unsigned span = 1;
  for (unsigned active = n; active > 0; active >>= 1) {
    __syncthreads();
    if (t < active) {
      unsigned left = 2 * span * t + span - 1;
      s[left + span] += s[left];
    }
    span <<= 1;
  }
  __syncthreads();
  data[lo] = s[2 * t];
  data[hi] = s[2 * t + 1];
}

// The down-sweep phase: from the root down, each pair (left, right) becomes (right, right + left),
// which turns an up-swept block whose last element is c into c plus its exclusive prefix sums.
extern "C" __global__ void scan_inter_down(unsigned *data, unsigned iter) {
  __shared__ unsigned s[2 * SCAN_MAX_THREADS];
  unsigned t = threadIdx.x;
  unsigned n = blockDim.x;
  unsigned g = blockIdx.x * n + t;
  unsigned lo = 2 * iter * g + iter - 1;
  unsigned hi = lo + iter;
  s[2 * t] = data[lo];
  s[2 * t + 1] = data[hi];
  unsigned span = 2 * n;
  for (unsigned active = 1; active <= n; active <<= 1) {
    span >>= 1;
    __syncthreads();
    if (t < active) {
      unsigned left = 2 * span * t + span - 1;
      unsigned right = left + span;
      unsigned v = s[left];
      s[left] = s[right];
      s[right] += v;
    }
  }
  __syncthreads();
  data[lo] = s[2 * t];
  data[hi] = s[2 * t + 1];
}
