//! Expressions by C's precedence (C++ [expr]): assignment, `?:`, the binary operators by
//! level, casts (C-style, functional and `static_cast`/`reinterpret_cast`), unary and postfix
//! operators, calls with template arguments, literals typed as C types them ([lex.icon]).

use super::ast::*;
use super::error::{err, Res};
use super::lexer::Tok;
use super::parser::Parser;

const LEVELS: [&[(&str, BinOp)]; 10] = [
    &[("||", BinOp::Or)],
    &[("&&", BinOp::And)],
    &[("|", BinOp::BitOr)],
    &[("^", BinOp::BitXor)],
    &[("&", BinOp::BitAnd)],
    &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
    &[
        ("<", BinOp::Lt),
        (">", BinOp::Gt),
        ("<=", BinOp::Le),
        (">=", BinOp::Ge),
    ],
    &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
];

const COMPOUND: [(&str, Option<BinOp>); 11] = [
    ("=", None),
    ("+=", Some(BinOp::Add)),
    ("-=", Some(BinOp::Sub)),
    ("*=", Some(BinOp::Mul)),
    ("/=", Some(BinOp::Div)),
    ("%=", Some(BinOp::Rem)),
    ("<<=", Some(BinOp::Shl)),
    (">>=", Some(BinOp::Shr)),
    ("&=", Some(BinOp::BitAnd)),
    ("|=", Some(BinOp::BitOr)),
    ("^=", Some(BinOp::BitXor)),
];

/// The C type of an integer literal.
fn literal_type(v: u64, unsigned: bool, long: bool, non_decimal: bool) -> Scalar {
    let fits32 = v <= i32::MAX as u64;
    let fitsu32 = v <= u32::MAX as u64;
    match (unsigned, long) {
        (true, false) if fitsu32 => Scalar::Int(32, false),
        (true, _) => Scalar::Int(64, false),
        (false, false) if fits32 => Scalar::Int(32, true),
        (false, false) if non_decimal && fitsu32 => Scalar::Int(32, false),
        (false, _) if v <= i64::MAX as u64 => Scalar::Int(64, true),
        (false, _) => Scalar::Int(64, false),
    }
}

impl Parser {
    /// A full expression (with commas).
    pub(crate) fn expr(&mut self) -> Res<Expr> {
        let mut e = self.assign()?;
        while self.is_punct(",") {
            let pos = self.pos();
            self.i += 1;
            let r = self.assign()?;
            e = Expr {
                kind: ExprKind::Comma(Box::new(e), Box::new(r)),
                pos,
            };
        }
        Ok(e)
    }

    pub(crate) fn assign(&mut self) -> Res<Expr> {
        self.enter()?;
        let lhs = self.cond_expr()?;
        let pos = self.pos();
        let op = match self.peek() {
            Tok::Punct(p) => COMPOUND.iter().find(|(s, _)| s == p).map(|(_, o)| *o),
            _ => None,
        };
        let out = match op {
            Some(op) => {
                self.i += 1;
                let rhs = self.assign()?;
                Expr {
                    kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                    pos,
                }
            }
            None => lhs,
        };
        self.depth -= 1;
        Ok(out)
    }

    pub(crate) fn cond_expr(&mut self) -> Res<Expr> {
        let c = self.binary(0)?;
        if self.is_punct("?") {
            let pos = self.pos();
            self.i += 1;
            self.enter()?;
            let a = self.expr()?;
            self.expect(":", "in the conditional expression")?;
            let b = self.assign()?;
            self.depth -= 1;
            return Ok(Expr {
                kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                pos,
            });
        }
        Ok(c)
    }

    pub(crate) fn binary(&mut self, level: usize) -> Res<Expr> {
        if level >= LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Tok::Punct(p) => LEVELS[level].iter().find(|(s, _)| s == p).map(|(_, o)| *o),
                _ => None,
            };
            let Some(op) = op else { return Ok(lhs) };
            let pos = self.pos();
            self.i += 1;
            let rhs = self.binary(level + 1)?;
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
            };
        }
    }

    fn unary(&mut self) -> Res<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Res<Expr> {
        let pos = self.pos();
        let op = match self.peek() {
            Tok::Punct("-") => Some(UnOp::Neg),
            Tok::Punct("+") => Some(UnOp::Plus),
            Tok::Punct("!") => Some(UnOp::Not),
            Tok::Punct("~") => Some(UnOp::BitNot),
            Tok::Punct("*") => Some(UnOp::Deref),
            Tok::Punct("&") => Some(UnOp::AddrOf),
            Tok::Punct("++") => Some(UnOp::PreInc),
            Tok::Punct("--") => Some(UnOp::PreDec),
            _ => None,
        };
        if let Some(op) = op {
            self.i += 1;
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                pos,
            });
        }
        if self.is_word("sizeof") {
            self.i += 1;
            if self.is_punct("(") && {
                self.i += 1;
                let t = self.starts_type();
                self.i -= 1;
                t
            } {
                self.i += 1;
                let ty = self.type_name()?;
                self.expect(")", "after the type in `sizeof`")?;
                return Ok(Expr {
                    kind: ExprKind::SizeofTy(ty),
                    pos,
                });
            }
            let e = self.unary()?;
            return Ok(Expr {
                kind: ExprKind::Call("sizeof".into(), vec![e], vec![]),
                pos,
            });
        }
        if self.is_punct("(") {
            self.i += 1;
            if self.starts_type() {
                let ty = self.type_name()?;
                self.expect(")", "after the type of the cast")?;
                let e = self.unary()?;
                return Ok(Expr {
                    kind: ExprKind::Cast(ty, Box::new(e)),
                    pos,
                });
            }
            self.i -= 1;
        }
        self.postfix()
    }

    /// A type without a name (casts, `sizeof`).
    fn type_name(&mut self) -> Res<Ty> {
        let (_, base) = self.specs()?;
        let (name, ty, params) = self.declarator(base)?;
        if !name.is_empty() || params.is_some() {
            return err(self.pos(), "expected a type name");
        }
        Ok(ty)
    }

    fn postfix(&mut self) -> Res<Expr> {
        let mut e = self.primary()?;
        loop {
            let pos = self.pos();
            if self.eat("[") {
                let i = self.expr()?;
                self.expect("]", "after the index")?;
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(i)),
                    pos,
                };
            } else if self.is_punct(".") || self.is_punct("->") {
                let arrow = self.is_punct("->");
                self.i += 1;
                let f = self.ident("a member name")?;
                e = Expr {
                    kind: ExprKind::Member(Box::new(e), f, arrow),
                    pos,
                };
            } else if self.eat("++") {
                e = Expr {
                    kind: ExprKind::Unary(UnOp::PostInc, Box::new(e)),
                    pos,
                };
            } else if self.eat("--") {
                e = Expr {
                    kind: ExprKind::Unary(UnOp::PostDec, Box::new(e)),
                    pos,
                };
            } else if self.is_punct("(") {
                return err(pos, "calls through expressions are not supported");
            } else {
                return Ok(e);
            }
        }
    }

    fn call_args(&mut self) -> Res<Vec<Expr>> {
        self.expect("(", "to begin the arguments")?;
        let mut args = Vec::new();
        while !self.eat(")") {
            args.push(self.assign()?);
            if !self.is_punct(")") {
                self.expect(",", "between arguments")?;
            }
        }
        Ok(args)
    }

    fn primary(&mut self) -> Res<Expr> {
        let pos = self.pos();
        let mk = |kind| Ok(Expr { kind, pos });
        match self.peek().clone() {
            Tok::Int(v, u, l, nd) => {
                self.i += 1;
                mk(ExprKind::Int(v, literal_type(v, u, l, nd)))
            }
            Tok::Char(c) => {
                self.i += 1;
                mk(ExprKind::Int(c as u64, Scalar::Int(32, true)))
            }
            Tok::Float(v, f) => {
                self.i += 1;
                mk(ExprKind::Float(v, f))
            }
            Tok::Punct("(") => {
                self.i += 1;
                let e = self.expr()?;
                self.expect(")", "to close the parenthesis")?;
                Ok(e)
            }
            Tok::Ident(w) if w == "true" || w == "false" => {
                self.i += 1;
                mk(ExprKind::Int((w == "true") as u64, Scalar::Bool))
            }
            Tok::Ident(w)
                if matches!(
                    w.as_str(),
                    "static_cast" | "reinterpret_cast" | "const_cast"
                ) =>
            {
                self.i += 1;
                self.expect("<", &format!("after `{w}`"))?;
                let ty = self.type_name()?;
                self.expect(">", "after the type of the cast")?;
                self.expect("(", "before the cast's operand")?;
                let e = self.expr()?;
                self.expect(")", "after the cast's operand")?;
                mk(ExprKind::Cast(ty, Box::new(e)))
            }
            Tok::Ident(w) if w == "new" || w == "delete" || w == "this" => {
                err(pos, format!("`{w}` is not supported in device code"))
            }
            Tok::Ident(_) if self.starts_type() => {
                let ty = self.type_name()?;
                if !self.is_punct("(") {
                    return err(
                        self.pos(),
                        format!(
                            "expected `(` after the type name, found {}",
                            self.describe()
                        ),
                    );
                }
                let mut args = self.call_args()?;
                if args.len() != 1 {
                    return err(pos, "a functional cast takes one argument");
                }
                let e = args.remove(0);
                mk(ExprKind::Cast(ty, Box::new(e)))
            }
            Tok::Ident(w) => {
                self.i += 1;
                if self.is_punct("::") {
                    return err(pos, "qualified names (`::`) are not supported");
                }
                let targs = if self.templates.contains(&w) && self.is_punct("<") {
                    self.i += 1;
                    self.template_args()?
                } else {
                    Vec::new()
                };
                if self.is_punct("(") {
                    let args = self.call_args()?;
                    return mk(ExprKind::Call(w, args, targs));
                }
                mk(ExprKind::Ident(w))
            }
            _ => err(
                pos,
                format!("expected an expression, found {}", self.describe()),
            ),
        }
    }
}
