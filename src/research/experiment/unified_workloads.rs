//! The host programs of the unified memory experiment (Gebhart et al., MICRO'12, Table 6):
//! Rodinia's needle (the corpus PTX, BLOCK_SIZE 16, and ours at Table 1's BLOCK_SIZE 32) and
//! bfs (the corpus PTX), and our two kernels of `tests/data/kernels/unified.cu` standing for
//! dgemm (register-limited) and a cache-limited program. Each runs its whole launch sequence on
//! a [`Device`] from inputs drawn from a fixed seed and checks the answer against a Rust
//! reference: a run that computes the wrong thing is an error, not a number.

use super::host::{Arg, Device};
use super::unified_fig7 as fig7;
use super::unified_programs as programs;
use crate::launch::{Dim3, ElemType, SplitMix64};
use serde::Serialize;

const NEEDLE_PTX: &str =
    include_str!("../../../tests/data/ptx-corpus/ocelot_rodinia_needle_kernel.ptx");
const BFS_PTX: &str = include_str!("../../../tests/data/ptx-corpus/dice_rodinia_bfs.ptx");
const UNIFIED_PTX: &str = include_str!("../../../tests/data/kernels/unified.sm_52.ptx");

pub use super::Size;

/// Table 6's row for a program: performance and energy at 128, 256 and 384 KB, normalised to
/// the partitioned 256/64/64 KB design.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PaperRow {
    pub name: &'static str,
    pub performance: [f64; 3],
    pub energy: [f64; 3],
}

/// Table 6's average over its eight programs.
pub const PAPER_AVERAGE: PaperRow = PaperRow {
    name: "Average",
    performance: [0.97, 1.14, 1.16],
    energy: [0.98, 0.87, 0.87],
};

/// Table 6's last row, the average of Fig. 7's programs (§6.1: within 1% at 384 KB).
pub const PAPER_FIG7_AVERAGE: PaperRow = PaperRow {
    name: "Figure 7 Benchmarks (Average)",
    performance: [0.99, 1.00, 1.00],
    energy: [0.93, 0.96, 1.00],
};

/// One program of the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Rodinia needle at Table 1's shape: our kernels, 32-thread CTAs, 264.1 shared bytes a
    /// thread, 18 registers (Table 1).
    Needle,
    /// An ablation: `Needle` with its score tile padded to 34 words a row (268.25 shared bytes
    /// a thread), so that the anti-diagonal's accesses do not all fall in one bank.
    NeedlePadded,
    /// Rodinia needle as the corpus has it: BLOCK_SIZE 16, 136.25 shared bytes a thread.
    Needle16,
    /// Rodinia bfs (the corpus PTX), 9 registers (Table 1), a random graph.
    Bfs,
    /// `dgemm_regblock`: register-limited (ptxas: 72 registers, 32 shared bytes a thread).
    Dgemm,
    /// `cache_gather`: cache-limited (23 registers, no shared memory).
    CacheGather,
    /// Rodinia lud's blocked LU (ours, BLOCK_SIZE 16): 20 registers, 96 shared bytes a thread
    /// in its perimeter kernel (Table 1).
    Lu,
    /// Parallel cyclic reduction (ours, after [26]): 128-thread CTAs, 20 shared bytes a
    /// thread, 33 registers (Table 1).
    Pcr,
    /// Rodinia srad v2 (the corpus PTX): 16 x 16 CTAs, 24 shared bytes a thread, 18 registers
    /// (Table 1).
    Srad,
    /// GPU-mummer's suffix-trie walk, a query a thread (ours): no shared memory, 21 registers
    /// (Table 1).
    Mummer,
    /// Fig. 7's set (§6.1, no benefit expected): Rodinia nn (corpus PTX), 13 registers.
    Nn,
    /// Rodinia hotspot (corpus PTX), 16 x 16 CTAs, 12 shared bytes a thread, 22 registers.
    Hotspot,
    /// The CUDA samples' VectorAdd (ours), 9 registers.
    VectorAdd,
    /// Rodinia backprop's training step (corpus PTX), 17 registers (Table 1).
    Backprop,
    /// AES-128 encryption, T-tables in shared memory (ours), 28 registers (Table 1's aes).
    Aes,
    /// The CUDA samples' dwtHaar1D (ours), 14 registers (Table 1).
    Haar,
}

impl Workload {
    /// Whether Table 6's average takes it: the paper's programs, needle once (at Table 1's
    /// shape), not the ablations.
    pub fn in_average(self) -> bool {
        matches!(
            self,
            Workload::Needle
                | Workload::Bfs
                | Workload::Dgemm
                | Workload::Lu
                | Workload::Pcr
                | Workload::Srad
                | Workload::Mummer
        )
    }

    /// Whether it is one of Fig. 7's programs, which §6.1 says the unified design neither
    /// helps nor harms (within 1% at 384 KB).
    pub fn fig7(self) -> bool {
        matches!(
            self,
            Workload::Nn
                | Workload::Hotspot
                | Workload::VectorAdd
                | Workload::Backprop
                | Workload::Aes
                | Workload::Haar
        )
    }

    pub const ALL: [Workload; 16] = [
        Workload::Needle,
        Workload::NeedlePadded,
        Workload::Needle16,
        Workload::Bfs,
        Workload::Dgemm,
        Workload::CacheGather,
        Workload::Lu,
        Workload::Pcr,
        Workload::Srad,
        Workload::Mummer,
        Workload::Nn,
        Workload::Hotspot,
        Workload::VectorAdd,
        Workload::Backprop,
        Workload::Aes,
        Workload::Haar,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Workload::Needle => "needle",
            Workload::NeedlePadded => "needle_padded",
            Workload::Needle16 => "needle16",
            Workload::Bfs => "bfs",
            Workload::Dgemm => "dgemm",
            Workload::CacheGather => "cache_gather",
            Workload::Lu => "lu",
            Workload::Pcr => "pcr",
            Workload::Srad => "srad",
            Workload::Mummer => "mummer",
            Workload::Nn => "nn",
            Workload::Hotspot => "hotspot",
            Workload::VectorAdd => "vector_add",
            Workload::Backprop => "backprop",
            Workload::Aes => "aes",
            Workload::Haar => "dwt_haar1d",
        }
    }

    /// What it is and how big, for the report.
    pub fn about(self, size: Size) -> String {
        match self {
            Workload::Needle => {
                let n = needle_length(size, 32);
                format!("Rodinia needle, BLOCK_SIZE 32 (ours, Table 1's shape), {n} x {n}, 18 registers")
            }
            Workload::NeedlePadded => {
                let n = needle_length(size, 32);
                format!("needle's kernels with the score tile padded to 34 words a row (ours, no bank conflicts on the anti-diagonal), {n} x {n}, 18 registers")
            }
            Workload::Needle16 => {
                let n = needle_length(size, 16);
                format!("Rodinia needle, corpus PTX (BLOCK_SIZE 16), {n} x {n}, 18 registers")
            }
            Workload::Bfs => format!(
                "Rodinia bfs, corpus PTX, {} nodes, 2-8 random edges each, 9 registers",
                bfs_nodes(size)
            ),
            Workload::Dgemm => {
                let (m, n, k) = dgemm_shape(size);
                format!("dgemm_regblock (ours), C {m} x {n}, K {k}, 72 registers")
            }
            Workload::CacheGather => {
                let (threads, words, reps) = gather_shape(size);
                format!(
                    "cache_gather (ours), {threads} threads x {reps} reads of a {} KB table, 23 registers",
                    words * 4 / 1024
                )
            }
            Workload::Lu => {
                let n = programs::lu_size(size);
                format!("blocked LU after Rodinia lud (ours, BLOCK_SIZE 16), {n} x {n} floats, 20 registers")
            }
            Workload::Pcr => {
                let (systems, matrices) = programs::pcr_shape(size);
                format!("parallel cyclic reduction (ours), {systems} systems of 128 equations sharing {matrices} matrices, 33 registers")
            }
            Workload::Srad => {
                let (rows, cols, iterations) = programs::srad_shape(size);
                format!("Rodinia srad v2, corpus PTX, {rows} x {cols}, {iterations} iterations, 18 registers")
            }
            Workload::Mummer => {
                let (length, depth, count, query_len) = programs::mummer_shape(size);
                format!("GPU-mummer's suffix-trie walk (ours), {count} queries of {query_len} bases, trie of a {length}-base reference to depth {depth}, 21 registers")
            }
            Workload::Nn => format!(
                "Rodinia nn, corpus PTX, {} records, 13 registers (Fig. 7)",
                fig7::nn_records(size)
            ),
            Workload::Hotspot => {
                let (n, steps) = fig7::hotspot_shape(size);
                format!("Rodinia hotspot, corpus PTX, {n} x {n}, {steps} steps in pyramids of 2, 22 registers (Fig. 7)")
            }
            Workload::VectorAdd => format!(
                "VectorAdd (ours), {} floats, 9 registers (Fig. 7)",
                fig7::vector_add_length(size)
            ),
            Workload::Backprop => format!(
                "Rodinia backprop, corpus PTX, {} inputs, layerforward and adjust_weights, 17 registers (Fig. 7)",
                fig7::backprop_inputs(size)
            ),
            Workload::Aes => format!(
                "AES-128 encryption (ours), {} blocks of 16 bytes, 28 registers (Fig. 7)",
                fig7::aes_blocks(size)
            ),
            Workload::Haar => format!(
                "dwtHaar1D (ours), {} ints, 14 registers (Fig. 7)",
                fig7::haar_length(size)
            ),
        }
    }

    /// Registers a thread, as the paper's Table 1 gives them (needle, bfs) or ptxas allocates
    /// them (ours): the PTX's own live count is far above for the old corpus PTX.
    pub fn registers(self) -> u32 {
        match self {
            Workload::Needle | Workload::NeedlePadded | Workload::Needle16 => 18,
            Workload::Bfs => 9,
            Workload::Dgemm => 72,
            Workload::CacheGather => 23,
            Workload::Lu => 20,
            Workload::Pcr => 33,
            Workload::Srad => 18,
            Workload::Mummer => 21,
            Workload::Nn => 13,
            Workload::Hotspot => 22,
            Workload::VectorAdd => 9,
            Workload::Backprop => 17,
            Workload::Aes => 28,
            Workload::Haar => 14,
        }
    }

    /// Table 6's row, for the programs the paper ran.
    pub fn paper(self) -> Option<PaperRow> {
        match self {
            Workload::Needle | Workload::NeedlePadded | Workload::Needle16 => Some(PaperRow {
                name: "needle",
                performance: [1.29, 1.75, 1.71],
                energy: [0.76, 0.64, 0.67],
            }),
            Workload::Bfs => Some(PaperRow {
                name: "bfs",
                performance: [1.03, 1.08, 1.12],
                energy: [0.91, 0.89, 0.88],
            }),
            Workload::Dgemm => Some(PaperRow {
                name: "dgemm",
                performance: [0.77, 1.01, 1.08],
                energy: [1.13, 0.95, 0.94],
            }),
            Workload::Lu => Some(PaperRow {
                name: "lu",
                performance: [0.96, 1.07, 1.07],
                energy: [1.00, 0.91, 0.89],
            }),
            Workload::Mummer => Some(PaperRow {
                name: "GPU-mummer",
                performance: [0.96, 1.04, 1.04],
                energy: [0.97, 0.95, 0.97],
            }),
            Workload::Pcr => Some(PaperRow {
                name: "pcr",
                performance: [0.77, 1.04, 1.06],
                energy: [1.33, 0.92, 0.93],
            }),
            Workload::Srad => Some(PaperRow {
                name: "srad",
                performance: [1.00, 1.08, 1.09],
                energy: [0.94, 0.86, 0.89],
            }),
            Workload::CacheGather
            | Workload::Nn
            | Workload::Hotspot
            | Workload::VectorAdd
            | Workload::Backprop
            | Workload::Aes
            | Workload::Haar => None,
        }
    }

    /// Runs the whole program on `device` and checks its answer.
    pub fn run(self, size: Size, device: &mut Device) -> Result<(), String> {
        match self {
            Workload::Needle => needle(device, needle_length(size, 32), NeedleKernels::OURS),
            Workload::NeedlePadded => {
                needle(device, needle_length(size, 32), NeedleKernels::PADDED)
            }
            Workload::Needle16 => needle(device, needle_length(size, 16), NeedleKernels::CORPUS),
            Workload::Bfs => bfs(device, bfs_nodes(size)),
            Workload::Dgemm => dgemm(device, dgemm_shape(size)),
            Workload::CacheGather => cache_gather(device, gather_shape(size)),
            Workload::Lu => programs::lu(device, programs::lu_size(size)),
            Workload::Pcr => programs::pcr(device, programs::pcr_shape(size)),
            Workload::Srad => programs::srad(device, programs::srad_shape(size)),
            Workload::Mummer => programs::mummer(device, programs::mummer_shape(size)),
            Workload::Nn => fig7::nn(device, fig7::nn_records(size)),
            Workload::Hotspot => fig7::hotspot(device, fig7::hotspot_shape(size)),
            Workload::VectorAdd => fig7::vector_add(device, fig7::vector_add_length(size)),
            Workload::Backprop => fig7::backprop(device, fig7::backprop_inputs(size)),
            Workload::Aes => fig7::aes(device, fig7::aes_blocks(size)),
            Workload::Haar => fig7::haar(device, fig7::haar_length(size)),
        }
    }

    /// The PTX module its kernels are in.
    pub fn ptx(self) -> &'static str {
        match self {
            Workload::Needle16 => NEEDLE_PTX,
            Workload::Bfs => BFS_PTX,
            Workload::Srad => programs::SRAD_PTX,
            Workload::Lu | Workload::Pcr | Workload::Mummer => programs::PROGRAMS_PTX,
            Workload::Nn => fig7::NN_PTX,
            Workload::Hotspot => fig7::HOTSPOT_PTX,
            Workload::VectorAdd => fig7::VECTOR_ADD_PTX,
            Workload::Backprop => fig7::BACKPROP_PTX,
            Workload::Aes => fig7::AES_PTX,
            Workload::Haar => fig7::HAAR_PTX,
            Workload::Needle | Workload::NeedlePadded | Workload::Dgemm | Workload::CacheGather => {
                UNIFIED_PTX
            }
        }
    }
}

/// The workloads called `names` (all of them when empty); `Err` names an unknown one.
pub fn select(names: &[String]) -> Result<Vec<Workload>, String> {
    if names.is_empty() {
        return Ok(Workload::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            Workload::ALL
                .into_iter()
                .find(|w| w.name() == n)
                .ok_or_else(|| {
                    let all: Vec<&str> = Workload::ALL.iter().map(|w| w.name()).collect();
                    format!("unknown workload {n} (one of: {})", all.join(", "))
                })
        })
        .collect()
}

fn needle_length(size: Size, block: usize) -> usize {
    match size {
        Size::Full => 2048,
        Size::Quick => 4 * block,
    }
}

fn bfs_nodes(size: Size) -> usize {
    match size {
        Size::Full => 32768,
        Size::Quick => 2048,
    }
}

fn dgemm_shape(size: Size) -> (usize, usize, usize) {
    match size {
        Size::Full => (1024, 128, 128),
        Size::Quick => (128, 32, 32),
    }
}

fn gather_shape(size: Size) -> (usize, usize, usize) {
    match size {
        Size::Full => (8192, 32768, 32),
        Size::Quick => (1024, 8192, 8),
    }
}

/// The two needle kernels and the tile side they are compiled for.
#[derive(Debug, Clone, Copy)]
struct NeedleKernels {
    first: &'static str,
    second: &'static str,
    block: usize,
}

impl NeedleKernels {
    const CORPUS: NeedleKernels = NeedleKernels {
        first: "_Z20needle_cuda_shared_1PiS_S_iiii",
        second: "_Z20needle_cuda_shared_2PiS_S_iiii",
        block: 16,
    };
    const OURS: NeedleKernels = NeedleKernels {
        first: "needle32_1",
        second: "needle32_2",
        block: 32,
    };
    const PADDED: NeedleKernels = NeedleKernels {
        first: "needle32p_1",
        second: "needle32p_2",
        block: 32,
    };
}

/// Rodinia needle's host (needle.cu): the score matrix's borders set, then the first kernel on
/// the growing anti-diagonals of tiles (grid 1..=width), the second on the shrinking ones
/// (width-1 down to 1); penalty 10, a random reference in blosum62's range.
fn needle(device: &mut Device, len: usize, kernels: NeedleKernels) -> Result<(), String> {
    let penalty = 10i32;
    let cols = len + 1;
    let width = len / kernels.block;
    let mut rng = SplitMix64::new(81);
    let mut reference = vec![0i32; cols * cols];
    for i in 1..cols {
        for j in 1..cols {
            reference[i * cols + j] = rng.next_in_range(-4, 11) as i32;
        }
    }
    let mut matrix = vec![0i32; cols * cols];
    for i in 1..cols {
        matrix[i * cols] = -(i as i32) * penalty;
        matrix[i] = -(i as i32) * penalty;
    }
    let want = needle_reference(&reference, &matrix, cols, penalty);
    device.upload_i32("reference", &reference);
    device.upload_i32("matrix", &matrix);
    device.upload_i32("unused", &vec![0; cols * cols]);
    let launches = (1..=width)
        .map(|i| (kernels.first, i))
        .chain((1..width).rev().map(|i| (kernels.second, i)));
    for (kernel, i) in launches {
        let args = [
            Arg::Buffer("reference"),
            Arg::Buffer("matrix"),
            Arg::Buffer("unused"),
            Arg::Value(cols as i64),
            Arg::Value(penalty.into()),
            Arg::Value(i as i64),
            Arg::Value(width as i64),
        ];
        device.launch(kernel, Dim3::linear(i as u32), kernels.block as u32, &args)?;
    }
    check(device.i32s("matrix") == want, "needle's score matrix")
}

/// Needleman-Wunsch scores, row by row (the reference the needle programs are checked
/// against): `matrix` with its first row and column set, `reference` the substitution scores.
pub fn needle_reference(reference: &[i32], matrix: &[i32], cols: usize, penalty: i32) -> Vec<i32> {
    let mut m = matrix.to_vec();
    for i in 1..cols {
        for j in 1..cols {
            m[i * cols + j] = (m[(i - 1) * cols + j - 1] + reference[i * cols + j])
                .max(m[i * cols + j - 1] - penalty)
                .max(m[(i - 1) * cols + j] - penalty);
        }
    }
    m
}

/// A random graph as Rodinia's bfs reads it: per node (first edge, degree), 2 to 8 edges to
/// nodes drawn uniformly.
fn random_graph(nodes: usize) -> (Vec<i32>, Vec<i32>) {
    let mut rng = SplitMix64::new(21);
    let mut node_words = Vec::with_capacity(2 * nodes);
    let mut edges = Vec::new();
    for _ in 0..nodes {
        let degree = rng.next_in_range(2, 8) as usize;
        node_words.extend([edges.len() as i32, degree as i32]);
        for _ in 0..degree {
            edges.push(rng.next_in_range(0, nodes as i128 - 1) as i32);
        }
    }
    (node_words, edges)
}

/// Breadth-first distances from node 0 (-1: unreached).
fn bfs_reference(nodes: &[i32], edges: &[i32], n: usize) -> Vec<i32> {
    let mut cost = vec![-1i32; n];
    cost[0] = 0;
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(u) = queue.pop_front() {
        let (start, degree) = (nodes[2 * u] as usize, nodes[2 * u + 1] as usize);
        for &v in &edges[start..start + degree] {
            if cost[v as usize] < 0 {
                cost[v as usize] = cost[u] + 1;
                queue.push_back(v as usize);
            }
        }
    }
    cost
}

/// Rodinia bfs's host (bfs.cu): from node 0, `Kernel` then `Kernel2` per level until `Kernel2`
/// leaves the `over` flag clear; grid ceil(n/512), block 512.
fn bfs(device: &mut Device, n: usize) -> Result<(), String> {
    let (nodes, edges) = random_graph(n);
    let want = bfs_reference(&nodes, &edges, n);
    let mut start = vec![0u8; n];
    start[0] = 1;
    device.upload_i32("nodes", &nodes);
    device.upload_i32("edges", &edges);
    device.upload_u8("mask", &start);
    device.upload_u8("updating", &vec![0; n]);
    device.upload_u8("visited", &start);
    let mut cost = vec![-1i32; n];
    cost[0] = 0;
    device.upload_i32("cost", &cost);
    let grid = Dim3::linear(n.div_ceil(512) as u32);
    for _ in 0..n {
        let first = [
            Arg::Buffer("nodes"),
            Arg::Buffer("edges"),
            Arg::Buffer("mask"),
            Arg::Buffer("updating"),
            Arg::Buffer("visited"),
            Arg::Buffer("cost"),
            Arg::Value(n as i64),
        ];
        device.launch("_Z6KernelP4NodePiPbS2_S2_S1_i", grid, 512, &first)?;
        device.upload_u8("over", &[0]);
        let second = [
            Arg::Buffer("mask"),
            Arg::Buffer("updating"),
            Arg::Buffer("visited"),
            Arg::Buffer("over"),
            Arg::Value(n as i64),
        ];
        device.launch("_Z7Kernel2PbS_S_S_i", grid, 512, &second)?;
        if device.bytes("over") == [0] {
            return check(device.i32s("cost") == want, "bfs's distances");
        }
    }
    Err("bfs did not finish in as many levels as nodes".to_string())
}

/// `dgemm_regblock`: C = A . B with small integers (exact in double precision), A column-major; grid
/// (N/16, M/64), block 64.
fn dgemm(device: &mut Device, (m, n, k): (usize, usize, usize)) -> Result<(), String> {
    let mut rng = SplitMix64::new(16);
    let a: Vec<f64> = (0..m * k)
        .map(|_| rng.next_in_range(-3, 3) as f64)
        .collect();
    let b: Vec<f64> = (0..k * n)
        .map(|_| rng.next_in_range(-2, 2) as f64)
        .collect();
    let f64_bytes = |v: &[f64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    device.upload("c", ElemType::F64, vec![0; m * n * 8]);
    device.upload("a", ElemType::F64, f64_bytes(&a));
    device.upload("b", ElemType::F64, f64_bytes(&b));
    let args = [
        Arg::Buffer("c"),
        Arg::Buffer("a"),
        Arg::Buffer("b"),
        Arg::Value(m as i64),
        Arg::Value(n as i64),
        Arg::Value(k as i64),
    ];
    let grid = Dim3 {
        x: (n / 16) as u32,
        y: (m / 64) as u32,
        z: 1,
    };
    device.launch("dgemm_regblock", grid, 64, &args)?;
    let mut want = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            want[i * n + j] = (0..k).map(|x| a[x * m + i] * b[x * n + j]).sum();
        }
    }
    check(device.bytes("c") == f64_bytes(&want), "dgemm's product")
}

/// `cache_gather`: each thread sums `reps` table words at the places its LCG walk gives.
fn cache_gather(
    device: &mut Device,
    (threads, words, reps): (usize, usize, usize),
) -> Result<(), String> {
    let table: Vec<i32> = (0..words as i32)
        .map(|i| i.wrapping_mul(7919) ^ 0x55)
        .collect();
    device.upload_i32("out", &vec![0; threads]);
    device.upload_i32("table", &table);
    let args = [
        Arg::Buffer("out"),
        Arg::Buffer("table"),
        Arg::Value(words as i64),
        Arg::Value(reps as i64),
    ];
    device.launch(
        "cache_gather",
        Dim3::linear((threads / 256) as u32),
        256,
        &args,
    )?;
    let want: Vec<i32> = (0..threads as u32)
        .map(|t| {
            let mut h = t.wrapping_mul(2654435761);
            let mut sum = 0u32;
            for _ in 0..reps {
                h = h.wrapping_mul(1664525).wrapping_add(1013904223);
                sum = sum.wrapping_add(table[((h >> 8) % words as u32) as usize] as u32);
            }
            sum as i32
        })
        .collect();
    check(device.i32s("out") == want, "cache_gather's sums")
}

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("{what} differ from the reference"))
    }
}
