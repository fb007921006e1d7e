//! The executable IR of a loaded PTX module: per function, a dense instruction array indexed by
//! [`Pc`] (the instructions themselves, [`Instr`], are `super::instr`'s, re-exported here), a
//! register table indexed by [`RegId`], resolved labels and symbols, memory layouts, and the
//! control-flow analysis (MODEL.md §2-3). Display data (text, source lines) lives beside the
//! instructions in [`Function`].

use std::collections::BTreeMap;

use super::ast::{FunctionKind, Linkage};
use super::barrier_plan::BarrierPlan;
use super::cfg::Cfg;
pub use super::instr::*;
use super::postdom::{PostDominators, Reconvergence};
use super::types::{Space, Type};

/// A kernel or function parameter with its place in the parameter space (PTX ISA "Parameter State Space").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// Name.
    pub name: String,
    /// Element type.
    pub ty: Type,
    /// Size in bytes (element size times array length).
    pub size: u32,
    /// Alignment in bytes (`.align`, else the element size).
    pub align: u32,
    /// Byte offset in the parameter buffer (arguments and return values are laid out
    /// separately).
    pub offset: u32,
    /// Pointee space from `.ptr.space`, if written.
    pub ptr_space: Option<Space>,
    /// For an old-style `.reg` parameter of a `.func`: the register that holds it.
    pub reg: Option<RegId>,
}

/// A variable declared in a function body (`.shared`, `.local`, or a call's `.param`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalVar {
    /// Name.
    pub name: String,
    /// State space.
    pub space: Space,
    /// Element type.
    pub ty: Type,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
    /// Byte offset in its space: shared offset within the CTA's static shared memory,
    /// local offset within the thread's local memory, or offset in the call-parameter area.
    pub offset: u32,
    /// Line of the declaration.
    pub line: u32,
}

/// A module-scope variable (PTX ISA "Variables").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleVar {
    /// Name.
    pub name: String,
    /// State space (`.global`, `.const` or `.shared`).
    pub space: Space,
    /// Element type.
    pub ty: Type,
    /// Size in bytes (0 for dynamic `.extern .shared` arrays).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u32,
    /// Initial bytes, little-endian; shorter than `size` when the rest is zero.
    pub init: Vec<u8>,
    /// Linkage.
    pub linkage: Linkage,
    /// `.extern .shared name[]`: dynamic shared memory, placed after the static shared memory.
    pub dynamic_shared: bool,
    /// Line of the declaration.
    pub line: u32,
}

/// One static shared variable in a function's shared-memory layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedSlot {
    /// The variable (module-scope or declared in the function).
    pub var: VarId,
    /// Name.
    pub name: String,
    /// Byte offset in the CTA's shared memory.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes.
    pub align: u32,
}

/// A function's shared memory (MODEL.md §2): module-scope `.shared` variables the function
/// uses (including through calls), in module order, then its own, each at the next offset
/// aligned to its alignment; then, if it uses dynamic `.extern .shared` arrays, their common
/// base aligned to the largest of their alignments (at least 16 bytes, as CUDA aligns
/// dynamic shared memory).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SharedLayout {
    /// Static variables with their offsets.
    pub slots: Vec<SharedSlot>,
    /// Bytes of static shared memory.
    pub static_bytes: u32,
    /// Dynamic shared arrays used (module variable ids) and their base offset.
    pub dynamic: Option<DynamicShared>,
}

/// Where dynamic (`.extern .shared`) shared memory starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicShared {
    /// Module variables naming the dynamic region (all alias it).
    pub vars: Vec<VarId>,
    /// Byte offset of the region.
    pub base: u32,
}

impl SharedLayout {
    /// Shared-memory offset of a static or dynamic shared variable.
    pub fn offset_of(&self, var: VarId) -> Option<u32> {
        if let Some(s) = self.slots.iter().find(|s| s.var == var) {
            return Some(s.offset);
        }
        self.dynamic
            .as_ref()
            .filter(|d| d.vars.contains(&var))
            .map(|d| d.base)
    }
}

/// `.reqntid` / `.maxntid` / `.minnctapersm` / `.maxnreg` of an entry (PTX ISA, "Performance-Tuning Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaunchBounds {
    /// Required CTA shape.
    pub reqntid: Option<[u32; 3]>,
    /// Maximum CTA shape.
    pub maxntid: Option<[u32; 3]>,
    /// Minimum CTAs per SM.
    pub minnctapersm: Option<u32>,
    /// Maximum registers per thread.
    pub maxnreg: Option<u32>,
}

/// One lowered `.entry` or `.func`.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Name.
    pub name: String,
    /// `.entry` or `.func`.
    pub kind: FunctionKind,
    /// Linkage.
    pub linkage: Linkage,
    /// Whether a body was given (`false` for prototypes such as `.extern .func vprintf`).
    pub defined: bool,
    /// Parameters, laid out in the parameter buffer.
    pub params: Vec<Param>,
    /// Bytes of the parameter buffer.
    pub param_bytes: u32,
    /// Return parameters (`.func`), laid out in their own buffer.
    pub rets: Vec<Param>,
    /// Register table.
    pub regs: Vec<RegInfo>,
    /// Variables declared in the body.
    pub vars: Vec<LocalVar>,
    /// Shared-memory layout.
    pub shared: SharedLayout,
    /// Bytes of per-thread `.local` memory.
    pub local_bytes: u32,
    /// Bytes of the call-parameter area (`.param` variables declared in the body).
    pub call_param_bytes: u32,
    /// Launch bounds.
    pub launch: LaunchBounds,
    /// Instructions, indexed by [`Pc`]. Ends with `exit`/`ret` or an unconditional branch: if
    /// the code could fall off the end, the loader appends an implicit `exit` (entries) or
    /// `ret` (funcs) whose text says so.
    pub instrs: Vec<Instr>,
    /// Display text of each instruction, indexed by [`Pc`].
    pub texts: Vec<String>,
    /// Labels and their targets.
    pub labels: BTreeMap<String, Pc>,
    /// Operand lists of `call` instructions.
    pub call_lists: Vec<Vec<Operand>>,
    /// Basic blocks and edges.
    pub cfg: Cfg,
    /// Post-dominators over `cfg` with the virtual exit.
    pub postdom: PostDominators,
    /// Reconvergence point of every `bra`, indexed by [`Pc`] (`None` for other
    /// instructions).
    pub reconvergence: Vec<Option<Reconvergence>>,
    /// Where independent thread scheduling's ADD/WAIT convergence barriers go
    /// ([`super::convergence_barriers::place_barriers`], book section 3.1.2).
    pub convergence_barriers: BarrierPlan,
    /// Line of the `.entry`/`.func` directive.
    pub line: u32,
}

impl Function {
    /// Whether this is a kernel.
    pub fn is_entry(&self) -> bool {
        self.kind == FunctionKind::Entry
    }

    /// The instruction at `pc`.
    pub fn instr(&self, pc: Pc) -> Option<&Instr> {
        self.instrs.get(pc as usize)
    }

    /// Display text of the instruction at `pc`.
    pub fn text(&self, pc: Pc) -> &str {
        self.texts.get(pc as usize).map_or("", String::as_str)
    }

    /// The register's table entry.
    pub fn reg(&self, r: RegId) -> Option<&RegInfo> {
        self.regs.get(r.index())
    }

    /// Number of registers per declared type (the "register count by class").
    pub fn reg_counts(&self) -> BTreeMap<Type, u32> {
        let mut out = BTreeMap::new();
        for r in &self.regs {
            *out.entry(r.ty).or_insert(0) += 1;
        }
        out
    }

    /// The label of the block each instruction is in, indexed by [`Pc`]: the last label at or
    /// before it in the text (`""` before the first label). The book's Figure 3.2 names its
    /// blocks A to G this way; the views show the name beside a PC (issue 30).
    pub fn block_labels(&self) -> Vec<&str> {
        let mut at: Vec<(Pc, &str)> = self
            .labels
            .iter()
            .map(|(n, &pc)| (pc, n.as_str()))
            .collect();
        at.sort();
        let mut out = vec![""; self.instrs.len()];
        let mut next = at.iter().peekable();
        let mut current = "";
        for (pc, slot) in out.iter_mut().enumerate() {
            while let Some(&&(lpc, name)) = next.peek() {
                if lpc as usize > pc {
                    break;
                }
                current = name;
                next.next();
            }
            *slot = current;
        }
        out
    }

    /// Reconvergence point of the branch at `pc` (`None` if `pc` is not a `bra`).
    pub fn reconvergence_of(&self, pc: Pc) -> Option<Reconvergence> {
        self.reconvergence.get(pc as usize).copied().flatten()
    }

    /// Byte offset of a variable in its own state space, where this function's layout fixes
    /// it: parameters and return parameters (in their buffers), body variables (`.local`,
    /// call `.param`, `.shared`), and module `.shared` variables (in this function's shared
    /// layout, dynamic ones at the dynamic base). `None` for module `.global`/`.const`
    /// variables, which the executor places, and for unknown ids.
    pub fn var_offset(&self, v: VarRef) -> Option<u32> {
        match v.id {
            VarId::Param(i) => self.params.get(usize::from(i)).map(|p| p.offset),
            VarId::Ret(i) => self.rets.get(usize::from(i)).map(|p| p.offset),
            VarId::Local(i) => self.vars.get(usize::from(i)).map(|l| l.offset),
            VarId::Module(_) if v.space == Space::Shared => self.shared.offset_of(v.id),
            VarId::Module(_) => None,
        }
    }

    /// Number of `bra` instructions.
    pub fn branch_count(&self) -> usize {
        self.instrs.iter().filter(|i| i.is_branch()).count()
    }
}

/// A loaded PTX module: module directives, variables, functions, launch comments and the
/// source text (for the listing).
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// `.version`.
    pub version: (u32, u32),
    /// `.target` names.
    pub target: Vec<String>,
    /// `.address_size` (64 when absent).
    pub address_size: u32,
    /// `.file` index to path.
    pub files: BTreeMap<u32, String>,
    /// Module-scope variables.
    pub vars: Vec<ModuleVar>,
    /// Entries and functions (declarations included), in source order; [`FuncId`] indexes
    /// this.
    pub functions: Vec<Function>,
    /// `// warpstep:` comment lines (launch flags), in order.
    pub launch_comments: Vec<super::lexer::LaunchComment>,
    /// The PTX text, one string per line (without line terminators).
    pub lines: Vec<String>,
}

impl Program {
    /// The kernels (`.entry` definitions), in source order.
    pub fn kernels(&self) -> impl Iterator<Item = &Function> {
        self.functions.iter().filter(|f| f.is_entry() && f.defined)
    }

    /// A kernel by name.
    pub fn kernel(&self, name: &str) -> Option<&Function> {
        self.kernels().find(|f| f.name == name)
    }

    /// A function or kernel by id.
    pub fn function(&self, id: FuncId) -> Option<&Function> {
        self.functions.get(usize::from(id))
    }

    /// Text of 1-based source line `line`.
    pub fn source_line(&self, line: u32) -> Option<&str> {
        let i = usize::try_from(line).ok()?.checked_sub(1)?;
        self.lines.get(i).map(String::as_str)
    }
}
