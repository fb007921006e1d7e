//! The parser's cursor over the token stream: `Parser` itself and its token plumbing
//! (peek, next, expect, error construction). Every lookahead goes through `Parser::peek`,
//! which returns the final `Eof` token rather than indexing past the end.

use super::error::PtxError;
use super::lexer::{Token, TokenKind};
use super::literal::parse_int;

pub(super) type PResult<T> = Result<T, PtxError>;

/// The parser's state: the source text, its tokens and the position of the next one. Its
/// methods are spread over [`super::parser`] (module level and functions),
/// [`super::parse_declarations`] and [`super::parse_instructions`].
pub(super) struct Parser<'s> {
    pub(super) src: &'s str,
    pub(super) toks: Vec<Token>,
    pub(super) pos: usize,
}

const EOF_TOKEN: Token = Token {
    kind: TokenKind::Eof,
    start: 0,
    end: 0,
    line: 1,
    col: 1,
};

impl<'s> Parser<'s> {
    pub(super) fn peek(&self) -> Token {
        self.peek_at(0)
    }

    pub(super) fn peek_at(&self, ahead: usize) -> Token {
        let last = self.toks.last().copied().unwrap_or(EOF_TOKEN);
        self.toks.get(self.pos + ahead).copied().unwrap_or(last)
    }

    pub(super) fn next(&mut self) -> Token {
        let t = self.peek();
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    pub(super) fn prev(&self) -> Token {
        match self.pos.checked_sub(1) {
            Some(i) => self.toks.get(i).copied().unwrap_or(EOF_TOKEN),
            None => self.peek(),
        }
    }

    pub(super) fn text(&self, t: Token) -> &'s str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    pub(super) fn at(&self, kind: TokenKind) -> bool {
        self.peek().kind == kind
    }

    pub(super) fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.next();
            true
        } else {
            false
        }
    }

    pub(super) fn err(&self, t: Token, msg: impl Into<String>) -> PtxError {
        PtxError::new(t.line, t.col, msg)
    }

    /// What the current token looks like, for "expected X, found Y" messages.
    pub(super) fn found(&self) -> String {
        let t = self.peek();
        match t.kind {
            TokenKind::Eof => "end of input".to_string(),
            _ => format!("`{}`", self.text(t)),
        }
    }

    pub(super) fn expect(&mut self, kind: TokenKind, what: &str) -> PResult<Token> {
        if self.at(kind) {
            return Ok(self.next());
        }
        if kind == TokenKind::Semi {
            let prev = self.prev();
            return Err(self.err(prev, format!("missing `;` after `{}`", self.text(prev))));
        }
        Err(self.err(
            self.peek(),
            format!("expected {what}, found {}", self.found()),
        ))
    }

    pub(super) fn ident(&mut self, what: &str) -> PResult<(String, Token)> {
        let t = self.expect(TokenKind::Ident, what)?;
        Ok((self.text(t).to_string(), t))
    }

    pub(super) fn uint(&mut self, what: &str) -> PResult<u64> {
        let t = self.expect(TokenKind::Int, what)?;
        parse_int(self.text(t)).map_err(|m| self.err(t, m))
    }

    pub(super) fn u32_value(&mut self, what: &str) -> PResult<u32> {
        let t = self.peek();
        let v = self.uint(what)?;
        u32::try_from(v).map_err(|_| self.err(t, format!("{what} {v} is too large")))
    }

    /// A `.name` modifier token's name without the dot, if the current token is one.
    pub(super) fn dot_name(&self) -> Option<&'s str> {
        let t = self.peek();
        (t.kind == TokenKind::Dot)
            .then(|| self.text(t).get(1..))
            .flatten()
    }
}
