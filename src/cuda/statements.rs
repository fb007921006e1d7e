//! Statements (C++ [stmt]): `if`, loops in rotated form (a guard, the body, the condition
//! branching back), unrolled loops, `switch` as compare-and-branch chains, jumps, `return`.

use super::ast::*;
use super::emit::{Addr, Base, Val};
use super::error::{err, Pos, Res};
use super::lower::{Binding, Lower};
use super::types::{CType, Space};
use std::collections::{HashMap, HashSet};

/// How a loop is entered.
pub(crate) enum Entry {
    /// `do ... while`: the body runs first.
    Body,
    /// The condition is tested first.
    Guard,
    /// The condition is tested first, the named variable holding this constant.
    GuardWith(String, Val),
}

impl Lower<'_> {
    /// Lowers a statement.
    pub fn stmt(&mut self, s: &Stmt) -> Res<()> {
        match &s.kind {
            StmtKind::Decl(ds) => {
                for d in ds {
                    self.local_decl(d)?;
                }
            }
            StmtKind::Expr(e) => {
                self.body.loc(s.pos);
                self.effect(e)?;
            }
            StmtKind::If(c, t, e) => {
                self.body.loc(s.pos);
                if let Ok(v) = self.const_int_here(c) {
                    self.scoped(|l| {
                        if v != 0 {
                            l.stmt(t)
                        } else {
                            e.as_ref().map_or(Ok(()), |e| l.stmt(e))
                        }
                    })?;
                    return Ok(());
                }
                let lelse = self.body.label();
                let snap = self.body.snapshot();
                let none = HashSet::new();
                self.branch(c, false, &lelse)?;
                self.scoped(|l| l.stmt(t))?;
                if let Some(e) = e {
                    let lend = self.body.label();
                    self.body.ins(format!("bra.uni \t{lend}"));
                    self.body.place(&lelse);
                    self.body.restore(&snap, &none);
                    self.scoped(|l| l.stmt(e))?;
                    self.body.place(&lend);
                    self.body.restore(&snap, &none);
                } else {
                    self.body.place(&lelse);
                    self.body.restore(&snap, &none);
                }
            }
            StmtKind::For(init, cond, step, body) => {
                let hint = self.unit.unroll_hints.iter().find(|(p, _)| *p == s.pos);
                let plan = super::unroll::plan(
                    init.as_deref(),
                    cond.as_ref(),
                    step.as_ref(),
                    body,
                    &|e| self.const_int(e).ok(),
                )
                .filter(|_| !matches!(hint, Some((_, 1))));
                if let Some(plan) = plan {
                    return self.unrolled(
                        plan,
                        init.as_deref(),
                        cond.as_ref(),
                        step.as_ref(),
                        body,
                        s.pos,
                    );
                }
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                self.body.loc(s.pos);
                let entry = self.entry_value(init.as_deref());
                self.lower_loop(cond.as_ref(), step.as_ref(), body, entry, s.pos)?;
                self.scopes.pop();
            }
            StmtKind::While(c, body) => {
                self.body.loc(s.pos);
                self.lower_loop(Some(c), None, body, Entry::Guard, s.pos)?;
            }
            StmtKind::DoWhile(body, c) => {
                self.lower_loop(Some(c), None, body, Entry::Body, s.pos)?;
            }
            StmtKind::Break | StmtKind::Continue => {
                self.body.loc(s.pos);
                let brk = matches!(s.kind, StmtKind::Break);
                let target =
                    self.loops
                        .iter()
                        .rev()
                        .find_map(|(b, c)| if brk { Some(b.clone()) } else { c.clone() });
                match target {
                    Some(t) => self.body.ins(format!("bra.uni \t{t}")),
                    None => {
                        return err(
                            s.pos,
                            if brk {
                                "`break` outside a loop or switch"
                            } else {
                                "`continue` outside a loop"
                            },
                        )
                    }
                }
            }
            StmtKind::Return(e) => {
                self.body.loc(s.pos);
                let (_, exit, result) = self.calls.last().cloned().unwrap_or_default();
                match (e, result) {
                    (Some(e), Some((r, ty @ CType::Struct(..)))) => {
                        let buffer = Addr {
                            base: Base::Reg(r),
                            off: 0,
                            space: Space::Local,
                        };
                        self.init_struct(e, &ty, buffer)?;
                    }
                    (Some(e), Some((r, ty))) => {
                        let v = self.rv(e)?;
                        let v = self.assign_convert(v, &ty, e.pos)?;
                        self.write_reg(&r, &ty, &v);
                    }
                    (Some(e), None) => {
                        self.effect(e)?;
                    }
                    (None, Some(_)) => return err(s.pos, "expected a value after `return`"),
                    (None, None) => {}
                }
                self.body.ins(format!("bra.uni \t{exit}"));
            }
            StmtKind::Block(ss) => {
                self.scoped(|l| {
                    for s in ss {
                        l.stmt(s)?;
                    }
                    Ok(())
                })?;
            }
            StmtKind::Switch(c, body) => self.lower_switch(c, body, s.pos)?,
            StmtKind::Case(_) | StmtKind::Default => {
                let Some((labels, next, default)) = self.switches.last_mut() else {
                    return err(s.pos, "`case` outside a switch");
                };
                let l = if matches!(s.kind, StmtKind::Default) {
                    default.clone().unwrap_or_default()
                } else {
                    *next += 1;
                    labels.get(*next - 1).cloned().unwrap_or_default()
                };
                self.body.place(&l);
            }
            StmtKind::Empty => {}
        }
        Ok(())
    }

    pub fn scoped(&mut self, f: impl FnOnce(&mut Self) -> Res<()>) -> Res<()> {
        self.scopes.push(HashMap::new());
        let r = f(self);
        self.scopes.pop();
        r
    }

    /// The guard of a `for` loop whose `init` declares one integer variable with a constant
    /// value: the guard tests the condition on that constant (`for (int i = 0; i < 64; i++)`
    /// needs none, `i < n` becomes `n > 0`), as nvcc folds its loop preheaders.
    fn entry_value(&self, init: Option<&Stmt>) -> Entry {
        let Some(StmtKind::Decl(ds)) = init.map(|s| &s.kind) else {
            return Entry::Guard;
        };
        let [d] = ds.as_slice() else {
            return Entry::Guard;
        };
        let (Some(e), Some(Binding::Var(_, ty))) = (&d.init, self.lookup(&d.name)) else {
            return Entry::Guard;
        };
        match self.const_int(e) {
            Ok(v) if ty.is_int() && *ty != super::types::CType::Bool => Entry::GuardWith(
                d.name.clone(),
                Val::int(super::values::wrap(v, ty), ty.clone()),
            ),
            _ => Entry::Guard,
        }
    }

    /// A loop in rotated form: a guard, the body, the step, the condition branching back.
    pub(crate) fn lower_loop(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        entry: Entry,
        pos: Pos,
    ) -> Res<()> {
        let lend = self.body.label();
        let lcont = self.body.label();
        let lbody = self.body.label();
        let snap = self.body.snapshot();
        let konst = cond.map(|c| self.const_int(c).ok());
        let guard = !matches!(entry, Entry::Body);
        if let Entry::GuardWith(name, v) = &entry {
            self.scopes.push(HashMap::new());
            self.bind(name, Binding::Value(v.clone()));
        }
        let guarded = if guard {
            self.guard(cond, &lend)
        } else {
            Ok(true)
        };
        if let Entry::GuardWith(..) = entry {
            self.scopes.pop();
        }
        if !guarded? {
            return Ok(());
        }
        let header = self.body.lines.len();
        self.body.place(&lbody);
        let unstable = self.body.mutable.clone();
        self.body.restore(&snap, &unstable);
        self.loops.push((lend.clone(), Some(lcont.clone())));
        let r = self.scoped(|l| l.stmt(body));
        self.loops.pop();
        r?;
        self.body.place(&lcont);
        self.body.restore(&snap, &unstable);
        self.body.loc(pos);
        if let Some(st) = step {
            self.effect(st)?;
        }
        match (cond, konst) {
            (Some(c), Some(None)) => self.branch(c, true, &lbody)?,
            (_, Some(Some(0))) => {}
            _ => self.body.ins(format!("bra.uni \t{lbody}")),
        }
        let mutable = self.body.mutable.clone();
        self.body.hoist(header, &mutable);
        self.body.place(&lend);
        self.body.restore(&snap, &HashSet::new());
        Ok(())
    }

    /// Branches to `lend` unless `cond` holds on entry; false when it never does.
    fn guard(&mut self, cond: Option<&Expr>, lend: &str) -> Res<bool> {
        let Some(c) = cond else { return Ok(true) };
        match self.const_int(c) {
            Ok(0) => Ok(false),
            Ok(_) => Ok(true),
            Err(_) => self.branch(c, false, lend).map(|()| true),
        }
    }

    /// A loop unrolled as `plan` says (see [`super::unroll`]).
    pub(crate) fn unrolled(
        &mut self,
        plan: super::unroll::Plan,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        pos: Pos,
    ) -> Res<()> {
        use super::unroll::{shift_stmt, Plan};
        match plan {
            Plan::Full(var, values) => {
                for v in values {
                    self.scopes.push(HashMap::new());
                    self.bind(&var, Binding::Value(Val::int(v, super::types::INT)));
                    let r = self.scoped(|l| l.stmt(body));
                    self.scopes.pop();
                    r?;
                }
                Ok(())
            }
            Plan::ByFour(var, bound) => {
                self.scopes.push(HashMap::new());
                let r = (|| {
                    if let Some(i) = init {
                        self.stmt(i)?;
                    }
                    self.body.loc(pos);
                    let ident = Expr {
                        kind: ExprKind::Ident(var.clone()),
                        pos,
                    };
                    let int = |k: u64| Expr {
                        kind: ExprKind::Int(k, Scalar::Int(32, true)),
                        pos,
                    };
                    let cond4 = Expr {
                        kind: ExprKind::Binary(
                            BinOp::Lt,
                            Box::new(Expr {
                                kind: ExprKind::Binary(
                                    BinOp::Add,
                                    Box::new(ident.clone()),
                                    Box::new(int(3)),
                                ),
                                pos,
                            }),
                            Box::new(bound),
                        ),
                        pos,
                    };
                    let step4 = Expr {
                        kind: ExprKind::Assign(Some(BinOp::Add), Box::new(ident), Box::new(int(4))),
                        pos,
                    };
                    let copies: Vec<Stmt> = (0..4).map(|k| shift_stmt(body, &var, k)).collect();
                    let block = Stmt {
                        kind: StmtKind::Block(copies),
                        pos: body.pos,
                    };
                    let entry = self.entry_value(init);
                    self.lower_loop(Some(&cond4), Some(&step4), &block, entry, pos)?;
                    self.lower_loop(cond, step, body, Entry::Guard, pos)
                })();
                self.scopes.pop();
                r
            }
        }
    }

    pub(crate) fn lower_switch(&mut self, c: &Expr, body: &Stmt, pos: Pos) -> Res<()> {
        self.body.loc(pos);
        let v = self.rv(c)?;
        let ty = v.ty.promote();
        let v = self.convert(v, &ty)?;
        let v = self.materialize(v);
        let mut cases = Vec::new();
        let mut has_default = false;
        collect_cases(body, &mut cases, &mut has_default);
        let lend = self.body.label();
        let mut labels = Vec::new();
        for e in &cases {
            let k = self.const_int(e)?;
            let l = self.body.label();
            let p = self.body.reg("p");
            self.body
                .ins(format!("setp.eq.{} \t{p}, {}, {k}", ty.ptx(), v.text()));
            self.body.ins(format!("@{p} bra \t{l}"));
            labels.push(l);
        }
        let default = if has_default {
            Some(self.body.label())
        } else {
            None
        };
        self.body.ins(format!(
            "bra.uni \t{}",
            default.clone().unwrap_or(lend.clone())
        ));
        self.switches.push((labels, 0, default));
        self.loops.push((lend.clone(), None));
        let r = self.scoped(|l| l.stmt(body));
        self.loops.pop();
        self.switches.pop();
        r?;
        self.body.place(&lend);
        Ok(())
    }
}

fn collect_cases<'e>(s: &'e Stmt, out: &mut Vec<&'e Expr>, default: &mut bool) {
    match &s.kind {
        StmtKind::Case(e) => out.push(e),
        StmtKind::Default => *default = true,
        StmtKind::Block(ss) => ss.iter().for_each(|s| collect_cases(s, out, default)),
        StmtKind::If(_, a, b) => {
            collect_cases(a, out, default);
            b.iter().for_each(|b| collect_cases(b, out, default));
        }
        StmtKind::For(_, _, _, b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => {
            collect_cases(b, out, default)
        }
        _ => {}
    }
}
