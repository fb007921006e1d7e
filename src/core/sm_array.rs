//! The GPU's SMs through one cycle (MODEL.md section 1; issue 32's "the whole GPU on every
//! core"): in SM order, or on several threads with the same result.
//!
//! Within a cycle an SM reads and writes only its own state and its own L1D, except when an
//! instruction it issues reaches global memory: the memory system has already run its cycle
//! ([`crate::sim::Sim::step`]), and each SM's L1D is its own. So a cycle has three parts:
//! every SM up to and including issue ([`Sm::cycle_through_issue`]), in parallel; the
//! functional execution of the instructions that reach global memory ([`Sm::execute_deferred`]),
//! SM by SM in order, so loads, stores and atomics change memory in exactly the order of the
//! sequential model; every SM's rest of the cycle ([`Sm::cycle_after_issue`]), in parallel.
//! On one thread the same three parts run SM by SM, so results are byte-identical whatever the
//! thread count (the determinism tests compare them). The browser's wasm build steps in order.

use super::sm::{ExecContext, IssueEvent, Sm, SmContext};
use crate::exec::GlobalMemory;
use crate::mem::L1d;

/// Runs one cycle of every SM. `threads` above 1 spreads the SMs over rayon's pool (natively,
/// when at least two SMs hold work, and not while tracing, whose events come in SM order).
pub fn cycle_all(
    now: u64,
    sms: &mut [Sm],
    l1ds: &mut [L1d],
    exec: ExecContext,
    global: &mut GlobalMemory,
    trace: Option<&mut Vec<IssueEvent>>,
    threads: usize,
) {
    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 && trace.is_none() && sms.iter().filter(|sm| sm.works()).nth(1).is_some() {
        cycle_in_parallel(now, sms, l1ds, exec, global, threads);
        return;
    }
    let _ = threads;
    cycle_in_order(now, sms, l1ds, exec, global, trace);
}

/// The SMs one after another, each through its whole cycle.
fn cycle_in_order(
    now: u64,
    sms: &mut [Sm],
    l1ds: &mut [L1d],
    exec: ExecContext,
    global: &mut GlobalMemory,
    mut trace: Option<&mut Vec<IssueEvent>>,
) {
    for (sm, l1d) in sms.iter_mut().zip(l1ds) {
        let mut ctx = context(exec, trace.as_deref_mut(), l1d);
        sm.cycle(now, &mut ctx, global);
    }
}

/// The SMs in one contiguous group per thread of rayon's pool. Each group runs its SMs up to
/// issue, then waits for its turn at global memory (the groups before it have executed their
/// deferred instructions), executes its own, and finishes its SMs' cycles while the next group
/// takes its turn: one meeting of the threads per cycle.
///
/// A group never waits on one that no thread has started ([`run_groups`]), so the cycle
/// completes whatever number of threads the pool really has.
#[cfg(not(target_arch = "wasm32"))]
fn cycle_in_parallel(
    now: u64,
    sms: &mut [Sm],
    l1ds: &mut [L1d],
    exec: ExecContext,
    global: &mut GlobalMemory,
    threads: usize,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let groups = threads
        .min(rayon::current_num_threads())
        .min(sms.len())
        .max(1);
    let per_group = sms.len().div_ceil(groups);
    let turn = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let global = Mutex::new(global);
    let run_group = |k: usize, sms: &mut [Sm], l1ds: &mut [L1d]| {
        for (sm, l1d) in sms.iter_mut().zip(l1ds.iter_mut()) {
            sm.cycle_through_issue(now, &mut context(exec, None, l1d));
        }
        wait_for_turn(&turn, k);
        {
            let mut global = global
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            for sm in sms.iter_mut().filter(|sm| sm.works_this_cycle()) {
                sm.execute_deferred(now, &exec, &mut global, None);
            }
        }
        turn.store(k + 1, Ordering::Release);
        for (sm, l1d) in sms.iter_mut().zip(l1ds.iter_mut()) {
            if sm.works_this_cycle() {
                sm.cycle_after_issue(now, &mut context(exec, None, l1d));
            }
        }
        if k > 0 {
            finished.fetch_add(1, Ordering::Release);
        }
    };
    let mut parts = sms.chunks_mut(per_group).zip(l1ds.chunks_mut(per_group));
    let Some((first_sms, first_l1ds)) = parts.next() else {
        return;
    };
    rayon::join(
        || {
            run_group(0, first_sms, first_l1ds);
            // Wait here, spinning, until every group is done: waiting inside `join` instead
            // may put this thread to sleep, and waking it costs more than the wait.
            while finished.load(Ordering::Acquire) < groups - 1 {
                if rayon::yield_now() != Some(rayon::Yield::Executed) {
                    std::hint::spin_loop();
                }
            }
        },
        || run_groups(1, parts, &run_group),
    );
}

/// Group `k` on this thread and, offered to the pool's other threads at the same time, the
/// groups after it (`rayon::join`: the second half is stolen or, if no thread is free, run
/// here afterwards). Each thread thus starts with its lowest group, so every group waits only
/// on one already running.
#[cfg(not(target_arch = "wasm32"))]
fn run_groups<'a, I>(
    k: usize,
    mut parts: I,
    run_group: &(impl Fn(usize, &'a mut [Sm], &'a mut [L1d]) + Sync),
) where
    I: ExactSizeIterator<Item = (&'a mut [Sm], &'a mut [L1d])> + Send,
{
    let Some((sms, l1ds)) = parts.next() else {
        return;
    };
    if parts.len() == 0 {
        run_group(k, sms, l1ds);
    } else {
        rayon::join(
            || run_group(k, sms, l1ds),
            || run_groups(k + 1, parts, run_group),
        );
    }
}

/// Spins until `turn` reaches `k` (the group before has left global memory).
#[cfg(not(target_arch = "wasm32"))]
fn wait_for_turn(turn: &std::sync::atomic::AtomicUsize, k: usize) {
    let mut spins = 0u32;
    while turn.load(std::sync::atomic::Ordering::Acquire) != k {
        spins += 1;
        if spins % 1024 == 0 {
            // The group before may have no thread yet: let the OS run one.
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

fn context<'a>(
    exec: ExecContext<'a>,
    trace: Option<&'a mut Vec<IssueEvent>>,
    l1d: &'a mut L1d,
) -> SmContext<'a> {
    SmContext { exec, trace, l1d }
}

/// Runs `cycles` (a loop of [`cycle_all`]s) with the pool's other threads standing by for the
/// SM groups each cycle offers them, instead of going to sleep between cycles: a cycle of 15
/// SMs lasts tens of microseconds, about what waking a sleeping thread costs. Only from a
/// thread of the pool (the CLI runs its commands on one); elsewhere `cycles` just runs.
pub fn with_threads_standing_by<R>(threads: usize, cycles: impl FnOnce() -> R) -> R {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(home) = rayon::current_thread_index().filter(|_| threads > 1) {
        use std::sync::atomic::{AtomicBool, Ordering};
        let done = AtomicBool::new(false);
        return rayon::in_place_scope(|scope| {
            for _ in 1..threads.min(rayon::current_num_threads()) {
                let done = &done;
                scope.spawn(move |_| stand_by(home, done));
            }
            let out = cycles();
            done.store(true, Ordering::Release);
            out
        });
    }
    let _ = threads;
    cycles()
}

/// Takes the work other threads offer ([`run_groups`]) until `done`. Not on the thread that
/// runs the cycles (it may pick this up while it waits for a group): that one returns at once.
#[cfg(not(target_arch = "wasm32"))]
fn stand_by(home: usize, done: &std::sync::atomic::AtomicBool) {
    if rayon::current_thread_index() == Some(home) {
        return;
    }
    while !done.load(std::sync::atomic::Ordering::Acquire) {
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            std::hint::spin_loop();
        }
    }
}
