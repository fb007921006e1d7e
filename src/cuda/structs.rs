//! `struct` values (C++ [class.copy]): a struct local lives in `.local` memory and a copy of a
//! struct (initialisation, assignment, passing by value to a `__device__` function) copies it
//! member by member, each scalar member a load and a store, as nvcc's code does once its
//! copies are not optimised away. Arrays of structs in global or shared memory are addressed
//! like any array.

use super::ast::{Expr, ExprKind};
use super::emit::{Addr, Base, Op};
use super::error::{err, Res};
use super::lower::Lower;
use super::lower_expr::LVal;
use super::types::{CType, Space};

impl Lower<'_> {
    /// A fresh `.local` variable of type `ty` (named after `name`), its address in a register.
    pub(crate) fn alloc_local(&mut self, name: &str, ty: &CType) -> Addr {
        let sym = format!("__local_{}_{}", name, self.local_decls.len());
        self.local_decls.push(format!(
            ".local .align {} .b8 {sym}[{}];",
            ty.align().max(4),
            ty.size().max(1)
        ));
        let r = self.body.reg("r");
        self.body.ins(format!("mov.u32 \t{r}, {sym}"));
        Addr {
            base: Base::Reg(r),
            off: 0,
            space: Space::Local,
        }
    }

    /// Where a kernel reads its struct parameter `name` (PTX symbol `symbol`): in the parameter
    /// space, each member an `ld.param` at its offset, as nvcc reads it; or, when the kernel
    /// writes into it, takes its address or may index an array in it, from a copy in `.local`
    /// made on entry (kernel parameters are read-only, PTX ISA §5.1.6.1).
    pub(crate) fn struct_param(&mut self, name: &str, symbol: &str, ty: &CType) -> Res<Addr> {
        let param = Addr {
            base: Base::Sym(symbol.to_string()),
            off: 0,
            space: Space::Param,
        };
        let copy = has_array(ty) || super::locals::written_into(&self.fn_body, name);
        if !copy {
            return Ok(param);
        }
        let local = self.alloc_local(name, ty);
        self.copy_value(&local, &param, ty)?;
        Ok(local)
    }

    /// The address of the struct `e` designates (a variable, an element, a member, `*p`, or the
    /// value a `__device__` function returned).
    pub(crate) fn struct_source(&mut self, e: &Expr) -> Res<Addr> {
        let place = matches!(
            e.kind,
            ExprKind::Ident(_)
                | ExprKind::Index(..)
                | ExprKind::Member(..)
                | ExprKind::Call(..)
                | ExprKind::Unary(super::ast::UnOp::Deref, _)
        );
        if !place || !matches!(self.ty_of(e)?, CType::Struct(..)) {
            return err(
                e.pos,
                "a struct value must be a variable, an element, a member or a call",
            );
        }
        match self.lv(e)? {
            LVal::Mem(a, CType::Struct(..), _) => Ok(a),
            _ => err(
                e.pos,
                "a struct value must be a variable, an element, a member or a call",
            ),
        }
    }

    /// The struct a call returns, as a place: a struct-valued `__device__` function returns
    /// into a `.local` buffer the call site owns (as nvcc's inlined code does before its copies
    /// are optimised away), so its members can be read (`f().x`) or copied.
    pub(crate) fn struct_result(&mut self, e: &Expr) -> Res<LVal> {
        let v = self.rv(e)?;
        match (&v.ty, &v.op) {
            (CType::Struct(..), Op::Reg(r)) => Ok(LVal::Mem(
                Addr {
                    base: Base::Reg(r.clone()),
                    off: 0,
                    space: Space::Local,
                },
                v.ty.clone(),
                false,
            )),
            _ => err(e.pos, "expected an lvalue (a variable, an element or `*p`)"),
        }
    }

    /// Copies a value of type `ty` from `src` to `dst`, scalar by scalar.
    pub(crate) fn copy_value(&mut self, dst: &Addr, src: &Addr, ty: &CType) -> Res<()> {
        let at = |a: &Addr, off: u64| Addr {
            off: a.off.wrapping_add(off as i64),
            ..a.clone()
        };
        match ty {
            CType::Struct(_, fields, _) => {
                for (_, ft, off) in fields.clone() {
                    self.copy_value(&at(dst, off), &at(src, off), &ft)?;
                }
            }
            CType::Array(el, n) => {
                for k in 0..*n {
                    let off = k.saturating_mul(el.size());
                    self.copy_value(&at(dst, off), &at(src, off), el)?;
                }
            }
            _ => {
                let v = self.load(src, ty, false)?;
                self.store(dst, ty, false, v);
            }
        }
        Ok(())
    }

    /// Initialises the struct at `dst` from `init`: a brace list of members or a struct value.
    pub(crate) fn init_struct(&mut self, init: &Expr, ty: &CType, dst: Addr) -> Res<()> {
        let CType::Struct(_, fields, _) = ty else {
            return err(init.pos, "expected a struct");
        };
        if let ExprKind::List(items) = &init.kind {
            if items.len() > fields.len() {
                return err(init.pos, "too many initializers for the struct");
            }
            for (it, (_, ft, off)) in items.iter().zip(fields.clone()) {
                let a = Addr {
                    off: dst.off.wrapping_add(off as i64),
                    ..dst.clone()
                };
                self.init_memory(it, &ft, a)?;
            }
            return Ok(());
        }
        let src = self.struct_source(init)?;
        self.copy_value(&dst, &src, ty)
    }
}

/// Whether a struct has an array member at any depth.
fn has_array(ty: &CType) -> bool {
    match ty {
        CType::Array(..) => true,
        CType::Struct(_, fields, _) => fields.iter().any(|(_, t, _)| has_array(t)),
        _ => false,
    }
}
