//! `struct` values (C++ [class.copy]): a struct local lives in `.local` memory and a copy of a
//! struct (initialisation, assignment, passing by value to a `__device__` function) copies it
//! member by member, each scalar member a load and a store, as nvcc's code does once its
//! copies are not optimised away. Arrays of structs in global or shared memory are addressed
//! like any array.

use super::ast::{Expr, ExprKind};
use super::emit::{Addr, Base};
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

    /// The address of the struct `e` designates (a variable, an element, a member, `*p`).
    pub(crate) fn struct_source(&mut self, e: &Expr) -> Res<Addr> {
        let place = match e.kind {
            ExprKind::Call(..) => None,
            _ => Some(self.lv(e)?),
        };
        match place {
            Some(LVal::Mem(a, CType::Struct(..), _)) => Ok(a),
            _ => err(
                e.pos,
                "a struct value must be a variable, an element or a member (struct-valued calls are not supported)",
            ),
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
