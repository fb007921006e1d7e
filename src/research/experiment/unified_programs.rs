//! More host programs of the unified memory experiment (Gebhart et al., MICRO'12, Table 6 and
//! §3.1; issue 33): lu, pcr and GPU-mummer as our kernels of
//! `tests/data/kernels/unified_programs.cu` at Table 1's shapes, and Rodinia's srad as the corpus
//! has it (`ocelot_rodinia_srad_kernel.ptx`, unchanged). Each runs its whole launch sequence on
//! a [`Device`] from inputs drawn from a fixed seed and checks its answer against a Rust
//! reference; the float programs within a stated tolerance of a reference in double precision
//! (the kernels' single precision and fused multiply-adds round differently, a wrong element
//! is off by far more).

use super::host::{Arg, Device};
use super::Size;
use crate::launch::{Dim3, ElemType, SplitMix64};

pub const PROGRAMS_PTX: &str =
    include_str!("../../../tests/data/kernels/unified_programs.sm_52.ptx");
pub const SRAD_PTX: &str =
    include_str!("../../../tests/data/ptx-corpus/ocelot_rodinia_srad_kernel.ptx");

const LU_BS: usize = 16;
const PCR_N: usize = 128;

/// `Ok` when every element of `got` is within `tolerance` of `want`, relative to
/// max(|want|, `floor`); otherwise names the worst element.
pub fn check_close(
    got: &[f32],
    want: &[f64],
    tolerance: f64,
    floor: f64,
    what: &str,
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} values, want {}", got.len(), want.len()));
    }
    let (worst, at) = got
        .iter()
        .zip(want)
        .map(|(&g, &w)| (g as f64 - w).abs() / w.abs().max(floor))
        .enumerate()
        .fold((0.0f64, 0), |(e, i), (j, x)| {
            if x > e || x.is_nan() {
                (x, j)
            } else {
                (e, i)
            }
        });
    if worst <= tolerance {
        Ok(())
    } else {
        Err(format!(
            "{what} differ from the reference: element {at} is {} against {} (relative {worst:.2e}, allowed {tolerance:.0e})",
            got[at], want[at]
        ))
    }
}

/// lu's matrix side.
pub fn lu_size(size: Size) -> usize {
    match size {
        Size::Full => 256,
        Size::Quick => 64,
    }
}

/// A matrix LU factors without pivoting: entries in [-1, 1], the diagonal raised by n / 4.
pub fn lu_matrix(n: usize) -> Vec<f32> {
    let mut rng = SplitMix64::new(52);
    let mut m: Vec<f32> = (0..n * n).map(|_| rng.next_f32() * 2.0 - 1.0).collect();
    for i in 0..n {
        m[i * n + i] += n as f32 / 4.0;
    }
    m
}

/// Doolittle's LU in place, in double precision: L (unit diagonal, not stored) below the
/// diagonal, U on and above it, as `lu_*` leave them.
pub fn lu_reference(m: &[f32], n: usize) -> Vec<f64> {
    let mut a: Vec<f64> = m.iter().map(|&x| x as f64).collect();
    for k in 0..n {
        for i in k + 1..n {
            let l = a[i * n + k] / a[k * n + k];
            a[i * n + k] = l;
            for j in k + 1..n {
                a[i * n + j] -= l * a[k * n + j];
            }
        }
    }
    a
}

/// Rodinia lud's host (lud.cu): per 16-wide diagonal block, `lu_diagonal` (1 CTA of 16),
/// `lu_perimeter` (a CTA of 32 per block to its right) and `lu_internal` (16 x 16 CTAs over the
/// trailing blocks); the last block only `lu_diagonal`.
pub fn lu(device: &mut Device, n: usize) -> Result<(), String> {
    let m = lu_matrix(n);
    let want = lu_reference(&m, n);
    device.upload_f32("m", &m);
    let args = |offset: usize| {
        [
            Arg::Buffer("m"),
            Arg::Value(n as i64),
            Arg::Value(offset as i64),
        ]
    };
    for offset in (0..n - LU_BS).step_by(LU_BS) {
        let rest = ((n - offset) / LU_BS - 1) as u32;
        device.launch("lu_diagonal", Dim3::linear(1), LU_BS as u32, &args(offset))?;
        device.launch(
            "lu_perimeter",
            Dim3::linear(rest),
            2 * LU_BS as u32,
            &args(offset),
        )?;
        let grid = Dim3 {
            x: rest,
            y: rest,
            z: 1,
        };
        let block = Dim3 {
            x: LU_BS as u32,
            y: LU_BS as u32,
            z: 1,
        };
        device.launch_block("lu_internal", grid, block, &args(offset))?;
    }
    device.launch(
        "lu_diagonal",
        Dim3::linear(1),
        LU_BS as u32,
        &args(n - LU_BS),
    )?;
    check_close(&device.f32s("m"), &want, 1e-2, 1e-3, "lu's factors")
}

/// pcr's systems and the matrices they share.
pub fn pcr_shape(size: Size) -> (usize, usize) {
    match size {
        Size::Full => (2048, 64),
        Size::Quick => (32, 4),
    }
}

/// The Thomas algorithm in double precision: x with a x[i-1] + b x[i] + c x[i+1] = d.
pub fn thomas(a: &[f32], b: &[f32], c: &[f32], d: &[f32]) -> Vec<f64> {
    let n = b.len();
    let (mut cp, mut dp) = (vec![0f64; n], vec![0f64; n]);
    for i in 0..n {
        let (ai, bi) = (a[i] as f64, b[i] as f64);
        let (cprev, dprev) = if i == 0 {
            (0.0, 0.0)
        } else {
            (cp[i - 1], dp[i - 1])
        };
        let denom = bi - ai * cprev;
        cp[i] = c[i] as f64 / denom;
        dp[i] = (d[i] as f64 - ai * dprev) / denom;
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        x[i] = dp[i] - if i + 1 < n { cp[i] * x[i + 1] } else { 0.0 };
    }
    x
}

/// `pcr_solve` over `systems` systems of 128 equations (one CTA of 128 each), system s with
/// matrix s % `matrices`: diagonally dominant (b in [2.5, 3.5], a and c in [-1, 1], a[0] = c[127]
/// = 0), right-hand sides in [-1, 1].
pub fn pcr(device: &mut Device, (systems, matrices): (usize, usize)) -> Result<(), String> {
    let mut rng = SplitMix64::new(26);
    let mut coefficient = |lo: f32, hi: f32| {
        (0..matrices * PCR_N)
            .map(|_| lo + rng.next_f32() * (hi - lo))
            .collect::<Vec<f32>>()
    };
    let mut a = coefficient(-1.0, 1.0);
    let b = coefficient(2.5, 3.5);
    let mut c = coefficient(-1.0, 1.0);
    for m in 0..matrices {
        a[m * PCR_N] = 0.0;
        c[m * PCR_N + PCR_N - 1] = 0.0;
    }
    let d: Vec<f32> = (0..systems * PCR_N)
        .map(|_| rng.next_f32() * 2.0 - 1.0)
        .collect();
    let want: Vec<f64> = (0..systems)
        .flat_map(|s| {
            let m = (s % matrices) * PCR_N..(s % matrices + 1) * PCR_N;
            let rhs = &d[s * PCR_N..(s + 1) * PCR_N];
            thomas(&a[m.clone()], &b[m.clone()], &c[m], rhs)
        })
        .collect();
    device.upload("x", ElemType::F32, vec![0; systems * PCR_N * 4]);
    device.upload_f32("a", &a);
    device.upload_f32("b", &b);
    device.upload_f32("c", &c);
    device.upload_f32("d", &d);
    let args = [
        Arg::Buffer("x"),
        Arg::Buffer("a"),
        Arg::Buffer("b"),
        Arg::Buffer("c"),
        Arg::Buffer("d"),
        Arg::Value(matrices as i64),
    ];
    device.launch(
        "pcr_solve",
        Dim3::linear(systems as u32),
        PCR_N as u32,
        &args,
    )?;
    check_close(&device.f32s("x"), &want, 1e-3, 1e-2, "pcr's solutions")
}

/// srad's image (rows, cols) and iterations.
pub fn srad_shape(size: Size) -> (usize, usize, usize) {
    match size {
        Size::Full => (256, 256, 4),
        Size::Quick => (64, 64, 2),
    }
}

/// One iteration of SRAD v2 as Rodinia's two kernels compute it, in double precision: the
/// diffusion coefficient of each pixel from its four neighbours (clamped at the image's edges)
/// and `q0sqr`, then the update with the coefficients of the pixel, its south and its east.
pub fn srad_step(j: &mut [f64], rows: usize, cols: usize, q0sqr: f64, lambda: f64) {
    let at = |j: &[f64], r: usize, c: usize| j[r * cols + c];
    let mut coefficient = vec![0f64; rows * cols];
    let mut deltas = vec![[0f64; 4]; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let jc = at(j, r, c);
            let n = at(j, r.saturating_sub(1), c) - jc;
            let s = at(j, (r + 1).min(rows - 1), c) - jc;
            let w = at(j, r, c.saturating_sub(1)) - jc;
            let e = at(j, r, (c + 1).min(cols - 1)) - jc;
            let g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
            let l = (n + s + w + e) / jc;
            let num = 0.5 * g2 - l * l / 16.0;
            let den = 1.0 + 0.25 * l;
            let qsqr = num / (den * den);
            let den = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
            coefficient[r * cols + c] = (1.0 / (1.0 + den)).clamp(0.0, 1.0);
            deltas[r * cols + c] = [n, s, w, e];
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            let [n, s, w, e] = deltas[r * cols + c];
            let cc = coefficient[r * cols + c];
            let cs = coefficient[(r + 1).min(rows - 1) * cols + c];
            let ce = coefficient[r * cols + (c + 1).min(cols - 1)];
            let sum = cc * n + cs * s + cc * w + ce * e;
            j[r * cols + c] += 0.25 * lambda * sum;
        }
    }
}

/// q0sqr of Rodinia's host: the variance over the squared mean of the region of interest
/// (rows and columns 0..=127 or the whole image if smaller), from the image in single precision.
fn srad_q0sqr(j: &[f32], cols: usize, roi: usize) -> f32 {
    let (mut sum, mut sum2) = (0f32, 0f32);
    for r in 0..roi {
        for &v in &j[r * cols..r * cols + roi] {
            sum += v;
            sum2 += v * v;
        }
    }
    let size = (roi * roi) as f32;
    let mean = sum / size;
    (sum2 / size - mean * mean) / (mean * mean)
}

/// Rodinia srad v2's host (srad.cu): J = exp(image), then per iteration q0sqr over the region
/// of interest on the host, `srad_cuda_1` and `srad_cuda_2` on (cols/16, rows/16) CTAs of
/// 16 x 16; lambda 0.5. The reference takes each iteration's q0sqr from the device's J, as the
/// host does, so the two are compared iteration by iteration's inputs, not drifted apart.
pub fn srad(
    device: &mut Device,
    (rows, cols, iterations): (usize, usize, usize),
) -> Result<(), String> {
    let lambda = 0.5f64;
    let mut rng = SplitMix64::new(2);
    let image: Vec<f32> = (0..rows * cols).map(|_| rng.next_f32().exp()).collect();
    for name in ["E_C", "W_C", "N_C", "S_C", "C"] {
        device.upload(name, ElemType::F32, vec![0; rows * cols * 4]);
    }
    device.upload_f32("J", &image);
    let grid = Dim3 {
        x: (cols / 16) as u32,
        y: (rows / 16) as u32,
        z: 1,
    };
    let block = Dim3 { x: 16, y: 16, z: 1 };
    let mut j = image;
    for _ in 0..iterations {
        let q0sqr = srad_q0sqr(&j, cols, rows.min(cols).min(128));
        let buffers = ["E_C", "W_C", "N_C", "S_C", "J", "C"].map(Arg::Buffer);
        let sizes = [Arg::Value(cols as i64), Arg::Value(rows as i64)];
        let first: Vec<Arg> = buffers
            .iter()
            .chain(&sizes)
            .cloned()
            .chain([Arg::Float(q0sqr.into())])
            .collect();
        device.launch_block("_Z11srad_cuda_1PfS_S_S_S_S_iif", grid, block, &first)?;
        let second: Vec<Arg> = buffers
            .iter()
            .chain(&sizes)
            .cloned()
            .chain([Arg::Float(lambda), Arg::Float(q0sqr.into())])
            .collect();
        device.launch_block("_Z11srad_cuda_2PfS_S_S_S_S_iiff", grid, block, &second)?;
        let mut want: Vec<f64> = j.iter().map(|&v| v as f64).collect();
        srad_step(&mut want, rows, cols, q0sqr.into(), lambda);
        j = device.f32s("J");
        check_close(&j, &want, 1e-4, 1.0, "srad's image")?;
    }
    Ok(())
}

/// GPU-mummer's reference length, trie depth, queries and query length.
pub fn mummer_shape(size: Size) -> (usize, usize, usize, usize) {
    match size {
        Size::Full => (8192, 20, 16384, 24),
        Size::Quick => (512, 12, 512, 16),
    }
}

/// The suffix trie of `text` cut at `depth`: node 0 the root, four child indices a node (-1
/// for none), children numbered in the order the suffixes reach them.
pub fn suffix_trie(text: &[u8], depth: usize) -> Vec<[i32; 4]> {
    let mut nodes = vec![[-1i32; 4]];
    for start in 0..text.len() {
        let mut node = 0;
        for &base in text[start..].iter().take(depth) {
            let child = nodes[node][base as usize];
            node = if child >= 0 {
                child as usize
            } else {
                nodes.push([-1; 4]);
                let new = nodes.len() - 1;
                nodes[node][base as usize] = new as i32;
                new
            };
        }
    }
    nodes
}

/// The bases of `query` the trie matches from its root.
pub fn trie_match(trie: &[[i32; 4]], query: &[u8]) -> i32 {
    let (mut node, mut len) = (0usize, 0);
    for &base in query {
        let next = trie[node][base as usize];
        if next < 0 {
            break;
        }
        node = next as usize;
        len += 1;
    }
    len
}

/// GPU-mummer's pattern: a random reference, its suffix trie, queries drawn from the reference
/// with one base changed at a random place (a third of them at random throughout), one thread
/// a query in CTAs of 256, each thread's match length checked against [`trie_match`].
pub fn mummer(
    device: &mut Device,
    (length, depth, count, query_len): (usize, usize, usize, usize),
) -> Result<(), String> {
    let mut rng = SplitMix64::new(8);
    let text: Vec<u8> = (0..length).map(|_| rng.next_in_range(0, 3) as u8).collect();
    let trie = suffix_trie(&text, depth);
    let mut queries = Vec::with_capacity(count * query_len);
    for q in 0..count {
        if q % 3 == 2 {
            queries.extend((0..query_len).map(|_| rng.next_in_range(0, 3) as u8));
            continue;
        }
        let start = rng.next_in_range(0, (length - query_len) as i128) as usize;
        let mut query = text[start..start + query_len].to_vec();
        let at = rng.next_in_range(0, query_len as i128 - 1) as usize;
        query[at] = (query[at] + 1 + rng.next_in_range(0, 2) as u8) % 4;
        queries.extend(query);
    }
    let want: Vec<i32> = queries
        .chunks(query_len)
        .map(|q| trie_match(&trie, q))
        .collect();
    let words: Vec<i32> = trie.iter().flatten().copied().collect();
    device.upload_i32("matched", &vec![0; count]);
    device.upload_i32("trie", &words);
    device.upload_u8("queries", &queries);
    let args = [
        Arg::Buffer("matched"),
        Arg::Buffer("trie"),
        Arg::Buffer("queries"),
        Arg::Value(query_len as i64),
        Arg::Value(count as i64),
    ];
    let grid = Dim3::linear(count.div_ceil(256) as u32);
    device.launch("mummer_walk", grid, 256, &args)?;
    if device.i32s("matched") == want {
        Ok(())
    } else {
        Err("mummer's match lengths differ from the reference".to_string())
    }
}
