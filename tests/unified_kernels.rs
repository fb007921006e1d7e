//! The kernels written for the unified memory experiment (issue 16; `tests/data/kernels/
//! unified.cu`) compute what their CUDA says, in the functional and the timing model, and their
//! storage demand is the shape the experiment needs: `dgemm_regblock` register-limited (ptxas
//! allocates 72 registers a thread: 288 KB for 1024 threads, more than the partitioned SM's
//! 256 KB register file), `cache_gather` cache-limited (a 256 KB table).

mod common;

use common::*;

const PTX: &str = "kernels/unified.sm_52.ptx";

#[test]
fn dgemm_regblock_multiplies() {
    let (m, n, k) = (64usize, 32usize, 32usize);
    let mut rng = Rng::new(16);
    // Small integers: every product and sum is exact in double precision. A is column-major.
    let a: Vec<f64> = (0..m * k).map(|_| rng.below(7) as f64 - 3.0).collect();
    let b: Vec<f64> = (0..k * n).map(|_| rng.below(5) as f64 - 2.0).collect();
    let mut want = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            want[i * n + j] = (0..k).map(|x| a[x * m + i] * b[x * n + j]).sum();
        }
    }
    let args = [
        format!("f64[{}]=0", m * n),
        format!("f64[{}]={}", m * k, list(&a)),
        format!("f64[{}]={}", k * n, list(&b)),
        m.to_string(),
        n.to_string(),
        k.to_string(),
    ];
    let mut flags = vec![
        "--config",
        "unified-micro12",
        "--kernel",
        "dgemm_regblock",
        "--grid",
        "2,1",
        "--block",
        "64",
        "--regs",
        "72",
    ];
    for arg in &args {
        flags.extend(["--arg", arg.as_str()]);
    }
    let p = run_ok(&data(PTX), &flags);
    let c: Vec<f64> = u8s(&p, 0)
        .chunks_exact(8)
        .map(|w| f64::from_le_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(c, want);
    // Unified at 384 KB: 4 x 72 + 2048 / 64 = 320 bytes a thread, 1228 -> 1024 threads (16
    // CTAs of 64); the partitioned 256 KB register file holds 910 threads (14 CTAs). Both are
    // above `unified-micro12`'s 8 CTA slots, which the experiment must raise (docs/unified.md).
    flags.extend(["--set", "unified.enabled=true"]);
    let sim = assert_timing_matches_functional(&data(PTX), &flags);
    let part = sim.partition().expect("unified");
    assert_eq!((part.threads, part.register_bytes / 1024), (1024, 288));
    assert_eq!(part.shared_bytes, 16 * 2048);
}

#[test]
fn cache_gather_sums_its_walk() {
    let (words, reps, threads) = (1024u32, 8u32, 512u32);
    let table: Vec<u32> = (0..words).map(|i| i * 3 + 1).collect();
    let want: Vec<u32> = (0..threads)
        .map(|t| {
            let mut h = t.wrapping_mul(2654435761);
            (0..reps).fold(0u32, |sum, _| {
                h = h.wrapping_mul(1664525).wrapping_add(1013904223);
                sum.wrapping_add(table[((h >> 8) % words) as usize])
            })
        })
        .collect();
    let args = [
        format!("u32[{threads}]=0"),
        format!("u32[{words}]={}", list(&table)),
        words.to_string(),
        reps.to_string(),
    ];
    let mut flags = vec![
        "--config",
        "unified-micro12",
        "--kernel",
        "cache_gather",
        "--grid",
        "2",
        "--block",
        "256",
    ];
    for arg in &args {
        flags.extend(["--arg", arg.as_str()]);
    }
    let p = run_ok(&data(PTX), &flags);
    assert_eq!(u32s(&p, 0), want);
}
