//! Built-in functions (CUDA C++ Programming Guide §7.6 "Synchronization Functions", §7.14
//! "Atomic Functions", §7.22 "Warp Vote Functions", §7.23 "Warp Shuffle Functions", Appendix
//! "Mathematical Functions" and "Intrinsic Functions") as the PTX instructions that implement
//! them (PTX ISA §9.7.12 "bar", §9.7.13 "atom", "vote", "shfl", §9.7.3 "Floating-Point").
//! Math functions map to one PTX instruction where one exists (`sqrt.rn`, `ex2.approx`...);
//! `expf`/`logf`/`sinf` use the fast approximate forms, so their last bits can differ from
//! nvcc's library code.

use super::ast::Expr;
use super::emit::{float_text, Op, Val};
use super::error::{err, Pos, Res};
use super::lower::Lower;
use super::types::{common, CType, INT, UINT};

const ATOMICS: [&str; 11] = [
    "atomicAdd",
    "atomicSub",
    "atomicExch",
    "atomicMin",
    "atomicMax",
    "atomicInc",
    "atomicDec",
    "atomicCAS",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
];

/// One-instruction float functions: name, PTX instruction (`{t}` is the type), precision of
/// the float form, whether a double form exists.
const MATH1: [(&str, &str); 18] = [
    ("sqrt", "sqrt.rn.{t}"),
    ("rsqrt", "rsqrt.approx.{t}"),
    ("fabs", "abs.{t}"),
    ("floor", "cvt.rmi.{t}.{t}"),
    ("ceil", "cvt.rpi.{t}.{t}"),
    ("trunc", "cvt.rzi.{t}.{t}"),
    ("rint", "cvt.rni.{t}.{t}"),
    ("nearbyint", "cvt.rni.{t}.{t}"),
    ("exp2", "ex2.approx.{t}"),
    ("__exp2", "ex2.approx.{t}"),
    ("log2", "lg2.approx.{t}"),
    ("__log2", "lg2.approx.{t}"),
    ("sin", "sin.approx.{t}"),
    ("__sin", "sin.approx.{t}"),
    ("cos", "cos.approx.{t}"),
    ("__cos", "cos.approx.{t}"),
    ("__saturate", "add.sat.{t}"),
    ("rcp", "rcp.rn.{t}"),
];

/// Whether `base` (a math name without its `f` suffix) is a math function the compiler knows:
/// one of [`MATH1`] or one lowered on its own.
fn is_math_function(base: &str) -> bool {
    MATH1.iter().any(|(n, _)| *n == base)
        || matches!(
            base,
            "exp"
                | "log"
                | "__exp"
                | "__log"
                | "pow"
                | "__pow"
                | "fmin"
                | "fmax"
                | "log10"
                | "tan"
                | "__tan"
                | "fma"
                | "__fdivide"
                | "round"
                | "fmod"
        )
}

/// A math name without its `f` suffix, and whether the float form was named.
fn math_base(name: &str) -> (&str, bool) {
    if let Some(b) = name.strip_suffix('f') {
        if is_math_function(b) {
            return (b, true);
        }
    }
    (name, false)
}

impl Lower<'_> {
    /// The type a call returns.
    pub fn call_type(&self, name: &str, args: &[Expr], pos: Pos) -> Res<CType> {
        let arg = |k: usize| -> Res<CType> {
            match args.get(k) {
                Some(a) => self.ty_of(a),
                None => err(pos, format!("`{name}` needs more arguments")),
            }
        };
        if let Some(f) = self.device_fn(name) {
            return self.device_ret(f, pos);
        }
        Ok(match name {
            _ if ATOMICS.contains(&name) => arg(0)?.elem().cloned().unwrap_or(INT),
            "__ldg" => match arg(0)?.elem() {
                Some(t) => t.clone(),
                None => return err(pos, "`__ldg` needs a pointer argument"),
            },
            "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => {
                arg(1)?.promote()
            }
            "__ballot_sync" | "__activemask" => UINT,
            "__any_sync"
            | "__all_sync"
            | "__syncthreads_and"
            | "__syncthreads_or"
            | "__syncthreads_count"
            | "__popc"
            | "__popcll"
            | "__clz"
            | "__clzll"
            | "__ffs"
            | "__mul24"
            | "__mulhi"
            | "__float_as_int"
            | "__float2int_rn"
            | "__float2int_rz" => INT,
            "__umul24" | "__umulhi" | "__brev" | "__float_as_uint" | "__float2uint_rn" => UINT,
            "__int_as_float" | "__uint_as_float" | "__int2float_rn" | "__uint2float_rn" => {
                CType::F32
            }
            "min" | "max" => common(&arg(0)?, &arg(1)?),
            "abs" | "llabs" | "labs" => arg(0)?.promote(),
            "sizeof" => CType::Int(64, false),
            "__syncthreads"
            | "__syncwarp"
            | "__threadfence"
            | "__threadfence_block"
            | "__threadfence_system" => CType::Void,
            _ => {
                let (base, float) = math_base(name);
                let known = is_math_function(base);
                if !known {
                    return err(pos, format!("call of undeclared function `{name}`"));
                }
                if float || arg(0)? == CType::F32 {
                    CType::F32
                } else {
                    CType::F64
                }
            }
        })
    }

    fn arg_val(&mut self, args: &[Expr], k: usize, name: &str, pos: Pos) -> Res<Val> {
        match args.get(k) {
            Some(a) => self.rv(a),
            None => err(pos, format!("`{name}` needs at least {} arguments", k + 1)),
        }
    }

    fn arg_as(&mut self, args: &[Expr], k: usize, ty: &CType, name: &str, pos: Pos) -> Res<Val> {
        let v = self.arg_val(args, k, name, pos)?;
        let v = self.assign_convert(v, ty, pos)?;
        Ok(self.materialize(v))
    }

    fn emit1(&mut self, ty: &CType, text: String) -> Val {
        let r = self.body.reg_for(ty);
        self.body.ins(text.replace("{d}", &r));
        Val::reg(r, ty.clone())
    }

    /// Lowers a call of a built-in or a device function.
    pub fn call(&mut self, name: &str, args: &[Expr], targs: &[Expr], pos: Pos) -> Res<Val> {
        // No store is forwarded across a call (atomics, barriers, fences, shuffles).
        self.forward = None;
        let r = self.call_inner(name, args, targs, pos);
        self.forward = None;
        r
    }

    fn call_inner(&mut self, name: &str, args: &[Expr], targs: &[Expr], pos: Pos) -> Res<Val> {
        if let Some(f) = self.device_fn(name) {
            let f = f.clone();
            return self.inline_call(&f, args, targs, pos);
        }
        if let Some(f) = self.unit.functions.iter().find(|f| f.name == name) {
            return err(pos, format!("`{}` is a __global__ function: launching kernels from the device is not supported", f.name));
        }
        let void = Val::int(0, CType::Void);
        let ty = self.call_type(name, args, pos)?;
        match name {
            "__syncthreads" => {
                self.body.ins("bar.sync \t0".into());
                Ok(void)
            }
            "__ldg" => self.read_only_load(args, pos),
            "__syncwarp" => {
                let m = if args.is_empty() {
                    Val::int(-1, UINT)
                } else {
                    self.arg_as(args, 0, &UINT, name, pos)?
                };
                self.body.ins(format!("bar.warp.sync \t{}", m.text()));
                Ok(void)
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" => {
                let s = match name {
                    "__threadfence" => "gl",
                    "__threadfence_block" => "cta",
                    _ => "sys",
                };
                self.body.ins(format!("membar.{s}"));
                Ok(void)
            }
            "__syncthreads_and" | "__syncthreads_or" | "__syncthreads_count" => {
                let v = self.arg_val(args, 0, name, pos)?;
                let p = self.to_pred(v);
                let p = self.materialize(p);
                if name == "__syncthreads_count" {
                    return Ok(
                        self.emit1(&INT, format!("bar.red.popc.u32 \t{{d}}, 0, {}", p.text()))
                    );
                }
                let op = if name == "__syncthreads_and" {
                    "and"
                } else {
                    "or"
                };
                let q = self.emit1(
                    &CType::Bool,
                    format!("bar.red.{op}.pred \t{{d}}, 0, {}", p.text()),
                );
                self.convert(q, &INT)
            }
            "__activemask" => Ok(self.emit1(&UINT, "activemask.b32 \t{d}".into())),
            "__ballot_sync" | "__any_sync" | "__all_sync" => {
                let m = self.arg_as(args, 0, &UINT, name, pos)?;
                let v = self.arg_val(args, 1, name, pos)?;
                let p = self.to_pred(v);
                let p = self.materialize(p);
                if name == "__ballot_sync" {
                    return Ok(self.emit1(
                        &UINT,
                        format!("vote.sync.ballot.b32 \t{{d}}, {}, {}", p.text(), m.text()),
                    ));
                }
                let mode = if name == "__any_sync" { "any" } else { "all" };
                let q = self.emit1(
                    &CType::Bool,
                    format!("vote.sync.{mode}.pred \t{{d}}, {}, {}", p.text(), m.text()),
                );
                self.convert(q, &INT)
            }
            "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => {
                self.shuffle(name, args, pos)
            }
            "__popc" | "__clz" | "__brev" | "__popcll" | "__clzll" => {
                let at = if name.ends_with("ll") {
                    CType::Int(64, false)
                } else {
                    UINT
                };
                let v = self.arg_as(args, 0, &at, name, pos)?;
                let op = &name[2..name.len() - if name.ends_with("ll") { 2 } else { 0 }];
                let rt = if op == "brev" { at.clone() } else { ty.clone() };
                Ok(Val {
                    ty: ty.clone(),
                    ..self.emit1(&rt, format!("{op}.{} \t{{d}}, {}", at.bits(), v.text()))
                })
            }
            "__ffs" => {
                let v = self.arg_as(args, 0, &UINT, name, pos)?;
                let b = self.emit1(&UINT, format!("brev.b32 \t{{d}}, {}", v.text()));
                let c = self.emit1(&UINT, format!("clz.b32 \t{{d}}, {}", b.text()));
                let c1 = self.emit1(&UINT, format!("add.s32 \t{{d}}, {}, 1", c.text()));
                let p = self.emit1(
                    &CType::Bool,
                    format!("setp.eq.s32 \t{{d}}, {}, 0", v.text()),
                );
                Ok(self.emit1(
                    &INT,
                    format!("selp.b32 \t{{d}}, 0, {}, {}", c1.text(), p.text()),
                ))
            }
            "__mul24" | "__umul24" | "__mulhi" | "__umulhi" => {
                let t = if name.starts_with("__u") { UINT } else { INT };
                let a = self.arg_as(args, 0, &t, name, pos)?;
                let b = self.arg_as(args, 1, &t, name, pos)?;
                let op = if name.contains("24") {
                    "mul24.lo"
                } else {
                    "mul.hi"
                };
                Ok(self.emit1(
                    &t,
                    format!("{op}.{} \t{{d}}, {}, {}", t.ptx(), a.text(), b.text()),
                ))
            }
            "__float_as_int" | "__float_as_uint" | "__int_as_float" | "__uint_as_float" => {
                let from = if name.starts_with("__float") {
                    CType::F32
                } else {
                    ty.clone().clone()
                };
                let from = if from == CType::F32 {
                    from
                } else if name.starts_with("__int") {
                    INT
                } else {
                    UINT
                };
                let v = self.arg_as(args, 0, &from, name, pos)?;
                Ok(self.emit1(&ty, format!("mov.b32 \t{{d}}, {}", v.text())))
            }
            "__float2int_rn" | "__float2int_rz" | "__float2uint_rn" => {
                let v = self.arg_as(args, 0, &CType::F32, name, pos)?;
                let r = if name.ends_with("rz") { "rzi" } else { "rni" };
                Ok(self.emit1(
                    &ty,
                    format!("cvt.{r}.{}.f32 \t{{d}}, {}", ty.ptx(), v.text()),
                ))
            }
            "__int2float_rn" | "__uint2float_rn" => {
                let t = if name.starts_with("__int") { INT } else { UINT };
                let v = self.arg_as(args, 0, &t, name, pos)?;
                Ok(self.emit1(
                    &CType::F32,
                    format!("cvt.rn.f32.{} \t{{d}}, {}", t.ptx(), v.text()),
                ))
            }
            "min" | "max" => {
                let a = self.arg_as(args, 0, &ty, name, pos)?;
                let b = self.arg_as(args, 1, &ty, name, pos)?;
                Ok(self.emit1(
                    &ty,
                    format!("{name}.{} \t{{d}}, {}, {}", ty.ptx(), a.text(), b.text()),
                ))
            }
            "abs" | "labs" | "llabs" => {
                let a = self.arg_as(args, 0, &ty, name, pos)?;
                let t = if ty.is_float() {
                    ty.ptx()
                } else if ty.size() == 8 {
                    "s64"
                } else {
                    "s32"
                };
                Ok(self.emit1(&ty, format!("abs.{t} \t{{d}}, {}", a.text())))
            }
            "sizeof" => {
                let t = match args.first() {
                    Some(a) => self.ty_of(a)?,
                    None => return err(pos, "`sizeof` needs an operand"),
                };
                Ok(Val::int(t.size() as i64, CType::Int(64, false)))
            }
            _ if ATOMICS.contains(&name) => self.atomic(name, args, &ty, pos),
            _ => self.math(name, args, &ty, pos),
        }
    }

    /// `__ldg(p)`: a load through the read-only (texture) path, `ld.global.nc` (CUDA
    /// Programming Guide, "Read-Only Data Cache Load Function"); a pointer into another space
    /// loads as usual.
    fn read_only_load(&mut self, args: &[Expr], pos: Pos) -> Res<Val> {
        let Some(p) = args.first() else {
            return err(pos, "`__ldg` needs a pointer argument");
        };
        let (addr, el, _) = self.ptr(p)?;
        if !(el.is_int() || el.is_float()) || el == CType::Bool || el.size() < 4 {
            return err(
                pos,
                "`__ldg` on this type is not supported (32- and 64-bit scalars)",
            );
        }
        if addr.space != crate::cuda::types::Space::Global {
            return self.load(&addr, &el, false);
        }
        let r = self.body.reg_for(&el);
        self.body.ins(format!(
            "ld.global.nc.{} \t{r}, {}",
            el.mem_ptx(),
            addr.text()
        ));
        Ok(Val::reg(r, el))
    }

    fn atomic(&mut self, name: &str, args: &[Expr], ty: &CType, pos: Pos) -> Res<Val> {
        let Some(p) = args.first() else {
            return err(pos, format!("`{name}` needs a pointer argument"));
        };
        let (addr, el, _) = self.ptr(p)?;
        if !(matches!(el, CType::Int(32 | 64, _))
            || (el.is_float() && name == "atomicAdd")
            || (el == CType::F32 && name == "atomicExch"))
        {
            return err(pos, format!("`{name}` on this type is not supported"));
        }
        let v = self.arg_as(args, 1, &el, name, pos)?;
        let bits = el.bits();
        let (op, t, v) = match name {
            "atomicAdd" => (
                "add",
                if el.is_float() {
                    el.ptx()
                } else if el.size() == 8 {
                    "u64"
                } else {
                    "u32"
                },
                v,
            ),
            "atomicSub" => {
                let n = self.emit1(&el, format!("neg.s{} \t{{d}}, {}", el.size() * 8, v.text()));
                ("add", if el.size() == 8 { "u64" } else { "u32" }, n)
            }
            "atomicExch" => ("exch", bits, v),
            "atomicMin" => ("min", el.ptx(), v),
            "atomicMax" => ("max", el.ptx(), v),
            "atomicInc" => ("inc", "u32", v),
            "atomicDec" => ("dec", "u32", v),
            "atomicAnd" => ("and", bits, v),
            "atomicOr" => ("or", bits, v),
            "atomicXor" => ("xor", bits, v),
            _ => {
                let n = self.arg_as(args, 2, &el, name, pos)?;
                let r = self.emit1(
                    ty,
                    format!(
                        "atom{}.cas.{bits} \t{{d}}, {}, {}, {}",
                        addr.space.qual(),
                        addr.text(),
                        v.text(),
                        n.text()
                    ),
                );
                return Ok(r);
            }
        };
        Ok(self.emit1(
            ty,
            format!(
                "atom{}.{op}.{t} \t{{d}}, {}, {}",
                addr.space.qual(),
                addr.text(),
                v.text()
            ),
        ))
    }

    /// The `double` math functions PTX has no instruction for, as software sequences
    /// (`dmath`, `dtrig`); `None` for the others.
    fn double_math(
        &mut self,
        base: &str,
        a: &Val,
        args: &[Expr],
        name: &str,
        pos: Pos,
    ) -> Res<Option<Val>> {
        Ok(Some(match base {
            "sin" | "cos" => self.sincos_f64(a, base == "cos"),
            "tan" => {
                let s = self.sincos_f64(a, false);
                let c = self.sincos_f64(a, true);
                let q = self.f64_op(&format!("div.rn.f64 \t{{d}}, {}, {}", s.text(), c.text()));
                Val::reg(q, CType::F64)
            }
            "exp" => self.exp_f64(a),
            "exp2" => self.exp2_f64(a),
            "log" => self.log_f64(a),
            "log2" => self.log_scaled_f64(a, std::f64::consts::LOG2_E),
            "log10" => self.log_scaled_f64(a, std::f64::consts::LOG10_E),
            "rsqrt" => self.rsqrt_f64(a),
            "pow" => {
                // Not materialised: a constant integer exponent is multiplied out.
                let y = self.arg_val(args, 1, name, pos)?;
                let y = self.assign_convert(y, &CType::F64, pos)?;
                self.pow_f64(a, &y)
            }
            _ => return Ok(None),
        }))
    }

    fn math(&mut self, name: &str, args: &[Expr], ty: &CType, pos: Pos) -> Res<Val> {
        let (base, _) = math_base(name);
        let t = ty.ptx();
        let a = self.arg_as(args, 0, ty, name, pos)?;
        if *ty == CType::F64 {
            if let Some(v) = self.double_math(base, &a, args, name, pos)? {
                return Ok(v);
            }
        }
        if let Some((_, ins)) = MATH1.iter().find(|(n, _)| *n == base) {
            if *ty == CType::F64 && ins.contains("approx") {
                return err(
                    pos,
                    format!(
                        "`{name}` on double is not supported (PTX has no double-precision {base})"
                    ),
                );
            }
            let ins = ins.replace("{t}", t);
            let extra = if base == "__saturate" {
                format!(", {}", float_text(0.0, ty))
            } else {
                String::new()
            };
            return Ok(self.emit1(ty, format!("{ins} \t{{d}}, {}{extra}", a.text())));
        }
        let k = |v: f64| Val {
            op: Op::F(v),
            ty: CType::F32,
        };
        if *ty == CType::F64 && !matches!(base, "fmin" | "fmax" | "fma" | "fmod") {
            return err(
                pos,
                format!("`{name}` on double is not supported (PTX has no double-precision {base})"),
            );
        }
        match base {
            "exp" | "__exp" => {
                let m = self.emit1(
                    ty,
                    format!(
                        "mul.f32 \t{{d}}, {}, {}",
                        a.text(),
                        k(std::f64::consts::LOG2_E).text()
                    ),
                );
                Ok(self.emit1(ty, format!("ex2.approx.f32 \t{{d}}, {}", m.text())))
            }
            "log" | "__log" | "log10" => {
                let l = self.emit1(ty, format!("lg2.approx.f32 \t{{d}}, {}", a.text()));
                let c = if base == "log10" {
                    std::f64::consts::LOG10_2
                } else {
                    std::f64::consts::LN_2
                };
                Ok(self.emit1(
                    ty,
                    format!("mul.f32 \t{{d}}, {}, {}", l.text(), k(c).text()),
                ))
            }
            "pow" | "__pow" => {
                let b = self.arg_as(args, 1, ty, name, pos)?;
                let l = self.emit1(ty, format!("lg2.approx.f32 \t{{d}}, {}", a.text()));
                let m = self.emit1(ty, format!("mul.f32 \t{{d}}, {}, {}", l.text(), b.text()));
                Ok(self.emit1(ty, format!("ex2.approx.f32 \t{{d}}, {}", m.text())))
            }
            "tan" | "__tan" => {
                let s = self.emit1(ty, format!("sin.approx.f32 \t{{d}}, {}", a.text()));
                let c = self.emit1(ty, format!("cos.approx.f32 \t{{d}}, {}", a.text()));
                Ok(self.emit1(
                    ty,
                    format!("div.approx.f32 \t{{d}}, {}, {}", s.text(), c.text()),
                ))
            }
            "round" => {
                // round half away from zero: trunc(x + copysign(0.5 - ulp, x)) is close; use cvt.rni on |x| + 0.5 truncation.
                let ab = self.emit1(ty, format!("abs.f32 \t{{d}}, {}", a.text()));
                let h = self.emit1(ty, format!("add.f32 \t{{d}}, {}, 0f3F000000", ab.text()));
                let tr = self.emit1(ty, format!("cvt.rzi.f32.f32 \t{{d}}, {}", h.text()));
                let p = self.emit1(
                    &CType::Bool,
                    format!("setp.lt.f32 \t{{d}}, {}, 0f00000000", a.text()),
                );
                let n = self.emit1(ty, format!("neg.f32 \t{{d}}, {}", tr.text()));
                Ok(self.emit1(
                    ty,
                    format!(
                        "selp.f32 \t{{d}}, {}, {}, {}",
                        n.text(),
                        tr.text(),
                        p.text()
                    ),
                ))
            }
            "fmin" | "fmax" => {
                let b = self.arg_as(args, 1, ty, name, pos)?;
                Ok(self.emit1(
                    ty,
                    format!("{}.{t} \t{{d}}, {}, {}", &base[1..], a.text(), b.text()),
                ))
            }
            "fma" => {
                let b = self.arg_as(args, 1, ty, name, pos)?;
                let c = self.arg_as(args, 2, ty, name, pos)?;
                Ok(self.emit1(
                    ty,
                    format!(
                        "fma.rn.{t} \t{{d}}, {}, {}, {}",
                        a.text(),
                        b.text(),
                        c.text()
                    ),
                ))
            }
            "__fdivide" => {
                let b = self.arg_as(args, 1, ty, name, pos)?;
                Ok(self.emit1(
                    ty,
                    format!("div.approx.f32 \t{{d}}, {}, {}", a.text(), b.text()),
                ))
            }
            _ => err(pos, format!("`{name}` is not supported")),
        }
    }
}
