//! Addresses (C++ [expr.add], [expr.sub]; PTX ISA §6.4.1 "Addresses as Operands"): pointer
//! and array expressions to `[base+offset]`, constant index parts folded into the offset and
//! loop-invariant parts added first so they leave loops.

use super::ast::*;
use super::emit::{Addr, Base, Val};
use super::error::{err, Res};
use super::lower::Lower;
use super::lower_expr::LVal;
use super::types::{CType, INT};

impl Lower<'_> {
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
    pub(crate) fn split_index<'e>(
        &self,
        e: &'e Expr,
        narrow: bool,
    ) -> Res<(Option<&'e Expr>, i64)> {
        if let Ok(c) = self.const_int_here(e) {
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
}
