//! Chrome / Perfetto trace export (issue 17, "Exports"; `warpstep run --perfetto FILE` and the
//! app's button): a timing run as Chrome trace-event JSON, which ui.perfetto.dev and
//! chrome://tracing open. The format is the "JSON trace event format": an object with a
//! `traceEvents` array of events with `ph` (phase), `ts` (time), `pid` and `tid`, and metadata
//! events (`ph: "M"`) naming the processes and threads.
//!
//! What is exported, one process per SM (`pid` = the SM's id) and one thread per warp slot:
//! - the **warp timeline**: what each warp slot did in each cycle (MODEL.md section 12's
//!   [`WarpCycle`] names: `issued`, `long_scoreboard`, `barrier`, ...), as complete events
//!   (`ph: "X"`), one per run of equal states; idle cycles are left out;
//! - every **instruction**, as an instant event (`ph: "i"`) at its issue cycle, named by its
//!   opcode, with its PC, PTX line and active mask, and another at its writeback;
//! - per SM, **counters** (`ph: "C"`): the warp instructions issued and written back so far, and
//!   the instructions in flight between the two (the back end's occupancy); the **execution
//!   units** busy each cycle (`units busy`: SP, SFU and DP units still taking an instruction's
//!   passes, and whether MEM0 holds one) and the instructions inside each pipeline (`in
//!   execution units`: SP, SFU, DP, and the LD/ST unit's memory instructions behind MEM0); the
//!   L1D's **queue depths** (`L1D queues`: miss queue entries, MSHRs in use);
//! - the **memory requests** of global and local instructions, from the model's memory event
//!   log ([`crate::mem::events`]): on each SM's `L1D` thread an instant per access the L1D
//!   answered at once (`hit`, `stored`, `reservation fail: mshr`, `data port busy`, ...), and an
//!   async span (`ph: "b"`/`"e"`, category `L1D`) from the access to the reply handed back to
//!   the LD/ST unit for each request that waited (`L1D miss`, `L1D MSHR merge`, `L1D
//!   write-through`, `L1D bypass`), with its address, warp, PC and opcode.
//!
//! One more process, the **memory system** (`pid` = the number of SMs), holds the levels the
//! SMs share: for each L2 slice an async span per request from the slice taking it off the
//! interconnect to its last reply (or acknowledgement) leaving (`L2 slice N`), and for each
//! DRAM channel one per read from the channel taking it to its return to the slice (`DRAM
//! channel N`); writes that expect no reply are instants on the slice's or channel's thread.
//! Its counters: each slice's queues (ROP delay queue, icnt->L2, L2->DRAM, DRAM->L2, L2->icnt,
//! MSHRs), each channel's scheduler queue and requests in flight, and the packets in each
//! direction of the interconnect.
//!
//! Counters are sampled after every cycle ([`PerfettoRecorder::sample`]) and written only when
//! they change. Time is in cycles: `ts` is the cycle number, which Perfetto shows as
//! microseconds (one cycle = 1 µs on its axis); `otherData` says so.

use crate::core::sm::{CommitEvent, IssueEvent};
use crate::core::stall::WarpCycle;
use crate::core::timeline::TIMELINE_CYCLES;
use crate::core::UnitKind;
use crate::mem::{AccessOutcome, FetchKind, FetchPoint, MemEvent, MemEventKind};
use crate::sim::Sim;
use crate::trace::{mask_text, opcode_text};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Cycles a recorder may let pass between two [`PerfettoRecorder::observe`] calls: the warp
/// timeline keeps only the last [`TIMELINE_CYCLES`].
pub const OBSERVE_EVERY: u64 = (TIMELINE_CYCLES / 2) as u64;

/// The thread id of an SM's L1D track (above any warp slot).
pub const L1D_TID: u32 = 1000;
/// The thread id of DRAM channel `c` in the memory system's process is `DRAM_TID + c` (L2
/// slice `s` is thread `s`).
pub const DRAM_TID: u32 = 1000;

/// A request's span still open in the trace.
#[derive(Debug, Clone, Copy)]
struct OpenSpan {
    /// What identifies the reply: (SM, token, kind, address).
    key: (u32, u64, FetchKind, u64),
    id: u64,
    /// Replies still to come (`None` until the first says how many).
    remaining: Option<u8>,
}

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
    /// The process id of the memory system (the number of SMs).
    memory_pid: u32,
    /// The memory instructions issued since recording began, by (SM, tag): (warp slot, PC).
    memory_instrs: HashMap<(u32, u64), (u32, u32)>,
    /// The L1D requests waiting for their replies, by (SM, the log's id): (trace id, name).
    l1d_open: HashMap<(u32, u64), (u64, &'static str)>,
    /// Per L2 slice and per DRAM channel: the requests inside.
    l2_open: Vec<Vec<OpenSpan>>,
    dram_open: Vec<Vec<OpenSpan>>,
    next_id: u64,
    /// The last value written of each counter, by (pid, name).
    last: HashMap<(u32, String), Vec<u64>>,
}

impl PerfettoRecorder {
    /// Starts recording `sim` (from its current cycle): turns on the issue trace, the warp
    /// states and the memory event log, and names the processes and threads.
    pub fn new(sim: &mut Sim) -> Self {
        sim.set_tracing(true);
        sim.set_record_warp_states(true);
        sim.set_memory_events(true);
        let mut events = Vec::new();
        let mut spans = Vec::new();
        for sm in sim.sms() {
            let pid = sm.id;
            events.push(meta("process_name", pid, 0, &format!("SM {pid}")));
            events.push(sort_index(pid, pid));
            let slots = sm.timeline().slots();
            for slot in 0..slots as u32 {
                events.push(meta("thread_name", pid, slot, &format!("warp slot {slot}")));
            }
            events.push(meta("thread_name", pid, L1D_TID, "L1D"));
            spans.push(vec![None; slots]);
        }
        let memory_pid = spans.len() as u32;
        let memory = sim.memory();
        let (slices, channels) = (memory.slices().len(), memory.channels().len());
        events.push(meta("process_name", memory_pid, 0, "memory system"));
        events.push(sort_index(memory_pid, memory_pid));
        for s in 0..slices as u32 {
            events.push(meta("thread_name", memory_pid, s, &format!("L2 slice {s}")));
        }
        for c in 0..channels as u32 {
            let name = format!("DRAM channel {c}");
            events.push(meta("thread_name", memory_pid, DRAM_TID + c, &name));
        }
        let counts = vec![(0, 0); spans.len()];
        PerfettoRecorder {
            events,
            spans,
            counts,
            next_cycle: sim.cycle(),
            memory_pid,
            memory_instrs: HashMap::new(),
            l1d_open: HashMap::new(),
            l2_open: vec![Vec::new(); slices],
            dram_open: vec![Vec::new(); channels],
            next_id: 1,
            last: HashMap::new(),
        }
    }

    /// Takes what `sim` did since the last call. Call at least every [`OBSERVE_EVERY`] cycles.
    pub fn observe(&mut self, sim: &mut Sim) {
        let (issues, commits) = (sim.take_trace(), sim.take_commits());
        self.instructions(sim, &issues, &commits);
        let memory = sim.take_memory_events();
        for e in &memory {
            self.memory_event(sim, e);
        }
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

    /// Samples the unit and queue counters of the cycle `sim` has just simulated. Call after
    /// every step (a counter is written when its value changes).
    pub fn sample(&mut self, sim: &Sim) {
        let Some(ts) = sim.cycle().checked_sub(1) else {
            return;
        };
        for (sm, l1d) in sim.sms().iter().zip(sim.memory().l1ds()) {
            let pid = sm.id;
            let mut busy = Vec::new();
            let mut executing = Vec::new();
            for p in sm.pipelines().iter().filter(|p| p.units() > 0) {
                busy.push((p.kind.name(), p.busy_units(ts) as u64));
                executing.push((p.kind.name(), p.in_flight().len() as u64));
            }
            let ldst = sm.ldst();
            busy.push(("MEM0", u64::from(ldst.mem0().is_some())));
            executing.push((UnitKind::Mem.name(), ldst.in_flight().len() as u64));
            self.counter(pid, ts, "units busy", &busy);
            self.counter(pid, ts, "in execution units", &executing);
            let (queue, mshrs) = l1d.queue_depths();
            let l1 = [("miss queue", queue as u64), ("MSHRs", mshrs as u64)];
            self.counter(pid, ts, "L1D queues", &l1);
        }
        let pid = self.memory_pid;
        let memory = sim.memory();
        for (s, slice) in memory.slices().iter().enumerate() {
            let v = slice.view();
            let queues = [
                ("ROP", v.rop as u64),
                ("icnt->L2", v.icnt_to_l2 as u64),
                ("L2->DRAM", v.l2_to_dram as u64),
                ("DRAM->L2", v.dram_to_l2 as u64),
                ("L2->icnt", v.l2_to_icnt as u64),
                ("MSHRs", v.mshrs as u64),
            ];
            self.counter(pid, ts, &format!("L2 slice {s} queues"), &queues);
        }
        for (c, ch) in memory.channels().iter().enumerate() {
            let q = [
                ("queue", ch.queued() as u64),
                ("in flight", ch.in_flight() as u64),
            ];
            self.counter(pid, ts, &format!("DRAM channel {c}"), &q);
        }
        let icnt = memory.icnt();
        let packets = [
            ("to L2", icnt.requests_in_flight()),
            ("to SMs", icnt.replies_in_flight()),
        ];
        self.counter(pid, ts, "interconnect packets", &packets);
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
        self.close_requests(end);
        json!({
            "traceEvents": self.events,
            "displayTimeUnit": "ns",
            "otherData": {
                "generator": format!("warpstep {}", env!("CARGO_PKG_VERSION")),
                "kernel": sim.image().func().name,
                "time_unit": "1 cycle = 1 us on the time axis",
                "cycles": end,
                "memory_pid": self.memory_pid,
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
        let decoded = sim.decoded();
        for e in issues {
            self.events.push(json!({
                "ph": "i", "s": "t", "cat": "issue", "name": opcode_text(func, e.pc),
                "pid": e.sm, "tid": e.warp, "ts": e.cycle,
                "args": {"pc": e.pc, "line": e.line, "mask": mask_text(e.mask, warp_size)},
            }));
            self.count(e.sm, e.cycle, 1, 0);
            if decoded
                .get(e.pc as usize)
                .is_some_and(|d| d.unit == UnitKind::Mem)
            {
                self.memory_instrs.insert((e.sm, e.tag), (e.warp, e.pc));
            }
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

    /// Writes counter `name` of process `pid` at `ts` if any of its values changed.
    fn counter(&mut self, pid: u32, ts: u64, name: &str, values: &[(&str, u64)]) {
        let now: Vec<u64> = values.iter().map(|v| v.1).collect();
        let key = (pid, name.to_string());
        if self.last.get(&key) == Some(&now) {
            return;
        }
        let args: serde_json::Map<String, Value> = values
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        self.events.push(json!({
            "ph": "C", "name": name, "pid": pid, "ts": ts, "args": args,
        }));
        self.last.insert(key, now);
    }

    fn new_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// One memory event into the trace (see the module documentation).
    fn memory_event(&mut self, sim: &Sim, e: &MemEvent) {
        match e.what {
            MemEventKind::Access {
                tag,
                kind,
                outcome,
                lookup,
                id,
            } => {
                let mut args = json!({
                    "addr": format!("{:#x}", e.addr), "bytes": e.size, "kind": kind,
                    "space": e.space, "tag": tag, "lookup": lookup,
                });
                if let Some(&(warp, pc)) = self.memory_instrs.get(&(e.sm, tag)) {
                    args["warp"] = json!(warp);
                    args["pc"] = json!(pc);
                    args["op"] = json!(opcode_text(sim.image().func(), pc));
                }
                if !outcome.expects_reply() {
                    self.events.push(json!({
                        "ph": "i", "s": "t", "cat": "L1D", "name": outcome.name(),
                        "pid": e.sm, "tid": L1D_TID, "ts": e.cycle, "args": args,
                    }));
                    return;
                }
                let name = match outcome {
                    AccessOutcome::Miss => "L1D miss",
                    AccessOutcome::Merged => "L1D MSHR merge",
                    AccessOutcome::WriteThrough => "L1D write-through",
                    _ => "L1D bypass",
                };
                let trace_id = self.new_id();
                self.l1d_open.insert((e.sm, id), (trace_id, name));
                self.events.push(json!({
                    "ph": "b", "cat": "L1D", "name": name, "id": trace_id,
                    "pid": e.sm, "tid": L1D_TID, "ts": e.cycle, "args": args,
                }));
            }
            MemEventKind::Reply { id, .. } => {
                let Some((trace_id, name)) = self.l1d_open.remove(&(e.sm, id)) else {
                    return;
                };
                self.events.push(json!({
                    "ph": "e", "cat": "L1D", "name": name, "id": trace_id,
                    "pid": e.sm, "tid": L1D_TID, "ts": e.cycle,
                }));
            }
            MemEventKind::Fetch {
                kind,
                token,
                pieces,
                at,
            } => self.fetch_event(e, kind, token, pieces, at),
        }
    }

    fn fetch_event(
        &mut self,
        e: &MemEvent,
        kind: FetchKind,
        token: u64,
        pieces: u8,
        at: FetchPoint,
    ) {
        let key = (e.sm, token, kind, e.addr);
        let pid = self.memory_pid;
        let args = || {
            json!({
                "addr": format!("{:#x}", e.addr), "bytes": e.size, "kind": kind,
                "space": e.space, "sm": e.sm,
            })
        };
        match at {
            FetchPoint::L2In { slice } => {
                let name = format!("L2 slice {slice}");
                if !(kind.expects_reply() || kind.acknowledged()) {
                    self.events.push(json!({
                        "ph": "i", "s": "t", "cat": "L2", "name": format!("{} in", kind_name(kind)),
                        "pid": pid, "tid": slice, "ts": e.cycle, "args": args(),
                    }));
                    return;
                }
                let id = self.new_id();
                if let Some(open) = self.l2_open.get_mut(slice as usize) {
                    open.push(OpenSpan {
                        key,
                        id,
                        remaining: None,
                    });
                }
                self.events.push(json!({
                    "ph": "b", "cat": "L2", "name": name, "id": id,
                    "pid": pid, "tid": slice, "ts": e.cycle, "args": args(),
                }));
            }
            FetchPoint::L2Out { slice } => {
                let Some(open) = self.l2_open.get_mut(slice as usize) else {
                    return;
                };
                let Some(i) = open.iter().position(|o| o.key == key) else {
                    return;
                };
                let left = open[i].remaining.unwrap_or(pieces.max(1)).saturating_sub(1);
                open[i].remaining = Some(left);
                if left == 0 {
                    let id = open.remove(i).id;
                    self.events.push(json!({
                        "ph": "e", "cat": "L2", "name": format!("L2 slice {slice}"), "id": id,
                        "pid": pid, "tid": slice, "ts": e.cycle,
                    }));
                }
            }
            FetchPoint::DramIn { channel, slice } => {
                let tid = DRAM_TID + channel;
                if !kind.expects_reply() {
                    self.events.push(json!({
                        "ph": "i", "s": "t", "cat": "DRAM", "name": format!("{} from slice {slice}", kind_name(kind)),
                        "pid": pid, "tid": tid, "ts": e.cycle, "args": args(),
                    }));
                    return;
                }
                let id = self.new_id();
                if let Some(open) = self.dram_open.get_mut(channel as usize) {
                    open.push(OpenSpan {
                        key,
                        id,
                        remaining: None,
                    });
                }
                let mut a = args();
                a["slice"] = json!(slice);
                self.events.push(json!({
                    "ph": "b", "cat": "DRAM", "name": format!("DRAM channel {channel}"), "id": id,
                    "pid": pid, "tid": tid, "ts": e.cycle, "args": a,
                }));
            }
            FetchPoint::DramOut { channel, .. } => {
                let Some(open) = self.dram_open.get_mut(channel as usize) else {
                    return;
                };
                let Some(i) = open.iter().position(|o| o.key == key) else {
                    return;
                };
                let id = open.remove(i).id;
                self.events.push(json!({
                    "ph": "e", "cat": "DRAM", "name": format!("DRAM channel {channel}"), "id": id,
                    "pid": pid, "tid": DRAM_TID + channel, "ts": e.cycle,
                }));
            }
            // Crossing the interconnect shows in its counters.
            FetchPoint::ToIcnt { .. } | FetchPoint::SmIn => {}
        }
    }

    /// Ends the request spans still open at `end` (a run stopped before their replies).
    fn close_requests(&mut self, end: u64) {
        let mut l1d: Vec<_> = self.l1d_open.drain().collect();
        l1d.sort_by_key(|(_, (id, _))| *id);
        for ((sm, _), (id, name)) in l1d {
            self.events.push(json!({
                "ph": "e", "cat": "L1D", "name": name, "id": id, "pid": sm, "tid": L1D_TID,
                "ts": end, "args": {"unfinished": true},
            }));
        }
        let pid = self.memory_pid;
        for (slice, open) in std::mem::take(&mut self.l2_open).into_iter().enumerate() {
            for o in open {
                self.events.push(json!({
                    "ph": "e", "cat": "L2", "name": format!("L2 slice {slice}"), "id": o.id,
                    "pid": pid, "tid": slice, "ts": end, "args": {"unfinished": true},
                }));
            }
        }
        for (ch, open) in std::mem::take(&mut self.dram_open).into_iter().enumerate() {
            for o in open {
                self.events.push(json!({
                    "ph": "e", "cat": "DRAM", "name": format!("DRAM channel {ch}"), "id": o.id,
                    "pid": pid, "tid": DRAM_TID + ch as u32, "ts": end, "args": {"unfinished": true},
                }));
            }
        }
    }
}

/// A fetch kind as the trace names it.
fn kind_name(kind: FetchKind) -> &'static str {
    match kind {
        FetchKind::Read => "read",
        FetchKind::Write => "write",
        FetchKind::Atomic => "atomic",
        FetchKind::WriteBack => "write-back",
        FetchKind::AllocRead => "allocate read",
    }
}

fn meta(name: &str, pid: u32, tid: u32, value: &str) -> Value {
    json!({"ph": "M", "name": name, "pid": pid, "tid": tid, "args": {"name": value}})
}

fn sort_index(pid: u32, index: u32) -> Value {
    json!({"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": index}})
}

/// Runs `sim` to its end or `max_cycles`, recording the trace; returns the JSON text.
pub fn record_run(sim: &mut Sim, max_cycles: u64) -> String {
    let mut recorder = PerfettoRecorder::new(sim);
    let mut since = 0;
    while !sim.finished() && sim.cycle() < max_cycles {
        sim.step();
        recorder.sample(sim);
        since += 1;
        if since >= OBSERVE_EVERY {
            recorder.observe(sim);
            since = 0;
        }
    }
    recorder.finish(sim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_launches::{prepare, VECTOR_ADD_32};

    /// Vector add of 2048 floats in 8 CTAs of 256 threads on one `fermi` SM: enough misses to
    /// fill the MSHRs and the miss queue.
    const VECTOR_ADD_2048: (&str, &[&str]) = (
        VECTOR_ADD_32.0,
        &[
            "--grid",
            "8",
            "--block",
            "256",
            "--arg",
            "f32[2048]=1",
            "--arg",
            "f32[2048]=2",
            "--arg",
            "f32[2048]=0",
            "--arg",
            "2048",
        ],
    );

    fn recorded(launch: (&str, &[&str]), sets: &[&str]) -> (Sim, Value) {
        let mut sim = prepare(launch, sets).into_sim(&[]).unwrap();
        let text = record_run(&mut sim, 2_000_000);
        assert!(sim.finished());
        (sim, serde_json::from_str(&text).unwrap())
    }

    /// The values of counter `name`, arg `key`, of process `pid`, in time order.
    fn series(events: &[Value], pid: u64, name: &str, key: &str) -> Vec<(u64, u64)> {
        events
            .iter()
            .filter(|e| e["ph"] == "C" && e["pid"] == pid && e["name"] == name)
            .map(|e| (e["ts"].as_u64().unwrap(), e["args"][key].as_u64().unwrap()))
            .collect()
    }

    #[test]
    fn memory_requests_follow_the_l1d_counters_and_every_reply_comes_after_its_request() {
        // Four MSHRs and a miss queue of four: reservation failures of both kinds.
        let (sim, v) = recorded(
            VECTOR_ADD_2048,
            &["l1d.config=N:32:128:4,L:L:m:N:L,A:4:8,4"],
        );
        let events = v["traceEvents"].as_array().unwrap();
        let l1 = sim.stats().l1d;
        let lookups = |what: &str| {
            events
                .iter()
                .filter(|e| e["cat"] == "L1D" && e["ph"] != "e" && e["args"]["lookup"] == what)
                .count() as u64
        };
        assert!(l1.misses > 50, "{l1:?}");
        assert_eq!(lookups("miss"), l1.misses);
        assert_eq!(lookups("hit"), l1.hits);
        assert_eq!(lookups("merged"), l1.mshr_merges);
        assert_eq!(
            lookups("miss") + lookups("hit") + lookups("merged"),
            l1.accesses
        );
        let fails = |name: &str| events.iter().filter(|e| e["name"] == name).count() as u64;
        let rf = l1.reservation_fails;
        assert!(rf.mshr + rf.miss_queue + rf.assoc > 0, "{rf:?}");
        assert_eq!(fails("reservation fail: mshr"), rf.mshr);
        assert_eq!(fails("reservation fail: miss_queue"), rf.miss_queue);
        assert_eq!(fails("reservation fail: assoc"), rf.assoc);
        // Loads miss, stores are written through: a span each, from the L1D access to the
        // reply (the data, or the L2's acknowledgement) handed to the LD/ST unit.
        let begins: Vec<&Value> = events.iter().filter(|e| e["ph"] == "b").collect();
        let l1_spans = |name: &str| begins.iter().filter(|e| e["name"] == name).count() as u64;
        let stores_missed = begins
            .iter()
            .filter(|e| e["name"] == "L1D write-through" && e["args"]["lookup"] == "miss")
            .count() as u64;
        assert!(stores_missed > 0);
        assert_eq!(l1_spans("L1D miss") + stores_missed, l1.misses);
        let mut ends: HashMap<u64, &Value> = HashMap::new();
        for e in events.iter().filter(|e| e["ph"] == "e") {
            assert!(
                ends.insert(e["id"].as_u64().unwrap(), e).is_none(),
                "one end per id"
            );
        }
        assert_eq!(ends.len(), begins.len());
        for b in &begins {
            let e = ends[&b["id"].as_u64().unwrap()];
            assert_eq!(
                (&e["name"], &e["cat"], &e["pid"]),
                (&b["name"], &b["cat"], &b["pid"])
            );
            assert!(e["ts"].as_u64() > b["ts"].as_u64(), "{b} ends at {e}");
            assert!(e["args"]["unfinished"].is_null(), "the run drained: {b}");
        }
        // Every miss and every store went down to an L2 slice (so did the constant cache's
        // misses: the kernel's parameters), and the reads on to DRAM.
        let mem = v["otherData"]["memory_pid"].as_u64().unwrap();
        assert_eq!(mem, 1);
        let on = |cat: &str| {
            begins
                .iter()
                .filter(|e| e["cat"] == cat && e["pid"] == mem)
                .count() as u64
        };
        let down = l1_spans("L1D miss") + l1_spans("L1D write-through") + l1_spans("L1D bypass");
        let stats = sim.stats();
        assert_eq!(on("L2"), down + stats.l1c.misses + stats.l1i.misses);
        assert_eq!(on("DRAM"), stats.dram.reads);
        assert!(events
            .iter()
            .any(|e| e["ph"] == "M" && e["pid"] == mem && e["args"]["name"] == "L2 slice 0"));
        // Requests carry their instruction.
        let first = begins.iter().find(|e| e["name"] == "L1D miss").unwrap();
        assert!(first["args"]["op"]
            .as_str()
            .unwrap()
            .starts_with("ld.global"));
        assert!(first["args"]["warp"].is_u64());
    }

    #[test]
    fn unit_and_queue_counters_are_sampled_every_cycle_and_drain_to_zero() {
        let (sim, v) = recorded(VECTOR_ADD_2048, &[]);
        let events = v["traceEvents"].as_array().unwrap();
        let sp_units = u64::from(sim.config().units.sp_units);
        let checks: [(u64, &str, &str, u64); 9] = [
            (0, "units busy", "SP", sp_units),
            (0, "units busy", "MEM0", 1),
            (0, "in execution units", "LD/ST", u64::MAX),
            (
                0,
                "L1D queues",
                "MSHRs",
                u64::from(sim.config().l1d_cache().unwrap().unwrap().mshr_entries),
            ),
            (0, "L1D queues", "miss queue", u64::MAX),
            (1, "interconnect packets", "to L2", u64::MAX),
            (1, "interconnect packets", "to SMs", u64::MAX),
            (1, "L2 slice 0 queues", "ROP", u64::MAX),
            (1, "DRAM channel 0", "in flight", u64::MAX),
        ];
        for (pid, name, key, most) in checks {
            let s = series(events, pid, name, key);
            assert!(s.len() > 2, "{name} {key}: {s:?}");
            assert!(
                s.windows(2).all(|w| w[0].0 < w[1].0),
                "{name}: one value a cycle"
            );
            let max = s.iter().map(|x| x.1).max().unwrap();
            assert!(max > 0 && max <= most, "{name} {key}: max {max}");
            assert_eq!(s.last().unwrap().1, 0, "{name} {key} at the end");
            assert!(s.last().unwrap().0 < sim.cycle());
        }
        // Every counter value is a number of at least 0.
        for e in events.iter().filter(|e| e["ph"] == "C") {
            for (k, v) in e["args"].as_object().unwrap() {
                assert!(v.as_u64().is_some(), "{k} in {e}");
            }
        }
    }

    #[test]
    fn the_memory_log_is_off_unless_asked_and_changes_no_timing() {
        let mut off = prepare(VECTOR_ADD_2048, &[]).into_sim(&[]).unwrap();
        let mut on = off.clone();
        on.set_memory_events(true);
        off.run(1_000_000);
        on.run(1_000_000);
        assert!(off.take_memory_events().is_empty());
        let events = on.take_memory_events();
        assert!(events.windows(2).all(|w| w[0].cycle <= w[1].cycle));
        assert!(events.len() > 100);
        assert_eq!(on.cycle(), off.cycle());
        assert_eq!(on.stats(), off.stats());
    }

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
