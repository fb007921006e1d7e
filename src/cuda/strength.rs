//! Cheaper forms of integer arithmetic by constants, as nvcc emits them (C++ [expr.mul],
//! [expr.add]): algebraic identities (`x*1`, `x+0`, `x*0`, `x|0`, `x<<0`...), `0 - x` as `neg`,
//! multiplies by
//! powers of two as shifts, unsigned `/` and `%` by powers of two as `shr` and `and`, and
//! signed ones as nvcc's rounding-toward-zero sequence (`shr.s32 t, x, 31; shr.u32 t, t,
//! 32-k; add.s32 t, x, t; shr.s32 q, t, k`, the remainder `x - (t & -2^k)`).

use super::ast::BinOp;
use super::emit::Val;
use super::lower::Lower;
use super::types::CType;

impl Lower<'_> {
    /// `a op b` (both of the integer type `ty`) in a cheaper form when one side is a constant
    /// that allows one; `None` when the plain instruction is what to emit.
    pub(crate) fn reduce(&mut self, op: BinOp, a: &Val, b: &Val, ty: &CType) -> Option<Val> {
        if !ty.is_int() || *ty == CType::Bool {
            return None;
        }
        if let Some(v) = identity(op, a, b, ty) {
            return Some(v);
        }
        if op == BinOp::Sub && a.konst_int() == Some(0) && !b.is_const() {
            let r = self.body.reg_for(ty);
            let t = if ty.size() == 8 { "s64" } else { "s32" };
            self.body.ins(format!("neg.{t} \t{r}, {}", b.text()));
            return Some(Val::reg(r, ty.clone()));
        }
        let (x, k) = match (a.konst_int(), b.konst_int()) {
            (None, Some(k)) => (a, k),
            (Some(k), None) if op == BinOp::Mul => (b, k),
            _ => return None,
        };
        if k <= 1 || k.count_ones() != 1 {
            return None;
        }
        let shift = k.trailing_zeros();
        let x = x.clone();
        match op {
            BinOp::Mul => Some(self.op2("shl", ty.bits(), &x.text(), shift as i64, ty)),
            BinOp::Div if !ty.is_signed() => {
                Some(self.op2("shr", ty.ptx(), &x.text(), shift as i64, ty))
            }
            BinOp::Rem if !ty.is_signed() => Some(self.op2("and", ty.bits(), &x.text(), k - 1, ty)),
            BinOp::Div | BinOp::Rem => Some(self.signed_pow2(op, &x, shift, ty)),
            _ => None,
        }
    }

    /// `x / 2^k` or `x % 2^k` for a signed `x`, rounding toward zero as C does.
    fn signed_pow2(&mut self, op: BinOp, x: &Val, k: u32, ty: &CType) -> Val {
        let width = ty.size() as i64 * 8;
        let (s, u, b) = if width == 64 {
            ("s64", "u64", "b64")
        } else {
            ("s32", "u32", "b32")
        };
        let xt = x.text();
        // The bias 2^k - 1 for negative x, 0 otherwise.
        let bias = if k == 1 {
            self.op2("shr", u, &xt, width - 1, ty)
        } else {
            let sign = self.op2("shr", s, &xt, width - 1, ty);
            self.op2("shr", u, &sign.text(), width - k as i64, ty)
        };
        let r = self.body.reg_for(ty);
        self.body
            .ins(format!("add.{s} \t{r}, {xt}, {}", bias.text()));
        if op == BinOp::Div {
            return self.op2("shr", s, &r, k as i64, ty);
        }
        let mask = if width == 64 {
            -(1i64 << k)
        } else {
            -(1i64 << k) as i32 as i64
        };
        let rounded = self.op2("and", b, &r, mask, ty);
        let out = self.body.reg_for(ty);
        self.body
            .ins(format!("sub.{s} \t{out}, {xt}, {}", rounded.text()));
        Val::reg(out, ty.clone())
    }

    /// `name.suffix d, x, k` into a fresh register of `ty`.
    fn op2(&mut self, name: &str, suffix: &str, x: &str, k: i64, ty: &CType) -> Val {
        let r = self.body.reg_for(ty);
        self.body.ins(format!("{name}.{suffix} \t{r}, {x}, {k}"));
        Val::reg(r, ty.clone())
    }
}

/// `a op b` when an identity gives it without an instruction: `x+0`, `0+x`, `x-0`, `x*1`,
/// `1*x`, `x*0`, `0*x`, `x/1`, `x|0`, `x^0`, `x&0`, `x&-1`, `x<<0`, `x>>0`.
fn identity(op: BinOp, a: &Val, b: &Val, ty: &CType) -> Option<Val> {
    let (ka, kb) = (a.konst_int(), b.konst_int());
    let all_ones = super::values::wrap(-1, ty);
    let zero = Val::int(0, ty.clone());
    let v = match (op, ka, kb) {
        (BinOp::Add | BinOp::Sub | BinOp::BitOr | BinOp::BitXor, _, Some(0)) => a.clone(),
        (BinOp::Add | BinOp::BitOr | BinOp::BitXor, Some(0), _) => b.clone(),
        (BinOp::Shl | BinOp::Shr, _, Some(0)) => a.clone(),
        (BinOp::Mul | BinOp::Div, _, Some(1)) => a.clone(),
        (BinOp::Mul, Some(1), _) => b.clone(),
        (BinOp::Mul | BinOp::BitAnd, _, Some(0)) | (BinOp::Mul | BinOp::BitAnd, Some(0), _) => zero,
        (BinOp::BitAnd, _, Some(m)) if m == all_ones => a.clone(),
        (BinOp::BitAnd, Some(m), _) if m == all_ones => b.clone(),
        _ => return None,
    };
    Some(Val {
        ty: ty.clone(),
        ..v
    })
}
