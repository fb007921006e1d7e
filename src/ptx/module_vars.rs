//! Module-scope variables (`.global`, `.const`, `.shared` declared outside any function):
//! their sizes, alignments and initial bytes, checked against the caps in
//! [`super::load_limits`] (PTX ISA "State Spaces, Types, and Variables": "Variable
//! Declarations", "Alignment", "Initializers").

use std::collections::BTreeMap;

use super::ast::{self, Linkage};
use super::error::PtxError;
use super::ir::ModuleVar;
use super::literal::immediate_bits;
use super::load_limits::{MAX_GLOBAL_VAR_BYTES, MAX_SHARED_BYTES, MAX_VARS};
use super::types::Space;

// ----- module variables -------------------------------------------------------------------

pub(super) fn module_vars(
    decls: &[ast::VarDecl],
) -> Result<(Vec<ModuleVar>, BTreeMap<String, u16>), PtxError> {
    let mut vars = Vec::with_capacity(decls.len());
    let mut index = BTreeMap::new();
    for d in decls {
        let err = |m: String| PtxError::new(d.line, d.col, m);
        if vars.len() >= MAX_VARS {
            return Err(err("too many module variables".into()));
        }
        if index.insert(d.name.clone(), vars.len() as u16).is_some() {
            return Err(err(format!("variable `{}` declared twice", d.name)));
        }
        vars.push(module_var(d).map_err(err)?);
    }
    Ok((vars, index))
}

pub(super) fn module_var(d: &ast::VarDecl) -> Result<ModuleVar, String> {
    if !matches!(d.space, Space::Global | Space::Const | Space::Shared) {
        return Err(format!(
            "module-scope `{}` variables are not supported",
            d.space
        ));
    }
    let dynamic_shared = d.linkage == Linkage::Extern;
    if dynamic_shared
        && !(d.space == Space::Shared && d.dims.first() == Some(&None) && d.init.is_none())
    {
        return Err(format!(
            "`.extern` variable `{}`: only dynamic `.extern .shared name[]` arrays are supported",
            d.name
        ));
    }
    let cap = if d.space == Space::Shared {
        MAX_SHARED_BYTES
    } else {
        MAX_GLOBAL_VAR_BYTES
    };
    let size = if dynamic_shared { 0 } else { var_size(d, cap)? };
    let init = match &d.init {
        Some(_) if d.space == Space::Shared => {
            return Err("`.shared` variables cannot have initialisers".into());
        }
        Some(values) => init_bytes(d, values, size)?,
        None => Vec::new(),
    };
    Ok(ModuleVar {
        name: d.name.clone(),
        space: d.space,
        ty: d.ty,
        size,
        align: var_align(d),
        init,
        linkage: d.linkage,
        dynamic_shared,
        line: d.line,
    })
}

/// Bytes of one element (scalar type times vector lanes).
fn elem_bytes(d: &ast::VarDecl) -> Result<u64, String> {
    if d.ty.is_pred() {
        return Err(format!("variable `{}` cannot have type `.pred`", d.name));
    }
    Ok(u64::from(d.ty.bytes()) * u64::from(d.lanes))
}

pub(super) fn var_align(d: &ast::VarDecl) -> u32 {
    d.align.unwrap_or(d.ty.bytes() * d.lanes).max(1)
}

/// Size in bytes: element size times the product of the dimensions; a `[]` first dimension
/// takes its length from the initialiser.
pub(super) fn var_size(d: &ast::VarDecl, cap: u64) -> Result<u64, String> {
    let elem = elem_bytes(d)?;
    let mut count: u64 = 1;
    for (i, dim) in d.dims.iter().enumerate() {
        let n = match (dim, &d.init) {
            (Some(n), _) => *n,
            (None, Some(init)) if i == 0 => {
                let inner = d
                    .dims
                    .iter()
                    .skip(1)
                    .fold(1u64, |acc, x| acc.saturating_mul(x.unwrap_or(1)));
                let per = inner.saturating_mul(u64::from(d.lanes)).max(1);
                (init.len() as u64).div_ceil(per)
            }
            _ => return Err(format!("array `{}` needs a size", d.name)),
        };
        count = count
            .checked_mul(n)
            .ok_or_else(|| format!("array `{}` is too large", d.name))?;
    }
    let size = count
        .checked_mul(elem)
        .filter(|s| *s <= cap)
        .ok_or_else(|| format!("variable `{}` is larger than {cap} bytes", d.name))?;
    Ok(size)
}

fn init_bytes(d: &ast::VarDecl, values: &[ast::Literal], size: u64) -> Result<Vec<u8>, String> {
    let width = d.ty.bytes() as usize;
    if (values.len() as u64).saturating_mul(width as u64) > size {
        return Err(format!("too many initial values for `{}`", d.name));
    }
    let mut out = Vec::with_capacity(values.len() * width);
    for v in values {
        let bits =
            immediate_bits(*v, d.ty).map_err(|m| format!("initialiser of `{}`: {m}", d.name))?;
        out.extend_from_slice(bits.to_le_bytes().get(..width).unwrap_or_default());
    }
    Ok(out)
}

// ----- functions --------------------------------------------------------------------------
