//! The `warpstep` command-line tool: a thin adapter over the library, native targets only.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

/// The CLI is native-only; on wasm32 this binary is an empty shell so that `cargo test
/// --target wasm32-unknown-unknown` can build the package.
#[cfg(target_arch = "wasm32")]
fn main() {}
