//! Kernel faults (MODEL.md section 2): an access outside every allocation or misaligned, and
//! other run-time errors a kernel can cause. A fault stops the run and names the kernel, CTA,
//! thread, PC, source line, space and address. Never a panic, never a silent wrap-around.

use super::global_memory::AccessFault;
use crate::ptx::{Pc, Space};
use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FaultKind {
    /// A memory access outside its space or misaligned.
    Access {
        /// `out_of_bounds` or `misaligned`.
        why: AccessFault,
        /// The space accessed (a generic access names the space its address fell in).
        space: String,
        /// The address within that space.
        address: u64,
        /// Bytes accessed.
        size: u32,
        /// `load`, `store` or `atomic`.
        access: &'static str,
    },
    /// An instruction warpstep parses but cannot execute (e.g. `call`).
    Unsupported { what: String },
    /// An operand value the ISA does not allow (e.g. barrier number 17).
    Invalid { what: String },
    /// The warp's threads can never run again (every live thread blocked at a convergence
    /// barrier or a warp-synchronous instruction).
    Deadlock { what: String },
}

/// A fault with the place it happened.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fault {
    pub kernel: String,
    /// CTA index.
    pub cta: [u32; 3],
    /// Thread index within the CTA.
    pub thread: [u32; 3],
    pub pc: Pc,
    /// PTX line of the instruction.
    pub line: u32,
    /// The instruction's text.
    pub text: String,
    pub kind: FaultKind,
}

impl Fault {
    /// An access fault's description of the space (shared/local/...).
    pub fn access_space(space: Space) -> String {
        space.name().to_string()
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [tx, ty, tz] = self.thread;
        let [cx, cy, cz] = self.cta;
        match &self.kind {
            FaultKind::Access {
                why,
                space,
                address,
                size,
                access,
            } => {
                let what = match why {
                    AccessFault::OutOfBounds => "out-of-bounds",
                    AccessFault::Misaligned => "misaligned",
                };
                write!(
                    f,
                    "{what} .{space} {access} of {size} bytes at {address:#x}"
                )?;
            }
            FaultKind::Unsupported { what } => write!(f, "{what} is not supported yet")?,
            FaultKind::Invalid { what } => write!(f, "invalid {what}")?,
            FaultKind::Deadlock { what } => write!(f, "{what}, reported")?,
        }
        write!(
            f,
            " by thread ({tx},{ty},{tz}) of CTA ({cx},{cy},{cz}) in kernel `{}` at PC {} (line {}: `{}`)",
            self.kernel, self.pc, self.line, self.text
        )
    }
}

impl std::error::Error for Fault {}

/// Why a run stopped without completing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunError {
    /// A thread faulted.
    Fault(Box<Fault>),
    /// The kernel cannot finish (barrier deadlock) or did not within the limit.
    Stuck {
        reason: String,
        warps: Vec<StuckWarp>,
    },
}

/// Where one live warp stands when a run is stuck.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StuckWarp {
    pub cta: [u32; 3],
    /// Warp index within the CTA.
    pub warp: u32,
    pub pc: Pc,
    pub line: u32,
    pub text: String,
    /// Active lanes, as hex.
    pub mask: String,
    /// SIMT stack depth (thread groups under convergence barriers).
    pub stack_depth: usize,
    /// What `stack` shows: `SIMT stack` or `warp splits` (convergence barriers).
    pub mechanism: &'static str,
    /// The SIMT stack, bottom first, as `pc->rpc mask` entries; or the threads grouped by state
    /// and rPC (`ready 4:0xe, blocked B0 9:0x1`).
    pub stack: String,
    /// What it waits for (`barrier 0`), if anything.
    pub waiting_for: Option<String>,
}

impl StuckWarp {
    /// Describes `warp` of CTA `cta`.
    pub fn describe(
        func: &crate::ptx::Function,
        cta: [u32; 3],
        index: u32,
        warp: &super::warp::WarpState,
        barrier: Option<u32>,
    ) -> StuckWarp {
        let pc = warp.reconvergence.pc().unwrap_or(0);
        StuckWarp {
            cta,
            warp: index,
            pc,
            line: func.instr(pc).map_or(0, |i| i.line),
            text: func.text(pc).to_string(),
            mask: format!("{:#x}", warp.reconvergence.active_mask()),
            stack_depth: warp.reconvergence.depth(),
            mechanism: match warp.reconvergence.independent() {
                Some(_) => "warp splits",
                None => "SIMT stack",
            },
            stack: warp.reconvergence.describe(),
            waiting_for: barrier.map(|b| format!("waiting at barrier {b}")),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Fault(fault) => write!(f, "fault: {fault}"),
            RunError::Stuck { reason, warps } => {
                write!(f, "{reason}")?;
                for w in warps {
                    let [x, y, z] = w.cta;
                    write!(
                        f,
                        "\n  CTA ({x},{y},{z}) warp {} at PC {} (line {}: `{}`), lanes {}, {} [{}]{}",
                        w.warp,
                        w.pc,
                        w.line,
                        w.text,
                        w.mask,
                        w.mechanism,
                        w.stack,
                        w.waiting_for.as_ref().map_or(String::new(), |b| format!(", {b}"))
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RunError {}
