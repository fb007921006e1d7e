//! Operators (C++ [expr.unary], [expr.mul] ... [expr.ass]): arithmetic with `fma`/`mad`
//! contraction, `++`/`--`, assignment into registers or memory, `&&`/`||`, `?:`, and conditions
//! as branches.

use super::ast::*;
use super::emit::{Addr, Base, Op, Val};
use super::error::{err, Pos, Res};
use super::lower::Lower;
use super::lower_expr::LVal;
use super::types::{common, CType, Space, INT};
use super::values::is_compare;

fn strip_mul(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => Some((a, b)),
        _ => None,
    }
}

impl Lower<'_> {
    pub(crate) fn unary(&mut self, op: UnOp, a: &Expr, pos: Pos) -> Res<Val> {
        match op {
            UnOp::Plus => {
                let v = self.rv(a)?;
                let t = v.ty.promote();
                self.convert(v, &t)
            }
            UnOp::Neg => {
                let v = self.rv(a)?;
                let t = v.ty.promote();
                let v = self.convert(v, &t)?;
                match v.op {
                    Op::I(i) => Ok(Val::int(super::values::wrap(i.wrapping_neg(), &t), t)),
                    Op::F(f) => Ok(Val {
                        op: Op::F(-f),
                        ty: t,
                    }),
                    Op::Reg(_) => {
                        let r = self.body.reg_for(&t);
                        let ty = if t.is_float() {
                            t.ptx()
                        } else if t.size() == 8 {
                            "s64"
                        } else {
                            "s32"
                        };
                        self.body.ins(format!("neg.{ty} \t{r}, {}", v.text()));
                        Ok(Val::reg(r, t))
                    }
                }
            }
            UnOp::BitNot => {
                let v = self.rv(a)?;
                let t = v.ty.promote();
                let v = self.convert(v, &t)?;
                if !t.is_int() {
                    return err(pos, "`~` needs an integer");
                }
                if let Op::I(i) = v.op {
                    return Ok(Val::int(super::values::wrap(!i, &t), t));
                }
                let r = self.body.reg_for(&t);
                self.body
                    .ins(format!("not.{} \t{r}, {}", t.bits(), v.text()));
                Ok(Val::reg(r, t))
            }
            UnOp::Not => {
                let v = self.rv(a)?;
                let p = self.to_pred(v);
                if let Op::I(i) = p.op {
                    return Ok(Val::int((i == 0) as i64, CType::Bool));
                }
                let r = self.body.reg("p");
                self.body.ins(format!("not.pred \t{r}, {}", p.text()));
                Ok(Val::reg(r, CType::Bool))
            }
            UnOp::AddrOf => {
                let (addr, el, _) = self.ptr(&Expr {
                    kind: ExprKind::Unary(UnOp::AddrOf, Box::new(a.clone())),
                    pos,
                })?;
                Ok(self.address_value(&addr, &el))
            }
            UnOp::Deref => self.rv_lval(&Expr {
                kind: ExprKind::Unary(UnOp::Deref, Box::new(a.clone())),
                pos,
            }),
            UnOp::PreInc => self.incdec(a, 1, true, pos),
            UnOp::PreDec => self.incdec(a, -1, true, pos),
            UnOp::PostInc => self.incdec(a, 1, false, pos),
            UnOp::PostDec => self.incdec(a, -1, false, pos),
        }
    }

    /// `++`/`--`: returns the new value (`pre`) or the old one.
    pub(crate) fn incdec(&mut self, a: &Expr, delta: i64, pre: bool, pos: Pos) -> Res<Val> {
        let place = self.lv(a)?;
        let (old, ty) = match &place {
            LVal::Reg(r, t) => (Val::reg(r.clone(), t.clone()), t.clone()),
            LVal::Mem(addr, t, vol) => (self.load(addr, t, *vol)?, t.clone()),
        };
        let kept = if pre || matches!(place, LVal::Mem(..)) {
            old.clone()
        } else {
            let r = self.body.reg_for(&ty);
            self.body
                .ins(format!("mov.{} \t{r}, {}", ty.mov(), old.text()));
            Val::reg(r, ty.clone())
        };
        let new = if let CType::Ptr(el, ..) = &ty {
            let r = self.body.reg_for(&ty);
            let add = if ty.size() == 8 { "add.s64" } else { "add.s32" };
            self.body.ins(format!(
                "{add} \t{r}, {}, {}",
                old.text(),
                delta.wrapping_mul(el.size() as i64)
            ));
            Val::reg(r, ty.clone())
        } else {
            let one = if ty.is_float() {
                Val {
                    op: Op::F(delta as f64),
                    ty: ty.clone(),
                }
            } else {
                Val::int(delta, INT)
            };
            let v = self.arith(BinOp::Add, old, one, pos)?;
            self.assign_convert(v, &ty, pos)?
        };
        let new = self.put(&place, new);
        Ok(if pre { new } else { kept })
    }

    /// Writes `v` (of the place's type) to `place`; returns the value now held.
    /// Writes `v` (of type `t`) into the register `r`: the instruction that computed a
    /// temporary is made to write `r` itself, anything else is a `mov`; an integer constant is
    /// remembered as `r`'s known value. Returns the value `r` now holds.
    pub(crate) fn write_reg(&mut self, r: &str, t: &CType, v: &Val) -> Val {
        if let Op::Reg(tmp) = &v.op {
            if !self.var_regs.contains(tmp)
                && !self.var_regs.contains(&self.body.canonical(tmp))
                && self.body.retarget_last(tmp, r)
            {
                return Val::reg(r.to_string(), t.clone());
            }
        }
        self.body
            .ins(format!("mov.{} \t{r}, {}", t.mov(), v.text()));
        if let (Some(k), true) = (v.konst_int(), t.is_int()) {
            self.body.set_known(r, k);
            return Val::int(k, t.clone());
        }
        Val::reg(r.to_string(), t.clone())
    }

    pub(crate) fn put(&mut self, place: &LVal, v: Val) -> Val {
        match place {
            LVal::Reg(r, t) => self.write_reg(r, t, &v),
            LVal::Mem(a, t, vol) => {
                self.store(a, t, *vol, v.clone());
                v
            }
        }
    }

    pub(crate) fn assign(&mut self, op: Option<BinOp>, a: &Expr, b: &Expr, pos: Pos) -> Res<Val> {
        let place = self.lv(a)?;
        let ty = match &place {
            LVal::Reg(_, t) | LVal::Mem(_, t, _) => t.clone(),
        };
        if let (None, LVal::Mem(dst, CType::Struct(..), _)) = (op, &place) {
            let src = self.struct_source(b)?;
            self.copy_value(dst, &src, &ty)?;
            return Ok(Val::int(0, CType::Void));
        }
        let v = match op {
            None => self.rv(b)?,
            Some(op) => {
                let old = match &place {
                    LVal::Reg(r, t) => Val::reg(r.clone(), t.clone()),
                    LVal::Mem(addr, t, vol) => self.load(addr, t, *vol)?,
                };
                if let (CType::Ptr(el, ..), BinOp::Add | BinOp::Sub) = (&ty, op) {
                    let addr = Addr {
                        base: Base::Reg(self.reg_text(old)),
                        off: 0,
                        space: ty_space(&ty),
                    };
                    let addr = self.index_add(addr, el, b, op == BinOp::Sub)?;
                    self.address_value(&addr, el)
                } else {
                    self.binary(op, a, b, Some(old), pos)?
                }
            }
        };
        let v = self.assign_convert(v, &ty, pos)?;
        Ok(self.put(&place, v))
    }

    /// `a op b`; `a_val` replaces the value of `a` (compound assignment).
    pub fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        a_val: Option<Val>,
        pos: Pos,
    ) -> Res<Val> {
        if matches!(op, BinOp::And | BinOp::Or) {
            return self.logical(op, a, b, pos);
        }
        // Pointer arithmetic and comparisons.
        if a_val.is_none() && matches!(op, BinOp::Add | BinOp::Sub) {
            let (ta, tb) = (self.ty_of(a)?, self.ty_of(b)?);
            let pa = ta.is_ptr() || matches!(ta, CType::Array(..));
            let pb = tb.is_ptr() || matches!(tb, CType::Array(..));
            if pa && pb && op == BinOp::Sub {
                let size = ta.elem().map_or(1, |t| t.size()) as i64;
                let x = self.rv(a)?;
                let y = self.rv(b)?;
                let x = self.convert(x, &CType::Int(64, true))?;
                let y = self.convert(y, &CType::Int(64, true))?;
                let d = self.arith(BinOp::Sub, x, y, pos)?;
                return self.arith(BinOp::Div, d, Val::int(size, CType::Int(64, true)), pos);
            }
            if pa || pb {
                let e = Expr {
                    kind: ExprKind::Binary(op, Box::new(a.clone()), Box::new(b.clone())),
                    pos,
                };
                let (addr, el, _) = self.ptr(&e)?;
                return Ok(self.address_value(&addr, &el));
            }
        }
        // Contraction: a*b + c, c + a*b, a*b - c, c - a*b.
        if matches!(op, BinOp::Add | BinOp::Sub) {
            let mul_a = if a_val.is_none() { strip_mul(a) } else { None };
            let mul_b = strip_mul(b);
            if let Some((x, y, other, mul_first)) = match (mul_a, mul_b) {
                (Some((x, y)), _) => Some((x, y, None, true)),
                (None, Some((x, y))) => Some((x, y, a_val.clone(), false)),
                _ => None,
            } {
                let (tx, ty) = (self.ty_of(x)?, self.ty_of(y)?);
                if tx.is_arith()
                    && ty.is_arith()
                    && !(self.const_int(x).is_ok() && self.const_int(y).is_ok())
                {
                    let mt = common(&tx, &ty);
                    let other_e = if mul_first { b } else { a };
                    let to = match &other {
                        Some(v) => v.ty.clone(),
                        None => self.ty_of(other_e)?,
                    };
                    let rt = common(&mt, &to);
                    let contract = rt == mt
                        && matches!(
                            rt,
                            CType::F32 | CType::F64 | CType::Int(32, _) | CType::Int(64, _)
                        )
                        // nvcc contracts `a*b + c`, not `a*b - c` nor `c - a*b` (its DCT
                        // code keeps those as mul and sub).
                        && op == BinOp::Add;
                    if contract && to.is_arith() {
                        let xv = self.rv(x)?;
                        let yv = self.rv(y)?;
                        let ov = match other {
                            Some(v) => v,
                            None => self.rv(other_e)?,
                        };
                        let xv = self.convert(xv, &rt)?;
                        let yv = self.convert(yv, &rt)?;
                        let ov = self.convert(ov, &rt)?;
                        // `x*1 + c`, `x*0 + c`, `x*y + 0` on integers: no `mad`.
                        let trivial = |v: &Val| matches!(v.konst_int(), Some(0 | 1));
                        if rt.is_int()
                            && (trivial(&xv) || trivial(&yv) || ov.konst_int() == Some(0))
                        {
                            let m = self.arith(BinOp::Mul, xv, yv, pos)?;
                            return if mul_first {
                                self.arith(op, m, ov, pos)
                            } else {
                                self.arith(op, ov, m, pos)
                            };
                        }
                        if let Some(m) = super::values::fold(BinOp::Mul, &xv, &yv, &rt) {
                            return if mul_first {
                                self.arith(op, m, ov, pos)
                            } else {
                                self.arith(op, ov, m, pos)
                            };
                        }
                        let neg = |l: &mut Self, v: Val| -> Res<Val> {
                            let z = Val {
                                op: Op::F(0.0),
                                ty: v.ty.clone(),
                            };
                            if let Op::F(f) = v.op {
                                return Ok(Val {
                                    op: Op::F(-f),
                                    ty: v.ty,
                                });
                            }
                            let r = l.body.reg_for(&v.ty);
                            let _ = z;
                            l.body
                                .ins(format!("neg.{} \t{r}, {}", v.ty.ptx(), v.text()));
                            Ok(Val::reg(r, v.ty))
                        };
                        let (xv, ov) = match (op, mul_first) {
                            (BinOp::Sub, true) => (xv, neg(self, ov)?),
                            (BinOp::Sub, false) => (neg(self, xv)?, ov),
                            _ => (xv, ov),
                        };
                        let (xv, yv) = if xv.is_const() { (yv, xv) } else { (xv, yv) };
                        let xv = self.materialize(xv);
                        let r = self.body.reg_for(&rt);
                        let name = if rt.is_float() {
                            format!("fma.rn.{}", rt.ptx())
                        } else {
                            format!("mad.lo.{}", rt.ptx())
                        };
                        self.body.ins(format!(
                            "{name} \t{r}, {}, {}, {}",
                            xv.text(),
                            yv.text(),
                            ov.text()
                        ));
                        return Ok(Val::reg(r, rt));
                    }
                }
            }
        }
        let av = match a_val {
            Some(v) => v,
            None => self.rv(a)?,
        };
        let bv = self.rv(b)?;
        if av.ty.is_ptr() || bv.ty.is_ptr() {
            if is_compare(op) {
                let t = CType::Int(64, false);
                let av = self.convert(av, &t)?;
                let bv = self.convert(bv, &t)?;
                return self.arith(op, av, bv, pos);
            }
            return err(pos, "invalid operands to a binary operator on pointers");
        }
        self.arith(op, av, bv, pos)
    }

    /// `&&` and `||` as values: predicates combined when both sides are pure, else branches.
    pub(crate) fn logical(&mut self, op: BinOp, a: &Expr, b: &Expr, pos: Pos) -> Res<Val> {
        if self.pure(b) {
            let x = self.rv(a)?;
            let x = self.to_pred(x);
            let y = self.rv(b)?;
            let y = self.to_pred(y);
            if let (Some(i), Some(j)) = (x.konst_int(), y.konst_int()) {
                let v = if op == BinOp::And {
                    i != 0 && j != 0
                } else {
                    i != 0 || j != 0
                };
                return Ok(Val::int(v as i64, CType::Bool));
            }
            let x = self.materialize(x);
            let y = self.materialize(y);
            let r = self.body.reg("p");
            let name = if op == BinOp::And { "and" } else { "or" };
            self.body
                .ins(format!("{name}.pred \t{r}, {}, {}", x.text(), y.text()));
            return Ok(Val::reg(r, CType::Bool));
        }
        let e = Expr {
            kind: ExprKind::Binary(op, Box::new(a.clone()), Box::new(b.clone())),
            pos,
        };
        let r = self.body.reg("p");
        let end = self.body.label();
        self.body.ins(format!("mov.pred \t{r}, 0"));
        self.branch(&e, false, &end)?;
        self.body.ins(format!("mov.pred \t{r}, 1"));
        self.body.place(&end);
        Ok(Val::reg(r, CType::Bool))
    }

    pub(crate) fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, pos: Pos) -> Res<Val> {
        if let Ok(k) = self.const_int(c) {
            return self.rv(if k != 0 { a } else { b });
        }
        let (ta, tb) = (self.ty_of(a)?, self.ty_of(b)?);
        let ty = if ta.is_arith() && tb.is_arith() {
            common(&ta, &tb)
        } else if let CType::Array(el, _) = &ta {
            CType::Ptr(
                el.clone(),
                self.space_of(a).unwrap_or(Space::Generic),
                false,
            )
        } else {
            ta.clone()
        };
        if self.pure(a) && self.pure(b) && ty != CType::Bool {
            let p = self.rv(c)?;
            let p = self.to_pred(p);
            let x = self.rv(a)?;
            let x = self.convert(x, &ty)?;
            let y = self.rv(b)?;
            let y = self.convert(y, &ty)?;
            let p = self.materialize(p);
            let r = self.body.reg_for(&ty);
            let t = if ty.is_float() { ty.ptx() } else { ty.bits() };
            self.body.ins(format!(
                "selp.{t} \t{r}, {}, {}, {}",
                x.text(),
                y.text(),
                p.text()
            ));
            return Ok(Val::reg(r, ty));
        }
        let r = self.body.reg_for(&ty);
        let lelse = self.body.label();
        let snap = self.body.snapshot();
        let none = std::collections::HashSet::new();
        let lend = self.body.label();
        self.branch(c, false, &lelse)?;
        let x = self.rv(a)?;
        let x = self.assign_convert(x, &ty, pos)?;
        let mut ty_out = ty.clone();
        if let CType::Ptr(..) = x.ty {
            ty_out = x.ty.clone();
        }
        self.body
            .ins(format!("mov.{} \t{r}, {}", ty.mov(), x.text()));
        self.body.ins(format!("bra.uni \t{lend}"));
        self.body.place(&lelse);
        self.body.restore(&snap, &none);
        let y = self.rv(b)?;
        let y = self.assign_convert(y, &ty, pos)?;
        self.body
            .ins(format!("mov.{} \t{r}, {}", ty.mov(), y.text()));
        self.body.place(&lend);
        self.body.restore(&snap, &none);
        Ok(Val::reg(r, ty_out))
    }

    /// Jumps to `label` when `e` is `when`; falls through otherwise.
    pub fn branch(&mut self, e: &Expr, when: bool, label: &str) -> Res<()> {
        self.enter_expr(e.pos)?;
        let r = self.branch_inner(e, when, label);
        self.expr_depth -= 1;
        r
    }

    pub(crate) fn branch_inner(&mut self, e: &Expr, when: bool, label: &str) -> Res<()> {
        if let Ok(k) = self.const_int(e) {
            if (k != 0) == when {
                self.body.ins(format!("bra.uni \t{label}"));
            }
            return Ok(());
        }
        if self.range_branch(e, when, label)? {
            return Ok(());
        }
        match &e.kind {
            ExprKind::Unary(UnOp::Not, a) => return self.branch(a, !when, label),
            // Pure operands combine as predicates (`and.pred`) and branch once: fewer places
            // for a warp to diverge, as nvcc does for cheap conditions.
            ExprKind::Binary(BinOp::And | BinOp::Or, a, b) if self.pure(a) && self.pure(b) => {}
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let is_and = *op == BinOp::And;
                if when != is_and {
                    // && jumping when false, || jumping when true: either side decides.
                    self.branch(a, when, label)?;
                    return self.branch(b, when, label);
                }
                let skip = self.body.label();
                self.branch(a, !when, &skip)?;
                self.branch(b, when, label)?;
                self.body.place(&skip);
                return Ok(());
            }
            ExprKind::Binary(op, a, b) if is_compare(*op) => {
                let av = self.rv(a)?;
                let bv = self.rv(b)?;
                let (av, bv) = if av.ty.is_ptr() || bv.ty.is_ptr() {
                    let t = CType::Int(64, false);
                    (self.convert(av, &t)?, self.convert(bv, &t)?)
                } else {
                    let t = common(&av.ty, &bv.ty);
                    (self.convert(av, &t)?, self.convert(bv, &t)?)
                };
                let p = self.compare(*op, av, bv, !when);
                return self.jump_if(p, label);
            }
            _ => {}
        }
        let v = self.rv(e)?;
        let p = self.to_pred(v);
        if when {
            self.jump_if(p, label)
        } else {
            if let Some(k) = p.konst_int() {
                if k == 0 {
                    self.body.ins(format!("bra.uni \t{label}"));
                }
                return Ok(());
            }
            self.body.ins(format!("@!{} bra \t{label}", p.text()));
            Ok(())
        }
    }

    pub(crate) fn jump_if(&mut self, p: Val, label: &str) -> Res<()> {
        match p.konst_int() {
            Some(0) => {}
            Some(_) => self.body.ins(format!("bra.uni \t{label}")),
            None => self.body.ins(format!("@{} bra \t{label}", p.text())),
        }
        Ok(())
    }
}

fn ty_space(t: &CType) -> Space {
    match t {
        CType::Ptr(_, s, _) => *s,
        _ => Space::Generic,
    }
}
