//! Address walks within a basic block, as nvcc strength-reduces them: when a 64-bit address
//! `base + sizeof * (signed index)` differs from an earlier address on the same base by a
//! constant or by one register times a constant, it is computed from that address with one
//! `add.s64` (`p += n` for a column walk `a[(r + 1) * n + tx]` unrolled over `r`), instead of
//! the index arithmetic, `mul.wide.s32` and `add.s64` again. The index arithmetic left unused
//! is dropped by [`super::dead_code`].
//!
//! Indices are tracked as affine forms (constant + sum of coefficient * register) through the
//! signed 32-bit `add`, `sub`, `neg`, `mul.lo` and `mad.lo` by constants: signed overflow is
//! undefined in C++ ([expr.pre]), so `sext(i + j) = sext(i) + sext(j)` may be assumed, as nvcc
//! assumes it. Unsigned indices wrap and are left alone.

use super::emit::split_ins;
use std::collections::{BTreeMap, HashMap, HashSet};

/// constant + sum of coefficient * register.
#[derive(Clone, Debug, PartialEq, Default)]
struct Form {
    terms: BTreeMap<String, i64>,
    konst: i64,
}

impl Form {
    fn atom(reg: &str) -> Form {
        Form {
            terms: BTreeMap::from([(reg.to_string(), 1)]),
            konst: 0,
        }
    }
    fn konst(k: i64) -> Form {
        Form {
            konst: k,
            ..Form::default()
        }
    }
    fn scaled(&self, m: i64) -> Form {
        Form {
            terms: self
                .terms
                .iter()
                .map(|(r, c)| (r.clone(), c.wrapping_mul(m)))
                .filter(|(_, c)| *c != 0)
                .collect(),
            konst: self.konst.wrapping_mul(m),
        }
    }
    fn plus(&self, o: &Form) -> Form {
        let mut f = self.clone();
        for (r, c) in &o.terms {
            let e = f.terms.entry(r.clone()).or_insert(0);
            *e = e.wrapping_add(*c);
        }
        f.terms.retain(|_, c| *c != 0);
        f.konst = f.konst.wrapping_add(o.konst);
        f
    }
    fn mentions(&self, reg: &str) -> bool {
        self.terms.contains_key(reg)
    }
}

/// What is known in the block.
#[derive(Default)]
struct Walk {
    /// Signed 32-bit registers as forms over other registers.
    index: BTreeMap<String, Form>,
    /// 64-bit registers holding `sizeof * sext(form)` (a `mul.wide.s32` result).
    wide: BTreeMap<String, Form>,
    /// Address registers: (register, base register, form in bytes), in order.
    addresses: Vec<(String, String, Form)>,
    /// Stride registers: (register, index register, bytes per unit).
    strides: Vec<(String, String, i64)>,
}

impl Walk {
    fn form(&self, operand: &str) -> Option<Form> {
        if let Ok(k) = operand.parse::<i64>() {
            return Some(Form::konst(k));
        }
        if !operand.starts_with("%r") || operand.starts_with("%rd") {
            return None;
        }
        Some(
            self.index
                .get(operand)
                .cloned()
                .unwrap_or_else(|| Form::atom(operand)),
        )
    }

    /// Forgets everything that reads or is held in `reg`.
    fn forget(&mut self, reg: &str) {
        self.index.retain(|r, f| r != reg && !f.mentions(reg));
        self.wide.retain(|r, f| r != reg && !f.mentions(reg));
        self.addresses
            .retain(|(r, b, f)| r != reg && b != reg && !f.mentions(reg));
        self.strides.retain(|(r, i, _)| r != reg && i != reg);
    }

    /// The form of a signed 32-bit integer instruction's result.
    fn index_form(&self, m: &str, args: &[&str]) -> Option<Form> {
        match (m, args) {
            ("add.s32", [a, b]) => Some(self.form(a)?.plus(&self.form(b)?)),
            ("sub.s32", [a, b]) => Some(self.form(a)?.plus(&self.form(b)?.scaled(-1))),
            ("neg.s32", [a]) => Some(self.form(a)?.scaled(-1)),
            ("mul.lo.s32", [a, b]) => self.product(a, b),
            ("mad.lo.s32", [a, b, c]) => Some(self.product(a, b)?.plus(&self.form(c)?)),
            _ => None,
        }
    }

    fn product(&self, a: &str, b: &str) -> Option<Form> {
        match (a.parse::<i64>(), b.parse::<i64>()) {
            (_, Ok(k)) => Some(self.form(a)?.scaled(k)),
            (Ok(k), _) => Some(self.form(b)?.scaled(k)),
            _ => None,
        }
    }
}

/// Whether `line` ends a basic block or starts one.
fn block_edge(line: &str) -> bool {
    !line.starts_with('\t') || line.contains("bra") || line.contains("\tret")
}

/// The registers written exactly once in `lines`, by an instruction in no loop: each is
/// written at most once in a run, so its value never changes once written.
fn kernel_constants(lines: &[String]) -> HashSet<String> {
    let mut defs: HashMap<&str, usize> = HashMap::new();
    for l in lines {
        let d = split_ins(l)
            .map(|(_, d, _)| d)
            .or_else(|| predicated_dest(l));
        if let Some(d) = d {
            *defs.entry(d).or_default() += 1;
        }
    }
    let mut in_loop = vec![false; lines.len()];
    for (b, l) in lines.iter().enumerate() {
        let Some(target) = l.trim_end_matches(';').rsplit(['\t', ' ']).next() else {
            continue;
        };
        if !l.contains("bra") {
            continue;
        }
        let head = format!("{target}:");
        if let Some(top) = lines[..b].iter().position(|x| *x == head) {
            in_loop[top..=b].iter_mut().for_each(|x| *x = true);
        }
    }
    lines
        .iter()
        .zip(&in_loop)
        .filter(|(_, looped)| !**looped)
        .filter_map(|(l, _)| split_ins(l).map(|(_, d, _)| d))
        .filter(|d| defs.get(d) == Some(&1))
        .map(str::to_string)
        .collect()
}

/// `lines` with the address walks of each basic block strength-reduced; `fresh` names a new
/// 64-bit register. The forms of registers written once outside loops, over such registers,
/// hold in every block.
pub fn walk(lines: Vec<String>, fresh: &mut dyn FnMut() -> String) -> Vec<String> {
    let constants = kernel_constants(&lines);
    let fixed =
        |d: &str, f: &Form| constants.contains(d) && f.terms.keys().all(|r| constants.contains(r));
    let mut out = Vec::with_capacity(lines.len());
    let mut w = Walk::default();
    let mut kernel = Walk::default();
    for line in lines {
        if block_edge(&line) {
            w = Walk {
                index: kernel.index.clone(),
                wide: kernel.wide.clone(),
                ..Walk::default()
            };
            out.push(line);
            continue;
        }
        if line.starts_with("\t.") {
            out.push(line);
            continue;
        }
        let Some((m, d, src)) = split_ins(&line) else {
            // A predicated write may or may not happen: what it writes is unknown after it.
            if let Some(d) = predicated_dest(&line) {
                w.forget(d);
            }
            out.push(line);
            continue;
        };
        let args: Vec<&str> = src.split(", ").collect();
        let index = w.index_form(m, &args);
        let wide = match (m, args.as_slice()) {
            ("mul.wide.s32", [a, k]) => k
                .parse::<i64>()
                .ok()
                .and_then(|k| Some(w.form(a)?.scaled(k))),
            _ => None,
        };
        let address = match (m, args.as_slice()) {
            ("add.s64", [a, b]) => match (w.wide.get(*a), w.wide.get(*b)) {
                (None, Some(f)) if a.starts_with("%rd") => Some((a.to_string(), f.clone())),
                (Some(f), None) if b.starts_with("%rd") => Some((b.to_string(), f.clone())),
                _ => None,
            },
            _ => None,
        };
        let d = d.to_string();
        w.forget(&d);
        let mut line = line;
        if let Some((base, form)) = address {
            if let Some(new) = reduce(&mut w, &d, &base, &form, fresh, &mut out) {
                line = new;
            }
            if base != d && !form.mentions(&d) {
                w.addresses.push((d.clone(), base, form));
            }
        }
        if let Some(f) = index.filter(|f| !f.mentions(&d)) {
            if fixed(&d, &f) {
                kernel.index.insert(d.clone(), f.clone());
            }
            w.index.insert(d.clone(), f);
        }
        if let Some(f) = wide.filter(|f| !f.mentions(&d)) {
            if fixed(&d, &f) {
                kernel.wide.insert(d.clone(), f.clone());
            }
            w.wide.insert(d.clone(), f);
        }
        out.push(line);
    }
    out
}

/// The address `d = base + form` from the latest address on `base` it differs from by a
/// constant or one register times a constant (inserting that stride's `mul.wide.s32` into
/// `out` when it is new).
fn reduce(
    w: &mut Walk,
    d: &str,
    base: &str,
    form: &Form,
    fresh: &mut dyn FnMut() -> String,
    out: &mut Vec<String>,
) -> Option<String> {
    for (prev, b, f) in w.addresses.iter().rev() {
        if b != base {
            continue;
        }
        let diff = form.plus(&f.scaled(-1));
        match diff.terms.len() {
            0 if diff.konst == 0 => return Some(format!("\tmov.b64 \t{d}, {prev};")),
            0 => return Some(format!("\tadd.s64 \t{d}, {prev}, {};", diff.konst)),
            1 if diff.konst == 0 => {
                let (reg, per) = diff.terms.iter().next()?;
                let (reg, per, prev) = (reg.clone(), *per, prev.clone());
                let stride = match w.strides.iter().find(|(_, i, k)| *i == reg && *k == per) {
                    Some((s, _, _)) => s.clone(),
                    None => {
                        let s = fresh();
                        out.push(format!("\tmul.wide.s32 \t{s}, {reg}, {per};"));
                        w.strides.push((s.clone(), reg, per));
                        s
                    }
                };
                return Some(format!("\tadd.s64 \t{d}, {prev}, {stride};"));
            }
            _ => {}
        }
    }
    None
}

/// The destination of a predicated instruction (`@%p1 mov.u32 %r1, 0;`).
fn predicated_dest(line: &str) -> Option<&str> {
    let body = line.strip_prefix('\t')?.strip_prefix('@')?;
    let (_, rest) = body.split_once(' ')?;
    let (_, ops) = rest.trim_start().split_once(" \t")?;
    let d = ops.split(',').next()?.trim();
    d.starts_with('%').then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(|l| format!("\t{};", l.trim())).collect()
    }

    #[test]
    fn a_column_walk_adds_the_row_stride() {
        // a[(r + 1) * n + tx] for r = 0, 1: the second address is the first plus 4 * n.
        let body = lines(
            "add.s32 \t%r5, %r1, %r2
             mul.wide.s32 \t%rd3, %r5, 4
             add.s64 \t%rd4, %rd1, %rd3
             mad.lo.s32 \t%r6, %r1, 2, %r2
             mul.wide.s32 \t%rd5, %r6, 4
             add.s64 \t%rd6, %rd1, %rd5",
        );
        let mut n = 9;
        let got = walk(body.clone(), &mut || {
            n += 1;
            format!("%rd{n}")
        });
        assert_eq!(got[5], "\tmul.wide.s32 \t%rd10, %r1, 4;");
        assert_eq!(got[6], "\tadd.s64 \t%rd6, %rd4, %rd10;");
    }

    #[test]
    fn a_constant_step_is_one_add_and_a_redefined_register_breaks_the_walk() {
        let body = lines(
            "mul.wide.s32 \t%rd3, %r2, 4
             add.s64 \t%rd4, %rd1, %rd3
             add.s32 \t%r6, %r2, 3
             mul.wide.s32 \t%rd5, %r6, 4
             add.s64 \t%rd6, %rd1, %rd5
             mov.u32 \t%r2, 7
             add.s32 \t%r7, %r2, 1
             mul.wide.s32 \t%rd7, %r7, 4
             add.s64 \t%rd8, %rd1, %rd7",
        );
        let got = walk(body.clone(), &mut || "%rd99".to_string());
        assert_eq!(got[4], "\tadd.s64 \t%rd6, %rd4, 12;");
        assert_eq!(got[8], body[8]);
    }

    #[test]
    fn unsigned_indices_and_labels_are_left_alone() {
        let body = vec![
            "\tmul.wide.u32 \t%rd3, %r2, 4;".to_string(),
            "\tadd.s64 \t%rd4, %rd1, %rd3;".to_string(),
            "$L__BB0_1:".to_string(),
            "\tmul.wide.s32 \t%rd5, %r2, 4;".to_string(),
            "\tadd.s64 \t%rd6, %rd1, %rd5;".to_string(),
            "\tmul.wide.s32 \t%rd7, %r2, 4;".to_string(),
            "\tadd.s64 \t%rd8, %rd1, %rd7;".to_string(),
        ];
        let got = walk(body.clone(), &mut || "%rd99".to_string());
        assert_eq!(got[..6], body[..6]);
        assert_eq!(got[6], "\tmov.b64 \t%rd8, %rd6;");
    }
}
