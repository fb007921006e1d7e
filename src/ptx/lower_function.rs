//! Lowering one function body to IR: registers with `{ }` block scoping, labels, parameters,
//! `.local` and call `.param` layouts, each instruction's operands, and an implicit
//! `exit`/`ret` when control could fall off the end, then the function's CFG,
//! post-dominators and reconvergence points (MODEL.md §2-3; PTX ISA "Directives: Function",
//! "State Spaces"). The module-wide steps around it are in [`super::loader`].

use std::collections::{BTreeMap, BTreeSet};

use super::ast::{self, FunctionKind, Stmt};
use super::cfg::Cfg;
use super::error::PtxError;
use super::ir::{
    FuncId, Function, Guard, Instr, LaunchBounds, LocalVar, ModuleVar, Operands, Param, Pc, RegId,
    RegInfo, SharedLayout, SourceLoc, VarId, VarRef, MAX_REGS,
};
use super::load_limits::{MAX_LOCAL_BYTES, MAX_PARAM_BYTES, MAX_SHARED_BYTES, MAX_VARS};
use super::module_vars::{var_align, var_size};
use super::operands::{lower_operands, Names, Sym, Uses};
use super::ops::Op;
use super::postdom::{reconvergence_points, PostDominators};
use super::types::{Space, Type};

/// What every function of a module sees: the module's variables and functions by name.
pub(super) struct ModuleCtx<'a> {
    pub(super) vars: &'a [ModuleVar],
    pub(super) var_index: &'a BTreeMap<String, u16>,
    pub(super) funcs: &'a BTreeMap<String, FuncId>,
}

/// What a function body uses that later, module-wide steps need.
pub(super) struct FnUses {
    pub(super) module_vars: BTreeSet<u16>,
    pub(super) callees: BTreeSet<FuncId>,
}

/// Registers of a `%name<N>` range declaration: `%name0` .. `%name{N-1}` from `base`.
#[derive(Debug, Clone, Copy)]
struct RegRange {
    count: u32,
    base: usize,
    ty: Type,
}

/// One `{ }` scope of names. Ranges are keyed by prefix, so a lookup tries each split of
/// the name's trailing digits (at most ten) instead of scanning every range.
#[derive(Debug, Default)]
struct Scope {
    names: BTreeMap<String, Sym>,
    ranges: BTreeMap<String, RegRange>,
}

impl Scope {
    fn lookup(&self, name: &str) -> Option<Sym> {
        if let Some(s) = self.names.get(name) {
            return Some(*s);
        }
        let digits = name
            .bytes()
            .rev()
            .take_while(u8::is_ascii_digit)
            .count()
            .min(10);
        (name.len() - digits..name.len()).find_map(|split| {
            let prefix = name.get(..split)?;
            let r = self.ranges.get(prefix)?;
            let i = range_index(name, prefix)?;
            (i < r.count).then(|| Sym::Reg(RegId((r.base + i as usize) as u16), r.ty))
        })
    }

    /// Whether an explicitly named register of this scope falls in `prefix<count>`.
    fn names_in_range(&self, prefix: &str, count: u32) -> bool {
        self.names
            .range::<str, _>((
                std::ops::Bound::Excluded(prefix),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(k, _)| k.starts_with(prefix))
            .any(|(k, _)| range_index(k, prefix).is_some_and(|i| i < count))
    }
}

/// `name` = `prefix` followed by a decimal index without leading zeros.
fn range_index(name: &str, prefix: &str) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?;
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if canonical {
        digits.parse().ok()
    } else {
        None
    }
}

struct FnLower<'a> {
    ctx: &'a ModuleCtx<'a>,
    name: &'a str,
    scopes: Vec<Scope>,
    regs: Vec<RegInfo>,
    vars: Vec<LocalVar>,
    labels: BTreeMap<String, Pc>,
}

impl Names for FnLower<'_> {
    fn lookup(&self, name: &str) -> Option<Sym> {
        for s in self.scopes.iter().rev() {
            if let Some(found) = s.lookup(name) {
                return Some(found);
            }
        }
        let i = *self.ctx.var_index.get(name)?;
        let v = self.ctx.vars.get(usize::from(i))?;
        Some(Sym::Var(VarRef {
            space: v.space,
            id: VarId::Module(i),
        }))
    }

    fn label(&self, name: &str) -> Option<Pc> {
        self.labels.get(name).copied()
    }

    fn func(&self, name: &str) -> Option<FuncId> {
        self.ctx.funcs.get(name).copied()
    }
}

pub(super) fn lower_function(
    f: &ast::Function,
    ctx: &ModuleCtx,
) -> Result<(Function, FnUses), PtxError> {
    let mut l = FnLower {
        ctx,
        name: &f.name,
        scopes: vec![Scope::default()],
        regs: Vec::new(),
        vars: Vec::new(),
        labels: BTreeMap::new(),
    };
    let (params, param_bytes) = l.params(&f.params, false)?;
    let (rets, _) = l.params(&f.rets, true)?;
    let mut uses = Uses::default();
    let (instrs, texts) = match &f.body {
        Some(body) => {
            l.labels = collect_labels(body)?;
            l.body(body, f, &mut uses)?
        }
        None => (Vec::new(), Vec::new()),
    };
    let local_bytes = l.layout_space(Space::Local, MAX_LOCAL_BYTES, f.line)?;
    let call_param_bytes = l.layout_space(Space::Param, MAX_LOCAL_BYTES, f.line)?;
    let cfg = Cfg::build(&instrs);
    let postdom = PostDominators::compute(&cfg.successors());
    let reconvergence = reconvergence_points(&instrs, &cfg, &postdom);
    let mut func = Function {
        name: f.name.clone(),
        kind: f.kind,
        linkage: f.linkage,
        defined: f.body.is_some(),
        params,
        param_bytes,
        rets,
        regs: l.regs,
        vars: l.vars,
        shared: SharedLayout::default(),
        local_bytes,
        call_param_bytes,
        launch: LaunchBounds {
            reqntid: f.perf.reqntid,
            maxntid: f.perf.maxntid,
            minnctapersm: f.perf.minnctapersm,
            maxnreg: f.perf.maxnreg,
        },
        instrs,
        texts,
        labels: l.labels,
        call_lists: std::mem::take(&mut uses.call_lists),
        cfg,
        postdom,
        reconvergence,
        convergence_barriers: Default::default(),
        line: f.line,
    };
    func.convergence_barriers = super::convergence_barriers::place_barriers(&func);
    let fn_uses = FnUses {
        module_vars: uses.module_vars,
        callees: uses.callees,
    };
    Ok((func, fn_uses))
}

/// Label name to the Pc of the next instruction (one past the end for a trailing label).
fn collect_labels(body: &[Stmt]) -> Result<BTreeMap<String, Pc>, PtxError> {
    let mut labels = BTreeMap::new();
    let mut pc: Pc = 0;
    for s in body {
        match s {
            Stmt::Instr(_) => pc += 1,
            Stmt::Label { name, line, col } if labels.insert(name.clone(), pc).is_some() => {
                return Err(PtxError::new(
                    *line,
                    *col,
                    format!("label `{name}` defined twice"),
                ));
            }
            _ => {}
        }
    }
    Ok(labels)
}

impl FnLower<'_> {
    fn scope(&mut self) -> &mut Scope {
        if self.scopes.is_empty() {
            self.scopes.push(Scope::default());
        }
        let last = self.scopes.len() - 1;
        &mut self.scopes[last]
    }

    /// Lay out parameters in declaration order; `.reg` parameters become registers.
    fn params(
        &mut self,
        decls: &[ast::ParamDecl],
        rets: bool,
    ) -> Result<(Vec<Param>, u32), PtxError> {
        let mut out = Vec::with_capacity(decls.len());
        let mut offset: u64 = 0;
        for (i, p) in decls.iter().enumerate() {
            let err = |m: String| PtxError::new(p.line, p.col, m);
            let id = u16::try_from(i).map_err(|_| err("too many parameters".into()))?;
            let elem = u64::from(p.ty.bytes());
            let size = elem
                .checked_mul(p.array.unwrap_or(1))
                .filter(|s| *s <= MAX_PARAM_BYTES)
                .ok_or_else(|| err(format!("parameter `{}` is too large", p.name)))?;
            let align = p.align.map_or(elem, u64::from).max(1);
            let reg = if p.space.is_none() {
                Some(self.declare_reg(&p.name, p.ty).map_err(err)?)
            } else {
                if p.ty.is_pred() {
                    return Err(err(format!(
                        "parameter `{}` cannot have type `.pred`",
                        p.name
                    )));
                }
                offset = offset.div_ceil(align) * align;
                let var = VarRef {
                    space: Space::Param,
                    id: if rets {
                        VarId::Ret(id)
                    } else {
                        VarId::Param(id)
                    },
                };
                self.declare(&p.name, Sym::Var(var)).map_err(err)?;
                None
            };
            out.push(Param {
                name: p.name.clone(),
                ty: p.ty,
                size: size as u32,
                align: align as u32,
                offset: offset as u32,
                ptr_space: p.ptr_space,
                reg,
            });
            if reg.is_none() {
                offset += size;
                if offset > MAX_PARAM_BYTES {
                    return Err(err("parameters exceed the parameter space".into()));
                }
            }
        }
        Ok((out, offset as u32))
    }

    fn declare(&mut self, name: &str, sym: Sym) -> Result<(), String> {
        let scope = self.scope();
        if scope.lookup(name).is_some() {
            return Err(format!("`{name}` declared twice in the same scope"));
        }
        scope.names.insert(name.to_string(), sym);
        Ok(())
    }

    fn declare_reg(&mut self, name: &str, ty: Type) -> Result<RegId, String> {
        if self.regs.len() >= MAX_REGS {
            return Err(format!(
                "too many registers (at most {MAX_REGS} per function)"
            ));
        }
        let id = RegId(self.regs.len() as u16);
        self.declare(name, Sym::Reg(id, ty))?;
        self.regs.push(RegInfo {
            name: name.to_string(),
            ty,
        });
        Ok(id)
    }

    fn declare_range(&mut self, prefix: &str, count: u32, ty: Type) -> Result<(), String> {
        if self.regs.len() + count as usize > MAX_REGS {
            return Err(format!(
                "too many registers: `{prefix}<{count}>` (at most {MAX_REGS} per function)"
            ));
        }
        let base = self.regs.len();
        let scope = self.scope();
        if scope.ranges.contains_key(prefix) || scope.names_in_range(prefix, count) {
            return Err(format!(
                "`{prefix}<{count}>` redeclares registers of this scope"
            ));
        }
        if count == 0 {
            return Ok(());
        }
        scope
            .ranges
            .insert(prefix.to_string(), RegRange { count, base, ty });
        self.regs.extend((0..count).map(|i| RegInfo {
            name: format!("{prefix}{i}"),
            ty,
        }));
        Ok(())
    }

    fn reg_decl(&mut self, d: &ast::RegDecl) -> Result<(), PtxError> {
        for n in &d.names {
            let r = match n.range {
                Some(count) => self.declare_range(&n.name, count, d.ty),
                None => self.declare_reg(&n.name, d.ty).map(|_| ()),
            };
            r.map_err(|m| PtxError::new(d.line, d.col, m))?;
        }
        Ok(())
    }

    fn var_decl(&mut self, d: &ast::VarDecl) -> Result<(), PtxError> {
        let err = |m: String| PtxError::new(d.line, d.col, m);
        if !matches!(d.space, Space::Shared | Space::Local | Space::Param) {
            return Err(err(format!(
                "`{}` variables in a function body are not supported",
                d.space
            )));
        }
        if d.init.is_some() {
            return Err(err(format!(
                "`{}` variables cannot have initialisers",
                d.space
            )));
        }
        if self.vars.len() >= MAX_VARS {
            return Err(err("too many variables in one function".into()));
        }
        let cap = if d.space == Space::Shared {
            MAX_SHARED_BYTES
        } else {
            MAX_LOCAL_BYTES
        };
        let size = var_size(d, cap).map_err(err)?;
        let id = VarId::Local(self.vars.len() as u16);
        self.declare(&d.name, Sym::Var(VarRef { space: d.space, id }))
            .map_err(err)?;
        self.vars.push(LocalVar {
            name: d.name.clone(),
            space: d.space,
            ty: d.ty,
            size: size as u32,
            align: var_align(d),
            offset: 0,
            line: d.line,
        });
        Ok(())
    }

    /// Offsets of body variables of `space` in declaration order; total bytes.
    fn layout_space(&mut self, space: Space, cap: u64, line: u32) -> Result<u32, PtxError> {
        let mut offset: u64 = 0;
        for v in self.vars.iter_mut().filter(|v| v.space == space) {
            let align = u64::from(v.align);
            offset = offset.div_ceil(align) * align;
            v.offset = offset as u32;
            offset += u64::from(v.size);
            if offset > cap {
                return Err(PtxError::new(
                    line,
                    0,
                    format!("`{space}` variables of `{}` exceed {cap} bytes", self.name),
                ));
            }
        }
        Ok(offset as u32)
    }

    fn body(
        &mut self,
        body: &[Stmt],
        f: &ast::Function,
        uses: &mut Uses,
    ) -> Result<(Vec<Instr>, Vec<String>), PtxError> {
        let mut instrs = Vec::new();
        let mut texts = Vec::new();
        let mut loc: Option<SourceLoc> = None;
        for s in body {
            match s {
                Stmt::Open { .. } => self.scopes.push(Scope::default()),
                Stmt::Close { .. } => {
                    if self.scopes.len() > 1 {
                        self.scopes.pop();
                    }
                }
                Stmt::Reg(d) => self.reg_decl(d)?,
                Stmt::Var(d) => self.var_decl(d)?,
                Stmt::Loc(l) => {
                    loc = Some(SourceLoc {
                        line: l.line,
                        file: u16::try_from(l.file).unwrap_or(u16::MAX),
                        col: u16::try_from(l.col).unwrap_or(u16::MAX),
                    })
                }
                Stmt::Label { .. } | Stmt::Pragma { .. } => {}
                Stmt::Instr(ins) => {
                    instrs.push(self.instruction(ins, loc, uses)?);
                    texts.push(ins.text.clone());
                }
            }
        }
        if needs_implicit_end(&instrs, uses) {
            let op = if f.kind == FunctionKind::Entry {
                Op::Exit
            } else {
                Op::Ret { uni: false }
            };
            instrs.push(Instr {
                op,
                guard: None,
                operands: Operands::default(),
                line: f.end_line,
                loc: None,
            });
            texts.push(format!("{} (implicit: end of function)", op.mnemonic()));
        }
        Ok((instrs, texts))
    }

    fn instruction(
        &mut self,
        ins: &ast::Instruction,
        loc: Option<SourceLoc>,
        uses: &mut Uses,
    ) -> Result<Instr, PtxError> {
        let err = |m: String| PtxError::new(ins.line, ins.col, format!("{m} in `{}`", ins.text));
        let guard = match &ins.guard {
            None => None,
            Some(g) => match self.lookup(&g.name) {
                Some(Sym::Reg(reg, Type::Pred)) => Some(Guard {
                    reg,
                    negate: g.negate,
                }),
                Some(_) => return Err(err(format!("guard `{}` is not a predicate", g.name))),
                None => return Err(err(format!("unknown register `{}`", g.name))),
            },
        };
        let operands = lower_operands(ins, &*self, uses).map_err(err)?;
        Ok(Instr {
            op: ins.op,
            guard,
            operands,
            line: ins.line,
            loc,
        })
    }
}

/// Whether control could run past the last instruction: no instructions, a last instruction
/// that falls through, or a branch to a label after the last instruction.
fn needs_implicit_end(instrs: &[Instr], uses: &Uses) -> bool {
    let Some(last) = instrs.last() else {
        return true;
    };
    let ends = (last.is_branch() || last.is_exit()) && last.guard.is_none();
    !ends || uses.branch_targets.contains(&(instrs.len() as Pc))
}
