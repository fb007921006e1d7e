//! Hand-written recursive-descent parser for warpstep's PTX subset (PTX ISA "Directives"
//! and "Instructions"), producing an [`ast::Module`].
//!
//! No function here recurses on user input: function bodies and initialisers are parsed with
//! loops and depth counters, and every lookahead goes through [`Parser::peek`], which returns
//! the final `Eof` token rather than indexing past the end.

use super::ast::{
    FileDecl, Function, FunctionKind, Guard, Instruction, Linkage, Literal, Loc, Module, Operand,
    ParamDecl, PerfDirectives, RegDecl, RegName, Stmt, VarDecl,
};
use super::decode::{decode, is_known_unsupported, DecodeError};
use super::error::PtxError;
use super::lexer::{lex, Token, TokenKind};
use super::literal::{negate, parse_float, parse_int};
use super::types::{Space, SpecialReg, Type};

/// Deepest `{ }` nesting accepted inside a function body.
pub const MAX_BLOCK_DEPTH: u32 = 256;
/// Most array dimensions in one declaration.
pub const MAX_ARRAY_DIMS: usize = 8;
/// Most elements in an operand vector `{...}` or call list `(...)`.
pub const MAX_LIST_ELEMENTS: usize = 64;

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

type PResult<T> = Result<T, PtxError>;

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
}

const EOF_TOKEN: Token = Token {
    kind: TokenKind::Eof,
    start: 0,
    end: 0,
    line: 1,
    col: 1,
};

impl<'s> Parser<'s> {
    // ----- token plumbing -------------------------------------------------------------------

    fn peek(&self) -> Token {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> Token {
        let last = self.toks.last().copied().unwrap_or(EOF_TOKEN);
        self.toks.get(self.pos + ahead).copied().unwrap_or(last)
    }

    fn next(&mut self) -> Token {
        let t = self.peek();
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    fn prev(&self) -> Token {
        match self.pos.checked_sub(1) {
            Some(i) => self.toks.get(i).copied().unwrap_or(EOF_TOKEN),
            None => self.peek(),
        }
    }

    fn text(&self, t: Token) -> &'s str {
        self.src.get(t.start as usize..t.end as usize).unwrap_or("")
    }

    fn at(&self, kind: TokenKind) -> bool {
        self.peek().kind == kind
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.next();
            true
        } else {
            false
        }
    }

    fn err(&self, t: Token, msg: impl Into<String>) -> PtxError {
        PtxError::new(t.line, t.col, msg)
    }

    /// What the current token looks like, for "expected X, found Y" messages.
    fn found(&self) -> String {
        let t = self.peek();
        match t.kind {
            TokenKind::Eof => "end of input".to_string(),
            _ => format!("`{}`", self.text(t)),
        }
    }

    fn expect(&mut self, kind: TokenKind, what: &str) -> PResult<Token> {
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

    fn ident(&mut self, what: &str) -> PResult<(String, Token)> {
        let t = self.expect(TokenKind::Ident, what)?;
        Ok((self.text(t).to_string(), t))
    }

    fn uint(&mut self, what: &str) -> PResult<u64> {
        let t = self.expect(TokenKind::Int, what)?;
        parse_int(self.text(t)).map_err(|m| self.err(t, m))
    }

    fn u32_value(&mut self, what: &str) -> PResult<u32> {
        let t = self.peek();
        let v = self.uint(what)?;
        u32::try_from(v).map_err(|_| self.err(t, format!("{what} {v} is too large")))
    }

    /// A `.name` modifier token's name without the dot, if the current token is one.
    fn dot_name(&self) -> Option<&'s str> {
        let t = self.peek();
        (t.kind == TokenKind::Dot)
            .then(|| self.text(t).get(1..))
            .flatten()
    }

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

    // ----- declarations ---------------------------------------------------------------------

    /// `.space [.align N] [.vN] .type name[dims] [= init] {, name[dims] [= init]} ;`
    fn var_decl(&mut self, linkage: Linkage) -> PResult<Vec<VarDecl>> {
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
    fn var_attributes(&mut self) -> PResult<(Type, Option<u32>, u32)> {
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

    fn alignment(&mut self) -> PResult<u32> {
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

    fn dims(&mut self) -> PResult<Vec<Option<u64>>> {
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
    fn initializer(&mut self) -> PResult<Vec<Literal>> {
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
    fn literal(&mut self, what: &str) -> PResult<Literal> {
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
    fn reg_decl(&mut self) -> PResult<RegDecl> {
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

    // ----- instructions ---------------------------------------------------------------------

    fn instruction(&mut self) -> PResult<Instruction> {
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
    fn statement_text(&self, first: Token) -> String {
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

    fn operands(&mut self) -> PResult<Vec<Operand>> {
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
    fn missing_comma(&self) -> PResult<()> {
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

    fn operand(&mut self) -> PResult<Operand> {
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

    fn named_operand(&mut self) -> PResult<Operand> {
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
    fn adjacent_component(&self, t: Token) -> Option<&'s str> {
        let n = self.peek();
        (n.kind == TokenKind::Dot && n.start == t.end)
            .then(|| self.text(n).get(1..))
            .flatten()
    }

    /// Optional `+n`, `-n` or `+-n` after a name or address base.
    fn offset(&mut self) -> PResult<i64> {
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

    fn signed_offset(&mut self, negative: bool) -> PResult<i64> {
        let t = self.peek();
        let v = self.uint("an offset")?;
        let v = i64::try_from(v).map_err(|_| self.err(t, "offset too large"))?;
        Ok(if negative { -v } else { v })
    }

    fn address(&mut self) -> PResult<Operand> {
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

    fn vector(&mut self) -> PResult<Operand> {
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
    fn call_list(&mut self) -> PResult<Operand> {
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

/// The state space a variable directive declares.
fn var_space(name: &str) -> Option<Space> {
    match name {
        "global" | "shared" | "const" | "local" | "param" => Space::from_name(name),
        _ => None,
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
