//! Loader: lowers a parsed [`ast::Module`] to the executable [`Program`] (MODEL.md §2-3).
//!
//! Per function it resolves registers (with `{ }` block scoping), variables, labels and
//! callees; lays out parameters, `.local`, call `.param` and shared memory; appends an
//! implicit `exit`/`ret` when code could fall off the end; and computes the CFG,
//! post-dominators and reconvergence points. Sizes from the input are checked against the
//! caps in [`super::load_limits`] (re-exported here) before anything is allocated from them.
//!
//! This module holds the module-wide steps (the function table, the call graph's reach of
//! module variables, shared-memory layout); module variables are laid out in
//! [`super::module_vars`] and each function body is lowered in [`super::lower_function`].

use std::collections::{BTreeMap, BTreeSet};

use super::ast;
use super::error::PtxError;
use super::ir::{
    DynamicShared, FuncId, Function, ModuleVar, Program, SharedLayout, SharedSlot, VarId,
};
pub use super::load_limits::{
    MAX_CALL_GRAPH_STEPS, MAX_GLOBAL_VAR_BYTES, MAX_LOCAL_BYTES, MAX_PARAM_BYTES, MAX_PROGRAM_REGS,
    MAX_SHARED_BYTES, MAX_VARS,
};
use super::lower_function::{lower_function, FnUses, ModuleCtx};
use super::module_vars::module_vars;
use super::parser::parse;
use super::types::Space;

/// Parse and lower PTX text: the one call the CLI, the browser and the tests use.
pub fn load(src: &str) -> Result<Program, PtxError> {
    let module = parse(src)?;
    lower(&module, src)
}

/// Lower a parsed module. `src` is kept as the listing.
pub fn lower(module: &ast::Module, src: &str) -> Result<Program, PtxError> {
    let (vars, var_index) = module_vars(&module.vars)?;
    let defs = function_table(&module.functions)?;
    let func_index: BTreeMap<String, FuncId> = defs
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), i as FuncId))
        .collect();
    let ctx = ModuleCtx {
        vars: &vars,
        var_index: &var_index,
        funcs: &func_index,
    };
    let mut functions = Vec::with_capacity(defs.len());
    let mut uses = Vec::with_capacity(defs.len());
    let mut total_regs = 0usize;
    for f in &defs {
        let (func, u) = lower_function(f, &ctx)?;
        total_regs += func.regs.len();
        if total_regs > MAX_PROGRAM_REGS {
            return Err(PtxError::new(
                f.line,
                0,
                format!("too many registers in the module (at most {MAX_PROGRAM_REGS})"),
            ));
        }
        functions.push(func);
        uses.push(u);
    }
    let mut budget = MAX_CALL_GRAPH_STEPS;
    for (i, f) in functions.iter_mut().enumerate() {
        let err = |m: String| PtxError::new(f.line, 0, m);
        let used = module_vars_reached(i, &uses, &mut budget).map_err(err)?;
        f.shared = shared_layout(f, &used, &vars).map_err(err)?;
        for slot in &f.shared.slots {
            if let VarId::Local(v) = slot.var {
                if let Some(lv) = f.vars.get_mut(usize::from(v)) {
                    lv.offset = slot.offset;
                }
            }
        }
    }
    Ok(Program {
        version: module.version,
        target: module.target.clone(),
        address_size: module.address_size,
        files: module
            .files
            .iter()
            .map(|f| (f.index, f.path.clone()))
            .collect(),
        vars,
        functions,
        launch_comments: module.launch_comments.clone(),
        lines: src.lines().map(str::to_string).collect(),
    })
}

/// One entry per function name: the definition if there is one, else the first declaration.
fn function_table(funcs: &[ast::Function]) -> Result<Vec<&ast::Function>, PtxError> {
    let mut out: Vec<&ast::Function> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for f in funcs {
        match index.get(f.name.as_str()) {
            None => {
                if out.len() >= usize::from(u16::MAX) {
                    return Err(PtxError::new(f.line, 0, "too many functions"));
                }
                index.insert(&f.name, out.len());
                out.push(f);
            }
            Some(&i) => {
                let prev = out[i];
                if prev.kind != f.kind {
                    return Err(PtxError::new(
                        f.line,
                        0,
                        format!("`{}` declared as both `.entry` and `.func`", f.name),
                    ));
                }
                match (prev.body.is_some(), f.body.is_some()) {
                    (true, true) => {
                        return Err(PtxError::new(
                            f.line,
                            0,
                            format!("function `{}` defined twice", f.name),
                        ))
                    }
                    (false, true) => out[i] = f,
                    _ => {}
                }
            }
        }
    }
    Ok(out)
}

// ----- shared memory ----------------------------------------------------------------------

/// Module variables used by function `f` or any function it calls, transitively, spending at
/// most `budget` steps over all calls.
fn module_vars_reached(
    f: usize,
    uses: &[FnUses],
    budget: &mut usize,
) -> Result<BTreeSet<u16>, String> {
    let Some(own) = uses.get(f) else {
        return Ok(BTreeSet::new());
    };
    if own.callees.is_empty() {
        return Ok(own.module_vars.clone());
    }
    let mut seen = BTreeSet::new();
    let mut todo = vec![f];
    let mut vars = BTreeSet::new();
    while let Some(g) = todo.pop() {
        *budget = budget
            .checked_sub(1)
            .ok_or_else(|| "call graph too large to analyse".to_string())?;
        if !seen.insert(g) {
            continue;
        }
        if let Some(u) = uses.get(g) {
            vars.extend(u.module_vars.iter().copied());
            todo.extend(u.callees.iter().map(|&c| usize::from(c)));
        }
    }
    Ok(vars)
}

fn shared_layout(
    f: &Function,
    used: &BTreeSet<u16>,
    vars: &[ModuleVar],
) -> Result<SharedLayout, String> {
    let mut layout = SharedLayout::default();
    let mut offset: u64 = 0;
    let module_static = used.iter().filter_map(|&i| {
        let v = vars.get(usize::from(i))?;
        (v.space == Space::Shared && !v.dynamic_shared).then_some((
            VarId::Module(i),
            &v.name,
            v.size,
            v.align,
        ))
    });
    let own = f
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.space == Space::Shared)
        .map(|(i, v)| (VarId::Local(i as u16), &v.name, u64::from(v.size), v.align));
    for (var, name, size, align) in module_static.chain(own) {
        let a = u64::from(align.max(1));
        offset = offset.div_ceil(a) * a;
        layout.slots.push(SharedSlot {
            var,
            name: name.clone(),
            offset: offset as u32,
            size: size as u32,
            align,
        });
        offset += size;
        if offset > MAX_SHARED_BYTES {
            return Err(format!(
                "shared memory of `{}` exceeds {MAX_SHARED_BYTES} bytes",
                f.name
            ));
        }
    }
    layout.static_bytes = offset as u32;
    let dynamic: Vec<(u16, u32)> = used
        .iter()
        .filter_map(|&i| {
            vars.get(usize::from(i))
                .filter(|v| v.dynamic_shared)
                .map(|v| (i, v.align))
        })
        .collect();
    if !dynamic.is_empty() {
        let align = u64::from(dynamic.iter().map(|(_, a)| *a).max().unwrap_or(16).max(16));
        layout.dynamic = Some(DynamicShared {
            vars: dynamic.iter().map(|(i, _)| VarId::Module(*i)).collect(),
            base: (offset.div_ceil(align) * align) as u32,
        });
    }
    Ok(layout)
}
