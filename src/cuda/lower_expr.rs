//! Expressions (C++ [expr]): rvalues, lvalues in registers or memory, pointer arithmetic folded
//! into `[reg+imm]` addresses, short-circuit conditions as `setp` + `@%p bra`, `?:` as `selp`
//! when both arms are pure, and `a*b+c` contracted to `fma.rn`/`mad.lo` as nvcc does by default
//! (CUDA C++ Programming Guide, "Floating-Point Standard"; nvcc `--fmad=true`).

use super::ast::*;
use super::emit::{Addr, Base, Op, Val};
use super::error::{err, Pos, Res};
use super::lower::{Binding, Lower};
use super::types::{common, CType, Space, INT, UINT};
use super::values::is_compare;

/// A place that can be assigned.
#[derive(Debug, Clone)]
pub enum LVal {
    Reg(String, CType),
    Mem(Addr, CType, bool),
}

fn strip_mul(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => Some((a, b)),
        _ => None,
    }
}

impl Lower<'_> {
    /// Lowers `e` for its side effects.
    pub fn effect(&mut self, e: &Expr) -> Res<()> {
        match &e.kind {
            ExprKind::Unary(UnOp::PostInc, a) => {
                self.incdec(a, 1, true, e.pos)?;
            }
            ExprKind::Unary(UnOp::PostDec, a) => {
                self.incdec(a, -1, true, e.pos)?;
            }
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.effect(b)?;
            }
            _ => {
                self.rv(e)?;
            }
        }
        Ok(())
    }

    /// Whether `e` reads no memory and has no side effects (both arms of `?:` may run).
    pub fn pure(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::SizeofTy(_) => true,
            ExprKind::Ident(n) => {
                matches!(self.lookup(n), Some(Binding::Var(..) | Binding::Value(_)))
            }
            ExprKind::Member(a, _, _) => {
                matches!(&a.kind, ExprKind::Ident(n) if matches!(n.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim"))
            }
            ExprKind::Unary(op, a) => {
                matches!(op, UnOp::Neg | UnOp::Plus | UnOp::Not | UnOp::BitNot) && self.pure(a)
            }
            ExprKind::Binary(op, a, b) => {
                !matches!(op, BinOp::Div | BinOp::Rem) && self.pure(a) && self.pure(b)
            }
            ExprKind::Cond(a, b, c) => self.pure(a) && self.pure(b) && self.pure(c),
            ExprKind::Cast(_, a) => self.pure(a),
            _ => false,
        }
    }

    /// Whether `e` names a variable that some assignment changes.
    fn varies(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => self.mutated.contains(n),
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::Member(a, ..) => {
                self.varies(a)
            }
            ExprKind::Binary(_, a, b) => self.varies(a) || self.varies(b),
            ExprKind::Cond(a, b, c) => self.varies(a) || self.varies(b) || self.varies(c),
            _ => false,
        }
    }

    /// The static type of `e` (no code emitted).
    pub fn ty_of(&self, e: &Expr) -> Res<CType> {
        Ok(match &e.kind {
            ExprKind::Int(_, s) => CType::from_scalar(*s),
            ExprKind::Float(_, f) => {
                if *f {
                    CType::F32
                } else {
                    CType::F64
                }
            }
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Binding::Var(_, t)) | Some(Binding::Mem(_, t, _)) => t.clone(),
                Some(Binding::Value(v)) => v.ty.clone(),
                None if n == "warpSize" => INT,
                None => return err(e.pos, format!("use of undeclared identifier `{n}`")),
            },
            ExprKind::Member(a, f, arrow) => match &a.kind {
                ExprKind::Ident(n)
                    if matches!(
                        n.as_str(),
                        "threadIdx" | "blockIdx" | "blockDim" | "gridDim"
                    ) =>
                {
                    UINT
                }
                _ => {
                    let t = self.ty_of(a)?;
                    let t = if *arrow {
                        t.elem().cloned().unwrap_or(CType::Void)
                    } else {
                        t
                    };
                    match t {
                        CType::Struct(_, fields, _) => match fields.iter().find(|x| &x.0 == f) {
                            Some(x) => x.1.clone(),
                            None => return err(e.pos, format!("no member named `{f}`")),
                        },
                        _ => return err(e.pos, format!("member `{f}` of a non-struct")),
                    }
                }
            },
            ExprKind::Unary(op, a) => {
                let t = self.ty_of(a)?;
                match op {
                    UnOp::Not => CType::Bool,
                    UnOp::Neg | UnOp::Plus | UnOp::BitNot => t.promote(),
                    UnOp::Deref => t.elem().cloned().unwrap_or(CType::Void),
                    UnOp::AddrOf => {
                        let space = self.space_of(a).unwrap_or(Space::Generic);
                        CType::Ptr(Box::new(t), space, false)
                    }
                    _ => t,
                }
            }
            ExprKind::Binary(op, a, b) => {
                if is_compare(*op) || matches!(op, BinOp::And | BinOp::Or) {
                    return Ok(CType::Bool);
                }
                let (ta, tb) = (self.ty_of(a)?, self.ty_of(b)?);
                let decay = |t: CType, l: &Self, x: &Expr| match t {
                    CType::Array(el, _) => {
                        CType::Ptr(el, l.space_of(x).unwrap_or(Space::Generic), false)
                    }
                    t => t,
                };
                let (ta, tb) = (decay(ta, self, a), decay(tb, self, b));
                match (ta.is_ptr(), tb.is_ptr(), op) {
                    (true, true, _) => CType::Int(64, true),
                    (true, false, _) => ta,
                    (false, true, _) => tb,
                    (_, _, BinOp::Shl | BinOp::Shr) => ta.promote(),
                    _ => common(&ta, &tb),
                }
            }
            ExprKind::Assign(_, a, _) => self.ty_of(a)?,
            ExprKind::Cond(_, a, b) => {
                let (ta, tb) = (self.ty_of(a)?, self.ty_of(b)?);
                if ta.is_arith() && tb.is_arith() {
                    common(&ta, &tb)
                } else if let CType::Array(el, _) = ta {
                    CType::Ptr(el, self.space_of(a).unwrap_or(Space::Generic), false)
                } else {
                    ta
                }
            }
            ExprKind::Call(name, args, _) => self.call_type(name, args, e.pos)?,
            ExprKind::Index(a, _) => match self.ty_of(a)? {
                CType::Ptr(t, ..) | CType::Array(t, _) => *t,
                _ => return err(e.pos, "subscripted value is not an array or pointer"),
            },
            ExprKind::Cast(t, a) => {
                let to = self.resolve(t, e.pos)?;
                match (to, self.ty_of(a)?) {
                    (CType::Ptr(el, Space::Generic, v), CType::Ptr(_, s, _)) => {
                        CType::Ptr(el, s, v)
                    }
                    (CType::Ptr(el, Space::Generic, v), CType::Array(..)) => {
                        CType::Ptr(el, self.space_of(a).unwrap_or(Space::Generic), v)
                    }
                    (to, _) => to,
                }
            }
            ExprKind::SizeofTy(_) => CType::Int(64, false),
            ExprKind::Comma(_, b) => self.ty_of(b)?,
            ExprKind::List(_) => return err(e.pos, "unexpected initializer list"),
        })
    }

    /// The state space an lvalue or pointer expression refers to, when known statically.
    fn space_of(&self, e: &Expr) -> Option<Space> {
        match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n)? {
                Binding::Mem(a, ..) => Some(a.space),
                Binding::Var(_, CType::Ptr(_, s, _)) => Some(*s),
                Binding::Value(Val {
                    ty: CType::Ptr(_, s, _),
                    ..
                }) => Some(*s),
                _ => None,
            },
            ExprKind::Index(a, _) | ExprKind::Member(a, _, _) | ExprKind::Cast(_, a) => {
                self.space_of(a)
            }
            ExprKind::Unary(UnOp::Deref | UnOp::AddrOf, a) => self.space_of(a),
            ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
                self.space_of(a).or_else(|| self.space_of(b))
            }
            _ => None,
        }
    }

    /// The value of `e`.
    pub fn rv(&mut self, e: &Expr) -> Res<Val> {
        self.enter_expr(e.pos)?;
        let r = self.rv_inner(e);
        self.expr_depth -= 1;
        r
    }

    fn enter_expr(&mut self, pos: Pos) -> Res<()> {
        self.expr_depth += 1;
        if self.expr_depth > super::parser::MAX_NESTING {
            return err(pos, "the expression nests too deeply");
        }
        Ok(())
    }

    fn rv_inner(&mut self, e: &Expr) -> Res<Val> {
        let pos = e.pos;
        match &e.kind {
            ExprKind::Int(v, s) => {
                let ty = CType::from_scalar(*s);
                Ok(Val::int(super::values::wrap(*v as i64, &ty), ty))
            }
            ExprKind::Float(v, f) => Ok(Val {
                op: Op::F(if *f { *v as f32 as f64 } else { *v }),
                ty: if *f { CType::F32 } else { CType::F64 },
            }),
            ExprKind::Ident(n) => match self.lookup(n).cloned() {
                Some(Binding::Var(r, t)) => Ok(Val::reg(r, t)),
                Some(Binding::Value(v)) => Ok(v),
                Some(Binding::Mem(a, t, vol)) => self.load(&a, &t, vol),
                None if n == "warpSize" => Ok(Val::int(32, INT)),
                None => err(pos, format!("use of undeclared identifier `{n}`")),
            },
            ExprKind::Member(a, f, _) => {
                if let ExprKind::Ident(n) = &a.kind {
                    let sreg = match n.as_str() {
                        "threadIdx" => Some("tid"),
                        "blockIdx" => Some("ctaid"),
                        "blockDim" => Some("ntid"),
                        "gridDim" => Some("nctaid"),
                        _ => None,
                    };
                    if let Some(sreg) = sreg {
                        if !matches!(f.as_str(), "x" | "y" | "z") {
                            return err(
                                pos,
                                format!("`{n}` has no member `{f}` (expected x, y or z)"),
                            );
                        }
                        let r = self.body.reg("r");
                        self.body.ins(format!("mov.u32 \t{r}, %{sreg}.{f}"));
                        return Ok(Val::reg(r, UINT));
                    }
                }
                self.rv_lval(e)
            }
            ExprKind::Index(..) | ExprKind::Unary(UnOp::Deref, _) => self.rv_lval(e),
            ExprKind::Unary(op, a) => self.unary(*op, a, pos),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, None, pos),
            ExprKind::Assign(op, a, b) => self.assign(*op, a, b, pos),
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, pos),
            ExprKind::Call(name, args, targs) => self.call(name, args, targs, pos),
            ExprKind::Cast(t, a) => {
                let to = self.resolve(t, pos)?;
                if to == CType::Void {
                    self.effect(a)?;
                    return Ok(Val::int(0, CType::Void));
                }
                if let CType::Ptr(el, ..) = &to {
                    let at = self.ty_of(a)?;
                    if at.is_ptr() || matches!(at, CType::Array(..)) {
                        let (addr, _, _) = self.ptr(a)?;
                        return Ok(self.address_value(&addr, el));
                    }
                }
                let v = self.rv(a)?;
                self.convert(v, &to)
            }
            ExprKind::SizeofTy(t) => {
                let t = self.resolve(t, pos)?;
                Ok(Val::int(t.size() as i64, CType::Int(64, false)))
            }
            ExprKind::Comma(a, b) => {
                self.effect(a)?;
                self.rv(b)
            }
            ExprKind::List(_) => err(pos, "an initializer list is only allowed in a declaration"),
        }
    }

    fn rv_lval(&mut self, e: &Expr) -> Res<Val> {
        match self.lv(e)? {
            LVal::Reg(r, t) => Ok(Val::reg(r, t)),
            LVal::Mem(a, t, vol) => self.load(&a, &t, vol),
        }
    }

    /// The place `e` designates.
    pub fn lv(&mut self, e: &Expr) -> Res<LVal> {
        match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n).cloned() {
                Some(Binding::Var(r, t)) => Ok(LVal::Reg(r, t)),
                Some(Binding::Mem(a, t, vol)) => Ok(LVal::Mem(a, t, vol)),
                Some(Binding::Value(_)) => err(e.pos, format!("`{n}` cannot be assigned here")),
                None => err(e.pos, format!("use of undeclared identifier `{n}`")),
            },
            ExprKind::Index(a, i) => {
                let (addr, el, vol) = self.ptr(a)?;
                let addr = self.index_add(addr, &el, i, false)?;
                Ok(LVal::Mem(addr, el, vol))
            }
            ExprKind::Unary(UnOp::Deref, p) => {
                let (addr, el, vol) = self.ptr(p)?;
                Ok(LVal::Mem(addr, el, vol))
            }
            ExprKind::Member(a, f, arrow) => {
                let (addr, t, vol) = if *arrow {
                    self.ptr(a)?
                } else {
                    match self.lv(a)? {
                        LVal::Mem(addr, t, vol) => (addr, t, vol),
                        LVal::Reg(..) => return err(e.pos, "member of a non-struct"),
                    }
                };
                let CType::Struct(_, fields, _) = t else {
                    return err(e.pos, format!("member `{f}` of a non-struct"));
                };
                let Some((_, ft, off)) = fields.iter().find(|x| &x.0 == f) else {
                    return err(e.pos, format!("no member named `{f}`"));
                };
                Ok(LVal::Mem(
                    Addr {
                        off: addr.off + *off as i64,
                        ..addr
                    },
                    ft.clone(),
                    vol,
                ))
            }
            _ => err(e.pos, "expected an lvalue (a variable, an element or `*p`)"),
        }
    }

    /// The address a pointer or array expression designates, its element type and volatility.
    pub fn ptr(&mut self, e: &Expr) -> Res<(Addr, CType, bool)> {
        let t = self.ty_of(e)?;
        match (&e.kind, &t) {
            (ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b), _) if t.is_ptr() => {
                let ta = self.ty_of(a)?;
                let (p, i) = if ta.is_ptr() || matches!(ta, CType::Array(..)) {
                    (a, b)
                } else {
                    (b, a)
                };
                let (addr, el, vol) = self.ptr(p)?;
                let ti = self.ty_of(i)?;
                if !ti.is_int() {
                    return err(e.pos, "pointer arithmetic needs an integer");
                }
                let addr = self.index_add(addr, &el, i, *op == BinOp::Sub)?;
                return Ok((addr, el, vol));
            }
            (ExprKind::Unary(UnOp::AddrOf, x), _) => {
                return match self.lv(x)? {
                    LVal::Mem(a, t, vol) => Ok((a, t, vol)),
                    LVal::Reg(..) => err(
                        e.pos,
                        "taking the address of a local variable is not supported",
                    ),
                };
            }
            (ExprKind::Cast(_, x), CType::Ptr(el, _, vol)) => {
                let tx = self.ty_of(x)?;
                if tx.is_ptr() || matches!(tx, CType::Array(..)) {
                    let (a, _, v) = self.ptr(x)?;
                    return Ok((a, (**el).clone(), *vol || v));
                }
            }
            (_, CType::Array(el, _)) => {
                return match self.lv(e)? {
                    LVal::Mem(a, _, vol) => Ok((a, (**el).clone(), vol)),
                    LVal::Reg(..) => err(e.pos, "an array in a register"),
                };
            }
            _ => {}
        }
        let v = self.rv(e)?;
        let CType::Ptr(el, space, vol) = v.ty.clone() else {
            return err(e.pos, "expected a pointer or an array");
        };
        let v = self.materialize(v);
        Ok((
            Addr {
                base: Base::Reg(v.text()),
                off: 0,
                space,
            },
            *el,
            vol,
        ))
    }

    /// The constant part of an index: `i + 3` is (`i`, 3) when the address arithmetic may be
    /// regrouped (signed indices, whose overflow is undefined, or 32-bit addresses).
    fn split_index<'e>(&self, e: &'e Expr, narrow: bool) -> Res<(Option<&'e Expr>, i64)> {
        if let Ok(c) = self.const_int(e) {
            return Ok((None, c));
        }
        let ok = narrow || self.ty_of(e)?.is_signed();
        if ok {
            match &e.kind {
                ExprKind::Binary(BinOp::Add, a, b) => {
                    if let Ok(c) = self.const_int(b) {
                        let (v, k) = self.split_index(a, narrow)?;
                        return Ok((v, k.wrapping_add(c)));
                    }
                    if let Ok(c) = self.const_int(a) {
                        let (v, k) = self.split_index(b, narrow)?;
                        return Ok((v, k.wrapping_add(c)));
                    }
                }
                ExprKind::Binary(BinOp::Sub, a, b) => {
                    if let Ok(c) = self.const_int(b) {
                        let (v, k) = self.split_index(a, narrow)?;
                        return Ok((v, k.wrapping_sub(c)));
                    }
                }
                _ => {}
            }
        }
        Ok((Some(e), 0))
    }

    /// `addr + i * sizeof(el)` (or minus), the constant part folded into the offset.
    pub fn index_add(&mut self, mut addr: Addr, el: &CType, i: &Expr, negate: bool) -> Res<Addr> {
        let size = el.size() as i64;
        let narrow = addr.space.narrow();
        let (var, k) = self.split_index(i, narrow)?;
        let k = if negate { k.wrapping_neg() } else { k };
        addr.off = addr.off.wrapping_add(k.wrapping_mul(size));
        let Some(var) = var else { return Ok(addr) };
        // `(k + c) * m` as `k * m + c * m` (signed): `k * m` is shared by unrolled copies and
        // `c * m` leaves the loop.
        if let ExprKind::Binary(BinOp::Mul, p, q) = &var.kind {
            for (sum, m) in [(p, q), (q, p)] {
                if let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), x, c) = &sum.kind {
                    if self.const_int(c).is_ok()
                        && self.ty_of(var)?.is_signed()
                        && !self.loops.is_empty()
                        && self.pure(m)
                        && self.pure(x)
                    {
                        let mul = |a: &Expr, b: &Expr| Expr {
                            kind: ExprKind::Binary(
                                BinOp::Mul,
                                Box::new(a.clone()),
                                Box::new(b.clone()),
                            ),
                            pos: var.pos,
                        };
                        let e = Expr {
                            kind: ExprKind::Binary(*op, Box::new(mul(x, m)), Box::new(mul(c, m))),
                            pos: var.pos,
                        };
                        return self.index_add(addr, el, &e, negate);
                    }
                }
            }
        }
        // `p[x + y]` as `(p + x) + y` (signed indices or 32-bit addresses): a loop-invariant
        // `x` then moves out of the loop and `y * size` is shared with other accesses.
        if let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), x, y) = &var.kind {
            let ok = (narrow || self.ty_of(var)?.is_signed()) && !self.loops.is_empty();
            let both_int = self.ty_of(x)?.is_int() && self.ty_of(y)?.is_int();
            if ok && both_int && self.pure(x) && self.pure(y) {
                // The part no assignment changes first, so it can leave the loop.
                let y_negate = negate != (*op == BinOp::Sub);
                if self.varies(x) && !self.varies(y) {
                    let addr = self.index_add(addr, el, y, y_negate)?;
                    return self.index_add(addr, el, x, negate);
                }
                let addr = self.index_add(addr, el, x, negate)?;
                return self.index_add(addr, el, y, y_negate);
            }
        }
        let v = self.rv(var)?;
        let v = if v.ty.is_int() {
            v
        } else {
            return err(i.pos, "an array index must be an integer");
        };
        let v = if v.ty == CType::Bool {
            self.convert(v, &INT)?
        } else {
            v
        };
        let v = if negate {
            let z = Val::int(0, v.ty.promote());
            self.arith(BinOp::Sub, z, v, i.pos)?
        } else {
            v
        };
        let v = self.materialize(v);
        let scaled = if narrow {
            let signed = v.ty.is_signed();
            let v = self.convert(v, &CType::Int(32, signed))?;
            let v = self.materialize(v);
            if size == 1 {
                v.text()
            } else {
                let r = self.body.reg("r");
                if size.count_ones() == 1 {
                    self.body.ins(format!(
                        "shl.b32 \t{r}, {}, {}",
                        v.text(),
                        size.trailing_zeros()
                    ));
                } else {
                    self.body
                        .ins(format!("mul.lo.s32 \t{r}, {}, {size}", v.text()));
                }
                r
            }
        } else {
            let r = self.body.reg("rd");
            match &v.ty {
                CType::Int(64, _) if size.count_ones() == 1 => self.body.ins(format!(
                    "shl.b64 \t{r}, {}, {}",
                    v.text(),
                    size.trailing_zeros()
                )),
                CType::Int(64, _) => self
                    .body
                    .ins(format!("mul.lo.s64 \t{r}, {}, {size}", v.text())),
                t => {
                    let s = if t.is_signed() { "s32" } else { "u32" };
                    self.body
                        .ins(format!("mul.wide.{s} \t{r}, {}, {size}", v.text()))
                }
            }
            r
        };
        let (class, add, mov) = if narrow {
            ("r", "add.s32", "mov.u32")
        } else {
            ("rd", "add.s64", "mov.u64")
        };
        let base = match &addr.base {
            Base::Reg(r) => r.clone(),
            Base::Sym(s) => {
                let r = self.body.reg(class);
                self.body.ins(format!("{mov} \t{r}, {s}"));
                r
            }
        };
        let r = self.body.reg(class);
        self.body.ins(format!("{add} \t{r}, {base}, {scaled}"));
        addr.base = Base::Reg(r);
        Ok(addr)
    }

    fn unary(&mut self, op: UnOp, a: &Expr, pos: Pos) -> Res<Val> {
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
    fn incdec(&mut self, a: &Expr, delta: i64, pre: bool, pos: Pos) -> Res<Val> {
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
                delta * el.size() as i64
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
    fn put(&mut self, place: &LVal, v: Val) -> Val {
        match place {
            LVal::Reg(r, t) => {
                if let Op::Reg(tmp) = &v.op {
                    if !self.var_regs.contains(tmp)
                        && !self.var_regs.contains(&self.body.canonical(tmp))
                        && self.body.retarget_last(tmp, r)
                    {
                        return Val::reg(r.clone(), t.clone());
                    }
                }
                self.body
                    .ins(format!("mov.{} \t{r}, {}", t.mov(), v.text()));
                Val::reg(r.clone(), t.clone())
            }
            LVal::Mem(a, t, vol) => {
                self.store(a, t, *vol, v.clone());
                v
            }
        }
    }

    fn assign(&mut self, op: Option<BinOp>, a: &Expr, b: &Expr, pos: Pos) -> Res<Val> {
        let place = self.lv(a)?;
        let ty = match &place {
            LVal::Reg(_, t) | LVal::Mem(_, t, _) => t.clone(),
        };
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
    fn logical(&mut self, op: BinOp, a: &Expr, b: &Expr, pos: Pos) -> Res<Val> {
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

    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, pos: Pos) -> Res<Val> {
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

    fn branch_inner(&mut self, e: &Expr, when: bool, label: &str) -> Res<()> {
        if let Ok(k) = self.const_int(e) {
            if (k != 0) == when {
                self.body.ins(format!("bra.uni \t{label}"));
            }
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

    fn jump_if(&mut self, p: Val, label: &str) -> Res<()> {
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
