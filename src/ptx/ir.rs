//! The executable IR of a loaded PTX module: per function, a dense instruction array indexed by
//! [`Pc`], a register table indexed by [`RegId`], resolved labels and symbols, memory layouts,
//! and the control-flow analysis (MODEL.md §2-3).
//!
//! [`Instr`] is the hot structure: `Copy`, 120 bytes, no heap data. Operands sit in a
//! fixed array in PTX order; everything the executor or the timing model asks of an
//! instruction (opcode, operand values, destination and source registers, unit class) is
//! answered from it without strings or allocation. Display data (text, source lines) lives
//! beside it in [`Function`].

use std::collections::BTreeMap;

use super::ast::{FunctionKind, Linkage};
use super::cfg::Cfg;
use super::ops::{BarKind, Op};
use super::postdom::{PostDominators, Reconvergence};
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

/// A kernel or function parameter with its place in the parameter space (PTX ISA "Parameter State Space").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// Name.
    pub name: String,
    /// Element type.
    pub ty: Type,
    /// Size in bytes (element size times array length).
    pub size: u32,
    /// Alignment in bytes (`.align`, else the element size).
    pub align: u32,
    /// Byte offset in the parameter buffer (arguments and return values are laid out
    /// separately).
    pub offset: u32,
    /// Pointee space from `.ptr.space`, if written.
    pub ptr_space: Option<Space>,
    /// For an old-style `.reg` parameter of a `.func`: the register that holds it.
    pub reg: Option<RegId>,
}

/// A variable declared in a function body (`.shared`, `.local`, or a call's `.param`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalVar {
    /// Name.
    pub name: String,
    /// State space.
    pub space: Space,
    /// Element type.
    pub ty: Type,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// Byte offset in its space: shared offset within the CTA's static shared memory,
    /// local offset within the thread's local memory, or offset in the call-parameter area.
    pub offset: u32,
    /// Line of the declaration.
    pub line: u32,
}

/// A module-scope variable (PTX ISA "Variables").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleVar {
    /// Name.
    pub name: String,
    /// State space (`.global`, `.const` or `.shared`).
    pub space: Space,
    /// Element type.
    pub ty: Type,
    /// Size in bytes (0 for dynamic `.extern .shared` arrays).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
    /// Initial bytes, little-endian; shorter than `size` when the rest is zero.
    pub init: Vec<u8>,
    /// Linkage.
    pub linkage: Linkage,
    /// `.extern .shared name[]`: dynamic shared memory, placed after the static shared memory.
    pub dynamic_shared: bool,
    /// Line of the declaration.
    pub line: u32,
}

/// One static shared variable in a function's shared-memory layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedSlot {
    /// The variable (module-scope or declared in the function).
    pub var: VarId,
    /// Name.
    pub name: String,
    /// Byte offset in the CTA's shared memory.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
}

/// A function's shared memory (MODEL.md §2): module-scope `.shared` variables the function
/// uses (including through calls), in module order, then its own, each at the next offset
/// aligned to its alignment; then, if it uses dynamic `.extern .shared` arrays, their common
/// base aligned to the largest of their alignments (at least 16 bytes, as CUDA aligns
/// dynamic shared memory).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SharedLayout {
    /// Static variables with their offsets.
    pub slots: Vec<SharedSlot>,
    /// Bytes of static shared memory.
    pub static_bytes: u32,
    /// Dynamic shared arrays used (module variable ids) and their base offset.
    pub dynamic: Option<DynamicShared>,
}

/// Where dynamic (`.extern .shared`) shared memory starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicShared {
    /// Module variables naming the dynamic region (all alias it).
    pub vars: Vec<VarId>,
    /// Byte offset of the region.
    pub base: u32,
}

impl SharedLayout {
    /// Shared-memory offset of a static or dynamic shared variable.
    pub fn offset_of(&self, var: VarId) -> Option<u32> {
        if let Some(s) = self.slots.iter().find(|s| s.var == var) {
            return Some(s.offset);
        }
        self.dynamic
            .as_ref()
            .filter(|d| d.vars.contains(&var))
            .map(|d| d.base)
    }
}

/// `.reqntid` / `.maxntid` / `.minnctapersm` / `.maxnreg` of an entry (PTX ISA, "Performance-Tuning Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaunchBounds {
    /// Required CTA shape.
    pub reqntid: Option<[u32; 3]>,
    /// Maximum CTA shape.
    pub maxntid: Option<[u32; 3]>,
    /// Minimum CTAs per SM.
    pub minnctapersm: Option<u32>,
    /// Maximum registers per thread.
    pub maxnreg: Option<u32>,
}

/// One lowered `.entry` or `.func`.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Name.
    pub name: String,
    /// `.entry` or `.func`.
    pub kind: FunctionKind,
    /// Linkage.
    pub linkage: Linkage,
    /// Whether a body was given (`false` for prototypes such as `.extern .func vprintf`).
    pub defined: bool,
    /// Parameters, laid out in the parameter buffer.
    pub params: Vec<Param>,
    /// Bytes of the parameter buffer.
    pub param_bytes: u32,
    /// Return parameters (`.func`), laid out in their own buffer.
    pub rets: Vec<Param>,
    /// Register table.
    pub regs: Vec<RegInfo>,
    /// Variables declared in the body.
    pub vars: Vec<LocalVar>,
    /// Shared-memory layout.
    pub shared: SharedLayout,
    /// Bytes of per-thread `.local` memory.
    pub local_bytes: u32,
    /// Bytes of the call-parameter area (`.param` variables declared in the body).
    pub call_param_bytes: u32,
    /// Launch bounds.
    pub launch: LaunchBounds,
    /// Instructions, indexed by [`Pc`]. Ends with `exit`/`ret` or an unconditional branch: if
    /// the code could fall off the end, the loader appends an implicit `exit` (entries) or
    /// `ret` (funcs) whose text says so.
    pub instrs: Vec<Instr>,
    /// Display text of each instruction, indexed by [`Pc`].
    pub texts: Vec<String>,
    /// Labels and their targets.
    pub labels: BTreeMap<String, Pc>,
    /// Operand lists of `call` instructions.
    pub call_lists: Vec<Vec<Operand>>,
    /// Basic blocks and edges.
    pub cfg: Cfg,
    /// Post-dominators over `cfg` with the virtual exit.
    pub postdom: PostDominators,
    /// Reconvergence point of every `bra`, indexed by [`Pc`] (`None` for other
    /// instructions).
    pub reconvergence: Vec<Option<Reconvergence>>,
    /// Where independent thread scheduling's ADD/WAIT convergence barriers go
    /// ([`super::convergence_barriers::place_barriers`], book section 3.1.2).
    pub convergence_barriers: super::convergence_barriers::BarrierPlan,
    /// Line of the `.entry`/`.func` directive.
    pub line: u32,
}

impl Function {
    /// Whether this is a kernel.
    pub fn is_entry(&self) -> bool {
        self.kind == FunctionKind::Entry
    }

    /// The instruction at `pc`.
    pub fn instr(&self, pc: Pc) -> Option<&Instr> {
        self.instrs.get(pc as usize)
    }

    /// Display text of the instruction at `pc`.
    pub fn text(&self, pc: Pc) -> &str {
        self.texts.get(pc as usize).map_or("", String::as_str)
    }

    /// The register's table entry.
    pub fn reg(&self, r: RegId) -> Option<&RegInfo> {
        self.regs.get(r.index())
    }

    /// Number of registers per declared type (the "register count by class").
    pub fn reg_counts(&self) -> BTreeMap<Type, u32> {
        let mut out = BTreeMap::new();
        for r in &self.regs {
            *out.entry(r.ty).or_insert(0) += 1;
        }
        out
    }

    /// The label of the block each instruction is in, indexed by [`Pc`]: the last label at or
    /// before it in the text (`""` before the first label). The book's Figure 3.2 names its
    /// blocks A to G this way; the views show the name beside a PC (issue 30).
    pub fn block_labels(&self) -> Vec<&str> {
        let mut at: Vec<(Pc, &str)> = self
            .labels
            .iter()
            .map(|(n, &pc)| (pc, n.as_str()))
            .collect();
        at.sort();
        let mut out = vec![""; self.instrs.len()];
        let mut next = at.iter().peekable();
        let mut current = "";
        for (pc, slot) in out.iter_mut().enumerate() {
            while let Some(&&(lpc, name)) = next.peek() {
                if lpc as usize > pc {
                    break;
                }
                current = name;
                next.next();
            }
            *slot = current;
        }
        out
    }

    /// Reconvergence point of the branch at `pc` (`None` if `pc` is not a `bra`).
    pub fn reconvergence_of(&self, pc: Pc) -> Option<Reconvergence> {
        self.reconvergence.get(pc as usize).copied().flatten()
    }

    /// Byte offset of a variable in its own state space, where this function's layout fixes
    /// it: parameters and return parameters (in their buffers), body variables (`.local`,
    /// call `.param`, `.shared`), and module `.shared` variables (in this function's shared
    /// layout, dynamic ones at the dynamic base). `None` for module `.global`/`.const`
    /// variables, which the executor places, and for unknown ids.
    pub fn var_offset(&self, v: VarRef) -> Option<u32> {
        match v.id {
            VarId::Param(i) => self.params.get(usize::from(i)).map(|p| p.offset),
            VarId::Ret(i) => self.rets.get(usize::from(i)).map(|p| p.offset),
            VarId::Local(i) => self.vars.get(usize::from(i)).map(|l| l.offset),
            VarId::Module(_) if v.space == Space::Shared => self.shared.offset_of(v.id),
            VarId::Module(_) => None,
        }
    }

    /// Number of `bra` instructions.
    pub fn branch_count(&self) -> usize {
        self.instrs.iter().filter(|i| i.is_branch()).count()
    }
}

/// A loaded PTX module: module directives, variables, functions, launch comments and the
/// source text (for the listing).
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// `.version`.
    pub version: (u32, u32),
    /// `.target` names.
    pub target: Vec<String>,
    /// `.address_size` (64 when absent).
    pub address_size: u32,
    /// `.file` index to path.
    pub files: BTreeMap<u32, String>,
    /// Module-scope variables.
    pub vars: Vec<ModuleVar>,
    /// Entries and functions (declarations included), in source order; [`FuncId`] indexes
    /// this.
    pub functions: Vec<Function>,
    /// `// warpstep:` comment lines (launch flags), in order.
    pub launch_comments: Vec<super::lexer::LaunchComment>,
    /// The PTX text, one string per line (without line terminators).
    pub lines: Vec<String>,
}

impl Program {
    /// The kernels (`.entry` definitions), in source order.
    pub fn kernels(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().filter(|f| f.is_entry() && f.defined)
    }

    /// A kernel by name.
    pub fn kernel(&self, name: &str) -> Option<&Function> {
        self.kernels().find(|f| f.name == name)
    }

    /// A function or kernel by id.
    pub fn function(&self, id: FuncId) -> Option<&Function> {
        self.functions.get(usize::from(id))
    }

    /// Text of 1-based source line `line`.
    pub fn source_line(&self, line: u32) -> Option<&str> {
        let i = usize::try_from(line).ok()?.checked_sub(1)?;
        self.lines.get(i).map(String::as_str)
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
