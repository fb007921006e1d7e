//! Local variables whose address is taken (C++ [expr.unary.op] `&`): such a scalar cannot live
//! in a register, so it lives in `.local` memory (PTX ISA §5.1.5 "Local State Space"), as nvcc
//! keeps it on the stack frame; every other scalar stays in a register.

use super::ast::*;

/// Whether `&name` occurs in `body` (by name, conservatively: any scope).
pub fn address_taken(body: &[Stmt], name: &str) -> bool {
    body.iter().any(|s| in_stmt(s, name))
}

fn in_stmt(s: &Stmt, name: &str) -> bool {
    let e = |x: &Expr| in_expr(x, name);
    match &s.kind {
        StmtKind::Decl(ds) => ds.iter().filter_map(|d| d.init.as_ref()).any(e),
        StmtKind::Expr(x) | StmtKind::Case(x) => e(x),
        StmtKind::Return(x) => x.iter().any(e),
        StmtKind::If(c, a, b) => e(c) || in_stmt(a, name) || b.iter().any(|b| in_stmt(b, name)),
        StmtKind::For(i, c, st, b) => {
            i.iter().any(|i| in_stmt(i, name))
                || c.iter().chain(st.iter()).any(e)
                || in_stmt(b, name)
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
            e(c) || in_stmt(b, name)
        }
        StmtKind::Block(ss) => ss.iter().any(|s| in_stmt(s, name)),
        _ => false,
    }
}

fn in_expr(x: &Expr, name: &str) -> bool {
    let e = |y: &Expr| in_expr(y, name);
    match &x.kind {
        ExprKind::Unary(UnOp::AddrOf, a) if matches!(&a.kind, ExprKind::Ident(n) if n == name) => {
            true
        }
        ExprKind::Unary(_, a) | ExprKind::Member(a, ..) | ExprKind::Cast(_, a) => e(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => e(a) || e(b),
        ExprKind::Cond(a, b, c) => e(a) || e(b) || e(c),
        ExprKind::Call(_, a, _) | ExprKind::List(a) => a.iter().any(e),
        _ => false,
    }
}
