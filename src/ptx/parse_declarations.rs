//! Parsing state-space declarations: variables (`.global`, `.shared`, `.const`, `.local`,
//! `.param`) with their alignment, vector width, array dimensions and initialisers, and
//! `.reg` declarations (PTX ISA "State Spaces, Types, and Variables": "Variable
//! Declarations", "Array Declarations", "Initializers"; "Parameterized Variable Names").

use super::ast::{Linkage, Literal, RegDecl, RegName, VarDecl};
use super::lexer::TokenKind;
use super::literal::{negate, parse_float, parse_int};
use super::parse_limits::MAX_ARRAY_DIMS;
use super::token_cursor::{PResult, Parser};
use super::types::{Space, Type};

impl<'s> Parser<'s> {
    /// `.space [.align N] [.vN] .type name[dims] [= init] {, name[dims] [= init]} ;`
    pub(super) fn var_decl(&mut self, linkage: Linkage) -> PResult<Vec<VarDecl>> {
        let start = self.next();
        let space = var_space(self.text(start).get(1..).unwrap_or(""))
            .ok_or_else(|| self.err(start, "expected a state space"))?;
        let (ty, align, lanes) = self.var_attributes()?;
        let mut out = Vec::new();
        loop {
            let (name, t) = self.ident("a variable name")?;
            let dims = self.dims()?;
            let init = if self.eat(TokenKind::Eq) {
                Some(self.initializer()?)
            } else {
                None
            };
            out.push(VarDecl {
                name,
                space,
                ty,
                lanes,
                align,
                dims,
                init,
                linkage,
                line: t.line,
                col: t.col,
            });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::Semi, "`;`")?;
        Ok(out)
    }

    /// `.align N`, `.v2/.v4` and the type, in any order; the type is required.
    pub(super) fn var_attributes(&mut self) -> PResult<(Type, Option<u32>, u32)> {
        let (mut ty, mut align, mut lanes) = (None, None, 1);
        while let Some(name) = self.dot_name() {
            let t = self.peek();
            if name == "align" {
                self.next();
                align = Some(self.alignment()?);
            } else if let Some(v) = match name {
                "v2" => Some(2),
                "v4" => Some(4),
                _ => None,
            } {
                self.next();
                lanes = v;
            } else if let Some(parsed) = Type::from_name(name) {
                self.next();
                if ty.replace(parsed).is_some() {
                    return Err(self.err(t, "more than one type in a declaration"));
                }
            } else if name == "ptr" {
                return Err(self.err(t, "`.ptr` is only allowed on kernel parameters"));
            } else {
                return Err(self.err(t, format!("unsupported type or attribute `.{name}`")));
            }
        }
        match ty {
            Some(ty) => Ok((ty, align, lanes)),
            None => Err(self.err(
                self.peek(),
                format!("expected a type, found {}", self.found()),
            )),
        }
    }

    pub(super) fn alignment(&mut self) -> PResult<u32> {
        let t = self.peek();
        let v = self.uint("an alignment")?;
        if v == 0 || !v.is_power_of_two() || v > 1 << 16 {
            return Err(self.err(
                t,
                format!("alignment {v} is not a power of two up to 65536"),
            ));
        }
        Ok(v as u32)
    }

    pub(super) fn dims(&mut self) -> PResult<Vec<Option<u64>>> {
        let mut dims = Vec::new();
        while self.at(TokenKind::LBracket) {
            let t = self.next();
            if dims.len() == MAX_ARRAY_DIMS {
                return Err(self.err(t, "too many array dimensions"));
            }
            if self.eat(TokenKind::RBracket) {
                dims.push(None);
                continue;
            }
            dims.push(Some(self.uint("an array size")?));
            self.expect(TokenKind::RBracket, "`]`")?;
        }
        Ok(dims)
    }

    /// A literal or a brace list of them, flattened (iteratively: no recursion).
    pub(super) fn initializer(&mut self) -> PResult<Vec<Literal>> {
        let mut values = Vec::new();
        if !self.at(TokenKind::LBrace) {
            values.push(self.literal("an initial value")?);
            return Ok(values);
        }
        let mut depth = 0usize;
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::LBrace => {
                    self.next();
                    depth += 1;
                    if depth > MAX_ARRAY_DIMS + 1 {
                        return Err(self.err(t, "initialiser nested too deeply"));
                    }
                    continue;
                }
                TokenKind::RBrace => {
                    self.next();
                    depth -= 1;
                }
                _ => values.push(self.literal("an initial value")?),
            }
            if depth == 0 {
                return Ok(values);
            }
            if !self.eat(TokenKind::Comma) && !self.at(TokenKind::RBrace) {
                return Err(self.err(
                    self.peek(),
                    format!(
                        "expected `,` or `}}` in initialiser, found {}",
                        self.found()
                    ),
                ));
            }
        }
    }

    /// A possibly negative integer or float literal.
    pub(super) fn literal(&mut self, what: &str) -> PResult<Literal> {
        let neg = self.eat(TokenKind::Minus);
        let t = self.peek();
        let lit = match t.kind {
            TokenKind::Int => Literal::Int(i128::from(
                parse_int(self.text(t)).map_err(|m| self.err(t, m))?,
            )),
            TokenKind::Float => parse_float(self.text(t)).map_err(|m| self.err(t, m))?,
            TokenKind::Ident => {
                return Err(self.err(
                    t,
                    "unsupported initialiser: addresses of variables are not supported",
                ))
            }
            _ => return Err(self.err(t, format!("expected {what}, found {}", self.found()))),
        };
        self.next();
        Ok(if neg { negate(lit) } else { lit })
    }

    /// `.reg [.type] name{<N>} {, name{<N>}} ;`
    pub(super) fn reg_decl(&mut self) -> PResult<RegDecl> {
        let start = self.next();
        if matches!(self.dot_name(), Some("v2" | "v4")) {
            return Err(self.err(self.peek(), "vector registers are not supported"));
        }
        let t = self.peek();
        let ty = self.dot_name().and_then(Type::from_name).ok_or_else(|| {
            self.err(
                t,
                format!("expected a register type, found {}", self.found()),
            )
        })?;
        self.next();
        let mut names = Vec::new();
        loop {
            let (name, _) = self.ident("a register name")?;
            let range = if self.eat(TokenKind::Lt) {
                let n = self.u32_value("a register count")?;
                self.expect(TokenKind::Gt, "`>`")?;
                Some(n)
            } else {
                None
            };
            names.push(RegName { name, range });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::Semi, "`;`")?;
        Ok(RegDecl {
            ty,
            names,
            line: start.line,
            col: start.col,
        })
    }
}

/// The state space a variable directive declares.
pub(super) fn var_space(name: &str) -> Option<Space> {
    match name {
        "global" | "shared" | "const" | "local" | "param" => Space::from_name(name),
        _ => None,
    }
}
