//! A CUDA C compiler for the device code of a `.cu` file (issue 29): preprocessor, lexer,
//! parser, types and lowering to PTX text with `.loc` lines, which then goes through the PTX
//! loader like nvcc's PTX ([`crate::ptx::load`]). The language is what teaching kernels and
//! the classic benchmark kernels use (see README "CUDA C"); host code is skipped with a note.
//! Plain Rust: no I/O, nothing that panics on user input, nesting capped.
//!
//! - [`preprocess`]: `#define`, `#if`..., `#include` skipped, `// warpstep:` lines kept;
//! - [`lexer`], [`parser`], [`decl_parser`], [`stmt_parser`], [`expr_parser`]: tokens to the
//!   [`ast`];
//! - [`types`]: C types, promotions and conversions; [`fold`]: constant expressions;
//! - [`lower`] (kernels), [`variables`] ([`locals`], [`structs`]), [`statements`], [`lower_expr`], [`addressing`],
//!   [`operators`], [`range_test`], [`values`], [`strength`], [`calls`], [`builtins`], [`shuffle`], [`dmath`], [`dtrig`], [`unroll`]: PTX through [`emit`],
//!   then [`address_walk`], [`dead_code`] and [`schedule`];
//! - [`mangle`]: Itanium names for kernels without `extern "C"`.

pub mod address_walk;
pub mod addressing;
pub mod ast;
pub mod builtins;
pub mod calls;
pub mod dead_code;
pub mod decl_parser;
pub mod dmath;
pub mod dtrig;
pub mod emit;
pub mod error;
pub mod expr_parser;
pub mod fold;
pub mod lexer;
pub mod locals;
pub mod lower;
pub mod lower_expr;
pub mod mangle;
pub mod operators;
pub mod parser;
pub mod preprocess;
pub mod range_test;
pub mod schedule;
pub mod shuffle;
pub mod statements;
pub mod stmt_parser;
pub mod strength;
pub mod structs;
pub mod types;
pub mod unroll;
pub mod values;
pub mod variables;

pub use error::CudaError;
pub use lower::KernelName;

/// The result of compiling a `.cu` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The PTX text (with the source's `// warpstep:` lines as comments).
    pub ptx: String,
    /// Things skipped (host code, `#include`s).
    pub notes: Vec<String>,
    /// The kernels: the name as written and the `.entry` name.
    pub kernels: Vec<KernelName>,
    /// The source line of each `// warpstep:` line, in order: the PTX's line `k` (1-based) is
    /// the copy of the source's line `launch_lines[k - 1]`.
    pub launch_lines: Vec<u32>,
}

impl Compiled {
    /// The source line of line `ptx_line` of the PTX when it is a copied `// warpstep:` line.
    pub fn launch_source_line(&self, ptx_line: u32) -> Option<u32> {
        let k = usize::try_from(ptx_line).ok()?.checked_sub(1)?;
        self.launch_lines.get(k).copied()
    }
}

impl Compiled {
    /// The `.entry` name for `name`: an entry name, a kernel's plain name, or `k<1>`.
    pub fn resolve_kernel(&self, name: &str) -> Option<&str> {
        let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let want = squash(name);
        self.kernels
            .iter()
            .find(|k| k.ptx == want || squash(&k.source) == want)
            .map(|k| k.ptx.as_str())
    }
}

/// Whether `source` is CUDA C rather than PTX: a `// warpstep: --lang cuda|ptx` line says so
/// (the editor's language switch); otherwise it has `__global__` and no `.version` directive.
pub fn is_cuda(source: &str) -> bool {
    if let Some(lang) = forced_language(source) {
        return lang == "cuda";
    }
    source.contains("__global__")
        && !source
            .lines()
            .any(|l| l.trim_start().starts_with(".version"))
}

/// The language a `// warpstep:` line of `source` forces with `--lang cuda|ptx` (the last one),
/// or `None`.
pub fn forced_language(source: &str) -> Option<&str> {
    let mut out = None;
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix("// warpstep:") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            let value = match w.strip_prefix("--lang") {
                Some("") => words.next(),
                Some(v) => v.strip_prefix('='),
                None => None,
            };
            if let Some(v @ ("cuda" | "ptx")) = value {
                out = Some(v);
            }
        }
    }
    out
}

/// Compiles the device code of `source` (named `file_name` in errors and `.file`).
pub fn compile(source: &str, file_name: &str) -> Result<Compiled, CudaError> {
    compile_kernels(source, file_name, &[])
}

/// Like [`compile`], also instantiating the templates named in `requested` (`"k<1>"`).
pub fn compile_kernels(
    source: &str,
    file_name: &str,
    requested: &[String],
) -> Result<Compiled, CudaError> {
    let pp = preprocess::preprocess(source).map_err(|e| e.with_file(file_name))?;
    let unit = parser::parse_unit(pp.tokens).map_err(|e| e.with_file(file_name))?;
    let (body, kernels) =
        lower::lower_unit(&unit, file_name, requested).map_err(|e| e.with_file(file_name))?;
    if kernels.is_empty() {
        return Err(CudaError {
            file: file_name.to_string(),
            line: 1,
            col: 1,
            message: "no __global__ function to compile".into(),
        });
    }
    let mut ptx = String::new();
    for (_, l) in &pp.launch_lines {
        ptx.push_str(&format!("// {l}\n"));
    }
    ptx.push_str(&body);
    let mut notes = pp.notes;
    notes.extend(unit.notes);
    Ok(Compiled {
        ptx,
        notes,
        kernels,
        launch_lines: pp.launch_lines.iter().map(|(n, _)| *n).collect(),
    })
}

#[cfg(test)]
mod lang_tests {
    use super::*;

    #[test]
    fn a_warpstep_lang_line_forces_the_language() {
        let cuda = "__global__ void k(int *a) { a[0] = 1; }";
        assert!(is_cuda(cuda));
        assert!(!is_cuda(&format!("// warpstep: --lang ptx\n{cuda}")));
        assert!(is_cuda("// warpstep: --grid 1 --lang=cuda\n.version 7.0\n"));
        assert!(!is_cuda(".version 7.0\n// __global__ in a comment\n"));
        assert_eq!(forced_language("// warpstep: --lang rust\n"), None);
    }
}
