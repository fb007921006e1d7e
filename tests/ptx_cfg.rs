//! Basic blocks, CFG, post-dominators and reconvergence points (MODEL.md §3): hand-built
//! graphs, small PTX kernels of each shape, and the book's Fig. 3.3 example
//! (tests/data/book_fig3_2.ptx).

use std::path::Path;

use warpstep::ptx::{self, Function, Pc, PostDominators, Reconvergence};

// ----- hand-built graphs ----------------------------------------------------------------

/// Post-dominators of a graph written as (node, successors); `X` is the virtual exit.
/// Returns the immediate post-dominator of each node as a letter.
fn ipdoms(edges: &[(char, &str)]) -> Vec<(char, char)> {
    let names: Vec<char> = edges.iter().map(|(n, _)| *n).collect();
    let exit = names.len() as u32;
    let id = |c: char| {
        if c == 'X' {
            exit
        } else {
            names.iter().position(|&x| x == c).unwrap() as u32
        }
    };
    let succs: Vec<Vec<u32>> = edges
        .iter()
        .map(|(_, s)| s.chars().map(id).collect())
        .collect();
    let pd = PostDominators::compute(&succs);
    let name = |i: u32| if i == exit { 'X' } else { names[i as usize] };
    names
        .iter()
        .map(|&n| (n, pd.ipdom(id(n)).map_or('-', name)))
        .collect()
}

#[test]
fn hand_built_if_else() {
    // A: if (c) B else C; D
    let got = ipdoms(&[('A', "BC"), ('B', "D"), ('C', "D"), ('D', "X")]);
    assert_eq!(got, [('A', 'D'), ('B', 'D'), ('C', 'D'), ('D', 'X')]);
}

#[test]
fn hand_built_nested_if() {
    // A: if (c1) { B: if (c2) C; D } E
    let got = ipdoms(&[('A', "BE"), ('B', "CD"), ('C', "D"), ('D', "E"), ('E', "X")]);
    assert_eq!(
        got,
        [('A', 'E'), ('B', 'D'), ('C', 'D'), ('D', 'E'), ('E', 'X')]
    );
}

#[test]
fn hand_built_loop_with_break() {
    // P; H: while (c1) { B: if (c2) break; C } X2
    let got = ipdoms(&[('P', "H"), ('H', "BZ"), ('B', "ZC"), ('C', "H"), ('Z', "X")]);
    assert_eq!(
        got,
        [('P', 'H'), ('H', 'Z'), ('B', 'Z'), ('C', 'H'), ('Z', 'X')]
    );
}

#[test]
fn hand_built_early_return() {
    // A: if (c) return (R); B; C
    let got = ipdoms(&[('A', "RB"), ('R', "X"), ('B', "C"), ('C', "X")]);
    assert_eq!(got, [('A', 'X'), ('R', 'X'), ('B', 'C'), ('C', 'X')]);
}

#[test]
fn hand_built_book_fig3_3() {
    // Fig. 3.3: A -> F (taken) | B; B -> D (taken) | C; C -> E; D -> E; E -> G; F -> G;
    // G -> A (loop) | exit.
    let got = ipdoms(&[
        ('A', "FB"),
        ('B', "DC"),
        ('C', "E"),
        ('D', "E"),
        ('E', "G"),
        ('F', "G"),
        ('G', "AX"),
    ]);
    assert_eq!(
        got,
        [
            ('A', 'G'),
            ('B', 'E'),
            ('C', 'E'),
            ('D', 'E'),
            ('E', 'G'),
            ('F', 'G'),
            ('G', 'X')
        ]
    );
}

#[test]
fn hand_built_unreachable_exit_and_determinism() {
    // B spins forever: it has no post-dominator, and paths through it do not count for A
    // (every path from A that reaches the exit goes through C). Computing twice gives the
    // same answer.
    let edges = [('A', "BC"), ('B', "B"), ('C', "X")];
    assert_eq!(ipdoms(&edges), [('A', 'C'), ('B', '-'), ('C', 'X')]);
    assert_eq!(ipdoms(&edges), ipdoms(&edges));
}

// ----- small PTX kernels ----------------------------------------------------------------

fn kernel(body: &str) -> Function {
    let src = format!(
        ".version 7.7\n.target sm_52\n.address_size 64\n.visible .entry k(.param .u32 n)\n{{\n\
         .reg .pred %p<8>;\n.reg .b32 %r<16>;\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n\
         {body}\n}}\n"
    );
    let p = ptx::load(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    p.kernel("k").unwrap().clone()
}

/// Reconvergence of every branch as the label at that Pc (or "EXIT"), in Pc order.
fn rpcs(f: &Function) -> Vec<String> {
    (0..f.instrs.len() as Pc)
        .filter_map(|pc| f.reconvergence_of(pc))
        .map(|r| match r {
            Reconvergence::Exit => "EXIT".to_string(),
            Reconvergence::At(pc) => f
                .labels
                .iter()
                .find(|(_, &p)| p == pc)
                .map_or(format!("pc{pc}"), |(n, _)| n.clone()),
        })
        .collect()
}

#[test]
fn ptx_if_else() {
    let f = kernel(
        "setp.eq.s32 %p1, %r2, 0;\n@%p1 bra ELSE;\nadd.s32 %r3, %r2, 1;\nbra JOIN;\n\
         ELSE:\nadd.s32 %r3, %r2, 2;\nJOIN:\nadd.s32 %r4, %r3, 1;\nret;",
    );
    assert_eq!(rpcs(&f), ["JOIN", "JOIN"]);
    assert_eq!(f.cfg.blocks.len(), 4);
}

#[test]
fn ptx_nested_if() {
    let f = kernel(
        "setp.eq.s32 %p1, %r2, 0;\n@%p1 bra OUT;\nsetp.eq.s32 %p2, %r2, 1;\n@%p2 bra IN;\n\
         add.s32 %r3, %r2, 1;\nIN:\nadd.s32 %r4, %r2, 1;\nOUT:\nret;",
    );
    assert_eq!(rpcs(&f), ["OUT", "IN"]);
}

#[test]
fn ptx_loop_with_break() {
    let f = kernel(
        "mov.u32 %r3, 0;\nHEAD:\nsetp.ge.s32 %p1, %r3, %r1;\n@%p1 bra DONE;\n\
         setp.eq.s32 %p2, %r3, %r2;\n@%p2 bra DONE;\nadd.s32 %r3, %r3, 1;\nbra HEAD;\n\
         DONE:\nret;",
    );
    assert_eq!(rpcs(&f), ["DONE", "DONE", "HEAD"]);
}

#[test]
fn ptx_early_return() {
    let f = kernel(
        "setp.eq.s32 %p1, %r2, 0;\n@%p1 bra EARLY;\nadd.s32 %r3, %r2, 1;\nret;\n\
         EARLY:\nexit;",
    );
    assert_eq!(rpcs(&f), ["EXIT"]);
    // A guarded exit also leads to the virtual exit, and falls through.
    let g = kernel("setp.eq.s32 %p1, %r2, 0;\n@%p1 exit;\nadd.s32 %r3, %r2, 1;\nret;");
    let first = &g.cfg.blocks[0];
    assert_eq!(first.succs, vec![g.cfg.exit(), 1]);
}

#[test]
fn falling_off_the_end_gets_an_implicit_exit() {
    let f = kernel("add.s32 %r3, %r2, 1;");
    assert_eq!(f.instrs.len(), 4);
    assert!(f.instrs[3].is_exit());
    assert!(f.text(3).contains("implicit"));
    let g = kernel("setp.eq.s32 %p1, %r2, 0;\n@%p1 bra END;\nret;\nEND:");
    assert_eq!(g.labels["END"], 5);
    assert!(g.instrs[5].is_exit());
    assert_eq!(rpcs(&g), ["EXIT"]);
}

// ----- the book's example ---------------------------------------------------------------

fn book() -> (ptx::Program, Function) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/book_fig3_2.ptx");
    let p = ptx::load(&std::fs::read_to_string(path).unwrap()).unwrap();
    let f = p.kernel("book_fig3_2").unwrap().clone();
    (p, f)
}

/// The line of Fig. 3.2 (the book's CUDA C, `tests/data/book_fig3_2.cu`, which the `.loc`
/// lines name) of the branch on Fig. 3.3 line `line`.
fn fig3_2_line(line: u32) -> u32 {
    match line {
        9 => 8,
        11 => 10,
        n => n, // 6, 13 and 17 are on the same lines in both figures
    }
}

/// Pc of the branch on Fig. 3.3 line `line` (found by its `.loc`, a Fig. 3.2 line).
fn branch_on_fig_line(f: &Function, line: u32) -> Pc {
    let source = fig3_2_line(line);
    f.instrs
        .iter()
        .position(|i| i.is_branch() && i.loc.map(|l| l.line) == Some(source))
        .unwrap() as Pc
}

#[test]
fn book_example_blocks_and_reconvergence() {
    let (p, f) = book();
    assert_eq!(p.launch_comments.len(), 1);
    assert!(p.launch_comments[0].text.starts_with("--grid 1 --block 4"));
    let l = |name: &str| f.labels[name];
    // Blocks: prologue, A, B, C, D, E, F, G, epilogue.
    let starts: Vec<Pc> = f.cfg.blocks.iter().map(|b| b.start).collect();
    assert_eq!(
        starts,
        vec![
            0,
            l("A"),
            l("B"),
            l("C"),
            l("D"),
            l("E"),
            l("F"),
            l("G"),
            l("G") + 3
        ]
    );
    let line6 = branch_on_fig_line(&f, 6);
    let line9 = branch_on_fig_line(&f, 9);
    assert_eq!(f.instrs[line6 as usize].branch_target(), Some(l("F")));
    assert_eq!(f.reconvergence_of(line6), Some(Reconvergence::At(l("G"))));
    assert_eq!(f.instrs[line9 as usize].branch_target(), Some(l("D")));
    assert_eq!(f.reconvergence_of(line9), Some(Reconvergence::At(l("E"))));
    assert_eq!(
        f.reconvergence_of(branch_on_fig_line(&f, 11)),
        Some(Reconvergence::At(l("E")))
    );
    assert_eq!(
        f.reconvergence_of(branch_on_fig_line(&f, 13)),
        Some(Reconvergence::At(l("G")))
    );
    assert_eq!(
        f.reconvergence_of(branch_on_fig_line(&f, 17)),
        Some(Reconvergence::At(l("G") + 3))
    );
}

/// A SIMT stack entry (next PC, reconvergence PC, active mask with bit i = thread i).
type Entry = (Pc, Option<Pc>, u8);

/// Run the book kernel's control flow for one 4-thread warp with a SIMT stack
/// (push order `fallthrough_last`), using the loader's reconvergence points. Branch outcomes
/// per Fig. 3.4: line 6 taken by thread 3, line 9 by threads 1 and 2, the loop branch by
/// none. Returns the stack after each divergent branch and the order in which blocks run.
fn run_book_warp(f: &Function) -> (Vec<(u32, Vec<Entry>)>, String) {
    // By the branch's `.loc` line, Fig. 3.2's (Fig. 3.3's line 9 is Fig. 3.2's line 8).
    let taken_mask = |line: u32| match line {
        6 => 0b1000,
        8 => 0b0110,
        17 => 0b0000,
        _ => 0b1111,
    };
    let block_names: Vec<(Pc, char)> = "ABCDEFG"
        .chars()
        .map(|c| (f.labels[&c.to_string()], c))
        .collect();
    let mut stack: Vec<Entry> = vec![(0, None, 0b1111)];
    let mut snapshots = Vec::new();
    let mut order = String::new();
    for _ in 0..1000 {
        let Some(&(pc, rpc, mask)) = stack.last() else {
            break;
        };
        if Some(pc) == rpc {
            stack.pop();
            continue;
        }
        if let Some((_, c)) = block_names.iter().find(|(p, _)| *p == pc) {
            order.push(*c);
        }
        let ins = f.instrs[pc as usize];
        let top = stack.len() - 1;
        if ins.is_exit() {
            stack.clear();
        } else if let Some(target) = ins.branch_target() {
            let line = ins.loc.map_or(0, |l| l.line);
            let taken = mask & taken_mask(line);
            let not_taken = mask & !taken;
            if taken == mask {
                stack[top].0 = target;
            } else if taken == 0 {
                stack[top].0 = pc + 1;
            } else {
                let r = match f.reconvergence_of(pc).unwrap() {
                    Reconvergence::At(r) => Some(r),
                    Reconvergence::Exit => None,
                };
                stack[top].0 = r.unwrap_or(u32::MAX);
                for (next, m) in [(target, taken), (pc + 1, not_taken)] {
                    if Some(next) != r {
                        stack.push((next, r, m));
                    }
                }
                snapshots.push((line, stack.clone()));
            }
        } else {
            stack[top].0 = pc + 1;
        }
    }
    (snapshots, order)
}

#[test]
fn book_example_simt_stack_matches_model_section_3() {
    let (_, f) = book();
    let l = |name: &str| f.labels[name];
    let (snapshots, order) = run_book_warp(&f);
    // MODEL.md §3 / Fig. 3.4(c)-(d); masks written as the book does, thread 0 first.
    let book_mask = |m: u8| -> String {
        (0..4)
            .map(|t| if m >> t & 1 == 1 { '1' } else { '0' })
            .collect()
    };
    let as_book = |v: &[Entry]| -> Vec<(Pc, Option<Pc>, String)> {
        v.iter().map(|&(p, r, m)| (p, r, book_mask(m))).collect()
    };
    let e = |p: &str, r: Option<&str>, m: &str| (l(p), r.map(l), m.to_string());
    let after6 = vec![
        e("G", None, "1111"),
        e("F", Some("G"), "0001"),
        e("B", Some("G"), "1110"),
    ];
    let after9 = vec![
        e("G", None, "1111"),
        e("F", Some("G"), "0001"),
        e("E", Some("G"), "1110"),
        e("D", Some("E"), "0110"),
        e("C", Some("E"), "1000"),
    ];
    assert_eq!(snapshots.len(), 2);
    assert_eq!(snapshots[0].0, 6);
    assert_eq!(as_book(&snapshots[0].1), after6);
    assert_eq!(snapshots[1].0, fig3_2_line(9));
    assert_eq!(as_book(&snapshots[1].1), after9);
    assert_eq!(order, "ABCDEFG");
}
