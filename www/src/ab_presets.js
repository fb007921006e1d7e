// The A/B mode's quick presets (ab.js): the five comparisons issue 17 names, each the key=value
// overrides that give B the other side from the one A's configuration is on, and the panels that
// show the difference. Data only: the model validates the overrides when B is built.

// The bitwise XOR hash of the transpose example for `banks` banks (2^k): bank bit i = address
// bit i XOR bit i+k (`bwxor:0^5,1^6,2^7,3^8,4^9` for 32 banks).
function xorHash(banks) {
  const k = Math.max(1, Math.round(Math.log2(banks)));
  return `bwxor:${Array.from({ length: k }, (_, i) => `${i}^${i + k}`).join(',')}`;
}

// The quick presets: the five comparisons issue 17 names. Each gives B the other side of the
// comparison from the one A's configuration is on, and the panels that show the difference.
export const AB_PRESETS = [
  {
    id: 'hash', label: 'mod vs XOR hash', panels: ['banks', 'pipeline', 'stats'],
    title: 'Bank index function: shmem.hash = mod against the bitwise XOR hash (bank bit i = address bit i XOR bit i + log2 banks), whichever A is not on',
    sets: (c) => [`shmem.hash=${c.shmem.hash === 'mod' ? xorHash(c.shmem.banks) : 'mod'}`],
  },
  {
    id: 'mrpb', label: 'MRPB off vs on', panels: ['mrpb', 'memory', 'stats'],
    title: 'The memory request prioritization buffer: mrpb.enabled, the other way from A',
    sets: (c) => [`mrpb.enabled=${!c.mrpb.enabled}`],
  },
  {
    id: 'scheduler', label: 'LRR vs GTO', panels: ['pipeline', 'timeline', 'stats'],
    title: 'Warp scheduling: core.scheduler = lrr (loose round robin) against gto (greedy then oldest), whichever A is not on',
    sets: (c) => [`core.scheduler=${c.core.scheduler === 'gto' ? 'lrr' : 'gto'}`],
  },
  {
    id: 'divergence', label: 'stack vs convergence barriers', panels: ['simt', 'timeline', 'stats'],
    title: 'Reconvergence: core.divergence = stack (book §3.1.1) against convergence_barriers (§3.1.2), whichever A is not on',
    sets: (c) => [`core.divergence=${c.core.divergence === 'convergence_barriers' ? 'stack' : 'convergence_barriers'}`],
  },
  {
    id: 'unified', label: 'partitioned vs unified', panels: ['unified', 'memory', 'energy', 'stats'],
    title: 'Register file, shared memory and L1D partitioned or one unified pool (Unified MICRO\'12): unified.enabled, the other way from A',
    sets: (c) => [`unified.enabled=${!c.unified.enabled}`],
  },
];
