//! The host references of `tests/data/kernels/xor_suite.cu`'s kernels (the XOR paper's hist64,
//! hist256 and dwtHaar1D, van den Braak et al., IEEE TC, Table 5 and §7.1), as
//! `xor_reference.rs`'s: each reads a finished simulation's buffers and compares what the kernel
//! wrote with what the host computes; a difference is the run's error. Each check is a function
//! of the buffers ([`histogram_of`], [`haar_of`]) so a test can hand it a wrong output.

use super::xor_reference::{ints, same, side, words};
use crate::launch::ArgSpec;
use crate::sim::Sim;

/// `hist64` / `hist256(partial, data, words)` in blocks of `threads`: block b's partial histogram
/// of `bins` bins over the bytes of the words its grid-stride loop reads (word `pos` when
/// `(pos / threads) mod blocks` is b; bin = byte >> 2 for 64 bins, the SDK's histogram64; the
/// byte for 256).
pub fn histogram_of(
    partial: &[u32],
    data: &[u32],
    bins: usize,
    threads: usize,
) -> Result<(), String> {
    let shift = match bins {
        64 => 2,
        256 => 0,
        _ => return Err(format!("histogram: {bins} bins, not 64 or 256")),
    };
    if partial.is_empty() || partial.len() % bins != 0 {
        return Err(format!(
            "histogram: {} partial counts is not a whole number of {bins}-bin histograms",
            partial.len()
        ));
    }
    let blocks = partial.len() / bins;
    let mut want = vec![0u32; partial.len()];
    for (pos, &d) in data.iter().enumerate() {
        let block = (pos / threads.max(1)) % blocks;
        for byte in d.to_le_bytes() {
            want[block * bins + (byte >> shift) as usize] += 1;
        }
    }
    same(&format!("hist{bins}"), partial, &want)
}

/// [`histogram_of`] on a finished run.
pub fn histogram(sim: &Sim, bins: usize) -> Result<(), String> {
    let threads = sim.image().block.count() as usize;
    histogram_of(&words(sim, 0)?, &words(sim, 1)?, bins, threads)
}

/// Threads per block of `dwt_haar1d`; a block decomposes twice as many ints.
pub const HAAR_THREADS: usize = 512;
/// The decomposition levels within a block (1,024 = 2^10).
pub const HAAR_LEVELS: u32 = 10;

/// `dwt_haar1d(out, approx, in)`: each block of 1,024 ints through 10 unnormalised Haar levels
/// (approximation a + b, detail a - b), the details where the SDK's dwtHaar1D stores them (level
/// i's of block b at `(512 >> (i - 1)) * (blocks + b) + t`), out[0, blocks) untouched (zero) and
/// the block's last approximation in approx[b].
pub fn haar_of(out: &[i32], approx: &[i32], input: &[i32]) -> Result<(), String> {
    let block = 2 * HAAR_THREADS;
    if input.is_empty() || input.len() % block != 0 {
        return Err(format!("haar: {} inputs is not whole blocks", input.len()));
    }
    let blocks = input.len() / block;
    let mut want = vec![0i32; input.len()];
    let mut want_approx = vec![0i32; blocks];
    for (b, chunk) in input.chunks(block).enumerate() {
        let mut a = chunk.to_vec();
        for level in 1..=HAAR_LEVELS {
            let threads = HAAR_THREADS >> (level - 1);
            let next: Vec<i32> = (0..threads)
                .map(|t| {
                    want[threads * (blocks + b) + t] = a[2 * t].wrapping_sub(a[2 * t + 1]);
                    a[2 * t].wrapping_add(a[2 * t + 1])
                })
                .collect();
            a = next;
        }
        want_approx[b] = a[0];
    }
    same("haar details", out, &want)?;
    same("haar approximations", approx, &want_approx)
}

/// [`haar_of`] on a finished run.
pub fn haar(sim: &Sim) -> Result<(), String> {
    haar_of(&ints(sim, 0)?, &ints(sim, 1)?, &ints(sim, 2)?)
}

/// The tile side of `nw_1` / `nw_2` (Rodinia's BLOCK_SIZE).
pub const NW_TILE: usize = 16;
/// The gap penalty the NW launches pass (Rodinia's default).
pub const NW_PENALTY: i32 = 10;

/// `nw_1` / `nw_2(sim, score, cols, 10, diagonal[, tiles])` on a zero `score` of `cols` x `cols`
/// (cols = 16 tiles + 1): kernel 1 on block anti-diagonal `tiles` (tiles (tiles - 1 - b, b)),
/// kernel 2 on `tiles - 1` (tiles (tiles - 1 - b, b + 1)), as `xor_kernels.rs` launches them.
/// Each tile's 16 x 16 scores by Needleman-Wunsch's recurrence from its (zero) borders; every
/// other score stays zero.
pub fn nw_of(score: &[i32], sim: &[i32], second: bool) -> Result<(), String> {
    let cols = side(sim.len())?;
    if cols < NW_TILE + 1 || (cols - 1) % NW_TILE != 0 {
        return Err(format!("nw: {cols} columns is not 16 tiles + 1"));
    }
    let tiles = (cols - 1) / NW_TILE;
    let mut want = vec![0i32; sim.len()];
    let on_diagonal: Vec<(usize, usize)> = if second {
        (0..tiles - 1).map(|b| (tiles - 1 - b, b + 1)).collect()
    } else {
        (0..tiles).map(|b| (tiles - 1 - b, b)).collect()
    };
    for (ty, tx) in on_diagonal {
        let (r0, c0) = (ty * NW_TILE, tx * NW_TILE);
        for r in r0 + 1..=r0 + NW_TILE {
            for c in c0 + 1..=c0 + NW_TILE {
                let diagonal = want[(r - 1) * cols + c - 1].wrapping_add(sim[r * cols + c]);
                let left = want[r * cols + c - 1].wrapping_sub(NW_PENALTY);
                let up = want[(r - 1) * cols + c].wrapping_sub(NW_PENALTY);
                want[r * cols + c] = diagonal.max(left).max(up);
            }
        }
    }
    same(if second { "nw_2" } else { "nw_1" }, score, &want)
}

/// [`nw_of`] on a finished run.
pub fn nw(sim: &Sim, second: bool) -> Result<(), String> {
    nw_of(&ints(sim, 1)?, &ints(sim, 0)?, second)
}

/// The tile side of `lud_perimeter` (Rodinia's BLOCK_SIZE).
pub const LUD_TILE: usize = 16;
/// The seed and range of the matrix every checked `lud_perimeter` launch gets (`xor_kernels.rs`'s
/// `lud!`; the training launch, never checked, has another seed). The kernel works in place, so
/// the check regenerates the input from them.
pub const LUD_INPUT: (u64, f32, f32) = (1, 0.5, 1.0);

/// `lud_perimeter(m, dim, 0)` on `LUD_INPUT`'s random `dim` x `dim` matrix (dim = 16 (blocks +
/// 1)): block b's row tile (rows 1-15 of columns 16 (b + 1) ..) by forward substitution with the
/// diagonal tile's unit-lower part, its column tile (rows 16 (b + 1) .., columns 0-15) by the
/// upper part and the pivots, in f32 with the kernel's order of operations (no fused
/// multiply-add: nvcc's PTX has `mul.f32` then `sub.f32`), so the match is exact; every other
/// element keeps its input.
pub fn lud_perimeter_of(out: &[f32], input: &[f32]) -> Result<(), String> {
    let dim = side(input.len())?;
    if dim < 2 * LUD_TILE || dim % LUD_TILE != 0 {
        return Err(format!("lud: {dim} columns is not 16 (blocks + 1)"));
    }
    let b = LUD_TILE;
    let mut want = input.to_vec();
    let dia = |i: usize, j: usize| input[i * dim + j];
    for block in (b..dim).step_by(b) {
        for t in 0..b {
            for i in 1..b {
                for j in 0..i {
                    let prod = dia(i, j) * want[j * dim + block + t];
                    want[i * dim + block + t] -= prod;
                }
            }
            let r = (block + t) * dim;
            for i in 0..b {
                for j in 0..i {
                    let prod = want[r + j] * dia(j, i);
                    want[r + i] -= prod;
                }
                want[r + i] /= dia(i, i);
            }
        }
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    same("lud_perimeter (f32 bits)", &bits(out), &bits(&want))
}

/// `LUD_INPUT`'s matrix of `len` elements, as the launch's `rand:` initialiser makes it.
pub fn lud_input(len: usize) -> Result<Vec<f32>, String> {
    let (seed, lo, hi) = LUD_INPUT;
    let words = initial_words(&format!("f32[{len}]=rand:{seed}:{lo}:{hi}"))?;
    Ok(words.into_iter().map(f32::from_bits).collect())
}

/// The 32-bit words a launch's buffer flag `spec` (`TYPE[N]=INIT`) starts with: a reference
/// regenerates an input the kernel overwrote in place.
pub fn initial_words(spec: &str) -> Result<Vec<u32>, String> {
    let ArgSpec::Buffer { elem, count, init } = ArgSpec::parse(spec).map_err(|e| e.to_string())?
    else {
        return Err(format!("{spec} is not a buffer"));
    };
    let bytes = ArgSpec::initial_bytes(elem, count, &init, &|p| Err(format!("no file {p}")))?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// [`lud_perimeter_of`] on a finished run.
pub fn lud_perimeter(sim: &Sim) -> Result<(), String> {
    let out: Vec<f32> = words(sim, 0)?.into_iter().map(f32::from_bits).collect();
    lud_perimeter_of(&out, &lud_input(out.len())?)
}

/// `name`'s quick launch on one SM, run to the end and checked: the reference tests' input.
#[cfg(test)]
pub(super) fn quick_run(name: &str) -> Sim {
    use super::xor::{select, PRESET};
    use super::{Machine, Size};
    let kernel = select(&[name.to_string()]).unwrap()[0];
    let case = kernel.case(Size::Quick, Machine::OneSm);
    let mut sim = crate::bench::simulation(&case.launch, PRESET, &[]).unwrap();
    sim.run(crate::run::DEFAULT_MAX_CYCLES);
    assert_eq!(*sim.status(), crate::sim::Status::Completed, "{name}");
    assert_eq!((kernel.check)(&sim), Ok(()), "{name}");
    sim
}

#[cfg(test)]
mod tests {
    use super::quick_run as run;
    use super::*;

    #[test]
    fn the_histogram_references_accept_the_kernels_and_reject_a_miscount() {
        for (name, bins) in [("hist64", 64), ("hist256", 256)] {
            let sim = run(name);
            let (mut partial, data) = (words(&sim, 0).unwrap(), words(&sim, 1).unwrap());
            let threads = sim.image().block.count() as usize;
            assert_eq!(histogram_of(&partial, &data, bins, threads), Ok(()));
            assert_eq!(partial.iter().sum::<u32>() as usize, 4 * data.len());
            // One count moved to the next bin: the totals agree, the bins do not. A photograph
            // leaves some bins empty, so the first bin that has a count gives one.
            let bin = partial[..bins - 1].iter().position(|&n| n > 0).unwrap();
            partial[bin] -= 1;
            partial[bin + 1] += 1;
            let err = histogram_of(&partial, &data, bins, threads).unwrap_err();
            assert!(
                err.starts_with(&format!("hist{bins}: element {bin}")),
                "{err}"
            );
        }
    }

    #[test]
    fn the_nw_references_accept_the_kernels_and_reject_a_wrong_score() {
        for (name, second) in [("nw_1", false), ("nw_2", true)] {
            let sim = run(name);
            let (sims, mut score) = (ints(&sim, 0).unwrap(), ints(&sim, 1).unwrap());
            assert_eq!(nw_of(&score, &sims, second), Ok(()));
            assert!(score.iter().any(|&v| v != 0), "{name} wrote nothing");
            // A score outside the diagonal's tiles (row 0 is every tile's border).
            score[1] = 1;
            let err = nw_of(&score, &sims, second).unwrap_err();
            assert!(err.starts_with(&format!("{name}: element 1 ")), "{err}");
            // Kernel 1's output is not kernel 2's.
            score[1] = 0;
            assert!(nw_of(&score, &sims, !second).is_err());
        }
    }

    #[test]
    fn the_lud_reference_accepts_the_kernel_and_rejects_a_wrong_element() {
        let sim = run("lud_perimeter");
        let mut out: Vec<f32> = words(&sim, 0)
            .unwrap()
            .into_iter()
            .map(f32::from_bits)
            .collect();
        let input = lud_input(out.len()).unwrap();
        assert_eq!(lud_perimeter_of(&out, &input), Ok(()));
        assert_ne!(out, input, "the kernel wrote nothing");
        // The last element of the first column tile, one ulp off.
        let dim = (out.len() as f64).sqrt() as usize;
        let last = (2 * LUD_TILE - 1) * dim + LUD_TILE - 1;
        out[last] = f32::from_bits(out[last].to_bits() ^ 1);
        let err = lud_perimeter_of(&out, &input).unwrap_err();
        assert!(err.contains(&format!("element {last} ")), "{err}");
    }

    #[test]
    fn the_haar_reference_accepts_the_kernel_and_rejects_a_wrong_coefficient() {
        let sim = run("dwt_haar1d");
        let (mut out, mut approx, input) = (
            ints(&sim, 0).unwrap(),
            ints(&sim, 1).unwrap(),
            ints(&sim, 2).unwrap(),
        );
        assert_eq!(haar_of(&out, &approx, &input), Ok(()));
        approx[1] += 1;
        assert!(haar_of(&out, &approx, &input).is_err());
        approx[1] -= 1;
        // Level 1's first detail of block 0 sits at 512 * blocks.
        out[HAAR_THREADS * input.len() / (2 * HAAR_THREADS)] ^= 1;
        let err = haar_of(&out, &approx, &input).unwrap_err();
        assert!(err.starts_with("haar details"), "{err}");
    }
}
