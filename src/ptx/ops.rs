//! The typed opcode: one [`Op`] variant per PTX instruction warpstep runs, with its modifiers
//! as typed fields (PTX ISA "Instructions"). The executor `match`es on it; no string is looked at after
//! parsing. Operands are not here: they sit beside the opcode in [`super::ir::Instr`], in PTX
//! order (destination first, as the ISA writes each instruction's syntax).

use std::fmt;

use super::types::{Space, Type};

/// IEEE rounding modifier: `.rn .rz .rm .rp` (float results) or `.rni .rzi .rmi .rpi`
/// (round a float to an integral value, on `cvt`) (PTX ISA `cvt` and floating-point instructions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// `.rn`: to nearest even.
    Rn,
    /// `.rz`: towards zero.
    Rz,
    /// `.rm`: towards minus infinity.
    Rm,
    /// `.rp`: towards plus infinity.
    Rp,
    /// `.rni`: to nearest even integer.
    Rni,
    /// `.rzi`: to integer towards zero.
    Rzi,
    /// `.rmi`: to integer towards minus infinity.
    Rmi,
    /// `.rpi`: to integer towards plus infinity.
    Rpi,
}

impl Rounding {
    /// Parse a modifier without its dot.
    pub fn from_name(name: &str) -> Option<Rounding> {
        Some(match name {
            "rn" => Rounding::Rn,
            "rz" => Rounding::Rz,
            "rm" => Rounding::Rm,
            "rp" => Rounding::Rp,
            "rni" => Rounding::Rni,
            "rzi" => Rounding::Rzi,
            "rmi" => Rounding::Rmi,
            "rpi" => Rounding::Rpi,
            _ => return None,
        })
    }

    /// `.rni .rzi .rmi .rpi`.
    pub fn is_integral(self) -> bool {
        matches!(
            self,
            Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi
        )
    }
}

/// Precision of an f32 divide or transcendental: IEEE (with a [`Rounding`]), `.approx` or
/// `.full` (PTX ISA `div`, `rcp`, `sqrt` and the transcendental instructions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// Neither `.approx` nor `.full`: IEEE-rounded when a rounding modifier is present.
    #[default]
    Ieee,
    /// `.approx`.
    Approx,
    /// `.full` (`div.full.f32`).
    Full,
}

/// Modifiers shared by arithmetic instructions (PTX ISA integer and floating-point arithmetic instructions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Mods {
    /// Rounding modifier, if any.
    pub round: Option<Rounding>,
    /// `.ftz`: flush f32 subnormal inputs and results to sign-preserving zero.
    pub ftz: bool,
    /// `.sat`: clamp (f32 to [0, 1]; s32 to the s32 range).
    pub sat: bool,
    /// `.approx` / `.full`.
    pub precision: Precision,
}

/// Which half of a full-width product an integer `mul`/`mad` keeps (PTX ISA `mul`, `mad`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MulPart {
    /// `.lo`: low bits of the product.
    Lo,
    /// `.hi`: high bits of the product.
    Hi,
    /// `.wide`: the whole product, destination twice as wide.
    Wide,
}

/// Comparison of `setp`/`set` (PTX ISA "Comparison and Selection Instructions"). The `u` forms are the
/// unordered float comparisons (true if either operand is NaN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `.eq`
    Eq,
    /// `.ne`
    Ne,
    /// `.lt`
    Lt,
    /// `.le`
    Le,
    /// `.gt`
    Gt,
    /// `.ge`
    Ge,
    /// `.lo` (unsigned <)
    Lo,
    /// `.ls` (unsigned <=)
    Ls,
    /// `.hi` (unsigned >)
    Hi,
    /// `.hs` (unsigned >=)
    Hs,
    /// `.equ`
    Equ,
    /// `.neu`
    Neu,
    /// `.ltu`
    Ltu,
    /// `.leu`
    Leu,
    /// `.gtu`
    Gtu,
    /// `.geu`
    Geu,
    /// `.num`: neither operand is NaN.
    Num,
    /// `.nan`: either operand is NaN.
    Nan,
}

impl Cmp {
    /// Parse a modifier without its dot.
    pub fn from_name(name: &str) -> Option<Cmp> {
        Some(match name {
            "eq" => Cmp::Eq,
            "ne" => Cmp::Ne,
            "lt" => Cmp::Lt,
            "le" => Cmp::Le,
            "gt" => Cmp::Gt,
            "ge" => Cmp::Ge,
            "lo" => Cmp::Lo,
            "ls" => Cmp::Ls,
            "hi" => Cmp::Hi,
            "hs" => Cmp::Hs,
            "equ" => Cmp::Equ,
            "neu" => Cmp::Neu,
            "ltu" => Cmp::Ltu,
            "leu" => Cmp::Leu,
            "gtu" => Cmp::Gtu,
            "geu" => Cmp::Geu,
            "num" => Cmp::Num,
            "nan" => Cmp::Nan,
            _ => return None,
        })
    }

    /// Comparisons only defined on floating-point operands.
    pub fn is_float_only(self) -> bool {
        matches!(
            self,
            Cmp::Equ | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Num | Cmp::Nan
        )
    }

    /// Comparisons only defined on integer operands.
    pub fn is_unsigned_only(self) -> bool {
        matches!(self, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs)
    }
}

/// Boolean combine of `setp`/`set`/`bar.red` (`.and .or .xor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoolOp {
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

impl BoolOp {
    /// Parse a modifier without its dot.
    pub fn from_name(name: &str) -> Option<BoolOp> {
        match name {
            "and" => Some(BoolOp::And),
            "or" => Some(BoolOp::Or),
            "xor" => Some(BoolOp::Xor),
            _ => None,
        }
    }
}

/// Vector width of `ld`/`st`/`ldu` (`.v2`, `.v4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum VecWidth {
    /// One element.
    #[default]
    Scalar,
    /// `.v2`
    V2,
    /// `.v4`
    V4,
}

impl VecWidth {
    /// Number of elements.
    pub fn lanes(self) -> usize {
        match self {
            VecWidth::Scalar => 1,
            VecWidth::V2 => 2,
            VecWidth::V4 => 4,
        }
    }
}

/// Cache operator of `ld`/`st` (PTX ISA "Cache Operators"). Accepted and recorded; the
/// memory model may use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CacheOp {
    /// None given (`.ca` for loads, `.wb` for stores).
    #[default]
    Default,
    /// `.ca`: cache at all levels.
    Ca,
    /// `.cg`: cache in L2, not L1.
    Cg,
    /// `.cs`: streaming, likely accessed once.
    Cs,
    /// `.lu`: last use.
    Lu,
    /// `.cv`: do not cache, fetch again.
    Cv,
    /// `.wb`: write back.
    Wb,
    /// `.wt`: write through.
    Wt,
}

/// Scope of a memory-consistency operation (PTX ISA "Memory Consistency Model": scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `.cta`
    Cta,
    /// `.gpu` (also `membar.gl`)
    Gpu,
    /// `.sys`
    Sys,
}

impl Scope {
    /// Parse a modifier without its dot.
    pub fn from_name(name: &str) -> Option<Scope> {
        match name {
            "cta" => Some(Scope::Cta),
            "gpu" => Some(Scope::Gpu),
            "sys" => Some(Scope::Sys),
            _ => None,
        }
    }
}

/// Memory-ordering qualifier of `ld`/`st` (PTX ISA `ld`, `st`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MemSem {
    /// Nothing or `.weak`.
    #[default]
    Weak,
    /// `.volatile`.
    Volatile,
    /// `.relaxed.scope`.
    Relaxed(Scope),
    /// `.acquire.scope` (loads).
    Acquire(Scope),
    /// `.release.scope` (stores).
    Release(Scope),
}

/// Ordering of an atomic (`atom`/`red` `.sem`), PTX ISA `atom`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AtomSem {
    /// `.relaxed` or none.
    #[default]
    Relaxed,
    /// `.acquire`
    Acquire,
    /// `.release`
    Release,
    /// `.acq_rel`
    AcqRel,
}

/// The read-modify-write operation of `atom`/`red` (PTX ISA `atom`, `red`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtomOp {
    /// `.add`
    Add,
    /// `.min`
    Min,
    /// `.max`
    Max,
    /// `.inc`: `old >= b ? 0 : old + 1` (unsigned).
    Inc,
    /// `.dec`: `old == 0 || old > b ? b : old - 1` (unsigned).
    Dec,
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
    /// `.exch`
    Exch,
    /// `.cas`: compare `b`, swap in `c` (atom only).
    Cas,
}

impl AtomOp {
    /// Parse a modifier without its dot.
    pub fn from_name(name: &str) -> Option<AtomOp> {
        Some(match name {
            "add" => AtomOp::Add,
            "min" => AtomOp::Min,
            "max" => AtomOp::Max,
            "inc" => AtomOp::Inc,
            "dec" => AtomOp::Dec,
            "and" => AtomOp::And,
            "or" => AtomOp::Or,
            "xor" => AtomOp::Xor,
            "exch" => AtomOp::Exch,
            "cas" => AtomOp::Cas,
            _ => return None,
        })
    }
}

/// Direction of `cvta` (PTX ISA `cvta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CvtaDir {
    /// `cvta.space`: a space address to a generic address.
    ToGeneric,
    /// `cvta.to.space`: a generic address to a space address.
    FromGeneric,
}

/// What a CTA barrier instruction does (PTX ISA `bar`, `barrier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BarKind {
    /// `bar.sync` / `barrier.sync`: arrive and wait.
    Sync,
    /// `bar.arrive`: arrive without waiting.
    Arrive,
    /// `bar.red.popc.u32`: wait, then count threads whose predicate is true.
    RedPopc,
    /// `bar.red.and.pred`: wait, then AND of all predicates.
    RedAnd,
    /// `bar.red.or.pred`: wait, then OR of all predicates.
    RedOr,
}

/// Mode of `vote` (PTX ISA `vote`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VoteMode {
    /// `.all`
    All,
    /// `.any`
    Any,
    /// `.uni`
    Uni,
    /// `.ballot` (result `.b32`)
    Ballot,
}

/// Mode of `shfl` (PTX ISA `shfl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShflMode {
    /// `.up`
    Up,
    /// `.down`
    Down,
    /// `.bfly`
    Bfly,
    /// `.idx`
    Idx,
}

/// Mode of `match.sync` (PTX ISA `match.sync`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchMode {
    /// `.any`: mask of lanes holding the same value.
    Any,
    /// `.all`: mask of all lanes if all hold the same value, else 0 (predicate set accordingly).
    All,
}

/// Permute mode of `prmt` (PTX ISA `prmt`); `None` on the instruction is the generic mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrmtMode {
    /// `.f4e`: forward 4 extract.
    F4e,
    /// `.b4e`: backward 4 extract.
    B4e,
    /// `.rc8`: replicate 8.
    Rc8,
    /// `.ecl`: edge clamp left.
    Ecl,
    /// `.ecr`: edge clamp right.
    Ecr,
    /// `.rc16`: replicate 16.
    Rc16,
}

/// Memory-fence semantics of `fence` (PTX ISA `membar`/`fence`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenceSem {
    /// `.sc`: sequentially consistent.
    Sc,
    /// `.acq_rel` (also the default).
    AcqRel,
}

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
