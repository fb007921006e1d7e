//! Value types, state spaces and special registers, shared by the syntax tree and the IR.
//!
//! These are PTX's own vocabularies: fundamental types, state spaces and special registers
//! (PTX ISA "Fundamental Types", "State Spaces", "Special Registers"). Each has a `from_name` that the parser uses and a `name` for
//! display; no other module compares strings against them.

use std::fmt;

/// A PTX fundamental type (PTX ISA "Fundamental Types"), as written after an opcode or in a declaration.
///
/// `.f16`, `.bf16` and the packed types are not in warpstep's subset and never appear here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Type {
    /// `.b8`: untyped 8 bits.
    B8,
    /// `.b16`: untyped 16 bits.
    B16,
    /// `.b32`: untyped 32 bits.
    B32,
    /// `.b64`: untyped 64 bits.
    B64,
    /// `.u8`: unsigned 8-bit integer.
    U8,
    /// `.u16`: unsigned 16-bit integer.
    U16,
    /// `.u32`: unsigned 32-bit integer.
    U32,
    /// `.u64`: unsigned 64-bit integer.
    U64,
    /// `.s8`: signed 8-bit integer.
    S8,
    /// `.s16`: signed 16-bit integer.
    S16,
    /// `.s32`: signed 32-bit integer.
    S32,
    /// `.s64`: signed 64-bit integer.
    S64,
    /// `.f32`: IEEE 754 binary32.
    F32,
    /// `.f64`: IEEE 754 binary64.
    F64,
    /// `.pred`: a 1-bit predicate.
    Pred,
}

impl Type {
    /// Every type, in declaration order (for tables and tests).
    pub const ALL: [Type; 15] = [
        Type::B8,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::U8,
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S8,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::F32,
        Type::F64,
        Type::Pred,
    ];

    /// The type named by a modifier without its dot (`"u32"`), if it is one warpstep supports.
    pub fn from_name(name: &str) -> Option<Type> {
        Type::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// The PTX spelling without the dot.
    pub fn name(self) -> &'static str {
        match self {
            Type::B8 => "b8",
            Type::B16 => "b16",
            Type::B32 => "b32",
            Type::B64 => "b64",
            Type::U8 => "u8",
            Type::U16 => "u16",
            Type::U32 => "u32",
            Type::U64 => "u64",
            Type::S8 => "s8",
            Type::S16 => "s16",
            Type::S32 => "s32",
            Type::S64 => "s64",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::Pred => "pred",
        }
    }

    /// Width in bits (1 for `.pred`).
    pub fn bits(self) -> u32 {
        match self {
            Type::Pred => 1,
            Type::B8 | Type::U8 | Type::S8 => 8,
            Type::B16 | Type::U16 | Type::S16 => 16,
            Type::B32 | Type::U32 | Type::S32 | Type::F32 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 => 64,
        }
    }

    /// Size in bytes in memory (a predicate cannot be stored; it counts as 1).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// `.f32` or `.f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }

    /// `.s8` .. `.s64`.
    pub fn is_signed(self) -> bool {
        matches!(self, Type::S8 | Type::S16 | Type::S32 | Type::S64)
    }

    /// `.u8` .. `.u64`.
    pub fn is_unsigned(self) -> bool {
        matches!(self, Type::U8 | Type::U16 | Type::U32 | Type::U64)
    }

    /// `.b8` .. `.b64`.
    pub fn is_bits(self) -> bool {
        matches!(self, Type::B8 | Type::B16 | Type::B32 | Type::B64)
    }

    /// Signed or unsigned integer.
    pub fn is_int(self) -> bool {
        self.is_signed() || self.is_unsigned()
    }

    /// `.pred`.
    pub fn is_pred(self) -> bool {
        self == Type::Pred
    }

    /// The integer type of the same signedness and twice the width (`mul.wide`), if any.
    pub fn widened(self) -> Option<Type> {
        match self {
            Type::U16 => Some(Type::U32),
            Type::U32 => Some(Type::U64),
            Type::S16 => Some(Type::S32),
            Type::S32 => Some(Type::S64),
            _ => None,
        }
    }

    /// The untyped `.bN` type of the given width, if there is one.
    pub fn bits_of_width(bits: u32) -> Option<Type> {
        match bits {
            8 => Some(Type::B8),
            16 => Some(Type::B16),
            32 => Some(Type::B32),
            64 => Some(Type::B64),
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

/// A memory state space (PTX ISA "State Spaces") as named on `ld`/`st`/`atom`/`cvta` and declarations.
/// `Generic` is the absence of a space on a memory instruction (a generic address, PTX ISA "Generic Addressing").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    /// No space given: the address is generic.
    Generic,
    /// `.global`.
    Global,
    /// `.shared` (per CTA).
    Shared,
    /// `.const`.
    Const,
    /// `.local` (per thread).
    Local,
    /// `.param` (kernel parameters, or function parameters and call arguments).
    Param,
}

impl Space {
    /// The space named by a modifier without its dot. `.shared::cta` is `.shared` (PTX ISA 7.8
    /// "State Spaces": the CTA's own window, the default sub-qualifier) and `.param::entry` /
    /// `.param::func` are `.param`; `.shared::cluster` (another CTA's shared memory, sm_90) is
    /// not modelled and stays unknown, so the instruction is reported as unsupported.
    pub fn from_name(name: &str) -> Option<Space> {
        match name {
            "global" => Some(Space::Global),
            "shared" | "shared::cta" => Some(Space::Shared),
            "const" => Some(Space::Const),
            "local" => Some(Space::Local),
            "param" | "param::entry" | "param::func" => Some(Space::Param),
            _ => None,
        }
    }

    /// The PTX spelling without the dot (`"generic"` for [`Space::Generic`]).
    pub fn name(self) -> &'static str {
        match self {
            Space::Generic => "generic",
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Const => "const",
            Space::Local => "local",
            Space::Param => "param",
        }
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

/// A component of a vector special register (`%tid.x`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dim {
    /// `.x`
    X,
    /// `.y`
    Y,
    /// `.z`
    Z,
}

impl Dim {
    /// Index 0, 1, 2 for x, y, z.
    pub fn index(self) -> usize {
        match self {
            Dim::X => 0,
            Dim::Y => 1,
            Dim::Z => 2,
        }
    }

    fn from_name(name: &str) -> Option<Dim> {
        match name {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        ["x", "y", "z"][self.index()]
    }
}

/// A read-only special register (PTX ISA "Special Registers"). The executor supplies the value; `%clock` and
/// `%clock64` read the simulated cycle (issue 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpecialReg {
    /// `%tid.{x,y,z}`: thread index in the CTA.
    Tid(Dim),
    /// `%ntid.{x,y,z}`: CTA dimensions.
    Ntid(Dim),
    /// `%ctaid.{x,y,z}`: CTA index in the grid.
    Ctaid(Dim),
    /// `%nctaid.{x,y,z}`: grid dimensions.
    Nctaid(Dim),
    /// `%laneid`: lane in the warp.
    LaneId,
    /// `%warpid`: warp slot in the SM.
    WarpId,
    /// `%nwarpid`: number of warp slots.
    NWarpId,
    /// `%smid`: SM index.
    SmId,
    /// `%nsmid`: number of SMs.
    NSmId,
    /// `%clock`: low 32 bits of the cycle counter.
    Clock,
    /// `%clock64`: the 64-bit cycle counter.
    Clock64,
    /// `%lanemask_eq`: bit `laneid` set.
    LanemaskEq,
    /// `%lanemask_le`: bits at or below `laneid`.
    LanemaskLe,
    /// `%lanemask_lt`: bits below `laneid`.
    LanemaskLt,
    /// `%lanemask_ge`: bits at or above `laneid`.
    LanemaskGe,
    /// `%lanemask_gt`: bits above `laneid`.
    LanemaskGt,
    /// `WARP_SZ`: the warp size, a run-time constant (PTX ISA "Predefined Identifiers").
    WarpSz,
}

impl SpecialReg {
    /// Resolve `%name` plus an optional `.x/.y/.z` component. `Ok(None)` means "not a special
    /// register name"; `Err` means a special register used with a wrong or missing component.
    pub fn from_parts(name: &str, component: Option<&str>) -> Result<Option<SpecialReg>, String> {
        let vector: Option<fn(Dim) -> SpecialReg> = match name {
            "%tid" => Some(SpecialReg::Tid),
            "%ntid" => Some(SpecialReg::Ntid),
            "%ctaid" => Some(SpecialReg::Ctaid),
            "%nctaid" => Some(SpecialReg::Nctaid),
            _ => None,
        };
        if let Some(make) = vector {
            let dim = component.and_then(Dim::from_name).ok_or_else(|| {
                format!("special register `{name}` needs a component `.x`, `.y` or `.z`")
            })?;
            return Ok(Some(make(dim)));
        }
        let scalar = match name {
            "%laneid" => SpecialReg::LaneId,
            "%warpid" => SpecialReg::WarpId,
            "%nwarpid" => SpecialReg::NWarpId,
            "%smid" => SpecialReg::SmId,
            "%nsmid" => SpecialReg::NSmId,
            "%clock" => SpecialReg::Clock,
            "%clock64" => SpecialReg::Clock64,
            "%lanemask_eq" => SpecialReg::LanemaskEq,
            "%lanemask_le" => SpecialReg::LanemaskLe,
            "%lanemask_lt" => SpecialReg::LanemaskLt,
            "%lanemask_ge" => SpecialReg::LanemaskGe,
            "%lanemask_gt" => SpecialReg::LanemaskGt,
            _ => return Ok(None),
        };
        match component {
            None => Ok(Some(scalar)),
            Some(c) => Err(format!("special register `{name}` has no component `.{c}`")),
        }
    }

    /// Whether `name` (with its `%`) is a special register warpstep does not model, so the
    /// error can say "unsupported" rather than "unknown register".
    pub fn is_unsupported_name(name: &str) -> bool {
        const OTHERS: [&str; 12] = [
            "%gridid",
            "%globaltimer",
            "%globaltimer_lo",
            "%globaltimer_hi",
            "%envreg",
            "%pm0",
            "%dynamic_smem_size",
            "%total_smem_size",
            "%clusterid",
            "%cluster_ctaid",
            "%reserved_smem_offset_begin",
            "%aggr_smem_size",
        ];
        OTHERS.contains(&name)
    }

    /// Width of the value in bits (PTX ISA "Special Registers": all are `.u32` except `%clock64`).
    pub fn bits(self) -> u32 {
        match self {
            SpecialReg::Clock64 => 64,
            _ => 32,
        }
    }
}

impl fmt::Display for SpecialReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (base, dim) = match *self {
            SpecialReg::Tid(d) => ("%tid", Some(d)),
            SpecialReg::Ntid(d) => ("%ntid", Some(d)),
            SpecialReg::Ctaid(d) => ("%ctaid", Some(d)),
            SpecialReg::Nctaid(d) => ("%nctaid", Some(d)),
            SpecialReg::LaneId => ("%laneid", None),
            SpecialReg::WarpId => ("%warpid", None),
            SpecialReg::NWarpId => ("%nwarpid", None),
            SpecialReg::SmId => ("%smid", None),
            SpecialReg::NSmId => ("%nsmid", None),
            SpecialReg::Clock => ("%clock", None),
            SpecialReg::Clock64 => ("%clock64", None),
            SpecialReg::LanemaskEq => ("%lanemask_eq", None),
            SpecialReg::LanemaskLe => ("%lanemask_le", None),
            SpecialReg::LanemaskLt => ("%lanemask_lt", None),
            SpecialReg::LanemaskGe => ("%lanemask_ge", None),
            SpecialReg::LanemaskGt => ("%lanemask_gt", None),
            SpecialReg::WarpSz => ("WARP_SZ", None),
        };
        match dim {
            Some(d) => write!(f, "{base}.{}", d.name()),
            None => f.write_str(base),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_round_trip() {
        for t in Type::ALL {
            assert_eq!(Type::from_name(t.name()), Some(t));
        }
        assert_eq!(Type::from_name("f16"), None);
    }

    #[test]
    fn special_register_components() {
        assert_eq!(
            SpecialReg::from_parts("%tid", Some("y")),
            Ok(Some(SpecialReg::Tid(Dim::Y)))
        );
        assert!(SpecialReg::from_parts("%tid", None).is_err());
        assert!(SpecialReg::from_parts("%laneid", Some("x")).is_err());
        assert_eq!(SpecialReg::from_parts("%r1", None), Ok(None));
        assert_eq!(SpecialReg::Ctaid(Dim::Z).to_string(), "%ctaid.z");
    }
}
