//! Issue 29: the `double` math functions PTX has no instruction for (`exp2`, `log2`, `log10`,
//! `pow`, `rsqrt`, `tan`), compiled by warpstep's CUDA compiler into software sequences, checked
//! against Rust's `f64` functions on many inputs with C's values at the special cases.

mod common;

use common::ulps;

fn tokens(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

fn spec(x: f64) -> String {
    match x {
        x if x.is_nan() => "nan".into(),
        x if x == f64::INFINITY => "inf".into(),
        x if x == f64::NEG_INFINITY => "-inf".into(),
        x => format!("{x:e}"),
    }
}

/// `count` pseudo-random numbers in [lo, hi).
fn uniform(count: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// Runs `y[i] = EXPR` (of `x[i]`, and `z[i]` if it is named) over 1,024 threads and returns y.
fn run(expr: &str, xs: &[f64], zs: &[f64]) -> Vec<f64> {
    assert_eq!(xs.len(), 1024);
    let src = format!(
        "extern \"C\" __global__ void k(const double *x, const double *z, double *y) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double a = x[i], b = z[i];
  y[i] = {expr};
}}
"
    );
    let list = |v: &[f64]| v.iter().map(|x| spec(*x)).collect::<Vec<_>>().join(",");
    let zs = if zs.is_empty() {
        vec![0.0; 1024]
    } else {
        zs.to_vec()
    };
    let flags = format!(
        "--grid 8 --block 128 --arg f64[1024]=list:{} --arg f64[1024]=list:{} --arg f64[1024]=0",
        list(xs),
        list(&zs)
    );
    let p = common::run_functional_ok(&src, &tokens(&flags));
    common::f64s(&p, 2)
}

/// Specials first, then uniform inputs in [lo, hi), 1,024 in all.
fn inputs(specials: &[f64], seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut xs = specials.to_vec();
    xs.extend(uniform(1024 - xs.len(), seed, lo, hi));
    xs
}

fn check(name: &str, xs: &[f64], got: &[f64], want: impl Fn(f64) -> f64, bound: u64) {
    let mut worst = 0;
    for (x, y) in xs.iter().zip(got) {
        let w = want(*x);
        let d = ulps(*y, w);
        assert!(d <= bound, "{name}({x:e}) = {y:e}, Rust {w:e} ({d} ulp)");
        worst = worst.max(d);
    }
    eprintln!("{name}: worst {worst} ulp over {} inputs", xs.len());
}

const SPECIALS: [f64; 8] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

#[test]
fn exp2_is_within_two_ulp() {
    let mut specials = SPECIALS.to_vec();
    specials.extend([1023.5, 1024.5, -1022.0, -1074.0, -1080.0, 1e-300, 7.0]);
    let xs = inputs(&specials, 0x1234_5678_9abc_def1, -1074.0, 1024.0);
    let got = run("exp2(a)", &xs, &[]);
    check("exp2", &xs, &got, f64::exp2, 2);
    assert_eq!(got[specials.len() - 1], 128.0, "exp2(7) is exact");
}

#[test]
fn log2_and_log10_are_within_four_ulp() {
    let mut specials = SPECIALS.to_vec();
    specials.extend([2.0, 1024.0, 1e-300, 5e-324, f64::MAX, 1.0 + 1e-12]);
    let mut xs = specials.clone();
    for (k, e) in uniform(1024 - xs.len(), 0xdead_beef_cafe_f00d, -1000.0, 1000.0)
        .into_iter()
        .enumerate()
    {
        xs.push(if k % 4 == 0 {
            1.0 + e * 1e-5
        } else {
            2f64.powf(e)
        });
    }
    check("log2", &xs, &run("log2(a)", &xs, &[]), f64::log2, 4);
    check("log10", &xs, &run("log10(a)", &xs, &[]), f64::log10, 4);
    let got = run("log2(a)", &xs, &[]);
    assert_eq!(got[specials.len() - 5], 10.0, "log2(1024)");
}

#[test]
fn rsqrt_is_within_two_ulp() {
    let mut specials = SPECIALS.to_vec();
    specials.extend([4.0, 0.25, f64::MAX, f64::MIN_POSITIVE]);
    let mut xs = specials.clone();
    for e in uniform(1024 - xs.len(), 0x0bad_cafe_1234_5678, -1000.0, 1000.0) {
        xs.push(2f64.powf(e));
    }
    let want = |x: f64| 1.0 / x.sqrt();
    check("rsqrt", &xs, &run("rsqrt(a)", &xs, &[]), want, 2);
}

#[test]
fn tan_is_within_four_ulp() {
    let specials = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-300];
    let xs = inputs(&specials, 0x5151_7272_9393_b4b4, -1000.0, 1000.0);
    check("tan", &xs, &run("tan(a)", &xs, &[]), f64::tan, 4);
}

#[test]
fn pow_follows_c_and_grows_its_error_with_the_exponent() {
    let xs = inputs(&[], 0x7777_1111_3333_5555, 0.0, 100.0);
    let ys = uniform(1024, 0x2468_ace0_1357_9bdf, -20.0, 20.0);
    let got = run("pow(a, b)", &xs, &ys);
    let mut worst = 0.0f64;
    for ((x, y), p) in xs.iter().zip(&ys).zip(&got) {
        let want = x.powf(*y);
        // About 2^-52 |y ln x| more than a correctly rounded pow, as the sequence says.
        let bound = 4 + (4.0 * (y * x.ln()).abs()) as u64;
        let d = ulps(*p, want);
        assert!(
            d <= bound,
            "pow({x:e}, {y:e}) = {p:e}, Rust {want:e} ({d} ulp)"
        );
        worst = worst.max(d as f64 / bound as f64);
    }
    eprintln!("pow: worst {:.2} of its bound", worst);
    // C's cases, at run time and with a constant integer exponent (repeated squaring).
    let mut xs = vec![0.0; 1024];
    let mut ys = vec![0.0; 1024];
    let cases = [
        (-2.0, 3.0, -8.0),
        (-2.0, 2.0, 4.0),
        (-2.0, 0.5, f64::NAN),
        (5.0, 0.0, 1.0),
        (0.0, 2.5, 0.0),
        (0.0, -1.0, f64::INFINITY),
        (2.0, -2.0, 0.25),
    ];
    for (i, (x, y, _)) in cases.iter().enumerate() {
        xs[i] = *x;
        ys[i] = *y;
    }
    let got = run("pow(a, b)", &xs, &ys);
    for (i, (x, y, want)) in cases.iter().enumerate() {
        // The sign, NaN, infinity, 0 and 1 exactly; the magnitude within a few ulp.
        let d = ulps(got[i], *want);
        assert!(d <= 4, "pow({x}, {y}) = {} ({d} ulp from {want})", got[i]);
    }
    let xs = inputs(&[-3.0, 0.0, 2.0], 0x1357_2468_9bdf_ace0, -10.0, 10.0);
    let cubes = run("pow(a, 3.0) + pow(a, -2)", &xs, &[]);
    let want = |x: f64| x * x * x + 1.0 / (x * x);
    check("pow(x, 3) + pow(x, -2)", &xs, &cubes, want, 2);
}
