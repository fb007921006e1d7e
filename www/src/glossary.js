// Hover text for the parts of the views that are not warp states (those come from Rust:
// tables().warp_states[].description). Plain explanations for students; book = Aamodt, Fung &
// Rogers, "General-Purpose Graphics Processor Architectures".
export const GLOSSARY = {
  fetch: 'Fetch: each cycle one instruction is fetched for a warp whose instruction buffer has room (round-robin over warps). It is decoded next cycle.',
  ibuffer: 'Instruction buffer (I-buffer): decoded instructions waiting per warp (book §3.2). A warp with an empty I-buffer cannot issue (no_instruction).',
  scheduler: 'Warp scheduler: each cycle it picks at most one ready warp and issues its next instruction. If none can go, it records the reason of its best candidate.',
  collector: 'Operand collector unit: holds an issued instruction while its source registers are read from the banked register file, at most one read per bank per cycle (book §3.3.1).',
  regbank: 'Register-file bank: single-ported, so one read or one write per cycle. Two operands in the same bank are read in different cycles (a bank conflict); writeback wins over reads.',
  unit: 'Execution unit: an instruction occupies it for its initiation interval and its result is ready after the unit latency.',
  mem0: 'MEM0: the first LD/ST stage. A shared-memory access holds it one cycle per serialisation pass, so bank conflicts block the memory pipe.',
  writeback: 'Writeback: finished results written to the register file this cycle (writeback ports are limited; extra results wait).',
  simt: 'SIMT stack (book §3.1.1): one entry per pending path of the warp. The top entry gives the next PC and the active lanes. A divergent branch pushes one entry per path; an entry pops when its next PC reaches its reconvergence PC.',
  pc: 'Next PC: the instruction this entry will execute next (with its PTX line).',
  rpc: 'RPC (reconvergence PC): where the lanes of this entry meet the other paths again: the immediate post-dominator of the branch. When the next PC reaches it, the entry pops.',
  lanesOn: 'active: this thread executes the entry\'s path.',
  lanesOff: 'idle: this thread is not on this path (it took the other side of a branch, waits below for reconvergence, or has exited).',
  bankgrid: 'Bank grid: the latest shared-memory access of this SM. Columns are banks, rows are serialisation passes. Lanes that hit different words in one bank must go in different passes (a bank conflict); lanes reading the same word share a pass (broadcast).',
  broadcast: 'Broadcast: these lanes read the same word in this bank, so one access serves all of them in the same pass.',
  degree: 'Conflict degree: the most passes any sub-warp needs (the most distinct words in one bank). Extra cycles = passes - 1 per sub-warp.',
  timeline: 'Warp timeline: one row per warp slot, one column per cycle (newest at the right), coloured by what the warp did: issued or why it stalled.',
  l1: 'L1 data cache: sets x ways with valid / reserved / LRU state, MSHRs (outstanding misses) and the miss queue. Drawn once the memory-system model exports them.',
  mrpb: 'MRPB (memory request prioritization buffer): per-warp queues between the coalescer and L1 that reorder requests to reduce cache thrashing (MRPB paper §3).',
  ipc: 'IPC: thread instructions per cycle, over the whole run and over each recent interval.',
  stalls: 'Stall breakdown: scheduler-cycles without an issue, by the reason of the best candidate warp (Nsight Compute\'s names).',
  histogram: 'Conflict-degree histogram: how many shared-memory accesses had each conflict degree (1 = conflict free).',
};
