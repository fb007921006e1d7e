//! Double-precision `exp` and `log` (CUDA Math API), for which PTX has no instruction, as
//! software sequences in the usual way (and from them `exp2`, `log2`, `log10` and `pow`; `rsqrt`
//! refines PTX's approximation). `exp`: `x = k ln2 + r` with `k` the nearest integer to `x / ln2` and
//! `ln2` in two parts (Cody and Waite), `e^r` by its Taylor polynomial to degree 13 in Horner
//! form with `fma.rn.f64` (|r| <= ln2/2, truncation below 1e-17), and the result scaled by
//! `2^k` in two halves built from exponent bits, so overflow gives infinity and small results
//! go gradually to zero. `x` is clamped to [-760, 710] first (infinities), and a NaN comes back.
//! `log`: `x = m 2^e` with `m` in [sqrt(1/2), sqrt(2)) from the exponent bits (subnormals scaled
//! by 2^54 first), `log m = 2 atanh(s)`, `s = (m - 1) / (m + 1)`, by its odd series to `s^23`
//! (|s| <= 0.172), plus `e ln2` in two parts; 0 gives -inf, negatives NaN, +inf and NaN
//! themselves.

use super::emit::{float_text, Val};
use super::lower::Lower;
use super::types::CType;

/// ln 2 in two parts (fdlibm's): the high part has 32 trailing zero bits, so `k * LN2_HI` is
/// exact for |k| < 2^11.
const LN2_HI_BITS: u64 = 0x3fe6_2e42_fee0_0000;
const LN2_LO_BITS: u64 = 0x3dea_39ef_3579_3c76;

impl Lower<'_> {
    /// `exp(x)` for a `double` register or constant `x`.
    pub(crate) fn exp_f64(&mut self, x: &Val) -> Val {
        let d = CType::F64;
        let k = |v: f64| float_text(v, &d);
        let x = x.text();
        let lo = self.f64_op(&format!("max.f64 \t{{d}}, {x}, {}", k(-760.0)));
        let xc = self.f64_op(&format!("min.f64 \t{{d}}, {lo}, {}", k(710.0)));
        let t = self.f64_op(&format!(
            "mul.f64 \t{{d}}, {xc}, {}",
            k(std::f64::consts::LOG2_E)
        ));
        let ki = self.body.reg("r");
        self.body.ins(format!("cvt.rni.s32.f64 \t{ki}, {t}"));
        let kd = self.f64_op(&format!("cvt.rn.f64.s32 \t{{d}}, {ki}"));
        let nk = self.f64_op(&format!("neg.f64 \t{{d}}, {kd}"));
        let r1 = self.f64_op(&format!(
            "fma.rn.f64 \t{{d}}, {nk}, {}, {xc}",
            k(f64::from_bits(LN2_HI_BITS))
        ));
        let r = self.f64_op(&format!(
            "fma.rn.f64 \t{{d}}, {nk}, {}, {r1}",
            k(f64::from_bits(LN2_LO_BITS))
        ));
        self.exp_finish(&x, &r, &ki)
    }

    /// `2^x` for a `double` register or constant `x`: `x = k + f` with `k` the nearest integer
    /// (`f` exact), `2^f = e^(f ln2)`, then as `exp`.
    pub(crate) fn exp2_f64(&mut self, x: &Val) -> Val {
        let d = CType::F64;
        let k = |v: f64| float_text(v, &d);
        let x = x.text();
        let lo = self.f64_op(&format!("max.f64 \t{{d}}, {x}, {}", k(-1100.0)));
        let xc = self.f64_op(&format!("min.f64 \t{{d}}, {lo}, {}", k(1030.0)));
        let ki = self.body.reg("r");
        self.body.ins(format!("cvt.rni.s32.f64 \t{ki}, {xc}"));
        let kd = self.f64_op(&format!("cvt.rn.f64.s32 \t{{d}}, {ki}"));
        let f = self.f64_op(&format!("sub.f64 \t{{d}}, {xc}, {kd}"));
        let r = self.f64_op(&format!(
            "mul.f64 \t{{d}}, {f}, {}",
            k(std::f64::consts::LN_2)
        ));
        self.exp_finish(&x, &r, &ki)
    }

    /// `e^r * 2^k` (|r| <= ln2/2, `k` an `.s32` register), or `x` itself when `x` is NaN.
    fn exp_finish(&mut self, x: &str, r: &str, ki: &str) -> Val {
        let d = CType::F64;
        let k = |v: f64| float_text(v, &d);
        // e^r = sum r^n / n!, n = 0..=13.
        let mut fact = 1.0f64;
        let coef: Vec<f64> = (0..=13)
            .map(|n| {
                if n > 0 {
                    fact *= n as f64;
                }
                1.0 / fact
            })
            .collect();
        let mut p = k(coef[13]);
        for c in coef[..13].iter().rev() {
            p = self.f64_op(&format!("fma.rn.f64 \t{{d}}, {p}, {r}, {}", k(*c)));
        }
        // 2^k as 2^k1 * 2^k2, k1 = k >> 1, k2 = k - k1: both halves are normal numbers.
        let k1 = self.body.reg("r");
        self.body.ins(format!("shr.s32 \t{k1}, {ki}, 1"));
        let k2 = self.body.reg("r");
        self.body.ins(format!("sub.s32 \t{k2}, {ki}, {k1}"));
        let s1 = self.pow2_f64(&k1);
        let s2 = self.pow2_f64(&k2);
        let y1 = self.f64_op(&format!("mul.f64 \t{{d}}, {p}, {s1}"));
        let y = self.f64_op(&format!("mul.f64 \t{{d}}, {y1}, {s2}"));
        let nan = self.body.reg("p");
        self.body.ins(format!("setp.nan.f64 \t{nan}, {x}, {x}"));
        let out = self.f64_op(&format!("selp.f64 \t{{d}}, {x}, {y}, {nan}"));
        Val::reg(out, d)
    }

    /// `log(x)` for a `double` register `x`.
    pub(crate) fn log_f64(&mut self, x: &Val) -> Val {
        let d = CType::F64;
        let k = |v: f64| float_text(v, &d);
        let x = x.text();
        let tiny = self.body.reg("p");
        self.body.ins(format!(
            "setp.lt.f64 \t{tiny}, {x}, {}",
            k(f64::MIN_POSITIVE)
        ));
        let big = self.f64_op(&format!("mul.f64 \t{{d}}, {x}, {}", k(2f64.powi(54))));
        let xs = self.f64_op(&format!("selp.f64 \t{{d}}, {big}, {x}, {tiny}"));
        let (lo, hi) = (self.body.reg("r"), self.body.reg("r"));
        self.body.ins(format!("mov.b64 \t{{{lo}, {hi}}}, {xs}"));
        let eb = self.body.reg("r");
        self.body.ins(format!("shr.u32 \t{eb}, {hi}, 20"));
        let bias = self.body.reg("r");
        self.body
            .ins(format!("selp.b32 \t{bias}, 1077, 1023, {tiny}"));
        let e0 = self.body.reg("r");
        self.body.ins(format!("sub.s32 \t{e0}, {eb}, {bias}"));
        let frac = self.body.reg("r");
        self.body.ins(format!("and.b32 \t{frac}, {hi}, 1048575"));
        let hm = self.body.reg("r");
        self.body.ins(format!("or.b32 \t{hm}, {frac}, 1072693248"));
        let m0 = self.f64_op(&format!("mov.b64 \t{{d}}, {{{lo}, {hm}}}"));
        let high = self.body.reg("p");
        self.body.ins(format!(
            "setp.gt.f64 \t{high}, {m0}, {}",
            k(std::f64::consts::SQRT_2)
        ));
        let half = self.f64_op(&format!("mul.f64 \t{{d}}, {m0}, {}", k(0.5)));
        let m = self.f64_op(&format!("selp.f64 \t{{d}}, {half}, {m0}, {high}"));
        let e1 = self.body.reg("r");
        self.body.ins(format!("add.s32 \t{e1}, {e0}, 1"));
        let e = self.body.reg("r");
        self.body.ins(format!("selp.b32 \t{e}, {e1}, {e0}, {high}"));
        let f = self.f64_op(&format!("add.f64 \t{{d}}, {m}, {}", k(-1.0)));
        let m1 = self.f64_op(&format!("add.f64 \t{{d}}, {m}, {}", k(1.0)));
        let sv = self.f64_op(&format!("div.rn.f64 \t{{d}}, {f}, {m1}"));
        let z = self.f64_op(&format!("mul.f64 \t{{d}}, {sv}, {sv}"));
        // log m = s * sum 2 z^n / (2n + 1), n = 0..=11.
        let coef = |n: u32| 2.0 / (2 * n + 1) as f64;
        let mut q = k(coef(11));
        for n in (0..11).rev() {
            q = self.f64_op(&format!("fma.rn.f64 \t{{d}}, {q}, {z}, {}", k(coef(n))));
        }
        let logm = self.f64_op(&format!("mul.f64 \t{{d}}, {sv}, {q}"));
        let ed = self.f64_op(&format!("cvt.rn.f64.s32 \t{{d}}, {e}"));
        let t = self.f64_op(&format!(
            "fma.rn.f64 \t{{d}}, {ed}, {}, {logm}",
            k(f64::from_bits(LN2_LO_BITS))
        ));
        let y = self.f64_op(&format!(
            "fma.rn.f64 \t{{d}}, {ed}, {}, {t}",
            k(f64::from_bits(LN2_HI_BITS))
        ));
        // The special values, last one wins: negative, zero, +inf or NaN.
        let mut out = y;
        for (cmp, value) in [
            ("setp.lt.f64", k(f64::NAN)),
            ("setp.eq.f64", k(f64::NEG_INFINITY)),
            ("setp.equ.f64", x.clone()),
        ] {
            let limit = match value.as_str() {
                v if v == x => k(f64::INFINITY),
                _ => k(0.0),
            };
            let p = self.body.reg("p");
            self.body.ins(format!("{cmp} \t{p}, {x}, {limit}"));
            out = self.f64_op(&format!("selp.f64 \t{{d}}, {value}, {out}, {p}"));
        }
        Val::reg(out, d)
    }

    /// `log(x) * factor`: `log2` (factor log2 e) and `log10` (log10 e) of a `double`.
    pub(crate) fn log_scaled_f64(&mut self, x: &Val, factor: f64) -> Val {
        let l = self.log_f64(x);
        let k = float_text(factor, &CType::F64);
        let y = self.f64_op(&format!("mul.f64 \t{{d}}, {}, {k}", l.text()));
        Val::reg(y, CType::F64)
    }

    /// `1 / sqrt(x)` of a `double`: PTX's `rsqrt.approx.ftz.f64` and one Newton step
    /// `y + y (1 - x y^2) / 2`, as CUDA's `rsqrt` refines it; where the step is undefined
    /// (0, infinity, NaN) the approximation stands.
    pub(crate) fn rsqrt_f64(&mut self, x: &Val) -> Val {
        let k = |v: f64| float_text(v, &CType::F64);
        let x = x.text();
        let y = self.f64_op(&format!("rsqrt.approx.ftz.f64 \t{{d}}, {x}"));
        let h = self.f64_op(&format!("mul.f64 \t{{d}}, {x}, {y}"));
        let nh = self.f64_op(&format!("neg.f64 \t{{d}}, {h}"));
        let e = self.f64_op(&format!("fma.rn.f64 \t{{d}}, {nh}, {y}, {}", k(1.0)));
        let half = self.f64_op(&format!("mul.f64 \t{{d}}, {y}, {}", k(0.5)));
        let y1 = self.f64_op(&format!("fma.rn.f64 \t{{d}}, {half}, {e}, {y}"));
        let nan = self.body.reg("p");
        self.body.ins(format!("setp.nan.f64 \t{nan}, {y1}, {y1}"));
        let out = self.f64_op(&format!("selp.f64 \t{{d}}, {y}, {y1}, {nan}"));
        Val::reg(out, CType::F64)
    }

    /// `pow(x, y)` of `double`s: by repeated squaring for a constant integer `y` (|y| <= 64,
    /// as `x * x` for 2), else `e^(y log|x|)`, negative for a negative `x` and an odd integer
    /// `y`, NaN for a negative `x` and a fractional `y`, 1 for `y = 0`. Its relative error
    /// grows with |y log x| (about 2^-52 |y log x| more than CUDA's 2 ulp).
    pub(crate) fn pow_f64(&mut self, x: &Val, y: &Val) -> Val {
        if let super::emit::Op::F(v) = y.op {
            if v.fract() == 0.0 && v.abs() <= 64.0 {
                return self.pow_int_f64(x, v as i32);
            }
        }
        let y = self.materialize(y.clone());
        let k = |v: f64| float_text(v, &CType::F64);
        let (xt, yt) = (x.text(), y.text());
        let ax = self.f64_op(&format!("abs.f64 \t{{d}}, {xt}"));
        let l = self.log_f64(&Val::reg(ax, CType::F64));
        let t = self.f64_op(&format!("mul.f64 \t{{d}}, {yt}, {}", l.text()));
        let m = self.exp_f64(&Val::reg(t, CType::F64)).text();
        // The sign: y an odd integer and x negative; NaN: y fractional and x negative.
        let half = self.f64_op(&format!("mul.f64 \t{{d}}, {yt}, {}", k(0.5)));
        let hf = self.f64_op(&format!("cvt.rmi.f64.f64 \t{{d}}, {half}"));
        let odd = self.body.reg("p");
        self.body.ins(format!("setp.ne.f64 \t{odd}, {half}, {hf}"));
        let yi = self.f64_op(&format!("cvt.rmi.f64.f64 \t{{d}}, {yt}"));
        let frac = self.body.reg("p");
        self.body.ins(format!("setp.ne.f64 \t{frac}, {yt}, {yi}"));
        let neg = self.body.reg("p");
        self.body
            .ins(format!("setp.lt.f64 \t{neg}, {xt}, {}", k(0.0)));
        let flip = self.body.reg("p");
        self.body.ins(format!("and.pred \t{flip}, {neg}, {odd}"));
        let nm = self.f64_op(&format!("neg.f64 \t{{d}}, {m}"));
        let signed = self.f64_op(&format!("selp.f64 \t{{d}}, {nm}, {m}, {flip}"));
        let bad = self.body.reg("p");
        self.body.ins(format!("and.pred \t{bad}, {neg}, {frac}"));
        let r = self.f64_op(&format!(
            "selp.f64 \t{{d}}, {}, {signed}, {bad}",
            k(f64::NAN)
        ));
        let zero = self.body.reg("p");
        self.body
            .ins(format!("setp.eq.f64 \t{zero}, {yt}, {}", k(0.0)));
        let out = self.f64_op(&format!("selp.f64 \t{{d}}, {}, {r}, {zero}", k(1.0)));
        Val::reg(out, CType::F64)
    }

    /// `x^n` by repeated squaring (`1 / x^-n` for a negative `n`).
    fn pow_int_f64(&mut self, x: &Val, n: i32) -> Val {
        let k = |v: f64| float_text(v, &CType::F64);
        let mut acc: Option<String> = None;
        let mut base = x.text();
        let mut e = n.unsigned_abs();
        while e > 0 {
            if e & 1 == 1 {
                acc = Some(match acc {
                    None => base.clone(),
                    Some(a) => self.f64_op(&format!("mul.f64 \t{{d}}, {a}, {base}")),
                });
            }
            e >>= 1;
            if e > 0 {
                base = self.f64_op(&format!("mul.f64 \t{{d}}, {base}, {base}"));
            }
        }
        let p = acc.unwrap_or_else(|| k(1.0));
        let p = if n < 0 {
            self.f64_op(&format!("div.rn.f64 \t{{d}}, {}, {p}", k(1.0)))
        } else if p == x.text() {
            self.f64_op(&format!("mov.f64 \t{{d}}, {p}"))
        } else {
            p
        };
        Val::reg(p, CType::F64)
    }

    /// `2^k` for an integer register `k` in the normal range: its exponent bits.
    fn pow2_f64(&mut self, k: &str) -> String {
        let b = self.body.reg("r");
        self.body.ins(format!("add.s32 \t{b}, {k}, 1023"));
        let w = self.body.reg("rd");
        self.body.ins(format!("cvt.u64.u32 \t{w}, {b}"));
        let e = self.body.reg("rd");
        self.body.ins(format!("shl.b64 \t{e}, {w}, 52"));
        self.f64_op(&format!("mov.b64 \t{{d}}, {e}"))
    }

    /// One instruction `text` (`{d}` its destination) into a fresh `.f64` register.
    pub(crate) fn f64_op(&mut self, text: &str) -> String {
        let r = self.body.reg("fd");
        self.body.ins(text.replace("{d}", &r));
        r
    }
}
