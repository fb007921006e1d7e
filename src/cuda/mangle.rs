//! Itanium C++ name mangling of kernels as nvcc emits them (Itanium C++ ABI §5.1
//! "Mangling"): `_Z10vector_addPKfS0_Pfi`, `_Z9transposeILi1EEvPfS0_`. Builtin types, pointers,
//! cv-qualifiers and substitutions (`S_`, `S0_`...) are covered: enough for kernel signatures.

use super::ast::{Param, Quals, Scalar, Ty};

fn builtin(s: Scalar) -> &'static str {
    match s {
        Scalar::Void => "v",
        Scalar::Bool => "b",
        Scalar::Int(8, true) => "c",
        Scalar::Int(8, false) => "h",
        Scalar::Int(16, true) => "s",
        Scalar::Int(16, false) => "t",
        Scalar::Int(32, true) => "i",
        Scalar::Int(32, false) => "j",
        Scalar::Int(_, true) => "l",
        Scalar::Int(_, false) => "m",
        Scalar::Float => "f",
        Scalar::Double => "d",
    }
}

fn cv(q: Quals) -> String {
    let mut s = String::new();
    if q.restrict {
        s.push('r');
    }
    if q.volatile {
        s.push('V');
    }
    if q.konst {
        s.push('K');
    }
    s
}

fn seq_id(k: usize) -> String {
    if k == 0 {
        "S_".into()
    } else {
        let mut n = k - 1;
        let mut digits = Vec::new();
        loop {
            let d = n % 36;
            digits.push(if d < 10 {
                (b'0' + d as u8) as char
            } else {
                (b'A' + d as u8 - 10) as char
            });
            n /= 36;
            if n == 0 {
                break;
            }
        }
        format!("S{}_", digits.iter().rev().collect::<String>())
    }
}

struct Mangler {
    subs: Vec<String>,
}

impl Mangler {
    /// Mangles `t` as (emitted text, text without substitutions); top-level cv-qualifiers of
    /// parameters are dropped.
    fn ty(&mut self, t: &Ty, top: bool) -> (String, String) {
        let (emitted, canon, q) = match t {
            Ty::Scalar(s, q) => (builtin(*s).to_string(), builtin(*s).to_string(), *q),
            Ty::Ptr(inner, _) | Ty::Array(inner, _) => {
                let q = if let Ty::Ptr(_, q) = t {
                    *q
                } else {
                    Quals::default()
                };
                let (e, c) = self.ty(inner, false);
                let canon = format!("P{c}");
                (self.sub(&canon, format!("P{e}")), canon, q)
            }
            Ty::Struct(n, q) => {
                let canon = format!("{}{n}", n.len());
                (self.sub(&canon, canon.clone()), canon, *q)
            }
        };
        let q = if top { Quals::default() } else { q };
        let c = cv(q);
        if c.is_empty() {
            return (emitted, canon);
        }
        let full = format!("{c}{canon}");
        (self.sub(&full, format!("{c}{emitted}")), full)
    }

    /// The substitution for `canon` if it was seen, else `emitted` (and `canon` becomes a
    /// candidate).
    fn sub(&mut self, canon: &str, emitted: String) -> String {
        if let Some(k) = self.subs.iter().position(|s| s == canon) {
            return seq_id(k);
        }
        self.subs.push(canon.to_string());
        emitted
    }
}

/// The mangled name of a kernel `name` with template arguments `targs`.
pub fn mangle(
    name: &str,
    targs: &[i64],
    template: Option<&Vec<(String, Scalar)>>,
    params: &[Param],
) -> String {
    let mut out = format!("_Z{}{name}", name.len());
    let mut m = Mangler { subs: Vec::new() };
    if let Some(tp) = template {
        out.push('I');
        for ((_, s), v) in tp.iter().zip(targs) {
            let v = if *v < 0 {
                format!("n{}", v.unsigned_abs())
            } else {
                v.to_string()
            };
            out.push_str(&format!("L{}{v}E", builtin(*s)));
        }
        out.push_str("Ev");
    }
    if params.is_empty() {
        out.push('v');
    }
    for p in params {
        let (s, _) = m.ty(&p.ty, true);
        out.push_str(&s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(ty: Ty) -> Param {
        Param {
            name: String::new(),
            ty,
        }
    }
    fn f(konst: bool) -> Ty {
        Ty::Scalar(
            Scalar::Float,
            Quals {
                konst,
                ..Quals::default()
            },
        )
    }

    #[test]
    fn nvcc_names() {
        let params = vec![
            p(Ty::Ptr(Box::new(f(true)), Quals::default())),
            p(Ty::Ptr(Box::new(f(true)), Quals::default())),
            p(Ty::Ptr(Box::new(f(false)), Quals::default())),
            p(Ty::Scalar(Scalar::Int(32, true), Quals::default())),
        ];
        assert_eq!(
            mangle("vector_add", &[], None, &params),
            "_Z10vector_addPKfS0_Pfi"
        );
        let tp = vec![("S".to_string(), Scalar::Int(32, true))];
        let params = vec![
            p(Ty::Ptr(Box::new(f(false)), Quals::default())),
            p(Ty::Ptr(Box::new(f(true)), Quals::default())),
            p(Ty::Scalar(Scalar::Int(32, true), Quals::default())),
        ];
        assert_eq!(
            mangle("transpose_tile", &[16], Some(&tp), &params),
            "_Z14transpose_tileILi16EEvPfPKfi"
        );
    }
}
