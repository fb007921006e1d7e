//! Parsing one instruction: its guard predicate, opcode and modifiers (decoded by
//! [`super::decode`]), and its operands (registers, immediates, addresses `[base+offset]`,
//! vectors `{...}` and call lists `(...)`) (PTX ISA "Instruction Statements", "Operand
//! Types", "Addresses as Operands", "Vectors as Operands").

use super::ast::{Guard, Instruction, Operand};
use super::decode::{decode, is_known_unsupported, DecodeError};
use super::lexer::{Token, TokenKind};
use super::parse_limits::MAX_LIST_ELEMENTS;
use super::token_cursor::{PResult, Parser};
use super::types::SpecialReg;

impl<'s> Parser<'s> {
    pub(super) fn instruction(&mut self) -> PResult<Instruction> {
        let first = self.peek();
        let text = self.statement_text(first);
        let guard = if self.eat(TokenKind::At) {
            let negate = self.eat(TokenKind::Bang);
            let (name, _) = self.ident("a guard predicate")?;
            Some(Guard { name, negate })
        } else {
            None
        };
        let (mnemonic, mt) = self.ident("an instruction")?;
        let mut mods = Vec::new();
        let mut end = mt.end;
        while self.peek().kind == TokenKind::Dot && self.peek().start == end {
            let m = self.next();
            end = m.end;
            mods.push(self.text(m).get(1..).unwrap_or(""));
        }
        let opcode_text = self
            .src
            .get(mt.start as usize..end as usize)
            .unwrap_or("")
            .to_string();
        let op = decode(&mnemonic, &mods).map_err(|e| {
            let why = match e {
                DecodeError::UnsupportedInstruction if is_known_unsupported(&mnemonic) => {
                    String::new()
                }
                DecodeError::UnsupportedInstruction => {
                    " (not an instruction warpstep knows)".into()
                }
                DecodeError::Invalid(m) => format!(" ({m})"),
            };
            self.err(
                mt,
                format!("unsupported instruction `{opcode_text}` in `{text}`{why}"),
            )
        })?;
        let operands = self.operands()?;
        self.expect(TokenKind::Semi, "`;`")?;
        Ok(Instruction {
            guard,
            op,
            opcode_text,
            operands,
            line: first.line,
            col: first.col,
            text,
        })
    }

    /// The text from `first` to the next `;` on the same or later lines (or to the end of the
    /// line when there is none), whitespace runs collapsed.
    pub(super) fn statement_text(&self, first: Token) -> String {
        let rest = self.src.get(first.start as usize..).unwrap_or("");
        let semi = rest.find(';').map(|i| i + 1);
        let eol = rest.find('\n').unwrap_or(rest.len());
        let end = semi
            .filter(|s| *s <= eol + 1)
            .unwrap_or(eol)
            .min(rest.len());
        let raw = rest.get(..end).unwrap_or(rest);
        let raw = raw.split("//").next().unwrap_or(raw);
        raw.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    pub(super) fn operands(&mut self) -> PResult<Vec<Operand>> {
        let mut ops = Vec::new();
        if self.at(TokenKind::Semi) {
            return Ok(ops);
        }
        loop {
            if ops.len() == MAX_LIST_ELEMENTS {
                return Err(self.err(self.peek(), "too many operands"));
            }
            ops.push(self.operand()?);
            if !self.eat(TokenKind::Comma) {
                self.missing_comma()?;
                return Ok(ops);
            }
        }
    }

    /// After an operand not followed by `,`: another operand on the same line means a comma
    /// was left out (`add.s32 %r1, %r2 %r3;`), which the `;` check would misreport.
    pub(super) fn missing_comma(&self) -> PResult<()> {
        let prev = self.prev();
        let next = self.peek();
        let starts_operand = matches!(
            next.kind,
            TokenKind::Ident
                | TokenKind::Int
                | TokenKind::Float
                | TokenKind::LBracket
                | TokenKind::LBrace
                | TokenKind::Minus
                | TokenKind::Bang
        );
        if starts_operand && next.line == prev.line {
            return Err(self.err(
                next,
                format!(
                    "missing `,` between `{}` and `{}` (operands are separated by commas)",
                    self.text(prev),
                    self.text(next)
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn operand(&mut self) -> PResult<Operand> {
        let t = self.peek();
        match t.kind {
            TokenKind::LBracket => self.address(),
            TokenKind::LBrace => self.vector(),
            TokenKind::LParen => self.call_list(),
            TokenKind::Bang => {
                self.next();
                let (name, _) = self.ident("a predicate after `!`")?;
                Ok(Operand::Not(name))
            }
            TokenKind::Minus | TokenKind::Int | TokenKind::Float => {
                Ok(Operand::Imm(self.literal("an operand")?))
            }
            TokenKind::Ident => self.named_operand(),
            _ => Err(self.err(t, format!("expected an operand, found {}", self.found()))),
        }
    }

    pub(super) fn named_operand(&mut self) -> PResult<Operand> {
        let (name, t) = self.ident("an operand")?;
        if name == "_" {
            return Ok(Operand::Sink);
        }
        let comp = self.adjacent_component(t);
        if name == "WARP_SZ" && comp.is_none() {
            return Ok(Operand::Special(SpecialReg::WarpSz));
        }
        if name.starts_with('%') {
            let special = SpecialReg::from_parts(&name, comp).map_err(|m| self.err(t, m))?;
            if let Some(s) = special {
                if comp.is_some() {
                    self.next();
                }
                return Ok(Operand::Special(s));
            }
            if SpecialReg::is_unsupported_name(&name) {
                return Err(self.err(t, format!("unsupported special register `{name}`")));
            }
        }
        if let Some(c) = comp {
            return Err(self.err(
                t,
                format!("vector register components are not supported (`{name}.{c}`)"),
            ));
        }
        if self.eat(TokenKind::Pipe) {
            let (second, _) = self.ident("a predicate after `|`")?;
            let second = (second != "_").then_some(second);
            return Ok(Operand::Pair(name, second));
        }
        let offset = self.offset()?;
        Ok(Operand::Name { name, offset })
    }

    /// A `.x`-style component written right after `t` (no space), without consuming it.
    pub(super) fn adjacent_component(&self, t: Token) -> Option<&'s str> {
        let n = self.peek();
        (n.kind == TokenKind::Dot && n.start == t.end)
            .then(|| self.text(n).get(1..))
            .flatten()
    }

    /// Optional `+n`, `-n` or `+-n` after a name or address base.
    pub(super) fn offset(&mut self) -> PResult<i64> {
        let plus = self.at(TokenKind::Plus);
        let minus = self.at(TokenKind::Minus);
        if !plus && !minus {
            return Ok(0);
        }
        self.next();
        let mut negative = minus;
        if plus && self.eat(TokenKind::Minus) {
            negative = true;
        }
        self.signed_offset(negative)
    }

    pub(super) fn signed_offset(&mut self, negative: bool) -> PResult<i64> {
        let t = self.peek();
        let v = self.uint("an offset")?;
        let v = i64::try_from(v).map_err(|_| self.err(t, "offset too large"))?;
        Ok(if negative { -v } else { v })
    }

    pub(super) fn address(&mut self) -> PResult<Operand> {
        self.next();
        let t = self.peek();
        let (base, offset) = match t.kind {
            TokenKind::Ident => {
                let (name, nt) = self.ident("an address")?;
                if self.adjacent_component(nt).is_some() {
                    return Err(self.err(nt, "a special register cannot be an address"));
                }
                (Some(name), self.offset()?)
            }
            TokenKind::Minus => {
                self.next();
                (None, self.signed_offset(true)?)
            }
            TokenKind::Int => (None, self.signed_offset(false)?),
            _ => return Err(self.err(t, format!("expected an address, found {}", self.found()))),
        };
        self.expect(TokenKind::RBracket, "`]`")?;
        Ok(Operand::Addr { base, offset })
    }

    pub(super) fn vector(&mut self) -> PResult<Operand> {
        let open = self.next();
        let mut elems = Vec::new();
        loop {
            if elems.len() == MAX_LIST_ELEMENTS {
                return Err(self.err(open, "vector operand too long"));
            }
            let (name, _) = self.ident("a register in a vector operand")?;
            elems.push((name != "_").then_some(name));
            if self.eat(TokenKind::RBrace) {
                return Ok(Operand::Vector(elems));
            }
            self.expect(TokenKind::Comma, "`,` or `}` in a vector operand")?;
        }
    }

    /// `( a, b, ... )` of `call`: names and literals only.
    pub(super) fn call_list(&mut self) -> PResult<Operand> {
        let open = self.next();
        let mut elems = Vec::new();
        if self.eat(TokenKind::RParen) {
            return Ok(Operand::List(elems));
        }
        loop {
            if elems.len() == MAX_LIST_ELEMENTS {
                return Err(self.err(open, "argument list too long"));
            }
            let t = self.peek();
            let elem = match t.kind {
                TokenKind::Ident => self.named_operand()?,
                TokenKind::Minus | TokenKind::Int | TokenKind::Float => {
                    Operand::Imm(self.literal("an argument")?)
                }
                _ => {
                    return Err(self.err(t, format!("expected an argument, found {}", self.found())))
                }
            };
            elems.push(elem);
            if self.eat(TokenKind::RParen) {
                return Ok(Operand::List(elems));
            }
            self.expect(TokenKind::Comma, "`,` or `)` in an argument list")?;
        }
    }
}
