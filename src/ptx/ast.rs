//! Syntax tree of a PTX module, as written: names are still strings, labels and symbols are
//! unresolved. The opcode is already decoded ([`Op`]), so an unsupported instruction is a
//! parse error. Function bodies are flat statement lists with explicit scope markers
//! (`{`/`}` blocks as old nvcc emits them), so nothing downstream needs recursion.

use super::lexer::LaunchComment;
use super::ops::Op;
use super::types::{Space, SpecialReg, Type};

/// A parsed PTX module (PTX ISA, "Directives": module directives, then declarations and functions).
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// `.version major.minor`.
    pub version: (u32, u32),
    /// `.target` names (`sm_52`, `texmode_independent`, `map_f64_to_f32`, ...).
    pub target: Vec<String>,
    /// `.address_size` (64 when absent, the ISA's default for 64-bit hosts).
    pub address_size: u32,
    /// `.file index "name"` entries.
    pub files: Vec<FileDecl>,
    /// Module-scope variables, in declaration order.
    pub vars: Vec<VarDecl>,
    /// `.entry` and `.func` definitions and declarations, in order.
    pub functions: Vec<Function>,
    /// `// warpstep:` comment lines.
    pub launch_comments: Vec<LaunchComment>,
}

/// `.file index "path"` (PTX ISA, "Debugging Directives").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDecl {
    /// File index used by `.loc`.
    pub index: u32,
    /// Path as written (`<command-line>` for old nvopencc output).
    pub path: String,
}

/// Linkage directive before a declaration (PTX ISA, "Linking Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Linkage {
    /// None written: visible in this module only.
    #[default]
    Internal,
    /// `.visible`
    Visible,
    /// `.extern`
    Extern,
    /// `.weak`
    Weak,
    /// `.common`
    Common,
}

/// A variable declaration (`.global .align 4 .b8 buf[16] = {...};`), PTX ISA "Variables".
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    /// Name.
    pub name: String,
    /// State space.
    pub space: Space,
    /// Element type.
    pub ty: Type,
    /// Vector lanes per element (`.v2`/`.v4`), 1 if scalar.
    pub lanes: u32,
    /// `.align N`, if written.
    pub align: Option<u32>,
    /// Array dimensions; `None` for `[]` (size from the initialiser, or dynamic for
    /// `.extern .shared`).
    pub dims: Vec<Option<u64>>,
    /// Initial values, flattened in row-major order (nested braces removed).
    pub init: Option<Vec<Literal>>,
    /// Linkage.
    pub linkage: Linkage,
    /// Line of the declaration.
    pub line: u32,
    /// Column of the declaration.
    pub col: u32,
}

/// A register declaration (`.reg .b32 %r<29>;` or `.reg .f32 %a, %b;`), PTX ISA "Register State Space".
#[derive(Debug, Clone, PartialEq)]
pub struct RegDecl {
    /// Register type.
    pub ty: Type,
    /// Declared names.
    pub names: Vec<RegName>,
    /// Line of the declaration.
    pub line: u32,
    /// Column of the declaration.
    pub col: u32,
}

/// One name in a `.reg` declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegName {
    /// The name, or the prefix of a range.
    pub name: String,
    /// `Some(n)` for `%r<n>`: registers `%r0` .. `%r{n-1}`.
    pub range: Option<u32>,
}

/// A literal constant (PTX ISA "Constants").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Literal {
    /// An integer, with sign (range -(2^64-1) ..= 2^64-1).
    Int(i128),
    /// `0fXXXXXXXX`: the bits of an f32.
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX`: the bits of an f64.
    F64Bits(u64),
    /// A decimal floating-point literal (double precision).
    Float(f64),
}

/// Kind of function (PTX ISA, "Specifying Kernel Entry Points and Functions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    /// `.entry`: a kernel.
    Entry,
    /// `.func`: a device function.
    Func,
}

/// A parameter of an entry or function (`.param .u64 p`, `.param .align 8 .b8 s[16]`,
/// `.reg .u32 r` in old `.func` signatures).
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    /// Name.
    pub name: String,
    /// `Space::Param`, or `None` for a `.reg` parameter.
    pub space: Option<Space>,
    /// Element type.
    pub ty: Type,
    /// `.align N`.
    pub align: Option<u32>,
    /// Array length (`[16]`), if any.
    pub array: Option<u64>,
    /// `.ptr{.space}{.align N}` attribute: pointee space, if written.
    pub ptr_space: Option<Space>,
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
}

/// Performance-tuning directives of an entry (PTX ISA, "Performance-Tuning Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PerfDirectives {
    /// `.maxntid x{, y{, z}}`.
    pub maxntid: Option<[u32; 3]>,
    /// `.reqntid x{, y{, z}}`.
    pub reqntid: Option<[u32; 3]>,
    /// `.minnctapersm n`.
    pub minnctapersm: Option<u32>,
    /// `.maxnreg n`.
    pub maxnreg: Option<u32>,
    /// `.maxnctapersm n` (deprecated).
    pub maxnctapersm: Option<u32>,
    /// `.noreturn` on a `.func`.
    pub noreturn: bool,
}

/// An `.entry` or `.func`: a definition when `body` is present, else a declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Entry or func.
    pub kind: FunctionKind,
    /// Linkage.
    pub linkage: Linkage,
    /// Name.
    pub name: String,
    /// Return parameters (`.func` only).
    pub rets: Vec<ParamDecl>,
    /// Parameters.
    pub params: Vec<ParamDecl>,
    /// Performance directives.
    pub perf: PerfDirectives,
    /// Body statements, `None` for a declaration.
    pub body: Option<Vec<Stmt>>,
    /// Line of `.entry`/`.func`.
    pub line: u32,
    /// Line of the closing `}` (or of the declaration).
    pub end_line: u32,
}

/// One statement of a function body.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `{` opening a nested scope.
    Open {
        /// Line.
        line: u32,
    },
    /// `}` closing a nested scope.
    Close {
        /// Line.
        line: u32,
    },
    /// `.reg` declaration.
    Reg(RegDecl),
    /// `.shared`/`.local`/`.param`/`.const`/`.global` declaration in the body.
    Var(VarDecl),
    /// `name:`
    Label {
        /// Label name.
        name: String,
        /// Line.
        line: u32,
        /// Column.
        col: u32,
    },
    /// `.loc file line col`: later instructions come from this CUDA source line.
    Loc(Loc),
    /// `.pragma "...";` (accepted, no effect).
    Pragma {
        /// The strings, without quotes.
        values: Vec<String>,
        /// Line.
        line: u32,
    },
    /// An instruction.
    Instr(Box<Instruction>),
}

/// `.loc file line column` (PTX ISA, "Debugging Directives").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    /// `.file` index.
    pub file: u32,
    /// CUDA source line.
    pub line: u32,
    /// CUDA source column.
    pub col: u32,
}

/// A guard predicate `@p` / `@!p`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    /// Predicate register name.
    pub name: String,
    /// `@!p`.
    pub negate: bool,
}

/// An instruction as written, opcode decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Guard, if any.
    pub guard: Option<Guard>,
    /// The decoded opcode.
    pub op: Op,
    /// The mnemonic with its modifiers as written (`ld.global.f32`).
    pub opcode_text: String,
    /// Operands in PTX order.
    pub operands: Vec<Operand>,
    /// Line of the instruction's first token.
    pub line: u32,
    /// Column of the instruction's first token.
    pub col: u32,
    /// The instruction's text, whitespace runs collapsed, up to and including `;`.
    pub text: String,
}

/// An operand as written (PTX ISA "Instruction Operands").
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A name: register, variable, label or function; with `+n`/`-n` when written `sym+n`.
    Name {
        /// The name.
        name: String,
        /// Byte offset added to a variable's address.
        offset: i64,
    },
    /// A special register (`%tid.x`).
    Special(SpecialReg),
    /// A literal.
    Imm(Literal),
    /// `[base]`, `[base+off]`, `[base+-off]`, `[off]`.
    Addr {
        /// Register or variable name, or `None` for an absolute address.
        base: Option<String>,
        /// Byte offset.
        offset: i64,
    },
    /// `{a, b, ...}`; `None` elements are `_` sinks.
    Vector(Vec<Option<String>>),
    /// `p|q` (second may be the sink `_`, then `None`).
    Pair(String, Option<String>),
    /// `!p`.
    Not(String),
    /// `(a, b, ...)` argument list of `call`.
    List(Vec<Operand>),
    /// `_` alone.
    Sink,
}
