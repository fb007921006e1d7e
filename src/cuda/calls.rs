//! Calls of `__device__` functions, inlined at each call site (as nvcc does for small device
//! functions; CUDA C++ Programming Guide "__noinline__ and __forceinline__"): parameters bound
//! to the argument values (pointers keep their state space), `return` as a branch to the
//! call's end, recursion refused.

use super::ast::*;
use super::emit::{Addr, Base, Op, Val};
use super::error::{err, Pos, Res};
use super::locals::written_into;
use super::lower::{mutated_names, Binding, Lower};
use super::types::{CType, Space};
use std::collections::HashMap;

const MAX_INLINE_DEPTH: usize = 32;

impl Lower<'_> {
    /// The `__device__` function named `name`, if any.
    pub fn device_fn(&self, name: &str) -> Option<&Function> {
        self.unit
            .functions
            .iter()
            .find(|f| f.name == name && !f.global)
    }

    /// The return type of a call of a device function.
    pub fn device_ret(&self, f: &Function, pos: Pos) -> Res<CType> {
        match &f.ret {
            Ty::Scalar(s, _) => Ok(CType::from_scalar(*s)),
            t => match self.resolve(t, pos)? {
                CType::Ptr(el, _, v) => Ok(CType::Ptr(el, super::types::Space::Generic, v)),
                t => Ok(t),
            },
        }
    }

    /// Inlines a call of `f`.
    pub fn inline_call(
        &mut self,
        f: &Function,
        args: &[Expr],
        targs: &[Expr],
        pos: Pos,
    ) -> Res<Val> {
        if self.calls.iter().any(|(n, _, _)| *n == f.name) {
            return err(
                pos,
                format!(
                    "recursion is not supported: `{}` calls itself (device functions are inlined)",
                    f.name
                ),
            );
        }
        if self.calls.len() > MAX_INLINE_DEPTH {
            return err(pos, "device function calls nest too deeply");
        }
        if f.global {
            return err(pos, format!("`{}` is a __global__ function: launching kernels from the device is not supported", f.name));
        }
        if args.len() != f.params.len() {
            return err(
                pos,
                format!(
                    "`{}` takes {} arguments, {} given",
                    f.name,
                    f.params.len(),
                    args.len()
                ),
            );
        }
        let mut scope = HashMap::new();
        let mut deduced = Vec::new();
        if let (Some(tp), true) = (&f.template, targs.is_empty()) {
            // Deduce integer template arguments from array bounds (`int (*s)[N]`).
            let mut found = HashMap::new();
            for (p, a) in f.params.iter().zip(args) {
                let t = self.ty_of(a)?;
                deduce(&p.ty, &t, &mut found);
            }
            for (n, _) in tp {
                if let Some(v) = found.get(n) {
                    deduced.push(Expr {
                        kind: ExprKind::Int(*v, Scalar::Int(64, true)),
                        pos,
                    });
                }
            }
        }
        let targs = if deduced.is_empty() {
            targs
        } else {
            &deduced[..]
        };
        if let Some(tp) = &f.template {
            if tp.len() != targs.len() {
                return err(
                    pos,
                    format!("`{}` needs {} template arguments", f.name, tp.len()),
                );
            }
            for ((n, s), a) in tp.iter().zip(targs) {
                let v = self.const_int(a)?;
                let ty = CType::from_scalar(*s);
                scope.insert(
                    n.clone(),
                    Binding::Value(Val::int(super::values::wrap(v, &ty), ty)),
                );
            }
        }
        // Evaluate the arguments in the caller's scope.
        self.scopes.push(scope);
        let mut params = Vec::new();
        for p in &f.params {
            params.push(self.resolve(&p.ty, pos)?);
        }
        let mut vals = Vec::new();
        let mut by_place = Vec::new();
        for ((a, pt), p) in args.iter().zip(&params).zip(&f.params) {
            if let CType::Struct(..) = pt {
                // By value: a copy in `.local`, bound by its address below; a kernel's struct
                // parameter the callee does not write into is read where it lies (nvcc's
                // `ld.param`), as it cannot change.
                let src = self.struct_source(a)?;
                if src.space == Space::Param && !written_into(&f.body, &p.name) {
                    by_place.push(Some(src));
                    vals.push(Val::int(0, pt.clone()));
                    continue;
                }
                let dst = self.alloc_local(&p.name, pt);
                self.copy_value(&dst, &src, pt)?;
                let Base::Reg(r) = dst.base else { continue };
                by_place.push(None);
                vals.push(Val::reg(r, pt.clone()));
                continue;
            }
            by_place.push(None);
            let v = self.rv(a)?;
            let v = match (pt, &v.ty) {
                (CType::Ptr(el, _, vol), CType::Ptr(_, s, _)) => Val {
                    ty: CType::Ptr(el.clone(), *s, *vol),
                    ..v
                },
                _ => self.assign_convert(v, pt, a.pos)?,
            };
            vals.push(v);
        }
        let ret = self.device_ret(f, pos)?;
        let result = match &ret {
            CType::Void => None,
            CType::Struct(..) => {
                // Returned into a `.local` buffer of the call site's (see `struct_result`).
                let buffer = self.alloc_local(&format!("{}_ret", f.name), &ret);
                let Base::Reg(r) = buffer.base else {
                    return err(pos, "internal: a local buffer without a register");
                };
                Some((r, ret.clone()))
            }
            _ => Some((self.body.reg_for(&ret), ret.clone())),
        };
        let exit = self.body.label();
        let snap = self.body.snapshot();
        let places_before = self.body.places;
        let mutated = mutated_names(&f.body);
        let saved_mutated = std::mem::replace(&mut self.mutated, mutated);
        let mut instance = f.name.clone();
        for a in targs {
            instance.push_str(&format!("_{}", self.const_int(a)?));
        }
        let saved_func = std::mem::replace(&mut self.func_name, instance);
        // The callee sees only globals, its template parameters and its parameters.
        let saved_scopes = std::mem::take(&mut self.scopes);
        let globals = saved_scopes.first().cloned().unwrap_or_default();
        let tparams = saved_scopes.last().cloned().unwrap_or_default();
        self.scopes = vec![globals, tparams, HashMap::new()];
        for ((p, v), place) in f.params.iter().zip(vals).zip(by_place) {
            if p.name.is_empty() {
                continue;
            }
            if let Some(addr) = place {
                self.bind(&p.name, Binding::Mem(addr, v.ty.clone(), false));
                continue;
            }
            if let (CType::Struct(..), Op::Reg(r)) = (&v.ty, &v.op) {
                let addr = Addr {
                    base: Base::Reg(r.clone()),
                    off: 0,
                    space: super::types::Space::Local,
                };
                self.bind(&p.name, Binding::Mem(addr, v.ty.clone(), false));
                continue;
            }
            if self.mutated.contains(&p.name) {
                let r = self.body.reg_for(&v.ty);
                self.body
                    .ins(format!("mov.{} \t{r}, {}", v.ty.mov(), v.text()));
                self.var_regs.insert(r.clone());
                self.body.mutable.insert(r.clone());
                self.bind(&p.name, Binding::Var(r, v.ty));
            } else {
                if let Op::Reg(r) = &v.op {
                    self.var_regs.insert(r.clone());
                }
                self.bind(&p.name, Binding::Value(v));
            }
        }
        self.calls
            .push((f.name.clone(), exit.clone(), result.clone()));
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_body = std::mem::replace(&mut self.fn_body, f.body.clone());
        let mut r = Ok(());
        for s in &f.body {
            r = self.stmt(s);
            if r.is_err() {
                break;
            }
        }
        self.loops = saved_loops;
        self.fn_body = saved_body;
        self.calls.pop();
        self.scopes = saved_scopes;
        self.scopes.pop();
        self.mutated = saved_mutated;
        self.func_name = saved_func;
        r?;
        // A final `bra exit` right before the exit label is dropped.
        if self
            .body
            .lines
            .last()
            .is_some_and(|l| l.trim() == format!("bra.uni \t{exit};"))
        {
            self.body.lines.pop();
        }
        // A straight-line body (no label placed, no `return` jumping to the exit) keeps what it
        // computed: the exit is reached only by falling through, so its results dominate it.
        let jumped = self
            .body
            .lines
            .iter()
            .any(|l| l.starts_with('\t') && l.ends_with(&format!("{exit};")));
        if self.body.places == places_before && !jumped {
            return Ok(match result {
                Some((r, t)) => Val::reg(r, t),
                None => Val::int(0, CType::Void),
            });
        }
        self.body.place(&exit);
        self.body.restore(&snap, &std::collections::HashSet::new());
        Ok(match result {
            Some((r, t)) => Val::reg(r, t),
            None => Val::int(0, CType::Void),
        })
    }
}

/// Template arguments from an argument's type: the bounds of arrays a parameter names by a
/// template parameter.
fn deduce(param: &Ty, arg: &CType, out: &mut HashMap<String, u64>) {
    match (param, arg) {
        (Ty::Ptr(p, _), CType::Ptr(a, ..) | CType::Array(a, _)) => deduce(p, a, out),
        (Ty::Array(p, Some(n)), CType::Array(a, len)) => {
            if let ExprKind::Ident(name) = &n.kind {
                out.insert(name.clone(), *len);
            }
            deduce(p, a, out);
        }
        _ => {}
    }
}
