//! The `warpstep` command-line tool: a thin adapter over the library, native targets only.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    cli::main()
}

/// Rust starts programs with SIGPIPE ignored, so printing to a pipe whose reader has gone
/// (`warpstep config show fermi | head`) fails and `println!` panics. The default action ends
/// the process quietly, as every Unix filter does.
#[cfg(all(unix, not(target_arch = "wasm32")))]
fn restore_default_sigpipe() {
    // SAFETY: called first thing in main, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(all(not(unix), not(target_arch = "wasm32")))]
fn restore_default_sigpipe() {}

/// The CLI is native-only; on wasm32 this binary is an empty shell so that `cargo test
/// --target wasm32-unknown-unknown` can build the package.
#[cfg(target_arch = "wasm32")]
fn main() {}
