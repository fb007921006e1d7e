//! The host references of `tests/data/kernels/xor_parboil.cu`'s kernels (Parboil mri-gridding's
//! scan_inter1_kernel and scan_inter2_kernel, the XOR paper's MRI-grid-2 and MRI-grid-3, van den
//! Braak et al., IEEE TC, Table 5), as `xor_reference.rs`'s: each reads a finished simulation's
//! buffer and compares what the kernel wrote with what the host computes; a difference is the
//! run's error. The kernels work in place, so the input is regenerated from its `rand:` seed
//! ([`SCAN_INPUT_SEED`]). Each check is a function of the buffers ([`scan_up_of`],
//! [`scan_down_of`]) so a test can hand it a wrong output.
//!
//! The references do not repeat the kernels' loops: they use the closed forms of the two sweeps
//! (a Blelloch up-sweep builds a Fenwick tree; the down-sweep reads prefix sums back out of one).

use super::xor_reference::{same, words};
use super::xor_reference_suite::initial_words;
use crate::sim::Sim;

/// The seed of the checked launches' data (`u32[N]=rand:1`, every word uniform); the training
/// launches use another, and are not checked.
pub const SCAN_INPUT_SEED: u64 = 1;

/// `len` words of [`SCAN_INPUT_SEED`]'s data, as the launch's `rand:` initialiser makes them.
pub fn scan_input(len: usize) -> Result<Vec<u32>, String> {
    initial_words(&format!("u32[{len}]=rand:{SCAN_INPUT_SEED}"))
}

/// The largest power of two dividing `k` (k > 0).
fn lowbit(k: usize) -> usize {
    k & k.wrapping_neg()
}

/// The launch's shape: `blocks` blocks of `threads` threads on every `iter`-th word of a buffer
/// of `len`; an error unless the buffer holds exactly the words the grid touches.
fn shape(len: usize, blocks: usize, threads: usize, iter: usize) -> Result<usize, String> {
    let width = 2 * threads;
    if threads == 0 || !threads.is_power_of_two() || iter == 0 {
        return Err(format!(
            "scan: {threads} threads a block (iter {iter}) is not a power of two"
        ));
    }
    if len != blocks * width * iter {
        return Err(format!(
            "scan: {blocks} blocks of {width} elements every {iter} words need {} words, the buffer has {len}",
            blocks * width * iter
        ));
    }
    Ok(width)
}

/// `scan_inter_up(data, iter)` with `blocks` x `threads`: the words at iter k + iter - 1 taken as
/// blocks of 2 threads elements x; afterwards element j of a block is the sum of its
/// lowbit(j + 1) elements ending at j, x[j + 1 - lowbit(j + 1)] + .. + x[j] (mod 2^32; the last
/// element the block's total); every other word keeps its input.
pub fn scan_up_of(
    out: &[u32],
    input: &[u32],
    blocks: usize,
    threads: usize,
    iter: usize,
) -> Result<(), String> {
    let want = per_element(input, blocks, threads, iter, |x, _, j| {
        (j + 1 - lowbit(j + 1)..=j).fold(0u32, |sum, k| sum.wrapping_add(x(k)))
    })?;
    same("scan_inter_up", out, &want)
}

/// `scan_inter_down(data, iter)` with `blocks` x `threads`: the words at iter k + iter - 1 taken
/// as blocks of 2 threads elements y, each read as a Fenwick tree (y[k - 1] the sum of the
/// lowbit(k) elements ending at k - 1) whose root y[last] is a carry c; afterwards element j is c
/// plus the prefix sum of the elements before j, c + y[j - 1] + y[j - 1 - lowbit(j)] + .. (the
/// Fenwick query: k = j, k - lowbit(k), .. > 0), mod 2^32. On an up-swept block with c = 0 that
/// is its exclusive scan. Every other word keeps its input.
pub fn scan_down_of(
    out: &[u32],
    input: &[u32],
    blocks: usize,
    threads: usize,
    iter: usize,
) -> Result<(), String> {
    let want = per_element(input, blocks, threads, iter, |x, width, j| {
        let (mut sum, mut k) = (x(width - 1), j);
        while k > 0 {
            sum = sum.wrapping_add(x(k - 1));
            k -= lowbit(k);
        }
        sum
    })?;
    same("scan_inter_down", out, &want)
}

/// The buffer both sweeps leave: `input` with element j of each block (of `width` = 2 threads
/// elements, at every `iter`-th word) replaced by `element(x, width, j)`, where `x(k)` is the
/// block's input element k.
fn per_element(
    input: &[u32],
    blocks: usize,
    threads: usize,
    iter: usize,
    element: impl Fn(&dyn Fn(usize) -> u32, usize, usize) -> u32,
) -> Result<Vec<u32>, String> {
    let width = shape(input.len(), blocks, threads, iter)?;
    let mut want = input.to_vec();
    for b in 0..blocks {
        let at = |j: usize| (b * width + j) * iter + iter - 1;
        let x = |k: usize| input[at(k)];
        for j in 0..width {
            want[at(j)] = element(&x, width, j);
        }
    }
    Ok(want)
}

/// The launch's blocks, threads a block and `iter` (the 32-bit scalar after the pointer).
fn launch(sim: &Sim) -> Result<(usize, usize, usize), String> {
    let image = sim.image();
    let iter = image
        .params
        .get(8..12)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
        .ok_or("scan: no iter parameter")?;
    Ok((image.grid.x as usize, image.block.x as usize, iter as usize))
}

/// [`scan_up_of`] on a finished run.
pub fn scan_up(sim: &Sim) -> Result<(), String> {
    let out = words(sim, 0)?;
    let (blocks, threads, iter) = launch(sim)?;
    scan_up_of(&out, &scan_input(out.len())?, blocks, threads, iter)
}

/// [`scan_down_of`] on a finished run.
pub fn scan_down(sim: &Sim) -> Result<(), String> {
    let out = words(sim, 0)?;
    let (blocks, threads, iter) = launch(sim)?;
    scan_down_of(&out, &scan_input(out.len())?, blocks, threads, iter)
}

#[cfg(test)]
mod tests {
    use super::super::xor_reference_suite::quick_run as run;
    use super::*;

    /// The kernels' loops as they are written, on one block of `x`: the closed forms above
    /// must agree with them.
    fn sweeps(x: &[u32], up: bool) -> Vec<u32> {
        let mut s = x.to_vec();
        let n = s.len() / 2;
        let pair = |s: &mut Vec<u32>, span: usize, t: usize| {
            let left = 2 * span * t + span - 1;
            let (l, r) = (s[left], s[left + span]);
            if up {
                s[left + span] = r.wrapping_add(l);
            } else {
                s[left] = r;
                s[left + span] = r.wrapping_add(l);
            }
        };
        if up {
            let (mut span, mut active) = (1, n);
            while active > 0 {
                (0..active).for_each(|t| pair(&mut s, span, t));
                span *= 2;
                active /= 2;
            }
        } else {
            let (mut span, mut active) = (2 * n, 1);
            while active <= n {
                span /= 2;
                (0..active).for_each(|t| pair(&mut s, span, t));
                active *= 2;
            }
        }
        s
    }

    #[test]
    fn the_closed_forms_are_the_sweeps_and_up_then_down_is_an_exclusive_scan() {
        for threads in [1, 2, 64, 128] {
            let x = scan_input(2 * threads).unwrap();
            assert_eq!(scan_up_of(&sweeps(&x, true), &x, 1, threads, 1), Ok(()));
            assert_eq!(scan_down_of(&sweeps(&x, false), &x, 1, threads, 1), Ok(()));
            // Parboil's use: the up-swept tree with its root cleared, swept down.
            let mut tree = sweeps(&x, true);
            *tree.last_mut().unwrap() = 0;
            let exclusive: Vec<u32> = x
                .iter()
                .scan(0u32, |sum, &v| {
                    let before = *sum;
                    *sum = sum.wrapping_add(v);
                    Some(before)
                })
                .collect();
            assert_eq!(sweeps(&tree, false), exclusive, "{threads} threads");
        }
    }

    #[test]
    fn the_scan_up_reference_accepts_the_kernel_and_rejects_a_wrong_sum() {
        let sim = run("scan_inter_up");
        let mut out = words(&sim, 0).unwrap();
        let input = scan_input(out.len()).unwrap();
        let (blocks, threads, iter) = launch(&sim).unwrap();
        assert_eq!((blocks, iter), (2, 1));
        assert_eq!(scan_up_of(&out, &input, blocks, threads, iter), Ok(()));
        assert_ne!(out, input, "the kernel wrote nothing");
        // The down-sweep's result is not the up-sweep's.
        assert!(scan_down_of(&out, &input, blocks, threads, iter).is_err());
        // Block 1's total, off by one.
        let root = 4 * threads - 1;
        out[root] = out[root].wrapping_add(1);
        let err = scan_up_of(&out, &input, blocks, threads, iter).unwrap_err();
        assert!(
            err.starts_with(&format!("scan_inter_up: element {root} ")),
            "{err}"
        );
    }

    #[test]
    fn the_scan_down_reference_accepts_the_kernel_and_rejects_a_wrong_prefix() {
        let sim = run("scan_inter_down");
        let mut out = words(&sim, 0).unwrap();
        let input = scan_input(out.len()).unwrap();
        let (blocks, threads, iter) = launch(&sim).unwrap();
        assert_eq!(scan_down_of(&out, &input, blocks, threads, iter), Ok(()));
        assert_ne!(out, input, "the kernel wrote nothing");
        assert!(scan_up_of(&out, &input, blocks, threads, iter).is_err());
        // Element 5 of block 1, off by one.
        let j = 2 * threads + 5;
        out[j] = out[j].wrapping_sub(1);
        let err = scan_down_of(&out, &input, blocks, threads, iter).unwrap_err();
        assert!(
            err.starts_with(&format!("scan_inter_down: element {j} ")),
            "{err}"
        );
    }

    #[test]
    fn a_buffer_that_is_not_the_grid_is_refused() {
        let x = scan_input(256).unwrap();
        let err = scan_up_of(&x, &x, 3, 64, 1).unwrap_err();
        assert!(err.contains("need 384 words"), "{err}");
        assert!(scan_down_of(&x, &x, 1, 96, 1).is_err());
    }
}
