//! Compile errors of the CUDA front end, as a compiler reports them: file, line, column and a
//! message saying what was expected or naming the unsupported feature.

use std::fmt;

/// An error in a `.cu` source; `line` and `col` are 1-based (0 when the place is unknown).
/// Displayed as `file:line:col: message` (the CLI puts `error: ` in front).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for CudaError {}

/// A place in the source, carried by tokens, expressions and statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// An error before the file name is attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Err {
    pub pos: Pos,
    pub message: String,
}

pub type Res<T> = Result<T, Err>;

/// An error at `pos`.
pub fn err<T>(pos: Pos, message: impl Into<String>) -> Res<T> {
    Err(Err {
        pos,
        message: message.into(),
    })
}

impl Err {
    pub fn with_file(self, file: &str) -> CudaError {
        CudaError {
            file: file.to_string(),
            line: self.pos.line,
            col: self.pos.col,
            message: self.message,
        }
    }
}
