//! Issue 29: the kernels of tests/data/kernels compiled by warpstep's CUDA compiler and by
//! nvcc 11.8 (the committed `.sm_52.ptx`), run on the same inputs: every buffer ends with the
//! same bytes (floats bit for bit: both contract `a*b+c` to `fma.rn`), the timing runs complete
//! on fermi with the functional results, and warpstep's code runs within 1.5x of nvcc's warp
//! instructions. Also the compiler's error messages (golden PTX: tests/cuda_golden.rs).

mod common;

use common::{data, run_ok, run_report};
use warpstep::cuda::compile;

/// (source, nvcc PTX, launch flags).
const CASES: &[(&str, &str, &str)] = &[
    ("vector_add", "vector_add", "--grid 3 --block 64 --arg f32[150]=rand:1 --arg f32[150]=rand:2 --arg f32[192]=0 --arg 150"),
    ("divergence", "divergence", "--block 16 --arg u32[64]=rand:3:0:1 --arg u32[64]=rand:4:0:1 --arg 4 --arg u32[16]=0 --arg u32[16]=0 --arg u32[16]=0"),
    ("histogram", "histogram", "--grid 3 --block 32 --arg u8[700]=rand:5 --arg 700 --arg u32[64]=0"),
    ("reduction", "reduction", "--grid 4 --block 32 --arg s32[128]=rand:6:-100:100 --arg s32[4]=0 --arg 128"),
    ("vote", "vote", "--block 32 --arg s32[32]=rand:7:0:99 --arg 50 --arg 29 --arg u32[1]=0 --arg s32[1]=0 --arg s32[1]=0 --arg s32[32]=-7"),
    ("shuffle_reduce", "shuffle_reduce", "--kernel warp_sum --grid 2 --block 32 --arg f32[64]=rand:8 --arg f32[2]=0"),
    ("shuffle_reduce", "shuffle_reduce", "--kernel shuffle_modes --grid 2 --block 32 --arg s32[64]=rand:9:-50:50 --arg s32[64]=0 --arg s32[64]=0 --arg s32[64]=0"),
    ("transpose", "transpose", "--kernel transpose_naive --grid 2,2 --block 32,8 --arg f32[4096]=iota --arg f32[4096]=0 --arg 64 --arg 64"),
    ("transpose", "transpose", "--kernel transpose_padded --grid 2,2 --block 32,8 --arg f32[4096]=iota --arg f32[4096]=0 --arg 64 --arg 64"),
    ("spinlock", "spinlock", "--grid 4 --block 1 --arg s32[1]=0 --arg s32[1]=0"),
    ("flags", "flags", "--kernel first_match --grid 2 --block 40 --arg s32[768]=rand:10:-2:9 --arg 12 --arg 64 --arg 5 --arg 0 --arg s32[64]=7 --arg u8[64]=9"),
    ("flags", "flags", "--kernel first_match --grid 2 --block 40 --arg s32[768]=rand:10:-2:9 --arg 12 --arg 64 --arg 5 --arg 1 --arg s32[64]=7 --arg u8[64]=9"),
    ("flags", "flags", "--kernel all_positive --grid 2 --block 64 --arg f32[512]=rand:11:-0.1:1 --arg 512 --arg 1 --arg u8[512]=rand:12:0:1 --arg u8[128]=0 --arg s32[1]=0 --arg s32[2]=-1 --arg s32[2]=-1"),
    ("flags", "flags", "--kernel sort_rows --block 32 --arg s32[256]=rand:13:-99:99 --arg 8 --arg s32[32]=0"),
    ("flags", "flags", "--kernel search_around --grid 2 --block 32 --arg s32[40]=rand:14:0:24 --arg 40 --arg 7 --arg s32[64]=0"),
    ("polybench", "polybench", "--kernel atax_1 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=0 --arg 64"),
    ("polybench", "polybench", "--kernel atax_2 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=rand:3 --arg 64"),
    ("polybench", "polybench", "--kernel bicg_1 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=0 --arg 64"),
    ("polybench", "polybench", "--kernel bicg_2 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=0 --arg 64"),
    ("polybench", "polybench", "--kernel mvt_1 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=rand:2 --arg 64"),
    ("polybench", "polybench", "--kernel mvt_2 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=rand:2 --arg 64"),
    ("polybench", "polybench", "--kernel gesummv --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[4096]=rand:4 --arg f32[64]=rand:10 --arg f32[64]=0 --arg f32[64]=0 --arg 1.5 --arg 0.5 --arg 64"),
    ("polybench", "polybench", "--kernel conv2d --grid 2,8 --block 32,8 --arg f32[4096]=rand:16 --arg f32[4096]=0 --arg 64 --arg 64"),
    ("polybench", "polybench", "--kernel syrk --grid 2,8 --block 32,8 --arg 1.5 --arg 0.5 --arg f32[4096]=rand:11 --arg f32[4096]=rand:12 --arg 64 --arg 64"),
    ("polybench", "polybench", "--kernel syr2k --grid 2,8 --block 32,8 --arg 1.5 --arg 0.5 --arg f32[4096]=rand:11 --arg f32[4096]=rand:5 --arg f32[4096]=rand:12 --arg 64 --arg 64"),
    ("polybench", "polybench", "--kernel gemm --grid 2,8 --block 32,8 --arg 1.5 --arg 0.5 --arg f32[4096]=rand:13 --arg f32[4096]=rand:14 --arg f32[4096]=rand:15 --arg 64 --arg 64 --arg 64"),
    ("nw_tiles", "nw_tiles", "--kernel nw_upper --grid 2 --block 16 --arg s32[1089]=rand:20:-4:11 --arg s32[1089]=rand:21:-9:9 --arg 33 --arg 10 --arg 2"),
    ("nw_tiles", "nw_tiles", "--kernel nw_lower --grid 1 --block 16 --arg s32[1089]=rand:20:-4:11 --arg s32[1089]=rand:21:-9:9 --arg 33 --arg 10 --arg 1 --arg 2"),
];

/// The elastic (issue 14) and unified (issue 16) paper kernels.
const PAPER_CASES: &[(&str, &str, &str)] = &[
    ("elastic", "elastic", "--kernel transpose16 --grid 2,2 --block 16,16 --arg f32[1024]=iota --arg f32[1024]=0 --arg 32 --arg 32"),
    ("elastic", "elastic", "--kernel transpose16_padded --grid 2,2 --block 16,16 --arg f32[1024]=iota --arg f32[1024]=0 --arg 32 --arg 32"),
    ("elastic", "elastic", "--kernel reduce_interleaved --grid 2 --block 128 --arg s32[256]=rand:17:-50:50 --arg s32[2]=0 --arg 256"),
    ("elastic", "elastic", "--kernel dct8x8 --grid 2,1 --block 8,4,2 --arg f32[1024]=0 --arg f32[1024]=rand:18 --arg 64"),
    ("elastic", "elastic", "--kernel idct8x8_padded --grid 2,1 --block 8,4,2 --arg f32[1024]=0 --arg f32[1024]=rand:18 --arg 64"),
    ("elastic", "elastic", "--kernel aes_encrypt --grid 1 --block 256 --arg u32[256]=0 --arg u32[256]=rand:19 --arg u32[44]=rand:20"),
    ("elastic", "elastic", "--kernel aes_decrypt --grid 1 --block 256 --arg u32[256]=0 --arg u32[256]=rand:21 --arg u32[44]=rand:22"),
    ("unified", "unified", "--config unified-micro12 --kernel cache_gather --grid 2 --block 64 --arg u32[128]=0 --arg u32[512]=rand:19 --arg 512 --arg 4"),
    ("unified", "unified", "--config unified-micro12 --kernel dgemm_regblock --grid 2,1 --block 64 --regs 72 --arg f64[2048]=0 --arg f64[2048]=rand:23 --arg f64[1024]=rand:24 --arg 64 --arg 32 --arg 32"),
    ("unified", "unified", "--config unified-micro12 --kernel needle32_1 --grid 1 --block 32 --arg s32[4225]=rand:25:-4:11 --arg s32[4225]=rand:26:-9:9 --arg s32[1]=0 --arg 65 --arg 10 --arg 1 --arg 2"),
    ("unified", "unified", "--config unified-micro12 --kernel needle32p_2 --grid 1 --block 32 --arg s32[4225]=rand:25:-4:11 --arg s32[4225]=rand:26:-9:9 --arg s32[1]=0 --arg 65 --arg 10 --arg 1 --arg 2"),
];

fn tokens(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

/// Runs each case from warpstep's compilation and from nvcc's PTX, checks the buffers are
/// equal, and returns (kernel, warpstep's warp instructions, nvcc's).
fn compare(cases: &[(&str, &str, &str)]) -> Vec<(String, u64, u64)> {
    let mut rows = Vec::new();
    for (src, ptx, flags) in cases {
        let cu = data(&format!("kernels/{src}.cu"));
        let nv = data(&format!("kernels/{ptx}.sm_52.ptx"));
        let f = tokens(flags);
        let ours = run_ok(&cu, &f);
        let theirs = run_ok(&nv, &f);
        // The DCT's `c1*x + c2*y` sums: nvcc contracts one product or the other by a
        // register-pressure heuristic this compiler does not copy (it contracts the left one),
        // so those floats agree to rounding, not bit for bit.
        let tolerant = flags.contains("dct");
        for b in &theirs.image.buffers {
            let (x, y) = (ours.buffer_bytes(b.index), theirs.buffer_bytes(b.index));
            if tolerant {
                let (x, y) = (common::f32s(&ours, b.index), common::f32s(&theirs, b.index));
                for (a, c) in x.iter().zip(&y) {
                    assert!(
                        (a - c).abs() <= 1e-5 * (1.0 + c.abs()),
                        "{src} {flags}: {a} vs nvcc's {c}"
                    );
                }
                continue;
            }
            assert!(
                x == y,
                "{src} {flags}: buffer argument {} differs from nvcc's",
                b.index
            );
        }
        let (_, ro) = run_report(&cu, &f);
        let (_, rn) = run_report(&nv, &f);
        rows.push((
            format!("{src} {}", ro.kernel),
            ro.warp_instructions,
            rn.warp_instructions,
        ));
    }
    for (name, ours, theirs) in &rows {
        eprintln!(
            "{name:40} warpstep {ours:8} nvcc {theirs:8} ratio {:.2}",
            *ours as f64 / *theirs as f64
        );
    }
    rows
}

/// Warp instructions within `limit` times nvcc's (issue 29 asks for 1.5x).
fn within(rows: &[(String, u64, u64)], limit: f64) {
    for (name, ours, theirs) in rows {
        assert!(
            (*ours as f64) <= limit * (*theirs as f64),
            "{name}: {ours} warp instructions against nvcc's {theirs}"
        );
    }
}

#[test]
fn kernels_compiled_by_warpstep_match_nvcc() {
    let rows = compare(CASES);
    within(&rows, 1.5);
}

#[test]
fn paper_kernels_compiled_by_warpstep_match_nvcc() {
    let rows = compare(PAPER_CASES);
    within(&rows, 1.5);
}

#[test]
fn plain_names_find_mangled_kernels() {
    let src = "__global__ void scale(float *x, float a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= a;\n}\n";
    let c = compile(src, "scale.cu").expect("compiles");
    assert_eq!(c.kernels[0].ptx, "_Z5scalePffi");
    assert_eq!(c.resolve_kernel("scale"), Some("_Z5scalePffi"));
    let p = run_ok(
        src,
        &tokens("--kernel scale --block 32 --arg f32[32]=2 --arg 1.5 --arg 20"),
    );
    let out = common::f32s(&p, 0);
    assert_eq!(&out[..21], &[[3.0f32; 20].as_slice(), &[2.0]].concat()[..]);
}

#[test]
fn template_instances_are_named_on_launch() {
    let src = "template <int S>\n__global__ void stride(int *x) {\n  x[threadIdx.x * S] = S;\n}\n";
    let p = run_ok(src, &tokens("--kernel stride<2> --block 4 --arg s32[8]=0"));
    assert_eq!(common::i32s(&p, 0), vec![2, 0, 2, 0, 2, 0, 2, 0]);
    let explicit = format!("{src}template __global__ void stride<3>(int *);\n");
    let c = compile(&explicit, "t.cu").expect("compiles");
    assert_eq!(c.kernels[0].ptx, "_Z6strideILi3EEvPi");
}

fn error_of(src: &str) -> String {
    compile(src, "bad.cu")
        .expect_err("must not compile")
        .to_string()
}

#[test]
fn errors_name_the_place_and_what_was_expected() {
    let e = error_of("__global__ void k(int *x) {\n  x[0] = 1\n}\n");
    assert_eq!(
        e,
        "bad.cu:3:1: expected `;` after the expression, found `}`"
    );
    let e = error_of("__device__ int f(int n) { return n ? f(n - 1) : 0; }\n__global__ void k(int *x) { x[0] = f(3); }\n");
    assert!(
        e.starts_with("bad.cu:1:") && e.contains("recursion is not supported: `f` calls itself"),
        "{e}"
    );
    let e = error_of("class A { int x; };\n__global__ void k(int *x) {}\n");
    assert_eq!(e, "bad.cu:1:1: classes are not supported");
    let e = error_of("__global__ void k(int *x) {\n  x[0] = y;\n}\n");
    assert_eq!(e, "bad.cu:2:10: use of undeclared identifier `y`");
}

#[test]
fn host_code_and_includes_are_skipped_with_notes() {
    let src = "#include <cstdio>\n// warpstep: --block 4 --arg s32[4]=0\nextern \"C\" __global__ void k(int *x) { x[threadIdx.x] = 7; }\nint main() { k<<<1, 4>>>(nullptr); return 0; }\n";
    let c = compile(src, "host.cu").expect("compiles");
    assert_eq!(c.notes.len(), 2, "{:?}", c.notes);
    assert!(c.ptx.starts_with("// warpstep: --block 4"));
    let p = run_ok(src, &[]);
    assert_eq!(common::i32s(&p, 0), vec![7; 4]);
}

#[test]
fn structs_switch_constants_typedefs_and_device_functions() {
    let src = "struct P { int a; float b; };
typedef unsigned int u32;
__constant__ float coef[3] = {0.5f, 1.0f, 2.0f};
__device__ float twice(float x) { return 2.0f * x; }
extern \"C\" __global__ void k(P *ps, float *out, u32 n) {
  u32 i = threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  switch (ps[i].a % 3) {
    case 0: s = coef[0]; break;
    case 1: s = coef[1]; break;
    default: s = coef[2];
  }
  ps[i].a += 1;
  out[i] = twice(s) + ps[i].b + (float)sqrtf(4.0f) + fmaxf(1.0f, -1.0f) + (i > 2 ? 1 : 0);
}
";
    // P { a = 2i, b = the float with bits 2i + 1 (a denormal, ~0) }.
    let p = run_ok(
        src,
        &tokens("--block 8 --arg u32[16]=iota --arg f32[8]=0 --arg 6"),
    );
    assert_eq!(
        common::f32s(&p, 1),
        vec![4.0, 7.0, 5.0, 5.0, 8.0, 6.0, 0.0, 0.0]
    );
    let a: Vec<u32> = common::u32s(&p, 0).into_iter().step_by(2).collect();
    assert_eq!(a, vec![1, 3, 5, 7, 9, 11, 12, 14]);
}

#[test]
fn a_loader_error_on_generated_ptx_says_so() {
    // `--kernel` naming no kernel is a launch error, not a PTX line.
    let src = "extern \"C\" __global__ void k(int *x) { x[0] = 1; }\n";
    let flags =
        warpstep::launch::LaunchFlags::parse_tokens(&["--kernel", "nope", "--arg", "s32[1]=0"])
            .expect("flags");
    let config_for = |n: &str| warpstep::config::Config::preset(n).map_err(|e| e.to_string());
    let e =
        warpstep::run::prepare_source(src, "k.cu", flags, &config_for, &|_| Err("no files".into()))
            .map(|_| ())
            .expect_err("no such kernel");
    assert!(e.to_string().contains("nope"), "{e}");
    let bad = warpstep::run::InputError::GeneratedPtx {
        file: "k.cu".into(),
        error: warpstep::ptx::load("bogus").expect_err("not PTX"),
    };
    assert!(
        bad.to_string()
            .contains("the PTX that warpstep compiled from k.cu"),
        "{bad}"
    );
}

#[test]
fn cli_prints_ptx_and_runs_cuda() {
    let exe = env!("CARGO_BIN_EXE_warpstep");
    let file = format!(
        "{}/tests/data/kernels/vector_add.cu",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = std::process::Command::new(exe)
        .args(["ptx", &file])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let ptx = String::from_utf8_lossy(&out.stdout);
    assert!(
        ptx.contains(".visible .entry vector_add(") && ptx.contains(".loc\t1 4 "),
        "{ptx}"
    );
    let run = std::process::Command::new(exe)
        .args([
            "run",
            &file,
            "--grid",
            "2",
            "--block",
            "32",
            "--arg",
            "f32[64]=1",
            "--arg",
            "f32[64]=2",
        ])
        .args([
            "--arg",
            "f32[64]=0",
            "--arg",
            "64",
            "--dump",
            "2",
            "--functional",
        ])
        .output()
        .expect("runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("arg 2: [3.0, 3.0"));
    let dir = std::env::temp_dir().join(format!("warpstep-cuda-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.cu");
    std::fs::write(&bad, "__global__ void k(int *x) {\n  x[0] = ;\n}\n").expect("write");
    let out = std::process::Command::new(exe)
        .args(["run", bad.to_str().unwrap_or("")])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.cu:2:10: expected an expression, found `;`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_launch_line_names_its_cuda_line() {
    let src = "#include <cstdio>\n\n// warpstep: --block 4 --arg s32[4]=0\nextern \"C\" __global__ void k(int *x) {\n  x[threadIdx.x] = 1;\n}\n// warpstep: --grid zero\n";
    let c = compile(src, "k.cu").expect("compiles");
    assert_eq!(c.launch_lines, vec![3, 7]);
    assert_eq!(c.launch_source_line(2), Some(7));
    assert_eq!(c.launch_source_line(3), None);
    let config_for = |n: &str| warpstep::config::Config::preset(n).map_err(|e| e.to_string());
    let e = warpstep::run::prepare_source(
        src,
        "k.cu",
        warpstep::launch::LaunchFlags::default(),
        &config_for,
        &|_| Err("no files".into()),
    )
    .map(|_| ())
    .expect_err("bad --grid");
    assert!(e.to_string().starts_with("line 7 (// warpstep:): "), "{e}");
}
