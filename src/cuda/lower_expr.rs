//! Expressions (C++ [expr]): rvalues, lvalues in registers or memory, pointer arithmetic folded
//! into `[reg+imm]` addresses, short-circuit conditions as `setp` + `@%p bra`, `?:` as `selp`
//! when both arms are pure, and `a*b+c` contracted to `fma.rn`/`mad.lo` as nvcc does by default
//! (CUDA C++ Programming Guide, "Floating-Point Standard"; nvcc `--fmad=true`).

use super::ast::*;
use super::emit::{Addr, Op, Val};
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
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(b) => matches!(b, Binding::Var(..) | Binding::Value(_)),
                None => n == "warpSize",
            },
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
    pub(crate) fn varies(&self, e: &Expr) -> bool {
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
                Some(Binding::RegArray(regs, el)) => {
                    CType::Array(Box::new(el.clone()), regs.len() as u64)
                }
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
    pub(crate) fn space_of(&self, e: &Expr) -> Option<Space> {
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

    pub(crate) fn enter_expr(&mut self, pos: Pos) -> Res<()> {
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
                Some(Binding::Var(r, t)) => Ok(match self.body.known(&r) {
                    Some(k) => Val::int(k, t),
                    None => Val::reg(r, t),
                }),
                Some(Binding::Value(v)) => Ok(v),
                Some(Binding::Mem(a, t, vol)) => self.load(&a, &t, vol),
                Some(Binding::RegArray(..)) => err(
                    pos,
                    format!("`{n}` is kept in registers: index it with constants"),
                ),
                // `WARP_SZ`, as nvcc writes it: the machine's warp size, not a literal 32.
                None if n == "warpSize" => {
                    let r = self.body.reg("r");
                    self.body.ins(format!("mov.u32 \t{r}, WARP_SZ"));
                    Ok(Val::reg(r, INT))
                }
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

    pub(crate) fn rv_lval(&mut self, e: &Expr) -> Res<Val> {
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
                Some(Binding::Value(_)) | Some(Binding::RegArray(..)) => {
                    err(e.pos, format!("`{n}` cannot be assigned here"))
                }
                None => err(e.pos, format!("use of undeclared identifier `{n}`")),
            },
            ExprKind::Index(a, i) => {
                if let ExprKind::Ident(n) = &a.kind {
                    if let Some(Binding::RegArray(regs, el)) = self.lookup(n).cloned() {
                        let k = self.const_int(i)?;
                        return match usize::try_from(k).ok().and_then(|k| regs.get(k)) {
                            Some(r) => Ok(LVal::Reg(r.clone(), el)),
                            None => err(i.pos, format!("index {k} is outside `{n}`")),
                        };
                    }
                }
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
            ExprKind::Call(..) => self.struct_result(e),
            _ => err(e.pos, "expected an lvalue (a variable, an element or `*p`)"),
        }
    }
}
