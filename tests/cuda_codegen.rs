//! Issue 29: code whose timing a student can trust. Division and remainder by powers of two as
//! nvcc emits them (checked against Rust's `/` and `%` over negative and positive values),
//! identities folded away, `#pragma unroll 1` respected, loop guards folded on the loop
//! variable's constant start.

mod common;

use common::run_ok;
use warpstep::cuda::compile;

fn tokens(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

fn i64s(p: &warpstep::run::Prepared, index: usize) -> Vec<i64> {
    let bytes = p.buffer_bytes(index).expect("buffer argument");
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// The instruction lines of the first kernel in `ptx` (no labels, directives or `.loc`).
fn instructions(ptx: &str) -> Vec<String> {
    ptx.lines()
        .skip_while(|l| !l.starts_with('{'))
        .filter(|l| l.starts_with('\t') && !l.starts_with("\t.") && !l.starts_with("\t//"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn division_by_powers_of_two_rounds_toward_zero() {
    let src = "extern \"C\" __global__ void k(const int *in, int *out, const long long *in64, long long *out64, unsigned *uout) {
  int i = threadIdx.x;
  int v = in[i];
  out[8 * i] = v / 8;
  out[8 * i + 1] = v % 8;
  out[8 * i + 2] = v / 2;
  out[8 * i + 3] = v % 2;
  out[8 * i + 4] = v / 4096;
  out[8 * i + 5] = v % 4096;
  out[8 * i + 6] = v * 1 + 0 - 0;
  out[8 * i + 7] = (v | 0) ^ 0;
  long long w = in64[i];
  out64[2 * i] = w / 16;
  out64[2 * i + 1] = w % 16;
  uout[2 * i] = (unsigned)v / 8u;
  uout[2 * i + 1] = (unsigned)v % 8u;
}
";
    let c = compile(src, "div.cu").expect("compiles");
    let ins = instructions(&c.ptx);
    assert!(
        !ins.iter()
            .any(|l| l.starts_with("div.") || l.starts_with("rem.")),
        "{}",
        c.ptx
    );
    assert!(
        ins.iter()
            .any(|l| l.starts_with("shr.u32") && l.ends_with(", 29;")),
        "nvcc's bias for / 8: {}",
        c.ptx
    );
    let values: [i32; 8] = [-4097, -4096, -9, -8, -7, -1, 0, 9];
    let arg: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    let big: [i64; 8] = [-33, -32, -17, -1, 0, 1, 17, i64::MIN + 5];
    let arg64: Vec<String> = big.iter().map(|v| v.to_string()).collect();
    let flags = format!(
        "--block 8 --arg s32[8]=list:{} --arg s32[64]=0 --arg s64[8]=list:{} --arg s64[16]=0 --arg u32[16]=0",
        arg.join(","),
        arg64.join(",")
    );
    let p = run_ok(src, &tokens(&flags));
    let out = common::i32s(&p, 1);
    for (i, v) in values.iter().enumerate() {
        let want = [v / 8, v % 8, v / 2, v % 2, v / 4096, v % 4096, *v, *v];
        assert_eq!(&out[8 * i..8 * i + 8], &want, "v = {v}");
    }
    let out64 = i64s(&p, 3);
    for (i, w) in big.iter().enumerate() {
        assert_eq!(&out64[2 * i..2 * i + 2], &[w / 16, w % 16], "w = {w}");
    }
    let u = common::u32s(&p, 4);
    for (i, v) in values.iter().enumerate() {
        assert_eq!(&u[2 * i..2 * i + 2], &[*v as u32 / 8, *v as u32 % 8]);
    }
}

#[test]
fn identities_leave_no_instruction() {
    let src = "extern \"C\" __global__ void k(int *out, int n) {
  int i = threadIdx.x;
  out[i] = (i * 1 + 0) * (n & -1) + (i << 0) + (n * 0);
}
";
    let c = compile(src, "id.cu").expect("compiles");
    let ins = instructions(&c.ptx);
    let arith: Vec<&String> = ins
        .iter()
        .filter(|l| {
            ["mul.lo", "mad", "add.s32", "and", "shl.b32"]
                .iter()
                .any(|m| l.starts_with(m))
        })
        .collect();
    // i * n + i: one mad.
    assert_eq!(arith.len(), 1, "{}", c.ptx);
    assert!(arith[0].starts_with("mad.lo.s32"), "{}", c.ptx);
    let p = run_ok(src, &tokens("--block 4 --arg s32[4]=0 --arg 5"));
    assert_eq!(common::i32s(&p, 0), vec![0, 6, 12, 18]);
}

#[test]
fn pragma_unroll_1_keeps_the_loop_and_constant_guards_fold() {
    let src = "extern \"C\" __global__ void k(int *out, int n) {
  volatile __shared__ int s[32];
  int i = threadIdx.x;
  s[i] = 0;
#pragma unroll 1
  for (int r = 0; r < 64; r++) s[i] += 1;
  int t = 0;
  for (int j = 0; j < n; j++) t += j;
  out[i] = s[i] + t;
}
";
    let c = compile(src, "u.cu").expect("compiles");
    let ins = instructions(&c.ptx);
    let loads = ins.iter().filter(|l| l.starts_with("ld.volatile")).count();
    assert_eq!(loads, 2, "one load in the loop, one after it: {}", c.ptx);
    // `r < 64` holds on entry: no guard, one test of 64 (the back edge); the loop over `j`
    // runs by fours and its guard `0 + 3 < n` is `n <= 3` on the parameter.
    let setps: Vec<&String> = ins.iter().filter(|l| l.starts_with("setp")).collect();
    assert_eq!(
        setps.iter().filter(|l| l.ends_with(", 64;")).count(),
        1,
        "{}",
        c.ptx
    );
    assert!(
        setps
            .iter()
            .any(|l| l.starts_with("setp.le.s32") && l.ends_with(", 3;")),
        "{}",
        c.ptx
    );
    let p = run_ok(src, &tokens("--block 4 --arg s32[4]=0 --arg 5"));
    assert_eq!(common::i32s(&p, 0), vec![74; 4]);
    let p = run_ok(src, &tokens("--block 4 --arg s32[4]=0 --arg 0"));
    assert_eq!(common::i32s(&p, 0), vec![64; 4]);
}
