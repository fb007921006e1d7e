//! Integer constant expressions (C++ [expr.const]): `#if` conditions, array sizes, template
//! arguments and `case` values, with names looked up in the caller's scope.

use super::ast::*;
use super::error::{err, Res};

/// The value of `e`, an integer constant expression; `lookup` gives named constants.
pub fn const_int(e: &Expr, lookup: &dyn Fn(&str) -> Option<i64>) -> Res<i64> {
    Ok(match &e.kind {
        ExprKind::Int(v, _) => *v as i64,
        ExprKind::Ident(n) => match lookup(n) {
            Some(v) => v,
            None => return err(e.pos, format!("`{n}` is not a constant")),
        },
        ExprKind::Unary(op, a) => {
            let a = const_int(a, lookup)?;
            match op {
                UnOp::Neg => a.wrapping_neg(),
                UnOp::Plus => a,
                UnOp::Not => (a == 0) as i64,
                UnOp::BitNot => !a,
                _ => return err(e.pos, "expected a constant expression"),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let a = const_int(a, lookup)?;
            if *op == BinOp::And && a == 0 {
                return Ok(0);
            }
            if *op == BinOp::Or && a != 0 {
                return Ok(1);
            }
            let b = const_int(b, lookup)?;
            match op {
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div | BinOp::Rem if b == 0 => {
                    return err(e.pos, "division by zero in a constant expression")
                }
                BinOp::Div => a.wrapping_div(b),
                BinOp::Rem => a.wrapping_rem(b),
                BinOp::Shl => a.wrapping_shl(b as u32),
                BinOp::Shr => a.wrapping_shr(b as u32),
                BinOp::Lt => (a < b) as i64,
                BinOp::Gt => (a > b) as i64,
                BinOp::Le => (a <= b) as i64,
                BinOp::Ge => (a >= b) as i64,
                BinOp::Eq => (a == b) as i64,
                BinOp::Ne => (a != b) as i64,
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::And | BinOp::Or => (b != 0) as i64,
            }
        }
        ExprKind::Cond(c, a, b) => {
            if const_int(c, lookup)? != 0 {
                const_int(a, lookup)?
            } else {
                const_int(b, lookup)?
            }
        }
        ExprKind::Cast(_, a) => const_int(a, lookup)?,
        _ => return err(e.pos, "expected a constant expression"),
    })
}
