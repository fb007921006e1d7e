//! The host references of `tests/data/kernels/xor_more.cu`'s kernels (the XOR paper's LUD-2,
//! lavaMD, FFT-1 and FFT-2, van den Braak et al., IEEE TC, Table 5), as `xor_reference.rs`'s:
//! each reads a finished simulation's buffers and compares what the kernel wrote with what the
//! host computes; a difference is the run's error. Each check is a function of the buffers
//! ([`lud_diagonal_of`], [`lava_md_of`], [`fft_of`], [`split_sort_of`]) so a test can hand it a
//! wrong output.

use super::xor_reference::{doubles, floats, same, words};
use super::xor_reference_suite::{lud_input, LUD_TILE};
use crate::sim::Sim;

/// `lud_diagonal(m)` on `LUD_INPUT`'s random batch of 16 x 16 tiles (tile b at 256 b): each tile
/// factorised in place (Doolittle, no pivoting) in f32 with the kernel's order of operations (step
/// i: L's column i on rows t > i, each `-= l[t][j] * u[j][i]` for j < i then `/= u[i][i]`; then U's
/// row i + 1 on columns t > i, `-= l[i + 1][j] * u[j][t]` for j <= i; nvcc's PTX has `mul.f32`
/// then `sub.f32`, no fused multiply-add), so the match is bit-exact. Row 0 is never stored back
/// (nothing changes it).
pub fn lud_diagonal_of(out: &[f32], input: &[f32]) -> Result<(), String> {
    let b = LUD_TILE;
    if input.is_empty() || input.len() % (b * b) != 0 || out.len() != input.len() {
        return Err(format!(
            "lud_diagonal: {} elements in, {} out, not whole 16 x 16 tiles",
            input.len(),
            out.len()
        ));
    }
    let mut want = input.to_vec();
    for a in want.chunks_mut(b * b) {
        for i in 0..b - 1 {
            for t in i + 1..b {
                for j in 0..i {
                    let prod = a[t * b + j] * a[j * b + i];
                    a[t * b + i] -= prod;
                }
                a[t * b + i] /= a[i * b + i];
            }
            for t in i + 1..b {
                for j in 0..=i {
                    let prod = a[(i + 1) * b + j] * a[j * b + t];
                    a[(i + 1) * b + t] -= prod;
                }
            }
        }
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    same("lud_diagonal (f32 bits)", &bits(out), &bits(&want))
}

/// [`lud_diagonal_of`] on a finished run.
pub fn lud_diagonal(sim: &Sim) -> Result<(), String> {
    let out = floats(sim, 0)?;
    lud_diagonal_of(&out, &lud_input(out.len())?)
}

/// Particles in a lavaMD box (Rodinia's NUMBER_PAR_PER_BOX).
pub const PAR_PER_BOX: usize = 100;

/// The tolerance of the lavaMD check, relative to the sum of the magnitudes of an output's terms.
/// The kernel computes in f64, as Rodinia's (`fp` is double), and sums up to 2,700 terms (27 boxes
/// of 100); each term is a few f64 operations off the host's (nvcc's `exp` is within 1 ulp, and
/// its `fma.rn.f64` contractions round once where the host rounds twice; r2's inputs are below 1,
/// so its rounding moves vij by about a2 x 3 x 2^-53, under 2^-53 relative), so the sum is off by
/// at most about (2,700 + 10) x 2^-53 = 3e-13 of that sum (a random walk: sqrt(2,700) x 2^-53 =
/// 6e-15). 1e-12 leaves room, and still rejects an f32 computation (about 1e-7 off) and an error
/// of 1e-12 of one output's magnitude.
pub const LAVA_TOLERANCE: f64 = 1e-12;

/// `lava_md(fv, rv, qv, bx, by, bz, alpha)`: for each particle i of each box, over its box and its
/// in-range neighbours (the 3 x 3 x 3 around it), and every particle j there: r2 = v_i + v_j -
/// r_i . r_j, vij = exp(-2 alpha² r2), f.v += q_j vij, f.xyz += q_j 2 vij (r_i - r_j) (Rodinia's
/// kernel_gpu_cuda), in f64 as the kernel; each of fv's four doubles a particle within
/// [`LAVA_TOLERANCE`] of the sum of its terms' magnitudes.
pub fn lava_md_of(
    fv: &[f64],
    rv: &[f64],
    qv: &[f64],
    dims: [usize; 3],
    alpha: f64,
) -> Result<(), String> {
    let [bx, by, bz] = dims;
    let particles = bx * by * bz * PAR_PER_BOX;
    if rv.len() != 4 * particles || fv.len() != 4 * particles || qv.len() != particles {
        return Err(format!(
            "lava_md: {bx} x {by} x {bz} boxes of 100 need {particles} particles; rv has {}, fv {}, qv {}",
            rv.len() / 4,
            fv.len() / 4,
            qv.len()
        ));
    }
    let a2 = 2.0 * alpha * alpha;
    let r = |p: usize, c: usize| rv[4 * p + c];
    for (box_, (x, y, z)) in (0..bz)
        .flat_map(|z| (0..by).flat_map(move |y| (0..bx).map(move |x| (x, y, z))))
        .enumerate()
    {
        let mut near = Vec::new();
        for dz in -1i64..=1 {
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny, nz) = (x as i64 + dx, y as i64 + dy, z as i64 + dz);
                    if (0..bx as i64).contains(&nx)
                        && (0..by as i64).contains(&ny)
                        && (0..bz as i64).contains(&nz)
                    {
                        near.push(((nz as usize * by + ny as usize) * bx) + nx as usize);
                    }
                }
            }
        }
        for i in box_ * PAR_PER_BOX..(box_ + 1) * PAR_PER_BOX {
            let (mut f, mut mag) = ([0.0f64; 4], [0.0f64; 4]);
            for j in near
                .iter()
                .flat_map(|&n| n * PAR_PER_BOX..(n + 1) * PAR_PER_BOX)
            {
                let dot = r(i, 1) * r(j, 1) + r(i, 2) * r(j, 2) + r(i, 3) * r(j, 3);
                let vij = (-a2 * (r(i, 0) + r(j, 0) - dot)).exp();
                let q = qv[j];
                let terms = [
                    q * vij,
                    q * 2.0 * vij * (r(i, 1) - r(j, 1)),
                    q * 2.0 * vij * (r(i, 2) - r(j, 2)),
                    q * 2.0 * vij * (r(i, 3) - r(j, 3)),
                ];
                for c in 0..4 {
                    f[c] += terms[c];
                    mag[c] += terms[c].abs();
                }
            }
            for c in 0..4 {
                let got = fv[4 * i + c];
                if (got - f[c]).abs() > LAVA_TOLERANCE * mag[c] {
                    return Err(format!(
                        "lava_md: element {} is {got}, the reference gives {} (tolerance {:.3e})",
                        4 * i + c,
                        f[c],
                        LAVA_TOLERANCE * mag[c]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The `N`-byte scalar at byte `offset` of the launch's parameters.
fn param<const N: usize>(sim: &Sim, offset: usize) -> Result<[u8; N], String> {
    sim.image()
        .params
        .get(offset..offset + N)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("no parameter at byte {offset}"))
}

/// [`lava_md_of`] on a finished run (bx, by, bz after the three pointers, at bytes 24-35; the
/// double alpha at byte 40, aligned to 8).
pub fn lava_md(sim: &Sim) -> Result<(), String> {
    let dim = |i: usize| -> Result<usize, String> {
        Ok(i32::from_le_bytes(param(sim, 24 + 4 * i)?).max(0) as usize)
    };
    let alpha = f64::from_le_bytes(param(sim, 40)?);
    lava_md_of(
        &doubles(sim, 0)?,
        &doubles(sim, 1)?,
        &doubles(sim, 2)?,
        [dim(0)?, dim(1)?, dim(2)?],
        alpha,
    )
}

/// Complex points a block of `fft_radix2` / `fft_stockham` transforms.
pub const FFT_N: usize = 1024;

/// The FFT check's absolute tolerance: the outputs of 1,024 inputs in [-1, 1) are about 18 in
/// magnitude (up to 1,024), and ten f32 butterfly stages with f32 twiddle angles leave errors
/// near 1e-5; 1e-3 catches any wrong butterfly or twiddle.
pub const FFT_TOLERANCE: f64 = 1e-3;

/// `fft_radix2` / `fft_stockham(out, in)`: each block of 1,024 complex (re, im word pairs) through
/// the forward DFT (X_k = sum x_n e^(-2 pi i nk / N), unscaled, natural order), the host's in f64
/// by a radix-2 FFT; every word within [`FFT_TOLERANCE`].
pub fn fft_of(out: &[f32], input: &[f32]) -> Result<(), String> {
    let words = 2 * FFT_N;
    if input.is_empty() || input.len() % words != 0 || out.len() != input.len() {
        return Err(format!(
            "fft: {} words in, {} out, not whole blocks of 1,024 complex",
            input.len(),
            out.len()
        ));
    }
    let bits = FFT_N.trailing_zeros();
    for (b, block) in input.chunks(words).enumerate() {
        // Bit-reversed copy, then in-place radix-2 decimation in time, in f64.
        let mut x = vec![(0.0f64, 0.0f64); FFT_N];
        for (c, pair) in block.chunks(2).enumerate() {
            let r = c.reverse_bits() >> (usize::BITS - bits);
            x[r] = (f64::from(pair[0]), f64::from(pair[1]));
        }
        let mut h = 1;
        while h < FFT_N {
            for start in (0..FFT_N).step_by(2 * h) {
                for k in 0..h {
                    let angle = -std::f64::consts::PI * k as f64 / h as f64;
                    let (sn, cs) = angle.sin_cos();
                    let (a, c) = (x[start + k], x[start + k + h]);
                    let bb = (c.0 * cs - c.1 * sn, c.0 * sn + c.1 * cs);
                    x[start + k] = (a.0 + bb.0, a.1 + bb.1);
                    x[start + k + h] = (a.0 - bb.0, a.1 - bb.1);
                }
            }
            h *= 2;
        }
        for (c, &(re, im)) in x.iter().enumerate() {
            for (part, want) in [(0, re), (1, im)] {
                let i = b * words + 2 * c + part;
                let got = f64::from(out[i]);
                if (got - want).abs() > FFT_TOLERANCE {
                    return Err(format!(
                        "fft: element {i} is {got}, the reference gives {want}"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// [`fft_of`] on a finished run.
pub fn fft(sim: &Sim) -> Result<(), String> {
    fft_of(&floats(sim, 0)?, &floats(sim, 1)?)
}

/// Keys a block of `split_sort` sorts.
pub const SORT_N: usize = 1024;

/// `split_sort(keys_out, values_out, histo, keys, values, iter)`: each block of 1,024 (key, value)
/// pairs sorted stably by digit `iter` ((key >> 4 iter) & 15), and histo[blocks d + b] = block b's
/// count of digit d; exact (integers).
pub fn split_sort_of(
    keys_out: &[u32],
    values_out: &[u32],
    histo: &[u32],
    keys: &[u32],
    values: &[u32],
    iter: u32,
) -> Result<(), String> {
    if keys.is_empty() || keys.len() % SORT_N != 0 || values.len() != keys.len() {
        return Err(format!(
            "split_sort: {} keys and {} values is not whole blocks of 1,024",
            keys.len(),
            values.len()
        ));
    }
    let blocks = keys.len() / SORT_N;
    let digit = |k: u32| ((k >> (4 * iter)) & 15) as usize;
    let (mut want_keys, mut want_values) = (Vec::new(), Vec::new());
    let mut want_histo = vec![0u32; 16 * blocks];
    for b in 0..blocks {
        let mut pairs: Vec<(u32, u32)> = (b * SORT_N..(b + 1) * SORT_N)
            .map(|i| (keys[i], values[i]))
            .collect();
        pairs.sort_by_key(|&(k, _)| digit(k));
        for &(k, v) in &pairs {
            want_keys.push(k);
            want_values.push(v);
            want_histo[blocks * digit(k) + b] += 1;
        }
    }
    same("split_sort keys", keys_out, &want_keys)?;
    same("split_sort values", values_out, &want_values)?;
    same("split_sort histogram", histo, &want_histo)
}

/// [`split_sort_of`] on a finished run (`iter` after the five pointers).
pub fn split_sort(sim: &Sim) -> Result<(), String> {
    let iter = u32::from_le_bytes(param(sim, 40)?);
    split_sort_of(
        &words(sim, 0)?,
        &words(sim, 1)?,
        &words(sim, 2)?,
        &words(sim, 3)?,
        &words(sim, 4)?,
        iter,
    )
}

#[cfg(test)]
mod tests {
    use super::super::xor_reference_suite::quick_run as run;
    use super::*;

    #[test]
    fn the_lud_diagonal_reference_accepts_the_kernel_and_rejects_a_wrong_element() {
        let sim = run("lud_diagonal");
        let mut out = floats(&sim, 0).unwrap();
        let input = lud_input(out.len()).unwrap();
        assert_eq!(lud_diagonal_of(&out, &input), Ok(()));
        assert_ne!(out, input, "the kernel wrote nothing");
        // The last element of tile 1 (U's corner, the last one computed), one ulp off.
        let last = 2 * LUD_TILE * LUD_TILE - 1;
        out[last] = f32::from_bits(out[last].to_bits() ^ 1);
        let err = lud_diagonal_of(&out, &input).unwrap_err();
        assert!(err.contains(&format!("element {last} ")), "{err}");
        // The perimeter kernel's output is not the diagonal's.
        assert!(super::super::xor_reference_suite::lud_perimeter_of(&out, &input).is_err());
    }

    #[test]
    fn the_lava_md_reference_accepts_the_kernel_and_rejects_a_wrong_force() {
        let sim = run("lava_md");
        let (mut fv, rv, qv) = (
            doubles(&sim, 0).unwrap(),
            doubles(&sim, 1).unwrap(),
            doubles(&sim, 2).unwrap(),
        );
        let dims = [2, 1, 1];
        assert_eq!(lava_md_of(&fv, &rv, &qv, dims, 0.5), Ok(()));
        // Another alpha gives other forces.
        assert!(lava_md_of(&fv, &rv, &qv, dims, 0.6).is_err());
        // The forces rounded to f32 (a float kernel's precision) are refused: the check holds
        // the kernel to Rodinia's double.
        let rounded: Vec<f64> = fv.iter().map(|&v| f64::from(v as f32)).collect();
        assert!(lava_md_of(&rounded, &rv, &qv, dims, 0.5).is_err());
        // Particle 57's y force off by 0.05.
        fv[4 * 57 + 2] += 0.05;
        let err = lava_md_of(&fv, &rv, &qv, dims, 0.5).unwrap_err();
        assert!(
            err.starts_with(&format!("lava_md: element {} ", 4 * 57 + 2)),
            "{err}"
        );
    }

    #[test]
    fn the_fft_reference_accepts_both_kernels_and_rejects_a_wrong_bin() {
        for name in ["fft_radix2", "fft_stockham"] {
            let sim = run(name);
            let (mut out, input) = (floats(&sim, 0).unwrap(), floats(&sim, 1).unwrap());
            assert_eq!(fft_of(&out, &input), Ok(()), "{name}");
            // The DC bin of block 1 (its re word) off by 0.01.
            out[2 * FFT_N] += 0.01;
            let err = fft_of(&out, &input).unwrap_err();
            assert!(
                err.starts_with(&format!("fft: element {} ", 2 * FFT_N)),
                "{err}"
            );
        }
    }

    #[test]
    fn the_split_sort_reference_accepts_the_kernel_and_rejects_a_wrong_order() {
        let sim = run("split_sort");
        let w = |i: usize| words(&sim, i).unwrap();
        let (mut keys_out, values_out, histo, keys, values) = (w(0), w(1), w(2), w(3), w(4));
        assert_eq!(
            split_sort_of(&keys_out, &values_out, &histo, &keys, &values, 0),
            Ok(())
        );
        assert_ne!(keys_out, keys, "the kernel sorted nothing");
        // Sorted by another digit, the order differs.
        assert!(split_sort_of(&keys_out, &values_out, &histo, &keys, &values, 1).is_err());
        // Two keys of block 0 with different digits swapped: still a permutation, out of order.
        let j = (1..SORT_N)
            .find(|&j| (keys_out[j] ^ keys_out[0]) & 15 != 0)
            .unwrap();
        keys_out.swap(0, j);
        let err = split_sort_of(&keys_out, &values_out, &histo, &keys, &values, 0).unwrap_err();
        assert!(err.starts_with("split_sort keys: element 0 "), "{err}");
    }
}
