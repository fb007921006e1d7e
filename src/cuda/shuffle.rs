//! Warp shuffles (CUDA C++ Programming Guide "Warp Shuffle Functions"; PTX ISA "shfl.sync"):
//! `__shfl_sync` and its up, down and xor forms on 32-bit values as one `shfl.sync`, and on
//! `double`, `long long` and `unsigned long long` as CUDA's headers do it: the value split into
//! two 32-bit halves (`mov.b64 {lo, hi}, x`), each half shuffled with the same lane and mask,
//! and the halves joined again.

use super::ast::Expr;
use super::emit::Val;
use super::error::{err, Pos, Res};
use super::lower::Lower;
use super::types::{CType, INT, UINT};

impl Lower<'_> {
    /// Lowers a call of `name`, one of the four `__shfl*_sync` functions.
    pub(crate) fn shuffle(&mut self, name: &str, args: &[Expr], pos: Pos) -> Res<Val> {
        if args.len() < 3 {
            return err(pos, format!("`{name}` needs at least 3 arguments"));
        }
        let m = self.rv(&args[0])?;
        let m = self.assign_convert(m, &UINT, pos)?;
        let m = self.materialize(m);
        let v = self.rv(&args[1])?;
        let vt = v.ty.promote();
        if !vt.is_arith() {
            return err(pos, format!("`{name}` shuffles a number"));
        }
        let v = self.convert(v, &vt)?;
        let v = self.materialize(v);
        let lane = self.rv(&args[2])?;
        let lane = self.assign_convert(lane, &INT, pos)?;
        let lane = self.materialize(lane);
        let width = match args.get(3) {
            Some(w) => self.const_int(w)?,
            None => 32,
        };
        if !matches!(width, 1 | 2 | 4 | 8 | 16 | 32) {
            return err(
                pos,
                format!("the width of `{name}` must be a power of two up to 32"),
            );
        }
        let (mode, c) = match name {
            "__shfl_sync" => ("idx", ((32 - width) << 8) | 0x1f),
            "__shfl_up_sync" => ("up", (32 - width) << 8),
            "__shfl_down_sync" => ("down", ((32 - width) << 8) | 0x1f),
            _ => ("bfly", ((32 - width) << 8) | 0x1f),
        };
        let tail = format!("{}, {c}, {}", lane.text(), m.text());
        if vt.size() == 8 {
            let lo = self.body.reg("r");
            let hi = self.body.reg("r");
            self.body
                .ins(format!("mov.b64 \t{{{lo}, {hi}}}, {}", v.text()));
            let lo2 = self.shfl32(mode, &lo, &tail);
            let hi2 = self.shfl32(mode, &hi, &tail);
            let r = self.body.reg_for(&vt);
            self.body.ins(format!("mov.b64 \t{r}, {{{lo2}, {hi2}}}"));
            return Ok(Val::reg(r, vt));
        }
        let src = if vt == CType::F32 {
            let r = self.body.reg("r");
            self.body.ins(format!("mov.b32 \t{r}, {}", v.text()));
            r
        } else {
            v.text()
        };
        let out = self.shfl32(mode, &src, &tail);
        if vt == CType::F32 {
            let f = self.body.reg("f");
            self.body.ins(format!("mov.b32 \t{f}, {out}"));
            return Ok(Val::reg(f, vt));
        }
        Ok(Val::reg(out, vt))
    }

    /// One `shfl.sync.MODE.b32` of the register `src`; `tail` is `lane, c, mask`.
    fn shfl32(&mut self, mode: &str, src: &str, tail: &str) -> String {
        let r = self.body.reg("r");
        self.body
            .ins(format!("shfl.sync.{mode}.b32 \t{r}, {src}, {tail}"));
        r
    }
}
