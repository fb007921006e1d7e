//! Issue 29: language features of warpstep's CUDA compiler checked by running compiled
//! kernels: `warpSize` from the machine, locals in `.local` memory, `struct` values, 64-bit
//! shuffles and the `double` math functions.

mod common;

use common::{run_ok, ulps};
use warpstep::cuda::compile;

/// Prepares a launch of `src` as `prepare` does, or the error it gives.
fn prepare_cuda(src: &str, flags: &[&str]) -> Result<warpstep::run::Prepared, String> {
    let flags = warpstep::launch::LaunchFlags::parse_tokens(flags).map_err(|e| e.to_string())?;
    let config_for = |name: &str| warpstep::config::Config::preset(name).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("no file {p} in tests"));
    warpstep::run::prepare(src, flags, &config_for, &no_files).map_err(|e| e.to_string())
}

fn tokens(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

#[test]
fn warp_size_follows_the_machine() {
    let src = "extern \"C\" __global__ void k(int *out) {
  int i = threadIdx.x;
  out[i] = warpSize * 100 + i % warpSize + (i / warpSize) * 10;
}
";
    let c = compile(src, "ws.cu").expect("compiles");
    assert!(c.ptx.contains(", WARP_SZ;"), "{}", c.ptx);
    // The book's warp of 4 on the teaching preset, the preset's own 8, and fermi's 32.
    let mut book = common::BOOK_WARP4.to_vec();
    book.extend(tokens("--block 8 --arg s32[8]=0"));
    let four = run_ok(src, &book);
    assert_eq!(
        common::i32s(&four, 0),
        vec![400, 401, 402, 403, 410, 411, 412, 413]
    );
    let teaching = run_ok(src, &tokens("--config teaching --block 10 --arg s32[10]=0"));
    assert_eq!(
        common::i32s(&teaching, 0),
        vec![800, 801, 802, 803, 804, 805, 806, 807, 810, 811]
    );
    let fermi = run_ok(src, &tokens("--config fermi --block 40 --arg s32[40]=0"));
    let want: Vec<i32> = (0..40).map(|i| 3200 + i % 32 + (i / 32) * 10).collect();
    assert_eq!(common::i32s(&fermi, 0), want);
}

fn bytes8(p: &warpstep::run::Prepared, index: usize) -> Vec<[u8; 8]> {
    let bytes = p.buffer_bytes(index).expect("buffer argument");
    bytes
        .chunks_exact(8)
        .map(|c| c.try_into().expect("8 bytes"))
        .collect()
}

#[test]
fn shuffles_of_64_bit_values_move_both_halves() {
    let src = "extern \"C\" __global__ void k(const double *d, const long long *l, double *od, long long *ol, unsigned long long *ou) {
  int t = threadIdx.x;
  double x = d[t];
  long long y = l[t];
  unsigned long long z = (unsigned long long)y * 3ull;
  od[4 * t] = __shfl_sync(0xffffffff, x, 5);
  od[4 * t + 1] = __shfl_down_sync(0xffffffff, x, 1);
  od[4 * t + 2] = __shfl_xor_sync(0xffffffff, x, 3);
  od[4 * t + 3] = __shfl_up_sync(0xffffffff, x, 2, 16);
  ol[2 * t] = __shfl_xor_sync(0xffffffff, y, 16);
  ol[2 * t + 1] = __shfl_down_sync(0xffffffff, y, 4);
  ou[t] = __shfl_sync(0xffffffff, z, t ^ 1);
}
";
    let c = compile(src, "shfl64.cu").expect("compiles");
    assert_eq!(c.ptx.matches("shfl.sync.").count(), 14, "{}", c.ptx);
    let d: Vec<f64> = (0..32).map(|i| (i as f64) * 1.5e300 - 7.25).collect();
    let l: Vec<i64> = (0..32).map(|i| (i as i64 - 16) * 0x1_0000_0001).collect();
    let list = |v: Vec<String>| v.join(",");
    let flags = format!(
        "--block 32 --arg f64[32]=list:{} --arg s64[32]=list:{} --arg f64[128]=0 --arg s64[64]=0 --arg u64[32]=0",
        list(d.iter().map(|x| format!("{x:e}")).collect()),
        list(l.iter().map(|x| x.to_string()).collect())
    );
    let p = run_ok(src, &tokens(&flags));
    let od: Vec<f64> = bytes8(&p, 2).into_iter().map(f64::from_le_bytes).collect();
    let ol: Vec<i64> = bytes8(&p, 3).into_iter().map(i64::from_le_bytes).collect();
    let ou: Vec<u64> = bytes8(&p, 4).into_iter().map(u64::from_le_bytes).collect();
    for t in 0..32usize {
        let down = if t + 1 < 32 { t + 1 } else { t };
        let up = if t % 16 >= 2 { t - 2 } else { t };
        assert_eq!(
            od[4 * t..4 * t + 4],
            [d[5], d[down], d[t ^ 3], d[up]],
            "lane {t}"
        );
        let down4 = if t + 4 < 32 { t + 4 } else { t };
        assert_eq!(ol[2 * t..2 * t + 2], [l[t ^ 16], l[down4]], "lane {t}");
        assert_eq!(ou[t], (l[t ^ 1] as u64).wrapping_mul(3), "lane {t}");
    }
}

#[test]
fn locals_whose_address_is_taken_live_in_local_memory() {
    let src = "__device__ void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
__device__ void bump(float *f, int k) { *f += (float)k; }
extern \"C\" __global__ void k(const int *in, int *out, float *fout) {
  int i = threadIdx.x;
  int x = in[i];
  int y = in[i] * 10;
  int plain = x + 1;
  float s = 0.5f;
  if (x % 2 == 0) swap(&x, &y);
  int *p = &x;
  *p += 100;
  for (int k = 0; k < 3; k++) bump(&s, k);
  out[3 * i] = x;
  out[3 * i + 1] = y;
  out[3 * i + 2] = plain;
  fout[i] = s;
}
";
    let c = compile(src, "local.cu").expect("compiles");
    // x, y and s in .local; `plain`, `i` and the rest in registers.
    assert_eq!(
        c.ptx.matches(".local .align 4 .b8 __local_").count(),
        3,
        "{}",
        c.ptx
    );
    assert!(c.ptx.contains("st.local.s32"), "{}", c.ptx);
    let p = run_ok(
        src,
        &tokens("--block 6 --arg s32[6]=iota --arg s32[18]=0 --arg f32[6]=0"),
    );
    let mut want = Vec::new();
    for v in 0..6 {
        let (x, y) = if v % 2 == 0 { (v * 10, v) } else { (v, v * 10) };
        want.extend([x + 100, y, v + 1]);
    }
    assert_eq!(common::i32s(&p, 1), want);
    assert_eq!(common::f32s(&p, 2), vec![3.5; 6]);
}

#[test]
fn struct_values_copy_member_by_member() {
    let src = "struct V { float x; float y; };
struct P { int id; V v; };
__device__ float norm1(P p) { p.v.x = p.v.x < 0 ? -p.v.x : p.v.x; return p.v.x + p.v.y + p.id; }
extern \"C\" __global__ void k(const P *in, P *out, float *n) {
  __shared__ P tile[32];
  int t = threadIdx.x;
  P a = in[t];
  P b = {t, {1.5f, -2.0f}};
  tile[t] = a;
  __syncthreads();
  P c;
  c = tile[(t + 1) % 4];
  c.id += 100;
  b.v = c.v;
  out[2 * t] = c;
  out[2 * t + 1] = b;
  n[t] = norm1(a);
  n[t + 4] = a.v.x;
}
";
    let c = compile(src, "structs.cu").expect("compiles");
    assert!(c.ptx.contains(".local"), "{}", c.ptx);
    // P is 12 bytes: id, v.x, v.y. in[t] = {t, -(t + 1), 0.25 * t}.
    let mut words = Vec::new();
    for t in 0..4i32 {
        words.push(t.to_string());
        words.push((-(t as f32 + 1.0)).to_bits().to_string());
        words.push((0.25 * t as f32).to_bits().to_string());
    }
    let flags = format!(
        "--block 4 --arg u32[12]=list:{} --arg u32[24]=0 --arg f32[8]=0",
        words.join(",")
    );
    let p = run_ok(src, &tokens(&flags));
    let out = common::u32s(&p, 1);
    let f = |bits: u32| f32::from_bits(bits);
    for t in 0..4usize {
        let s = (t + 1) % 4;
        let (c, b) = (&out[6 * t..6 * t + 3], &out[6 * t + 3..6 * t + 6]);
        assert_eq!(c[0] as usize, s + 100, "thread {t}");
        assert_eq!((f(c[1]), f(c[2])), (-(s as f32 + 1.0), 0.25 * s as f32));
        assert_eq!(b[0] as usize, t);
        assert_eq!((f(b[1]), f(b[2])), (f(c[1]), f(c[2])));
    }
    let n = common::f32s(&p, 2);
    for t in 0..4 {
        let tf = t as f32;
        assert_eq!(n[t], (tf + 1.0) + 0.25 * tf + tf, "the callee's copy");
        assert_eq!(n[t + 4], -(tf + 1.0), "the caller's struct is unchanged");
    }
}

#[test]
fn struct_value_errors_name_the_place() {
    let e = |src: &str| {
        compile(src, "bad.cu")
            .expect_err("must not compile")
            .to_string()
    };
    let head = "struct S { int a; int b; };\n__device__ S make() { S s; return s; }\n";
    assert_eq!(
        e(&format!(
            "{head}__global__ void k(S *o) {{\n  S x = {{1, 2, 3}};\n  o[0] = x;\n}}\n"
        )),
        "bad.cu:4:9: too many initializers for the struct"
    );
    assert_eq!(
        e(&format!(
            "{head}__global__ void k(S *o) {{\n  o[0] = 3 + 4;\n}}\n"
        )),
        "bad.cu:4:12: a struct value must be a variable, an element, a member or a call"
    );
    assert_eq!(
        e("struct S { int a; };\n__device__ S f(int x) {\n  return x;\n}\n__global__ void k(S *o) { o[0] = f(1); }\n"),
        "bad.cu:3:10: a struct value must be a variable, an element, a member or a call"
    );
}

#[test]
fn struct_valued_calls_return_through_a_local_buffer() {
    // Complex arithmetic as teaching code writes it: a struct returned by value from
    // `__device__` functions, braced and from a variable, with an early return, nested calls
    // as arguments, and a member read straight off a call.
    let src = "struct C { float re; float im; };
__device__ C cmul(C a, C b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
__device__ C conj_if(C a, int flip) {
  if (flip) {
    C c = {a.re, -a.im};
    return c;
  }
  return a;
}
extern \"C\" __global__ void k(const C *in, C *out, float *mag) {
  int t = threadIdx.x;
  C a = in[t];
  C b = {2.0f, 1.0f};
  out[t] = cmul(conj_if(a, t & 1), b);
  C sq = cmul(a, a);
  mag[t] = sq.re + conj_if(a, 1).im;
}
";
    let c = compile(src, "complex.cu").expect("compiles");
    assert!(c.ptx.contains("cmul_ret"), "{}", c.ptx);
    // in[t] = {t + 1, 0.5 t}
    let mut words = Vec::new();
    for t in 0..4 {
        words.push((t as f32 + 1.0).to_bits().to_string());
        words.push((0.5 * t as f32).to_bits().to_string());
    }
    let flags = format!(
        "--block 4 --arg u32[8]=list:{} --arg f32[8]=0 --arg f32[4]=0",
        words.join(",")
    );
    let p = run_ok(src, &tokens(&flags));
    let out = common::f32s(&p, 1);
    let mag = common::f32s(&p, 2);
    for t in 0..4usize {
        let (re, im) = (t as f32 + 1.0, 0.5 * t as f32);
        let im_used = if t & 1 == 1 { -im } else { im };
        assert_eq!(
            (out[2 * t], out[2 * t + 1]),
            (re * 2.0 - im_used, re + im_used * 2.0),
            "thread {t}"
        );
        assert_eq!(mag[t], (re * re - im * im) - im, "thread {t}");
    }
}

#[test]
fn double_exp_is_within_a_few_ulp_of_rust() {
    let src = "extern \"C\" __global__ void k(const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = exp(x[i]);
}
";
    let mut xs: Vec<f64> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1e-300,
        -1e-17,
        709.78,
        709.79,
        710.0,
        -708.39,
        -709.0,
        -740.0,
        -745.1,
        -746.0,
        1000.0,
        -1000.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        std::f64::consts::LN_2,
        -std::f64::consts::LN_2 / 2.0,
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    while xs.len() < 1024 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let u = (state >> 11) as f64 / (1u64 << 53) as f64;
        xs.push(if xs.len() % 2 == 0 {
            (u - 0.5) * 1400.0
        } else {
            (u - 0.5) * 8.0
        });
    }
    let list: Vec<String> = xs
        .iter()
        .map(|x| {
            if x.is_nan() {
                "nan".into()
            } else if x.is_infinite() {
                (if *x > 0.0 { "inf" } else { "-inf" }).into()
            } else {
                format!("{x:e}")
            }
        })
        .collect();
    let flags = format!(
        "--grid 8 --block 128 --arg f64[1024]=list:{} --arg f64[1024]=0",
        list.join(",")
    );
    let p = common::run_functional_ok(src, &tokens(&flags));
    let got: Vec<f64> = bytes8(&p, 1).into_iter().map(f64::from_le_bytes).collect();
    let mut worst = 0;
    for (x, y) in xs.iter().zip(&got) {
        let want = x.exp();
        let d = ulps(*y, want);
        assert!(d <= 3, "exp({x:e}) = {y:e}, Rust {want:e} ({d} ulp)");
        worst = worst.max(d);
    }
    eprintln!("exp: worst {worst} ulp over {} inputs", xs.len());
}

#[test]
fn double_log_is_within_a_few_ulp_of_rust() {
    let src = "extern \"C\" __global__ void k(const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = log(x[i]);
}
";
    let mut xs: Vec<f64> = vec![
        1.0,
        0.0,
        -0.0,
        -1.0,
        2.0,
        0.5,
        1.0 + 1e-10,
        1.0 - 1e-10,
        std::f64::consts::E,
        std::f64::consts::SQRT_2,
        f64::MIN_POSITIVE,
        5e-324,
        1e-310,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    while xs.len() < 1024 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let u = (state >> 11) as f64 / (1u64 << 53) as f64;
        // Exponents over the whole range, mantissas uniform; every fourth near 1.
        let x = if xs.len() % 4 == 0 {
            1.0 + (u - 0.5) * 0.01
        } else {
            (2.0 * u + 0.001) * 2f64.powi(((state & 2047) as i32) - 1074)
        };
        xs.push(x);
    }
    let list: Vec<String> = xs
        .iter()
        .map(|x| match x {
            x if x.is_nan() => "nan".into(),
            x if *x == f64::INFINITY => "inf".into(),
            x if *x == f64::NEG_INFINITY => "-inf".into(),
            x => format!("{x:e}"),
        })
        .collect();
    let flags = format!(
        "--grid 8 --block 128 --arg f64[1024]=list:{} --arg f64[1024]=0",
        list.join(",")
    );
    let p = common::run_functional_ok(src, &tokens(&flags));
    let got: Vec<f64> = bytes8(&p, 1).into_iter().map(f64::from_le_bytes).collect();
    let mut worst = 0;
    for (x, y) in xs.iter().zip(&got) {
        let want = x.ln();
        let d = ulps(*y, want);
        assert!(d <= 3, "log({x:e}) = {y:e}, Rust {want:e} ({d} ulp)");
        worst = worst.max(d);
    }
    eprintln!("log: worst {worst} ulp over {} inputs", xs.len());
}

#[test]
fn double_sin_and_cos_are_within_a_few_ulp_of_rust() {
    let src = "extern \"C\" __global__ void k(const double *x, double *s, double *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = sin(x[i]);
  c[i] = cos(x[i]);
}
";
    let mut xs: Vec<f64> = vec![
        0.0,
        -0.0,
        1e-300,
        -1e-9,
        std::f64::consts::FRAC_PI_4,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::PI,
        -std::f64::consts::PI,
        3.0 * std::f64::consts::FRAC_PI_2,
        100.0,
        -12345.678,
        1.0e6,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    while xs.len() < 512 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let u = (state >> 11) as f64 / (1u64 << 53) as f64;
        xs.push(if xs.len() % 2 == 0 {
            (u - 0.5) * 2000.0
        } else {
            (u - 0.5) * 7.0
        });
    }
    let list: Vec<String> = xs
        .iter()
        .map(|x| match *x {
            x if x.is_nan() => "nan".to_string(),
            f64::INFINITY => "inf".to_string(),
            f64::NEG_INFINITY => "-inf".to_string(),
            x => format!("{x:e}"),
        })
        .collect();
    let flags = format!(
        "--grid 4 --block 128 --arg f64[512]=list:{} --arg f64[512]=0 --arg f64[512]=0",
        list.join(",")
    );
    let p = common::run_functional_ok(src, &tokens(&flags));
    let sines: Vec<f64> = bytes8(&p, 1).into_iter().map(f64::from_le_bytes).collect();
    let cosines: Vec<f64> = bytes8(&p, 2).into_iter().map(f64::from_le_bytes).collect();
    let mut worst = 0;
    for ((x, s), c) in xs.iter().zip(&sines).zip(&cosines) {
        for (name, got, want) in [("sin", *s, x.sin()), ("cos", *c, x.cos())] {
            // Near a zero of the function (|result| < 1e-3) the reduction's rounding, relative to
            // |x|, dominates: there the error is judged absolutely, 4 ulp of max(|x|, 1).
            let d = ulps(got, want);
            if want.abs() >= 1e-3 || want.is_nan() {
                assert!(d <= 2, "{name}({x:e}) = {got:e}, Rust {want:e} ({d} ulp)");
                worst = worst.max(d);
            } else {
                let tol = f64::EPSILON * x.abs().max(1.0) * 4.0;
                assert!(
                    (got - want).abs() <= tol,
                    "{name}({x:e}) = {got:e}, Rust {want:e}"
                );
            }
        }
    }
    eprintln!("sin/cos: worst {worst} ulp over {} inputs", xs.len());
}

#[test]
fn struct_kernel_parameters_are_read_from_the_parameter_space() {
    // A matrix passed by value with its element pointer inside (as the CUDA Programming
    // Guide's shared-memory example passes its matrices), and a struct of numbers with an
    // array member (copied to `.local` so it can be indexed).
    let src = common::data("cuda/struct_params.cu");
    let c = compile(&src, "struct_params.cu").expect("compiles");
    assert!(
        c.ptx.contains(".param .align 8 .b8 affine_param_0[24]")
            && c.ptx.contains(".param .align 8 .b8 affine_param_2[24]"),
        "{}",
        c.ptx
    );
    // `in` is read where it lies, also inside `at` (nvcc's `ld.param`), and so is `out` (only
    // what it points to is written); `s` is copied to `.local` for `s.bump[c & 1]`, as nvcc
    // copies it.
    assert!(c.ptx.contains("[affine_param_0+16]"), "{}", c.ptx);
    assert_eq!(c.ptx.matches(".local .align").count(), 1, "{}", c.ptx);
    let flags = "--grid 3 --block 4 \
        --arg struct:s32=3,s32=2,s32=4,f32[8]=iota \
        --arg struct:s32=4,s32=3,s32=4,f32[12]=0 \
        --arg struct:f32=2.0,f64=0.5,s32=10,s32=20";
    let p = run_ok(&src, &tokens(flags));
    let out = common::f32s(&p, 1);
    let nvcc = run_ok(
        &common::data("cuda/struct_params.sm_52.ptx"),
        &tokens(flags),
    );
    assert_eq!(
        common::f32s(&nvcc, 1),
        out,
        "nvcc's PTX lays the structs out alike"
    );
    for r in 0..3usize {
        for c in 0..4usize {
            let want = if r < 2 && c < 3 {
                2.0 * (r * 4 + c) as f32 + 0.5 + [10.0, 20.0][c & 1]
            } else {
                0.0
            };
            assert_eq!(out[r * 4 + c], want, "row {r} column {c}");
        }
    }
}

#[test]
fn struct_arguments_must_fit_their_parameter() {
    let src = "struct P { int n; float *x; };
extern \"C\" __global__ void k(P p) { p.x[threadIdx.x] = p.n; }
";
    let prepared = prepare_cuda(src, &tokens("--block 4 --arg struct:s32=1,s32=2"));
    let e = prepared.expect_err("too short").to_string();
    assert!(
        e.contains("the struct's fields take 8 bytes, but the parameter has 16"),
        "{e}"
    );
    let e = prepare_cuda(src, &tokens("--block 4 --arg 3"))
        .expect_err("a scalar")
        .to_string();
    assert!(e.contains("pass its fields as struct:TYPE=VALUE"), "{e}");
}

#[test]
fn ldg_loads_through_the_read_only_path_and_refuses_narrow_types() {
    let src = "extern \"C\" __global__ void k(int *o, const int *in) {\n  o[threadIdx.x] = __ldg(in + threadIdx.x) + __ldg(&in[0]);\n}\n";
    let ptx = compile(src, "ldg.cu").unwrap().ptx;
    assert_eq!(ptx.matches("ld.global.nc").count(), 2, "{ptx}");
    let p = run_ok(
        &ptx,
        &tokens("--kernel k --block 32 --arg s32[32]=0 --arg s32[32]=iota"),
    );
    let out = common::i32s(&p, 0);
    assert_eq!(out, (0..32).collect::<Vec<i32>>());
    let e = compile(
        "__global__ void k(char *o, const char *in) {\n  o[0] = __ldg(in);\n}\n",
        "bad.cu",
    )
    .expect_err("must not compile")
    .to_string();
    assert!(e.starts_with("bad.cu:2:10: `__ldg` on this type"), "{e}");
}
