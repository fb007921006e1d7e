//! Declarations (C++ [dcl.spec], [dcl.decl], [dcl.init]): specifiers (`__global__`,
//! `__shared__`, `const`, `unsigned long`...), typedef and struct names, declarators with
//! pointers, arrays, pointers to arrays and parameter lists, and initializers.

use super::ast::*;
use super::error::{err, Res};
use super::lexer::Tok;
use super::parser::{Parser, Specs};

impl Parser {
    /// Whether the next token begins a declaration.
    pub(crate) fn starts_type(&self) -> bool {
        match self.peek() {
            Tok::Ident(s) => {
                matches!(
                    s.as_str(),
                    "const"
                        | "volatile"
                        | "unsigned"
                        | "signed"
                        | "int"
                        | "long"
                        | "short"
                        | "char"
                        | "float"
                        | "double"
                        | "void"
                        | "bool"
                        | "size_t"
                        | "static"
                        | "__shared__"
                        | "__constant__"
                        | "__device__"
                        | "extern"
                        | "struct"
                        | "typedef"
                        | "auto"
                        | "register"
                        | "constexpr"
                        | "__restrict__"
                        | "uint32_t"
                        | "int32_t"
                        | "uint64_t"
                        | "int64_t"
                        | "uint8_t"
                        | "int8_t"
                        | "uint16_t"
                        | "int16_t"
                        | "ptrdiff_t"
                        | "uint"
                        | "class"
                        | "union"
                ) || self.typedefs.contains_key(s)
                    || self.structs.contains(s)
            }
            _ => false,
        }
    }

    /// Declaration specifiers and the base type.
    pub(crate) fn specs(&mut self) -> Res<(Specs, Ty)> {
        let pos = self.pos();
        let mut s = Specs::default();
        let mut q = Quals::default();
        let (mut unsigned, mut signed, mut long, mut short) = (false, false, 0, false);
        let mut base: Option<Scalar> = None;
        let mut named: Option<Ty> = None;
        while let Tok::Ident(w) = self.peek().clone() {
            match w.as_str() {
                "__global__" => s.global = true,
                "__device__" => s.device = true,
                "__shared__" => s.shared = true,
                "__constant__" => s.constant = true,
                "extern" => s.is_extern = true,
                "typedef" => s.typedef = true,
                "__host__" | "static" | "inline" | "__forceinline__" | "__noinline__"
                | "register" | "constexpr" | "__inline__" => {}
                "const" => q.konst = true,
                "volatile" => q.volatile = true,
                "__restrict__" | "restrict" => q.restrict = true,
                "unsigned" => unsigned = true,
                "signed" => signed = true,
                "long" => long += 1,
                "short" => short = true,
                "int" => base = Some(Scalar::Int(32, true)),
                "char" => base = Some(Scalar::Int(8, true)),
                "float" => base = Some(Scalar::Float),
                "double" => base = Some(Scalar::Double),
                "void" => base = Some(Scalar::Void),
                "bool" => base = Some(Scalar::Bool),
                "size_t" | "uint64_t" => base = Some(Scalar::Int(64, false)),
                "ptrdiff_t" | "int64_t" => base = Some(Scalar::Int(64, true)),
                "uint32_t" | "uint" => base = Some(Scalar::Int(32, false)),
                "int32_t" => base = Some(Scalar::Int(32, true)),
                "uint16_t" => base = Some(Scalar::Int(16, false)),
                "int16_t" => base = Some(Scalar::Int(16, true)),
                "uint8_t" => base = Some(Scalar::Int(8, false)),
                "int8_t" => base = Some(Scalar::Int(8, true)),
                "class" => return err(self.pos(), "classes are not supported"),
                "union" => return err(self.pos(), "unions are not supported"),
                "auto" => return err(self.pos(), "`auto` is not supported"),
                "struct" => {
                    self.i += 1;
                    let n = self.ident("a struct name")?;
                    named = Some(Ty::Struct(n, q));
                    continue;
                }
                other
                    if base.is_none()
                        && named.is_none()
                        && !unsigned
                        && !signed
                        && long == 0
                        && !short =>
                {
                    match self.typedefs.get(other) {
                        Some(t) => named = Some(t.clone()),
                        None if self.structs.contains(other) => {
                            named = Some(Ty::Struct(other.to_string(), q))
                        }
                        None => break,
                    }
                }
                _ => break,
            }
            self.i += 1;
        }
        if let Some(mut t) = named {
            if let Ty::Scalar(_, tq) | Ty::Ptr(_, tq) | Ty::Struct(_, tq) = &mut t {
                tq.konst |= q.konst;
                tq.volatile |= q.volatile;
            }
            return Ok((s, t));
        }
        let scalar = match base {
            Some(Scalar::Int(bits, sg)) => {
                let bits = if short {
                    16
                } else if long > 0 {
                    64
                } else {
                    bits
                };
                Scalar::Int(
                    bits,
                    if unsigned {
                        false
                    } else if signed {
                        true
                    } else {
                        sg
                    },
                )
            }
            Some(Scalar::Double) => Scalar::Double,
            Some(other) => other,
            None if unsigned || signed || long > 0 || short => {
                let bits = if short {
                    16
                } else if long > 0 {
                    64
                } else {
                    32
                };
                Scalar::Int(bits, !unsigned)
            }
            None => {
                return err(pos, format!("expected a type, found {}", self.describe()));
            }
        };
        Ok((s, Ty::Scalar(scalar, q)))
    }

    /// A declarator: pointers, the name (empty if abstract), array sizes or a parameter list.
    pub(crate) fn declarator(&mut self, base: Ty) -> Res<(String, Ty, Option<Vec<Param>>)> {
        let mut ty = base;
        while self.eat("*") {
            let mut q = Quals::default();
            while let Tok::Ident(w) = self.peek() {
                match w.as_str() {
                    "const" => q.konst = true,
                    "volatile" => q.volatile = true,
                    "__restrict__" | "restrict" => q.restrict = true,
                    _ => break,
                }
                self.i += 1;
            }
            ty = Ty::Ptr(Box::new(ty), q);
        }
        if self.is_punct("&") {
            return err(self.pos(), "references are not supported");
        }
        // `T (*name)[N]`: a pointer to an array.
        let mut inner_ptrs = 0;
        if self.is_punct("(") && self.peek_at(1) == &Tok::Punct("*") {
            self.i += 1;
            while self.eat("*") {
                inner_ptrs += 1;
                while self.is_word("const")
                    || self.is_word("__restrict__")
                    || self.is_word("volatile")
                {
                    self.i += 1;
                }
            }
        }
        let name = match self.peek().clone() {
            Tok::Ident(s) => {
                self.i += 1;
                s
            }
            _ => String::new(),
        };
        if inner_ptrs > 0 {
            self.expect(")", "after the pointer declarator")?;
        }
        if self.eat("(") {
            let mut params = Vec::new();
            if self.is_word("void") && self.peek_at(1) == &Tok::Punct(")") {
                self.i += 1;
            }
            while !self.eat(")") {
                let (_, b) = self.specs()?;
                let (n, t, _) = self.declarator(b)?;
                let t = match t {
                    Ty::Array(e, _) => Ty::Ptr(e, Quals::default()),
                    t => t,
                };
                params.push(Param { name: n, ty: t });
                if !self.is_punct(")") {
                    self.expect(",", "between parameters")?;
                }
            }
            return Ok((name, ty, Some(params)));
        }
        let mut dims = Vec::new();
        while self.eat("[") {
            if self.eat("]") {
                dims.push(None);
            } else {
                dims.push(Some(Box::new(self.expr()?)));
                self.expect("]", "after the array size")?;
            }
        }
        for d in dims.into_iter().rev() {
            ty = Ty::Array(Box::new(ty), d);
        }
        for _ in 0..inner_ptrs {
            ty = Ty::Ptr(Box::new(ty), Quals::default());
        }
        Ok((name, ty, None))
    }

    pub(crate) fn initializer(&mut self) -> Res<Expr> {
        let pos = self.pos();
        if self.eat("{") {
            self.enter()?;
            let mut items = Vec::new();
            while !self.eat("}") {
                items.push(self.initializer()?);
                if !self.is_punct("}") {
                    self.expect(",", "between initialisers")?;
                }
            }
            self.depth -= 1;
            return Ok(Expr {
                kind: ExprKind::List(items),
                pos,
            });
        }
        self.assign()
    }
}
