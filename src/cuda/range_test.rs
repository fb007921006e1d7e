//! A range test `lo <= x && x <= hi` on an integer as one unsigned compare,
//! `(unsigned)(x - lo) <= hi - lo`, as nvcc writes it (`setp.gt.u32` on `d - tx` for Rodinia
//! nw's `r >= 1 && r <= T`): two compares and an `and.pred` become a subtract and a compare.
//! Exact in the type's modular arithmetic whenever `lo <= hi` (C++ [conv.integral]).

use super::ast::*;
use super::emit::Val;
use super::error::Res;
use super::lower::Lower;
use super::types::CType;
use super::values::wrap;

/// One side of a range test: `x >= lo` gives (x, Some(lo), None), `x < hi` (x, None, hi-1).
type Bound<'e> = (&'e Expr, Option<i64>, Option<i64>);

/// Whether `a` and `b` are the same expression (positions aside).
fn same(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Ident(x), ExprKind::Ident(y)) => x == y,
        (ExprKind::Int(x, _), ExprKind::Int(y, _)) => x == y,
        (ExprKind::Binary(o, a1, a2), ExprKind::Binary(p, b1, b2)) => {
            o == p && same(a1, b1) && same(a2, b2)
        }
        (ExprKind::Member(a1, f, d), ExprKind::Member(b1, g, e)) => {
            f == g && d == e && same(a1, b1)
        }
        _ => false,
    }
}

impl Lower<'_> {
    /// The bound `e` sets on an integer expression, when it compares it with a constant.
    fn bound<'e>(&self, e: &'e Expr) -> Option<Bound<'e>> {
        let ExprKind::Binary(op, x, c) = &e.kind else {
            return None;
        };
        let c = self.const_int_here(c).ok()?;
        match op {
            BinOp::Ge => Some((x, Some(c), None)),
            BinOp::Gt => Some((x, c.checked_add(1), None)),
            BinOp::Le => Some((x, None, Some(c))),
            BinOp::Lt => Some((x, None, c.checked_sub(1))),
            _ => None,
        }
    }

    /// Branches to `label` when `e` (`&&` of a lower and an upper bound on one pure integer
    /// expression) is `when`, with one unsigned compare; false when `e` is not such a test.
    pub(crate) fn range_branch(&mut self, e: &Expr, when: bool, label: &str) -> Res<bool> {
        let ExprKind::Binary(BinOp::And, a, b) = &e.kind else {
            return Ok(false);
        };
        let (Some(p), Some(q)) = (self.bound(a), self.bound(b)) else {
            return Ok(false);
        };
        let (x, lo, hi) = match (p, q) {
            ((x, Some(lo), None), (y, None, Some(hi)))
            | ((x, None, Some(hi)), (y, Some(lo), None))
                if same(x, y) =>
            {
                (x, lo, hi)
            }
            _ => return Ok(false),
        };
        if !self.pure(x) {
            return Ok(false);
        }
        let ty = self.ty_of(x)?.promote();
        let CType::Int(bits, signed) = ty else {
            return Ok(false);
        };
        let (wlo, whi) = (wrap(lo, &ty), wrap(hi, &ty));
        let ordered = if signed {
            wlo == lo && whi == hi && lo <= hi
        } else {
            lo >= 0 && hi >= 0 && wlo == lo && whi == hi && (lo as u64) <= (hi as u64)
        };
        if !ordered {
            return Ok(false);
        }
        let v = self.rv(x)?;
        let v = self.convert(v, &ty)?;
        let d = self.arith(BinOp::Sub, v, Val::int(lo, ty.clone()), x.pos)?;
        let unsigned = CType::Int(bits, false);
        let d = Val {
            ty: unsigned.clone(),
            ..d
        };
        let span = Val::int(wrap(hi.wrapping_sub(lo), &unsigned), unsigned);
        let p = self.compare(BinOp::Le, d, span, !when);
        self.jump_if(p, label)?;
        Ok(true)
    }
}
