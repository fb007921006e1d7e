//! The CUDA C++ lexer: one source line into tokens (C++ [lex]; CUDA C++ Programming Guide,
//! "C++ Language Support"). Comments are removed by the preprocessor before lexing.

use super::error::{err, Pos, Res};

/// A token kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Ident(String),
    /// An integer literal: value, `u` suffix, `l`/`ll` suffix, written in hex/octal.
    Int(u64, bool, bool, bool),
    /// A floating literal: value, `f` suffix.
    Float(f64, bool),
    Str(String),
    Char(i64),
    Punct(&'static str),
    /// `#pragma unroll` or `#pragma unroll N` (a hint the parser accepts before a loop).
    PragmaUnroll(Option<u32>),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

const PUNCTS: [&str; 49] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "##", "+", "-", "*", "/", "%", "<", ">", "=",
    "!", "~", "&", "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "#",
];

/// Lexes one line (`line` is its 1-based number) and appends its tokens to `out`.
pub fn lex_line(text: &str, line: u32, out: &mut Vec<Token>) -> Res<()> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let pos = Pos {
            line,
            col: i as u32 + 1,
        };
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(text[s..i].to_string()),
                pos,
            });
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit())
        {
            let s = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'+' || b[i] == b'-')
                        && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')
                        && !text[s..i].starts_with("0x")))
            {
                i += 1;
            }
            out.push(Token {
                tok: number(&text[s..i], pos)?,
                pos,
            });
        } else if c == b'"' {
            let s = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            if i >= b.len() {
                return err(pos, "expected `\"` to end the string literal");
            }
            out.push(Token {
                tok: Tok::Str(text[s..i].to_string()),
                pos,
            });
            i += 1;
        } else if c == b'\'' {
            let rest = &b[i + 1..];
            let (v, n) = match rest {
                [b'\\', e, b'\'', ..] => (
                    match e {
                        b'n' => 10,
                        b't' => 9,
                        b'0' => 0,
                        b'r' => 13,
                        other => *other as i64,
                    },
                    3,
                ),
                [ch, b'\'', ..] => (*ch as i64, 2),
                _ => return err(pos, "expected a character literal like 'a'"),
            };
            out.push(Token {
                tok: Tok::Char(v),
                pos,
            });
            i += 1 + n;
        } else {
            let rest = &text[i..];
            match PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                Some(p) => {
                    out.push(Token {
                        tok: Tok::Punct(p),
                        pos,
                    });
                    i += p.len();
                }
                None => {
                    let ch = rest.chars().next().unwrap_or('?');
                    return err(pos, format!("unexpected character `{ch}`"));
                }
            }
        }
    }
    Ok(())
}

fn number(s: &str, pos: Pos) -> Res<Tok> {
    let lower = s.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = !is_hex && (lower.contains('.') || lower.contains('e'));
    if is_float {
        let (body, f32) = match lower.strip_suffix('f') {
            Some(b) => (b, true),
            None => (lower.trim_end_matches('l'), false),
        };
        return match body.parse::<f64>() {
            Ok(v) => Ok(Tok::Float(v, f32)),
            Err(_) => err(pos, format!("malformed floating literal `{s}`")),
        };
    }
    let digits = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[digits.len()..];
    let unsigned = suffix.contains('u');
    let long = suffix.contains('l');
    let (radix, body) = if is_hex {
        (16, &digits[2..])
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    match u64::from_str_radix(body, radix) {
        Ok(v) => Ok(Tok::Int(v, unsigned, long, radix != 10)),
        Err(_) => err(pos, format!("malformed integer literal `{s}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_numbers_and_puncts() {
        let mut out = Vec::new();
        lex_line("x <<= 0x1Fu + 1.5f - 2e3 >> 'a'", 3, &mut out).unwrap();
        let toks: Vec<Tok> = out.into_iter().map(|t| t.tok).collect();
        assert_eq!(toks[1], Tok::Punct("<<="));
        assert_eq!(toks[2], Tok::Int(31, true, false, true));
        assert_eq!(toks[4], Tok::Float(1.5, true));
        assert_eq!(toks[6], Tok::Float(2000.0, false));
        assert_eq!(toks[8], Tok::Char(97));
    }
}
