//! An instruction as every view names it (its PC, PTX line, opcode and text), and one inside an
//! execution unit. Shared by the snapshot and the elastic back end's view, which both draw
//! instructions in flight.

use crate::ptx::{Function, Pc};
use crate::trace::opcode_text;
use serde::Serialize;

/// An instruction as the views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstrView {
    pub pc: Pc,
    /// PTX line (1-based).
    pub line: u32,
    /// The opcode with modifiers (`ld.global.u32`).
    pub op: String,
    /// The whole instruction text.
    pub text: String,
}

/// An instruction inside an execution unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InUnitView {
    pub warp: u32,
    pub instr: InstrView,
    /// First cycle its result may be written back; `None` (JSON `null`) while that is not
    /// known yet: a global or local load still waiting for memory (its reads have not all come
    /// back), or an instruction not yet in a unit (MEM0, the PREMEM and NONMEM FIFOs).
    pub ready_at: Option<u64>,
}

/// The view of the instruction at `pc` of `func`.
pub(crate) fn instr_view(func: &Function, pc: Pc) -> InstrView {
    InstrView {
        pc,
        line: func.instr(pc).map_or(0, |i| i.line),
        op: opcode_text(func, pc).to_string(),
        text: func.text(pc).to_string(),
    }
}
