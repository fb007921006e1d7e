//! A launch that does not fit the kernel's parameters, given on a `// warpstep:` line, is
//! reported at that line (issue 30: the app marks it in the editor); given by the caller, it
//! is not.

use warpstep::launch::{LaunchError, LaunchFlags};
use warpstep::run::{prepare, InputError};

const KERNEL: &str = ".version 7.0\n.target sm_52\n.address_size 64\n\
// warpstep: --grid 1 --block 4\n\
// warpstep: --arg u32[4]=0\n\
.visible .entry k(.param .u64 a, .param .u32 n)\n{\n    ret;\n}\n";

fn launch_error(flags: &[&str]) -> LaunchError {
    let flags = LaunchFlags::parse_tokens(flags).unwrap();
    let config_for = |p: &str| warpstep::config::Config::preset(p).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("no file {p}"));
    match prepare(KERNEL, flags, &config_for, &no_files) {
        Err(InputError::Launch(e)) => e,
        Err(e) => panic!("not a launch error: {e}"),
        Ok(_) => panic!("a launch with one --arg for two parameters was accepted"),
    }
}

#[test]
fn a_wrong_argument_count_names_the_warpstep_line_that_gave_the_arguments() {
    let e = launch_error(&[]);
    let LaunchError::AtLine { line, .. } = &e else {
        panic!("no line: {e}");
    };
    assert_eq!(*line, 5, "{e}");
    assert!(e.to_string().contains("takes 2 argument(s)"), "{e}");
}

#[test]
fn arguments_the_caller_gave_are_not_blamed_on_a_line() {
    let e = launch_error(&["--arg", "7"]);
    assert!(!matches!(e, LaunchError::AtLine { .. }), "{e}");
}
