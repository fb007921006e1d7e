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
    let stats = serde_json::to_string(&sim.stats()).unwrap_or_default();
    fnv1a(fnv1a(hash, &sim.cycle().to_le_bytes()), stats.as_bytes())
}
