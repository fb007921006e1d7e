//! Values in registers: C's conversions as PTX `cvt`/`selp`/`setp` (C++ [conv]; PTX ISA §9.7.9
//! "cvt"), arithmetic with constant folding (§9.7.1-3), loads and stores in their state space
//! (§9.7.9.8 "ld", §9.7.9.9 "st").

use super::ast::BinOp;
use super::emit::{float_text, Addr, Base, Op, Val};
use super::error::{err, Pos, Res};
use super::lower::Lower;
use super::types::{common, CType, Space, INT};

/// `v` wrapped to the width and signedness of `ty`.
pub fn wrap(v: i64, ty: &CType) -> i64 {
    match ty {
        CType::Bool => (v != 0) as i64,
        CType::Int(64, _) => v,
        CType::Int(b, true) => (v << (64 - b)) >> (64 - b),
        CType::Int(b, false) => v & ((1i64 << b) - 1),
        CType::Ptr(_, s, _) if s.narrow() => v & 0xffff_ffff,
        _ => v,
    }
}

fn cmp_name(op: BinOp, ty: &CType, negate: bool) -> &'static str {
    let float = ty.is_float();
    let unsigned = !ty.is_signed() && !float;
    let op = if negate {
        match op {
            BinOp::Lt => BinOp::Ge,
            BinOp::Ge => BinOp::Lt,
            BinOp::Gt => BinOp::Le,
            BinOp::Le => BinOp::Gt,
            BinOp::Eq => BinOp::Ne,
            _ => BinOp::Eq,
        }
    } else {
        op
    };
    match (op, float && negate, unsigned) {
        (BinOp::Lt, true, _) => "ltu",
        (BinOp::Ge, true, _) => "geu",
        (BinOp::Gt, true, _) => "gtu",
        (BinOp::Le, true, _) => "leu",
        (BinOp::Ne, true, _) => "neu",
        (BinOp::Lt, _, true) => "lo",
        (BinOp::Le, _, true) => "ls",
        (BinOp::Gt, _, true) => "hi",
        (BinOp::Ge, _, true) => "hs",
        (BinOp::Lt, ..) => "lt",
        (BinOp::Le, ..) => "le",
        (BinOp::Gt, ..) => "gt",
        (BinOp::Ge, ..) => "ge",
        (BinOp::Eq, ..) => "eq",
        _ => {
            if float {
                "neu"
            } else {
                "ne"
            }
        }
    }
}

fn mirror(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Gt => BinOp::Lt,
        BinOp::Le => BinOp::Ge,
        BinOp::Ge => BinOp::Le,
        o => o,
    }
}

pub fn is_compare(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

impl Lower<'_> {
    /// `v` in a register.
    pub fn materialize(&mut self, v: Val) -> Val {
        if !v.is_const() {
            return v;
        }
        let r = self.body.reg_for(&v.ty);
        self.body
            .ins(format!("mov.{} \t{r}, {}", v.ty.mov(), v.text()));
        Val::reg(r, v.ty)
    }

    /// A register holding `v`, as text.
    pub fn reg_text(&mut self, v: Val) -> String {
        self.materialize(v).text()
    }

    /// `v` as a predicate (C's "compare unequal to 0").
    pub fn to_pred(&mut self, v: Val) -> Val {
        if v.ty == CType::Bool {
            return v;
        }
        match v.op {
            Op::I(i) => return Val::int((i != 0) as i64, CType::Bool),
            Op::F(f) => return Val::int((f != 0.0) as i64, CType::Bool),
            _ => {}
        }
        let p = self.body.reg("p");
        let (cmp, zero) = if v.ty.is_float() {
            ("neu", float_text(0.0, &v.ty))
        } else {
            ("ne", "0".to_string())
        };
        let t = if v.ty.is_int() {
            v.ty.promote().ptx()
        } else {
            v.ty.ptx()
        };
        self.body
            .ins(format!("setp.{cmp}.{t} \t{p}, {}, {zero}", v.text()));
        Val::reg(p, CType::Bool)
    }

    /// Assignment conversion: like [`Lower::convert`], refusing structs.
    pub fn assign_convert(&mut self, v: Val, to: &CType, pos: Pos) -> Res<Val> {
        if matches!(to, CType::Struct(..) | CType::Array(..)) || matches!(v.ty, CType::Struct(..)) {
            return err(pos, "struct and array assignment is not supported");
        }
        if v.ty == CType::Void {
            return err(pos, "a void value is not ignored as it ought to be");
        }
        self.convert(v, to)
    }

    /// C's conversion of `v` to `to`.
    pub fn convert(&mut self, v: Val, to: &CType) -> Res<Val> {
        if v.ty == *to {
            return Ok(v);
        }
        let from = v.ty.clone();
        if let Op::I(i) = v.op {
            return Ok(match to {
                CType::F32 | CType::F64 => {
                    let f = if from.is_signed() || from.size() < 8 {
                        i as f64
                    } else {
                        i as u64 as f64
                    };
                    Val {
                        op: Op::F(if *to == CType::F32 {
                            f as f32 as f64
                        } else {
                            f
                        }),
                        ty: to.clone(),
                    }
                }
                _ => Val::int(wrap(i, to), to.clone()),
            });
        }
        if let Op::F(f) = v.op {
            return Ok(match to {
                CType::F32 => Val {
                    op: Op::F(f as f32 as f64),
                    ty: to.clone(),
                },
                CType::F64 => Val {
                    op: Op::F(f),
                    ty: to.clone(),
                },
                CType::Bool => Val::int((f != 0.0) as i64, CType::Bool),
                CType::Int(64, false) => Val::int(f as u64 as i64, to.clone()),
                _ => Val::int(wrap(f as i64, to), to.clone()),
            });
        }
        let src = v.text();
        let out = |l: &mut Self, t: &CType, text: String| {
            let r = l.body.reg_for(t);
            l.body.ins(text.replace("{d}", &r));
            Val::reg(r, t.clone())
        };
        Ok(match (&from, to) {
            (_, CType::Bool) => self.to_pred(v),
            (CType::Bool, CType::F32 | CType::F64) => {
                let one = float_text(1.0, to);
                let zero = float_text(0.0, to);
                out(
                    self,
                    to,
                    format!("selp.{} \t{{d}}, {one}, {zero}, {src}", to.ptx()),
                )
            }
            (CType::Bool, _) => {
                let t = if to.size() == 8 {
                    CType::Int(64, false)
                } else {
                    INT
                };
                let r = out(self, &t, format!("selp.{} \t{{d}}, 1, 0, {src}", t.bits()));
                Val {
                    ty: to.clone(),
                    ..r
                }
            }
            (CType::Int(fb, fs), CType::Int(tb, ts)) => {
                let (fb, tb) = (*fb, *tb);
                if fb <= 32 && tb <= 32 {
                    if tb == 32 || (tb > fb && (!fs || *ts)) {
                        Val {
                            ty: to.clone(),
                            ..v
                        }
                    } else {
                        self.narrow(v, to)
                    }
                } else if fb <= 32 {
                    let s = if *fs { "s" } else { "u" };
                    out(self, to, format!("cvt.{s}64.{s}32 \t{{d}}, {src}"))
                } else if tb <= 32 {
                    let r = out(
                        self,
                        &CType::Int(32, *ts),
                        format!("cvt.u32.u64 \t{{d}}, {src}"),
                    );
                    if tb < 32 {
                        self.narrow(r, to)
                    } else {
                        r
                    }
                } else {
                    Val {
                        ty: to.clone(),
                        ..v
                    }
                }
            }
            (CType::Int(fb, fs), CType::F32 | CType::F64) => {
                let s = format!(
                    "{}{}",
                    if *fs { "s" } else { "u" },
                    if *fb == 64 { 64 } else { 32 }
                );
                out(self, to, format!("cvt.rn.{}.{s} \t{{d}}, {src}", to.ptx()))
            }
            (CType::F32 | CType::F64, CType::Int(tb, ts)) => {
                let s = format!(
                    "{}{}",
                    if *ts { "s" } else { "u" },
                    if *tb == 64 { 64 } else { 32 }
                );
                let t = if *tb == 64 {
                    to.clone()
                } else {
                    CType::Int(32, *ts)
                };
                let r = out(
                    self,
                    &t,
                    format!("cvt.rzi.{s}.{} \t{{d}}, {src}", from.ptx()),
                );
                if *tb < 32 {
                    self.narrow(r, to)
                } else {
                    Val {
                        ty: to.clone(),
                        ..r
                    }
                }
            }
            (CType::F32, CType::F64) => out(self, to, format!("cvt.f64.f32 \t{{d}}, {src}")),
            (CType::F64, CType::F32) => out(self, to, format!("cvt.rn.f32.f64 \t{{d}}, {src}")),
            (CType::Ptr(_, fs, _), CType::Ptr(t, ts, vol)) => {
                let space = if *ts == Space::Generic { *fs } else { *ts };
                Val {
                    ty: CType::Ptr(t.clone(), space, *vol),
                    ..v
                }
            }
            (CType::Int(..), CType::Ptr(..)) => {
                let w = self.convert(v, &CType::Int(64, false))?;
                Val {
                    ty: to.clone(),
                    ..w
                }
            }
            (CType::Ptr(_, s, _), CType::Int(..)) => {
                let w = CType::Int(if s.narrow() { 32 } else { 64 }, false);
                let v = Val { ty: w, ..v };
                self.convert(v, to)?
            }
            _ => return err(Pos::default(), "unsupported conversion"),
        })
    }

    /// A 32-bit register value truncated to an 8- or 16-bit type (kept widened in 32 bits).
    fn narrow(&mut self, v: Val, to: &CType) -> Val {
        let CType::Int(b, signed) = to else { return v };
        let r = self.body.reg("r");
        if *signed {
            let t = self.body.reg("r");
            self.body
                .ins(format!("shl.b32 \t{t}, {}, {}", v.text(), 32 - b));
            self.body.ins(format!("shr.s32 \t{r}, {t}, {}", 32 - b));
        } else {
            self.body
                .ins(format!("and.b32 \t{r}, {}, {}", v.text(), (1u64 << b) - 1));
        }
        Val::reg(r, to.clone())
    }

    /// `a op b` on values of arithmetic type, with the usual arithmetic conversions.
    pub fn arith(&mut self, op: BinOp, a: Val, b: Val, pos: Pos) -> Res<Val> {
        if !a.ty.is_arith() || !b.ty.is_arith() {
            return err(pos, "invalid operands to a binary operator");
        }
        let shift = matches!(op, BinOp::Shl | BinOp::Shr);
        let ty = if shift {
            a.ty.promote()
        } else {
            common(&a.ty, &b.ty)
        };
        let a = self.convert(a, &ty)?;
        let b = if shift {
            self.convert(b, &CType::Int(32, false))?
        } else {
            self.convert(b, &ty)?
        };
        if is_compare(op) {
            return Ok(self.compare(op, a, b, false));
        }
        if let Some(v) = fold(op, &a, &b, &ty) {
            return Ok(v);
        }
        if ty.is_float()
            && matches!(
                op,
                BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
            )
        {
            return err(
                pos,
                "invalid operands of floating type to a bitwise operator or `%`",
            );
        }
        if let Some(v) = self.reduce(op, &a, &b, &ty) {
            return Ok(v);
        }
        let commutative = matches!(
            op,
            BinOp::Add | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
        );
        let (a, b) = if a.is_const() && commutative {
            (b, a)
        } else {
            (a, b)
        };
        let a = self.materialize(a);
        let t = ty.ptx();
        let float = ty.is_float();
        let name = match op {
            BinOp::Add => format!("add.{t}"),
            BinOp::Sub => format!("sub.{t}"),
            BinOp::Mul if float => format!("mul.{t}"),
            BinOp::Mul => format!("mul.lo.{t}"),
            BinOp::Div if float => format!("div.rn.{t}"),
            BinOp::Div => format!("div.{t}"),
            BinOp::Rem => format!("rem.{t}"),
            BinOp::Shl => format!("shl.{}", ty.bits()),
            BinOp::Shr => format!("shr.{t}"),
            BinOp::BitAnd => format!("and.{}", ty.bits()),
            BinOp::BitOr => format!("or.{}", ty.bits()),
            BinOp::BitXor => format!("xor.{}", ty.bits()),
            _ => return err(pos, "unexpected operator"),
        };
        let r = self.body.reg_for(&ty);
        self.body
            .ins(format!("{name} \t{r}, {}, {}", a.text(), b.text()));
        Ok(Val::reg(r, ty))
    }

    /// `setp` of `a op b` (same type), or its negation.
    pub fn compare(&mut self, op: BinOp, a: Val, b: Val, negate: bool) -> Val {
        if let Some(v) = fold(op, &a, &b, &a.ty) {
            let t = v.konst_int().unwrap_or(0) != 0;
            return Val::int((t != negate) as i64, CType::Bool);
        }
        let (op, a, b) = if a.is_const() {
            (mirror(op), b, a)
        } else {
            (op, a, b)
        };
        let p = self.body.reg("p");
        let ty = if a.ty == CType::Bool {
            CType::Int(32, false)
        } else {
            a.ty.clone()
        };
        if a.ty == CType::Bool {
            // Predicates compare through integers.
            let a = self.convert(a, &INT).unwrap_or(Val::int(0, INT));
            let b = self.convert(b, &INT).unwrap_or(Val::int(0, INT));
            return self.compare(op, a, b, negate);
        }
        let name = cmp_name(op, &ty, negate);
        self.body.ins(format!(
            "setp.{name}.{} \t{p}, {}, {}",
            ty.ptx(),
            a.text(),
            b.text()
        ));
        Val::reg(p, CType::Bool)
    }

    /// Loads a value of type `ty` from `addr`.
    pub fn load(&mut self, addr: &Addr, ty: &CType, volatile: bool) -> Res<Val> {
        if let CType::Array(el, _) = ty {
            return Ok(self.address_value(addr, el));
        }
        if matches!(ty, CType::Struct(..)) {
            return err(
                Pos::default(),
                "struct values are not supported: access a member",
            );
        }
        if let Some((a, t, v, places)) = &self.forward {
            if !volatile
                && *a == addr.text()
                && t == ty
                && *places == self.body.places
                && addr.space != Space::Generic
            {
                if let Op::Reg(r) = &v.op {
                    if !self.body.mutable.contains(r) {
                        return Ok(v.clone());
                    }
                }
            }
        }
        let vol = if volatile { ".volatile" } else { "" };
        let load_ty = if *ty == CType::Bool {
            CType::Int(8, false)
        } else {
            ty.clone()
        };
        let r = self.body.reg_for(&load_ty);
        self.body.ins(format!(
            "ld{vol}{}.{} \t{r}, {}",
            addr.space.qual(),
            ty.mem_ptx(),
            addr.text()
        ));
        if let (Space::Param, CType::Ptr(el, Space::Generic, pv)) = (addr.space, ty) {
            // A kernel's arguments point to global memory, as its pointer parameters do.
            let g = self.body.reg("rd");
            self.body.ins(format!("cvta.to.global.u64 \t{g}, {r}"));
            return Ok(Val::reg(g, CType::Ptr(el.clone(), Space::Global, *pv)));
        }
        let v = Val::reg(r, load_ty);
        if *ty == CType::Bool {
            return Ok(self.to_pred(v));
        }
        Ok(v)
    }

    /// Stores `v` (already converted to `ty`) at `addr`.
    pub fn store(&mut self, addr: &Addr, ty: &CType, volatile: bool, v: Val) {
        let v = if *ty == CType::Bool {
            self.convert(v, &CType::Int(32, false))
                .unwrap_or(Val::int(0, INT))
        } else {
            v
        };
        let v = self.materialize(v);
        let src = v.text();
        let base_fixed = match &addr.base {
            Base::Reg(r) => !self.body.mutable.contains(r),
            Base::Sym(_) => true,
        };
        self.forward = if !volatile && *ty != CType::Bool && base_fixed {
            Some((addr.text(), ty.clone(), v, self.body.places))
        } else {
            None
        };
        let vol = if volatile { ".volatile" } else { "" };
        self.body.ins(format!(
            "st{vol}{}.{} \t{}, {src}",
            addr.space.qual(),
            ty.mem_ptx(),
            addr.text()
        ));
    }

    /// The address `addr` as a pointer value to `elem`.
    pub fn address_value(&mut self, addr: &Addr, elem: &CType) -> Val {
        let narrow = addr.space.narrow();
        let pty = CType::Ptr(Box::new(elem.clone()), addr.space, false);
        let (class, t) = if narrow { ("r", "u32") } else { ("rd", "u64") };
        let base = match &addr.base {
            Base::Reg(r) => r.clone(),
            Base::Sym(s) => {
                let r = self.body.reg(class);
                self.body.ins(format!("mov.{t} \t{r}, {s}"));
                r
            }
        };
        if addr.off == 0 {
            return Val::reg(base, pty);
        }
        let r = self.body.reg(class);
        let s = if narrow { "s32" } else { "s64" };
        self.body
            .ins(format!("add.{s} \t{r}, {base}, {}", addr.off));
        Val::reg(r, pty)
    }
}

/// Folds `a op b` when both are constants.
pub fn fold(op: BinOp, a: &Val, b: &Val, ty: &CType) -> Option<Val> {
    match (&a.op, &b.op) {
        (Op::I(x), Op::I(y)) => {
            let (x, y) = (*x, *y);
            let unsigned = !ty.is_signed();
            let (ux, uy) = (x as u64, y as u64);
            let v = match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div | BinOp::Rem if y == 0 => return None,
                BinOp::Div if unsigned => (ux / uy) as i64,
                BinOp::Rem if unsigned => (ux % uy) as i64,
                BinOp::Div => x.wrapping_div(y),
                BinOp::Rem => x.wrapping_rem(y),
                BinOp::Shl => x.wrapping_shl(y as u32),
                BinOp::Shr if unsigned => (ux.wrapping_shr(y as u32)) as i64,
                BinOp::Shr => x.wrapping_shr(y as u32),
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Lt if unsigned => (ux < uy) as i64,
                BinOp::Gt if unsigned => (ux > uy) as i64,
                BinOp::Le if unsigned => (ux <= uy) as i64,
                BinOp::Ge if unsigned => (ux >= uy) as i64,
                BinOp::Lt => (x < y) as i64,
                BinOp::Gt => (x > y) as i64,
                BinOp::Le => (x <= y) as i64,
                BinOp::Ge => (x >= y) as i64,
                BinOp::Eq => (x == y) as i64,
                BinOp::Ne => (x != y) as i64,
                BinOp::And | BinOp::Or => return None,
            };
            if is_compare(op) {
                return Some(Val::int(v, CType::Bool));
            }
            Some(Val::int(wrap(v, ty), ty.clone()))
        }
        (Op::F(x), Op::F(y)) => {
            let f32 = *ty == CType::F32;
            let r = |v: f64| if f32 { v as f32 as f64 } else { v };
            let (x, y) = (*x, *y);
            let v = match op {
                BinOp::Add => r(if f32 {
                    (x as f32 + y as f32) as f64
                } else {
                    x + y
                }),
                BinOp::Sub => r(if f32 {
                    (x as f32 - y as f32) as f64
                } else {
                    x - y
                }),
                BinOp::Mul => r(if f32 {
                    (x as f32 * y as f32) as f64
                } else {
                    x * y
                }),
                BinOp::Div => r(if f32 {
                    (x as f32 / y as f32) as f64
                } else {
                    x / y
                }),
                BinOp::Lt => return Some(Val::int((x < y) as i64, CType::Bool)),
                BinOp::Gt => return Some(Val::int((x > y) as i64, CType::Bool)),
                BinOp::Le => return Some(Val::int((x <= y) as i64, CType::Bool)),
                BinOp::Ge => return Some(Val::int((x >= y) as i64, CType::Bool)),
                BinOp::Eq => return Some(Val::int((x == y) as i64, CType::Bool)),
                BinOp::Ne => return Some(Val::int((x != y) as i64, CType::Bool)),
                _ => return None,
            };
            Some(Val {
                op: Op::F(v),
                ty: ty.clone(),
            })
        }
        _ => None,
    }
}
