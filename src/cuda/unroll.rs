//! Loop unrolling, as nvcc does at -O3 (and as `#pragma unroll` asks; CUDA C++ Programming
//! Guide "#pragma unroll"): a counted loop `for (int i = A; i < B; i++)` with constant bounds
//! and a small body runs its body once per value of `i` (bound as a constant, so addresses
//! fold); an innermost counted loop with a small body runs four copies per trip
//! (`i`, `i + 1`, ... folded into `[reg+imm]`) and then the remaining trips one by one.

use super::ast::*;
use super::lower::mutated_names;

/// How a `for` loop is unrolled.
pub enum Plan {
    /// Run the body for each of these values of the variable.
    Full(String, Vec<i64>),
    /// Four copies per trip while `var + 3 < bound`, then the rest.
    ByFour(String, Expr),
}

const FULL_TRIPS: i64 = 32;
const FULL_NODES: usize = 4000;
const BODY_NODES: usize = 48;

fn count_expr(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Member(a, ..) | ExprKind::Cast(_, a) => count_expr(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => count_expr(a) + count_expr(b),
        ExprKind::Cond(a, b, c) => count_expr(a) + count_expr(b) + count_expr(c),
        ExprKind::Call(_, a, _) | ExprKind::List(a) => a.iter().map(count_expr).sum(),
        _ => 0,
    }
}

/// Node count, whether it has loops, and whether it may leave early (break/continue at this
/// level, return anywhere, case labels) or declares `var`.
fn scan(s: &Stmt, var: &str, depth: usize, out: &mut (usize, bool, bool)) {
    out.0 += 1;
    match &s.kind {
        StmtKind::Decl(ds) => {
            for d in ds {
                if d.name == var || d.storage != Storage::Auto || matches!(d.ty, Ty::Array(..)) {
                    out.2 = true;
                }
                out.0 += d.init.as_ref().map_or(0, count_expr);
            }
        }
        StmtKind::Expr(e) => out.0 += count_expr(e),
        StmtKind::If(c, a, b) => {
            out.0 += count_expr(c);
            scan(a, var, depth, out);
            if let Some(b) = b {
                scan(b, var, depth, out);
            }
        }
        StmtKind::For(i, c, st, b) => {
            out.1 = true;
            if let Some(i) = i {
                scan(i, var, depth + 1, out);
            }
            out.0 += c.iter().chain(st.iter()).map(count_expr).sum::<usize>();
            scan(b, var, depth + 1, out);
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            out.1 = true;
            out.0 += count_expr(c);
            scan(b, var, depth + 1, out);
        }
        StmtKind::Switch(..) | StmtKind::Case(_) | StmtKind::Default | StmtKind::Return(_) => {
            out.2 = true
        }
        StmtKind::Break | StmtKind::Continue if depth == 0 => out.2 = true,
        StmtKind::Block(ss) => ss.iter().for_each(|s| scan(s, var, depth, out)),
        _ => {}
    }
}

fn is_var(e: &Expr, var: &str) -> bool {
    matches!(&e.kind, ExprKind::Ident(n) if n == var)
}

/// The unrolling of `for (init; cond; step) body`, if it is a counted loop worth unrolling.
pub fn plan(
    init: Option<&Stmt>,
    cond: Option<&Expr>,
    step: Option<&Expr>,
    body: &Stmt,
    konst: &dyn Fn(&Expr) -> Option<i64>,
) -> Option<Plan> {
    let (var, start) = match &init?.kind {
        StmtKind::Decl(ds) if ds.len() == 1 => {
            let d = &ds[0];
            if !matches!(d.ty, Ty::Scalar(Scalar::Int(32, true), _)) {
                return None;
            }
            (d.name.clone(), d.init.as_ref()?)
        }
        _ => return None,
    };
    let step = loop_step(step?, &var, konst)?;
    let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), lhs, bound) =
        &cond?.kind
    else {
        return None;
    };
    if !is_var(lhs, &var) {
        return None;
    }
    let mutated = mutated_names(std::slice::from_ref(body));
    if mutated.contains(&var) {
        return None;
    }
    let mut info = (0, false, false);
    scan(body, &var, 0, &mut info);
    let (nodes, has_loops, irregular) = info;
    if irregular {
        return None;
    }
    if let (Some(a), Some(b)) = (konst(start), konst(bound)) {
        if let Some(values) = trip_values(a, *op, b, step) {
            if values.len().saturating_mul(nodes) <= FULL_NODES {
                return Some(Plan::Full(var, values));
            }
        }
    }
    if step != Step::Add(1) {
        return None;
    }
    let mut bound_names = std::collections::HashSet::new();
    names(bound, &mut bound_names);
    if *op != BinOp::Lt
        || has_loops
        || nodes > BODY_NODES
        || bound_names.iter().any(|n| mutated.contains(n) || *n == var)
        || !pure_expr(bound)
    {
        return None;
    }
    Some(Plan::ByFour(var, (**bound).clone()))
}

/// How a counted loop's variable changes each trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Add(i64),
    Mul(i64),
    Div(i64),
    Shl(i64),
    Shr(i64),
}

impl Step {
    fn apply(self, v: i64) -> Option<i64> {
        match self {
            Step::Add(k) => v.checked_add(k),
            Step::Mul(k) => v.checked_mul(k),
            Step::Div(k) => v.checked_div(k),
            Step::Shl(k) => v.checked_mul(1i64.checked_shl(k as u32)?),
            Step::Shr(k) => Some(v >> k),
        }
    }
}

/// The step of `var` in `step`: `i++`, `i--`, `i += k`, `i -= k`, `i *= k`, `i /= k`,
/// `i <<= k`, `i >>= k` (k a positive constant).
fn loop_step(step: &Expr, var: &str, konst: &dyn Fn(&Expr) -> Option<i64>) -> Option<Step> {
    let s = match &step.kind {
        ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, a) if is_var(a, var) => Step::Add(1),
        ExprKind::Unary(UnOp::PostDec | UnOp::PreDec, a) if is_var(a, var) => Step::Add(-1),
        ExprKind::Assign(Some(op), a, b) if is_var(a, var) => {
            let k = konst(b).filter(|k| *k > 0)?;
            match op {
                BinOp::Add => Step::Add(k),
                BinOp::Sub => Step::Add(-k),
                BinOp::Mul if k > 1 => Step::Mul(k),
                BinOp::Div if k > 1 => Step::Div(k),
                BinOp::Shl if k < 31 => Step::Shl(k),
                BinOp::Shr if k < 31 => Step::Shr(k),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(s)
}

/// The values the variable takes from `a` while `var op b` holds, if at most [`FULL_TRIPS`]
/// and all within `int`.
fn trip_values(a: i64, op: BinOp, b: i64, step: Step) -> Option<Vec<i64>> {
    let holds = |v: i64| match op {
        BinOp::Lt => v < b,
        BinOp::Le => v <= b,
        BinOp::Gt => v > b,
        _ => v >= b,
    };
    let mut out = Vec::new();
    let mut v = a;
    while holds(v) {
        if out.len() as i64 == FULL_TRIPS || i32::try_from(v).is_err() {
            return None;
        }
        out.push(v);
        let next = step.apply(v)?;
        if next == v {
            return None;
        }
        v = next;
    }
    Some(out)
}

fn pure_expr(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Ident(_) => true,
        ExprKind::Member(a, _, _) => matches!(&a.kind, ExprKind::Ident(_)),
        ExprKind::Binary(_, a, b) => pure_expr(a) && pure_expr(b),
        ExprKind::Unary(UnOp::Neg | UnOp::Plus | UnOp::BitNot, a) | ExprKind::Cast(_, a) => {
            pure_expr(a)
        }
        _ => false,
    }
}

fn names(e: &Expr, out: &mut std::collections::HashSet<String>) {
    match &e.kind {
        ExprKind::Ident(n) => {
            out.insert(n.clone());
        }
        ExprKind::Unary(_, a) | ExprKind::Member(a, ..) | ExprKind::Cast(_, a) => names(a, out),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => {
            names(a, out);
            names(b, out);
        }
        ExprKind::Cond(a, b, c) => {
            names(a, out);
            names(b, out);
            names(c, out);
        }
        ExprKind::Call(_, a, _) | ExprKind::List(a) => a.iter().for_each(|a| names(a, out)),
        _ => {}
    }
}

/// `e` with `var` replaced by `var + k`.
pub fn shift_expr(e: &Expr, var: &str, k: i64) -> Expr {
    let s = |x: &Expr| Box::new(shift_expr(x, var, k));
    let kind = match &e.kind {
        ExprKind::Ident(n) if n == var && k != 0 => ExprKind::Binary(
            BinOp::Add,
            Box::new(e.clone()),
            Box::new(Expr {
                kind: ExprKind::Int(k as u64, Scalar::Int(32, true)),
                pos: e.pos,
            }),
        ),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, s(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, s(a), s(b)),
        ExprKind::Assign(op, a, b) => ExprKind::Assign(*op, s(a), s(b)),
        ExprKind::Cond(a, b, c) => ExprKind::Cond(s(a), s(b), s(c)),
        ExprKind::Call(n, a, t) => ExprKind::Call(
            n.clone(),
            a.iter().map(|x| shift_expr(x, var, k)).collect(),
            t.clone(),
        ),
        ExprKind::Index(a, b) => ExprKind::Index(s(a), s(b)),
        ExprKind::Member(a, f, arrow) => ExprKind::Member(s(a), f.clone(), *arrow),
        ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), s(a)),
        ExprKind::Comma(a, b) => ExprKind::Comma(s(a), s(b)),
        ExprKind::List(a) => ExprKind::List(a.iter().map(|x| shift_expr(x, var, k)).collect()),
        other => other.clone(),
    };
    Expr { kind, pos: e.pos }
}

/// `s` with `var` replaced by `var + k` (the loop body has no declaration of `var`).
pub fn shift_stmt(s: &Stmt, var: &str, k: i64) -> Stmt {
    let e = |x: &Expr| shift_expr(x, var, k);
    let b = |x: &Stmt| Box::new(shift_stmt(x, var, k));
    let kind = match &s.kind {
        StmtKind::Decl(ds) => StmtKind::Decl(
            ds.iter()
                .map(|d| VarDecl {
                    init: d.init.as_ref().map(e),
                    ..d.clone()
                })
                .collect(),
        ),
        StmtKind::Expr(x) => StmtKind::Expr(e(x)),
        StmtKind::If(c, t, f) => StmtKind::If(e(c), b(t), f.as_ref().map(|f| b(f))),
        StmtKind::Block(ss) => StmtKind::Block(ss.iter().map(|x| shift_stmt(x, var, k)).collect()),
        other => other.clone(),
    };
    Stmt { kind, pos: s.pos }
}

/// Whether every use of the local array `name` in `body` indexes it directly with a constant
/// once fully unrolled loops are unrolled (their variables are then constants), so the array
/// can live in registers.
pub fn static_indices(body: &[Stmt], name: &str, konst: &dyn Fn(&Expr) -> Option<i64>) -> bool {
    let mut vars = Vec::new();
    body.iter().all(|s| stmt_static(s, name, konst, &mut vars))
}

fn stmt_static(
    s: &Stmt,
    name: &str,
    konst: &dyn Fn(&Expr) -> Option<i64>,
    vars: &mut Vec<String>,
) -> bool {
    let e = |x: &Expr, vars: &mut Vec<String>| expr_static(x, name, konst, vars);
    match &s.kind {
        StmtKind::Decl(ds) => ds
            .iter()
            .all(|d| d.init.as_ref().is_none_or_static(|x| e(x, vars))),
        StmtKind::Expr(x) | StmtKind::Case(x) => e(x, vars),
        StmtKind::Return(x) => x.as_ref().is_none_or_static(|x| e(x, vars)),
        StmtKind::If(c, a, b) => {
            e(c, vars)
                && stmt_static(a, name, konst, vars)
                && b.as_ref()
                    .is_none_or_static(|b| stmt_static(b, name, konst, vars))
        }
        StmtKind::For(i, c, st, b) => {
            let full = match plan(i.as_deref(), c.as_ref(), st.as_ref(), b, konst) {
                Some(Plan::Full(v, _)) => Some(v),
                _ => None,
            };
            let heads = i
                .as_ref()
                .is_none_or_static(|i| stmt_static(i, name, konst, vars))
                && c.as_ref().is_none_or_static(|c| e(c, vars))
                && st.as_ref().is_none_or_static(|x| e(x, vars));
            if let Some(v) = &full {
                vars.push(v.clone());
            }
            let ok = heads && stmt_static(b, name, konst, vars);
            if full.is_some() {
                vars.pop();
            }
            ok
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
            e(c, vars) && stmt_static(b, name, konst, vars)
        }
        StmtKind::Block(ss) => ss.iter().all(|s| stmt_static(s, name, konst, vars)),
        _ => true,
    }
}

fn expr_static(
    e: &Expr,
    name: &str,
    konst: &dyn Fn(&Expr) -> Option<i64>,
    vars: &mut Vec<String>,
) -> bool {
    match &e.kind {
        ExprKind::Ident(n) => n != name,
        ExprKind::Index(a, i) if is_var(a, name) => {
            let mut used = std::collections::HashSet::new();
            names(i, &mut used);
            pure_expr(i)
                && used.iter().all(|u| {
                    vars.contains(u)
                        || konst(&Expr {
                            kind: ExprKind::Ident(u.clone()),
                            pos: e.pos,
                        })
                        .is_some()
                })
        }
        ExprKind::Unary(_, a) | ExprKind::Member(a, ..) | ExprKind::Cast(_, a) => {
            expr_static(a, name, konst, vars)
        }
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => {
            expr_static(a, name, konst, vars) && expr_static(b, name, konst, vars)
        }
        ExprKind::Cond(a, b, c) => {
            expr_static(a, name, konst, vars)
                && expr_static(b, name, konst, vars)
                && expr_static(c, name, konst, vars)
        }
        ExprKind::Call(_, a, _) | ExprKind::List(a) => {
            a.iter().all(|x| expr_static(x, name, konst, vars))
        }
        _ => true,
    }
}

/// `Option::is_none_or` for the crate's MSRV.
trait NoneOr<T> {
    fn is_none_or_static(&self, f: impl FnOnce(&T) -> bool) -> bool;
}

impl<T> NoneOr<T> for Option<T> {
    fn is_none_or_static(&self, f: impl FnOnce(&T) -> bool) -> bool {
        self.as_ref().map_or(true, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trips_of_doubling_halving_and_counting_loops() {
        assert_eq!(
            trip_values(1, BinOp::Lt, 128, Step::Mul(2)),
            Some(vec![1, 2, 4, 8, 16, 32, 64])
        );
        assert_eq!(
            trip_values(16, BinOp::Gt, 0, Step::Shr(1)),
            Some(vec![16, 8, 4, 2, 1])
        );
        assert_eq!(
            trip_values(3, BinOp::Ge, 0, Step::Add(-1)),
            Some(vec![3, 2, 1, 0])
        );
        assert_eq!(trip_values(5, BinOp::Lt, 5, Step::Add(1)), Some(vec![]));
        // Too many trips, or a step that never ends the loop: not unrolled.
        assert_eq!(trip_values(0, BinOp::Lt, 100, Step::Add(1)), None);
        assert_eq!(trip_values(0, BinOp::Lt, 8, Step::Mul(2)), None);
    }
}
