//! C types as the lowering sees them (C++ [basic.fundamental], [conv.prom], [expr.arith.conv]):
//! sizes on the 64-bit CUDA ABI (`long` is 64 bits), the integer promotions, the usual
//! arithmetic conversions, and the PTX register class and type suffix of each scalar (PTX ISA
//! §5.2 "Types", §5.3 "Fundamental types").

use super::ast::Scalar;

/// The state space a pointer points into (PTX ISA §5.1 "State Spaces").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Const,
    Local,
    /// A kernel's parameter space (a struct passed by value; PTX ISA §5.1.6).
    Param,
    Generic,
}

impl Space {
    /// The `ld`/`st`/`atom` qualifier, with its dot (empty for generic).
    pub fn qual(self) -> &'static str {
        match self {
            Space::Global => ".global",
            Space::Shared => ".shared",
            Space::Const => ".const",
            Space::Local => ".local",
            Space::Param => ".param",
            Space::Generic => "",
        }
    }
    /// Windowed spaces have 32-bit addresses in this compiler.
    pub fn narrow(self) -> bool {
        matches!(
            self,
            Space::Shared | Space::Const | Space::Local | Space::Param
        )
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum CType {
    Void,
    Bool,
    Int(u8, bool),
    F32,
    F64,
    Ptr(Box<CType>, Space, bool),
    Array(Box<CType>, u64),
    Struct(String, Vec<(String, CType, u64)>, u64),
}

pub const INT: CType = CType::Int(32, true);
pub const UINT: CType = CType::Int(32, false);

impl CType {
    pub fn from_scalar(s: Scalar) -> CType {
        match s {
            Scalar::Void => CType::Void,
            Scalar::Bool => CType::Bool,
            Scalar::Int(b, s) => CType::Int(b, s),
            Scalar::Float => CType::F32,
            Scalar::Double => CType::F64,
        }
    }
    pub fn size(&self) -> u64 {
        match self {
            CType::Void => 1,
            CType::Bool => 1,
            CType::Int(b, _) => *b as u64 / 8,
            CType::F32 => 4,
            CType::F64 => 8,
            CType::Ptr(_, s, _) => {
                if s.narrow() {
                    4
                } else {
                    8
                }
            }
            CType::Array(e, n) => e.size().saturating_mul(*n),
            CType::Struct(_, _, size) => *size,
        }
    }
    pub fn align(&self) -> u64 {
        match self {
            CType::Array(e, _) => e.align(),
            CType::Struct(_, fields, _) => fields.iter().map(|f| f.1.align()).max().unwrap_or(1),
            t => t.size().max(1),
        }
    }
    pub fn is_int(&self) -> bool {
        matches!(self, CType::Int(..) | CType::Bool)
    }
    pub fn is_float(&self) -> bool {
        matches!(self, CType::F32 | CType::F64)
    }
    pub fn is_arith(&self) -> bool {
        self.is_int() || self.is_float()
    }
    pub fn is_ptr(&self) -> bool {
        matches!(self, CType::Ptr(..))
    }
    pub fn is_signed(&self) -> bool {
        matches!(self, CType::Int(_, true))
    }
    /// The pointee of a pointer or the element of an array.
    pub fn elem(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t, ..) | CType::Array(t, _) => Some(t),
            _ => None,
        }
    }
    /// The integer promotions: `bool`, `char`, `short` become `int`.
    pub fn promote(&self) -> CType {
        match self {
            CType::Bool => INT,
            CType::Int(b, _) if *b < 32 => INT,
            t => t.clone(),
        }
    }
    /// The register class: `p` (predicate), `r` (b32), `rd` (b64), `f`, `fd`.
    pub fn reg_class(&self) -> &'static str {
        match self {
            CType::Bool => "p",
            CType::Int(64, _) => "rd",
            CType::Int(..) => "r",
            CType::F32 => "f",
            CType::F64 => "fd",
            CType::Ptr(_, s, _) if s.narrow() => "r",
            _ => "rd",
        }
    }
    /// The PTX type of arithmetic on a value of this (promoted) type: `s32`, `u64`, `f32`...
    pub fn ptx(&self) -> &'static str {
        match self {
            CType::Bool => "pred",
            CType::Int(8, true) => "s8",
            CType::Int(8, false) => "u8",
            CType::Int(16, true) => "s16",
            CType::Int(16, false) => "u16",
            CType::Int(64, true) => "s64",
            CType::Int(64, false) => "u64",
            CType::Int(_, true) => "s32",
            CType::Int(_, false) => "u32",
            CType::F32 => "f32",
            CType::F64 => "f64",
            CType::Ptr(_, s, _) if s.narrow() => "u32",
            _ => "u64",
        }
    }
    /// The type of a load or store of this type (`bool` is a byte).
    pub fn mem_ptx(&self) -> &'static str {
        match self {
            CType::Bool => "u8",
            t => t.ptx(),
        }
    }
    /// The type of a `mov` of this type.
    pub fn mov(&self) -> &'static str {
        match self {
            CType::Bool => "pred",
            CType::F32 => "f32",
            CType::F64 => "f64",
            t if t.size() == 8 => "u64",
            _ => "u32",
        }
    }
    /// The unsigned type of the same width (for bit operations).
    pub fn bits(&self) -> &'static str {
        match self.size() {
            1 | 2 | 4 => "b32",
            _ => "b64",
        }
    }
}

/// The usual arithmetic conversions: the common type of `a` and `b`.
pub fn common(a: &CType, b: &CType) -> CType {
    if *a == CType::F64 || *b == CType::F64 {
        return CType::F64;
    }
    if *a == CType::F32 || *b == CType::F32 {
        return CType::F32;
    }
    let (a, b) = (a.promote(), b.promote());
    let (CType::Int(ab, asg), CType::Int(bb, bsg)) = (&a, &b) else {
        return INT;
    };
    if asg == bsg {
        return CType::Int(*ab.max(bb), *asg);
    }
    let (ub, sb) = if *asg { (*bb, *ab) } else { (*ab, *bb) };
    if ub >= sb {
        CType::Int(ub, false)
    } else {
        CType::Int(sb, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(common(&INT, &UINT), UINT);
        assert_eq!(common(&CType::Int(8, true), &CType::Int(16, false)), INT);
        assert_eq!(common(&CType::Int(64, true), &UINT), CType::Int(64, true));
        assert_eq!(
            common(&CType::Int(64, true), &CType::Int(64, false)),
            CType::Int(64, false)
        );
        assert_eq!(common(&INT, &CType::F32), CType::F32);
        assert_eq!(common(&CType::F32, &CType::F64), CType::F64);
    }
}
