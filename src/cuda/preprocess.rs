//! The C preprocessor subset CUDA kernels use (C++ [cpp]; CUDA C++ Programming Guide,
//! "#pragma unroll"): `#define` (object- and function-like, `#` and `##`), `#undef`,
//! `#if/#ifdef/#ifndef/#elif/#else/#endif` with `defined`, `#include` skipped with a note,
//! `#pragma unroll` kept as a token, and the `// warpstep:` launch lines collected.

use super::error::{err, Pos, Res};
use super::lexer::{lex_line, Tok, Token};
use std::collections::HashMap;

/// The preprocessed source: tokens, notes, and the `// warpstep:` lines (line, text after
/// `//`).
pub struct Preprocessed {
    pub tokens: Vec<Token>,
    pub notes: Vec<String>,
    pub launch_lines: Vec<(u32, String)>,
}

struct Macro {
    params: Option<Vec<String>>,
    body: Vec<Token>,
}

const MAX_TOKENS: usize = 1 << 20;
const MAX_DEPTH: usize = 64;

/// Removes comments, keeping line breaks and columns.
fn strip_comments(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut in_str: Option<char> = None;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = in_str {
            out.push(c);
            if c == '\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 1;
            } else if c == q || c == '\n' {
                in_str = None;
            }
            i += 1;
        } else if c == '"' || c == '\'' {
            in_str = Some(c);
            out.push(c);
            i += 1;
        } else if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            out.push_str("  ");
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                out.push(if b[i] == '\n' { '\n' } else { ' ' });
                i += 1;
            }
            out.push_str("  ");
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Preprocesses `src`.
pub fn preprocess(src: &str) -> Res<Preprocessed> {
    let mut launch_lines = Vec::new();
    for (n, l) in src.lines().enumerate() {
        let t = l.trim_start();
        if t.starts_with("// warpstep:") {
            launch_lines.push((n as u32 + 1, t[2..].trim().to_string()));
        }
    }
    let clean = strip_comments(src);
    let raw: Vec<&str> = clean.lines().collect();
    let mut pp = Pp {
        macros: HashMap::new(),
        notes: Vec::new(),
        out: Vec::new(),
    };
    let mut pending: Vec<Token> = Vec::new();
    // (this branch is active, some branch was taken, the enclosing region is active)
    let mut conds: Vec<(bool, bool, bool)> = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let start = i as u32 + 1;
        let mut text = raw[i].to_string();
        while text.ends_with('\\') && i + 1 < raw.len() {
            text.pop();
            i += 1;
            text.push(' ');
            text.push_str(raw[i]);
        }
        i += 1;
        let active = conds.last().map_or(true, |c| c.0);
        let trimmed = text.trim_start();
        if let Some(directive) = trimmed.strip_prefix('#') {
            let indent = (text.len() - trimmed.len()) as u32;
            let pos = Pos {
                line: start,
                col: indent + 1,
            };
            let d = directive.trim_start();
            let name: String = d
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = &d[name.len()..];
            match name.as_str() {
                "if" | "ifdef" | "ifndef" => {
                    let value = if !active {
                        false
                    } else if name == "if" {
                        pp.eval_if(rest, start, pos)?
                    } else {
                        let m = rest.split_whitespace().next().unwrap_or("");
                        pp.macros.contains_key(m) == (name == "ifdef")
                    };
                    conds.push((active && value, active && value, active));
                }
                "elif" | "else" => {
                    let Some(&(_, taken, outer)) = conds.last() else {
                        return err(pos, format!("#{name} without #if"));
                    };
                    let value =
                        outer && !taken && (name == "else" || pp.eval_if(rest, start, pos)?);
                    if let Some(c) = conds.last_mut() {
                        *c = (value, taken || value, outer);
                    }
                }
                "endif" => {
                    if conds.pop().is_none() {
                        return err(pos, "#endif without #if");
                    }
                }
                _ if !active => {}
                "define" => {
                    pp.flush(&mut pending)?;
                    pp.define(rest, start, pos)?;
                }
                "undef" => {
                    pp.flush(&mut pending)?;
                    let m = rest.split_whitespace().next().unwrap_or("");
                    pp.macros.remove(m);
                }
                "include" => pp.notes.push(format!(
                    "line {start}: #include{} skipped: the device code must not need it",
                    rest.trim_end()
                )),
                "pragma" => {
                    if let Some(arg) = rest.trim_start().strip_prefix("unroll") {
                        let count = arg.split_whitespace().next().and_then(|n| n.parse().ok());
                        pending.push(Token {
                            tok: Tok::PragmaUnroll(count),
                            pos,
                        });
                    }
                }
                "error" => return err(pos, format!("#error{}", rest.trim_end())),
                "" | "line" | "warning" => {}
                other => return err(pos, format!("unknown preprocessor directive #{other}")),
            }
        } else if active {
            lex_line(&text, start, &mut pending)?;
        }
    }
    if !conds.is_empty() {
        return err(
            Pos {
                line: raw.len() as u32,
                col: 1,
            },
            "expected #endif before the end of the file",
        );
    }
    pp.flush(&mut pending)?;
    Ok(Preprocessed {
        tokens: pp.out,
        notes: pp.notes,
        launch_lines,
    })
}

struct Pp {
    macros: HashMap<String, Macro>,
    notes: Vec<String>,
    out: Vec<Token>,
}

fn ident(t: &Token) -> Option<&str> {
    match &t.tok {
        Tok::Ident(s) => Some(s),
        _ => None,
    }
}

impl Pp {
    fn flush(&mut self, pending: &mut Vec<Token>) -> Res<()> {
        let toks = std::mem::take(pending);
        let mut out = std::mem::take(&mut self.out);
        self.expand(&toks, &mut Vec::new(), 0, &mut out)?;
        self.out = out;
        Ok(())
    }

    fn define(&mut self, rest: &str, line: u32, pos: Pos) -> Res<()> {
        let mut toks = Vec::new();
        lex_line(rest, line, &mut toks)?;
        let Some(name) = toks.first().and_then(ident).map(str::to_string) else {
            return err(pos, "expected a macro name after #define");
        };
        let name_end = rest.find(name.as_str()).unwrap_or(0) + name.len();
        let function_like = rest[name_end..].starts_with('(');
        let mut k = 1;
        let params = if function_like {
            let mut ps = Vec::new();
            k = 2;
            loop {
                match toks.get(k).map(|t| &t.tok) {
                    Some(Tok::Ident(p)) => ps.push(p.clone()),
                    Some(Tok::Punct(")")) => {
                        k += 1;
                        break;
                    }
                    Some(Tok::Punct(",")) => {}
                    _ => return err(pos, "expected a parameter name or `)` in the macro"),
                }
                k += 1;
            }
            Some(ps)
        } else {
            None
        };
        let body = toks.split_off(k.min(toks.len()));
        self.macros.insert(name, Macro { params, body });
        Ok(())
    }

    fn eval_if(&self, rest: &str, line: u32, pos: Pos) -> Res<bool> {
        let mut toks = Vec::new();
        lex_line(rest, line, &mut toks)?;
        // `defined X` and `defined(X)` first, then macros, then other names are 0.
        let mut pre = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            if ident(&toks[i]) == Some("defined") {
                let paren = matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")));
                let at = if paren { i + 2 } else { i + 1 };
                let Some(name) = toks.get(at).and_then(ident) else {
                    return err(pos, "expected a macro name after `defined`");
                };
                let v = self.macros.contains_key(name) as u64;
                pre.push(Token {
                    tok: Tok::Int(v, false, false, false),
                    pos: toks[i].pos,
                });
                i = at + 1 + paren as usize;
            } else {
                pre.push(toks[i].clone());
                i += 1;
            }
        }
        let mut expanded = Vec::new();
        self.expand(&pre, &mut Vec::new(), 0, &mut expanded)?;
        for t in &mut expanded {
            if let Tok::Ident(name) = &t.tok {
                t.tok = Tok::Int((name == "true") as u64, false, false, false);
            }
        }
        super::parser::eval_pp_condition(expanded, pos).map(|v| v != 0)
    }

    fn expand(
        &self,
        toks: &[Token],
        disabled: &mut Vec<String>,
        depth: usize,
        out: &mut Vec<Token>,
    ) -> Res<()> {
        let mut i = 0;
        while i < toks.len() {
            if out.len() > MAX_TOKENS {
                return err(toks[i].pos, "the macros expand to too many tokens");
            }
            let t = &toks[i];
            let Some(name) = ident(t) else {
                out.push(t.clone());
                i += 1;
                continue;
            };
            let Some(m) = self
                .macros
                .get(name)
                .filter(|_| !disabled.iter().any(|d| d == name))
            else {
                out.push(t.clone());
                i += 1;
                continue;
            };
            if depth > MAX_DEPTH {
                return err(t.pos, format!("macro `{name}` nests too deeply"));
            }
            let body = match &m.params {
                None => {
                    i += 1;
                    m.body.clone()
                }
                Some(params) => {
                    if !matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
                        out.push(t.clone());
                        i += 1;
                        continue;
                    }
                    let (args, next) = collect_args(toks, i + 2, t.pos)?;
                    i = next;
                    if args.len() != params.len() && !(params.is_empty() && args.len() == 1) {
                        return err(
                            t.pos,
                            format!(
                                "macro `{name}` expects {} arguments, got {}",
                                params.len(),
                                args.len()
                            ),
                        );
                    }
                    let mut expanded_args = Vec::new();
                    for a in &args {
                        let mut e = Vec::new();
                        self.expand(a, disabled, depth + 1, &mut e)?;
                        expanded_args.push(e);
                    }
                    substitute(&m.body, params, &args, &expanded_args, t.pos)?
                }
            };
            let body: Vec<Token> = body
                .into_iter()
                .map(|b| Token {
                    tok: b.tok,
                    pos: t.pos,
                })
                .collect();
            disabled.push(name.to_string());
            self.expand(&body, disabled, depth + 1, out)?;
            disabled.pop();
        }
        Ok(())
    }
}

/// The arguments of a function-like macro call starting after its `(`; returns them and the
/// index after the `)`.
fn collect_args(toks: &[Token], mut i: usize, pos: Pos) -> Res<(Vec<Vec<Token>>, usize)> {
    let mut args = vec![Vec::new()];
    let mut depth = 0;
    while i < toks.len() {
        match &toks[i].tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") if depth == 0 => return Ok((args, i + 1)),
            Tok::Punct(")") => depth -= 1,
            Tok::Punct(",") if depth == 0 => {
                args.push(Vec::new());
                i += 1;
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(toks[i].clone());
        }
        i += 1;
    }
    err(pos, "expected `)` to end the macro's arguments")
}

fn spell(t: &Token) -> String {
    match &t.tok {
        Tok::Ident(s) => s.clone(),
        Tok::Int(v, ..) => v.to_string(),
        Tok::Float(v, f) => format!("{v}{}", if *f { "f" } else { "" }),
        Tok::Punct(p) => p.to_string(),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Char(c) => format!("'{}'", char::from_u32(*c as u32).unwrap_or('?')),
        Tok::PragmaUnroll(_) | Tok::Eof => String::new(),
    }
}

fn substitute(
    body: &[Token],
    params: &[String],
    raw: &[Vec<Token>],
    expanded: &[Vec<Token>],
    pos: Pos,
) -> Res<Vec<Token>> {
    let param = |t: &Token| ident(t).and_then(|n| params.iter().position(|p| p == n));
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let t = &body[i];
        if t.tok == Tok::Punct("#") {
            if let Some(p) = body.get(i + 1).and_then(param) {
                let text: Vec<String> = raw[p].iter().map(spell).collect();
                out.push(Token {
                    tok: Tok::Str(text.join(" ")),
                    pos,
                });
                i += 2;
                continue;
            }
        }
        if t.tok == Tok::Punct("##") {
            let right: Vec<Token> = match body.get(i + 1) {
                Some(r) => match param(r) {
                    Some(p) => raw[p].clone(),
                    None => vec![r.clone()],
                },
                None => return err(pos, "`##` at the end of a macro"),
            };
            let left = out.pop().map(|l| spell(&l)).unwrap_or_default();
            let joined = format!("{left}{}", right.first().map(spell).unwrap_or_default());
            lex_line(&joined, pos.line, &mut out)?;
            out.extend(right.into_iter().skip(1));
            i += 2;
            continue;
        }
        let next_is_paste = body.get(i + 1).map(|n| &n.tok) == Some(&Tok::Punct("##"));
        match param(t) {
            Some(p) if next_is_paste => out.extend(raw[p].iter().cloned()),
            Some(p) => out.extend(expanded[p].iter().cloned()),
            None => out.push(t.clone()),
        }
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(src: &str) -> Vec<String> {
        preprocess(src).unwrap().tokens.iter().map(spell).collect()
    }

    #[test]
    fn defines_and_conditionals() {
        let src = "#define N 4\n#define SQ(x) ((x) * (x))\n#if N > 2 && defined(N)\nint a = SQ(N);\n#else\nint b;\n#endif\n#ifndef M\nint c; // warpstep: no\n#endif\n";
        assert_eq!(idents(src).join(" "), "int a = ( ( 4 ) * ( 4 ) ) ; int c ;");
    }

    #[test]
    fn self_reference_stops() {
        assert_eq!(idents("#define x x + 1\nx").join(" "), "x + 1");
    }

    #[test]
    fn unterminated_if_is_an_error() {
        assert!(preprocess("#if 1\nint a;").is_err());
    }
}
