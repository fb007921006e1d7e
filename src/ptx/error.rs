//! The one error type of the PTX front end.

use std::fmt;

/// Why a PTX text was rejected, and where: 1-based line and column (column 0 when the error is
/// about a whole construct rather than a character). Every malformed or unsupported input ends
/// here; the front end never panics on user input (issue 3, "Malformed input never panics").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxError {
    /// 1-based line in the PTX text.
    pub line: u32,
    /// 1-based column (in characters), or 0 when not meaningful.
    pub column: u32,
    /// What is wrong, naming the offending text.
    pub message: String,
}

impl PtxError {
    /// An error at `line`:`column`.
    pub fn new(line: u32, column: u32, message: impl Into<String>) -> PtxError {
        PtxError {
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column == 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(
                f,
                "line {}: {} (column {})",
                self.line, self.message, self.column
            )
        }
    }
}

impl std::error::Error for PtxError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_starts_with_the_line() {
        let e = PtxError::new(12, 3, "missing `;`");
        assert_eq!(e.to_string(), "line 12: missing `;` (column 3)");
        assert_eq!(
            PtxError::new(4, 0, "no kernel").to_string(),
            "line 4: no kernel"
        );
    }
}
