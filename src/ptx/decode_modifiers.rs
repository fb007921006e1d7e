//! What every opcode decoder shares: [`DecodeError`], the list of an instruction's
//! `.modifiers` that records which have been consumed (`ModList`), and the type sets the
//! ISA's syntax blocks allow (PTX ISA "Instructions", "Types").

use super::ops::{Rounding, Scope, VecWidth};
use super::types::{Space, Type};

/// Why decoding failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The mnemonic is not an instruction warpstep runs.
    UnsupportedInstruction,
    /// The mnemonic is supported but this modifier/type combination is not (message says why).
    Invalid(String),
}

pub(super) type Res<T> = Result<T, DecodeError>;

pub(super) fn invalid<T>(msg: impl Into<String>) -> Res<T> {
    Err(DecodeError::Invalid(msg.into()))
}

pub(super) const INT_TYPES: &[Type] = &[
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S16,
    Type::S32,
    Type::S64,
];
pub(super) const FLOAT_TYPES: &[Type] = &[Type::F32, Type::F64];
pub(super) const MOV_TYPES: &[Type] = &[
    Type::Pred,
    Type::B16,
    Type::B32,
    Type::B64,
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S16,
    Type::S32,
    Type::S64,
    Type::F32,
    Type::F64,
];
pub(super) const SELP_TYPES: &[Type] = &[
    Type::B16,
    Type::B32,
    Type::B64,
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S16,
    Type::S32,
    Type::S64,
    Type::F32,
    Type::F64,
];
pub(super) const MEM_TYPES: &[Type] = &[
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
];
pub(super) const CVT_TYPES: &[Type] = &[
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
];

/// The modifiers of one instruction, with a record of which have been consumed.
pub(super) struct ModList<'a> {
    items: Vec<(&'a str, bool)>,
}

impl<'a> ModList<'a> {
    pub(super) fn new(modifiers: &[&'a str]) -> ModList<'a> {
        ModList {
            items: modifiers.iter().map(|m| (*m, false)).collect(),
        }
    }

    /// Consume `name` if present.
    pub(super) fn flag(&mut self, name: &str) -> bool {
        self.take(|m| (m == name).then_some(())).is_some()
    }

    /// Consume the first unconsumed modifier that `parse` accepts.
    pub(super) fn take<T>(&mut self, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
        for (m, used) in self.items.iter_mut() {
            if *used {
                continue;
            }
            if let Some(v) = parse(m) {
                *used = true;
                return Some(v);
            }
        }
        None
    }

    /// All unconsumed type modifiers, in order.
    pub(super) fn types(&mut self) -> Vec<Type> {
        let mut out = Vec::new();
        while let Some(t) = self.take(Type::from_name) {
            out.push(t);
        }
        out
    }

    /// Exactly one type, from `allowed`.
    pub(super) fn one_type(&mut self, allowed: &[Type]) -> Res<Type> {
        let types = self.types();
        match types.as_slice() {
            [t] if allowed.contains(t) => Ok(*t),
            [t] => invalid(format!("type `{t}` is not allowed here")),
            [] => invalid("missing type"),
            _ => invalid("more than one type"),
        }
    }

    pub(super) fn round(&mut self) -> Option<Rounding> {
        self.take(|m| Rounding::from_name(m).filter(|r| !r.is_integral()))
    }

    pub(super) fn space(&mut self) -> Space {
        self.take(Space::from_name).unwrap_or(Space::Generic)
    }

    pub(super) fn vec(&mut self) -> VecWidth {
        self.take(|m| match m {
            "v2" => Some(VecWidth::V2),
            "v4" => Some(VecWidth::V4),
            _ => None,
        })
        .unwrap_or_default()
    }

    pub(super) fn scope(&mut self) -> Option<Scope> {
        self.take(Scope::from_name)
    }

    /// Error on the first modifier nobody consumed.
    pub(super) fn finish(&self) -> Res<()> {
        match self.items.iter().find(|(_, used)| !used) {
            Some((m, _)) => invalid(format!("modifier `.{m}` is not supported here")),
            None => Ok(()),
        }
    }
}
