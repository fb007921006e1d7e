//! The host references of the MRPB experiment's PolyBench programs 2mm, 3mm, 3dconv and fdtd
//! (`tests/data/kernels/polybench_multi.cu`; MRPB Table 2; the first eight programs' kernels
//! in `mrpb_reference_polybench.rs`, the cache-insensitive ports' in `mrpb_reference_ci.rs`)
//! and its Rodinia kernels (NW's and LUD's in `mrpb_reference_rodinia.rs`): each takes a
//! finished simulation and the launch it ran, recomputes what the kernel must have written
//! from the launch's initial buffers (regenerated from their `rand:SEED` specs, since fdtd
//! updates its arrays in place), and compares the output buffer element by element: the
//! elements the launch's threads cover must match the reference, every other element must
//! keep its initial value.
//!
//! The kernels compute in `f32` with nvcc's fused multiply-adds, the references in `f64`; an
//! element matches when it is within 1e-5 of the sum of its terms' magnitudes (a 512-term
//! product accumulates at most about 512 x 2^-24 = 3e-5 of it, and is typically far closer;
//! one missing or wrong term moves it by about 1/512 of it).

use crate::launch::{ArgSpec, Dim3, LaunchFlags, Number};
use crate::sim::Sim;

#[path = "mrpb_reference_polybench.rs"]
mod polybench;
pub use polybench::{
    atax_1, atax_2, bicg_1, bicg_2, conv2d, gemm, gesummv, mvt_1, mvt_2, syr2k, syrk,
};

#[path = "mrpb_reference_ci.rs"]
mod ci;
pub use ci::{ci_conv2d, ci_corr, ci_covar, ci_gemm, ci_mean};

#[path = "mrpb_reference_rodinia.rs"]
mod rodinia;
pub use rodinia::{lud_diagonal, lud_internal, lud_perimeter, nw_lower, nw_upper};

/// A finished launch: its simulation and its flags.
struct Launch<'a> {
    sim: &'a Sim,
    flags: &'a LaunchFlags,
}

impl Launch<'_> {
    fn arg(&self, index: usize) -> Result<&ArgSpec, String> {
        self.flags
            .args
            .get(index)
            .ok_or_else(|| format!("the launch has no argument {index}"))
    }

    /// Buffer argument `index` as the launch initialised it.
    fn initial(&self, index: usize) -> Result<Vec<f32>, String> {
        match self.arg(index)? {
            ArgSpec::Buffer { elem, count, init } => {
                let no_files = |path: &str| Err(format!("{path}: no files here"));
                let bytes = ArgSpec::initial_bytes(*elem, *count, init, &no_files)?;
                Ok(floats(&bytes))
            }
            _ => Err(format!("argument {index} is not a buffer")),
        }
    }

    /// Buffer argument `index` as the launch initialised it, as 32-bit integers.
    fn initial_ints(&self, index: usize) -> Result<Vec<i32>, String> {
        Ok(self
            .initial(index)?
            .into_iter()
            .map(|f| f.to_bits() as i32)
            .collect())
    }

    /// Buffer argument `index` as the kernel left it, as 32-bit integers.
    fn now_ints(&self, index: usize) -> Result<Vec<i32>, String> {
        Ok(self
            .now(index)?
            .into_iter()
            .map(|f| f.to_bits() as i32)
            .collect())
    }

    /// Buffer argument `index` as the kernel left it.
    fn now(&self, index: usize) -> Result<Vec<f32>, String> {
        crate::run::buffer_bytes(self.sim.image(), self.sim.global(), index)
            .map(|b| floats(&b))
            .ok_or_else(|| format!("argument {index} is not a buffer"))
    }

    /// Scalar argument `index`.
    fn number(&self, index: usize) -> Result<f64, String> {
        match self.arg(index)? {
            ArgSpec::Scalar(Number::Int(v)) => Ok(*v as f64),
            ArgSpec::Scalar(Number::Float(v)) => Ok(*v),
            _ => Err(format!("argument {index} is not a number")),
        }
    }

    fn int(&self, index: usize) -> Result<usize, String> {
        Ok(self.number(index)? as usize)
    }

    /// The threads the launch ran in x and y (grid times block).
    fn threads(&self) -> (usize, usize) {
        let one = Dim3::linear(1);
        let (g, b) = (
            self.flags.grid.unwrap_or(one),
            self.flags.block.unwrap_or(one),
        );
        ((g.x * b.x) as usize, (g.y * b.y) as usize)
    }
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A reference value and the sum of its terms' magnitudes (the tolerance's scale).
#[derive(Debug, Clone, Copy)]
struct Want {
    value: f64,
    scale: f64,
}

impl Want {
    fn exact(v: f32) -> Want {
        Want {
            value: v as f64,
            scale: 0.0,
        }
    }

    /// `v` as the first term of a sum (its magnitude counts in the scale).
    fn start(v: f32) -> Want {
        Want::exact(0.0).plus(v as f64)
    }

    fn plus(self, term: f64) -> Want {
        Want {
            value: self.value + term,
            scale: self.scale + term.abs(),
        }
    }

    /// The value times `f` (a factor applied to the whole sum so far, as `C *= beta`).
    fn scaled(self, f: f64) -> Want {
        Want {
            value: self.value * f,
            scale: self.scale * f.abs(),
        }
    }

    /// A difference's own terms added to the scale (they may nearly cancel).
    fn cancelling(self, terms: &[f64]) -> Want {
        Want {
            scale: self.scale + terms.iter().map(|t| t.abs()).sum::<f64>(),
            ..self
        }
    }
}

/// `Err` naming the first element of `what` outside its reference's tolerance.
fn compare(what: &str, got: &[f32], want: &[Want]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, the reference has {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let g = *g as f64;
        if !g.is_finite() || (g - w.value).abs() > 1e-5 * w.scale + 1e-7 {
            return Err(format!(
                "{what}: element {i} is {g}, the reference gives {}",
                w.value
            ));
        }
    }
    Ok(())
}

/// The reference of a row-major `rows x cols` output whose element (i, j) the launch's thread
/// (x = j, y = i) computes when `(i, j)` is inside `covered` and `compute` gives `Some`; every
/// other element keeps its initial value.
fn output_2d(
    initial: &[f32],
    cols: usize,
    covered: (usize, usize),
    compute: impl Fn(usize, usize, f32) -> Option<Want>,
) -> Vec<Want> {
    initial
        .iter()
        .enumerate()
        .map(|(e, &v)| {
            let (i, j) = (e / cols, e % cols);
            (i < covered.1 && j < covered.0)
                .then(|| compute(i, j, v))
                .flatten()
                .unwrap_or(Want::exact(v))
        })
        .collect()
}

/// `start + factor * sum_k a[i][k] b[k][j]` (`a` is `? x nk`, `b` is `nk x nj`).
fn product(
    a: &[f32],
    b: &[f32],
    (i, j): (usize, usize),
    nj: usize,
    nk: usize,
    factor: f64,
    start: Want,
) -> Want {
    (0..nk).fold(start, |w, k| {
        w.plus(factor * a[i * nk + k] as f64 * b[k * nj + j] as f64)
    })
}

/// 2mm's first product, `mm2_1(alpha, A, B, tmp, ni, nj, nk)`: tmp = alpha A B.
pub fn mm2_1(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let alpha = l.number(0)?;
    let (a, b, tmp0) = (l.initial(1)?, l.initial(2)?, l.initial(3)?);
    let (ni, nj, nk) = (l.int(4)?, l.int(5)?, l.int(6)?);
    let want = output_2d(&tmp0, nj, l.threads(), |i, j, _| {
        (i < ni).then(|| product(&a, &b, (i, j), nj, nk, alpha, Want::exact(0.0)))
    });
    compare("tmp", &l.now(3)?, &want)
}

/// 2mm's second product, `mm2_2(beta, tmp, C, D, ni, nl, nj)`: D = beta D + tmp C.
pub fn mm2_2(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let beta = l.number(0)?;
    let (tmp, c, d0) = (l.initial(1)?, l.initial(2)?, l.initial(3)?);
    let (ni, nl, nj) = (l.int(4)?, l.int(5)?, l.int(6)?);
    let want = output_2d(&d0, nl, l.threads(), |i, j, d| {
        let start = Want::exact(0.0).plus(beta * d as f64);
        (i < ni).then(|| product(&tmp, &c, (i, j), nl, nj, 1.0, start))
    });
    compare("D", &l.now(3)?, &want)
}

/// 3mm's product, `mm3(A, B, C, ni, nj, nk)`: C = A B.
pub fn mm3(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (a, b, c0) = (l.initial(0)?, l.initial(1)?, l.initial(2)?);
    let (ni, nj, nk) = (l.int(3)?, l.int(4)?, l.int(5)?);
    let want = output_2d(&c0, nj, l.threads(), |i, j, _| {
        (i < ni).then(|| product(&a, &b, (i, j), nj, nk, 1.0, Want::exact(0.0)))
    });
    compare("C", &l.now(2)?, &want)
}

/// The 3dconv stencil's points (plane, row, column offsets) and weights, as `conv3d` reads
/// them.
const CONV3D: [((i64, i64, i64), f64); 11] = [
    ((-1, -1, -1), 0.5),
    ((1, -1, -1), -0.25),
    ((0, -1, 0), 0.75),
    ((0, 0, 0), 2.0),
    ((0, 1, 0), -0.5),
    ((-1, -1, 1), 0.125),
    ((1, -1, 1), 1.5),
    ((-1, 0, 1), -0.375),
    ((1, 0, 1), 0.625),
    ((-1, 1, 1), -1.25),
    ((1, 1, 1), 0.875),
];

/// `conv3d(A, B, ni, nj, nk, i)`: plane i of B from planes i - 1 to i + 1 of A, interior only.
pub fn conv3d(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (a, b0) = (l.initial(0)?, l.initial(1)?);
    let (ni, nj, nk, plane) = (l.int(2)?, l.int(3)?, l.int(4)?, l.int(5)?);
    let (tx, ty) = l.threads();
    let want: Vec<Want> = b0
        .iter()
        .enumerate()
        .map(|(e, &v)| {
            let (i, j, k) = (e / (nj * nk), e / nk % nj, e % nk);
            let inside = i == plane && i > 0 && i + 1 < ni && j > 0 && j + 1 < nj;
            if !(inside && k > 0 && k + 1 < nk && j < ty && k < tx) {
                return Want::exact(v);
            }
            CONV3D
                .iter()
                .fold(Want::exact(0.0), |w, &((di, dj, dk), c)| {
                    let at = |p: usize, d: i64| (p as i64 + d) as usize;
                    let idx = (at(i, di) * nj + at(j, dj)) * nk + at(k, dk);
                    w.plus(c * a[idx] as f64)
                })
        })
        .collect();
    compare("B", &l.now(1)?, &want)
}

/// fdtd's first kernel, `fdtd_1(fict, ex, ey, hz, nx, ny, t)`: ey[0][j] = fict[t], ey[i][j] -=
/// 0.5 (hz[i][j] - hz[i-1][j]).
pub fn fdtd_1(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (fict, ey0, hz) = (l.initial(0)?, l.initial(2)?, l.initial(3)?);
    let (nx, ny, t) = (l.int(4)?, l.int(5)?, l.int(6)?);
    let want = output_2d(&ey0, ny, l.threads(), |i, j, e| {
        let h = |i: usize| hz[i * ny + j] as f64;
        (i < nx && j < ny).then(|| match i {
            0 => Want::exact(fict[t]),
            _ => Want::start(e)
                .plus(-0.5 * (h(i) - h(i - 1)))
                .cancelling(&[h(i), h(i - 1)]),
        })
    });
    compare("ey", &l.now(2)?, &want)
}

/// fdtd's second kernel, `fdtd_2(ex, ey, hz, nx, ny)`: ex[i][j] -= 0.5 (hz[i][j] -
/// hz[i][j-1]) for j > 0 (ex is nx x (ny + 1)).
pub fn fdtd_2(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (ex0, hz) = (l.initial(0)?, l.initial(2)?);
    let (nx, ny) = (l.int(3)?, l.int(4)?);
    let want = output_2d(&ex0, ny + 1, l.threads(), |i, j, e| {
        let h = |j: usize| hz[i * ny + j] as f64;
        (i < nx && j < ny && j > 0).then(|| {
            Want::start(e)
                .plus(-0.5 * (h(j) - h(j - 1)))
                .cancelling(&[h(j), h(j - 1)])
        })
    });
    compare("ex", &l.now(0)?, &want)
}

/// fdtd's third kernel, `fdtd_3(ex, ey, hz, nx, ny)`: hz[i][j] -= 0.7 (ex[i][j+1] - ex[i][j]
/// + ey[i+1][j] - ey[i][j]).
pub fn fdtd_3(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (ex, ey, hz0) = (l.initial(0)?, l.initial(1)?, l.initial(2)?);
    let (nx, ny) = (l.int(3)?, l.int(4)?);
    let want = output_2d(&hz0, ny, l.threads(), |i, j, h| {
        (i < nx && j < ny).then(|| {
            let terms = [
                ex[i * (ny + 1) + j + 1] as f64,
                -(ex[i * (ny + 1) + j] as f64),
                ey[(i + 1) * ny + j] as f64,
                -(ey[i * ny + j] as f64),
            ];
            Want::start(h)
                .plus(-0.7 * terms.iter().sum::<f64>())
                .cancelling(&terms)
        })
    });
    compare("hz", &l.now(2)?, &want)
}

/// SRAD's first kernel, the corpus's `srad_cuda_1` and our `srad_u_1` alike: `(E_C, W_C, N_C,
/// S_C, J, C, cols, rows, q0sqr)`, the derivatives towards each neighbour (clamped at the
/// border) and the diffusion coefficient saturated to [0, 1]. The derivatives are one `f32`
/// subtraction each, so they must match exactly; C within 1e-4 (or anything in [0, 1] where
/// 1 + den is within 1e-4 of 0, where rounding decides the saturation).
pub fn srad_1(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let j = l.initial(4)?;
    let (cols, rows, q0) = (l.int(6)?, l.int(7)?, l.number(8)?);
    if j.len() != rows * cols {
        return Err(format!("J has {} elements, not {rows} x {cols}", j.len()));
    }
    let mut dirs: [Vec<Want>; 4] = std::array::from_fn(|_| Vec::with_capacity(j.len()));
    let mut c_got = l.now(5)?;
    let mut c_want = Vec::with_capacity(j.len());
    for y in 0..rows {
        for x in 0..cols {
            let jc = j[y * cols + x];
            let d = [
                j[y.saturating_sub(1) * cols + x] - jc,
                j[(y + 1).min(rows - 1) * cols + x] - jc,
                j[y * cols + x.saturating_sub(1)] - jc,
                j[y * cols + (x + 1).min(cols - 1)] - jc,
            ];
            for (out, v) in dirs.iter_mut().zip(d) {
                out.push(Want::exact(v));
            }
            let [n, s, w, e] = d.map(|v| v as f64);
            let jc = jc as f64;
            let g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
            let lap = (n + s + w + e) / jc;
            let den = 1.0 + 0.25 * lap;
            let qsqr = (0.5 * g2 - lap * lap / 16.0) / (den * den);
            let den = (qsqr - q0) / (q0 * (1.0 + q0));
            let k = y * cols + x;
            if (1.0 + den).abs() < 1e-4 && (0.0..=1.0).contains(&c_got[k]) {
                c_got[k] = 0.0;
                c_want.push(Want::exact(0.0));
                continue;
            }
            c_want.push(Want {
                value: (1.0 / (1.0 + den)).clamp(0.0, 1.0),
                scale: 10.0,
            });
        }
    }
    // Argument order E_C, W_C, N_C, S_C; `dirs` is N, S, W, E.
    for (index, (name, dir)) in [("E_C", 3), ("W_C", 2), ("N_C", 0), ("S_C", 1)]
        .into_iter()
        .enumerate()
    {
        compare(name, &l.now(index)?, &dirs[dir])?;
    }
    compare("C", &c_got, &c_want)
}

/// SRAD's second kernel, the corpus's `srad_cuda_2` and our `srad_u_2` alike: `(E_C, W_C,
/// N_C, S_C, J, C, cols, rows, lambda, ...)`, J += lambda / 4 (c N + c_south S + c W +
/// c_east E), the neighbours' coefficients clamped at the border.
pub fn srad_2(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (e, w, n, s) = (l.initial(0)?, l.initial(1)?, l.initial(2)?, l.initial(3)?);
    let (j, c) = (l.initial(4)?, l.initial(5)?);
    let (cols, rows, lambda) = (l.int(6)?, l.int(7)?, l.number(8)?);
    let want = output_2d(&j, cols, (cols, rows), |y, x, jv| {
        let k = y * cols + x;
        let cc = c[k] as f64;
        let cs = c[(y + 1).min(rows - 1) * cols + x] as f64;
        let ce = c[y * cols + (x + 1).min(cols - 1)] as f64;
        let q = 0.25 * lambda;
        Some(
            Want::start(jv)
                .plus(q * cc * n[k] as f64)
                .plus(q * cs * s[k] as f64)
                .plus(q * cc * w[k] as f64)
                .plus(q * ce * e[k] as f64),
        )
    });
    compare("J", &l.now(4)?, &want)
}

/// Hotspot's `calculate_temp`, the corpus's and our `hotspot_u` alike: `(iteration, power,
/// temp_src, temp_dst, grid_cols, grid_rows, border_cols, border_rows, Cap, Rx, Ry, Rz, step,
/// ...)`, `iteration` stencil steps over the whole grid, neighbours clamped at the border (the
/// pyramid recomputes its halo, so every cell of temp_dst is written).
pub fn hotspot(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let steps = l.int(0)?;
    let (power, mut temp) = (l.initial(1)?, l.initial(2)?);
    let (cols, rows) = (l.int(4)?, l.int(5)?);
    let (cap, rx, ry, rz, step) = (
        l.number(8)?,
        l.number(9)?,
        l.number(10)?,
        l.number(11)?,
        l.number(12)?,
    );
    if temp.len() != rows * cols {
        return Err(format!(
            "temp has {} elements, not {rows} x {cols}",
            temp.len()
        ));
    }
    let mut want = Vec::new();
    for _ in 0..steps {
        want = output_2d(&temp, cols, (cols, rows), |y, x, t| {
            let at = |yy: usize, xx: usize| temp[yy * cols + xx] as f64;
            let (n, s) = (at(y.saturating_sub(1), x), at((y + 1).min(rows - 1), x));
            let (w, e) = (at(y, x.saturating_sub(1)), at(y, (x + 1).min(cols - 1)));
            let t = t as f64;
            let delta = power[y * cols + x] as f64
                + (s + n - 2.0 * t) / ry
                + (e + w - 2.0 * t) / rx
                + (80.0 - t) / rz;
            Some(Want::start(t as f32).plus(step / cap * delta))
        });
        temp = want.iter().map(|w| w.value as f32).collect();
    }
    compare("temp_dst", &l.now(3)?, &want)
}

/// Pathfinder's `dynproc_kernel`, the corpus's and our `pathfinder_u` alike: `(iteration, wall,
/// src, results, cols, rows, start_step, border, ...)`, `iteration` rows of the dynamic
/// programme over every column: next[x] = wall[start_step + i][x] + min(prev[x - 1], prev[x],
/// prev[x + 1]), neighbours clamped at the border. Integers: must match exactly.
pub fn pathfinder(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let steps = l.int(0)?;
    let (wall, mut prev) = (l.initial_ints(1)?, l.initial_ints(2)?);
    let (cols, start) = (l.int(4)?, l.int(6)?);
    if prev.len() != cols || wall.len() < (start + steps) * cols {
        return Err(format!(
            "src or wall does not hold {cols} columns of {steps} rows"
        ));
    }
    for i in 0..steps {
        prev = (0..cols)
            .map(|x| {
                let m = prev[x.saturating_sub(1)]
                    .min(prev[x])
                    .min(prev[(x + 1).min(cols - 1)]);
                m + wall[(start + i) * cols + x]
            })
            .collect();
    }
    let got = l.now_ints(3)?;
    match got.iter().zip(&prev).position(|(g, w)| g != w) {
        None if got.len() == prev.len() => Ok(()),
        None => Err(format!("results: {} elements, not {cols}", got.len())),
        Some(i) => Err(format!(
            "results: element {i} is {}, the reference gives {}",
            got[i], prev[i]
        )),
    }
}

/// Backprop's `bpnn_layerforward_CUDA`, the corpus's and our `backprop_u` alike: `(input,
/// output_hidden, input_hidden, hidden_partial_sum, in, hid = 16, ...)`, grid 1 x in / 16 of
/// 16 x 16: block `by` multiplies weight row 1 + 16 by + r (of `hid + 1` columns, column 1 + c)
/// by input 1 + 16 by + r, sums each column down a tree in place (rows r += r + p / 2 for p =
/// 2, 4, 8, 16, where r is a multiple of p), writes the tree back into input_hidden and the
/// column sums (row 0) to hidden_partial_sum[16 by + c]. In `f32` in the kernel's order.
pub fn layerforward(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (input, mut weights) = (l.initial(0)?, l.initial(2)?);
    let mut sums = l.initial(3)?;
    let hid = l.int(5)?;
    let (_, blocks) = l.threads();
    let blocks = blocks / 16;
    let cols = hid + 1;
    if hid != 16 || weights.len() < (16 * blocks + 1) * cols || sums.len() < blocks * hid {
        return Err(format!(
            "hid {hid} or the buffers do not fit {blocks} blocks of 16"
        ));
    }
    for by in 0..blocks {
        let at = |r: usize, c: usize| (16 * by + r + 1) * cols + c + 1;
        let mut m = [[0f32; 16]; 16];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = weights[at(r, c)] * input[16 * by + r + 1];
            }
        }
        for p in [2, 4, 8, 16] {
            for r in (0..16).step_by(p) {
                let below = m[r + p / 2];
                for (v, b) in m[r].iter_mut().zip(below) {
                    *v += b;
                }
            }
        }
        for (r, row) in m.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                weights[at(r, c)] = *v;
            }
        }
        sums[by * hid..by * hid + 16].copy_from_slice(&m[0]);
    }
    let near = |v: &Vec<f32>| -> Vec<Want> {
        v.iter()
            .map(|&x| Want {
                value: x as f64,
                scale: 4.0 * x.abs() as f64,
            })
            .collect()
    };
    compare("input_hidden", &l.now(2)?, &near(&weights))?;
    compare("hidden_partial_sum", &l.now(3)?, &near(&sums))
}
