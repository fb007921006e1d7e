//! The host references of the MRPB experiment's cache-insensitive ports (suite `PolyBench
//! CI`; `tests/data/kernels/polybench_ci.cu`): kernels of ours with the access patterns and
//! launches of the PolyBench/GPU ports of gemm, correlation, covariance and 2dconv, programs
//! MRPB Table 2 (HPCA 2014) counts as cache-insensitive. The ports fix their sizes at compile
//! time, so these kernels fix theirs at 256 (`N`) and the references read the launch only
//! for its buffers, its scalars and how many threads it ran. As in the parent module, the
//! elements the launch's threads write must match the reference within 1e-5 of the sum of
//! their terms' magnitudes (the kernels sum in `f32`, the references in `f64`), every other
//! element must keep its initial value.

use super::{compare, output_2d, product, Launch, Want};
use crate::launch::LaunchFlags;
use crate::sim::Sim;

/// `PB_N`: the rows and columns of every matrix the CI kernels walk.
const N: usize = 256;

/// `Err` unless `v` (argument `what`) holds at least `len` elements (the kernels index up to
/// `len` whatever the buffer's size).
fn holds(what: &str, v: &[f32], len: usize) -> Result<(), String> {
    match v.len() >= len {
        true => Ok(()),
        false => Err(format!(
            "{what} has {} elements, the kernel reads {len}",
            v.len()
        )),
    }
}

/// PolyBench/GPU's gemm (MRPB Table 2, cache-insensitive), `ci_gemm(alpha, beta, a, b, c)`:
/// thread (x = j, y = i) scales c[i][j] by beta, then adds alpha a[i][k] b[k][j] for k < 256.
pub fn ci_gemm(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (alpha, beta) = (l.number(0)?, l.number(1)?);
    let (a, b, c0) = (l.initial(2)?, l.initial(3)?, l.initial(4)?);
    for (what, v) in [("a", &a), ("b", &b), ("c", &c0)] {
        holds(what, v, N * N)?;
    }
    let want = output_2d(&c0, N, l.threads(), |i, j, c| {
        let start = Want::start(c).scaled(beta);
        (i < N && j < N).then(|| product(&a, &b, (i, j), N, N, alpha, start))
    });
    compare("c", &l.now(4)?, &want)
}

/// The column means of PolyBench/GPU's correlation and covariance (MRPB Table 2,
/// cache-insensitive), `ci_mean(mean, data, n)`: thread `col` (< 256) sets mean[col] to the sum
/// of data[r][col] over the first `n` rows, divided by `n`.
pub fn ci_mean(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (mean0, data) = (l.initial(0)?, l.initial(1)?);
    let n = l.int(2)?;
    if n == 0 {
        return Err("n is 0: every mean would be 0 / 0".into());
    }
    holds("mean", &mean0, N)?;
    holds("data", &data, n * N)?;
    let columns = (l.threads().0, 1);
    let want = output_2d(&mean0, mean0.len(), columns, |_, col, _| {
        (col < N).then(|| {
            (0..n)
                .fold(Want::exact(0.0), |w, r| w.plus(data[r * N + col] as f64))
                .scaled(1.0 / n as f64)
        })
    });
    compare("mean", &l.now(0)?, &want)
}

/// `ci_corr(sym, data, n)` or `ci_covar(sym, data, n)`: thread j1 (below `threads` and
/// `last`) sets sym[j1][j2] for each j2 after j1 (from j1 on when `unit_diagonal` is false)
/// to the sum of data[r][j1] data[r][j2] over the first `n` rows and copies it to sym[j2][j1];
/// with `unit_diagonal` it sets sym[j1][j1] to 1. So element (i, j) is thread min(i, j)'s.
fn symmetric(l: &Launch, last: usize, unit_diagonal: bool) -> Result<(), String> {
    let (sym0, data) = (l.initial(0)?, l.initial(1)?);
    let n = l.int(2)?;
    holds("sym", &sym0, N * N)?;
    holds("data", &data, n * N)?;
    let writers = l.threads().0.min(last);
    let want = output_2d(&sym0, N, (N, N), |i, j, _| {
        (i.min(j) < writers).then(|| match i == j && unit_diagonal {
            true => Want::exact(1.0),
            false => (0..n).fold(Want::exact(0.0), |w, r| {
                w.plus(data[r * N + i] as f64 * data[r * N + j] as f64)
            }),
        })
    });
    compare("sym", &l.now(0)?, &want)
}

/// The correlation matrix kernel of PolyBench/GPU's correlation (MRPB Table 2,
/// cache-insensitive), `ci_corr(sym, data, n)`: threads j1 < 255, a unit diagonal, and
/// sym[j1][j2] = sym[j2][j1] = sum over the first `n` rows of data[r][j1] data[r][j2] for
/// j2 > j1 (the kernel multiplies `data` as it is given: the case's is not centred or scaled).
/// sym[255][255] keeps its initial value.
pub fn ci_corr(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    symmetric(&Launch { sim, flags }, N - 1, true)
}

/// The covariance matrix kernel of PolyBench/GPU's covariance (MRPB Table 2,
/// cache-insensitive), `ci_covar(sym, data, n)`: threads j1 < 256, sym[j1][j2] = sym[j2][j1]
/// = sum over the first `n` rows of data[r][j1] data[r][j2] for j2 >= j1.
pub fn ci_covar(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    symmetric(&Launch { sim, flags }, N, false)
}

/// `ci_conv2d`'s weights as the CUDA declares them, `w[3][3]`: the kernel reads w[dc + 1][dr
/// + 1] for the point (row + dr, col + dc), so the first index is the column offset.
const CONV2D: [[f32; 3]; 3] = [[0.2, -0.3, 0.4], [0.5, 0.6, 0.7], [-0.8, -0.9, 0.1]];

/// PolyBench/GPU's 2dconv (MRPB Table 2, cache-insensitive), `ci_conv2d(in, out)`: thread
/// (x = col, y = row) of an interior point (rows and columns 1 to 254) writes out[row][col] =
/// the sum of w[dc + 1][dr + 1] in[row + dr][col + dc] over dr, dc in -1..=1; the border keeps
/// its initial values.
pub fn ci_conv2d(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (input, out0) = (l.initial(0)?, l.initial(1)?);
    holds("in", &input, N * N)?;
    holds("out", &out0, N * N)?;
    let want = output_2d(&out0, N, l.threads(), |row, col, _| {
        let inside = row > 0 && col > 0 && row + 1 < N && col + 1 < N;
        inside.then(|| {
            let mut s = Want::exact(0.0);
            for dr in 0..3 {
                for (dc, by_row) in CONV2D.iter().enumerate() {
                    let at = (row + dr - 1) * N + col + dc - 1;
                    s = s.plus(by_row[dr] as f64 * input[at] as f64);
                }
            }
            s
        })
    });
    compare("out", &l.now(1)?, &want)
}

#[cfg(test)]
mod tests {
    use crate::research::experiment::tests::{checked, measure_on_base_s};
    use crate::research::experiment::{mrpb::CASES, Case, Check, Suite};

    fn ci(name: &'static str, check: Check, flags: &'static [&'static str]) -> Case {
        let ptx = include_str!("../../../tests/data/kernels/polybench_ci.sm_52.ptx");
        checked(ptx, name, check, flags)
    }

    /// The five CI kernels on small launches (the sizes are fixed at 256, so fewer threads or
    /// rows): gemm_ci's and conv2d_ci's first blocks (the rest of the output, and conv2d's
    /// border, must keep its random initial values), corr_ci and covar_ci over 4 rows with all
    /// 256 threads (corr's thread 255 writes nothing), mean_ci's first 128 columns of 8 rows;
    /// then three launches checked against another kernel's reference, each with the error it
    /// must give.
    #[rustfmt::skip]
    fn tiny_ci() -> Vec<(Case, Option<&'static str>)> {
        use super::{ci_conv2d, ci_corr, ci_covar, ci_gemm, ci_mean};
        const CORR: &[&str] = &["--kernel", "ci_corr", "--grid", "1", "--block", "256",
            "--arg", "f32[65536]=rand:4", "--arg", "f32[1024]=rand:1", "--arg", "4"];
        const COVAR: &[&str] = &["--kernel", "ci_covar", "--grid", "1", "--block", "256",
            "--arg", "f32[65536]=rand:4", "--arg", "f32[1024]=rand:1", "--arg", "4"];
        vec![
            (ci("gemm_ci", ci_gemm, &["--kernel", "ci_gemm", "--grid", "2,1", "--block", "32,8",
                "--arg", "1.5", "--arg", "1.2", "--arg", "f32[65536]=rand:1",
                "--arg", "f32[65536]=rand:2", "--arg", "f32[65536]=rand:3"]), None),
            (ci("corr_ci", ci_corr, CORR), None),
            (ci("covar_ci", ci_covar, COVAR), None),
            (ci("mean_ci", ci_mean, &["--kernel", "ci_mean", "--grid", "1", "--block", "128",
                "--arg", "f32[256]=rand:3", "--arg", "f32[2048]=rand:1", "--arg", "8"]), None),
            (ci("conv2d_ci", ci_conv2d, &["--kernel", "ci_conv2d", "--grid", "2,8",
                "--block", "32,8", "--arg", "f32[65536]=rand:1", "--arg", "f32[65536]=rand:2"]),
                None),
            // covar's diagonal holds each column's sum of squares, corr's is 1 ...
            (ci("covar_ci_as_corr_ci", ci_corr, COVAR),
                Some("wrong output: sym: element 0 is ")),
            (ci("corr_ci_as_covar_ci", ci_covar, CORR),
                Some("wrong output: sym: element 0 is 1, the reference gives ")),
            // ... and is no column mean.
            (ci("corr_ci_as_mean_ci", ci_mean, CORR),
                Some("wrong output: mean: element 0 is 1, the reference gives ")),
        ]
    }

    #[test]
    fn the_cache_insensitive_ports_compute_what_their_host_references_do() {
        let (cases, errors): (Vec<Case>, Vec<_>) = tiny_ci().into_iter().unzip();
        for ((case, m), error) in cases.iter().zip(measure_on_base_s(&cases)).zip(errors) {
            assert!(m.stats.cycles > 0, "{}", case.name());
            match error {
                None => assert_eq!(m.error, None, "{}", case.name()),
                Some(start) => {
                    let got = m.error.unwrap_or_default();
                    assert!(got.starts_with(start), "{}: {got}", case.name());
                }
            }
        }
        let ports: Vec<&Case> = CASES
            .iter()
            .filter(|c| c.suite == Suite::PolyBenchCi)
            .collect();
        assert_eq!(ports.len(), 5);
        for case in ports {
            assert!(case.check.is_some(), "{}", case.name());
        }
    }
}
