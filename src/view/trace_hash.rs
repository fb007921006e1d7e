//! A fingerprint of a whole run: FNV-1a (64-bit) over its `--trace` lines and final statistics.
//! The same program, launch, data and configuration must give the same fingerprint on every
//! platform and in wasm (MODEL.md section 1); the native and the browser tests both compare it
//! with `tests/data/golden/determinism.txt`.
//!
//! And a digest of the machine's state at one cycle ([`state_digest`], `Sim::state_digest`,
//! the browser's `Session.stateDigest()`): the lessons record it for each step
//! (`lessons/README.md`, `digest`), and the e2e tests check that replaying a lesson reaches
//! the same state, whichever way the app got to the step's cycle (forwards, or back through
//! the checkpoints).

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
        include_str!("../../tests/data/kernels/histogram.sm_80.ptx"),
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
        include_str!("../../tests/data/kernels/divergence.sm_52.ptx"),
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
        include_str!("../../tests/data/kernels/transpose.sm_52.ptx"),
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
        include_str!("../../tests/data/kernels/histogram.sm_80.ptx"),
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
        let prepared = crate::prepare::prepare(ptx, flags, &config_for, &no_files)
            .map_err(|e| e.to_string())?;
        let mut sim = prepared.into_sim(&[]).map_err(|e| e.to_string())?;
        let hash = run_fingerprint(&mut sim, 10_000_000);
        out += &format!("{name} {hash:016x} {}\n", sim.cycle());
    }
    Ok(out)
}

/// FNV-1a over a stream of numbers and text: the state digest's serialisation. Every number is
/// written as 8 little-endian bytes and every text with its length first, so that no two
/// different streams give the same bytes.
#[derive(Debug, Clone, Copy)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher(FNV_START)
    }
}

impl StateHasher {
    pub fn num(&mut self, v: u64) -> &mut Self {
        self.0 = fnv1a(self.0, &v.to_le_bytes());
        self
    }

    pub fn text(&mut self, t: &str) -> &mut Self {
        self.num(t.len() as u64);
        self.0 = fnv1a(self.0, t.as_bytes());
        self
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// The digest of `sim`'s state at its current cycle: FNV-1a over, in this order,
/// - a format tag (`warpstep-state-1`), the cycle, the run's status (running, completed, failed
///   and its message) and the CTAs dispatched so far;
/// - per SM, per warp slot: whether a warp is there; if so its CTA (launch index) and place in
///   it, whether it finished or waits at a barrier, its instructions in flight, its fetch PC
///   and I-buffer, a pending branch or instruction-cache miss, its scoreboard's pending writes
///   (register, long), its reconvergence state (the SIMT stack's entries or the convergence
///   barriers' thread groups, as `warpstep run` reports a stuck warp) and active mask, its
///   valid lanes, and every register of every lane;
/// - per SM, the instructions in flight (by tag: warp, PC, unit, issue cycle), MEM0's
///   instruction and cycles left, each execution pipeline's instructions and ready cycles, the
///   LD/ST unit's accesses behind MEM0 and their ready cycles, and the L1D's miss queue and
///   MSHRs in use;
/// - the queues of each L2 slice (ROP, icnt->L2, L2->DRAM, DRAM->L2, L2->icnt, MSHRs), each
///   DRAM channel (scheduler queue, requests in flight) and the interconnect (packets each way);
/// - the statistics as `warpstep run --json` reports their totals and per-SM shares, with the
///   energy's access counts in place of its picojoules (priced from them).
///
/// Left out, as they do not describe the machine: the warp states the views classify (the same
/// run gives the same digest with them recorded or not), the warp timeline, the counters
/// sampled for the plots, and global memory's contents (the registers that load and store
/// them are in). Runs are deterministic, so a rewind through the checkpoints to a cycle gives
/// the digest the run had there; a cycle later the cycle alone changes it.
pub fn state_digest(sim: &Sim) -> u64 {
    let mut h = StateHasher::default();
    h.text("warpstep-state-1").num(sim.cycle());
    match sim.status() {
        crate::sim::Status::Running => h.num(0),
        crate::sim::Status::Completed => h.num(1),
        crate::sim::Status::Failed(e) => h.num(2).text(&e.to_string()),
    };
    h.num(sim.ctas_dispatched());
    for sm in sim.sms() {
        h.num(u64::from(sm.id));
        for (slot, w) in sm.warps().iter().enumerate() {
            let Some(w) = w else {
                h.num(0);
                continue;
            };
            let cta = sm
                .ctas()
                .get(w.cta_slot as usize)
                .and_then(Option::as_ref)
                .map_or(u64::MAX, |c| c.index);
            h.num(1).num(cta).num(u64::from(w.warp_in_cta));
            h.num(u64::from(w.finished)).num(u64::from(w.at_barrier));
            h.num(u64::from(w.in_flight)).num(u64::from(w.fetch_pc));
            h.num(w.ibuffer.len() as u64);
            for &pc in &w.ibuffer {
                h.num(u64::from(pc));
            }
            h.num(w.branch_pending.map_or(u64::MAX, |t| t));
            h.num(u64::from(w.imiss_pending));
            h.num(w.scoreboard.pending().len() as u64);
            for p in w.scoreboard.pending() {
                h.num(u64::from(p.reg)).num(u64::from(p.long));
            }
            if let Some(state) = sm.warp_state(slot as u32) {
                h.text(&state.reconvergence.describe());
                h.num(state.reconvergence.active_mask()).num(state.valid);
                h.num(state.regs.len() as u64);
                for &r in &state.regs {
                    h.num(r);
                }
            }
        }
        let mut in_flight: Vec<_> = sm.in_flight().to_vec();
        in_flight.sort_by_key(|f| f.tag);
        h.num(in_flight.len() as u64);
        for f in &in_flight {
            h.num(f.tag).num(u64::from(f.warp)).num(u64::from(f.pc));
            h.num(f.unit.index() as u64).num(f.issued);
        }
        match sm.ldst().mem0() {
            Some(m) => h.num(m.tag).num(u64::from(m.cycles_left)),
            None => h.num(u64::MAX),
        };
        for p in sm.pipelines() {
            h.num(p.in_flight().len() as u64);
            for i in p.in_flight() {
                h.num(i.tag).num(i.ready_at);
            }
        }
        h.num(sm.ldst().in_flight().len() as u64);
        for &(tag, ready) in sm.ldst().in_flight() {
            h.num(tag).num(ready);
        }
    }
    let memory = sim.memory();
    for l1 in memory.l1ds() {
        let (queue, mshrs) = l1.queue_depths();
        h.num(queue as u64).num(mshrs as u64);
    }
    for s in memory.slices() {
        let v = s.view();
        for n in [
            v.rop,
            v.icnt_to_l2,
            v.l2_to_dram,
            v.dram_to_l2,
            v.l2_to_icnt,
            v.mshrs,
        ] {
            h.num(n as u64);
        }
    }
    for ch in memory.channels() {
        h.num(ch.queued() as u64).num(ch.in_flight() as u64);
    }
    h.num(memory.icnt().requests_in_flight());
    h.num(memory.icnt().replies_in_flight());
    let mut stats = sim.stats();
    stats.energy = None;
    h.text(&serde_json::to_string(&stats).unwrap_or_default());
    h.text(&serde_json::to_string(&sim.energy_counts()).unwrap_or_default());
    h.finish()
}

impl Sim {
    /// A digest of the machine's state at this cycle (FNV-1a; what it covers:
    /// [`state_digest`]). The lessons record it for each step. Defined here, beside the
    /// digest, so the simulator does not depend on its own fingerprints.
    pub fn state_digest(&self) -> u64 {
        state_digest(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::Timeline;
    use crate::test_launches::{prepare, TRANSPOSE_NAIVE, VECTOR_ADD_32};

    #[test]
    fn the_state_digest_is_the_same_after_a_rewind_and_changes_a_cycle_later() {
        for launch in [VECTOR_ADD_32, TRANSPOSE_NAIVE] {
            let mut sim = prepare(launch, &[]).into_sim(&[]).unwrap();
            let mut timeline = Timeline::new(&sim, 50, 4);
            let mut digests = Vec::new();
            while !sim.finished() {
                digests.push(state_digest(&sim));
                sim.step();
                timeline.observe(&sim);
            }
            digests.push(state_digest(&sim));
            let end = sim.cycle();
            assert!(end > 300, "{end}");
            // Every cycle differs from the one before (the cycle is in the digest).
            assert!(digests.windows(2).all(|w| w[0] != w[1]));
            for target in [0, 1, 49, 50, 123, end / 2, end - 1, end] {
                let back = timeline.rewind(target);
                assert_eq!(back.cycle(), target);
                assert_eq!(
                    state_digest(&back),
                    digests[target as usize],
                    "cycle {target}"
                );
                assert_eq!(back.state_digest(), digests[target as usize]);
                let mut next = back.clone();
                next.step();
                if target < end {
                    assert_ne!(state_digest(&next), digests[target as usize]);
                    assert_eq!(state_digest(&next), digests[target as usize + 1]);
                }
            }
            // The warp states the views record change nothing; a different run's state does.
            let mut quiet = prepare(launch, &[]).into_sim(&[]).unwrap();
            quiet.set_record_warp_states(false);
            quiet.run_for(end / 2);
            assert_eq!(state_digest(&quiet), digests[(end / 2) as usize]);
            let mut other = prepare(launch, &["l2.latency=7"]).into_sim(&[]).unwrap();
            other.run_for(end / 2);
            assert_ne!(state_digest(&other), digests[(end / 2) as usize]);
        }
    }

    #[test]
    fn the_digests_a_lesson_recorded_in_the_browser_are_the_native_ones() {
        // lessons/divergence.json runs the app's `divergence` example (www/src/examples.js: the
        // book's Fig. 3.2 kernel on `teaching` with these overrides); its digests were recorded
        // by the wasm build in Chromium.
        let lesson: serde_json::Value =
            serde_json::from_str(include_str!("../../lessons/divergence.json")).unwrap();
        let sets = [
            "core.warp_size=4",
            "core.simd_width=4",
            "core.max_threads_per_sm=16",
            "core.max_threads_per_cta=16",
            "core.push_order=fallthrough_last",
        ];
        let book = (
            include_str!("../../tests/data/book_fig3_2.ptx"),
            &["--config", "teaching"][..],
        );
        let mut sim = prepare(book, &sets).into_sim(&[]).unwrap();
        let mut checked = 0;
        for step in lesson["steps"].as_array().unwrap() {
            let Some(cycle) = step["cycle"].as_u64() else {
                continue;
            };
            assert!(cycle >= sim.cycle(), "the lesson's cycles go forwards");
            sim.run_for(cycle - sim.cycle());
            let digest = format!("{:016x}", sim.state_digest());
            assert_eq!(
                step["digest"].as_str(),
                Some(digest.as_str()),
                "cycle {cycle}"
            );
            checked += 1;
        }
        assert!(checked >= 3);
    }

    #[test]
    fn the_hasher_separates_its_fields() {
        let a = StateHasher::default().text("ab").text("c").finish();
        let b = StateHasher::default().text("a").text("bc").finish();
        assert_ne!(a, b);
        assert_eq!(a, StateHasher::default().text("ab").text("c").finish());
    }
}
