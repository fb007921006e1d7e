//! The modifiers an [`super::ops::Op`] carries as typed fields: rounding and precision, the
//! comparison and boolean operators, vector widths, cache operators, memory scopes and
//! ordering semantics, and the mode of each barrier, atomic and warp-wide instruction (PTX ISA
//! "Instructions", the modifier tables of each instruction). Names only, no behaviour beyond
//! reading a modifier's name.

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
