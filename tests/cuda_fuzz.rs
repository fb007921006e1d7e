//! Mutation fuzzing of the CUDA front end (issue 29), as tests/ptx_fuzz.rs does for PTX: a
//! seeded xorshift generator mutates the `.cu` kernels of tests/data/kernels (byte flips,
//! deletions, duplications, dictionary inserts, lines spliced from other files, truncations)
//! and `cuda::compile` must return `Ok` or `Err`, never panic; when it compiles, the PTX
//! loader must accept or refuse the output without panicking too.
//!
//! Longer runs: `WARPSTEP_FUZZ_ITERS=200000 cargo test --release --test cuda_fuzz`
//! (`WARPSTEP_FUZZ_SEED=n` for another sequence).

use std::panic::{catch_unwind, AssertUnwindSafe};

const DEFAULT_ITERS: u64 = 1500;
const DEFAULT_SEED: u64 = 0xC0DA_F022;

const DICTIONARY: &[&str] = &[
    "{",
    "}",
    ";",
    ",",
    "[",
    "]",
    "(",
    ")",
    "*",
    "&",
    "<",
    ">",
    "?",
    ":",
    "=",
    "+=",
    "++",
    "--",
    "<<",
    ">>",
    "&&",
    "||",
    "!",
    "~",
    "#define X(a) a*",
    "#if 1\n",
    "#endif\n",
    "#else\n",
    "\\\n",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "__global__",
    "__device__",
    "__shared__",
    "extern",
    "template <int N>",
    "template",
    "struct",
    "class",
    "typedef",
    "int",
    "unsigned",
    "float",
    "double",
    "bool",
    "char",
    "long",
    "const",
    "volatile",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "switch",
    "case 1:",
    "default:",
    "threadIdx.x",
    "blockIdx.y",
    "atomicAdd",
    "__syncthreads()",
    "__shfl_down_sync",
    "sqrtf",
    "min",
    "0x",
    "1e",
    "0.5f",
    "-1",
    "4294967296",
    "9223372036854775808",
    "sizeof",
    "static_cast<int>",
    "f(f(f(f(",
    "((((((((",
    "[0][0][0]",
    "x",
    "n",
    "i",
];

const SOURCES: &[&str] = &[
    "vector_add",
    "reduction",
    "divergence",
    "histogram",
    "transpose",
    "vote",
    "shuffle_reduce",
    "flags",
    "spinlock",
    "polybench",
    "nw_tiles",
    "elastic",
    "unified",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn mutate(rng: &mut Rng, text: &str, others: &[String]) -> String {
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len().max(1);
        match rng.below(7) {
            0 => {
                let i = rng.below(len);
                if let Some(c) = b.get_mut(i) {
                    *c ^= 1 << rng.below(8);
                }
            }
            1 => {
                let i = rng.below(len);
                let n = rng.below(16);
                b.drain(i.min(b.len())..(i + n).min(b.len()));
            }
            2 => {
                let i = rng.below(len);
                let n = rng.below(64);
                let piece: Vec<u8> = b[i.min(b.len())..(i + n).min(b.len())].to_vec();
                let at = rng.below(len);
                b.splice(at.min(b.len())..at.min(b.len()), piece);
            }
            3 | 4 => {
                let w = DICTIONARY[rng.below(DICTIONARY.len())];
                let at = rng.below(len);
                b.splice(at.min(b.len())..at.min(b.len()), w.bytes());
            }
            5 => {
                let o = &others[rng.below(others.len())];
                let lines: Vec<&str> = o.lines().collect();
                let l = lines[rng.below(lines.len())];
                let at = rng.below(len);
                b.splice(
                    at.min(b.len())..at.min(b.len()),
                    format!("\n{l}\n").into_bytes(),
                );
            }
            _ => b.truncate(rng.below(len)),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_cuda_never_panics() {
    let sources: Vec<String> = SOURCES
        .iter()
        .map(|s| {
            std::fs::read_to_string(format!(
                "{}/tests/data/kernels/{s}.cu",
                env!("CARGO_MANIFEST_DIR")
            ))
            .expect("kernel source")
        })
        .collect();
    let iters = env_u64("WARPSTEP_FUZZ_ITERS", DEFAULT_ITERS);
    let mut rng = Rng(env_u64("WARPSTEP_FUZZ_SEED", DEFAULT_SEED) | 1);
    let (mut ok, mut refused) = (0, 0);
    for k in 0..iters {
        let base = &sources[rng.below(sources.len())];
        let text = mutate(&mut rng, base, &sources);
        let r = catch_unwind(AssertUnwindSafe(|| {
            match warpstep::cuda::compile(&text, "fuzz.cu") {
                Ok(c) => {
                    let _ = warpstep::ptx::load(&c.ptx);
                    true
                }
                Err(e) => {
                    assert!(!e.message.is_empty());
                    false
                }
            }
        }));
        match r {
            Ok(true) => ok += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("iteration {k} panicked on:\n{text}"),
        }
    }
    eprintln!("{ok} compiled, {refused} refused");
    assert!(ok > 0 && refused > 0);
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    for src in [
        format!(
            "__global__ void k(int *x) {{ x[0] = {}1{}; }}",
            "(".repeat(5000),
            ")".repeat(5000)
        ),
        format!("__global__ void k(int *x) {{ {} }}", "{".repeat(5000)),
        format!(
            "__global__ void k(int *x) {{ x[0] = {}1; }}",
            "-".repeat(5000)
        ),
        format!(
            "#define A(x) x\n__global__ void k(int *x) {{ x[0] = {}1{}; }}",
            "A(".repeat(3000),
            ")".repeat(3000)
        ),
        "#define X X X\n#define Y X Y\n__global__ void k(int *x) { x[0] = Y; }".to_string(),
    ] {
        let r = catch_unwind(|| warpstep::cuda::compile(&src, "deep.cu"));
        assert!(r.is_ok(), "panicked");
    }
}

#[test]
fn extreme_sizes_and_values_are_errors_or_code_not_panics() {
    for src in [
        "struct S { int a[16777216]; int b[16777216][16777216]; };\n__global__ void k(S *s) { s->b[1][2] = 1; }",
        "__global__ void k(int *x) { int a[16777216][16777216] = {1, 2}; x[0] = a[1][1]; }",
        "template <int N> __global__ void k(int *x) { x[N] = N; }\ntemplate __global__ void k<-9223372036854775807>(int *);",
        "__global__ void k(int *x) { x[0] = __shfl_sync(0xffffffff, x[1], 0, -9223372036854775807); }",
        "__global__ void k(int *x) { x[0] = 9223372036854775807 * 2 + (1 << 63) / -1 % 0; }",
        "__global__ void k(double *x) { double (*p)[16777216] = 0; p++; x[0] = sizeof(*p); }",
        "__global__ void k(int *x) { for (int i = -2147483647; i < 2147483647; i++) x[i] = i; }",
        "__global__ void k(char *x) { x[0] = '\\xff' + \"\u{e9}\"[0]; } \u{e9}",
    ] {
        let r = catch_unwind(|| {
            if let Ok(c) = warpstep::cuda::compile(src, "extreme.cu") {
                let _ = warpstep::ptx::load(&c.ptx);
            }
        });
        assert!(r.is_ok(), "panicked on {src}");
    }
}
