//! The host references of the MRPB experiment's first PolyBench kernels (MRPB Table 2:
//! atax, bicg, mvt, gesummv, 2dconv, syrk, syr2k, gemm; `tests/data/kernels/polybench.cu`), in
//! the way of their parent module's: the elements the launch's threads cover must match the
//! reference within the sum of their terms' magnitudes times 1e-5, every other element must
//! keep its initial value.

use super::{compare, output_2d, product, Launch, Want};
use crate::launch::LaunchFlags;
use crate::sim::Sim;

/// The reference of a vector output whose element `i` the launch's thread `i` computes when
/// `i < n`; every other element keeps its initial value.
fn output_1d(
    initial: &[f32],
    n: usize,
    threads: usize,
    compute: impl Fn(usize, f32) -> Want,
) -> Vec<Want> {
    initial
        .iter()
        .enumerate()
        .map(|(i, &v)| match i < n.min(threads) {
            true => compute(i, v),
            false => Want::exact(v),
        })
        .collect()
}

/// `start + sum_k m[index(k)] v[k]` for `k < n`.
fn dot(m: &[f32], v: &[f32], n: usize, index: impl Fn(usize) -> usize, start: Want) -> Want {
    (0..n).fold(start, |w, k| w.plus(m[index(k)] as f64 * v[k] as f64))
}

/// A row walk `(A, x, out, n)` or a column walk, `out[i] = (keep ? out[i] : 0) + sum_j
/// A[row-major (i, j) or (j, i)] x[j]`; `x` is argument `x_arg`, `out` argument `out_arg`.
fn walk(
    sim: &Sim,
    flags: &LaunchFlags,
    (x_arg, out_arg): (usize, usize),
    by_row: bool,
    keep: bool,
) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (a, x, out0) = (l.initial(0)?, l.initial(x_arg)?, l.initial(out_arg)?);
    let n = l.int(3)?;
    let want = output_1d(&out0, n, l.threads().0, |i, v| {
        let start = if keep {
            Want::start(v)
        } else {
            Want::exact(0.0)
        };
        match by_row {
            true => dot(&a, &x, n, |j| i * n + j, start),
            false => dot(&a, &x, n, |j| j * n + i, start),
        }
    });
    compare("output", &l.now(out_arg)?, &want)
}

/// `atax_1(A, x, tmp, n)`: tmp += A x.
pub fn atax_1(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    walk(sim, flags, (1, 2), true, true)
}

/// `atax_2(A, y, tmp, n)`: y += A^T tmp.
pub fn atax_2(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    walk(sim, flags, (2, 1), false, true)
}

/// `bicg_1(A, r, s, n)`: s = A^T r.
pub fn bicg_1(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    walk(sim, flags, (1, 2), false, false)
}

/// `bicg_2(A, p, q, n)`: q = A p.
pub fn bicg_2(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    walk(sim, flags, (1, 2), true, false)
}

/// `mvt_1(A, x1, y1, n)`: x1 += A y1.
pub fn mvt_1(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    walk(sim, flags, (2, 1), true, true)
}

/// `mvt_2(A, x2, y2, n)`: x2 += A^T y2.
pub fn mvt_2(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    walk(sim, flags, (2, 1), false, true)
}

/// `gesummv(A, B, x, y, tmp, alpha, beta, n)`: tmp += A x, then y = alpha tmp + beta (y + B x).
pub fn gesummv(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (a, b, x) = (l.initial(0)?, l.initial(1)?, l.initial(2)?);
    let (y0, tmp0) = (l.initial(3)?, l.initial(4)?);
    let (alpha, beta, n) = (l.number(5)?, l.number(6)?, l.int(7)?);
    let threads = l.threads().0;
    let tmp = |i: usize| dot(&a, &x, n, |j| i * n + j, Want::start(tmp0[i]));
    let want_tmp = output_1d(&tmp0, n, threads, |i, _| tmp(i));
    let want_y = output_1d(&y0, n, threads, |i, v| {
        let (t, y) = (tmp(i), dot(&b, &x, n, |j| i * n + j, Want::start(v)));
        Want {
            value: alpha * t.value + beta * y.value,
            scale: alpha.abs() * t.scale + beta.abs() * y.scale,
        }
    });
    compare("tmp", &l.now(4)?, &want_tmp)?;
    compare("y", &l.now(3)?, &want_y)
}

/// The 2dconv stencil's weights, row by row (i - 1, i, i + 1) and column by column.
const CONV2D: [[f64; 3]; 3] = [[0.2, -0.3, 0.4], [0.5, 0.6, 0.7], [-0.8, -0.9, 0.10]];

/// `conv2d(A, B, ni, nj)`: B's interior from A's 3 x 3 neighbourhood.
pub fn conv2d(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (a, b0) = (l.initial(0)?, l.initial(1)?);
    let (ni, nj) = (l.int(2)?, l.int(3)?);
    let want = output_2d(&b0, nj, l.threads(), |i, j, _| {
        let inside = i > 0 && j > 0 && i + 1 < ni && j + 1 < nj;
        inside.then(|| {
            let mut w = Want::exact(0.0);
            for (dj, column) in CONV2D.iter().enumerate() {
                for (di, c) in column.iter().enumerate() {
                    let at = (i + di - 1) * nj + (j + dj - 1);
                    w = w.plus(c * a[at] as f64);
                }
            }
            w
        })
    });
    compare("B", &l.now(1)?, &want)
}

/// `syrk(alpha, beta, A, C, n, m)`: C = beta C + alpha A A^T.
pub fn syrk(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (alpha, beta) = (l.number(0)?, l.number(1)?);
    let (a, c0) = (l.initial(2)?, l.initial(3)?);
    let (n, m) = (l.int(4)?, l.int(5)?);
    let want = output_2d(&c0, n, l.threads(), |i, j, c| {
        (i < n && j < n).then(|| {
            (0..m).fold(Want::start(c).scaled(beta), |w, k| {
                w.plus(alpha * a[i * m + k] as f64 * a[j * m + k] as f64)
            })
        })
    });
    compare("C", &l.now(3)?, &want)
}

/// `syr2k(alpha, beta, A, B, C, n, m)`: C = beta C + alpha A B^T + alpha B A^T.
pub fn syr2k(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (alpha, beta) = (l.number(0)?, l.number(1)?);
    let (a, b, c0) = (l.initial(2)?, l.initial(3)?, l.initial(4)?);
    let (n, m) = (l.int(5)?, l.int(6)?);
    let want = output_2d(&c0, n, l.threads(), |i, j, c| {
        (i < n && j < n).then(|| {
            (0..m).fold(Want::start(c).scaled(beta), |w, k| {
                w.plus(alpha * a[i * m + k] as f64 * b[j * m + k] as f64)
                    .plus(alpha * b[i * m + k] as f64 * a[j * m + k] as f64)
            })
        })
    });
    compare("C", &l.now(4)?, &want)
}

/// `gemm(alpha, beta, A, B, C, ni, nj, nk)`: C = beta C + alpha A B.
pub fn gemm(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (alpha, beta) = (l.number(0)?, l.number(1)?);
    let (a, b, c0) = (l.initial(2)?, l.initial(3)?, l.initial(4)?);
    let (ni, nj, nk) = (l.int(5)?, l.int(6)?, l.int(7)?);
    let want = output_2d(&c0, nj, l.threads(), |i, j, c| {
        let start = Want::start(c).scaled(beta);
        (i < ni && j < nj).then(|| product(&a, &b, (i, j), nj, nk, alpha, start))
    });
    compare("C", &l.now(4)?, &want)
}
