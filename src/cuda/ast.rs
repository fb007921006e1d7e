//! The syntax tree of the device code (C++ [expr], [stmt], [dcl]; CUDA C++ Programming Guide
//! "Function Execution Space Specifiers" and "Variable Memory Space Specifiers").

use super::error::Pos;

/// A scalar type as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Void,
    Bool,
    /// An integer of `bits` bits, signed or not (`char` is signed, `long` is 64 bits).
    Int(u8, bool),
    Float,
    Double,
}

/// A type as written (array sizes are expressions: they may name template parameters).
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Scalar(Scalar, Quals),
    Ptr(Box<Ty>, Quals),
    Array(Box<Ty>, Option<Box<Expr>>),
    Struct(String, Quals),
}

/// `const`, `volatile`, `__restrict__`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quals {
    pub konst: bool,
    pub volatile: bool,
    pub restrict: bool,
}

impl Ty {
    pub fn quals(&self) -> Quals {
        match self {
            Ty::Scalar(_, q) | Ty::Ptr(_, q) | Ty::Struct(_, q) => *q,
            Ty::Array(e, _) => e.quals(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Value and type (as the literal's suffix and size give it).
    Int(u64, Scalar),
    Float(f64, bool),
    Ident(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` (None) or `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A call: function name, template arguments, arguments.
    Call(String, Vec<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, String, bool),
    Cast(Ty, Box<Expr>),
    SizeofTy(Ty),
    Comma(Box<Expr>, Box<Expr>),
    /// `{a, b, ...}` (initialisers of arrays).
    List(Vec<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

/// Where a variable lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    Auto,
    Shared,
    ExternShared,
    Constant,
    Device,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub ty: Ty,
    pub storage: Storage,
    pub init: Option<Expr>,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// init, condition, step, body.
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Vec<Stmt>),
    Switch(Expr, Box<Stmt>),
    Case(Expr),
    Default,
    Empty,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub name: String,
    pub global: bool,
    pub extern_c: bool,
    /// Integer template parameters (name, type).
    pub template: Option<Vec<(String, Scalar)>>,
    pub ret: Ty,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub pos: Pos,
}

/// The device code of a translation unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unit {
    pub functions: Vec<Function>,
    pub globals: Vec<VarDecl>,
    /// `template __global__ void k<1>(...)`: (name, template arguments).
    pub instantiations: Vec<(String, Vec<Expr>, Pos)>,
    /// Structs: name, fields.
    pub structs: Vec<(String, Vec<(String, Ty)>)>,
    pub notes: Vec<String>,
    /// `#pragma unroll N`: the position of the loop it precedes and N (1: not unrolled).
    pub unroll_hints: Vec<(Pos, u32)>,
}
