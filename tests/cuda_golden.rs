//! Issue 29: golden PTX. Each `tests/data/cuda/golden/NAME.cu` compiles to exactly the text in
//! `NAME.ptx` beside it. After a deliberate change to the compiler's output, rewrite the files
//! with `WARPSTEP_BLESS=1 cargo test --test cuda_golden` and review the diff.

use std::path::PathBuf;
use warpstep::cuda::compile;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cuda/golden")
}

#[test]
fn compiled_ptx_matches_the_golden_files() {
    let bless = std::env::var_os("WARPSTEP_BLESS").is_some();
    let mut sources: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("golden directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 4, "golden kernels: {sources:?}");
    let mut stale = Vec::new();
    for cu in &sources {
        let src = std::fs::read_to_string(cu).expect("source");
        let name = cu.file_name().and_then(|n| n.to_str()).unwrap_or("k.cu");
        let ptx = compile(&src, name).expect("compiles").ptx;
        let golden = cu.with_extension("ptx");
        if bless {
            std::fs::write(&golden, &ptx).expect("write golden");
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if want != ptx {
            eprintln!("{}: got\n{ptx}", golden.display());
            stale.push(name.to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "PTX differs from the golden files for {stale:?} (WARPSTEP_BLESS=1 rewrites them)"
    );
}
