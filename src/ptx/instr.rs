//! One PTX instruction as the executor and the timing model read it: [`Instr`], `Copy`, 120
//! bytes, no heap data, its operands in a fixed array in PTX order, and the register, address and
//! operand types it is made of (MODEL.md §2). Everything asked of an instruction (opcode, operand
//! values, destination and source registers, unit class) is answered from it without strings or
//! allocation. The control-flow analyses (`cfg`, `postdom`) read instructions only, so they
//! depend on this module and not on the whole function in [`super::ir`].

use super::ops::{BarKind, Op};
use super::types::{Space, SpecialReg, Type};
/// Index of an instruction in its function's [`Function::instrs`].
pub type Pc = u32;

/// Index of a register in its function's [`Function::regs`]. Dense from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegId(pub u16);

impl RegId {
    /// The `_` sink inside a vector or a predicate pair: writes are discarded.
    pub const SINK: RegId = RegId(u16::MAX);

    /// The register's index in [`Function::regs`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Whether this is [`RegId::SINK`].
    pub fn is_sink(self) -> bool {
        self == RegId::SINK
    }
}

/// Most registers in one function (one id is reserved for [`RegId::SINK`]).
pub const MAX_REGS: usize = u16::MAX as usize;

/// A declared register: its PTX name and type (PTX ISA "Register State Space").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegInfo {
    /// Name as written (`%r17`; range members are expanded).
    pub name: String,
    /// Declared type; its width is the register's width.
    pub ty: Type,
}

impl RegInfo {
    /// Width in bits (1 for a predicate).
    pub fn bits(&self) -> u32 {
        self.ty.bits()
    }
}

/// A guard predicate `@p` / `@!p`: the instruction runs in lanes where `reg != negate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Guard {
    /// A `.pred` register.
    pub reg: RegId,
    /// `@!p`.
    pub negate: bool,
}

/// Which table a variable lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VarId {
    /// `Function::params[i]` (kernel or function parameter, `.param` space).
    Param(u16),
    /// `Function::rets[i]` (`.func` return parameter, `.param` space).
    Ret(u16),
    /// `Function::vars[i]` (declared in the function body).
    Local(u16),
    /// `Program::vars[i]` (declared at module scope).
    Module(u16),
}

/// A resolved variable: its state space and where it is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarRef {
    /// The variable's state space.
    pub space: Space,
    /// The variable.
    pub id: VarId,
}

/// Base of a memory operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddrBase {
    /// `[%r]`: the register holds an address in the instruction's space.
    Reg(RegId),
    /// `[var]`: the variable's address in the instruction's space (or its generic address
    /// for a generic access).
    Var(VarRef),
    /// `[imm]`: an absolute address.
    Absolute,
}

/// A memory operand `[base+offset]` (PTX ISA "Addresses as Operands").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Address {
    /// Register, variable, or absolute.
    pub base: AddrBase,
    /// Byte offset (the absolute address for [`AddrBase::Absolute`]).
    pub offset: i32,
}

/// A vector operand `{a, b}` / `{a, b, c, d}`; elements may be [`RegId::SINK`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VecRegs {
    regs: [RegId; 4],
    len: u8,
}

impl VecRegs {
    /// A vector of 1 to 4 registers (`None` if the slice is empty or longer than 4).
    pub fn new(regs: &[RegId]) -> Option<VecRegs> {
        if regs.is_empty() || regs.len() > 4 {
            return None;
        }
        let mut out = [RegId::SINK; 4];
        out[..regs.len()].copy_from_slice(regs);
        Some(VecRegs {
            regs: out,
            len: regs.len() as u8,
        })
    }

    /// The elements in order.
    pub fn as_slice(&self) -> &[RegId] {
        &self.regs[..usize::from(self.len).min(4)]
    }
}

/// Index of a function in [`Program::functions`].
pub type FuncId = u16;

/// An operand, resolved (PTX ISA "Instruction Operands"). What each position means is the ISA's syntax for the
/// opcode; see [`Instr`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Operand {
    /// Unused slot.
    #[default]
    None,
    /// A register.
    Reg(RegId),
    /// `!p`: a negated predicate source.
    NotPred(RegId),
    /// `p|q` destinations; `q` may be [`RegId::SINK`].
    PredPair(RegId, RegId),
    /// An immediate: the bit pattern for the operand's type, zero-extended to 64 bits.
    Imm(u64),
    /// A special register.
    Special(SpecialReg),
    /// A memory operand.
    Addr(Address),
    /// A variable used as a value: its address (plus the offset) in its own space; in a call
    /// argument list, the variable itself.
    VarAddr(VarRef, i32),
    /// A vector of registers.
    Vector(VecRegs),
    /// A branch target.
    Label(Pc),
    /// A callee.
    Func(FuncId),
    /// A call's return or argument list: index into [`Function::call_lists`].
    CallList(u16),
}

impl Operand {
    /// Registers named by this operand (address bases included), sinks excluded.
    pub fn regs(&self) -> RegList {
        let mut out = RegList::default();
        match *self {
            Operand::Reg(r) | Operand::NotPred(r) => out.push(r),
            Operand::PredPair(p, q) => {
                out.push(p);
                out.push(q);
            }
            Operand::Addr(Address {
                base: AddrBase::Reg(r),
                ..
            }) => out.push(r),
            Operand::Vector(v) => v.as_slice().iter().for_each(|r| out.push(*r)),
            _ => {}
        }
        out
    }
}

/// Most operands of one instruction (`bfi` and `shfl.sync` have five).
pub const MAX_OPERANDS: usize = 5;

/// Up to [`MAX_OPERANDS`] operands in a fixed array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Operands {
    ops: [Operand; MAX_OPERANDS],
    len: u8,
}

impl Operands {
    /// From a slice (`None` if longer than [`MAX_OPERANDS`]).
    pub fn new(ops: &[Operand]) -> Option<Operands> {
        if ops.len() > MAX_OPERANDS {
            return None;
        }
        let mut out = Operands::default();
        out.ops[..ops.len()].copy_from_slice(ops);
        out.len = ops.len() as u8;
        Some(out)
    }

    /// The operands in PTX order.
    pub fn as_slice(&self) -> &[Operand] {
        &self.ops[..usize::from(self.len).min(MAX_OPERANDS)]
    }
}

/// A short list of registers (at most 8), for the scoreboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegList {
    regs: [RegId; 8],
    len: u8,
}

impl Default for RegList {
    fn default() -> RegList {
        RegList {
            regs: [RegId::SINK; 8],
            len: 0,
        }
    }
}

impl RegList {
    fn push(&mut self, r: RegId) {
        if r.is_sink() || self.as_slice().contains(&r) {
            return;
        }
        if let Some(slot) = self.regs.get_mut(usize::from(self.len)) {
            *slot = r;
            self.len += 1;
        }
    }

    fn extend(&mut self, other: RegList) {
        other.as_slice().iter().for_each(|r| self.push(*r));
    }

    /// The registers, each once, in operand order.
    pub fn as_slice(&self) -> &[RegId] {
        &self.regs[..usize::from(self.len).min(8)]
    }

    /// Whether `r` is in the list.
    pub fn contains(&self, r: RegId) -> bool {
        self.as_slice().contains(&r)
    }
}

/// CUDA source position from the last `.loc` before an instruction (PTX ISA, "Debugging Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    /// CUDA source line.
    pub line: u32,
    /// `.file` index (see [`Program::files`]).
    pub file: u16,
    /// Column (saturated at 65535).
    pub col: u16,
}

/// Kind of memory access of a memory instruction (for [`OpClass::Memory`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemAccess {
    /// `ld`, `ldu`.
    Load,
    /// `st`.
    Store,
    /// `atom`, `red`.
    Atomic,
    /// `membar`, `fence`.
    Fence,
}

/// The functional-unit class of an instruction, for unit latencies and issue rules
/// (MODEL.md §6). Choices where GPUs differ are written here: float `div` is SFU work for
/// `.f32` and DP work for `.f64`; transcendentals of `.f64` (`rcp`, `sqrt`, `rsqrt`) are DP
/// work; `selp`, `mov`, `cvt` between integers and logic are integer ALU work; `cvt` with a
/// float side is FP work of the wider float type; warp-level `vote`/`shfl`/`match`/`activemask`
/// are `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpClass {
    /// Integer add, logic, shift, compare, move, convert.
    IntAlu,
    /// Integer multiply, multiply-add, divide, remainder.
    IntMulDiv,
    /// Single-precision arithmetic.
    Fp32,
    /// Double-precision arithmetic.
    Fp64,
    /// Special-function unit: f32 transcendentals, reciprocal, square root, divide.
    Sfu,
    /// Memory access in a state space.
    Memory {
        /// State space (`Generic` for generic addresses and fences).
        space: Space,
        /// Load, store, atomic or fence.
        access: MemAccess,
    },
    /// `bra`, `call`.
    Branch,
    /// `bar.*`, `barrier.*`, `bar.warp.sync`.
    Barrier,
    /// `exit`, `ret`.
    Exit,
    /// Warp-level data exchange and anything else.
    Other,
}

/// One instruction: opcode with modifiers, guard, operands in PTX order, PTX line and CUDA
/// source position.
///
/// Operand order is the ISA's: destination first (`add d, a, b`), except `st [a], b` and
/// `red [a], b` (no destination). Positions per opcode: `mov d, a`; `ld d, [a]` (d a
/// [`Operand::Vector`] for `.v2/.v4`); `st [a], b`; `cvta d, a`; `setp p|q, a, b, c`
/// (`p|q` a [`Operand::PredPair`], c only with a combine); `selp d, a, b, c`;
/// `atom d, [a], b, c` (c only for `.cas`); `bra L` ([`Operand::Label`]); `bar.sync a, b`;
/// `bar.red d, a, b, c`; `vote d, a, mask`; `shfl d|p, a, b, c, mask`; `bfi f, a, b, c, d`;
/// `call r, f, args` (lists as [`Operand::CallList`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Instr {
    /// Opcode and modifiers.
    pub op: Op,
    /// Guard predicate, if any.
    pub guard: Option<Guard>,
    /// Operands in PTX order.
    pub operands: Operands,
    /// 1-based line of the instruction in the PTX text.
    pub line: u32,
    /// CUDA source position from `.loc`, if any.
    pub loc: Option<SourceLoc>,
}

impl Instr {
    /// The operands in PTX order.
    pub fn operands(&self) -> &[Operand] {
        self.operands.as_slice()
    }

    /// How many leading operands are destinations (0 or 1; a pair or vector counts as one).
    pub fn dst_count(&self) -> usize {
        match self.op {
            Op::St { .. }
            | Op::Red { .. }
            | Op::Bra { .. }
            | Op::Call { .. }
            | Op::Ret { .. }
            | Op::Exit
            | Op::BarWarpSync
            | Op::Membar { .. }
            | Op::Fence { .. } => 0,
            Op::Bar { kind, .. } => usize::from(!matches!(kind, BarKind::Sync | BarKind::Arrive)),
            _ => 1,
        }
    }

    /// Registers this instruction writes (for the scoreboard: WAW and RAW tracking).
    /// `call` return lists are not included (calls are second tier).
    pub fn dst_regs(&self) -> RegList {
        let mut out = RegList::default();
        let ops = self.operands();
        for op in ops.get(..self.dst_count()).unwrap_or(ops) {
            out.extend(op.regs());
        }
        out
    }

    /// Registers this instruction reads: the guard, sources, address bases, vector elements.
    /// `call` argument lists are not included (calls are second tier).
    pub fn src_regs(&self) -> RegList {
        let mut out = RegList::default();
        if let Some(g) = self.guard {
            out.push(g.reg);
        }
        for op in self.operands().get(self.dst_count()..).unwrap_or(&[]) {
            out.extend(op.regs());
        }
        out
    }

    /// `bra` (guarded or not).
    pub fn is_branch(&self) -> bool {
        matches!(self.op, Op::Bra { .. })
    }

    /// `exit`, or `ret` (which ends the thread in a kernel).
    pub fn is_exit(&self) -> bool {
        matches!(self.op, Op::Exit | Op::Ret { .. })
    }

    /// The branch target of a `bra`.
    pub fn branch_target(&self) -> Option<Pc> {
        match (self.is_branch(), self.operands().first()) {
            (true, Some(Operand::Label(pc))) => Some(*pc),
            _ => None,
        }
    }

    /// The functional-unit class.
    pub fn class(&self) -> OpClass {
        op_class(&self.op)
    }
}

fn float_class(ty: Type) -> OpClass {
    if ty == Type::F64 {
        OpClass::Fp64
    } else {
        OpClass::Fp32
    }
}

fn arith_class(ty: Type, int: OpClass) -> OpClass {
    if ty.is_float() {
        float_class(ty)
    } else {
        int
    }
}

fn op_class(op: &Op) -> OpClass {
    use OpClass::*;
    let mem = |space, access| Memory { space, access };
    match *op {
        Op::Ld { space, .. } | Op::Ldu { space, .. } => mem(space, MemAccess::Load),
        Op::St { space, .. } => mem(space, MemAccess::Store),
        Op::Atom { space, .. } | Op::Red { space, .. } => mem(space, MemAccess::Atomic),
        Op::Membar { .. } | Op::Fence { .. } => mem(Space::Generic, MemAccess::Fence),
        Op::Add { ty, .. }
        | Op::Sub { ty, .. }
        | Op::Abs { ty, .. }
        | Op::Neg { ty, .. }
        | Op::Min { ty, .. }
        | Op::Max { ty, .. }
        | Op::Setp { ty, .. }
        | Op::Set { sty: ty, .. }
        | Op::Slct { dty: ty, .. } => arith_class(ty, IntAlu),
        Op::Mul { ty, .. } | Op::Mad { ty, .. } | Op::Fma { ty, .. } => arith_class(ty, IntMulDiv),
        Op::Mul24 { .. } | Op::Mad24 { .. } | Op::Rem { .. } => IntMulDiv,
        Op::Div { ty, .. } if ty.is_float() => sfu_or_dp(ty),
        Op::Div { .. } => IntMulDiv,
        Op::Cvt { dty, sty, .. } if dty.is_float() || sty.is_float() => {
            float_class(if dty == Type::F64 || sty == Type::F64 {
                Type::F64
            } else {
                Type::F32
            })
        }
        Op::Rcp { ty, .. } | Op::Sqrt { ty, .. } | Op::Rsqrt { ty, .. } => sfu_or_dp(ty),
        Op::Sin { .. } | Op::Cos { .. } | Op::Lg2 { .. } | Op::Ex2 { .. } => Sfu,
        Op::Bra { .. } | Op::Call { .. } => Branch,
        Op::Ret { .. } | Op::Exit => Exit,
        Op::Bar { .. } | Op::BarWarpSync => Barrier,
        Op::Vote { .. } | Op::Shfl { .. } | Op::Activemask | Op::Match { .. } => Other,
        _ => IntAlu,
    }
}

fn sfu_or_dp(ty: Type) -> OpClass {
    if ty == Type::F64 {
        OpClass::Fp64
    } else {
        OpClass::Sfu
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instr_is_compact() {
        use std::mem::size_of;
        assert_eq!(
            (size_of::<Op>(), size_of::<Operand>(), size_of::<Instr>()),
            (7, 16, 120)
        );
    }

    #[test]
    fn reg_lists_skip_sinks_and_duplicates() {
        let v = VecRegs::new(&[RegId(1), RegId::SINK, RegId(1), RegId(2)]).unwrap();
        assert_eq!(Operand::Vector(v).regs().as_slice(), &[RegId(1), RegId(2)]);
        assert!(VecRegs::new(&[]).is_none());
    }
}
