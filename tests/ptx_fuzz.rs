//! Mutation fuzzing of the PTX front end, with no fuzzing dependency: a seeded xorshift
//! generator mutates real PTX (the corpus, the subset files, the book kernel, and earlier
//! regressions) with byte flips, deletions, duplications, token swaps, dictionary inserts,
//! lines spliced from other files and truncations, and `ptx::load` must return `Ok` or `Err`, never panic.
//!
//! The normal test run does a few thousand iterations (a fixed seed, so it is reproducible).
//! Longer runs: `WARPSTEP_FUZZ_ITERS=2000000 cargo test --release --test ptx_fuzz -- --nocapture`
//! (and `WARPSTEP_FUZZ_SEED=n` for another sequence). An input that panics is written to
//! `target/ptx-fuzz-failures/`; copy it into `tests/data/ptx-fuzz-regressions/` once fixed,
//! where `regressions_never_panic` keeps checking it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use warpstep::ptx;

const DEFAULT_ITERS: u64 = 3000;
const DEFAULT_SEED: u64 = 0x5EED_0F57_A71C;
const MAX_LEN: usize = 256 << 10;

/// Tokens that make mutations reach deeper into the grammar.
const DICTIONARY: &[&str] = &[
    "{",
    "}",
    ";",
    ",",
    "[",
    "]",
    "(",
    ")",
    "@",
    "!",
    "|",
    "_",
    "-",
    "+",
    ":",
    "=",
    "<",
    ">",
    "%r1",
    "%rd1",
    "%p1",
    "%f1",
    "%tid.x",
    "%tid",
    "%laneid",
    "%clock64",
    ".reg",
    ".b32",
    ".pred",
    ".u64",
    ".f32",
    ".v4",
    ".v2",
    ".shared",
    ".global",
    ".param",
    ".local",
    ".const",
    ".extern",
    ".entry",
    ".func",
    ".align 16",
    ".loc 1 2 3",
    ".file 1 \"x\"",
    ".pragma \"x\";",
    ".maxntid 1,2,3",
    "0f3F800000",
    "0d3FF0000000000000",
    "0x",
    "0xFFFFFFFFFFFFFFFF",
    "99999999999999999999",
    "-2147483649",
    "4294967296",
    "017",
    "0b101",
    "1.5e3",
    "\"",
    "/*",
    "*/",
    "//",
    "bra L;",
    "L:",
    "$L__BB0_1:",
    "ret;",
    "exit;",
    "bar.sync 0;",
    "call.uni (r), f, (a);",
    "%r<100000>",
    "%r<0>",
    "[%rd1+-4]",
    "[sym+8]",
    "{%r1,_}",
    "p|q",
    "setp.lt.and.s32",
    "ld.global.nc.v4.f32",
    "atom.global.cas.b32",
    "shfl.sync.idx.b32",
    "\n",
    "\t",
    " ",
    "\u{00e9}",
    "\0",
];

/// xorshift64 (Marsaglia 2003): deterministic on every platform.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|e| e == "ptx"));
    out.sort();
    out
}

fn seeds() -> Vec<Vec<u8>> {
    let d = data_dir();
    let mut files = ptx_files(&d.join("ptx-corpus"));
    files.extend(ptx_files(&d.join("ptx-subset")));
    files.extend(ptx_files(&d.join("ptx-fuzz-regressions")));
    files.push(d.join("book_fig3_2.ptx"));
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Byte ranges of whitespace-separated tokens.
fn tokens(input: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in input.iter().enumerate() {
        match (b.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, input.len()));
    }
    out
}

/// Byte offsets of line starts.
fn line_starts(data: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            data.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect()
}

/// Replace or insert a line with a random line of another seed (keeps mutants mostly
/// well-formed, so they reach the loader and the CFG).
fn splice_line(rng: &mut XorShift, data: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let donor = &seeds[rng.below(seeds.len())];
    let starts = line_starts(donor);
    let i = rng.below(starts.len());
    let end = starts.get(i + 1).copied().unwrap_or(donor.len());
    let line = donor[starts[i]..end].to_vec();
    let here = line_starts(data);
    let j = rng.below(here.len());
    let at = here[j];
    if rng.below(2) == 0 {
        let to = here.get(j + 1).copied().unwrap_or(data.len());
        data.splice(at..to, line);
    } else {
        data.splice(at..at, line);
    }
}

fn mutate_once(rng: &mut XorShift, data: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let len = data.len();
    let pos = rng.below(len + 1);
    match rng.below(10) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.next() as u8;
        }
        2 => {
            let max = if rng.below(8) == 0 { 512 } else { 16 };
            let n = 1 + rng.below(max);
            let end = (pos + n).min(len);
            data.drain(pos..end);
        }
        3 => {
            let n = 1 + rng.below(64);
            let start = rng.below(len + 1);
            let end = (start + n).min(len);
            let chunk = data[start..end].to_vec();
            let at = rng.below(len + 1);
            data.splice(at..at, chunk);
        }
        4 => {
            let toks = tokens(data);
            if toks.len() >= 2 {
                let (a, b) = (rng.below(toks.len()), rng.below(toks.len()));
                let (x, y) = if toks[a].0 <= toks[b].0 {
                    (toks[a], toks[b])
                } else {
                    (toks[b], toks[a])
                };
                if x.1 <= y.0 {
                    let mut out = data[..x.0].to_vec();
                    out.extend_from_slice(&data[y.0..y.1]);
                    out.extend_from_slice(&data[x.1..y.0]);
                    out.extend_from_slice(&data[x.0..x.1]);
                    out.extend_from_slice(&data[y.1..]);
                    *data = out;
                }
            }
        }
        5 => data.truncate(pos),
        6 | 7 => splice_line(rng, data, seeds),
        _ => {
            let word = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
            data.splice(pos..pos, word.iter().copied());
        }
    }
    data.truncate(MAX_LEN);
}

/// Load `input`; `Err` with the panic message if the front end panicked.
fn check(input: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(input).into_owned();
    catch_unwind(AssertUnwindSafe(|| {
        // Everything the simulator derives from a program when it launches it must cope too:
        // register pressure and the SM's decode table.
        if let Ok(program) = ptx::load(&text) {
            let config = warpstep::config::Config::default();
            let mut hierarchy = config.regfile.clone();
            hierarchy.hierarchy = true;
            for func in program.functions.iter().filter(|f| f.defined) {
                let _ = warpstep::ptx::liveness::max_live_registers(func);
                let _ = warpstep::core::decode::decode_kernel(func, &config.units, &config.regfile);
                // And the register file hierarchy's allocation.
                let _ = warpstep::core::decode::decode_kernel(func, &config.units, &hierarchy);
            }
        }
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

fn save_failure(input: &[u8], iteration: u64) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ptx-fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("failure-{iteration}.ptx"));
    let _ = std::fs::write(&path, input);
    path
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn mutated_ptx_never_panics() {
    let iters = env_u64("WARPSTEP_FUZZ_ITERS").unwrap_or(DEFAULT_ITERS);
    let seed = env_u64("WARPSTEP_FUZZ_SEED").unwrap_or(DEFAULT_SEED).max(1);
    let seeds = seeds();
    assert!(seeds.len() >= 16);
    // Silence the default hook's report for each caught panic; failures are collected.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = XorShift(seed);
    let mut failures = Vec::new();
    let (mut ok, mut err) = (0u64, 0u64);
    for i in 0..iters {
        let mut data = seeds[rng.below(seeds.len())].clone();
        for _ in 0..1 + rng.below(4) {
            mutate_once(&mut rng, &mut data, &seeds);
        }
        match check(&data) {
            Ok(()) => {
                if ptx::load(&String::from_utf8_lossy(&data)).is_ok() {
                    ok += 1;
                } else {
                    err += 1;
                }
            }
            Err(msg) => {
                let path = save_failure(&data, i);
                failures.push(format!(
                    "iteration {i}: {msg} (input in {})",
                    path.display()
                ));
                if failures.len() >= 10 {
                    break;
                }
            }
        }
    }
    std::panic::set_hook(hook);
    println!("ptx fuzz: seed {seed}, {iters} iterations, {ok} loaded, {err} rejected");
    assert!(failures.is_empty(), "panics:\n{}", failures.join("\n"));
    assert!(
        ok > 0 && err > 0,
        "mutations should give both accepted and rejected inputs"
    );
}

#[test]
fn regressions_never_panic() {
    let files = ptx_files(&data_dir().join("ptx-fuzz-regressions"));
    assert!(
        !files.is_empty(),
        "the regression directory holds at least one case"
    );
    for path in files {
        let input = std::fs::read(&path).unwrap();
        if let Err(msg) = check(&input) {
            panic!("{}: {msg}", path.display());
        }
    }
}

#[test]
fn hostile_inputs_never_panic() {
    let cases: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"\0\0\0".to_vec(),
        vec![0xFF; 64],
        b".version".to_vec(),
        b".version 7.7 .target sm_52 .entry k( .param".to_vec(),
        b".version 7.7 .target sm_52 .entry k() { @".to_vec(),
        b".version 7.7 .target sm_52 .entry k() { ld.global.v4.u32 {".to_vec(),
        b".version 7.7 .target sm_52 .entry k() { .reg .b32 %r<65535>; .reg .b32 %s<1>; }".to_vec(),
        b".version 7.7 .target sm_52 .entry k() { bra L; L: }".to_vec(),
        b".version 7.7 .target sm_52 .global .b8 g[4294967295][4294967295];".to_vec(),
        b".version 7.7 .target sm_52 .entry k(.param .b8 p[18446744073709551615]) { ret; }".to_vec(),
        b".version 7.7 .target sm_52 .entry k() { .shared .align 65536 .b8 a[1]; .shared .b8 b[16777215]; ret; }".to_vec(),
        ".version 7.7 .target sm_52 // \u{1F600}\n.entry k() { ret; }".as_bytes().to_vec(),
        b".section .debug { { { ".to_vec(),
        b"[[[[[[[[[[[[".to_vec(),
        "{".repeat(100_000).into_bytes(),
    ];
    for c in cases {
        if let Err(msg) = check(&c) {
            panic!("{:?}: {msg}", String::from_utf8_lossy(&c));
        }
    }
}
