//! Double-precision `sin` and `cos` (CUDA Math API), for which PTX has no instruction, as a
//! software sequence in the usual way: `x = k pi/2 + r` with `k` the nearest integer to
//! `x 2/pi` and `pi/2` in four parts (Cody and Waite; fdlibm's split, whose first three parts
//! end in zero bits so `k * part` is exact for |k| < 2^20, i.e. |x| below about 1.6e6), then
//! `sin r` and `cos r` on |r| <= pi/4 by their Taylor polynomials (to `r^19` and `r^20`, the
//! first omitted term below 2^-60 of the result) in Horner form with `fma.rn.f64`, and the
//! quadrant `k mod 4` choosing between them and their negations. An infinity or a NaN gives
//! NaN. Larger arguments (nvcc's Payne-Hanek path) lose accuracy here: docs/cuda.md says so.

use super::emit::{float_text, Val};
use super::lower::Lower;
use super::types::CType;

/// pi/2 in four parts (fdlibm's `pio2_1`, `pio2_2`, `pio2_3`, `pio2_3t`).
const PIO2_PARTS: [u64; 4] = [
    0x3ff9_21fb_5440_0000,
    0x3dd0_b461_1a60_0000,
    0x3ba3_198a_2e00_0000,
    0x397b_839a_2520_49c1,
];

impl Lower<'_> {
    /// `sin(x)` (`cosine` false) or `cos(x)` (true) for a `double` register or constant `x`.
    pub(crate) fn sincos_f64(&mut self, x: &Val, cosine: bool) -> Val {
        let d = CType::F64;
        let k = |v: f64| float_text(v, &d);
        let x = x.text();
        let t = self.f64_op(&format!(
            "mul.f64 \t{{d}}, {x}, {}",
            k(std::f64::consts::FRAC_2_PI)
        ));
        let ki = self.body.reg("r");
        self.body.ins(format!("cvt.rni.s32.f64 \t{ki}, {t}"));
        let kd = self.f64_op(&format!("cvt.rn.f64.s32 \t{{d}}, {ki}"));
        let nk = self.f64_op(&format!("neg.f64 \t{{d}}, {kd}"));
        let mut r = x.clone();
        for part in PIO2_PARTS {
            r = self.f64_op(&format!(
                "fma.rn.f64 \t{{d}}, {nk}, {}, {r}",
                k(f64::from_bits(part))
            ));
        }
        let z = self.f64_op(&format!("mul.f64 \t{{d}}, {r}, {r}"));
        let sin_r = self.sin_poly(&r, &z);
        let cos_r = self.cos_poly(&z);
        // cos x = sin(x + pi/2): one quadrant further.
        let q = if cosine {
            let q = self.body.reg("r");
            self.body.ins(format!("add.s32 \t{q}, {ki}, 1"));
            q
        } else {
            ki
        };
        let odd = self.body.reg("r");
        self.body.ins(format!("and.b32 \t{odd}, {q}, 1"));
        let use_cos = self.body.reg("p");
        self.body.ins(format!("setp.ne.s32 \t{use_cos}, {odd}, 0"));
        let half = self.body.reg("r");
        self.body.ins(format!("and.b32 \t{half}, {q}, 2"));
        let negate = self.body.reg("p");
        self.body.ins(format!("setp.ne.s32 \t{negate}, {half}, 0"));
        let y = self.f64_op(&format!("selp.f64 \t{{d}}, {cos_r}, {sin_r}, {use_cos}"));
        let ny = self.f64_op(&format!("neg.f64 \t{{d}}, {y}"));
        let y = self.f64_op(&format!("selp.f64 \t{{d}}, {ny}, {y}, {negate}"));
        // Infinities and NaNs: NaN.
        let a = self.f64_op(&format!("abs.f64 \t{{d}}, {x}"));
        let bad = self.body.reg("p");
        self.body
            .ins(format!("setp.equ.f64 \t{bad}, {a}, {}", k(f64::INFINITY)));
        let out = self.f64_op(&format!("selp.f64 \t{{d}}, {}, {y}, {bad}", k(f64::NAN)));
        Val::reg(out, d)
    }

    /// `sin r = r + r z P(z)`, z = r^2, to `r^19`: P's coefficients (-1)^n / (2n + 1)!.
    fn sin_poly(&mut self, r: &str, z: &str) -> String {
        let p = self.horner(&taylor(3, 9), z);
        let rz = self.f64_op(&format!("mul.f64 \t{{d}}, {r}, {z}"));
        self.f64_op(&format!("fma.rn.f64 \t{{d}}, {rz}, {p}, {r}"))
    }

    /// `cos r = 1 + z Q(z)`, z = r^2, to `r^20`: Q's coefficients (-1)^n / (2n)!.
    fn cos_poly(&mut self, z: &str) -> String {
        let q = self.horner(&taylor(2, 10), z);
        let one = float_text(1.0, &CType::F64);
        self.f64_op(&format!("fma.rn.f64 \t{{d}}, {z}, {q}, {one}"))
    }

    /// `c[0] + z (c[1] + z (...))` with `fma.rn.f64`.
    fn horner(&mut self, c: &[f64], z: &str) -> String {
        let d = CType::F64;
        let mut acc = float_text(c[c.len() - 1], &d);
        for k in c[..c.len() - 1].iter().rev() {
            let k = float_text(*k, &d);
            acc = self.f64_op(&format!("fma.rn.f64 \t{{d}}, {acc}, {z}, {k}"));
        }
        acc
    }
}

/// `count` Taylor coefficients of alternating sign, -1/first!, +1/(first+2)!, ...
fn taylor(first: u32, count: u32) -> Vec<f64> {
    (0..count)
        .map(|n| {
            let f: f64 = (1..=first + 2 * n).map(f64::from).product();
            if n % 2 == 0 {
                -1.0 / f
            } else {
                1.0 / f
            }
        })
        .collect()
}
