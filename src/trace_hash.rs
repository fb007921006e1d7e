//! A fingerprint of a whole run: FNV-1a (64-bit) over its `--trace` lines and final statistics.
//! The same program, launch, data and configuration must give the same fingerprint on every
//! platform and in wasm (MODEL.md section 1); the native and the browser tests both compare it
//! with `tests/data/golden/determinism.txt`.

use crate::sim::Sim;
use crate::trace::issue_line;

/// FNV-1a over bytes, continuing from `hash`.
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}

/// The FNV-1a offset basis.
pub const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;

/// Runs `sim` to the end (at most `max_cycles`) with tracing on and returns the fingerprint of
/// its trace, its cycle count and its final statistics.
pub fn run_fingerprint(sim: &mut Sim, max_cycles: u64) -> u64 {
    sim.set_tracing(true);
    let mut hash = FNV_START;
    let warp_size = sim.config().core.warp_size;
    while !sim.finished() && sim.cycle() < max_cycles {
        sim.run_for(4096);
        let events = sim.take_trace();
        let func = sim.image().func();
        for ev in events {
            hash = fnv1a(hash, issue_line(func, warp_size, &ev).as_bytes());
            hash = fnv1a(hash, b"\n");
        }
    }
    // The totals only: the per-SM shares are their breakdown, and without them the fingerprints
    // recorded before `per_sm` existed stay valid. The energy is left out the same way: it is
    // priced from counters (docs/energy.md), and the fingerprints predate it.
    let mut stats = sim.stats();
    stats.per_sm.clear();
    stats.energy = None;
    let stats = serde_json::to_string(&stats).unwrap_or_default();
    fnv1a(fnv1a(hash, &sim.cycle().to_le_bytes()), stats.as_bytes())
}

/// The runs whose fingerprints `tests/data/golden/determinism.txt` records: (name, PTX, launch
/// flags). The native and the wasm tests both run exactly these.
pub const DETERMINISM_CASES: &[(&str, &str, &[&str])] = &[
    (
        "histogram_fermi",
        include_str!("../tests/data/kernels/histogram.sm_80.ptx"),
        &[
            "--grid",
            "6",
            "--block",
            "128",
            "--arg",
            "u8[4000]=rand:9",
            "--arg",
            "4000",
            "--arg",
            "u32[64]=0",
        ],
    ),
    (
        "divergence_teaching",
        include_str!("../tests/data/kernels/divergence.sm_52.ptx"),
        &[
            "--config",
            "teaching",
            "--block",
            "16",
            "--arg",
            "u32[64]=rand:3:0:1",
            "--arg",
            "u32[64]=rand:4:0:1",
            "--arg",
            "4",
            "--arg",
            "u32[16]=0",
            "--arg",
            "u32[16]=0",
            "--arg",
            "u32[16]=0",
        ],
    ),
    (
        "transpose_tesla",
        include_str!("../tests/data/kernels/transpose.sm_52.ptx"),
        &[
            "--config",
            "tesla-c2050-s",
            "--kernel",
            "transpose_naive",
            "--grid",
            "2,2",
            "--block",
            "32,32",
            "--arg",
            "f32[4096]=rand:5",
            "--arg",
            "f32[4096]=0",
            "--arg",
            "64",
            "--arg",
            "64",
        ],
    ),
    (
        // The whole GPU: 15 SMs sharing L2 and DRAM, atomics from every SM (issue 12).
        "histogram_gtx480",
        include_str!("../tests/data/kernels/histogram.sm_80.ptx"),
        &[
            "--config",
            "gtx480",
            "--grid",
            "30",
            "--block",
            "128",
            "--arg",
            "u8[16000]=rand:11",
            "--arg",
            "16000",
            "--arg",
            "u32[64]=0",
        ],
    ),
];

/// One line per [`DETERMINISM_CASES`] run: `name fingerprint cycles`.
pub fn determinism_fingerprints() -> Result<String, String> {
    let mut out = String::new();
    for (name, ptx, flags) in DETERMINISM_CASES {
        let flags = crate::launch::LaunchFlags::parse_tokens(flags).map_err(|e| e.to_string())?;
        let config_for = |p: &str| crate::config::Config::preset(p).map_err(|e| e.to_string());
        let no_files = |p: &str| Err(format!("no file {p}"));
        let prepared =
            crate::run::prepare(ptx, flags, &config_for, &no_files).map_err(|e| e.to_string())?;
        let mut sim = prepared.into_sim(&[]).map_err(|e| e.to_string())?;
        let hash = run_fingerprint(&mut sim, 10_000_000);
        out += &format!("{name} {hash:016x} {}\n", sim.cycle());
    }
    Ok(out)
}
