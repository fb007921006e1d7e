//! The typed opcode: one [`Op`] variant per PTX instruction warpstep runs, with its modifiers
//! as typed fields (PTX ISA "Instructions"; the modifier types live in
//! [`super::op_modifiers`] and are re-exported here). The executor `match`es on it; no string
//! is looked at after parsing. Operands are not here: they sit beside the opcode in
//! [`super::ir::Instr`], in PTX order (destination first, as the ISA writes each
//! instruction's syntax).

use std::fmt;

pub use super::op_modifiers::{
    AtomOp, AtomSem, BarKind, BoolOp, CacheOp, Cmp, CvtaDir, FenceSem, MatchMode, MemSem, Mods,
    MulPart, Precision, PrmtMode, Rounding, Scope, ShflMode, VecWidth, VoteMode,
};
use super::types::{Space, Type};

/// A PTX opcode with its modifiers. Operand order for each variant is the ISA's
/// (`d, a, b, c`); [`super::ir::Instr`] documents the operand forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `mov.type d, a` (a: register, immediate, special register, variable address, or a vector
    /// to pack; d may be a vector to unpack).
    Mov {
        /// Instruction type.
        ty: Type,
    },
    /// `ld{.sem}{.space}{.cop}{.nc}{.vec}.type d, [a]`.
    Ld {
        /// State space (`Generic` when none is written).
        space: Space,
        /// Element type.
        ty: Type,
        /// `.v2`/`.v4`.
        vec: VecWidth,
        /// Cache operator.
        cache: CacheOp,
        /// `.volatile` / `.relaxed` / `.acquire`.
        sem: MemSem,
        /// `.nc`: non-coherent (read-only) global load.
        nc: bool,
    },
    /// `ldu.space{.vec}.type d, [a]`: load a value uniform across the warp.
    Ldu {
        /// State space.
        space: Space,
        /// Element type.
        ty: Type,
        /// `.v2`/`.v4`.
        vec: VecWidth,
    },
    /// `st{.sem}{.space}{.cop}{.vec}.type [a], b`.
    St {
        /// State space (`Generic` when none is written).
        space: Space,
        /// Element type.
        ty: Type,
        /// `.v2`/`.v4`.
        vec: VecWidth,
        /// Cache operator.
        cache: CacheOp,
        /// `.volatile` / `.relaxed` / `.release`.
        sem: MemSem,
    },
    /// `cvta{.to}.space.size d, a`.
    Cvta {
        /// The non-generic space.
        space: Space,
        /// Which way the address is converted.
        dir: CvtaDir,
        /// `.u32` or `.u64`.
        ty: Type,
    },
    /// `add{.rnd}{.ftz}{.sat}.type d, a, b`.
    Add {
        /// Instruction type.
        ty: Type,
        /// Rounding, `.ftz`, `.sat`.
        mods: Mods,
    },
    /// `sub{.rnd}{.ftz}{.sat}.type d, a, b`.
    Sub {
        /// Instruction type.
        ty: Type,
        /// Rounding, `.ftz`, `.sat`.
        mods: Mods,
    },
    /// `mul.{lo,hi,wide}.itype d, a, b` or `mul{.rnd}{.ftz}{.sat}.ftype d, a, b`.
    Mul {
        /// Instruction (source) type.
        ty: Type,
        /// Integer product part; `None` for floats.
        part: Option<MulPart>,
        /// Float modifiers.
        mods: Mods,
    },
    /// `mul24.{lo,hi}.type d, a, b` (24-bit operands).
    Mul24 {
        /// `.u32` or `.s32`.
        ty: Type,
        /// `.hi` rather than `.lo`.
        hi: bool,
    },
    /// `mad.{lo,hi,wide}{.sat}.itype d, a, b, c` or `mad{.rnd}{.ftz}{.sat}.ftype d, a, b, c`.
    Mad {
        /// Instruction (source) type.
        ty: Type,
        /// Integer product part; `None` for floats.
        part: Option<MulPart>,
        /// `.sat` and float modifiers. A float `mad` with a rounding modifier is fused (= `fma`).
        mods: Mods,
    },
    /// `mad24.{lo,hi}{.sat}.type d, a, b, c`.
    Mad24 {
        /// `.u32` or `.s32`.
        ty: Type,
        /// `.hi` rather than `.lo`.
        hi: bool,
        /// `.sat` (`.hi.s32` only).
        sat: bool,
    },
    /// `fma.rnd{.ftz}{.sat}.ftype d, a, b, c`.
    Fma {
        /// `.f32` or `.f64`.
        ty: Type,
        /// Rounding (required), `.ftz`, `.sat`.
        mods: Mods,
    },
    /// `div.itype d, a, b` or `div{.approx,.full,.rnd}{.ftz}.ftype d, a, b`.
    Div {
        /// Instruction type.
        ty: Type,
        /// Float precision and rounding.
        mods: Mods,
    },
    /// `rem.itype d, a, b`.
    Rem {
        /// Integer type.
        ty: Type,
    },
    /// `abs{.ftz}.type d, a`.
    Abs {
        /// Signed integer or float type.
        ty: Type,
        /// `.ftz`.
        ftz: bool,
    },
    /// `neg{.ftz}.type d, a`.
    Neg {
        /// Signed integer or float type.
        ty: Type,
        /// `.ftz`.
        ftz: bool,
    },
    /// `min{.ftz}{.NaN}.type d, a, b`.
    Min {
        /// Integer or float type.
        ty: Type,
        /// `.ftz`.
        ftz: bool,
        /// `.NaN`: NaN if either input is NaN.
        nan: bool,
    },
    /// `max{.ftz}{.NaN}.type d, a, b`.
    Max {
        /// Integer or float type.
        ty: Type,
        /// `.ftz`.
        ftz: bool,
        /// `.NaN`: NaN if either input is NaN.
        nan: bool,
    },
    /// `and.type d, a, b` (`.pred` or `.bN`).
    And {
        /// Instruction type.
        ty: Type,
    },
    /// `or.type d, a, b`.
    Or {
        /// Instruction type.
        ty: Type,
    },
    /// `xor.type d, a, b`.
    Xor {
        /// Instruction type.
        ty: Type,
    },
    /// `not.type d, a`.
    Not {
        /// Instruction type.
        ty: Type,
    },
    /// `cnot.type d, a` (`d = a == 0`).
    Cnot {
        /// Instruction type.
        ty: Type,
    },
    /// `shl.type d, a, b` (b is `.u32`).
    Shl {
        /// `.bN`.
        ty: Type,
    },
    /// `shr.type d, a, b` (arithmetic for `.sN`, logical otherwise; b is `.u32`).
    Shr {
        /// Instruction type.
        ty: Type,
    },
    /// `popc.type d, a` (d is `.u32`).
    Popc {
        /// `.b32` or `.b64`.
        ty: Type,
    },
    /// `clz.type d, a` (d is `.u32`).
    Clz {
        /// `.b32` or `.b64`.
        ty: Type,
    },
    /// `brev.type d, a`.
    Brev {
        /// `.b32` or `.b64`.
        ty: Type,
    },
    /// `bfe.type d, a, b, c` (b = position, c = length, both `.u32`).
    Bfe {
        /// `.u32 .u64 .s32 .s64`.
        ty: Type,
    },
    /// `bfi.type f, a, b, c, d` (insert a into b at position c, length d).
    Bfi {
        /// `.b32` or `.b64`.
        ty: Type,
    },
    /// `prmt.b32{.mode} d, a, b, c`.
    Prmt {
        /// Permute mode; `None` for the generic selector form.
        mode: Option<PrmtMode>,
    },
    /// `setp.cmp{.bop}{.ftz}.type p[|q], a, b{, {!}c}`.
    Setp {
        /// Comparison.
        cmp: Cmp,
        /// Combine with the predicate operand c.
        combine: Option<BoolOp>,
        /// Type of a and b.
        ty: Type,
        /// `.ftz`.
        ftz: bool,
    },
    /// `set.cmp{.bop}{.ftz}.dtype.stype d, a, b{, {!}c}`.
    Set {
        /// Comparison.
        cmp: Cmp,
        /// Combine with the predicate operand c.
        combine: Option<BoolOp>,
        /// Type of d (`.u32 .s32 .f32`).
        dty: Type,
        /// Type of a and b.
        sty: Type,
        /// `.ftz`.
        ftz: bool,
    },
    /// `selp.type d, a, b, c` (`d = c ? a : b`).
    Selp {
        /// Type of d, a, b.
        ty: Type,
    },
    /// `slct{.ftz}.dtype.stype d, a, b, c` (`d = c >= 0 ? a : b`).
    Slct {
        /// Type of d, a, b.
        dty: Type,
        /// Type of c (`.s32` or `.f32`).
        sty: Type,
        /// `.ftz`.
        ftz: bool,
    },
    /// `cvt{.rnd}{.ftz}{.sat}.dtype.stype d, a`.
    Cvt {
        /// Destination type.
        dty: Type,
        /// Source type.
        sty: Type,
        /// Rounding (`.rn`.. for float results, `.rni`.. for float-to-integral).
        round: Option<Rounding>,
        /// `.ftz`.
        ftz: bool,
        /// `.sat`.
        sat: bool,
    },
    /// `rcp{.approx,.rnd}{.ftz}.type d, a`.
    Rcp {
        /// `.f32` or `.f64`.
        ty: Type,
        /// Precision, rounding, `.ftz`.
        mods: Mods,
    },
    /// `sqrt{.approx,.rnd}{.ftz}.type d, a`.
    Sqrt {
        /// `.f32` or `.f64`.
        ty: Type,
        /// Precision, rounding, `.ftz`.
        mods: Mods,
    },
    /// `rsqrt.approx{.ftz}.type d, a`.
    Rsqrt {
        /// `.f32` or `.f64`.
        ty: Type,
        /// Precision, `.ftz`.
        mods: Mods,
    },
    /// `sin.approx{.ftz}.f32 d, a`.
    Sin {
        /// `.f32`.
        ty: Type,
        /// Precision, `.ftz`.
        mods: Mods,
    },
    /// `cos.approx{.ftz}.f32 d, a`.
    Cos {
        /// `.f32`.
        ty: Type,
        /// Precision, `.ftz`.
        mods: Mods,
    },
    /// `lg2.approx{.ftz}.f32 d, a`.
    Lg2 {
        /// `.f32`.
        ty: Type,
        /// Precision, `.ftz`.
        mods: Mods,
    },
    /// `ex2.approx{.ftz}.f32 d, a`.
    Ex2 {
        /// `.f32`.
        ty: Type,
        /// Precision, `.ftz`.
        mods: Mods,
    },
    /// `bra{.uni} label`.
    Bra {
        /// `.uni`: the branch is known to be non-divergent.
        uni: bool,
    },
    /// `call{.uni} (rets), func, (args)` (second tier: parsed, resolved, not yet executed).
    Call {
        /// `.uni`.
        uni: bool,
    },
    /// `ret{.uni}`: return from a function; in a kernel, the thread exits.
    Ret {
        /// `.uni`.
        uni: bool,
    },
    /// `exit`: the thread exits.
    Exit,
    /// `bar{.cta}.*` / `barrier{.cta}.*` (PTX ISA `bar`, `barrier`).
    Bar {
        /// Sync, arrive or reduction.
        kind: BarKind,
        /// `barrier.*.aligned` or `bar.*` (which is aligned by definition).
        aligned: bool,
    },
    /// `bar.warp.sync membermask`.
    BarWarpSync,
    /// `membar.{cta,gl,sys}`.
    Membar {
        /// Scope of the fence.
        scope: Scope,
    },
    /// `fence{.sc,.acq_rel}.scope`.
    Fence {
        /// Semantics.
        sem: FenceSem,
        /// Scope.
        scope: Scope,
    },
    /// `atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}`.
    Atom {
        /// `.global`, `.shared` or generic.
        space: Space,
        /// Read-modify-write operation.
        op: AtomOp,
        /// Operand type.
        ty: Type,
        /// Ordering.
        sem: AtomSem,
        /// Scope (`.gpu` when none is written).
        scope: Scope,
    },
    /// `red{.sem}{.scope}{.space}.op.type [a], b` (atomic without result).
    Red {
        /// `.global`, `.shared` or generic.
        space: Space,
        /// Reduction operation (not `.cas`).
        op: AtomOp,
        /// Operand type.
        ty: Type,
        /// Ordering.
        sem: AtomSem,
        /// Scope (`.gpu` when none is written).
        scope: Scope,
    },
    /// `vote{.sync}.mode.type d, {!}a{, membermask}`.
    Vote {
        /// all/any/uni/ballot.
        mode: VoteMode,
        /// `.sync` form (with a membermask operand).
        sync: bool,
    },
    /// `shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask}`.
    Shfl {
        /// up/down/bfly/idx.
        mode: ShflMode,
        /// `.sync` form (with a membermask operand).
        sync: bool,
    },
    /// `activemask.b32 d`.
    Activemask,
    /// `match.{any,all}.sync.type d[|p], a, membermask` (second tier).
    Match {
        /// any/all.
        mode: MatchMode,
        /// `.b32` or `.b64`.
        ty: Type,
    },
}

impl Op {
    /// The PTX mnemonic (no modifiers), for display and errors.
    pub fn mnemonic(&self) -> &'static str {
        match self {
            Op::Mov { .. } => "mov",
            Op::Ld { .. } => "ld",
            Op::Ldu { .. } => "ldu",
            Op::St { .. } => "st",
            Op::Cvta { .. } => "cvta",
            Op::Add { .. } => "add",
            Op::Sub { .. } => "sub",
            Op::Mul { .. } => "mul",
            Op::Mul24 { .. } => "mul24",
            Op::Mad { .. } => "mad",
            Op::Mad24 { .. } => "mad24",
            Op::Fma { .. } => "fma",
            Op::Div { .. } => "div",
            Op::Rem { .. } => "rem",
            Op::Abs { .. } => "abs",
            Op::Neg { .. } => "neg",
            Op::Min { .. } => "min",
            Op::Max { .. } => "max",
            Op::And { .. } => "and",
            Op::Or { .. } => "or",
            Op::Xor { .. } => "xor",
            Op::Not { .. } => "not",
            Op::Cnot { .. } => "cnot",
            Op::Shl { .. } => "shl",
            Op::Shr { .. } => "shr",
            Op::Popc { .. } => "popc",
            Op::Clz { .. } => "clz",
            Op::Brev { .. } => "brev",
            Op::Bfe { .. } => "bfe",
            Op::Bfi { .. } => "bfi",
            Op::Prmt { .. } => "prmt",
            Op::Setp { .. } => "setp",
            Op::Set { .. } => "set",
            Op::Selp { .. } => "selp",
            Op::Slct { .. } => "slct",
            Op::Cvt { .. } => "cvt",
            Op::Rcp { .. } => "rcp",
            Op::Sqrt { .. } => "sqrt",
            Op::Rsqrt { .. } => "rsqrt",
            Op::Sin { .. } => "sin",
            Op::Cos { .. } => "cos",
            Op::Lg2 { .. } => "lg2",
            Op::Ex2 { .. } => "ex2",
            Op::Bra { .. } => "bra",
            Op::Call { .. } => "call",
            Op::Ret { .. } => "ret",
            Op::Exit => "exit",
            Op::Bar { .. } => "bar",
            Op::BarWarpSync => "bar.warp.sync",
            Op::Membar { .. } => "membar",
            Op::Fence { .. } => "fence",
            Op::Atom { .. } => "atom",
            Op::Red { .. } => "red",
            Op::Vote { .. } => "vote",
            Op::Shfl { .. } => "shfl",
            Op::Activemask => "activemask",
            Op::Match { .. } => "match",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}
