//! Recursive-descent parser for device code: declarations, templates and statements (C++
//! [dcl], [temp], [stmt]; CUDA C++ Programming Guide "C++ Language Support"). Expressions are
//! in [`super::expr_parser`]. Host code is skipped with a note; classes, namespaces and type
//! template parameters are refused by name. Nesting is capped, so no input overflows the stack.

use super::ast::*;
use super::error::{err, Pos, Res};
use super::lexer::{Tok, Token};
use std::collections::{HashMap, HashSet};

/// The precedence level of `+`/`-` (the expression parser's): template arguments are parsed
/// from here so `>` ends them.
pub const SHIFT_LEVEL: usize = 8;

pub(crate) const MAX_NESTING: usize = 96;

pub struct Parser {
    pub(crate) toks: Vec<Token>,
    pub(crate) i: usize,
    pub(crate) typedefs: HashMap<String, Ty>,
    pub(crate) templates: HashSet<String>,
    pub(crate) structs: HashSet<String>,
    pub(crate) depth: usize,
    /// `#pragma unroll N` before the statement at a position.
    pub(crate) unroll_hints: Vec<(Pos, u32)>,
}

/// Declaration specifiers.
#[derive(Default, Clone)]
pub(crate) struct Specs {
    pub(crate) global: bool,
    pub(crate) device: bool,
    pub(crate) shared: bool,
    pub(crate) constant: bool,
    pub(crate) is_extern: bool,
    pub(crate) typedef: bool,
}

/// Parses the preprocessed tokens of a translation unit.
pub fn parse_unit(mut toks: Vec<Token>) -> Res<Unit> {
    let end = toks
        .last()
        .map(|t| t.pos)
        .unwrap_or(Pos { line: 1, col: 1 });
    toks.push(Token {
        tok: Tok::Eof,
        pos: end,
    });
    let mut p = Parser::new(toks);
    let mut unit = Unit::default();
    let mut extern_c_blocks = 0;
    loop {
        match p.peek().clone() {
            Tok::Eof => break,
            Tok::Punct("}") if extern_c_blocks > 0 => {
                extern_c_blocks -= 1;
                p.i += 1;
            }
            Tok::Punct(";") => p.i += 1,
            Tok::Ident(s) if s == "extern" && matches!(p.peek_at(1), Tok::Str(_)) => {
                if matches!(p.peek_at(2), Tok::Punct("{")) {
                    p.i += 3;
                    extern_c_blocks += 1;
                } else {
                    p.i += 2;
                    p.top_level(&mut unit, true)?;
                }
            }
            _ => p.top_level(&mut unit, extern_c_blocks > 0)?,
        }
    }
    unit.unroll_hints = p.unroll_hints;
    Ok(unit)
}

/// Evaluates a `#if` condition (its tokens, macros expanded).
pub fn eval_pp_condition(mut toks: Vec<Token>, pos: Pos) -> Res<i64> {
    toks.push(Token { tok: Tok::Eof, pos });
    let mut p = Parser::new(toks);
    let e = p.expr()?;
    if *p.peek() != Tok::Eof {
        return err(p.pos(), "expected the end of the #if condition");
    }
    super::fold::const_int(&e, &|_| None)
}

fn is_device_word(t: &Tok) -> bool {
    matches!(t, Tok::Ident(s) if matches!(s.as_str(), "__global__" | "__device__" | "__shared__" | "__constant__" | "typedef" | "struct" | "template" | "class" | "namespace" | "union"))
}

impl Specs {
    /// (shared, extern, constant).
    pub(crate) fn flags(&self) -> (bool, bool, bool) {
        (self.shared, self.is_extern, self.constant)
    }
}

impl Parser {
    /// A parser at the first of `toks` (which end with `Eof`), knowing no names yet.
    fn new(toks: Vec<Token>) -> Parser {
        Parser {
            toks,
            i: 0,
            typedefs: HashMap::new(),
            templates: HashSet::new(),
            structs: HashSet::new(),
            depth: 0,
            unroll_hints: Vec::new(),
        }
    }

    pub(crate) fn peek(&self) -> &Tok {
        &self.toks[self.i.min(self.toks.len() - 1)].tok
    }
    pub(crate) fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }
    pub(crate) fn pos(&self) -> Pos {
        self.toks[self.i.min(self.toks.len() - 1)].pos
    }
    pub(crate) fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    pub(crate) fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    pub(crate) fn eat(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    pub(crate) fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(v, ..) => format!("`{v}`"),
            Tok::Float(v, _) => format!("`{v}`"),
            Tok::Str(_) => "a string".into(),
            Tok::Char(_) => "a character".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::PragmaUnroll(_) => "`#pragma unroll`".into(),
            Tok::Eof => "the end of the file".into(),
        }
    }
    pub(crate) fn expect(&mut self, p: &str, what: &str) -> Res<()> {
        if self.eat(p) {
            Ok(())
        } else {
            err(
                self.pos(),
                format!("expected `{p}` {what}, found {}", self.describe()),
            )
        }
    }
    pub(crate) fn ident(&mut self, what: &str) -> Res<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.i += 1;
                Ok(s)
            }
            _ => err(
                self.pos(),
                format!("expected {what}, found {}", self.describe()),
            ),
        }
    }
    pub(crate) fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return err(self.pos(), "the code nests too deeply");
        }
        Ok(())
    }

    /// Skips host code: a function body or a declaration up to `;`.
    fn skip_host(&mut self, unit: &mut Unit) -> Res<()> {
        let start = self.pos();
        let mut name = String::new();
        let mut depth = 0usize;
        loop {
            match self.peek().clone() {
                Tok::Eof => return Ok(()),
                Tok::Ident(s)
                    if depth == 0 && name.is_empty() && self.peek_at(1) == &Tok::Punct("(") =>
                {
                    name = s;
                }
                Tok::Punct("(") | Tok::Punct("[") => depth += 1,
                Tok::Punct(")") | Tok::Punct("]") => depth = depth.saturating_sub(1),
                Tok::Punct(";") if depth == 0 => {
                    self.i += 1;
                    return Ok(());
                }
                Tok::Punct("{") if depth == 0 => {
                    let mut braces = 0usize;
                    loop {
                        match self.peek() {
                            Tok::Eof => return err(start, "expected `}` to end the host function"),
                            Tok::Punct("{") => braces += 1,
                            Tok::Punct("}") => {
                                braces -= 1;
                                if braces == 0 {
                                    self.i += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        self.i += 1;
                    }
                    let what = if name.is_empty() {
                        "host code".to_string()
                    } else {
                        format!("host function `{name}`")
                    };
                    unit.notes.push(format!(
                        "line {}: {what} skipped: the launch comes from the `// warpstep:` lines or the flags",
                        start.line
                    ));
                    return Ok(());
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    fn top_level(&mut self, unit: &mut Unit, extern_c: bool) -> Res<()> {
        let pos = self.pos();
        if self.is_word("class") {
            return err(pos, "classes are not supported");
        }
        if self.is_word("namespace") || self.is_word("using") {
            return err(pos, "namespaces are not supported");
        }
        if self.is_word("union") {
            return err(pos, "unions are not supported");
        }
        // Host code: no device keyword before the first `{` or `;`.
        let mut k = self.i;
        let mut device = false;
        while k < self.toks.len() {
            let t = &self.toks[k].tok;
            if is_device_word(t) {
                device = true;
            }
            if matches!(t, Tok::Punct("{") | Tok::Punct(";") | Tok::Eof) {
                break;
            }
            k += 1;
        }
        let konst = self.is_word("const") || self.is_word("constexpr") || self.is_word("static");
        let const_decl = konst && self.toks.get(k).map(|t| &t.tok) == Some(&Tok::Punct(";"));
        if !device && !const_decl {
            return self.skip_host(unit);
        }
        let mut template = None;
        if self.is_word("template") {
            self.i += 1;
            if self.eat("<") {
                let mut ps = Vec::new();
                while !self.eat(">") {
                    if self.is_word("typename") || self.is_word("class") {
                        return err(self.pos(), "type template parameters are not supported");
                    }
                    let (_, base) = self.specs()?;
                    let Ty::Scalar(s @ (Scalar::Int(..) | Scalar::Bool), _) = base else {
                        return err(self.pos(), "only integer template parameters are supported");
                    };
                    ps.push((self.ident("a template parameter name")?, s));
                    if !self.is_punct(">") {
                        self.expect(",", "between template parameters")?;
                    }
                }
                template = Some(ps);
            } else {
                return self.explicit_instantiation(unit);
            }
        }
        if self.is_word("struct") && matches!(self.peek_at(2), Tok::Punct("{")) {
            return self.struct_def(unit);
        }
        let (specs, base) = self.specs()?;
        if specs.typedef {
            loop {
                let (name, ty, _) = self.declarator(base.clone())?;
                self.typedefs.insert(name, ty);
                if !self.eat(",") {
                    break;
                }
            }
            return self.expect(";", "after the typedef");
        }
        let (name, ty, params) = self.declarator(base.clone())?;
        if let Some(params) = params {
            if template.is_some() {
                self.templates.insert(name.clone());
            }
            if !specs.global && !specs.device {
                return self.skip_host(unit);
            }
            if self.eat(";") {
                return Ok(()); // a prototype
            }
            if !self.is_punct("{") {
                return err(
                    self.pos(),
                    format!(
                        "expected `{{` to begin the body of `{name}`, found {}",
                        self.describe()
                    ),
                );
            }
            let body = self.block()?;
            unit.functions.push(Function {
                name,
                global: specs.global,
                extern_c,
                template,
                ret: ty,
                params,
                body,
                pos,
            });
            return Ok(());
        }
        let storage = if specs.shared && specs.is_extern {
            Storage::ExternShared
        } else if specs.shared {
            Storage::Shared
        } else if specs.constant {
            Storage::Constant
        } else if specs.device {
            Storage::Device
        } else {
            Storage::Auto
        };
        let mut decls = vec![(name, ty, pos)];
        loop {
            let init = if self.eat("=") {
                Some(self.initializer()?)
            } else {
                None
            };
            let (name, ty, pos) = decls.pop().unwrap_or_default_decl();
            unit.globals.push(VarDecl {
                name,
                ty,
                storage,
                init,
                pos,
            });
            if !self.eat(",") {
                break;
            }
            let pos = self.pos();
            let (n, t, _) = self.declarator(base.clone())?;
            decls.push((n, t, pos));
        }
        self.expect(";", "after the declaration")
    }

    fn explicit_instantiation(&mut self, unit: &mut Unit) -> Res<()> {
        let pos = self.pos();
        let _ = self.specs()?;
        while self.eat("*") {}
        let name = self.ident("the name of the instantiated function")?;
        self.expect("<", "before the template arguments")?;
        let args = self.template_args()?;
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::Eof => return err(self.pos(), "expected `;` after the instantiation"),
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => depth = depth.saturating_sub(1),
                Tok::Punct(";") if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        self.i += 1;
        unit.instantiations.push((name, args, pos));
        Ok(())
    }

    /// Template arguments after `<` up to `>`.
    pub(crate) fn template_args(&mut self) -> Res<Vec<Expr>> {
        let mut args = Vec::new();
        while !self.eat(">") {
            args.push(self.binary(SHIFT_LEVEL)?);
            if !self.is_punct(">") {
                self.expect(",", "between template arguments")?;
            }
        }
        Ok(args)
    }

    fn struct_def(&mut self, unit: &mut Unit) -> Res<()> {
        self.i += 1;
        let name = self.ident("a struct name")?;
        self.expect("{", "to begin the struct")?;
        self.structs.insert(name.clone());
        let mut fields = Vec::new();
        while !self.eat("}") {
            let (_, base) = self.specs()?;
            loop {
                let (n, t, params) = self.declarator(base.clone())?;
                if params.is_some() {
                    return err(self.pos(), "member functions are not supported");
                }
                fields.push((n, t));
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(";", "after the struct member")?;
        }
        self.expect(";", "after the struct")?;
        unit.structs.push((name, fields));
        Ok(())
    }
}

trait OrDefault {
    fn unwrap_or_default_decl(self) -> (String, Ty, Pos);
}

impl OrDefault for Option<(String, Ty, Pos)> {
    fn unwrap_or_default_decl(self) -> (String, Ty, Pos) {
        self.unwrap_or_else(|| {
            (
                String::new(),
                Ty::Scalar(Scalar::Int(32, true), Quals::default()),
                Pos::default(),
            )
        })
    }
}
