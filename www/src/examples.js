// Built-in examples. The PTX is imported from the repository's test data (tests/data, where
// the corpus files keep their notices in their .src.txt siblings), so the app runs exactly
// the kernels the tests run. Each example has its launch (the CLI's flags), a preset and
// `--set` overrides, and two or three sentences for the Setup tab. An example whose PTX nvcc
// compiled from a .cu in tests/data/kernels (with -lineinfo: its `.loc` lines give each
// instruction's CUDA line) carries that source as `cuda`; the book's divergence example carries
// Figure 3.2 (its `.loc` lines point there). Hand-written PTX and the Rodinia corpus kernels
// (whose CUDA is Rodinia's, not bundled here) carry `cudaNote` instead: where the code came from.
import book from '../../tests/data/book_fig3_2.ptx?raw';
import transpose from '../../tests/data/kernels/transpose.sm_52.ptx?raw';
import reduction from '../../tests/data/kernels/reduction.sm_52.ptx?raw';
import shuffle from '../../tests/data/kernels/shuffle_reduce.sm_52.ptx?raw';
import vectorAdd from '../../tests/data/kernels/vector_add.sm_52.ptx?raw';
import pathfinder from '../../tests/data/ptx-corpus/dice_rodinia_pathfinder.ptx?raw';
import spinlock from '../../tests/data/kernels/spinlock.sm_52.ptx?raw';
import bookFig39 from '../../tests/data/book_fig3_9.ptx?raw';
import columnWalk from '../../tests/data/mem/column_walk.ptx?raw';
import globalAccess from '../../tests/data/mem/global_access.ptx?raw';
import polybench from '../../tests/data/kernels/polybench.sm_52.ptx?raw';
import elasticTimeline from '../../tests/data/kernels/elastic_timeline.ptx?raw';
import needle from '../../tests/data/ptx-corpus/ocelot_rodinia_needle_kernel.ptx?raw';
// Examples written in CUDA C (no `ptx`: the model compiles them when they load).
import oddEvenCu from './examples/odd_even.cu?raw';
import bankPadCu from './examples/bank_pad.cu?raw';
import bookCuda from '../../tests/data/book_fig3_2.cu?raw';
import transposeCuda from '../../tests/data/kernels/transpose.cu?raw';
import reductionCuda from '../../tests/data/kernels/reduction.cu?raw';
import shuffleCuda from '../../tests/data/kernels/shuffle_reduce.cu?raw';
import vectorAddCuda from '../../tests/data/kernels/vector_add.cu?raw';
import spinlockCuda from '../../tests/data/kernels/spinlock.cu?raw';
import polybenchCuda from '../../tests/data/kernels/polybench.cu?raw';

// Where the code of an example without CUDA came from (`cudaNote`).
const NOTE_MEM = 'Hand-written PTX (tests/data/mem), made for the coalescing and L1D tests: there is no CUDA source.';
const NOTE_RODINIA = (what) => `${what} from the Rodinia benchmark suite (tests/data/ptx-corpus, with its notice): its CUDA source is Rodinia's and is not bundled here.`;
const NOTE_BOOK_FIG39 = 'Hand-written PTX for the book\'s Figures 3.9-3.10, whose code is the pseudo-code if (t < 4) { A; B; } else { X; Y; } Z; (in the PTX file\'s header): there is no CUDA source.';
const NOTE_ELASTIC = 'Hand-written PTX (tests/data/kernels/elastic_timeline.ptx) that replays the Elastic paper\'s Figs. 4-5 micro-timelines: there is no CUDA source.';

// atax's first kernel (tests/data/kernels/polybench.cu): one block of 4 warps, each thread
// walking one row of a 1024 x 1024 matrix, so a warp's 32 lanes read 32 rows 4 KB apart.
const ATAX_LAUNCH = '--kernel atax_1 --grid 1 --block 128 --arg f32[1048576]=rand:1 --arg f32[1024]=rand:2 --arg f32[1024]=0 --arg 1024';

const TRANSPOSE_LAUNCH = '--grid 1,1 --block 32,32 --arg f32[1024]=iota --arg f32[1024]=0 --arg 32 --arg 32';
// Rodinia needle (Needleman-Wunsch), one step of its wavefront: needle_cuda_shared_1 on the
// longest block anti-diagonal of a 257 x 257 score matrix (16 CTAs of 16 threads, penalty 10),
// as the host (needle.cu) launches it; tests/corpus_rodinia.rs checks the results.
const NEEDLE_LAUNCH = '--kernel _Z20needle_cuda_shared_1PiS_S_iiii --grid 16 --block 16 --arg s32[66049]=rand:1:-4:11 --arg s32[66049]=0 --arg s32[66049]=0 --arg 257 --arg 10 --arg 16 --arg 16';

// The book's Fig. 3.5 spin lock: one warp of 4 threads, a lock word and a counter each thread
// increments once it holds the lock (argument 1, which the stack / barriers comparison reads).
const SPINLOCK_LAUNCH = '--grid 1 --block 4 --arg s32[1]=0 --arg s32[1]=0';
const SPINLOCK_WATCH = [{ arg: 1, index: 0, name: 'counter' }];

// What `warpstep hash-search --method mih --family bwxor --kernel-run` finds for the naive transpose.
const TRANSPOSE_HASH = 'bwxor:0^5,1^6,2^7,3^8,4^9';

// `label`: the short name the example select shows (whole at any width the top bar gives it);
// `title`: the full title, the select's tooltip.
export const EXAMPLES = [
  {
    id: 'divergence',
    title: 'Divergence: the book\'s SIMT stack example',
    label: 'Divergence (SIMT stack)',
    ptx: book,
    cuda: bookCuda,
    launch: '',
    preset: 'teaching',
    sets: ['core.warp_size=4', 'core.simd_width=4', 'core.max_threads_per_sm=16', 'core.max_threads_per_cta=16', 'core.push_order=fallthrough_last'],
    about: 'Figures 3.2-3.4 of Aamodt, Fung & Rogers: one warp of 4 threads runs blocks A to G. The branch on line 6 of Figure 3.3 (the if on line 6 of Figure 3.2, the CUDA shown beside the PTX) splits the warp (mask 1110 / 0001) and pushes two entries on the SIMT stack; the branch on line 9 (the if on Figure 3.2\'s line 8) splits it again. Step through and watch the SIMT stack view push and pop as the paths reconverge at E and G.',
  },
  {
    id: 'transpose-naive',
    title: 'Transpose, naive: 32-way bank conflicts',
    label: 'Transpose, naive',
    ptx: transpose,
    cuda: transposeCuda,
    launch: `--kernel transpose_naive ${TRANSPOSE_LAUNCH}`,
    preset: 'fermi',
    sets: [],
    about: 'A 32x32 tile is written to shared memory by rows and read back by columns. Reading a column touches 32 words that all fall in one bank, so each read is served in 32 passes: see the bank grid view (one full column, degree 32) and the bank_conflict stalls.',
  },
  {
    id: 'transpose-padded',
    title: 'Transpose, padded: conflict free',
    label: 'Transpose, padded',
    ptx: transpose,
    cuda: transposeCuda,
    launch: `--kernel transpose_padded ${TRANSPOSE_LAUNCH}`,
    preset: 'fermi',
    sets: [],
    about: 'The same transpose with the tile padded to 33 columns. The column read now walks the banks diagonally, every lane hits a different bank, and each access is one pass (degree 1). Compare the cycle count and the conflict histogram with the naive version.',
  },
  {
    id: 'transpose-hash',
    title: 'Transpose, naive, with an XOR bank hash',
    label: 'Transpose, XOR hash',
    ptx: transpose,
    cuda: transposeCuda,
    launch: `--kernel transpose_naive ${TRANSPOSE_LAUNCH}`,
    preset: 'fermi',
    sets: [`shmem.hash=${TRANSPOSE_HASH}`],
    hash: TRANSPOSE_HASH,
    about: `The naive transpose again, unchanged, but shared memory picks banks with the bitwise XOR hash the Minimum Imbalance search finds for it (van den Braak et al.): bank bit i = address bit i XOR bit i+5, so a column of the 32x32 tile spreads over all 32 banks. The bank grid shows each access under mod (left: the column read is 32-way) beside the hash (right: one pass). Under mod the kernel takes 2415 cycles with 992 bank-conflict cycles; with the hash 1755 cycles and none, although every shared access pays one cycle more for the hash. Try the Hash search panel to find it yourself.`,
  },
  {
    id: 'reduction',
    title: 'Tree reduction in shared memory',
    label: 'Tree reduction',
    ptx: reduction,
    cuda: reductionCuda,
    launch: '--grid 2 --block 256 --arg s32[512]=rand:3:-100:100 --arg s32[2]=0 --arg 512',
    preset: 'fermi',
    sets: [],
    about: 'Each block sums 256 integers: every step halves the number of active threads, with a barrier between steps. Watch the warps wait at the barrier in the warp timeline, and the SIMT stack masks thin out once fewer than 32 threads take part.',
  },
  {
    id: 'shuffle',
    title: 'Warp shuffle reduction',
    label: 'Warp shuffle reduction',
    ptx: shuffle,
    cuda: shuffleCuda,
    launch: '--kernel warp_sum --grid 2 --block 128 --arg f32[256]=iota --arg f32[8]=0',
    preset: 'fermi',
    sets: [],
    about: 'Each warp sums its 32 values with shfl.down: lanes read each other\'s registers directly, with no shared memory and no barrier. Only lane 0 of each warp stores the result, a one-lane divergent branch at the end.',
  },
  {
    id: 'vector-add',
    title: 'Vector add: coalesced global access',
    label: 'Vector add',
    ptx: vectorAdd,
    cuda: vectorAddCuda,
    launch: '--grid 4 --block 128 --arg f32[512]=rand:1 --arg f32[512]=rand:2 --arg f32[512]=0 --arg 512',
    preset: 'fermi',
    sets: [],
    about: 'Each thread loads a[i] and b[i] and stores their sum: neighbouring lanes touch neighbouring words, so a warp\'s access is one 128-byte request. The warps spend most cycles in long_scoreboard, waiting for global loads.',
  },
  {
    id: 'whole-gpu',
    title: 'The whole GTX480: 15 SMs sharing L2 and DRAM',
    label: 'Whole GTX480, 15 SMs',
    ptx: vectorAdd,
    cuda: vectorAddCuda,
    launch: '--grid 30 --block 128 --arg f32[3840]=rand:1 --arg f32[3840]=rand:2 --arg f32[3840]=0 --arg 3840',
    preset: 'gtx480',
    sets: [],
    about: 'The vector add on the whole GTX480 (GPGPU-Sim\'s configuration): 15 SMs, thread blocks handed out round-robin, two per SM, all sharing twelve L2 slices and six GDDR5 channels. Pick an SM in the selector beside the cycle counter (or press S): every view follows it, and the Stats view shows that SM\'s counters beside the totals.',
  },
  {
    id: 'stride-1',
    title: 'Global loads, stride 1: coalesced',
    label: 'Loads, stride 1',
    ptx: globalAccess,
    cudaNote: NOTE_MEM,
    launch: '--kernel load_u32 --grid 4 --block 128 --arg u32[16384]=iota --arg u32[512]=0 --arg 1',
    preset: 'fermi',
    sets: [],
    about: 'Thread t loads in[t * stride] with stride 1: the 32 lanes of a warp read 32 neighbouring words, which the coalescer joins into one 128-byte request. Compare the next example, the same kernel with stride 32: the L1D accesses in the Stats counters and the cycles to the end.',
  },
  {
    id: 'stride-32',
    title: 'Global loads, stride 32: one request per lane',
    label: 'Loads, stride 32',
    ptx: globalAccess,
    cudaNote: NOTE_MEM,
    launch: '--kernel load_u32 --grid 4 --block 128 --arg u32[16384]=iota --arg u32[512]=0 --arg 32',
    preset: 'fermi',
    sets: [],
    about: 'The same kernel with stride 32: consecutive lanes read words 128 bytes apart, so every lane needs its own line and each warp load becomes 32 requests. The MSHRs fill (reservation failures: mshr), the warps wait in long_scoreboard far longer, and the run takes more than one and a half times the cycles of stride 1.',
  },
  {
    id: 'column-walk',
    title: 'Column walk: L1 associativity stalls',
    label: 'Column walk, L1 sets',
    ptx: columnWalk,
    cudaNote: NOTE_MEM,
    launch: '--block 32 --arg f32[32768]=rand:1 --arg f32[32]=0 --arg 1024 --arg 16',
    preset: 'tesla-c2050-s',
    sets: [],
    about: 'Each thread sums one row of a matrix whose rows are 4 KB apart, so a warp reads one word from each of 32 rows per step (MRPB paper Fig. 2). With a linear set index all 32 lines fall in one L1 set: its 4 ways fill with RESERVED lines, and the next miss fails (assoc) and retries every cycle until a fill arrives. Watch set 0 in the Memory view and the reservation failures in the Stats counters; then pick the fermi preset, whose hashed set index spreads the rows over 8 sets.',
  },
  {
    id: 'atax-mrpb-off',
    title: 'atax without MRPB: a warp thrashes one L1 set',
    label: 'atax, MRPB off',
    ptx: polybench,
    cuda: polybenchCuda,
    launch: ATAX_LAUNCH,
    preset: 'tesla-c2050-s',
    sets: [],
    about: 'PolyBench atax, first kernel (MRPB paper Fig. 2): each thread sums one row of A, so every load of a warp asks for 32 lines in one 4-way L1D set. Watch the Memory view: the set fills with RESERVED lines, the next request fails (assoc) and MEM0 retries it every cycle, and the lines that come back are pushed out by the same warp before their neighbours are used (Stats: L1D evictions of the same warp). The run takes about 4.5 million cycles; compare the next example.',
  },
  {
    id: 'atax-mrpb',
    title: 'atax with MRPB: queues, fixed order, bypass',
    label: 'atax, MRPB on',
    ptx: polybench,
    cuda: polybenchCuda,
    launch: ATAX_LAUNCH,
    preset: 'tesla-c2050-s',
    sets: ['mrpb.enabled=true'],
    about: 'The same kernel with MRPB on (the paper\'s final design: a queue per warp, fixed-order drain, 8 entries, 5-cycle latency, flush, bypass on associativity stalls). In the MRPB view each warp\'s requests wait in its own queue and leave lowest warp first, so one warp\'s lines stay in the cache until it is done with them; a read refused for associativity goes past the L1D to the L2 (red arrow) instead of stalling the memory stage. Each loop iteration also stores tmp[i]: watch the store flush its warp\'s queue first. The run takes about 430 thousand cycles, a tenth of the first.',
  },
  {
    id: 'elastic-timeline',
    title: 'Elastic pipeline: one bank conflict, three pipelines',
    label: 'Elastic pipelines',
    ptx: elasticTimeline,
    cudaNote: NOTE_ELASTIC,
    launch: '--kernel fig4 --grid 1 --block 24 --arg u32[24]=0',
    preset: 'teaching',
    // The paper's micro-timelines (Elastic CF'11 Figs. 4-5, tests/elastic_pipeline.rs): 2 memory
    // stages and a 1-cycle add, so an add and a conflict-free shared load take as long after
    // register read; strict barrel issue. It opens in the split pipeline, the paper's baseline.
    sets: ['elastic.mem_stages=2', 'units.int.add.latency=1', 'core.strict_barrel=true', 'elastic.baseline=split'],
    about: 'Elastic CF\'11 Figs. 4-5 (Gou & Gaydadjiev): warp 0 issues a shared load with a 2-way bank conflict (line 31) and warps 1 and 2 an add right behind it. What to watch: MEM0 replaying the conflict in the Pipeline view\'s back-end row, then the split pipeline\'s writeback clash (W0 wins, W1\'s add waits, issue stalls: bank_conflict); press "Compare the three pipelines" to see the in-order pipeline stall at issue instead and the elastic one let W1 and W2 commit before W0, with no stall. Switch pipelines in the Setup tab with elastic.baseline=in_order or elastic.enabled=true.',
  },
  {
    id: 'needle-partitioned',
    title: 'Rodinia needle, partitioned register file / shared / L1',
    label: 'needle, partitioned',
    ptx: needle,
    cudaNote: NOTE_RODINIA('Needleman-Wunsch (needle), PTX compiled by the GPU Ocelot authors'),
    launch: NEEDLE_LAUNCH,
    preset: 'unified-micro12',
    sets: [],
    about: 'Rodinia\'s needle (Needleman-Wunsch, ocelot PTX from the corpus) on the Unified MICRO\'12 paper\'s baseline SM (Table 2): a 256 KB register file, 64 KB of shared memory and a 64 KB L1D, each fixed. Each CTA of 16 threads tiles 2.2 KB of the score matrix in shared memory and walks its anti-diagonals with a barrier per step. What to watch: the Energy view (SRAM leakage, SM dynamic and DRAM dominate; the register file is the largest access part) and the cycle count, about 35,000; then open the next example, the same kernel on the unified pool.',
  },
  {
    id: 'needle-unified',
    title: 'Rodinia needle, unified 384 KB pool',
    label: 'needle, unified pool',
    ptx: needle,
    cudaNote: NOTE_RODINIA('Needleman-Wunsch (needle), PTX compiled by the GPU Ocelot authors'),
    launch: NEEDLE_LAUNCH,
    preset: 'unified-micro12',
    sets: ['unified.enabled=true'],
    about: 'The same needle step with the register file, shared memory and L1 as one 384 KB pool (unified.enabled=true, §4). What to watch: the Unified pool view divides the 32 banks for this kernel (1024 threads of 53 registers and 136.25 shared bytes: registers 212 KB, shared 136.25 KB, cache 35.75 KB) and shows, each cycle, which bank column a register read or write takes and which one a shared or cache access holds (purple); an access that finds its column taken waits: the arbitration conflicts count up. This example leaves the register file hierarchy off, so every operand is read from the main register file and arbitration costs cycles (about 51,000 against 35,000) and energy; the next example turns the paper\'s hierarchy on. Try the capacity select (128 KB: 368 threads, a 2.8 KB cache) and compare the Energy view with the partitioned example.',
  },
  {
    id: 'needle-unified-hierarchy',
    title: 'Rodinia needle, unified 384 KB pool with the register file hierarchy',
    label: 'needle, unified, ORF',
    ptx: needle,
    cudaNote: NOTE_RODINIA('Needleman-Wunsch (needle), PTX compiled by the GPU Ocelot authors'),
    launch: NEEDLE_LAUNCH,
    preset: 'unified-micro12',
    sets: ['unified.enabled=true', 'regfile.hierarchy=true'],
    about: 'The unified pool again, now with the register file hierarchy the paper\'s design has (regfile.hierarchy=true: a 4-entry operand register file and a 1-entry last result file per thread, MICRO\'11 as MICRO\'12 §2.1 and §4 build on it). Most operands are read from the ORF and LRF, so far fewer register reads reach the main register file\'s bank columns. What to watch: the Unified pool view\'s arbitration conflicts (about 4,500 in the whole run against 23,000 without the hierarchy), the cycle count (about 36,300 against 50,800 without it; the partitioned SM with the hierarchy takes about 34,300) and the Energy view\'s ORF/LRF bar beside a smaller register file bar.',
  },
  {
    id: 'pathfinder',
    title: 'Rodinia pathfinder (divergent)',
    label: 'pathfinder (divergent)',
    ptx: pathfinder,
    cudaNote: NOTE_RODINIA('pathfinder, PTX dumped by GPGPU-Sim from nvcc 11.7'),
    launch: '--grid 2 --block 256 --arg 4 --arg s32[2560]=rand:4:0:9 --arg s32[464]=rand:5:0:9 --arg s32[464]=0 --arg 464 --arg 5 --arg 0 --arg 4',
    preset: 'fermi',
    sets: [],
    about: 'Rodinia\'s pathfinder (dynamic programming over a grid, nvcc 11.7 PTX from the corpus, BSD-style licence in tests/data/ptx-corpus). Threads at the block edges and outside the valid range take other paths, so some warps diverge at every iteration, and barriers separate the iterations.',
  },
  {
    id: 'spinlock',
    title: 'SIMT deadlock: a spin lock in one warp',
    label: 'Spin lock: deadlock',
    ptx: spinlock,
    cuda: spinlockCuda,
    launch: SPINLOCK_LAUNCH,
    preset: 'teaching',
    sets: [],
    watch: SPINLOCK_WATCH,
    about: 'The book\'s Figure 3.5: threads of one warp spin on atomicCAS. The thread that takes the lock waits on the SIMT stack for the spinning threads to reconverge, and they wait for the lock: no forward progress. Run it to see the deadlock report with each warp\'s PC and stack; then press "Compare stack / convergence barriers" under the SIMT stack view, or open the next example.',
  },
  {
    id: 'spinlock_barriers',
    title: 'Spin lock under convergence barriers: no deadlock',
    label: 'Spin lock, barriers',
    ptx: spinlock,
    cuda: spinlockCuda,
    launch: SPINLOCK_LAUNCH,
    preset: 'teaching',
    sets: ['core.divergence=convergence_barriers'],
    watch: SPINLOCK_WATCH,
    about: 'The same Figure 3.5 spin lock with independent thread scheduling (book §3.1.2, core.divergence=convergence_barriers): each thread has its own state and rPC, the compiler pass places ADD B0 before the spin loop\'s branch and WAIT B0 after the loop (see the dimmed pseudo-lines in the Code tab), and the scheduler picks a warp split after every instruction. What to watch: in the Warp splits view the lock holder (lane 0) waits at its rPC while the three spinners loop; after yield_after instructions without progress the spinners YIELD (orange), the holder\'s split is released to store the counter and free the lock, and one by one every thread gets it: the run completes with counter = 4.',
  },
  {
    id: 'volta_paths',
    title: 'Volta: both paths of a branch interleave',
    label: 'Volta: paths interleave',
    ptx: bookFig39,
    cudaNote: NOTE_BOOK_FIG39,
    launch: '',
    preset: 'teaching',
    sets: ['core.divergence=convergence_barriers', 'core.split_policy=round_robin'],
    about: 'The book\'s Figures 3.9 and 3.10 (after the Volta whitepaper): one warp of 8 threads runs if (t < 4) { A; B; } else { X; Y; } Z under convergence barriers with the round-robin split policy. ADD B0 sits before the branch and WAIT B0 before Z (dimmed pseudo-lines in the Code tab). What to watch: after the branch the Warp splits view shows two ready splits taking turns, X A Y B, instead of the SIMT stack\'s one path after the other; the lanes that finish first block at WAIT B0 (purple, arrived), and when the last participant arrives the barrier clears and Z runs with the whole warp again.',
  },
  {
    id: 'cuda-odd-even',
    title: 'CUDA: odd and even lanes diverge, then reconverge',
    label: 'CUDA: if/else split',
    cuda: oddEvenCu,
    launch: '',
    preset: 'teaching',
    sets: ['core.warp_size=8', 'core.simd_width=8'],
    about: 'Written in CUDA C (the Code tab shows it beside the PTX warpstep compiles from it): one warp of 8 threads, where the even lanes take the if and the odd lanes the else. What to watch: step to the if (its CUDA and PTX lines are highlighted together); the branch splits the warp and the SIMT stack view pushes one entry per path (the lane squares: lanes 0, 2, 4, 6 on one, 1, 3, 5, 7 on the other); each path runs with half the lanes idle; at the line after the if/else the entries pop and all 8 lanes run together again. Hover a CUDA line to see the PTX lines compiled from it; click a CUDA line number to stop there.',
  },
  {
    id: 'cuda-bank-pad',
    title: 'CUDA: a shared tile with a padding switch (bank conflicts)',
    label: 'CUDA: bank conflicts',
    cuda: bankPadCu,
    launch: '',
    preset: 'fermi',
    sets: [],
    about: 'Written in CUDA C: each of 32 threads sums one row of a 32 x 32 float tile in shared memory. With #define PAD 0 the rows are 32 words apart, so at every step the 32 lanes read 32 words in one bank: a 32-way conflict, 32 passes per read (bank grid view: one full column; about 990 bank-conflict cycles, 9,500 cycles in all). Change the first #define to PAD 1 in the Code tab and press Apply: the rows are 33 words apart, the lanes spread over all 32 banks, each read is one pass and the conflict cycles drop to 0 (about 8,500 cycles).',
  },
];

export const DEFAULT_EXAMPLE = 'divergence';

export function exampleById(id) {
  return EXAMPLES.find((e) => e.id === id);
}

// The kernel an example loads: its PTX, with its CUDA (`cuda`, the .cu it was compiled from by
// nvcc with line info) shown beside when known; or, for an example written in CUDA (no `ptx`),
// its CUDA, which the model compiles. `ptx` is the text the Session is built from, either.
export function exampleInput(e) {
  return { ptx: e.ptx || e.cuda, cuda: e.ptx ? e.cuda || '' : '', launch: e.launch, preset: e.preset, sets: e.sets };
}
