//! Local variables whose address is taken (C++ [expr.unary.op] `&`): such a scalar cannot live
//! in a register, so it lives in `.local` memory (PTX ISA §5.1.5 "Local State Space"), as nvcc
//! keeps it on the stack frame; every other scalar stays in a register.

use super::ast::*;

/// Whether `&name` occurs in `body` (by name, conservatively: any scope).
pub fn address_taken(body: &[Stmt], name: &str) -> bool {
    any_expr(body, &|x| {
        matches!(&x.kind, ExprKind::Unary(UnOp::AddrOf, a)
            if matches!(&a.kind, ExprKind::Ident(n) if n == name))
    })
}

/// Whether `body` writes into the struct `name` or one of its members (`name = `, `name.m += `,
/// `name.m.n++`, `&name.m`), by name, conservatively. Elements (`name.a[i] = `) are not
/// followed: a pointer member's are not part of the struct, and a struct with an array member
/// is copied whatever its uses.
pub fn written_into(body: &[Stmt], name: &str) -> bool {
    fn root(e: &Expr) -> Option<&str> {
        match &e.kind {
            ExprKind::Ident(n) => Some(n),
            ExprKind::Member(a, _, false) => root(a),
            _ => None,
        }
    }
    any_expr(body, &|x| match &x.kind {
        ExprKind::Assign(_, a, _) => root(a) == Some(name),
        ExprKind::Unary(
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec | UnOp::AddrOf,
            a,
        ) => root(a) == Some(name),
        _ => false,
    })
}

/// Whether any expression in `body`, at any depth, satisfies `hit`.
fn any_expr(body: &[Stmt], hit: &dyn Fn(&Expr) -> bool) -> bool {
    body.iter().any(|s| in_stmt(s, hit))
}

fn in_stmt(s: &Stmt, hit: &dyn Fn(&Expr) -> bool) -> bool {
    let e = |x: &Expr| in_expr(x, hit);
    match &s.kind {
        StmtKind::Decl(ds) => ds.iter().filter_map(|d| d.init.as_ref()).any(e),
        StmtKind::Expr(x) | StmtKind::Case(x) => e(x),
        StmtKind::Return(x) => x.iter().any(e),
        StmtKind::If(c, a, b) => e(c) || in_stmt(a, hit) || b.iter().any(|b| in_stmt(b, hit)),
        StmtKind::For(i, c, st, b) => {
            i.iter().any(|i| in_stmt(i, hit)) || c.iter().chain(st.iter()).any(e) || in_stmt(b, hit)
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
            e(c) || in_stmt(b, hit)
        }
        StmtKind::Block(ss) => ss.iter().any(|s| in_stmt(s, hit)),
        _ => false,
    }
}

fn in_expr(x: &Expr, hit: &dyn Fn(&Expr) -> bool) -> bool {
    if hit(x) {
        return true;
    }
    let e = |y: &Expr| in_expr(y, hit);
    match &x.kind {
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
