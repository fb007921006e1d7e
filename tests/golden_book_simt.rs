//! The book's SIMT stack example (Aamodt, Fung & Rogers Figs. 3.2-3.4; MODEL.md section 3) run
//! as PTX in the timing model on a 4-thread warp: the stack after the branches on Fig. 3.3's
//! lines 6 and 9, and the order the basic blocks execute in, for each push order.
//!
//! `tests/data/book_fig3_2.ptx` labels its blocks A-G and marks each with `.loc 1 <line>`, the
//! line of Fig. 3.2 (`tests/data/book_fig3_2.cu`) it implements: Fig. 3.3's branches on lines
//! 6 and 9 are the `if`s on Fig. 3.2's lines 6 and 8; the book writes masks with thread 0 on the left (1110 =
//! threads 0-2), which is 0x7 here.

mod common;

use common::*;
use warpstep::core::sm::IssueEvent;
use warpstep::ptx::Function;
use warpstep::sim::Sim;

/// Runs the book kernel with `push_order` and returns its issue events and the kernel.
fn run(push_order: &str) -> (Vec<IssueEvent>, Function) {
    let ptx = data("book_fig3_2.ptx");
    let set = format!("core.push_order={push_order}");
    let mut flags = BOOK_WARP4.to_vec();
    flags.extend(["--set", &set]);
    let p = prepare_flags(&ptx, &flags);
    let mut sim: Sim = p.into_sim(&[]).expect("sim");
    sim.set_tracing(true);
    sim.run(100_000);
    assert_eq!(sim.status(), &warpstep::sim::Status::Completed);
    let func = sim.image().func().clone();
    (sim.take_trace(), func)
}

/// The block (A-G) a PC belongs to, from the labels.
fn block_of(func: &Function, pc: u32) -> char {
    let mut best = ('?', 0);
    for (name, &start) in &func.labels {
        if name.len() == 1 && start <= pc && start >= best.1 {
            best = (name.chars().next().unwrap(), start);
        }
    }
    best.0
}

/// A stack rendered as the book draws it: (next PC block, RPC block, mask thread 0 first).
fn stack(func: &Function, ev: &IssueEvent) -> Vec<String> {
    ev.stack
        .iter()
        .map(|&(pc, rpc, mask)| {
            let lanes: String = (0..4)
                .map(|l| if mask >> l & 1 == 1 { '1' } else { '0' })
                .collect();
            let rpc = rpc.map_or('-', |r| block_of(func, r));
            format!("({},{},{})", block_of(func, pc), rpc, lanes)
        })
        .collect()
}

/// The stack right after the branch of Fig. 3.2 line `line` (via the `.loc` of the branch).
fn after_branch(events: &[IssueEvent], func: &Function, line: u32) -> Vec<String> {
    let ev = events
        .iter()
        .find(|e| {
            func.instr(e.pc)
                .is_some_and(|i| i.is_branch() && i.loc.map(|l| l.line) == Some(line))
        })
        .expect("branch issued");
    stack(func, ev)
}

/// Blocks in the order their first instructions issued (consecutive repeats collapsed).
fn block_order(events: &[IssueEvent], func: &Function) -> String {
    let mut out = String::new();
    for e in events {
        let b = block_of(func, e.pc);
        if b != '?' && !out.ends_with(b) {
            out.push(b);
        }
    }
    out
}

#[test]
fn fallthrough_last_reproduces_fig_3_4() {
    let (events, func) = run("fallthrough_last");
    assert_eq!(
        after_branch(&events, &func, 6),
        ["(G,-,1111)", "(F,G,0001)", "(B,G,1110)"]
    );
    assert_eq!(
        after_branch(&events, &func, 8),
        [
            "(G,-,1111)",
            "(F,G,0001)",
            "(E,G,1110)",
            "(D,E,0110)",
            "(C,E,1000)"
        ]
    );
    assert_eq!(block_order(&events, &func), "ABCDEFG");
}

#[test]
fn taken_last_runs_taken_paths_first() {
    let (events, func) = run("taken_last");
    assert_eq!(
        after_branch(&events, &func, 6),
        ["(G,-,1111)", "(B,G,1110)", "(F,G,0001)"]
    );
    // F first, then B; within B the taken path D before C.
    assert_eq!(block_order(&events, &func), "AFBDCEG");
}

#[test]
fn smaller_last_runs_the_path_with_fewer_lanes_first() {
    let (events, func) = run("smaller_last");
    assert_eq!(
        after_branch(&events, &func, 6),
        ["(G,-,1111)", "(B,G,1110)", "(F,G,0001)"]
    );
    // F (one lane) ran and reconverged before B's branch; C (one lane) goes above D (two).
    assert_eq!(
        after_branch(&events, &func, 8),
        ["(G,-,1111)", "(E,G,1110)", "(D,E,0110)", "(C,E,1000)"]
    );
    assert_eq!(block_order(&events, &func), "AFBCDEG");
}
