//! One run of a kernel, as both adapters (CLI `warpstep run`, browser) describe it: a PTX text
//! whose `// warpstep:` lines may carry launch flags, flags from the user that override them,
//! and a configuration. [`prepare`] turns that into a loaded program, a launch and initialised
//! memory, or an [`InputError`] naming the line, flag or key; [`Report`] is the result the
//! CLI's `--json` prints.

use crate::config::Config;
use crate::exec::{GlobalMemory, KernelImage};
use crate::launch::{LaunchError, LaunchFlags};
use crate::ptx::{self, Program, PtxError};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

/// The preset used when neither the PTX nor the user names a configuration.
pub const DEFAULT_PRESET: &str = "fermi";
/// `--max-cycles` when not given.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

/// Bad input: the run never started (exit status 2 in the CLI).
#[derive(Debug, Clone, PartialEq)]
pub enum InputError {
    Ptx(PtxError),
    /// The CUDA source does not compile.
    Cuda(crate::cuda::CudaError),
    /// The PTX compiled from a CUDA source does not load: a gap in warpstep's CUDA compiler.
    GeneratedPtx {
        file: String,
        error: PtxError,
    },
    Launch(LaunchError),
    Config(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Ptx(e) => write!(f, "{e}"),
            InputError::Cuda(e) => write!(f, "{e}"),
            InputError::GeneratedPtx { file, error } => write!(
                f,
                "the PTX that warpstep compiled from {file} does not load (`warpstep ptx {file}` prints it): in the generated PTX, {error}"
            ),
            InputError::Launch(e) => write!(f, "{e}"),
            InputError::Config(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for InputError {}

/// A launch ready to run.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub program: Arc<Program>,
    /// The flags in effect (PTX comments overlaid by the user's).
    pub flags: LaunchFlags,
    pub config: Config,
    pub image: KernelImage,
    pub global: GlobalMemory,
    /// The PTX warpstep compiled, when the input was CUDA (issue 29); `None` for PTX input.
    pub generated_ptx: Option<Rc<str>>,
    /// What the CUDA compiler skipped (host code, `#include`s), to show beside the PTX.
    pub compile_notes: Vec<String>,
}

/// Loads `ptx`, merges its `// warpstep:` flags with `overrides`, builds the configuration
/// (`config_for` resolves the `--config` value, `None` meaning the default preset, then the
/// `--set`s apply) and the launch. `read_file` supplies `file:` buffer contents.
pub fn prepare(
    ptx_text: &str,
    overrides: LaunchFlags,
    config_for: &dyn Fn(&str) -> Result<Config, String>,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<Prepared, InputError> {
    prepare_source(ptx_text, "kernel.cu", overrides, config_for, read_file)
}

/// The `--kernel` values in the `// warpstep:` lines of a source.
fn source_kernel_names(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix("// warpstep:") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            if w == "--kernel" {
                if let Some(k) = words.next() {
                    out.push(k.to_string());
                }
            }
        }
    }
    out
}

/// Compiles a CUDA source (issue 29) for a launch: template instances named by `--kernel` in
/// `overrides` or the source's `// warpstep:` lines are instantiated, and `--kernel` is
/// resolved to the `.entry` name (a plain name finds a mangled kernel).
pub fn compile_cuda(
    source: &str,
    file_name: &str,
    overrides: &mut LaunchFlags,
) -> Result<crate::cuda::Compiled, InputError> {
    let mut names = source_kernel_names(source);
    names.extend(overrides.kernel.clone());
    let compiled =
        crate::cuda::compile_kernels(source, file_name, &names).map_err(InputError::Cuda)?;
    if let Some(name) = names.last() {
        if let Some(entry) = compiled.resolve_kernel(name) {
            overrides.kernel = Some(entry.to_string());
        }
    }
    Ok(compiled)
}

/// Whether a launch error is about the `--arg`s (their count, or one that does not fit its
/// parameter), which a `// warpstep:` line may have given.
fn about_args(e: &LaunchError) -> bool {
    match e {
        LaunchError::ArgMismatch { .. } | LaunchError::BadArg { .. } => true,
        LaunchError::Mismatch { why } => why.contains("--arg"),
        _ => false,
    }
}

/// Like [`prepare`]; a CUDA source ([`crate::cuda::is_cuda`]) is compiled to PTX first, its
/// errors naming `file_name`.
pub fn prepare_source(
    text: &str,
    file_name: &str,
    mut overrides: LaunchFlags,
    config_for: &dyn Fn(&str) -> Result<Config, String>,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<Prepared, InputError> {
    let cuda = match overrides.lang.as_deref() {
        Some(lang) => lang == "cuda",
        None => crate::cuda::is_cuda(text),
    };
    let compiled = if cuda {
        Some(compile_cuda(text, file_name, &mut overrides)?)
    } else {
        None
    };
    let ptx_text = compiled.as_ref().map_or(text, |c| c.ptx.as_str());
    let loaded = ptx::load(ptx_text).map_err(|error| {
        if ptx_text.as_ptr() == text.as_ptr() {
            InputError::Ptx(error)
        } else {
            InputError::GeneratedPtx {
                file: file_name.to_string(),
                error,
            }
        }
    })?;
    let program = Arc::new(loaded);
    // A flag error names the line of the CUDA source the `// warpstep:` line came from.
    let source_line = |line: u32| {
        compiled
            .as_ref()
            .and_then(|c| c.launch_source_line(line))
            .unwrap_or(line)
    };
    let comments: Vec<(u32, &str)> = program
        .launch_comments
        .iter()
        .map(|c| (source_line(c.line), c.text.as_str()))
        .collect();
    // The `// warpstep:` line that gave the arguments, when the caller gave none: a launch
    // that does not fit the kernel's parameters is reported at that line.
    let args_line = if overrides.args.is_empty() {
        comments
            .iter()
            .rev()
            .find(|(_, t)| t.split_whitespace().any(|w| w == "--arg"))
            .map(|(l, _)| *l)
    } else {
        None
    };
    let flags = LaunchFlags::from_directives(&comments)
        .map_err(InputError::Launch)?
        .overlay(overrides);
    let base = config_for(flags.config.as_deref().unwrap_or(DEFAULT_PRESET))
        .map_err(InputError::Config)?;
    let config = base
        .with_overrides(&flags.sets)
        .and_then(|c| c.check_supported().map(|()| c))
        .map_err(|e| InputError::Config(e.to_string()))?;
    let mut global = GlobalMemory::new();
    let image = KernelImage::new(program.clone(), &flags, &mut global, read_file)
        .map_err(|e| match args_line {
            Some(line) if about_args(&e) => LaunchError::AtLine {
                line,
                inner: Box::new(e),
            },
            _ => e,
        })
        .map_err(InputError::Launch)?;
    check_fits(&config, &image)?;
    let (generated_ptx, compile_notes) =
        compiled.map_or((None, Vec::new()), |c| (Some(Rc::from(c.ptx)), c.notes));
    Ok(Prepared {
        program,
        flags,
        config,
        image,
        global,
        generated_ptx,
        compile_notes,
    })
}

/// A CTA must fit one SM of the configuration.
fn check_fits(config: &Config, image: &KernelImage) -> Result<(), InputError> {
    let threads = image.threads_per_cta();
    if threads > config.core.max_threads_per_cta || threads > config.core.max_threads_per_sm {
        return Err(InputError::Launch(LaunchError::Mismatch {
            why: format!(
                "a block of {threads} threads does not fit the configuration (core.max_threads_per_cta = {}, core.max_threads_per_sm = {})",
                config.core.max_threads_per_cta, config.core.max_threads_per_sm
            ),
        }));
    }
    if image.shared_bytes > config.shmem.size_bytes {
        return Err(InputError::Launch(LaunchError::Mismatch {
            why: format!(
                "the kernel needs {} bytes of shared memory per CTA, more than shmem.size_bytes = {}",
                image.shared_bytes, config.shmem.size_bytes
            ),
        }));
    }
    Ok(())
}
