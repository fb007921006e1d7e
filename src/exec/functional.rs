//! The functional model's own scheduler (issue 3): runs a whole grid without timing, CTA after
//! CTA, warps of a CTA in lock-step turns. Each warp runs up to a quantum of instructions (so
//! warps that wait on each other through memory still make progress), or until it reaches a
//! barrier or exits. Divergent code runs through the same SIMT stack the timing model uses.
//! The "cycle" a functional run counts (for `%clock` and `--max-cycles`) is one warp
//! instruction.

use super::cta::{cta_index, CtaState};
use super::execute::{execute, AccessRecord, Env, Executed, Flow, Memories};
use super::fault::{Fault, RunError, StuckWarp};
use super::global_memory::GlobalMemory;
use super::image::KernelImage;
use super::warp_ops::finish_reduction;
use crate::config::PushOrder;
use crate::ptx::Pc;

/// Instructions a warp runs before the next warp's turn.
const QUANTUM: u32 = 64;

/// Counts from a functional run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct FunctionalStats {
    /// Warp instructions issued.
    pub warp_instructions: u64,
    /// Active lanes summed over the issued warp instructions.
    pub thread_instructions: u64,
}

/// Options of a functional run.
#[derive(Debug, Clone, Copy)]
pub struct FunctionalOptions {
    pub warp_size: u32,
    pub push_order: PushOrder,
    /// How warps diverge (`core.divergence`, `core.split_policy`, `core.yield_after`).
    pub divergence: crate::config::Divergence,
    /// Stop with an error after this many warp instructions.
    pub max_steps: u64,
}

/// Runs every CTA of the launch to completion.
pub fn run_functional(
    image: &KernelImage,
    global: &mut GlobalMemory,
    options: FunctionalOptions,
) -> Result<FunctionalStats, RunError> {
    let mut stats = FunctionalStats::default();
    run_functional_counting(image, global, options, &mut stats)?;
    Ok(stats)
}

/// [`run_functional`], counting into `stats`, so a run that stops (fault, deadlock,
/// `--max-cycles`) still reports the instructions it executed.
pub fn run_functional_counting(
    image: &KernelImage,
    global: &mut GlobalMemory,
    options: FunctionalOptions,
    stats: &mut FunctionalStats,
) -> Result<(), RunError> {
    run_functional_observing(image, global, options, stats, &mut |_, _| {})
}

/// [`run_functional_counting`], calling `observe` after every executed warp instruction with
/// its result and its memory access record (`record.valid` when it accessed memory): how the
/// trace-based bank-hash search (XOR §5) collects every dynamic shared access of a kernel.
pub fn run_functional_observing(
    image: &KernelImage,
    global: &mut GlobalMemory,
    options: FunctionalOptions,
    stats: &mut FunctionalStats,
    observe: &mut dyn FnMut(&Executed, &AccessRecord),
) -> Result<(), RunError> {
    let reg_masks = register_masks(image);
    let mut run = CtaRun {
        image,
        reg_masks: &reg_masks,
        options,
        record: AccessRecord::default(),
        observe,
    };
    for i in 0..image.grid.count() {
        let mut cta = CtaState::new(
            image,
            cta_index(image.grid, i),
            options.warp_size,
            options.divergence,
        );
        run_cta(&mut run, global, &mut cta, stats)?;
    }
    Ok(())
}

/// What stays the same while the CTAs of one launch run.
struct CtaRun<'a, 'o> {
    image: &'a KernelImage,
    reg_masks: &'a [u64],
    options: FunctionalOptions,
    record: AccessRecord,
    observe: &'o mut dyn FnMut(&Executed, &AccessRecord),
}

/// The width mask of every register of the kernel.
pub fn register_masks(image: &KernelImage) -> Vec<u64> {
    image
        .func()
        .regs
        .iter()
        .map(|r| super::lane_io::low_bits(r.bits()))
        .collect()
}

fn run_cta(
    run: &mut CtaRun,
    global: &mut GlobalMemory,
    cta: &mut CtaState,
    stats: &mut FunctionalStats,
) -> Result<(), RunError> {
    let (image, reg_masks, options) = (run.image, run.reg_masks, run.options);
    let func = image.func();
    let warps = cta.warps.len() as u32;
    // The PC of the barrier each warp last arrived at: a waiting warp's own PC has already
    // moved past it, so stuck reports name the barrier instruction from here.
    let mut barrier_pcs: Vec<Pc> = vec![0; warps as usize];
    loop {
        let mut progressed = false;
        for w in 0..warps {
            if cta.warps[w as usize].is_finished() || cta.barriers.waiting_at(w).is_some() {
                continue;
            }
            for _ in 0..QUANTUM {
                if stats.warp_instructions >= options.max_steps {
                    return Err(stuck(
                        image,
                        cta,
                        &barrier_pcs,
                        format!(
                            "the kernel did not finish within {} warp instructions (--max-cycles)",
                            options.max_steps
                        ),
                    ));
                }
                let env = Env {
                    image,
                    func,
                    ctaid: cta.ctaid,
                    warp_slot: w,
                    warp_slots: warps,
                    sm: 0,
                    sms: 1,
                    clock: stats.warp_instructions,
                    push_order: options.push_order,
                    reg_masks,
                };
                let mut mem = Memories {
                    global,
                    shared: &mut cta.shared,
                };
                let warp = &mut cta.warps[w as usize];
                let done =
                    execute(&env, &mut mem, warp, &mut run.record).map_err(RunError::Fault)?;
                (run.observe)(&done, &run.record);
                stats.warp_instructions += 1;
                stats.thread_instructions += done.active.count_ones() as u64;
                progressed = true;
                let stop = match done.flow {
                    Flow::Barrier(arrival) => {
                        cta.barriers.arrive(w, &arrival);
                        barrier_pcs[w as usize] = done.pc;
                        arrival.wait
                    }
                    Flow::Exit => cta.warps[w as usize].is_finished(),
                    _ => false,
                };
                if stop {
                    break;
                }
            }
            release_barriers(image, cta, reg_masks, options)?;
        }
        if cta.is_finished() {
            return Ok(());
        }
        release_barriers(image, cta, reg_masks, options)?;
        if !progressed && cta.barriers.waiting().len() as u32 == cta.live_warps() {
            return Err(stuck(
                image,
                cta,
                &barrier_pcs,
                "a barrier can never complete: warps wait at different barriers".into(),
            ));
        }
    }
}

fn release_barriers(
    image: &KernelImage,
    cta: &mut CtaState,
    reg_masks: &[u64],
    options: FunctionalOptions,
) -> Result<(), RunError> {
    let live = cta.live_warps();
    for release in cta.barriers.release_ready(live, options.warp_size) {
        for (w, red) in &release.reductions {
            let env = Env {
                image,
                func: image.func(),
                ctaid: cta.ctaid,
                warp_slot: *w,
                warp_slots: cta.warps.len() as u32,
                sm: 0,
                sms: 1,
                clock: 0,
                push_order: options.push_order,
                reg_masks,
            };
            if let Some(warp) = cta.warps.get_mut(*w as usize) {
                finish_reduction(&env, warp, red, release.true_count, release.lane_count);
            }
        }
    }
    Ok(())
}

/// A report of every live warp of the CTA: where it is and what it waits for (a warp waiting
/// at a barrier is shown at that barrier, `barrier_pcs[warp]`).
fn stuck(image: &KernelImage, cta: &CtaState, barrier_pcs: &[Pc], reason: String) -> RunError {
    let func = image.func();
    let warps = cta
        .warps
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.is_finished())
        .map(|(i, w)| {
            let barrier = cta.barriers.waiting_at(i as u32);
            let mut report = StuckWarp::describe(func, cta.ctaid, i as u32, w, barrier);
            if let (Some(_), Some(&pc)) = (barrier, barrier_pcs.get(i)) {
                report.pc = pc;
                report.line = func.instr(pc).map_or(0, |i| i.line);
                report.text = func.text(pc).to_string();
            }
            report
        })
        .collect();
    RunError::Stuck { reason, warps }
}

/// A fault raised while running; re-exported for callers that match on it.
pub type KernelFault = Fault;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::LaunchFlags;
    use crate::run::{prepare, Prepared};

    fn prepared(ptx: &str, flags: &[&str]) -> Prepared {
        let flags = LaunchFlags::parse_tokens(flags).expect("flags");
        let config_for = |n: &str| crate::config::Config::preset(n).map_err(|e| e.to_string());
        prepare(ptx, flags, &config_for, &|_| Err("no files".into())).expect("prepare")
    }

    fn run(p: &mut Prepared) -> Result<FunctionalStats, RunError> {
        let options = FunctionalOptions {
            warp_size: 32,
            push_order: PushOrder::TakenLast,
            divergence: Default::default(),
            max_steps: 10_000,
        };
        run_functional(&p.image, &mut p.global, options)
    }

    #[test]
    fn a_run_that_stops_keeps_its_instruction_counts() {
        // An endless loop of 2 instructions on a warp of 8 threads, stopped after 101.
        let ptx = ".version 7.7\n.target sm_52\n.address_size 64\n.visible .entry k()\n{\n\
                   .reg .b32 %r<2>;\n$L:\nadd.s32 %r1, %r1, 1;\nbra.uni $L;\n}\n";
        let mut p = prepared(ptx, &["--block", "8"]);
        let options = FunctionalOptions {
            warp_size: 32,
            push_order: PushOrder::TakenLast,
            divergence: Default::default(),
            max_steps: 101,
        };
        let mut stats = FunctionalStats::default();
        let outcome = run_functional_counting(&p.image, &mut p.global, options, &mut stats);
        assert!(
            matches!(outcome, Err(RunError::Stuck { .. })),
            "{outcome:?}"
        );
        assert_eq!(stats.warp_instructions, 101);
        assert_eq!(stats.thread_instructions, 101 * 8);
    }

    #[test]
    fn a_stuck_warp_is_shown_at_the_barrier_it_waits_at_not_past_it() {
        // Warp 0 waits at barrier 0 (PC 3), warp 1 at barrier 1 (PC 5); both warps' own PCs
        // have moved on (to the `bra.uni` and the `ret`).
        let ptx = ".version 7.7\n.target sm_52\n.address_size 64\n.visible .entry k()\n{\n\
                   .reg .pred %p<2>;\n.reg .b32 %r<2>;\n\
                   mov.u32 %r1, %tid.x;\n\
                   setp.lt.u32 %p1, %r1, 32;\n\
                   @!%p1 bra $L1;\n\
                   bar.sync 0;\n\
                   bra.uni $L2;\n\
                   $L1:\n\
                   bar.sync 1;\n\
                   $L2:\n\
                   ret;\n}\n";
        let mut p = prepared(ptx, &["--block", "64"]);
        let Err(RunError::Stuck { reason, warps }) = run(&mut p) else {
            panic!("expected a deadlock");
        };
        assert!(reason.contains("barrier"), "{reason}");
        let shown: Vec<(u32, Pc, u32, &str, Option<&str>)> = warps
            .iter()
            .map(|w| {
                let waiting = w.waiting_for.as_deref();
                (w.warp, w.pc, w.line, w.text.as_str(), waiting)
            })
            .collect();
        assert_eq!(
            shown,
            vec![
                (0, 3, 11, "bar.sync 0;", Some("waiting at barrier 0")),
                (1, 5, 14, "bar.sync 1;", Some("waiting at barrier 1")),
            ]
        );
    }
}
