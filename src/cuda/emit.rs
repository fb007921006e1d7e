//! The PTX text of one kernel body as it is built: virtual registers by class, one fresh
//! register per value (PTX ISA §5.3 "Variables": `.reg .b32 %r<N>`), labels, instructions and
//! the `.loc` lines that map them to the `.cu` source (PTX ISA §11.5 "Debugging Directives").

use super::error::Pos;
use super::types::{CType, Space};
use std::collections::{HashMap, HashSet};

/// An operand: a register or an immediate.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Reg(String),
    /// Integer bits (sign-extended to 64 for signed types).
    I(i64),
    F(f64),
}

/// A value of a C type.
#[derive(Debug, Clone, PartialEq)]
pub struct Val {
    pub op: Op,
    pub ty: CType,
}

impl Val {
    pub fn reg(r: String, ty: CType) -> Val {
        Val { op: Op::Reg(r), ty }
    }
    pub fn int(v: i64, ty: CType) -> Val {
        Val { op: Op::I(v), ty }
    }
    pub fn konst_int(&self) -> Option<i64> {
        match self.op {
            Op::I(v) => Some(v),
            _ => None,
        }
    }
    pub fn is_const(&self) -> bool {
        !matches!(self.op, Op::Reg(_))
    }
    /// The operand as PTX text.
    pub fn text(&self) -> String {
        match &self.op {
            Op::Reg(r) => r.clone(),
            Op::I(v) => v.to_string(),
            Op::F(f) => float_text(*f, &self.ty),
        }
    }
}

/// A float immediate: `0f3F800000` for `.f32`, `0d3FF0000000000000` for `.f64`.
pub fn float_text(f: f64, ty: &CType) -> String {
    if *ty == CType::F64 {
        format!("0d{:016X}", f.to_bits())
    } else {
        format!("0f{:08X}", (f as f32).to_bits())
    }
}

/// The base of an address: a register, a variable's symbol, or none (an absolute address).
#[derive(Debug, Clone, PartialEq)]
pub enum Base {
    Reg(String),
    Sym(String),
}

/// `[base+off]` in a state space.
#[derive(Debug, Clone, PartialEq)]
pub struct Addr {
    pub base: Base,
    pub off: i64,
    pub space: Space,
}

impl Addr {
    pub fn text(&self) -> String {
        let b = match &self.base {
            Base::Reg(r) | Base::Sym(r) => r,
        };
        if self.off == 0 {
            format!("[{b}]")
        } else {
            format!("[{b}+{}]", self.off)
        }
    }
}

const CLASSES: [(&str, &str); 6] = [
    ("p", ".pred"),
    ("rs", ".b16"),
    ("r", ".b32"),
    ("rd", ".b64"),
    ("f", ".f32"),
    ("fd", ".f64"),
];

/// A kernel body under construction. Pure instructions are value-numbered within a block
/// (a repeated `mul.wide.s32 %rd9, %r5, 4` is not emitted: `%rd9` becomes an alias of the
/// first result), as nvcc's common-subexpression elimination does.
#[derive(Default)]
pub struct Body {
    pub lines: Vec<String>,
    counts: [u32; 6],
    labels: u32,
    last_loc: Option<Pos>,
    pub kernel_index: usize,
    /// (instruction without its destination, the register holding its result).
    cache: Vec<(String, String)>,
    alias: HashMap<String, String>,
    defined: HashSet<String>,
    /// Registers redefined, in order (for [`Body::restore`]).
    redefs: Vec<String>,
    /// Labels placed so far.
    pub places: usize,
    /// Variables' registers known to hold an integer constant here (constant propagation:
    /// `cur = 1 - cur` in an unrolled loop folds, as nvcc folds it).
    known: HashMap<String, i64>,
    /// Registers of variables, which assignments may write again later.
    pub mutable: HashSet<String>,
}

/// An instruction rewritten by [`Body::fold_constant_chain`]: a new text, or a destination
/// that names an existing register.
enum Chain {
    Ins(String),
    Alias(String, String),
}

/// The value numbering at a point, to restore at a join that this point dominates.
pub struct Snapshot {
    cache: Vec<(String, String)>,
    known: HashMap<String, i64>,
    redefs: usize,
}

pub(crate) const PURE: [&str; 20] = [
    "add", "sub", "mul", "mad", "fma", "div", "rem", "shl", "shr", "and", "or", "xor", "not",
    "neg", "abs", "min", "max", "cvt", "setp", "selp",
];

/// An unpredicated instruction line as (mnemonic, destination register, sources).
pub(crate) fn split_ins(line: &str) -> Option<(&str, &str, &str)> {
    let body = line.strip_prefix('\t')?.strip_suffix(';')?;
    if body.starts_with('@') || body.starts_with('.') {
        return None;
    }
    let (m, rest) = body.split_once(" \t")?;
    let (d, src) = rest.split_once(", ")?;
    if !d.starts_with('%') || m.starts_with("st") {
        return None;
    }
    Some((m, d, src))
}

/// The registers named in `text`.
pub(crate) fn regs_in(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '%'))
        .filter(|t| {
            t.starts_with('%')
                && t.len() > 1
                && t[1..].starts_with(|c: char| c.is_ascii_lowercase())
                && !t.contains('.')
        })
}

/// Whether `reg` occurs in `text` as a whole register name.
fn mentions(text: &str, reg: &str) -> bool {
    text.match_indices(reg).any(|(i, _)| {
        !text[i + reg.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

impl Body {
    pub fn new(kernel_index: usize) -> Body {
        Body {
            kernel_index,
            ..Body::default()
        }
    }
    pub fn reg(&mut self, class: &str) -> String {
        let k = CLASSES.iter().position(|(c, _)| *c == class).unwrap_or(2);
        self.counts[k] += 1;
        format!("%{}{}", CLASSES[k].0, self.counts[k])
    }
    /// A fresh register for a value of `ty`.
    pub fn reg_for(&mut self, ty: &CType) -> String {
        self.reg(ty.reg_class())
    }
    /// Appends an instruction `mnemonic \tdest, sources` (registers renamed through aliases).
    pub fn ins(&mut self, text: String) {
        let text = self.resolve(&text);
        let text = match self.fold_constant_chain(&text) {
            Some(Chain::Alias(dest, src)) => {
                self.alias.insert(dest, src);
                return;
            }
            Some(Chain::Ins(t)) => t,
            None => text,
        };
        if let Some((mnemonic, rest)) = text.split_once(" \t") {
            if let Some((dest, sources)) = rest.split_once(", ") {
                if dest.starts_with('%') && !mnemonic.starts_with("st") {
                    let dest = dest.to_string();
                    if self.defined.contains(&dest) {
                        self.clobber(&dest);
                    } else {
                        let head = mnemonic.split('.').next().unwrap_or("");
                        let special = head == "mov"
                            && !sources.starts_with('%')
                            && !sources.starts_with(|c: char| c.is_ascii_digit() || c == '-')
                            || sources.starts_with("%tid")
                            || sources.starts_with("%ntid")
                            || sources.starts_with("%ctaid")
                            || sources.starts_with("%nctaid");
                        let special = head == "mov" && special && !mnemonic.contains("pred");
                        if PURE.contains(&head) && !mnemonic.contains(".pred") || special {
                            let key = format!("{mnemonic} {sources}");
                            let found = self
                                .cache
                                .iter()
                                .find(|(k, r)| *k == key && !self.mutable.contains(r));
                            if let Some((_, r)) = found {
                                self.alias.insert(dest, r.clone());
                                return;
                            }
                            self.cache.push((key, dest.clone()));
                        }
                        self.defined.insert(dest);
                    }
                }
            }
        }
        self.lines.push(format!("\t{text};"));
    }

    /// `add`/`sub` of a constant to a register that is itself a constant plus or minus a
    /// register, as one instruction on that register: `(1 - tx) + 1` is `2 - tx`, `(r + 1) - 1`
    /// is `r` (integers only: modular arithmetic regroups exactly).
    fn fold_constant_chain(&self, text: &str) -> Option<Chain> {
        let (m, rest) = text.split_once(" \t")?;
        let (d, src) = rest.split_once(", ")?;
        let (x, c) = src.split_once(", ")?;
        if self.mutable.contains(d) {
            return None;
        }
        let ty = m.strip_prefix("add.").or_else(|| m.strip_prefix("sub."))?;
        if !["s32", "u32", "s64", "u64"].contains(&ty) || !x.starts_with('%') {
            return None;
        }
        let c: i64 = c.parse().ok()?;
        let c = if m.starts_with("sub") {
            c.wrapping_neg()
        } else {
            c
        };
        let (key, _) = self.cache.iter().find(|(_, r)| r == x)?;
        let (dm, dsrc) = key.split_once(' ')?;
        let (a, b) = dsrc.split_once(", ").unwrap_or((dsrc, ""));
        let wrap = |v: i64| match ty {
            "s32" => v as i32 as i64,
            "u32" => v as u32 as i64,
            _ => v,
        };
        // x = y + k, x = y - k, x = k - y, x = -y.
        let (y, k, y_negated) = if dm == format!("add.{ty}") && a.starts_with('%') {
            (a, b.parse::<i64>().ok()?, false)
        } else if dm == format!("sub.{ty}") && a.starts_with('%') {
            (a, b.parse::<i64>().ok()?.wrapping_neg(), false)
        } else if dm == format!("sub.{ty}") && b.starts_with('%') {
            (b, a.parse::<i64>().ok()?, true)
        } else if dm.starts_with("neg.") && dm.ends_with(&ty[1..]) && b.is_empty() {
            (dsrc, 0, true)
        } else {
            return None;
        };
        let total = wrap(k.wrapping_add(c));
        Some(match (y_negated, total) {
            (false, 0) if !self.mutable.contains(y) => Chain::Alias(d.to_string(), y.to_string()),
            (false, 0) => return None,
            (false, t) => Chain::Ins(format!("add.{ty} \t{d}, {y}, {t}")),
            (true, 0) => Chain::Ins(format!("neg.{} \t{d}, {y}", ty.replace('u', "s"))),
            (true, t) => Chain::Ins(format!("sub.{ty} \t{d}, {t}, {y}")),
        })
    }

    /// `text` with aliased registers replaced.
    fn resolve(&self, text: &str) -> String {
        if self.alias.is_empty() || !text.contains('%') {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find('%') {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            let end = tail[1..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .map_or(tail.len(), |e| e + 1);
            let name = &tail[..end];
            out.push_str(self.alias.get(name).map_or(name, |s| s.as_str()));
            rest = &tail[end..];
        }
        out.push_str(rest);
        out
    }

    /// The register `reg` names after aliasing.
    pub fn canonical(&self, reg: &str) -> String {
        self.alias
            .get(reg)
            .cloned()
            .unwrap_or_else(|| reg.to_string())
    }

    /// Forgets the cached results that read or are held in `reg` (it is being redefined).
    pub fn clobber(&mut self, reg: &str) {
        self.cache.retain(|(k, r)| r != reg && !mentions(k, reg));
        self.known.remove(reg);
        self.redefs.push(reg.to_string());
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            cache: self.cache.clone(),
            known: self.known.clone(),
            redefs: self.redefs.len(),
        }
    }

    /// After a label that `snap`'s point dominates: its results, less those whose registers
    /// were redefined since and those that read a register in `unstable` (variables a loop
    /// may change).
    pub fn restore(&mut self, snap: &Snapshot, unstable: &HashSet<String>) {
        let red = &self.redefs[snap.redefs.min(self.redefs.len())..];
        let mut c = snap.cache.clone();
        c.retain(|(k, r)| {
            !red.iter()
                .chain(unstable.iter())
                .any(|x| x == r || mentions(k, x))
        });
        self.cache = c;
        let mut known = snap.known.clone();
        known.retain(|r, _| !red.iter().chain(unstable.iter()).any(|x| x == r));
        self.known = known;
    }

    /// Records that the variable register `reg` now holds the integer `value`.
    pub fn set_known(&mut self, reg: &str, value: i64) {
        self.known.insert(reg.to_string(), value);
    }

    /// The integer the variable register `reg` is known to hold here.
    pub fn known(&self, reg: &str) -> Option<i64> {
        self.known.get(reg).copied()
    }

    /// Marks `reg` as written (a variable's register).
    pub fn redefine(&mut self, reg: &str) {
        self.clobber(reg);
        self.defined.insert(reg.to_string());
    }

    /// Renames the destination of the last instruction from `tmp` to `var` when that
    /// instruction defines `tmp` (so `x = x + 1` is one `add`); false otherwise.
    pub fn retarget_last(&mut self, tmp: &str, var: &str) -> bool {
        if self.alias.contains_key(tmp) {
            return false;
        }
        let tmp = tmp.to_string();
        let prefix = format!(" \t{tmp}, ");
        let Some(last) = self.lines.last() else {
            return false;
        };
        if !last.starts_with('\t')
            || last.starts_with("\t.")
            || last.find(" \t") != last.find(&prefix)
            || last.find(&prefix).is_none()
        {
            return false;
        }
        let new = last.replacen(&prefix, &format!(" \t{var}, "), 1);
        // Sources that read `var` itself see its old value: fine, PTX reads before writing.
        self.lines.pop();
        self.lines.push(new);
        let key = self
            .cache
            .iter()
            .find(|(_, r)| *r == tmp)
            .map(|(k, _)| k.clone());
        self.clobber(&tmp);
        self.redefine(var);
        // The variable holds that value until it is written again (not offered to common-
        // subexpression elimination, see `ins`; read by `fold_constant_chain`).
        if let Some(key) = key.filter(|k| !mentions(k, var)) {
            self.cache.push((key, var.to_string()));
        }
        true
    }
    pub fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L__BB{}_{}", self.kernel_index, self.labels)
    }
    pub fn place(&mut self, label: &str) {
        self.places += 1;
        self.lines.push(format!("{label}:"));
        self.cache.clear();
        self.known.clear();
    }
    /// A `.loc` line for a statement at `pos` (once per place).
    pub fn loc(&mut self, pos: Pos) {
        if self.last_loc != Some(pos) && pos.line > 0 {
            self.lines
                .push(format!("\t.loc\t1 {} {}", pos.line, pos.col));
            self.last_loc = Some(pos);
        }
    }
    /// Loop-invariant code motion over the loop whose lines start at `start` (its header
    /// label): pure instructions whose sources are not written in the loop move before it.
    pub fn hoist(&mut self, start: usize, mutable: &HashSet<String>) {
        if start >= self.lines.len() {
            return;
        }
        let region: Vec<String> = self.lines.split_off(start);
        let mut defs: HashMap<String, usize> = HashMap::new();
        for l in &region {
            if let Some((_, d, _)) = split_ins(l) {
                *defs.entry(d.to_string()).or_default() += 1;
            }
        }
        let mut hoisted_regs: HashSet<String> = HashSet::new();
        let mut kept = Vec::with_capacity(region.len());
        for l in region {
            let movable = match split_ins(&l) {
                Some((m, d, src)) => {
                    let head = m.split('.').next().unwrap_or("");
                    let special_mov = head == "mov"
                        && !m.contains("pred")
                        && (["%tid", "%ntid", "%ctaid", "%nctaid"]
                            .iter()
                            .any(|s| src.starts_with(s))
                            || !src
                                .starts_with(|c: char| c == '%' || c == '-' || c.is_ascii_digit()));
                    (PURE.contains(&head) && !m.contains(".pred") || special_mov)
                        && defs.get(d) == Some(&1)
                        && !mutable.contains(d)
                        && regs_in(src).all(|r| !defs.contains_key(r) || hoisted_regs.contains(r))
                }
                None => false,
            };
            if movable {
                if let Some((_, d, _)) = split_ins(&l) {
                    hoisted_regs.insert(d.to_string());
                }
                self.lines.push(l);
            } else {
                kept.push(l);
            }
        }
        self.lines.extend(kept);
    }

    /// The `.reg` declarations.
    pub fn decls(&self) -> String {
        let mut s = String::new();
        for (k, (class, ty)) in CLASSES.iter().enumerate() {
            if self.counts[k] > 0 {
                s.push_str(&format!(
                    "\t.reg {ty} \t%{class}<{}>;\n",
                    self.counts[k] + 1
                ));
            }
        }
        s
    }
}
