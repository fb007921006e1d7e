//! Where an instruction named by a link is: its PTX line and, when the program has `.loc`
//! lines for the shown source file (nvcc `-lineinfo`, or warpstep's CUDA compiler), the CUDA
//! line it was compiled from ([`crate::ptx::SourceLines`]).

use super::Ctx;
use crate::ptx::Pc;

impl Ctx<'_> {
    /// The PTX line of the instruction at `pc` (0: none).
    pub(super) fn line(&self, pc: Pc) -> u32 {
        self.func.instr(pc).map_or(0, |i| i.line)
    }

    /// The CUDA line of the instruction at `pc` (0: none, or in another file).
    pub(super) fn source_line(&self, pc: Pc) -> u32 {
        self.func
            .instr(pc)
            .map_or(0, |i| self.source.source_of(i.loc))
    }

    /// `(PTX line, CUDA line)` of the instruction at `pc`, for [`super::Link::at`].
    pub(super) fn place(&self, pc: Pc) -> (u32, u32) {
        (self.line(pc), self.source_line(pc))
    }

    /// "line 41", or "line 41, CUDA line 12" when the instruction has a CUDA line.
    pub(super) fn line_text(&self, pc: Pc) -> String {
        match self.place(pc) {
            (line, 0) => format!("line {line}"),
            (line, source) => format!("line {line}, CUDA line {source}"),
        }
    }
}
