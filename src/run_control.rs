//! Run control: stepping a [`Sim`] until something a user asked for happens (issue 31 §3), the
//! way a debugger drives a program. A run stops when its cycle budget is spent, the kernel ends
//! (completes, faults or deadlocks), a target cycle is reached, or an instruction on a
//! breakpoint issues: a PTX line, or a CUDA line when the PTX carries `.loc` lines
//! ([`SourceLines`]). The browser's `Session` and the CLI's `--break-line` / `--until-cycle`
//! both drive runs through [`run`], so native tests cover what the app does.

use crate::core::timeline::TIMELINE_CYCLES;
use crate::ptx::{Function, Pc, SourceLines};
use crate::sim::Sim;

/// Breakpoints as a flag per PC of the launched kernel, set by PTX line and by CUDA line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Breakpoints {
    ptx_lines: Vec<u32>,
    source_lines: Vec<u32>,
    by_pc: Vec<bool>,
}

impl Breakpoints {
    /// Breakpoints on PTX lines `ptx_lines` and on CUDA lines `source_lines` of `func`.
    pub fn new(
        func: &Function,
        source: &SourceLines,
        ptx_lines: Vec<u32>,
        source_lines: Vec<u32>,
    ) -> Breakpoints {
        let by_pc = func
            .instrs
            .iter()
            .map(|i| {
                ptx_lines.contains(&i.line) || {
                    let s = source.source_of(i.loc);
                    s > 0 && source_lines.contains(&s)
                }
            })
            .collect();
        Breakpoints {
            ptx_lines,
            source_lines,
            by_pc,
        }
    }

    /// The PTX lines set.
    pub fn ptx_lines(&self) -> &[u32] {
        &self.ptx_lines
    }

    /// The CUDA lines set.
    pub fn source_lines(&self) -> &[u32] {
        &self.source_lines
    }

    /// Whether the instruction at `pc` is a breakpoint.
    pub fn at(&self, pc: Pc) -> bool {
        self.by_pc.get(pc as usize).copied().unwrap_or(false)
    }

    /// Whether any instruction is a breakpoint.
    pub fn any(&self) -> bool {
        self.by_pc.iter().any(|&b| b)
    }
}

/// What stops a run besides its budget and the kernel's end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopAt {
    /// Stop once the cycle counter reaches this cycle.
    pub cycle: Option<u64>,
    /// Stop after a cycle in which an instruction on one of these issued.
    pub breakpoints: Breakpoints,
}

/// An instruction on a breakpoint that issued: the first one found (lowest SM, oldest in flight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakHit {
    /// The cycle it issued in.
    pub cycle: u64,
    pub sm: u32,
    /// The warp slot on that SM.
    pub warp: u32,
    pub pc: Pc,
    /// Its PTX line.
    pub line: u32,
}

/// Why [`run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The cycle budget was spent.
    Budget,
    /// An instruction on a breakpoint issued in the last cycle.
    Breakpoint(BreakHit),
    /// The kernel completed, faulted or deadlocked.
    Finished,
    /// The target cycle was reached.
    Cycle,
}

/// Steps `sim` at most `budget` cycles until `stop` says so or the kernel ends; `observe` sees
/// the machine after every cycle (the browser keeps its checkpoints there).
///
/// While the views ask for every warp's state ([`Sim::set_record_warp_states`]), only the last
/// [`TIMELINE_CYCLES`] cycles the run can reach are classified: the warp timeline keeps no
/// more, and timing does not depend on it. A run that a breakpoint may stop classifies every
/// cycle, and so does one in the grid's last two waves ([`Sim::in_last_waves`]: the kernel may
/// end within a CTA's lifetime). If the end still comes within the timeline's length of a cycle
/// not classified, the timeline has a gap that
/// [`crate::checkpoint::Timeline::cover_warp_states`] fills by replay.
pub fn run(sim: &mut Sim, budget: u64, stop: &StopAt, observe: &mut dyn FnMut(&Sim)) -> Stopped {
    let recording = sim.records_warp_states();
    let reach = stop
        .cycle
        .map_or(budget, |t| t.saturating_sub(sim.cycle()).min(budget));
    let unrecorded = match recording && !stop.breakpoints.any() {
        true => reach.saturating_sub(TIMELINE_CYCLES as u64),
        false => 0,
    };
    if unrecorded == 0 || sim.in_last_waves() {
        return run_recorded(sim, budget, stop, observe, false);
    }
    let start = sim.cycle();
    sim.set_record_warp_states(false);
    let first = run_recorded(sim, unrecorded, stop, observe, true);
    sim.set_record_warp_states(true);
    match first {
        Stopped::Budget => {
            let left = budget - (sim.cycle() - start);
            run_recorded(sim, left, stop, observe, false)
        }
        other => other,
    }
}

/// [`run`] with the warp-state recording as it is; with `until_last_waves`, the run also ends
/// (as [`Stopped::Budget`]) once the grid is in its last two waves.
fn run_recorded(
    sim: &mut Sim,
    budget: u64,
    stop: &StopAt,
    observe: &mut dyn FnMut(&Sim),
    until_last_waves: bool,
) -> Stopped {
    let target = stop.cycle.unwrap_or(u64::MAX);
    let watch = stop.breakpoints.any();
    for _ in 0..budget {
        if until_last_waves && sim.in_last_waves() {
            return Stopped::Budget;
        }
        if sim.cycle() >= target {
            return Stopped::Cycle;
        }
        if sim.finished() {
            return Stopped::Finished;
        }
        sim.step();
        observe(sim);
        if watch {
            if let Some(hit) = issued_on(sim, &stop.breakpoints) {
                return Stopped::Breakpoint(hit);
            }
        }
    }
    if sim.finished() {
        Stopped::Finished
    } else if sim.cycle() >= target {
        Stopped::Cycle
    } else {
        Stopped::Budget
    }
}

/// The first instruction on a breakpoint that issued in the last cycle.
fn issued_on(sim: &Sim, breakpoints: &Breakpoints) -> Option<BreakHit> {
    let now = sim.cycle().checked_sub(1)?;
    let func = sim.image().func();
    sim.sms().iter().enumerate().find_map(|(sm, s)| {
        s.in_flight()
            .iter()
            .find(|f| f.issued == now && breakpoints.at(f.pc))
            .map(|f| BreakHit {
                cycle: now,
                sm: sm as u32,
                warp: f.warp,
                pc: f.pc,
                line: func.instr(f.pc).map_or(0, |i| i.line),
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_launches::{prepare, TRANSPOSE_NAIVE, VECTOR_ADD_32};

    fn sim() -> Sim {
        prepare(VECTOR_ADD_32, &[]).into_sim(&[]).unwrap()
    }

    fn transpose() -> Sim {
        prepare(TRANSPOSE_NAIVE, &[]).into_sim(&[]).unwrap()
    }

    #[test]
    fn stops_at_a_target_cycle_and_at_the_end() {
        let mut s = sim();
        let stop = StopAt {
            cycle: Some(100),
            ..StopAt::default()
        };
        assert_eq!(run(&mut s, 1_000, &stop, &mut |_| ()), Stopped::Cycle);
        assert_eq!(s.cycle(), 100);
        assert_eq!(
            run(&mut s, 10, &StopAt::default(), &mut |_| ()),
            Stopped::Budget
        );
        assert_eq!(s.cycle(), 110);
        let mut seen = 0;
        let end = run(&mut s, u64::MAX, &StopAt::default(), &mut |_| seen += 1);
        assert_eq!(end, Stopped::Finished);
        assert!(s.finished());
        assert_eq!(seen, s.cycle() - 110, "observe sees every cycle run");
    }

    #[test]
    fn stops_when_an_instruction_on_a_breakpoint_line_issues() {
        let mut s = transpose();
        let func = s.image().func().clone();
        let store = (0..func.instrs.len() as Pc)
            .find(|&pc| func.text(pc).starts_with("st.global"))
            .and_then(|pc| func.instr(pc))
            .expect("the transpose stores its tile");
        let bps = Breakpoints::new(&func, &SourceLines::default(), vec![store.line], vec![]);
        let stop = StopAt {
            cycle: None,
            breakpoints: bps,
        };
        let Stopped::Breakpoint(hit) = run(&mut s, u64::MAX, &stop, &mut |_| ()) else {
            panic!("the store issues before the kernel ends");
        };
        assert_eq!(hit.line, store.line);
        assert_eq!(
            hit.cycle + 1,
            s.cycle(),
            "it stops right after the issuing cycle"
        );
        assert!(!s.finished());
        let again = run(&mut s, u64::MAX, &stop, &mut |_| ());
        assert!(
            matches!(again, Stopped::Breakpoint(h) if h.cycle > hit.cycle),
            "another warp's store stops the run again"
        );
    }

    #[test]
    fn a_cuda_line_breaks_at_the_instructions_compiled_from_it() {
        let source = include_str!("../tests/data/kernels/vector_add.cu");
        let launch = (source, VECTOR_ADD_32.1);
        let prepared = prepare(launch, &[]);
        let lines = SourceLines::of(&prepared.program);
        let mut s = prepared.into_sim(&[]).unwrap();
        let func = s.image().func().clone();
        let stop = StopAt {
            cycle: None,
            breakpoints: Breakpoints::new(&func, &lines, vec![], vec![4]),
        };
        let Stopped::Breakpoint(hit) = run(&mut s, u64::MAX, &stop, &mut |_| ()) else {
            panic!("line 4 runs");
        };
        assert_eq!(lines.source_line(hit.line), 4);
        let first_on_4 = (0..func.instrs.len() as Pc)
            .find(|&pc| lines.source_of(func.instr(pc).unwrap().loc) == 4)
            .unwrap();
        assert_eq!(
            hit.pc, first_on_4,
            "the first instruction of line 4 stops it"
        );
    }

    /// What the views read of every warp's state: each SM's warp timeline, its cycle record
    /// and the warps' states.
    fn views(s: &Sim) -> Vec<String> {
        s.sms()
            .iter()
            .map(|sm| {
                let states: Vec<_> = sm.warps().iter().flatten().map(|w| w.state).collect();
                format!("{:?} {:?} {states:?}", sm.timeline(), sm.last_cycle())
            })
            .collect()
    }

    /// The naive transpose over a 256x256 matrix: 64 CTAs, a run of several thousand cycles.
    fn long_transpose() -> Sim {
        let flags = [
            "--kernel",
            "transpose_naive",
            "--grid",
            "8,8",
            "--block",
            "32,32",
            "--arg",
            "f32[65536]=iota",
            "--arg",
            "f32[65536]=0",
            "--arg",
            "256",
            "--arg",
            "256",
        ];
        prepare((TRANSPOSE_NAIVE.0, &flags), &[])
            .into_sim(&[])
            .unwrap()
    }

    #[test]
    fn a_long_run_classifies_only_the_cycles_the_views_can_show() {
        // Stepping every cycle with the states recorded is the reference.
        let mut every = long_transpose();
        let mut windowed = long_transpose();
        for budget in [3_000, 100, 2_000, 513] {
            for _ in 0..budget {
                every.step();
            }
            assert_eq!(
                run(&mut windowed, budget, &StopAt::default(), &mut |_| ()),
                Stopped::Budget
            );
            assert_eq!(windowed.cycle(), every.cycle());
            assert!(windowed.records_warp_states() && windowed.warp_states_cover(512));
            if budget == 3_000 {
                assert!(
                    !windowed.warp_states_cover(3_000),
                    "the first cycles of a long run are not classified"
                );
            }
            assert_eq!(
                views(&windowed),
                views(&every),
                "at cycle {}",
                every.cycle()
            );
        }
        assert_eq!(windowed.stats(), every.stats());
    }

    #[test]
    fn the_end_of_a_run_is_classified_and_a_gap_before_it_is_replayed() {
        let mut every = long_transpose();
        while !every.finished() {
            every.step();
        }
        // In the last two waves every cycle is classified, so the end needs no replay.
        let mut windowed = long_transpose();
        let end = run(&mut windowed, u64::MAX, &StopAt::default(), &mut |_| ());
        assert_eq!(end, Stopped::Finished);
        assert_eq!(views(&windowed), views(&every));
        // A gap within the timeline's length of the end is filled from a checkpoint.
        let mut windowed = long_transpose();
        let mut checkpoints = crate::checkpoint::Timeline::new(&windowed, 1_000, 8);
        windowed.set_record_warp_states(false);
        windowed.run_for(every.cycle() - 300);
        windowed.set_record_warp_states(true);
        run(&mut windowed, u64::MAX, &StopAt::default(), &mut |s| {
            checkpoints.observe(s)
        });
        assert!(!windowed.warp_states_cover(512), "a gap of 212 cycles");
        checkpoints.cover_warp_states(&mut windowed);
        assert_eq!(windowed.cycle(), every.cycle());
        assert!(windowed.warp_states_cover(512));
        assert_eq!(views(&windowed), views(&every));
        let back = checkpoints.rewind_for_views(every.cycle() - 700);
        let mut again = long_transpose();
        for _ in 0..every.cycle() - 700 {
            again.step();
        }
        assert_eq!(
            views(&back),
            views(&again),
            "stepping back shows the same views"
        );
    }
}
