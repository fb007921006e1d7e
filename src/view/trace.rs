//! `warpstep run --trace`: one JSON object per line per issued instruction (issue 4, exactly):
//! `{"cycle":C,"sm":S,"warp":W,"ev":"issue","pc":P,"line":L,"op":"setp.eq.u32",
//! "mask":"0x0000000f","stack":[{"pc":P,"rpc":R,"mask":"0x.."},...]}` with the SIMT stack after
//! the instruction, bottom first, `rpc` null for the bottom entry. Masks print as many hex digits
//! as the warp has lanes / 4 (at least 8).
//!
//! Each instruction that writes back adds `{"cycle":C,"sm":S,"warp":W,"ev":"writeback","pc":P,
//! "line":L,"op":"ld.shared.u32"}` (issue 14: the elastic pipeline commits out of order across
//! warps); [`merge_lines`] puts both kinds in cycle order, issues first within a cycle.

use crate::core::sm::{CommitEvent, IssueEvent};
use crate::exec::EXIT_PC;
use crate::ptx::Function;
use std::fmt::Write;

/// The instruction's opcode with its modifiers (`setp.eq.u32`), from its text.
pub fn opcode_text(func: &Function, pc: u32) -> &str {
    func.text(pc)
        .split_whitespace()
        .find(|t| !t.starts_with('@'))
        .unwrap_or("")
        .trim_end_matches(';')
}

/// A lane mask as `0x` and zero-padded hex.
pub fn mask_text(mask: u64, warp_size: u32) -> String {
    let digits = (warp_size.div_ceil(4) as usize).max(8);
    format!("{mask:#0width$x}", width = digits + 2)
}

/// One trace line (without the newline).
pub fn issue_line(func: &Function, warp_size: u32, ev: &IssueEvent) -> String {
    let mut out = String::with_capacity(160);
    let _ = write!(
        out,
        r#"{{"cycle":{},"sm":{},"warp":{},"ev":"issue","pc":{},"line":{},"op":"{}","mask":"{}","stack":["#,
        ev.cycle,
        ev.sm,
        ev.warp,
        ev.pc,
        ev.line,
        opcode_text(func, ev.pc),
        mask_text(ev.mask, warp_size)
    );
    for (i, (pc, rpc, mask)) in ev.stack.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let rpc = match rpc {
            None => "null".to_string(),
            Some(EXIT_PC) => "\"exit\"".to_string(),
            Some(r) => r.to_string(),
        };
        let _ = write!(
            out,
            r#"{{"pc":{pc},"rpc":{rpc},"mask":"{}"}}"#,
            mask_text(*mask, warp_size)
        );
    }
    out.push_str("]}");
    out
}

/// One `writeback` trace line (without the newline).
pub fn writeback_line(func: &Function, ev: &CommitEvent) -> String {
    format!(
        r#"{{"cycle":{},"sm":{},"warp":{},"ev":"writeback","pc":{},"line":{},"op":"{}"}}"#,
        ev.cycle,
        ev.sm,
        ev.warp,
        ev.pc,
        func.instr(ev.pc).map_or(0, |i| i.line),
        opcode_text(func, ev.pc)
    )
}

/// The trace lines of `issues` and `commits` (each in cycle order), merged in cycle order with
/// a cycle's issues before its writebacks.
pub fn merge_lines(
    func: &Function,
    warp_size: u32,
    issues: &[IssueEvent],
    commits: &[CommitEvent],
) -> Vec<String> {
    let mut out = Vec::with_capacity(issues.len() + commits.len());
    let mut c = commits.iter().peekable();
    for ev in issues {
        while let Some(w) = c.next_if(|w| w.cycle < ev.cycle) {
            out.push(writeback_line(func, w));
        }
        out.push(issue_line(func, warp_size, ev));
    }
    out.extend(c.map(|w| writeback_line(func, w)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_pad_to_the_warp() {
        assert_eq!(mask_text(0xf, 4), "0x0000000f");
        assert_eq!(mask_text(0xf, 64), "0x000000000000000f");
    }
}
