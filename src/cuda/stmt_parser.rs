//! Statements (C++ [stmt]): blocks, declarations, `if`, loops, `switch`, jumps; `#pragma
//! unroll` is accepted before a loop (a hint this compiler does not need).

use super::ast::*;
use super::error::{err, Res};
use super::lexer::Tok;
use super::parser::Parser;

impl Parser {
    /// `{ statements }`.
    pub(crate) fn block(&mut self) -> Res<Vec<Stmt>> {
        self.expect("{", "to begin a block")?;
        self.enter()?;
        let mut out = Vec::new();
        while !self.eat("}") {
            if *self.peek() == Tok::Eof {
                return err(self.pos(), "expected `}` before the end of the file");
            }
            out.push(self.stmt()?);
        }
        self.depth -= 1;
        Ok(out)
    }

    fn paren_expr(&mut self, what: &str) -> Res<Expr> {
        self.expect("(", &format!("after `{what}`"))?;
        let e = self.expr()?;
        self.expect(")", &format!("to end the `{what}` condition"))?;
        Ok(e)
    }

    pub(crate) fn stmt(&mut self) -> Res<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self) -> Res<Stmt> {
        let pos = self.pos();
        let mk = |kind| Ok(Stmt { kind, pos });
        if let Tok::PragmaUnroll(count) = *self.peek() {
            self.i += 1;
            if let Some(n) = count {
                let at = self.pos();
                self.unroll_hints.push((at, n));
            }
            return self.stmt();
        }
        if self.is_punct("{") {
            return mk(StmtKind::Block(self.block()?));
        }
        if self.eat(";") {
            return mk(StmtKind::Empty);
        }
        let word = match self.peek() {
            Tok::Ident(w) => w.clone(),
            _ => String::new(),
        };
        match word.as_str() {
            "if" => {
                self.i += 1;
                let c = self.paren_expr("if")?;
                let then = Box::new(self.stmt()?);
                let els = if self.is_word("else") {
                    self.i += 1;
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                mk(StmtKind::If(c, then, els))
            }
            "while" => {
                self.i += 1;
                let c = self.paren_expr("while")?;
                mk(StmtKind::While(c, Box::new(self.stmt()?)))
            }
            "do" => {
                self.i += 1;
                let body = Box::new(self.stmt()?);
                if !self.is_word("while") {
                    return err(
                        self.pos(),
                        format!(
                            "expected `while` after the body of `do`, found {}",
                            self.describe()
                        ),
                    );
                }
                self.i += 1;
                let c = self.paren_expr("while")?;
                self.expect(";", "after `do ... while (...)`")?;
                mk(StmtKind::DoWhile(body, c))
            }
            "for" => {
                self.i += 1;
                self.expect("(", "after `for`")?;
                let init = if self.eat(";") {
                    None
                } else {
                    Some(Box::new(self.simple_stmt()?))
                };
                let cond = if self.is_punct(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(";", "after the loop condition")?;
                let step = if self.is_punct(")") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(")", "to end the `for` header")?;
                mk(StmtKind::For(init, cond, step, Box::new(self.stmt()?)))
            }
            "switch" => {
                self.i += 1;
                let c = self.paren_expr("switch")?;
                mk(StmtKind::Switch(c, Box::new(self.stmt()?)))
            }
            "case" => {
                self.i += 1;
                let e = self.cond_expr()?;
                self.expect(":", "after the case value")?;
                mk(StmtKind::Case(e))
            }
            "default" => {
                self.i += 1;
                self.expect(":", "after `default`")?;
                mk(StmtKind::Default)
            }
            "break" | "continue" => {
                self.i += 1;
                self.expect(";", &format!("after `{word}`"))?;
                mk(if word == "break" {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                })
            }
            "return" => {
                self.i += 1;
                let e = if self.is_punct(";") {
                    None
                } else if self.is_punct("{") {
                    // `return {a, b};` for a struct-valued function.
                    Some(self.initializer()?)
                } else {
                    Some(self.expr()?)
                };
                self.expect(";", "after the return statement")?;
                mk(StmtKind::Return(e))
            }
            "goto" => err(pos, "goto is not supported"),
            "asm" | "__asm__" => err(pos, "inline assembly is not supported"),
            "try" | "throw" => err(pos, "exceptions are not supported"),
            _ => self.simple_stmt(),
        }
    }

    /// A declaration or an expression statement, with its `;`.
    fn simple_stmt(&mut self) -> Res<Stmt> {
        let pos = self.pos();
        if self.starts_type()
            && !(self.typedefs.contains_key(self.word()) && self.peek_at(1) == &Tok::Punct("("))
        {
            let (specs, base) = self.specs()?;
            let storage = specs_storage(&specs_flags(self, &specs));
            let mut decls = Vec::new();
            loop {
                let dpos = self.pos();
                let (name, ty, params) = self.declarator(base.clone())?;
                if params.is_some() {
                    return err(dpos, "local function declarations are not supported");
                }
                if name.is_empty() {
                    return err(
                        dpos,
                        format!("expected a variable name, found {}", self.describe()),
                    );
                }
                let init = if self.eat("=") {
                    Some(self.initializer()?)
                } else {
                    None
                };
                decls.push(VarDecl {
                    name,
                    ty,
                    storage,
                    init,
                    pos: dpos,
                });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(";", "after the declaration")?;
            return Ok(Stmt {
                kind: StmtKind::Decl(decls),
                pos,
            });
        }
        let e = self.expr()?;
        self.expect(";", "after the expression")?;
        Ok(Stmt {
            kind: StmtKind::Expr(e),
            pos,
        })
    }

    fn word(&self) -> &str {
        match self.peek() {
            Tok::Ident(w) => w,
            _ => "",
        }
    }
}

fn specs_flags(_p: &Parser, s: &super::parser::Specs) -> (bool, bool, bool) {
    s.flags()
}

fn specs_storage(f: &(bool, bool, bool)) -> Storage {
    match f {
        (true, true, _) => Storage::ExternShared,
        (true, false, _) => Storage::Shared,
        (false, _, true) => Storage::Constant,
        _ => Storage::Auto,
    }
}
