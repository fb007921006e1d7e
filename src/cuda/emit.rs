//! The PTX text of one kernel body as it is built: virtual registers by class, one fresh
//! register per value (PTX ISA §5.3 "Variables": `.reg .b32 %r<N>`), labels, instructions and
//! the `.loc` lines that map them to the `.cu` source (PTX ISA §11.5 "Debugging Directives").

use super::error::Pos;
use super::types::{CType, Space};

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
        } else if self.off > 0 {
            format!("[{b}+{}]", self.off)
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

/// A kernel body under construction.
#[derive(Default)]
pub struct Body {
    pub lines: Vec<String>,
    counts: [u32; 6],
    labels: u32,
    last_loc: Option<Pos>,
    pub kernel_index: usize,
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
    pub fn ins(&mut self, text: String) {
        self.lines.push(format!("\t{text};"));
    }
    pub fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L__BB{}_{}", self.kernel_index, self.labels)
    }
    pub fn place(&mut self, label: &str) {
        self.lines.push(format!("{label}:"));
    }
    /// A `.loc` line for a statement at `pos` (once per place).
    pub fn loc(&mut self, pos: Pos) {
        if self.last_loc != Some(pos) && pos.line > 0 {
            self.lines
                .push(format!("\t.loc\t1 {} {}", pos.line, pos.col));
            self.last_loc = Some(pos);
        }
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
