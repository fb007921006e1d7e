//! Hand-written recursive-descent parser for warpstep's PTX subset (PTX ISA "Directives"
//! and "Instructions"), producing an [`ast::Module`].
//!
//! No function here recurses on user input: function bodies and initialisers are parsed with
//! loops and depth counters, and every lookahead goes through [`Parser::peek`], which returns
//! the final `Eof` token rather than indexing past the end.
//!
//! This module holds the entry point and the module-level directives (`.version`,
//! `.target`, `.file`, `.loc`, linkage) and functions (parameters, performance directives,
//! bodies). The token cursor is in [`super::token_cursor`], declarations are parsed in
//! [`super::parse_declarations`], instructions and operands in [`super::parse_instructions`],
//! and the caps live in [`super::parse_limits`] (re-exported here).

use super::ast::{
    FileDecl, Function, FunctionKind, Linkage, Loc, Module, ParamDecl, PerfDirectives, Stmt,
};
use super::error::PtxError;
use super::lexer::{lex, Token, TokenKind};
use super::parse_declarations::var_space;
pub use super::parse_limits::{MAX_ARRAY_DIMS, MAX_BLOCK_DEPTH, MAX_LIST_ELEMENTS};
use super::token_cursor::{PResult, Parser};
use super::types::{Space, Type};

/// Parse a PTX module. Errors name the line and column and what is wrong; an instruction
/// outside warpstep's subset is an error naming it ("unsupported instruction").
pub fn parse(src: &str) -> Result<Module, PtxError> {
    let lexed = lex(src)?;
    let mut p = Parser {
        src,
        toks: lexed.tokens,
        pos: 0,
    };
    let mut module = p.module()?;
    module.launch_comments = lexed.launch_comments;
    Ok(module)
}

impl<'s> Parser<'s> {
    // ----- module level ---------------------------------------------------------------------

    fn module(&mut self) -> PResult<Module> {
        let mut m = Module {
            version: (0, 0),
            target: Vec::new(),
            address_size: 64,
            files: Vec::new(),
            vars: Vec::new(),
            functions: Vec::new(),
            launch_comments: Vec::new(),
        };
        let mut seen_version = false;
        while !self.at(TokenKind::Eof) {
            let t = self.peek();
            if t.kind != TokenKind::Dot {
                return Err(self.err(t, format!("expected a directive, found {}", self.found())));
            }
            match self.dot_name().unwrap_or("") {
                "version" => {
                    m.version = self.version()?;
                    seen_version = true;
                }
                "target" => m.target = self.target()?,
                "address_size" => m.address_size = self.address_size()?,
                "file" => m.files.push(self.file()?),
                "loc" => {
                    self.loc()?;
                }
                "pragma" => {
                    self.pragma()?;
                }
                "section" => self.skip_section()?,
                _ => self.module_declaration(&mut m)?,
            }
        }
        if !seen_version {
            return Err(PtxError::new(1, 0, "missing `.version` directive"));
        }
        if m.target.is_empty() {
            return Err(PtxError::new(1, 0, "missing `.target` directive"));
        }
        Ok(m)
    }

    fn version(&mut self) -> PResult<(u32, u32)> {
        self.next();
        let t = self.peek();
        let text = self.text(t);
        let parsed = match t.kind {
            TokenKind::Float => text
                .split_once('.')
                .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?))),
            TokenKind::Int => text.parse::<u32>().ok().map(|a| (a, 0)),
            _ => None,
        };
        let Some((major, minor)) = parsed else {
            return Err(self.err(
                t,
                format!("expected a version such as 7.7, found {}", self.found()),
            ));
        };
        self.next();
        let supported = (major == 1 && minor >= 4) || (2..=8).contains(&major);
        if !supported {
            return Err(self.err(
                t,
                format!("unsupported PTX version {major}.{minor} (1.4 to 8.x are supported)"),
            ));
        }
        Ok((major, minor))
    }

    fn target(&mut self) -> PResult<Vec<String>> {
        self.next();
        let mut names = vec![self.ident("a target name such as sm_52")?.0];
        while self.eat(TokenKind::Comma) {
            names.push(self.ident("a target option")?.0);
        }
        Ok(names)
    }

    fn address_size(&mut self) -> PResult<u32> {
        self.next();
        let t = self.peek();
        match self.uint("32 or 64")? {
            32 => Ok(32),
            64 => Ok(64),
            v => Err(self.err(t, format!("address size must be 32 or 64, not {v}"))),
        }
    }

    fn file(&mut self) -> PResult<FileDecl> {
        self.next();
        let index = self.u32_value("a file index")?;
        let s = self.expect(TokenKind::Str, "a file name string")?;
        let path = unquote(self.text(s));
        // Optional `, timestamp, size` (PTX ISA, "Debugging Directives").
        while self.at(TokenKind::Comma) && self.peek_at(1).kind == TokenKind::Int {
            self.next();
            self.next();
        }
        Ok(FileDecl { index, path })
    }

    fn loc(&mut self) -> PResult<Loc> {
        self.next();
        let file = self.u32_value("a file index")?;
        let line = self.u32_value("a line number")?;
        let col = if self.at(TokenKind::Int) {
            self.u32_value("a column")?
        } else {
            0
        };
        let mut loc = Loc { file, line, col };
        // `, function_name label, inlined_at file line col` (PTX ISA 7.2+).
        if self.at(TokenKind::Comma) && self.text(self.peek_at(1)) == "function_name" {
            self.next();
            self.next();
            self.ident("a function-name label")?;
            if self.at(TokenKind::Comma) && self.text(self.peek_at(1)) == "inlined_at" {
                self.next();
                self.next();
                let at = Loc {
                    file: self.u32_value("a file index")?,
                    line: self.u32_value("a line number")?,
                    col: self.u32_value("a column")?,
                };
                // Code inlined from another file (nvcc's `atomicAdd` from
                // device_atomic_functions.hpp) is placed at its call: the line a student wrote.
                if at.file != loc.file {
                    loc = at;
                }
            }
        }
        Ok(loc)
    }

    fn pragma(&mut self) -> PResult<Vec<String>> {
        self.next();
        let mut values = Vec::new();
        loop {
            let s = self.expect(TokenKind::Str, "a pragma string")?;
            values.push(unquote(self.text(s)));
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::Semi, "`;`")?;
        Ok(values)
    }

    /// `.section name { ... }` (DWARF debug sections): skipped, braces balanced.
    fn skip_section(&mut self) -> PResult<()> {
        let start = self.next();
        while !self.at(TokenKind::LBrace) {
            if self.at(TokenKind::Eof) {
                return Err(self.err(start, "`.section` without `{`"));
            }
            self.next();
        }
        let mut depth = 0u32;
        loop {
            match self.next().kind {
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                TokenKind::Eof => return Err(self.err(start, "unterminated `.section`")),
                _ => {}
            }
        }
    }

    fn linkage(&mut self) -> Linkage {
        let l = match self.dot_name() {
            Some("visible") => Linkage::Visible,
            Some("extern") => Linkage::Extern,
            Some("weak") => Linkage::Weak,
            Some("common") => Linkage::Common,
            _ => return Linkage::Internal,
        };
        self.next();
        l
    }

    fn module_declaration(&mut self, m: &mut Module) -> PResult<()> {
        let start = self.peek();
        let linkage = self.linkage();
        match self.dot_name() {
            Some("entry") => m
                .functions
                .push(self.function(FunctionKind::Entry, linkage)?),
            Some("func") => m
                .functions
                .push(self.function(FunctionKind::Func, linkage)?),
            Some(name) if var_space(name).is_some() => {
                let decls = self.var_decl(linkage)?;
                m.vars.extend(decls);
            }
            Some(name) => {
                let t = self.peek();
                return Err(self.err(t, format!("unsupported directive `.{name}`")));
            }
            None => {
                return Err(self.err(
                    start,
                    format!(
                        "expected `.entry`, `.func` or a variable after linkage, found {}",
                        self.found()
                    ),
                ))
            }
        }
        Ok(())
    }

    // ----- functions ------------------------------------------------------------------------

    fn function(&mut self, kind: FunctionKind, linkage: Linkage) -> PResult<Function> {
        let start = self.next();
        let rets = if kind == FunctionKind::Func && self.at(TokenKind::LParen) {
            self.param_list()?
        } else {
            Vec::new()
        };
        let (name, _) = self.ident("a function name")?;
        let params = if self.at(TokenKind::LParen) {
            self.param_list()?
        } else {
            Vec::new()
        };
        let perf = self.perf_directives()?;
        let mut f = Function {
            kind,
            linkage,
            name,
            rets,
            params,
            perf,
            body: None,
            line: start.line,
            end_line: start.line,
        };
        // A declaration ends with `;`; old nvopencc writes `.func` prototypes with none.
        if self.eat(TokenKind::Semi) || matches!(self.peek().kind, TokenKind::Dot | TokenKind::Eof)
        {
            f.end_line = self.prev().line;
            return Ok(f);
        }
        let open = self.expect(TokenKind::LBrace, "`{` or `;` after the function header")?;
        let (body, end_line) = self.body(open, &f.name)?;
        f.body = Some(body);
        f.end_line = end_line;
        Ok(f)
    }

    fn param_list(&mut self) -> PResult<Vec<ParamDecl>> {
        self.expect(TokenKind::LParen, "`(`")?;
        let mut out = Vec::new();
        if self.eat(TokenKind::RParen) {
            return Ok(out);
        }
        loop {
            out.push(self.param()?);
            if self.eat(TokenKind::RParen) {
                return Ok(out);
            }
            self.expect(TokenKind::Comma, "`,` or `)` in a parameter list")?;
        }
    }

    /// `.param [.align N] .type [.ptr [.space] [.align N]] name [ [N] ]`, or `.reg .type name`.
    fn param(&mut self) -> PResult<ParamDecl> {
        let t = self.peek();
        let space = match self.dot_name() {
            Some("param") => Some(Space::Param),
            Some("reg") => None,
            _ => return Err(self.err(t, format!("expected `.param`, found {}", self.found()))),
        };
        self.next();
        let (mut ty, mut align, mut ptr_space) = (None, None, None);
        while let Some(name) = self.dot_name() {
            let at = self.peek();
            self.next();
            match name {
                "align" => align = Some(self.alignment()?),
                "ptr" => {
                    if let Some(s) = self.dot_name().and_then(Space::from_name) {
                        self.next();
                        ptr_space = Some(s);
                    }
                }
                _ => match Type::from_name(name) {
                    Some(parsed) if ty.is_none() => ty = Some(parsed),
                    Some(_) => return Err(self.err(at, "more than one type on a parameter")),
                    None => {
                        return Err(
                            self.err(at, format!("unsupported parameter attribute `.{name}`"))
                        )
                    }
                },
            }
        }
        let ty = ty.ok_or_else(|| self.err(t, "parameter without a type"))?;
        let (name, nt) = self.ident("a parameter name")?;
        let array = if self.eat(TokenKind::LBracket) {
            let n = self.uint("an array size")?;
            self.expect(TokenKind::RBracket, "`]`")?;
            Some(n)
        } else {
            None
        };
        Ok(ParamDecl {
            name,
            space,
            ty,
            align,
            array,
            ptr_space,
            line: nt.line,
            col: nt.col,
        })
    }

    fn perf_directives(&mut self) -> PResult<PerfDirectives> {
        let mut p = PerfDirectives::default();
        while let Some(name) = self.dot_name() {
            match name {
                "maxntid" => {
                    self.next();
                    p.maxntid = Some(self.dims3()?);
                }
                "reqntid" => {
                    self.next();
                    p.reqntid = Some(self.dims3()?);
                }
                "minnctapersm" => {
                    self.next();
                    p.minnctapersm = Some(self.u32_value("a CTA count")?);
                }
                "maxnctapersm" => {
                    self.next();
                    p.maxnctapersm = Some(self.u32_value("a CTA count")?);
                }
                "maxnreg" => {
                    self.next();
                    p.maxnreg = Some(self.u32_value("a register count")?);
                }
                "noreturn" => {
                    self.next();
                    p.noreturn = true;
                }
                "pragma" => {
                    self.pragma()?;
                }
                _ => break,
            }
        }
        Ok(p)
    }

    /// `x{, y{, z}}`, missing dimensions being 1.
    fn dims3(&mut self) -> PResult<[u32; 3]> {
        let mut d = [1u32; 3];
        for (i, slot) in d.iter_mut().enumerate() {
            if i > 0 && !self.eat(TokenKind::Comma) {
                break;
            }
            *slot = self.u32_value("a thread count")?;
        }
        Ok(d)
    }

    /// Statements up to the `}` matching `open`; returns them and the closing line.
    fn body(&mut self, open: Token, fname: &str) -> PResult<(Vec<Stmt>, u32)> {
        let mut stmts = Vec::new();
        let mut depth = 1u32;
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::RBrace => {
                    self.next();
                    depth -= 1;
                    if depth == 0 {
                        return Ok((stmts, t.line));
                    }
                    stmts.push(Stmt::Close { line: t.line });
                }
                TokenKind::LBrace => {
                    self.next();
                    depth += 1;
                    if depth > MAX_BLOCK_DEPTH {
                        return Err(self.err(t, "blocks nested too deeply"));
                    }
                    stmts.push(Stmt::Open { line: t.line });
                }
                TokenKind::Eof => {
                    return Err(self.err(open, format!("function `{fname}` has no closing `}}`")))
                }
                TokenKind::Semi => {
                    self.next();
                }
                TokenKind::Dot => stmts.push(self.body_directive()?),
                TokenKind::Ident if self.peek_at(1).kind == TokenKind::Colon => {
                    self.next();
                    self.next();
                    stmts.push(Stmt::Label {
                        name: self.text(t).to_string(),
                        line: t.line,
                        col: t.col,
                    });
                }
                TokenKind::Ident | TokenKind::At => {
                    stmts.push(Stmt::Instr(Box::new(self.instruction()?)))
                }
                _ => {
                    return Err(self.err(
                        t,
                        format!(
                            "expected an instruction, label or directive, found {}",
                            self.found()
                        ),
                    ))
                }
            }
        }
    }

    fn body_directive(&mut self) -> PResult<Stmt> {
        let t = self.peek();
        let name = self.dot_name().unwrap_or("");
        match name {
            "reg" => Ok(Stmt::Reg(self.reg_decl()?)),
            "loc" => Ok(Stmt::Loc(self.loc()?)),
            "pragma" => Ok(Stmt::Pragma {
                values: self.pragma()?,
                line: t.line,
            }),
            "shared" | "local" | "param" | "const" | "global" => {
                let mut decls = self.var_decl(Linkage::Internal)?;
                match (decls.pop(), decls.is_empty()) {
                    (Some(d), true) => Ok(Stmt::Var(d)),
                    _ => Err(self.err(t, "declare one variable per directive in a function body")),
                }
            }
            _ => Err(self.err(
                t,
                format!("unsupported directive `.{name}` in a function body"),
            )),
        }
    }
}
/// A string literal's contents (quotes removed, `\"` and `\\` unescaped).
fn unquote(s: &str) -> String {
    let inner = s.strip_prefix('"').unwrap_or(s);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}
