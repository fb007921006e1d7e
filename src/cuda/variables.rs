//! Variables: module-level `.shared`/`.const`/`.global` declarations with their
//! initializers (PTX ISA §5.4 "State Spaces", §11.3 "Variable Declarations"), local scalars in
//! registers and local arrays in `.local` memory.

use super::ast::*;
use super::emit::{Addr, Base, Val};
use super::error::{err, Pos, Res};
use super::lower::{Binding, Lower};
use super::types::{CType, Space};

impl Lower<'_> {
    /// Declares a variable in a state space at module level (once per name).
    pub(crate) fn module_var(
        &mut self,
        name: &str,
        ty: &CType,
        space: Space,
        init: Option<&Expr>,
        pos: Pos,
    ) -> Res<Addr> {
        if !self.module_decls.iter().any(|(n, _)| n == name) {
            let align = ty.align().max(if space == Space::Shared { 4 } else { 1 });
            let d = match (space, ty) {
                (Space::Shared, CType::Array(_, 0)) => {
                    format!(".extern .shared .align 16 .b8 {name}[];")
                }
                _ => {
                    let sp = match space {
                        Space::Shared => ".shared",
                        Space::Const => ".const",
                        _ => ".global",
                    };
                    let mut d = format!("{sp} .align {align} .b8 {name}[{}]", ty.size().max(1));
                    if let Some(init) = init {
                        let bytes = self.init_bytes(init, ty)?;
                        let items: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
                        d.push_str(&format!(" = {{{}}}", items.join(", ")));
                    }
                    d.push(';');
                    d
                }
            };
            if space == Space::Shared && init.is_some() {
                return err(pos, "`__shared__` variables cannot have an initializer");
            }
            self.module_decls.push((name.to_string(), d));
        }
        Ok(Addr {
            base: Base::Sym(name.to_string()),
            off: 0,
            space,
        })
    }

    /// The bytes of a constant initializer.
    pub(crate) fn init_bytes(&self, init: &Expr, ty: &CType) -> Res<Vec<u8>> {
        let mut out = vec![0u8; ty.size().min(1 << 20) as usize];
        self.fill(init, ty, 0, &mut out)?;
        Ok(out)
    }

    pub(crate) fn fill(&self, e: &Expr, ty: &CType, at: usize, out: &mut [u8]) -> Res<()> {
        match (&e.kind, ty) {
            (ExprKind::List(items), CType::Array(el, n)) => {
                if items.len() as u64 > *n {
                    return err(e.pos, "too many initializers for the array");
                }
                let sz = el.size() as usize;
                for (k, it) in items.iter().enumerate() {
                    let Some(pos) = k.checked_mul(sz).and_then(|o| o.checked_add(at)) else {
                        break;
                    };
                    if pos >= out.len() && sz > 0 {
                        break;
                    }
                    self.fill(it, el, pos, out)?;
                }
            }
            (_, t) if t.is_arith() => {
                let bytes: Vec<u8> = match t {
                    CType::F32 => (const_float(e, self)? as f32).to_le_bytes().to_vec(),
                    CType::F64 => const_float(e, self)?.to_le_bytes().to_vec(),
                    _ => self.const_int(e)?.to_le_bytes()[..t.size() as usize].to_vec(),
                };
                if let Some(dst) = out.get_mut(at..at + bytes.len()) {
                    dst.copy_from_slice(&bytes);
                }
            }
            _ => return err(e.pos, "expected a constant initializer"),
        }
        Ok(())
    }

    pub(crate) fn bind_globals(&mut self) -> Res<()> {
        for g in &self.unit.globals {
            let ty = self.resolve(&g.ty, g.pos)?;
            let b = match g.storage {
                Storage::Shared | Storage::ExternShared => Binding::Mem(
                    self.module_var(&g.name, &ty, Space::Shared, None, g.pos)?,
                    ty,
                    g.ty.quals().volatile,
                ),
                Storage::Constant => Binding::Mem(
                    self.module_var(&g.name, &ty, Space::Const, g.init.as_ref(), g.pos)?,
                    ty,
                    false,
                ),
                Storage::Device => Binding::Mem(
                    self.module_var(&g.name, &ty, Space::Global, g.init.as_ref(), g.pos)?,
                    ty,
                    g.ty.quals().volatile,
                ),
                Storage::Auto => match &g.init {
                    Some(init) if ty.is_float() => Binding::Value(Val {
                        op: super::emit::Op::F(const_float(init, self)?),
                        ty,
                    }),
                    Some(init) if ty.is_int() => {
                        Binding::Value(Val::int(self.const_int(init)?, ty))
                    }
                    _ => continue,
                },
            };
            self.bind(&g.name.clone(), b);
        }
        Ok(())
    }

    /// A local declaration.
    pub(crate) fn local_decl(&mut self, d: &VarDecl) -> Res<()> {
        let mut ty = self.resolve(&d.ty, d.pos)?;
        let volatile = d.ty.quals().volatile;
        match d.storage {
            Storage::Shared | Storage::ExternShared | Storage::Constant => {
                let sym = format!(
                    "_ZZ{}{}E{}{}",
                    self.func_name.len(),
                    self.func_name,
                    d.name.len(),
                    d.name
                );
                let space = if d.storage == Storage::Constant {
                    Space::Const
                } else {
                    Space::Shared
                };
                let mut addr = self.module_var(&sym, &ty, space, d.init.as_ref(), d.pos)?;
                if matches!(ty, CType::Array(..)) {
                    let r = self.body.reg("r");
                    self.body.ins(format!("mov.u32 \t{r}, {sym}"));
                    addr.base = Base::Reg(r);
                }
                self.bind(&d.name, Binding::Mem(addr, ty, volatile));
                return Ok(());
            }
            _ => {}
        }
        if let (CType::Array(el, 0), Some(ExprKind::List(items))) =
            (&ty, d.init.as_ref().map(|i| &i.kind))
        {
            ty = CType::Array(el.clone(), items.len() as u64);
        }
        if let CType::Array(el, n) = &ty {
            let items_ok = match d.init.as_ref().map(|i| &i.kind) {
                None => true,
                Some(ExprKind::List(items)) => items.len() as u64 <= *n,
                _ => false,
            };
            if el.is_arith()
                && (1..=64).contains(n)
                && items_ok
                && super::unroll::static_indices(&self.fn_body, &d.name, &|e| {
                    self.const_int(e).ok()
                })
            {
                let regs: Vec<String> = (0..*n).map(|_| self.body.reg_for(el)).collect();
                for r in &regs {
                    self.var_regs.insert(r.clone());
                    self.body.mutable.insert(r.clone());
                }
                if let Some(ExprKind::List(items)) = d.init.as_ref().map(|i| &i.kind) {
                    self.body.loc(d.pos);
                    for (it, r) in items.iter().zip(&regs) {
                        let v = self.rv(it)?;
                        let v = self.assign_convert(v, el, it.pos)?;
                        self.body
                            .ins(format!("mov.{} \t{r}, {}", el.mov(), v.text()));
                    }
                }
                self.bind(&d.name, Binding::RegArray(regs, (**el).clone()));
                return Ok(());
            }
        }
        let addressed =
            (ty.is_arith() || ty.is_ptr()) && super::locals::address_taken(&self.fn_body, &d.name);
        if addressed || matches!(ty, CType::Array(..) | CType::Struct(..)) {
            let addr = self.alloc_local(&d.name, &ty);
            self.bind(&d.name, Binding::Mem(addr.clone(), ty.clone(), volatile));
            if let Some(init) = &d.init {
                self.body.loc(d.pos);
                self.init_memory(init, &ty, addr)?;
            }
            return Ok(());
        }
        if ty == CType::Void {
            return err(d.pos, format!("variable `{}` has type void", d.name));
        }
        let init = match &d.init {
            Some(e) => {
                self.body.loc(d.pos);
                let v = self.rv(e)?;
                let v = self.assign_convert(v, &ty, e.pos)?;
                Some(v)
            }
            None => None,
        };
        // Pointers take the space of their initializer.
        if let (CType::Ptr(..), Some(v)) = (&ty, &init) {
            if let CType::Ptr(..) = v.ty {
                ty = v.ty.clone();
            }
        }
        if !self.mutated.contains(&d.name) && !volatile {
            if let Some(v) = init.clone() {
                // A temporary, or a register no variable writes (a value or a parameter): the
                // name is bound to it, with no copy (copy propagation).
                let is_temp = match &v.op {
                    super::emit::Op::Reg(r) => {
                        !self.var_regs.contains(r)
                            || !self.body.mutable.contains(&self.body.canonical(r))
                                && !self.body.mutable.contains(r)
                    }
                    _ => true,
                };
                if is_temp {
                    if let super::emit::Op::Reg(r) = &v.op {
                        self.var_regs.insert(r.clone());
                    }
                    self.bind(&d.name, Binding::Value(Val { op: v.op, ty }));
                    return Ok(());
                }
            }
        }
        let r = self.body.reg_for(&ty);
        if let Some(v) = init {
            self.write_reg(&r, &ty, &v);
        }
        self.var_regs.insert(r.clone());
        self.body.mutable.insert(r.clone());
        self.bind(&d.name, Binding::Var(r, ty));
        Ok(())
    }

    pub(crate) fn init_memory(&mut self, init: &Expr, ty: &CType, addr: Addr) -> Res<()> {
        match (&init.kind, ty) {
            (ExprKind::List(items), CType::Array(el, _)) => {
                for (k, it) in items.iter().enumerate() {
                    let a = Addr {
                        off: addr
                            .off
                            .wrapping_add((k as u64).wrapping_mul(el.size()) as i64),
                        ..addr.clone()
                    };
                    self.init_memory(it, el, a)?;
                }
                Ok(())
            }
            (_, CType::Struct(..)) => self.init_struct(init, ty, addr),
            _ if ty.is_arith() || ty.is_ptr() => {
                let v = self.rv(init)?;
                let v = self.assign_convert(v, ty, init.pos)?;
                self.store(&addr, ty, false, v);
                Ok(())
            }
            _ => err(init.pos, "expected an initializer for the array element"),
        }
    }
}

/// A floating constant initializer (literals, negation, integer constants).
fn const_float(e: &Expr, l: &Lower) -> Res<f64> {
    match &e.kind {
        ExprKind::Float(v, f) => Ok(if *f { *v as f32 as f64 } else { *v }),
        ExprKind::Unary(UnOp::Neg, a) => Ok(-const_float(a, l)?),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_float(a, l)?, const_float(b, l)?);
            Ok(match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                _ => return err(e.pos, "expected a constant"),
            })
        }
        ExprKind::Ident(n) => match l.lookup(n) {
            Some(Binding::Value(Val {
                op: super::emit::Op::F(f),
                ..
            })) => Ok(*f),
            _ => Ok(l.const_int(e)? as f64),
        },
        _ => Ok(l.const_int(e)? as f64),
    }
}
