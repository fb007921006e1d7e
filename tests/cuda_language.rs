//! Issue 29: language features of warpstep's CUDA compiler checked by running compiled
//! kernels: `warpSize` from the machine, locals in `.local` memory, `struct` values, 64-bit
//! shuffles and the `double` math functions.

mod common;

use common::run_ok;
use warpstep::cuda::compile;

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
