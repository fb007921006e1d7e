//! Needleman-Wunsch at Table 1's shape for the unified memory experiment (issue 16; Gebhart et
//! al., MICRO'12, Table 1: needle, 18 registers and 264.1 shared bytes a thread): `needle32_1`
//! and `needle32_2` of `tests/data/kernels/unified.cu`, Rodinia's nw algorithm with 32 x 32
//! tiles and 32-thread CTAs (a 33 x 33 score tile and a 32 x 32 reference tile, 8452 bytes a
//! CTA). The host's wavefront of launches scores the whole matrix as a plain Rust
//! Needleman-Wunsch does, partitioned and unified, and the unified pool holds Table 1's threads.

mod common;

use common::*;
use std::process::Command;
use warpstep::experiment::unified::needle_reference;

const PTX: &str = "kernels/unified.sm_52.ptx";

/// What ptxas allocates for needle32_1 and needle32_2 (nvcc 11.8, `-arch=sm_52 -Xptxas -v`: 17
/// registers, 8452 bytes smem). Table 1 gives 18; 17 divides every pool below into the same
/// whole CTAs (4 x 17 + 264.125 = 332.1 bytes a thread against 336.1).
const REGS: u32 = 17;
/// Shared bytes a CTA: (33 x 33 + 32 x 32) ints.
const SHARED_PER_CTA: u32 = 8452;
const TILE: usize = 32;

/// `TYPE[N]=list:...` holding exactly `values`.
fn buffer<T: ToString>(ty: &str, values: &[T]) -> String {
    format!("{ty}[{}]={}", values.len(), list(values))
}

/// Two sequences of `len` scored with `penalty`: the reference matrix, the score matrix as
/// the host initialises it (gap penalties in row 0 and column 0) and the scores it must end
/// with.
struct Alignment {
    cols: usize,
    penalty: i32,
    reference: Vec<i32>,
    matrix: Vec<i32>,
    want: Vec<i32>,
}

fn alignment(len: usize, penalty: i32, seed: u64) -> Alignment {
    let cols = len + 1;
    let mut rng = Rng::new(seed);
    let mut reference = vec![0i32; cols * cols];
    for i in 1..cols {
        for j in 1..cols {
            reference[i * cols + j] = rng.below(16) as i32 - 4; // blosum62's range, -4..11
        }
    }
    let mut matrix = vec![0i32; cols * cols];
    for i in 1..cols {
        matrix[i * cols] = -(i as i32) * penalty;
        matrix[i] = -(i as i32) * penalty;
    }
    let want = needle_reference(&reference, &matrix, cols, penalty);
    Alignment {
        cols,
        penalty,
        reference,
        matrix,
        want,
    }
}

/// The host's launches: needle32_1 with grid i for i = 1..=block_width, then needle32_2 with
/// grid i for i = block_width - 1 down to 1, each on `unified-micro12 --regs REGS` with
/// `extra`, in the timing model (checked against the functional run). Each launch's matrix is
/// passed to the next; `each` sees every launch's simulation. Returns the final matrix and
/// the cycles of all launches.
fn wavefront(
    a: &Alignment,
    extra: &[&str],
    mut each: impl FnMut(&warpstep::sim::Sim),
) -> (Vec<i32>, u64) {
    let block_width = (a.cols - 1) / TILE;
    let launches = (1..=block_width)
        .map(|i| ("needle32_1", i))
        .chain((1..block_width).rev().map(|i| ("needle32_2", i)));
    let ptx = data(PTX);
    let mut matrix = a.matrix.clone();
    let mut cycles = 0;
    for (kernel, i) in launches {
        let args = [
            buffer("s32", &a.reference),
            buffer("s32", &matrix),
            format!("s32[{}]=0", a.cols * a.cols),
            a.cols.to_string(),
            a.penalty.to_string(),
            i.to_string(),
            block_width.to_string(),
        ];
        let (grid, regs) = (i.to_string(), REGS.to_string());
        let mut flags = vec![
            "--config",
            "unified-micro12",
            "--regs",
            &regs,
            "--kernel",
            kernel,
            "--grid",
            &grid,
            "--block",
            "32",
        ];
        for arg in &args {
            flags.extend(["--arg", arg.as_str()]);
        }
        flags.extend_from_slice(extra);
        let sim = assert_timing_matches_functional(&ptx, &flags);
        each(&sim);
        cycles += sim.cycle();
        matrix = warpstep::run::buffer_bytes(sim.image(), sim.global(), 1)
            .expect("matrix")
            .chunks_exact(4)
            .map(|w| i32::from_le_bytes(w.try_into().unwrap()))
            .collect();
    }
    (matrix, cycles)
}

#[test]
fn needle32_scores_the_whole_matrix() {
    // Sequences of 128: a 129 x 129 score matrix, 4 x 4 tiles, 7 launches.
    let a = alignment(128, 10, 32);
    let (matrix, cycles) = wavefront(&a, &[], |sim| {
        assert_eq!(sim.image().shared_bytes, SHARED_PER_CTA);
        assert_eq!(sim.partition(), None);
    });
    assert_eq!(matrix, a.want);
    assert!(cycles > 0);
}

#[test]
fn needle32_runs_unified_in_table_1s_partition() {
    let a = alignment(128, 10, 32);
    let extra = [
        "--set",
        "unified.enabled=true",
        "--set",
        "core.max_ctas_per_sm=32",
    ];
    let (matrix, _) = wavefront(&a, &extra, |sim| {
        // 384 KB / (32 x 332.125 bytes a CTA) = 36 CTAs, capped at 1024 threads: 32 CTAs.
        let part = sim.partition().expect("unified");
        assert_eq!(part.threads, 1024);
        assert_eq!(part.register_bytes, 4 * REGS * 1024);
        assert_eq!(part.shared_bytes, 32 * SHARED_PER_CTA);
    });
    assert_eq!(matrix, a.want);
}

#[test]
fn the_calculator_gives_needle32_table_1s_threads() {
    // Table 1's needle: 4 x 18 + 264.125 bytes a thread; whole 32-thread CTAs of 8452 shared
    // bytes hold 1024 threads at 384 KB, 768 at 256 KB and 384 at 128 KB, with ptxas's 17
    // registers as with Table 1's 18.
    for regs in [REGS, 18] {
        for (capacity, threads) in [("384K", 1024), ("256K", 768), ("128K", 384)] {
            let out = Command::new(env!("CARGO_BIN_EXE_warpstep"))
                .arg("occupancy")
                .args(["--regs", &regs.to_string()])
                .args(["--smem-per-cta", &SHARED_PER_CTA.to_string()])
                .args(["--block", "32", "--capacity", capacity, "--json"])
                .output()
                .expect("runs");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
            assert_eq!(v["threads"], threads, "{regs} registers, {capacity}");
        }
    }
}
