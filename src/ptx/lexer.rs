//! Hand-written PTX lexer (PTX ISA "Syntax": source format, comments, identifiers, constants).
//!
//! The whole text is turned into a `Vec<Token>` up front. Tokens borrow nothing: they hold byte
//! offsets into the source plus the 1-based line and column of their first character, so the
//! parser can slice their text and report positions. Comments are skipped, except that a
//! comment line starting `// warpstep:` is kept as a [`LaunchComment`] (issue 3, `warpstep run`).
//! The lexer walks bytes; it never indexes past the end and never panics.

use super::error::PtxError;

/// What a token is. Its text is `&src[start..end]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// An identifier (PTX ISA "Identifiers"): `ld`, `%r1`, `$Lt_0_1`, `_Z3fooi`, `_` (the sink), `%tid`.
    Ident,
    /// A dot followed by identifier characters: a directive (`.entry`) or a modifier
    /// (`.u32`, `.x`). May contain `::` (`.L1::evict_last`), which the parser rejects.
    Dot,
    /// An integer literal (decimal, `0x` hex, `0b` binary, leading-zero octal, optional `U`).
    Int,
    /// A floating-point literal: `0fXXXXXXXX`, `0dXXXXXXXXXXXXXXXX` or decimal `1.5`.
    Float,
    /// A string literal including its quotes.
    Str,
    /// `,`
    Comma,
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `@`
    At,
    /// `!`
    Bang,
    /// `|`
    Pipe,
    /// `=`
    Eq,
    /// End of input (always the last token).
    Eof,
}

/// One token: kind, byte span in the source, and the position of its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column in characters.
    pub col: u32,
}

/// A comment line `// warpstep: FLAGS` (launch flags embedded in the PTX, issue 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchComment {
    /// 1-based line of the comment.
    pub line: u32,
    /// The text after `warpstep:`, trimmed.
    pub text: String,
}

/// The lexer's output: tokens (ending with [`TokenKind::Eof`]) and the launch comments.
#[derive(Debug, Clone, Default)]
pub struct Lexed {
    /// Tokens in source order, the last one `Eof`.
    pub tokens: Vec<Token>,
    /// `// warpstep:` comment lines in source order.
    pub launch_comments: Vec<LaunchComment>,
}

/// Largest PTX text accepted (bytes); offsets are `u32`.
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// Split `src` into tokens. Errors: an unexpected character, an unterminated `/* */` comment or
/// string, or a text over [`MAX_SOURCE_BYTES`].
pub fn lex(src: &str) -> Result<Lexed, PtxError> {
    if src.len() > MAX_SOURCE_BYTES {
        return Err(PtxError::new(
            1,
            0,
            format!("PTX text too large ({} bytes)", src.len()),
        ));
    }
    let mut lexer = Lexer {
        src: src.as_bytes(),
        pos: 0,
        line: 1,
        col: 1,
        line_has_token: false,
        out: Lexed::default(),
    };
    lexer.run()?;
    Ok(lexer.out)
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
    line_has_token: bool,
    out: Lexed,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b == b'%'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.pos + ahead).copied()
    }

    /// Advance one byte, keeping line and column (columns count characters, not bytes).
    fn bump(&mut self) {
        if let Some(b) = self.peek(0) {
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                self.col = 1;
                self.line_has_token = false;
            } else if b & 0xC0 != 0x80 {
                self.col += 1;
            }
        }
    }

    fn bump_while(&mut self, pred: impl Fn(u8) -> bool) {
        while self.peek(0).is_some_and(&pred) {
            self.bump();
        }
    }

    fn error(&self, line: u32, col: u32, msg: impl Into<String>) -> PtxError {
        PtxError::new(line, col, msg)
    }

    fn run(&mut self) -> Result<(), PtxError> {
        while let Some(b) = self.peek(0) {
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C => self.bump(),
                b'/' if self.peek(1) == Some(b'/') => self.line_comment(),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment()?,
                _ => self.token()?,
            }
        }
        self.push(TokenKind::Eof, self.pos, self.line, self.col);
        Ok(())
    }

    fn push(&mut self, kind: TokenKind, start: usize, line: u32, col: u32) {
        self.out.tokens.push(Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            line,
            col,
        });
        self.line_has_token = true;
    }

    fn line_comment(&mut self) {
        let first_on_line = !self.line_has_token;
        let line = self.line;
        let start = self.pos + 2;
        self.bump_while(|b| b != b'\n');
        if !first_on_line {
            return;
        }
        let body = self.src.get(start..self.pos).unwrap_or_default();
        let body = String::from_utf8_lossy(body);
        if let Some(rest) = body.trim_start().strip_prefix("warpstep:") {
            self.out.launch_comments.push(LaunchComment {
                line,
                text: rest.trim().to_string(),
            });
        }
    }

    fn block_comment(&mut self) -> Result<(), PtxError> {
        let (line, col) = (self.line, self.col);
        self.bump();
        self.bump();
        loop {
            match self.peek(0) {
                None => return Err(self.error(line, col, "unterminated `/*` comment")),
                Some(b'*') if self.peek(1) == Some(b'/') => {
                    self.bump();
                    self.bump();
                    return Ok(());
                }
                Some(_) => self.bump(),
            }
        }
    }

    fn token(&mut self) -> Result<(), PtxError> {
        let (start, line, col) = (self.pos, self.line, self.col);
        let b = self.peek(0).unwrap_or(0);
        let kind = if is_ident_start(b) {
            self.bump();
            self.bump_while(is_ident_char);
            TokenKind::Ident
        } else if b == b'.' {
            self.dot(line, col)?
        } else if b.is_ascii_digit() {
            self.number(start)
        } else if b == b'"' {
            self.string(line, col)?
        } else {
            let kind = punct(b).ok_or_else(|| {
                let shown = std::str::from_utf8(self.src.get(start..).unwrap_or_default())
                    .ok()
                    .and_then(|s| s.chars().next())
                    .unwrap_or('\u{FFFD}');
                self.error(line, col, format!("unexpected character `{shown}`"))
            })?;
            self.bump();
            kind
        };
        self.push(kind, start, line, col);
        Ok(())
    }

    fn dot(&mut self, line: u32, col: u32) -> Result<TokenKind, PtxError> {
        self.bump();
        if !self.peek(0).is_some_and(is_ident_char) {
            return Err(self.error(line, col, "`.` must be followed by a name"));
        }
        loop {
            self.bump_while(is_ident_char);
            let scoped = self.peek(0) == Some(b':')
                && self.peek(1) == Some(b':')
                && self.peek(2).is_some_and(is_ident_char);
            if !scoped {
                return Ok(TokenKind::Dot);
            }
            self.bump();
            self.bump();
        }
    }

    /// A run of digits and letters (`0x1F`, `0f3F800000`, `12U`), plus a decimal fraction and
    /// exponent when the run is all digits (`1.5`, `2.0e-3`). Validation happens in the parser.
    fn number(&mut self, start: usize) -> TokenKind {
        self.bump_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        let run = self.src.get(start..self.pos).unwrap_or_default();
        let all_digits = run.iter().all(u8::is_ascii_digit);
        if all_digits
            && self.peek(0) == Some(b'.')
            && self.peek(1).is_some_and(|b| b.is_ascii_digit())
        {
            self.bump();
            self.bump_while(|b| b.is_ascii_digit());
            if matches!(self.peek(0), Some(b'e' | b'E')) {
                let sign = usize::from(matches!(self.peek(1), Some(b'+' | b'-')));
                if self.peek(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                    for _ in 0..=sign {
                        self.bump();
                    }
                    self.bump_while(|b| b.is_ascii_digit());
                }
            }
            return TokenKind::Float;
        }
        let hex_float = run.len() > 2
            && run.first() == Some(&b'0')
            && matches!(run.get(1), Some(b'f' | b'F' | b'd' | b'D'));
        if hex_float {
            TokenKind::Float
        } else {
            TokenKind::Int
        }
    }

    fn string(&mut self, line: u32, col: u32) -> Result<TokenKind, PtxError> {
        self.bump();
        loop {
            match self.peek(0) {
                None | Some(b'\n') => return Err(self.error(line, col, "unterminated string")),
                Some(b'\\') => {
                    self.bump();
                    if self.peek(0) != Some(b'\n') {
                        self.bump();
                    }
                }
                Some(b'"') => {
                    self.bump();
                    return Ok(TokenKind::Str);
                }
                Some(_) => self.bump(),
            }
        }
    }
}

fn punct(b: u8) -> Option<TokenKind> {
    Some(match b {
        b',' => TokenKind::Comma,
        b';' => TokenKind::Semi,
        b':' => TokenKind::Colon,
        b'{' => TokenKind::LBrace,
        b'}' => TokenKind::RBrace,
        b'[' => TokenKind::LBracket,
        b']' => TokenKind::RBracket,
        b'(' => TokenKind::LParen,
        b')' => TokenKind::RParen,
        b'+' => TokenKind::Plus,
        b'-' => TokenKind::Minus,
        b'<' => TokenKind::Lt,
        b'>' => TokenKind::Gt,
        b'@' => TokenKind::At,
        b'!' => TokenKind::Bang,
        b'|' => TokenKind::Pipe,
        b'=' => TokenKind::Eq,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, String)> {
        let lexed = lex(src).unwrap();
        lexed
            .tokens
            .iter()
            .map(|t| (t.kind, src[t.start as usize..t.end as usize].to_string()))
            .collect()
    }

    #[test]
    fn instruction_tokens() {
        use TokenKind::*;
        let got = kinds("@!%p1 ld.global.v2.f32 {%f1,_}, [%rd2+-4];");
        let want = [
            (At, "@"),
            (Bang, "!"),
            (Ident, "%p1"),
            (Ident, "ld"),
            (Dot, ".global"),
            (Dot, ".v2"),
            (Dot, ".f32"),
            (LBrace, "{"),
            (Ident, "%f1"),
            (Comma, ","),
            (Ident, "_"),
            (RBrace, "}"),
            (Comma, ","),
            (LBracket, "["),
            (Ident, "%rd2"),
            (Plus, "+"),
            (Minus, "-"),
            (Int, "4"),
            (RBracket, "]"),
            (Semi, ";"),
            (Eof, ""),
        ];
        let want: Vec<_> = want.iter().map(|(k, s)| (*k, s.to_string())).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn numbers() {
        use TokenKind::*;
        assert_eq!(kinds("0f3F800000")[0], (Float, "0f3F800000".into()));
        assert_eq!(kinds("0d3ff0000000000000")[0].0, Float);
        assert_eq!(kinds("0x1fU")[0], (Int, "0x1fU".into()));
        assert_eq!(kinds("1.5e-3")[0], (Float, "1.5e-3".into()));
        assert_eq!(kinds("017")[0], (Int, "017".into()));
    }

    #[test]
    fn comments_positions_and_launch_lines() {
        let src = "// warpstep: --grid 2\n  /* a\n b */ add // warpstep: not a line comment\n";
        let lexed = lex(src).unwrap();
        assert_eq!(lexed.launch_comments.len(), 1);
        assert_eq!(lexed.launch_comments[0].text, "--grid 2");
        let add = lexed.tokens[0];
        assert_eq!((add.line, add.col), (3, 7));
    }

    #[test]
    fn errors() {
        assert_eq!(lex("add /* open").unwrap_err().line, 1);
        assert_eq!(lex("\n\"abc").unwrap_err().line, 2);
        assert!(lex("mov #1")
            .unwrap_err()
            .message
            .contains("unexpected character"));
        assert!(lex("a . b").is_err());
    }
}
