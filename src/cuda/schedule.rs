//! A last pass over a kernel's PTX lines that puts work in the shadow of loads, as nvcc's
//! scheduler does: within a basic block, pure arithmetic that follows a load's first use and
//! does not depend on it moves up before that use, so a warp has independent instructions to
//! issue while the load is in flight (e.g. a loop's counter update and test between
//! `ld.shared` and the add that reads it). Labels no branch names are dropped first, so the
//! blocks are the real ones. Moved instructions keep their `.loc` line.
//!
//! Before that, a loop whose body starts with a shared-memory load from an address the loop
//! does not change is rotated as nvcc rotates it: the load moves to the preheader and a copy
//! to just before the back-edge branch, so the next trip's load is in flight across the branch. The copy's
//! last run is the load that follows the loop when one reads the same place (nvcc's
//! `s[i] += 1` loop then `out[t] = s[i]`); a volatile load is rotated only then.

use super::emit::{regs_in, split_ins, PURE};
use std::collections::HashSet;

/// At most this many instructions move into the shadow of one load.
const MAX_MOVED: usize = 6;

/// The kernel body `lines` with unused labels dropped and loads' shadows filled.
pub fn schedule(lines: Vec<String>) -> Vec<String> {
    let mut lines = drop_unused_labels(lines);
    let mut i = 0;
    while i < lines.len() {
        if let Some(label) = back_edge_target(&lines[i]) {
            rotate(&mut lines, &label, i);
        }
        i += 1;
    }
    let mut lines = drop_unused_labels(lines);
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("\tld.") {
            fill_shadow(&mut lines, i);
        }
        i += 1;
    }
    tidy_locs(lines)
}

/// Drops `.loc` lines that another follows at once or that repeat the line in effect.
fn tidy_locs(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut current: Option<String> = None;
    for l in lines {
        if l.starts_with("\t.loc") {
            if out.last().is_some_and(|p| p.starts_with("\t.loc")) {
                out.pop();
                current = out.iter().rev().find(|p| p.starts_with("\t.loc")).cloned();
            }
            if current.as_ref() == Some(&l) {
                continue;
            }
            current = Some(l.clone());
        }
        out.push(l);
    }
    out
}

/// Removes `L:` lines for labels no instruction names.
fn drop_unused_labels(lines: Vec<String>) -> Vec<String> {
    let used: HashSet<String> = lines
        .iter()
        .filter(|l| l.starts_with('\t'))
        .flat_map(|l| {
            l.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
                .filter(|w| w.starts_with("$L"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    lines
        .into_iter()
        .filter(|l| match l.strip_suffix(':') {
            Some(label) if !l.starts_with('\t') => used.contains(label),
            _ => true,
        })
        .collect()
}

/// The label a branch line jumps to.
fn back_edge_target(line: &str) -> Option<String> {
    let body = line.strip_prefix('\t')?.strip_suffix(';')?;
    let (head, label) = body.rsplit_once(" \t")?;
    (head == "bra.uni" || head.starts_with('@') && head.ends_with(" bra"))
        .then(|| label.to_string())
}

/// Rotates the loop whose back edge is the branch at `edge` to `label` (see the module doc).
fn rotate(lines: &mut Vec<String>, label: &str, edge: usize) {
    let head = format!("{label}:");
    let Some(top) = lines[..edge].iter().rposition(|l| *l == head) else {
        return;
    };
    let jumps = lines
        .iter()
        .filter(|l| back_edge_target(l).as_deref() == Some(label))
        .count();
    let Some(k) = (top + 1..edge).find(|&k| !lines[k].starts_with("\t.loc")) else {
        return;
    };
    let load = lines[k].clone();
    let Some(dest) = def_of(&load).map(str::to_string) else {
        return;
    };
    let Some((_, addr)) = load.split_once(", ") else {
        return;
    };
    let loop_defs: HashSet<&str> = lines[top..=edge].iter().filter_map(|l| def_of(l)).collect();
    let defined_once = lines
        .iter()
        .filter(|l| def_of(l) == Some(dest.as_str()))
        .count()
        == 1;
    // Global loads stay: rotating gemm's `c[i*nj+j]` load made it slower on fermi (the load
    // right behind the store to the same line), 100,880 -> 103,216 cycles.
    if jumps != 1
        || !load.starts_with("\tld.")
        || !load.contains(".shared")
        || !defined_once
        || regs_in(addr).any(|r| loop_defs.contains(r))
    {
        return;
    }
    let merged = merge_after(lines, edge, &load, &dest);
    if load.contains(".volatile") && merged.is_none() {
        return;
    }
    if let Some(m) = merged {
        let old = def_of(&lines[m]).unwrap_or_default();
        if lines.iter().filter(|l| def_of(l) == Some(old)).count() != 1 {
            return;
        }
    }
    if let Some(m) = merged {
        let old = def_of(&lines[m]).unwrap_or_default().to_string();
        lines.remove(m);
        for l in lines[m..].iter_mut() {
            *l = rename(l, &old, &dest);
        }
    }
    // The copy goes after the last access to memory and the last read of `dest`.
    let at = (k + 1..edge)
        .rev()
        .find(|&p| {
            let l = &lines[p];
            !l.starts_with("\t.") && (!movable(l) || regs_in(l).any(|r| r == dest))
        })
        .map_or(k + 1, |p| p + 1);
    // ... and after the loop's last label (a `continue` lands there).
    let at = (k + 1..edge)
        .rev()
        .find(|&p| !lines[p].starts_with('\t'))
        .map_or(at, |p| at.max(p + 1));
    let here = loc_before(lines, at);
    let from = loc_before(lines, k);
    let mut copy = vec![load.clone()];
    if from != here {
        copy = [from.clone(), Some(load.clone()), here]
            .into_iter()
            .flatten()
            .collect();
    }
    for (n, l) in copy.into_iter().enumerate() {
        lines.insert(at + n, l);
    }
    lines.remove(k);
    lines.insert(top, load);
    if let Some(f) = from {
        lines.insert(top, f);
    }
}

/// The line after the loop ending at `edge` that loads what `load` loads, with nothing that
/// could change memory or `dest` in between.
fn merge_after(lines: &[String], edge: usize, load: &str, dest: &str) -> Option<usize> {
    let (op, addr) = load.split_once(" \t")?;
    let (_, addr) = addr.split_once(", ")?;
    for (m, l) in lines.iter().enumerate().skip(edge + 1) {
        if l.starts_with("\t.loc") {
            continue;
        }
        let word = l.split_whitespace().next().unwrap_or("");
        let writes = ["st", "atom", "red", "vote", "shfl"]
            .iter()
            .any(|w| word.split('.').next() == Some(*w));
        if ends_block(l) || writes {
            return None;
        }
        if let Some((o, rest)) = l.split_once(" \t") {
            if o == op && rest.split_once(", ").map(|x| x.1) == Some(addr) {
                return Some(m);
            }
        }
        if regs_in(l).any(|r| r == dest) || regs_in(addr).any(|r| Some(r) == def_of(l)) {
            return None;
        }
    }
    None
}

/// `line` with the register `old` renamed to `new`.
fn rename(line: &str, old: &str, new: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(old) {
        let after = &rest[i + old.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            out.push_str(old);
        } else {
            out.push_str(new);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Whether `line` ends a basic block (a label, a branch, a barrier, a return).
fn ends_block(line: &str) -> bool {
    if !line.starts_with('\t') {
        return true;
    }
    let body = line.trim_start();
    let op = body
        .split_whitespace()
        .find(|w| !w.starts_with('@'))
        .unwrap_or("");
    ["bra", "ret", "exit", "bar", "call", "membar"]
        .iter()
        .any(|m| op == *m || op.starts_with(&format!("{m}.")))
}

/// The register an instruction line writes, if it is an instruction whose first operand is
/// a register it defines.
fn def_of(line: &str) -> Option<&str> {
    let body = line.strip_prefix('\t')?.strip_suffix(';')?;
    let body = body.strip_prefix('@').map_or(body, |b| {
        b.split_once(' ').map_or("", |(_, rest)| rest.trim_start())
    });
    let (m, rest) = body.split_once(" \t")?;
    if m.starts_with("st") || m.starts_with("red") || m.starts_with("bra") {
        return None;
    }
    let d = rest.split(", ").next()?;
    d.starts_with('%').then_some(d)
}

/// Whether the instruction may be moved: unpredicated pure arithmetic or a `mov`.
fn movable(line: &str) -> bool {
    let Some((m, d, _)) = split_ins(line) else {
        return false;
    };
    let head = m.split('.').next().unwrap_or("");
    (PURE.contains(&head) || head == "mov") && d.starts_with('%') && !d.contains('{')
}

/// Moves independent pure instructions from after the first use of the load at `i` to
/// before it.
fn fill_shadow(lines: &mut Vec<String>, i: usize) {
    let Some(dest) = def_of(&lines[i]).map(str::to_string) else {
        return;
    };
    let mut u = i + 1;
    loop {
        match lines.get(u) {
            None => return,
            Some(l) if ends_block(l) && !l.starts_with("\t.loc") => return,
            Some(l) if !l.starts_with("\t.") && regs_in(l).any(|r| r == dest) => break,
            Some(_) => u += 1,
        }
    }
    let mut moved = 0;
    let mut j = u + 1;
    while j < lines.len() && moved < MAX_MOVED {
        let l = &lines[j];
        if ends_block(l) && !l.starts_with("\t.loc") {
            break;
        }
        if l.starts_with("\t.") || !movable(l) || !independent(lines, u, j) {
            j += 1;
            continue;
        }
        let ins = lines.remove(j);
        let here = loc_before(lines, u);
        let from = loc_before(lines, j);
        let mut block = vec![ins];
        if from != here {
            if let Some(f) = from {
                block.insert(0, f);
            }
            if let Some(h) = here {
                block.push(h);
            }
        }
        let n = block.len();
        for (k, l) in block.into_iter().enumerate() {
            lines.insert(u + k, l);
        }
        u += n;
        j += n;
        moved += 1;
    }
}

/// Whether the instruction at `j` neither reads a register written in `lines[u..j]` nor
/// writes one read or written there.
fn independent(lines: &[String], u: usize, j: usize) -> bool {
    let line = &lines[j];
    let Some(d) = def_of(line) else { return false };
    let sources: Vec<&str> = regs_in(line).filter(|r| *r != d).collect();
    lines[u..j].iter().all(|k| {
        if k.starts_with("\t.") {
            return true;
        }
        let kd = def_of(k);
        let weird = k.contains('{');
        !regs_in(k).any(|r| r == d)
            && !sources
                .iter()
                .any(|s| Some(*s) == kd || (weird && regs_in(k).any(|r| r == *s)))
    })
}

/// The last `.loc` line before `at` within the kernel body.
fn loc_before(lines: &[String], at: usize) -> Option<String> {
    lines[..at.min(lines.len())]
        .iter()
        .rev()
        .find(|l| l.starts_with("\t.loc"))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn loop_control_moves_into_a_load_shadow() {
        let body = v("$L__BB0_4:\n\tld.volatile.shared.s32 \t%r14, [%r9];\n\tadd.s32 \t%r15, %r14, 1;\n\tst.volatile.shared.s32 \t[%r9], %r15;\n$L__BB0_3:\n\tadd.s32 \t%r11, %r11, 1;\n\tsetp.lt.s32 \t%p1, %r11, 64;\n\t@%p1 bra \t$L__BB0_4;");
        let want = v("$L__BB0_4:\n\tld.volatile.shared.s32 \t%r14, [%r9];\n\tadd.s32 \t%r11, %r11, 1;\n\tsetp.lt.s32 \t%p1, %r11, 64;\n\tadd.s32 \t%r15, %r14, 1;\n\tst.volatile.shared.s32 \t[%r9], %r15;\n\t@%p1 bra \t$L__BB0_4;");
        assert_eq!(schedule(body), want);
    }

    #[test]
    fn a_loop_starting_with_an_invariant_load_is_rotated() {
        let body = v("$L__BB0_4:\n\tld.volatile.shared.s32 \t%r14, [%r9];\n\tadd.s32 \t%r15, %r14, 1;\n\tst.volatile.shared.s32 \t[%r9], %r15;\n\tadd.s32 \t%r11, %r11, 1;\n\tsetp.lt.s32 \t%p1, %r11, 64;\n\t@%p1 bra \t$L__BB0_4;\n\tld.volatile.shared.s32 \t%r19, [%r9];\n\tst.global.s32 \t[%rd4], %r19;\n\tret;");
        let want = v("\tld.volatile.shared.s32 \t%r14, [%r9];\n$L__BB0_4:\n\tadd.s32 \t%r15, %r14, 1;\n\tst.volatile.shared.s32 \t[%r9], %r15;\n\tld.volatile.shared.s32 \t%r14, [%r9];\n\tadd.s32 \t%r11, %r11, 1;\n\tsetp.lt.s32 \t%p1, %r11, 64;\n\t@%p1 bra \t$L__BB0_4;\n\tst.global.s32 \t[%rd4], %r14;\n\tret;");
        assert_eq!(schedule(body), want);
    }

    #[test]
    fn dependent_and_clobbering_instructions_stay() {
        // The add reads %r15 (written by the use); the mov writes %r14, which the use reads.
        let body = v("\tld.global.u32 \t%r14, [%rd1];\n\tadd.s32 \t%r15, %r14, 1;\n\tadd.s32 \t%r16, %r15, 2;\n\tmov.u32 \t%r14, 3;\n\tret;");
        assert_eq!(schedule(body.clone()), body);
    }
}
