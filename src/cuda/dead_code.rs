//! Dead-code elimination over a kernel's PTX lines, as nvcc's optimizer does before it
//! writes PTX: a pure instruction (arithmetic, `mov`, `cvta`, `ld.param`) whose destination no
//! instruction reads is dropped, until none is left. Constant propagation and the address
//! walks leave such instructions behind (a variable's `mov` whose every read was folded).

use super::emit::{regs_in, split_ins, PURE};
use std::collections::HashSet;

/// `lines` without the pure instructions whose results are never read.
pub fn drop_dead(mut lines: Vec<String>) -> Vec<String> {
    loop {
        let read = registers_read(&lines);
        let before = lines.len();
        lines.retain(|l| !removable(l).is_some_and(|d| !read.contains(d)));
        if lines.len() == before {
            return lines;
        }
    }
}

/// The destination of `line` when it is a pure instruction that may be dropped.
fn removable(line: &str) -> Option<&str> {
    let (m, d, _) = split_ins(line)?;
    let head = m.split('.').next().unwrap_or("");
    let pure = PURE.contains(&head) || head == "mov" || head == "cvta" || m.starts_with("ld.param");
    (pure && !d.contains('|')).then_some(d)
}

/// Every register some instruction reads (a destination written by a predicated instruction
/// counts as read: the old value survives where the predicate is false).
fn registers_read(lines: &[String]) -> HashSet<String> {
    let mut read = HashSet::new();
    for l in lines
        .iter()
        .filter(|l| l.starts_with('\t') && !l.starts_with("\t."))
    {
        match split_ins(l) {
            Some((_, _, src)) => read.extend(regs_in(src).map(str::to_string)),
            None => read.extend(regs_in(l).map(str::to_string)),
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines()
            .map(|l| format!("\t{};", l.trim().replacen(' ', " \t", 1)))
            .collect()
    }

    #[test]
    fn chains_of_unread_results_go_and_stores_stay() {
        let body = lines(
            "mov.u32 %r1, 0
             sub.s32 %r2, 1, %r1
             mov.u32 %r3, %tid.x
             st.shared.u32 [%r4], %r3",
        );
        assert_eq!(
            drop_dead(body.clone()),
            vec![body[2].clone(), body[3].clone()]
        );
    }

    #[test]
    fn a_predicated_write_keeps_the_old_value_alive() {
        let body = lines(
            "mov.u32 %r1, 5
             @%p1 mov.u32 %r1, 6
             st.global.u32 [%rd1], %r2",
        );
        assert_eq!(drop_dead(body.clone()), body);
    }
}
