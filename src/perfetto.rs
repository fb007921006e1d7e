//! Chrome / Perfetto trace export (issue 17, "Exports"; `warpstep run --perfetto FILE` and the
//! app's button): a timing run as Chrome trace-event JSON, which ui.perfetto.dev and
//! chrome://tracing open. The format is the "JSON trace event format": an object with a
//! `traceEvents` array of events with `ph` (phase), `ts` (time), `pid` and `tid`.
//!
//! What is exported, one process per SM and one thread per warp slot:
//! - the **warp timeline**: what each warp slot did in each cycle (MODEL.md section 12's
//!   [`WarpCycle`] names: `issued`, `long_scoreboard`, `barrier`, ...), as complete events
//!   (`ph: "X"`), one per run of equal states; idle cycles are left out;
//! - every **instruction**, as an instant event (`ph: "i"`) at its issue cycle, named by its
//!   opcode, with its PC, PTX line and active mask, and another at its writeback;
//! - per SM, **counters** (`ph: "C"`): the warp instructions issued and written back so far, and
//!   the instructions in flight between the two (the back end's occupancy).
//!
//! Time is in cycles: `ts` is the cycle number, which Perfetto shows as microseconds (one cycle
//! = 1 µs on its axis); `otherData` says so.

use crate::core::sm::{CommitEvent, IssueEvent};
use crate::core::stall::WarpCycle;
use crate::core::timeline::TIMELINE_CYCLES;
use crate::sim::Sim;
use crate::trace::{mask_text, opcode_text};
use serde_json::{json, Value};

/// Cycles a recorder may let pass between two [`PerfettoRecorder::observe`] calls: the warp
/// timeline keeps only the last [`TIMELINE_CYCLES`].
pub const OBSERVE_EVERY: u64 = (TIMELINE_CYCLES / 2) as u64;

/// Builds the trace of one run while it runs.
#[derive(Debug)]
pub struct PerfettoRecorder {
    events: Vec<Value>,
    /// Per SM, per warp slot: the state being extended and the cycle it began.
    spans: Vec<Vec<Option<(u8, u64)>>>,
    /// Per SM: (issued, written back) so far.
    counts: Vec<(u64, u64)>,
    /// The first cycle not yet read from the warp timelines.
    next_cycle: u64,
}

impl PerfettoRecorder {
    /// Starts recording `sim` (from its current cycle): turns on the issue trace and the warp
    /// states, and names the processes and threads.
    pub fn new(sim: &mut Sim) -> Self {
        sim.set_tracing(true);
        sim.set_record_warp_states(true);
        let mut events = Vec::new();
        let mut spans = Vec::new();
        for sm in sim.sms() {
            let pid = sm.id;
            events.push(meta("process_name", pid, 0, &format!("SM {pid}")));
            events.push(json!({"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}}));
            let slots = sm.timeline().slots();
            for slot in 0..slots as u32 {
                events.push(meta("thread_name", pid, slot, &format!("warp slot {slot}")));
            }
            spans.push(vec![None; slots]);
        }
        let counts = vec![(0, 0); spans.len()];
        PerfettoRecorder {
            events,
            spans,
            counts,
            next_cycle: sim.cycle(),
        }
    }

    /// Takes what `sim` did since the last call. Call at least every [`OBSERVE_EVERY`] cycles.
    pub fn observe(&mut self, sim: &mut Sim) {
        let (issues, commits) = (sim.take_trace(), sim.take_commits());
        self.instructions(sim, &issues, &commits);
        let now = sim.cycle();
        for (i, sm) in sim.sms().iter().enumerate() {
            let timeline = sm.timeline();
            for cycle in self.next_cycle..now {
                let Some(row) = timeline.row(cycle) else {
                    continue;
                };
                for (slot, &code) in row.iter().enumerate() {
                    self.extend(i, slot, code, cycle);
                }
            }
        }
        self.next_cycle = now;
    }

    /// Ends the open spans and returns the trace as JSON text.
    pub fn finish(mut self, sim: &mut Sim) -> String {
        self.observe(sim);
        let end = self.next_cycle;
        for sm in 0..self.spans.len() {
            for slot in 0..self.spans[sm].len() {
                self.close(sm, slot, end);
            }
        }
        json!({
            "traceEvents": self.events,
            "displayTimeUnit": "ns",
            "otherData": {
                "generator": format!("warpstep {}", env!("CARGO_PKG_VERSION")),
                "kernel": sim.image().func().name,
                "time_unit": "1 cycle = 1 us on the time axis",
                "cycles": end,
            }
        })
        .to_string()
    }

    fn extend(&mut self, sm: usize, slot: usize, code: u8, cycle: u64) {
        if matches!(self.spans[sm][slot], Some((c, _)) if c == code) {
            return;
        }
        self.close(sm, slot, cycle);
        if code != WarpCycle::Idle as u8 {
            self.spans[sm][slot] = Some((code, cycle));
        }
    }

    fn close(&mut self, sm: usize, slot: usize, end: u64) {
        let Some((code, start)) = self.spans[sm][slot].take() else {
            return;
        };
        let name = WarpCycle::ALL
            .get(code as usize)
            .map_or("unknown", |w| w.name());
        self.events.push(json!({
            "ph": "X", "cat": "warp", "name": name,
            "pid": sm, "tid": slot, "ts": start, "dur": end - start,
        }));
    }

    fn instructions(&mut self, sim: &Sim, issues: &[IssueEvent], commits: &[CommitEvent]) {
        let func = sim.image().func();
        let warp_size = sim.config().core.warp_size;
        for e in issues {
            self.events.push(json!({
                "ph": "i", "s": "t", "cat": "issue", "name": opcode_text(func, e.pc),
                "pid": e.sm, "tid": e.warp, "ts": e.cycle,
                "args": {"pc": e.pc, "line": e.line, "mask": mask_text(e.mask, warp_size)},
            }));
            self.count(e.sm, e.cycle, 1, 0);
        }
        for c in commits {
            self.events.push(json!({
                "ph": "i", "s": "t", "cat": "writeback",
                "name": format!("{} written back", opcode_text(func, c.pc)),
                "pid": c.sm, "tid": c.warp, "ts": c.cycle,
                "args": {"pc": c.pc, "line": func.instr(c.pc).map_or(0, |i| i.line)},
            }));
            self.count(c.sm, c.cycle, 0, 1);
        }
    }

    fn count(&mut self, sm: u32, cycle: u64, issued: u64, written: u64) {
        let Some(c) = self.counts.get_mut(sm as usize) else {
            return;
        };
        c.0 += issued;
        c.1 += written;
        let (i, w) = *c;
        self.events.push(json!({
            "ph": "C", "name": "instructions", "pid": sm, "ts": cycle,
            "args": {"issued": i, "written back": w},
        }));
        self.events.push(json!({
            "ph": "C", "name": "in flight", "pid": sm, "ts": cycle,
            "args": {"instructions": i.saturating_sub(w)},
        }));
    }
}

fn meta(name: &str, pid: u32, tid: u32, value: &str) -> Value {
    json!({"ph": "M", "name": name, "pid": pid, "tid": tid, "args": {"name": value}})
}

/// Runs `sim` to its end or `max_cycles`, recording the trace; returns the JSON text.
pub fn record_run(sim: &mut Sim, max_cycles: u64) -> String {
    let mut recorder = PerfettoRecorder::new(sim);
    while !sim.finished() && sim.cycle() < max_cycles {
        let left = max_cycles - sim.cycle();
        sim.run_for(left.min(OBSERVE_EVERY));
        recorder.observe(sim);
    }
    recorder.finish(sim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_launches::{prepare, VECTOR_ADD_32};

    #[test]
    fn a_run_becomes_warp_spans_instructions_and_counters() {
        let mut sim = prepare(VECTOR_ADD_32, &[]).into_sim(&[]).unwrap();
        let text = record_run(&mut sim, 1_000_000);
        assert!(sim.finished());
        let v: Value = serde_json::from_str(&text).unwrap();
        let events = v["traceEvents"].as_array().unwrap();
        let stats = sim.stats();
        let issued = events
            .iter()
            .filter(|e| e["ph"] == "i" && e["cat"] == "issue")
            .count() as u64;
        assert_eq!(issued, stats.warp_instructions);
        let written = events.iter().filter(|e| e["cat"] == "writeback").count() as u64;
        assert_eq!(
            written, stats.warp_instructions,
            "every instruction writes back"
        );
        // Warp 0's spans tile its busy cycles: no overlap, all within the run, and the issued
        // cycles add up to the warp's issues.
        let mut spans: Vec<(u64, u64, String)> = events
            .iter()
            .filter(|e| e["ph"] == "X" && e["pid"] == 0 && e["tid"] == 0)
            .map(|e| {
                (
                    e["ts"].as_u64().unwrap(),
                    e["dur"].as_u64().unwrap(),
                    e["name"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        spans.sort();
        assert!(!spans.is_empty());
        for w in spans.windows(2) {
            assert!(w[0].0 + w[0].1 <= w[1].0, "{w:?}");
        }
        assert!(spans.iter().all(|s| s.0 + s.1 <= sim.cycle() && s.1 > 0));
        // Every cycle an `issued` span covers has an issue event of the warp (the cycle of its
        // `exit` shows as the warp's end instead).
        let issue_cycles: Vec<u64> = events
            .iter()
            .filter(|e| e["cat"] == "issue" && e["tid"] == 0 && e["pid"] == 0)
            .map(|e| e["ts"].as_u64().unwrap())
            .collect();
        let issued_cycles: Vec<u64> = spans
            .iter()
            .filter(|s| s.2 == "issued")
            .flat_map(|s| s.0..s.0 + s.1)
            .collect();
        assert!(issued_cycles.iter().all(|c| issue_cycles.contains(c)));
        assert!(issued_cycles.len() + 1 >= issue_cycles.len());
        // The last counter: everything issued was written back.
        let last = events
            .iter()
            .rfind(|e| e["ph"] == "C" && e["name"] == "in flight")
            .unwrap();
        assert_eq!(last["args"]["instructions"], 0);
        assert_eq!(v["otherData"]["cycles"], sim.cycle());
        assert!(events
            .iter()
            .any(|e| e["ph"] == "M" && e["args"]["name"] == "warp slot 0"));
    }
}
