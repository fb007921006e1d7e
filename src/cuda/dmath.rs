//! Double-precision `exp` (CUDA Math API "exp"), for which PTX has no instruction, as a software
//! sequence in the usual way: `x = k ln2 + r` with `k` the nearest integer to `x / ln2` and
//! `ln2` in two parts (Cody and Waite), `e^r` by its Taylor polynomial to degree 13 in Horner
//! form with `fma.rn.f64` (|r| <= ln2/2, truncation below 1e-17), and the result scaled by
//! `2^k` in two halves built from exponent bits, so overflow gives infinity and small results
//! go gradually to zero. `x` is clamped to [-760, 710] first (infinities), and a NaN comes back.

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
    fn f64_op(&mut self, text: &str) -> String {
        let r = self.body.reg("fd");
        self.body.ins(text.replace("{d}", &r));
        r
    }
}
