//! Operand lowering: checks each instruction's operands against its opcode's signature (PTX
//! ISA "Instructions", the syntax block of each instruction) and resolves them to IR [`Operand`]s.
//! The signatures themselves are in [`super::operand_signatures`].
//!
//! Register width rules (PTX ISA "Operand Size Exceeding Instruction-Type Size"): a
//! register must have the width of the operand's type, except that `ld`, `ldu`, `st` and
//! `cvt` accept wider registers for their data operands (the value is truncated on the way in
//! and sign- or zero-extended on the way out, by the type's signedness). Predicates go only
//! where a `.pred` operand is expected. Special registers may be read as integer sources.

use std::collections::BTreeSet;

use super::ast::{self, Literal};
use super::ir::{AddrBase, Address, FuncId, Operand, Operands, Pc, RegId, VarId, VarRef, VecRegs};
use super::literal::immediate_bits;
use super::operand_signatures::{signature, Slot};
use super::ops::Op;
use super::types::{Space, Type};

/// A name as the function body sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sym {
    /// A register and its type.
    Reg(RegId, Type),
    /// A variable.
    Var(VarRef),
}

/// What operand lowering needs to know about names.
pub trait Names {
    /// A register or variable visible here.
    fn lookup(&self, name: &str) -> Option<Sym>;
    /// A label of this function.
    fn label(&self, name: &str) -> Option<Pc>;
    /// A function of the module.
    fn func(&self, name: &str) -> Option<FuncId>;
}

/// Everything lowering records besides the operands.
#[derive(Debug, Default)]
pub struct Uses {
    /// Module variables referenced.
    pub module_vars: BTreeSet<u16>,
    /// Functions called.
    pub callees: BTreeSet<FuncId>,
    /// Labels used by branches.
    pub branch_targets: BTreeSet<Pc>,
    /// `call` operand lists.
    pub call_lists: Vec<Vec<Operand>>,
}

/// Lower the operands of one instruction.
pub fn lower_operands(
    ins: &ast::Instruction,
    names: &dyn Names,
    uses: &mut Uses,
) -> Result<Operands, String> {
    if let Op::Call { .. } = ins.op {
        return lower_call(ins, names, uses);
    }
    let slots = signature(&ins.op, ins.operands.len())?;
    if slots.len() != ins.operands.len() {
        return Err(format!(
            "`{}` takes {} operand{}, found {}",
            ins.opcode_text,
            slots.len(),
            if slots.len() == 1 { "" } else { "s" },
            ins.operands.len()
        ));
    }
    let relaxed = matches!(
        ins.op,
        Op::Ld { .. } | Op::Ldu { .. } | Op::St { .. } | Op::Cvt { .. }
    );
    let mut out = Vec::with_capacity(slots.len());
    let mut lower = Lowering {
        names,
        uses,
        relaxed,
    };
    for (i, (slot, ast_op)) in slots.iter().zip(&ins.operands).enumerate() {
        let op = lower
            .operand(*slot, ast_op)
            .map_err(|m| format!("operand {}: {m}", i + 1))?;
        out.push(op);
    }
    Operands::new(&out).ok_or_else(|| "too many operands".to_string())
}

struct Lowering<'a> {
    names: &'a dyn Names,
    uses: &'a mut Uses,
    relaxed: bool,
}

impl Lowering<'_> {
    fn operand(&mut self, slot: Slot, op: &ast::Operand) -> Result<Operand, String> {
        match slot {
            Slot::Dst(ty) => self.reg_operand(op, ty, false).map(Operand::Reg),
            Slot::DstData(ty, lanes) => self.data(op, ty, lanes, true),
            Slot::DstPair(ty) => self.dst_pair(op, ty),
            Slot::Src(ty) => self.source(op, ty, false),
            Slot::SrcWide(ty) => self.source(op, ty, true),
            Slot::SrcData(ty, lanes) => self.data(op, ty, lanes, false),
            Slot::Pred => self.pred_source(op),
            Slot::MovDst(ty) => self.mov_dst(op, ty),
            Slot::MovSrc(ty) => self.mov_src(op, ty),
            Slot::AddrOf(ty) => self.addr_of(op, ty),
            Slot::Mem(space) => self.memory(op, space),
            Slot::Label => self.label(op),
        }
    }

    /// A register named `name`, of a width compatible with `ty`.
    fn reg(&self, name: &str, ty: Type, wider_ok: bool) -> Result<RegId, String> {
        match self.names.lookup(name) {
            Some(Sym::Reg(r, rty)) => {
                check_width(name, rty, ty, wider_ok)?;
                Ok(r)
            }
            Some(Sym::Var(_)) => Err(format!("`{name}` is a variable, not a register")),
            None => Err(unknown(name)),
        }
    }

    fn reg_operand(&self, op: &ast::Operand, ty: Type, wider_ok: bool) -> Result<RegId, String> {
        match op {
            ast::Operand::Name { name, offset: 0 } => self.reg(name, ty, wider_ok),
            _ => Err(format!(
                "expected a `{ty}` register, found {}",
                describe(op)
            )),
        }
    }

    fn data(
        &mut self,
        op: &ast::Operand,
        ty: Type,
        lanes: usize,
        dst: bool,
    ) -> Result<Operand, String> {
        let wider = self.relaxed;
        if lanes == 1 {
            return if dst {
                self.reg_operand(op, ty, wider).map(Operand::Reg)
            } else {
                self.source(op, ty, wider)
            };
        }
        let ast::Operand::Vector(elems) = op else {
            return Err(format!(
                "expected a vector of {lanes} registers, found {}",
                describe(op)
            ));
        };
        if elems.len() != lanes {
            return Err(format!(
                "expected {lanes} registers in the vector, found {}",
                elems.len()
            ));
        }
        self.vector(elems, ty, dst, wider)
    }

    fn vector(
        &self,
        elems: &[Option<String>],
        ty: Type,
        sinks_ok: bool,
        wider: bool,
    ) -> Result<Operand, String> {
        let mut regs = Vec::with_capacity(elems.len());
        for e in elems {
            match e {
                Some(name) => regs.push(self.reg(name, ty, wider)?),
                None if sinks_ok => regs.push(RegId::SINK),
                None => return Err("`_` is only allowed in destinations".into()),
            }
        }
        VecRegs::new(&regs)
            .map(Operand::Vector)
            .ok_or_else(|| "vectors hold 1 to 4 registers".to_string())
    }

    fn dst_pair(&self, op: &ast::Operand, ty: Type) -> Result<Operand, String> {
        match op {
            ast::Operand::Pair(p, q) => {
                let p = self.reg(p, ty, false)?;
                let q = match q {
                    Some(q) => self.reg(q, Type::Pred, false)?,
                    None => RegId::SINK,
                };
                Ok(Operand::PredPair(p, q))
            }
            _ => self.reg_operand(op, ty, false).map(Operand::Reg),
        }
    }

    fn source(&mut self, op: &ast::Operand, ty: Type, wider: bool) -> Result<Operand, String> {
        match op {
            ast::Operand::Name { name, offset: 0 } => self.reg(name, ty, wider).map(Operand::Reg),
            ast::Operand::Imm(lit) => imm(*lit, ty),
            ast::Operand::Special(s) if !ty.is_float() && !ty.is_pred() => Ok(Operand::Special(*s)),
            ast::Operand::Special(s) => {
                Err(format!("special register `{s}` is not a `{ty}` value"))
            }
            _ => Err(format!("expected a `{ty}` source, found {}", describe(op))),
        }
    }

    fn pred_source(&self, op: &ast::Operand) -> Result<Operand, String> {
        match op {
            ast::Operand::Name { name, offset: 0 } => {
                self.reg(name, Type::Pred, false).map(Operand::Reg)
            }
            ast::Operand::Not(name) => self.reg(name, Type::Pred, false).map(Operand::NotPred),
            ast::Operand::Imm(lit) => predicate_constant(*lit),
            _ => Err(format!("expected a predicate, found {}", describe(op))),
        }
    }

    fn mov_dst(&self, op: &ast::Operand, ty: Type) -> Result<Operand, String> {
        match op {
            ast::Operand::Vector(elems) => {
                let ety = split_type(ty, elems.len())?;
                self.vector(elems, ety, true, false)
            }
            _ => self.reg_operand(op, ty, false).map(Operand::Reg),
        }
    }

    fn mov_src(&mut self, op: &ast::Operand, ty: Type) -> Result<Operand, String> {
        match op {
            ast::Operand::Vector(elems) => {
                let ety = split_type(ty, elems.len())?;
                self.vector(elems, ety, false, false)
            }
            ast::Operand::Name { name, offset } => match self.names.lookup(name) {
                Some(Sym::Var(v)) => self.var_value(v, *offset, ty),
                _ if *offset != 0 => {
                    Err(format!("`{name}+{offset}`: only variables take an offset"))
                }
                _ => self.reg(name, ty, false).map(Operand::Reg),
            },
            _ => self.source(op, ty, false),
        }
    }

    fn addr_of(&mut self, op: &ast::Operand, ty: Type) -> Result<Operand, String> {
        match op {
            ast::Operand::Name { name, offset } => match self.names.lookup(name) {
                Some(Sym::Var(v)) => self.var_value(v, *offset, ty),
                _ => self.reg_operand(op, ty, false).map(Operand::Reg),
            },
            _ => Err(format!(
                "expected an address register or a variable, found {}",
                describe(op)
            )),
        }
    }

    /// A variable used as a value (its address).
    fn var_value(&mut self, v: VarRef, offset: i64, ty: Type) -> Result<Operand, String> {
        if ty.is_float() || ty.is_pred() || ty.bits() < 32 {
            return Err(format!("a variable's address is not a `{ty}` value"));
        }
        self.note_var(v);
        Ok(Operand::VarAddr(v, offset32(offset)?))
    }

    fn note_var(&mut self, v: VarRef) {
        if let VarId::Module(i) = v.id {
            self.uses.module_vars.insert(i);
        }
    }

    fn memory(&mut self, op: &ast::Operand, space: Space) -> Result<Operand, String> {
        let ast::Operand::Addr { base, offset } = op else {
            return Err(format!(
                "expected a memory operand `[...]`, found {}",
                describe(op)
            ));
        };
        let offset = offset32(*offset)?;
        let Some(name) = base else {
            return Ok(Operand::Addr(Address {
                base: AddrBase::Absolute,
                offset,
            }));
        };
        let base = match self.names.lookup(name) {
            Some(Sym::Reg(r, rty)) => {
                if rty.is_pred() || rty.is_float() || rty.bits() < 32 {
                    return Err(format!("`{name}` (`{rty}`) cannot hold an address"));
                }
                AddrBase::Reg(r)
            }
            Some(Sym::Var(v)) => {
                if space != Space::Generic && v.space != space {
                    return Err(format!("`{name}` is in `{}`, not `{space}`", v.space));
                }
                self.note_var(v);
                AddrBase::Var(v)
            }
            None => return Err(unknown(name)),
        };
        Ok(Operand::Addr(Address { base, offset }))
    }

    fn label(&mut self, op: &ast::Operand) -> Result<Operand, String> {
        let ast::Operand::Name { name, offset: 0 } = op else {
            return Err(format!("expected a label, found {}", describe(op)));
        };
        match self.names.label(name) {
            Some(pc) => {
                self.uses.branch_targets.insert(pc);
                Ok(Operand::Label(pc))
            }
            None => Err(format!("undefined label `{name}`")),
        }
    }
}

/// `call (rets), func, (args){, proto}` or `call func, (args)` or `call func`.
fn lower_call(
    ins: &ast::Instruction,
    names: &dyn Names,
    uses: &mut Uses,
) -> Result<Operands, String> {
    let mut out = Vec::new();
    let mut seen_func = false;
    for op in &ins.operands {
        match op {
            ast::Operand::List(items) => {
                let list = items
                    .iter()
                    .map(|item| call_arg(item, names, uses))
                    .collect::<Result<Vec<_>, _>>()?;
                let id = u16::try_from(uses.call_lists.len())
                    .map_err(|_| "too many calls".to_string())?;
                uses.call_lists.push(list);
                out.push(Operand::CallList(id));
            }
            ast::Operand::Name { name, offset: 0 } if !seen_func => {
                let f = names
                    .func(name)
                    .ok_or_else(|| format!("call to unknown function `{name}`"))?;
                uses.callees.insert(f);
                seen_func = true;
                out.push(Operand::Func(f));
            }
            // A trailing prototype label (indirect calls) is accepted and dropped.
            ast::Operand::Name { .. } if seen_func => {}
            _ => return Err(format!("unexpected call operand {}", describe(op))),
        }
    }
    if !seen_func {
        return Err("`call` needs a function name".into());
    }
    Operands::new(&out).ok_or_else(|| "too many call operands".to_string())
}

fn call_arg(item: &ast::Operand, names: &dyn Names, uses: &mut Uses) -> Result<Operand, String> {
    match item {
        ast::Operand::Name { name, offset } => match names.lookup(name) {
            Some(Sym::Reg(r, _)) if *offset == 0 => Ok(Operand::Reg(r)),
            Some(Sym::Var(v)) => {
                if let VarId::Module(i) = v.id {
                    uses.module_vars.insert(i);
                }
                Ok(Operand::VarAddr(v, offset32(*offset)?))
            }
            _ => Err(unknown(name)),
        },
        ast::Operand::Imm(Literal::Int(v)) => Ok(Operand::Imm(*v as u64)),
        ast::Operand::Imm(Literal::F32Bits(b)) => Ok(Operand::Imm(u64::from(*b))),
        ast::Operand::Imm(Literal::F64Bits(b)) => Ok(Operand::Imm(*b)),
        ast::Operand::Imm(Literal::Float(f)) => Ok(Operand::Imm(f.to_bits())),
        _ => Err(format!("unexpected call argument {}", describe(item))),
    }
}

fn imm(lit: Literal, ty: Type) -> Result<Operand, String> {
    if ty.is_pred() {
        return predicate_constant(lit);
    }
    immediate_bits(lit, ty).map(Operand::Imm)
}

/// An integer constant where a predicate is expected (PTX ISA, "Predicate Constants": integer
/// constants may be used as predicates in initializers and instruction operands, zero false and
/// non-zero true, as in C), e.g. `mov.pred %p6, 0;` that nvcc emits. A float is not a predicate.
fn predicate_constant(lit: Literal) -> Result<Operand, String> {
    match lit {
        Literal::Int(v) => Ok(Operand::Imm(u64::from(v != 0))),
        _ => Err("a predicate constant must be an integer (0 is false, any other true)".into()),
    }
}

/// Element type of a `mov` pack/unpack: `.b64` into 2 x `.b32` or 4 x `.b16`, `.b32` into
/// 2 x `.b16` or 4 x `.b8`.
fn split_type(ty: Type, lanes: usize) -> Result<Type, String> {
    let bits = match lanes {
        2 | 4 => ty.bits() / lanes as u32,
        _ => 0,
    };
    match Type::bits_of_width(bits) {
        Some(t) if !ty.is_pred() && !ty.is_float() || ty.is_float() && bits >= 16 => Ok(t),
        _ => Err(format!("cannot split `{ty}` into {lanes} parts")),
    }
}

fn check_width(name: &str, reg: Type, want: Type, wider_ok: bool) -> Result<(), String> {
    if reg.is_pred() != want.is_pred() {
        return Err(if want.is_pred() {
            format!("`{name}` is `{reg}`, not a predicate")
        } else {
            format!("predicate `{name}` used as a `{want}` value")
        });
    }
    let ok = reg.bits() == want.bits() || (wider_ok && reg.bits() > want.bits());
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is a {}-bit `{reg}` register; this operand is `{want}`",
            reg.bits()
        ))
    }
}

fn offset32(offset: i64) -> Result<i32, String> {
    i32::try_from(offset).map_err(|_| format!("offset {offset} does not fit in 32 bits"))
}

fn unknown(name: &str) -> String {
    if name.starts_with('%') {
        format!("unknown register `{name}`")
    } else {
        format!("unknown register or variable `{name}`")
    }
}

fn describe(op: &ast::Operand) -> String {
    match op {
        ast::Operand::Name { name, offset: 0 } => format!("`{name}`"),
        ast::Operand::Name { name, offset } => format!("`{name}{offset:+}`"),
        ast::Operand::Special(s) => format!("`{s}`"),
        ast::Operand::Imm(_) => "a literal".into(),
        ast::Operand::Addr { .. } => "a memory operand".into(),
        ast::Operand::Vector(_) => "a vector".into(),
        ast::Operand::Pair(p, _) => format!("a predicate pair `{p}|...`"),
        ast::Operand::Not(p) => format!("`!{p}`"),
        ast::Operand::List(_) => "an argument list".into(),
        ast::Operand::Sink => "`_`".into(),
    }
}
