//! The convergence-barrier pass (issue 15; book §3.1.2, Figs. 3.7-3.8): golden placements of
//! ADD/WAIT and barrier indices on the book's nested example (tests/data/book_fig3_8.ptx), the
//! Fig. 3.5 spin lock (tests/data/kernels/spinlock.sm_52.ptx), the Fig. 3.2 loop
//! (tests/data/book_fig3_2.ptx) and small kernels of each shape.

mod common;

use common::*;
use warpstep::ptx::convergence_barriers::{BarrierSite, Placed, PlacedBarrier};
use warpstep::ptx::{self, place_barriers, Function, Pc, Reconvergence};

fn load(file: &str, kernel: &str) -> Function {
    let p = ptx::load(&data(file)).unwrap();
    p.kernel(kernel).unwrap().clone()
}

fn kernel(body: &str) -> Function {
    let src = format!(
        ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<8>;\nmov.u32 %r1, %tid.x;\n{body}\n}}\n"
    );
    let p = ptx::load(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    p.kernel("k").unwrap().clone()
}

/// Every non-empty annotation as (Pc, annotations).
fn listing(f: &Function) -> Vec<(Pc, Vec<String>)> {
    let plan = place_barriers(f);
    (0..f.instrs.len() as Pc)
        .map(|pc| (pc, plan.annotations(pc)))
        .filter(|(_, a)| !a.is_empty())
        .collect()
}

fn ann(pc: Pc, a: &[&str]) -> (Pc, Vec<String>) {
    (pc, a.iter().map(|s| s.to_string()).collect())
}

fn site(branch: Pc, barrier: u32, wait: Pc) -> BarrierSite {
    BarrierSite {
        branch,
        reconvergence: Reconvergence::At(wait),
        barrier: Some(PlacedBarrier {
            barrier,
            add: branch,
            wait,
        }),
    }
}

#[test]
fn book_fig3_8_nested_ifs_use_b0_outside_b1_inside() {
    let f = load("book_fig3_8.ptx", "book_fig3_8");
    let l = |name: &str| f.labels[name];
    assert_eq!(
        [l("BB510"), l("BB512"), l("BB514"), l("BB516"), l("BB518")],
        [3, 6, 9, 10, 11]
    );
    let plan = place_barriers(&f);
    assert_eq!(plan.barriers, 2);
    // Outer `if` (end of 510, Pc 5): B0, WAIT in 518; inner (end of 512, Pc 8): B1, WAIT in 516.
    assert_eq!(plan.sites, vec![site(5, 0, 11), site(8, 1, 10)]);
    assert_eq!(
        listing(&f),
        vec![
            ann(5, &["ADD B0"]),
            ann(8, &["ADD B1"]),
            ann(10, &["WAIT B1"]),
            ann(11, &["WAIT B0"]),
        ]
    );
    assert_eq!(plan.placed(10), &[Placed::Wait(1)]);
    assert_eq!(plan.site(8).map(|s| s.branch), Some(8));
    assert!(plan.site(7).is_none());
    // The kernel computes what its CUDA says (under today's SIMT stack).
    let p = run_functional_ok(
        &data("book_fig3_8.ptx"),
        &["--grid", "1", "--block", "4", "--arg", "u32[4]=0"],
    );
    assert_eq!(u32s(&p, 0), [12, 11, 0, 0]);
}

#[test]
fn straight_line_kernel_gets_an_empty_plan() {
    let f = kernel("add.s32 %r2, %r1, 1;\nmul.lo.s32 %r3, %r2, %r2;\nret;");
    let plan = place_barriers(&f);
    assert!(plan.is_empty());
    assert_eq!(plan.barriers, 0);
    assert!(plan.sites.is_empty());
    assert!(listing(&f).is_empty());
}

#[test]
fn sequential_ifs_reuse_b0() {
    // pc 0 mov; 1 setp; 2 @p1 bra J1; 3 add; J1 = 4: setp; 5 @p2 bra J2; 6 add; J2 = 7: ret.
    let f = kernel(
        "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra J1;\nadd.s32 %r2, %r1, 1;\n\
         J1:\nsetp.eq.s32 %p2, %r1, 1;\n@%p2 bra J2;\nadd.s32 %r3, %r1, 2;\nJ2:\nret;",
    );
    assert_eq!((f.labels["J1"], f.labels["J2"]), (4, 7));
    let plan = place_barriers(&f);
    assert_eq!(plan.barriers, 1);
    assert_eq!(plan.sites, vec![site(2, 0, 4), site(5, 0, 7)]);
    assert_eq!(
        listing(&f),
        vec![
            ann(2, &["ADD B0"]),
            ann(4, &["WAIT B0"]),
            ann(5, &["ADD B0"]),
            ann(7, &["WAIT B0"]),
        ]
    );
}

#[test]
fn join_that_is_the_next_branch_waits_before_it_adds() {
    // The first if's join (Pc 4) is the second if's branch: WAIT B0 then ADD B0 at Pc 4.
    let f = kernel(
        "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra J1;\nadd.s32 %r2, %r1, 1;\n\
         J1:\n@%p1 bra J2;\nadd.s32 %r3, %r1, 2;\nJ2:\nret;",
    );
    let plan = place_barriers(&f);
    assert_eq!(plan.barriers, 1);
    assert_eq!(
        listing(&f),
        vec![
            ann(2, &["ADD B0"]),
            ann(4, &["WAIT B0", "ADD B0"]),
            ann(6, &["WAIT B0"]),
        ]
    );
}

#[test]
fn fig3_5_spin_lock_adds_before_the_loop_branch_and_waits_at_the_exit() {
    let f = load("kernels/spinlock.sm_52.ptx", "spinlock");
    // Pc 4 is the loop head ($L__BB0_1), Pc 8 the `@%p1 bra $L__BB0_1`, Pc 9 the loop exit
    // (the critical section).
    assert_eq!(f.labels["$L__BB0_1"], 4);
    assert_eq!(f.instrs[8].branch_target(), Some(4));
    let plan = place_barriers(&f);
    assert_eq!(plan.barriers, 1);
    assert_eq!(plan.sites, vec![site(8, 0, 9)]);
    assert_eq!(listing(&f), vec![ann(8, &["ADD B0"]), ann(9, &["WAIT B0"])]);
}

#[test]
fn book_fig3_2_loop_holds_b0_around_the_nested_ifs() {
    // The loop's branch (Fig. 3.3 line 17) keeps B0 busy while other splits run the whole loop
    // body, so the ifs inside it (lines 6 and 9) need B1 and B2; lines 11 and 13 are
    // unguarded and get nothing. The `.loc` lines are Fig. 3.2's: the ifs are on its lines 6
    // and 8, the loop's `while` on 17.
    let f = load("book_fig3_2.ptx", "book_fig3_2");
    let l = |name: &str| f.labels[name];
    let line = |n: u32| {
        f.instrs
            .iter()
            .position(|i| i.is_branch() && i.loc.map(|l| l.line) == Some(n))
            .unwrap() as Pc
    };
    let (b6, b9, b17) = (line(6), line(8), line(17));
    assert_eq!(
        (l("A"), b6, b9, l("E"), l("G"), b17),
        (12, 19, 23, 27, 29, 31)
    );
    let plan = place_barriers(&f);
    assert_eq!(plan.barriers, 3);
    assert_eq!(
        plan.sites,
        vec![
            site(b6, 1, l("G")),
            site(b9, 2, l("E")),
            site(b17, 0, b17 + 1)
        ]
    );
    assert_eq!(
        listing(&f),
        vec![
            ann(19, &["ADD B1"]),
            ann(23, &["ADD B2"]),
            ann(27, &["WAIT B2"]),
            ann(29, &["WAIT B1"]),
            ann(31, &["ADD B0"]),
            ann(32, &["WAIT B0"]),
        ]
    );
}

#[test]
fn branch_reconverging_only_at_exit_gets_no_barrier() {
    // if (t == 0) return early: the immediate post-dominator is the virtual exit.
    let f = kernel(
        "setp.eq.s32 %p1, %r1, 0;\n@%p1 bra EARLY;\nadd.s32 %r2, %r1, 1;\nret;\nEARLY:\nexit;",
    );
    let plan = place_barriers(&f);
    assert_eq!(
        plan.sites,
        vec![BarrierSite {
            branch: 2,
            reconvergence: Reconvergence::Exit,
            barrier: None,
        }]
    );
    assert_eq!(plan.barriers, 0);
    assert!(listing(&f).is_empty());
}

#[test]
fn loop_with_break_nests_two_barriers_waiting_at_the_same_pc() {
    // HEAD (2): setp; 3: @p1 bra DONE; 4: setp; 5: @p2 bra DONE; 6: add; 7: bra HEAD; DONE = 8.
    // Both exits reconverge at DONE and each region is the whole loop: B0 and B1, the smaller
    // region's WAIT first.
    let f = kernel(
        "mov.u32 %r3, 0;\nHEAD:\nsetp.ge.s32 %p1, %r3, 8;\n@%p1 bra DONE;\n\
         setp.eq.s32 %p2, %r3, %r1;\n@%p2 bra DONE;\nadd.s32 %r3, %r3, 1;\nbra HEAD;\n\
         DONE:\nret;",
    );
    assert_eq!((f.labels["HEAD"], f.labels["DONE"]), (2, 8));
    let plan = place_barriers(&f);
    assert_eq!(plan.barriers, 2);
    assert_eq!(plan.sites, vec![site(3, 0, 8), site(5, 1, 8)]);
    assert_eq!(
        listing(&f),
        vec![
            ann(3, &["ADD B0"]),
            ann(5, &["ADD B1"]),
            ann(8, &["WAIT B0", "WAIT B1"]),
        ]
    );
}

#[test]
fn book_fig3_2_block_labels_name_each_instructions_block() {
    // Issue 30: the SIMT views name a PC's block (A to G, as the book's figures do).
    let f = load("book_fig3_2.ptx", "book_fig3_2");
    let labels = f.block_labels();
    assert_eq!(labels.len(), f.instrs.len());
    assert_eq!(labels[0], "");
    for name in ["A", "B", "C", "D", "E", "F", "G"] {
        let pc = f.labels[name] as usize;
        assert_eq!(labels[pc], name);
        if pc > 0 {
            assert_ne!(labels[pc - 1], name);
        }
    }
    let g = f.labels["G"] as usize;
    assert_eq!(labels[g + 1], "G");
}
