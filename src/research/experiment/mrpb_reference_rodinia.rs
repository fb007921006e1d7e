//! The host references of the MRPB experiment's Rodinia NW and LUD launches (MRPB Table 3):
//! the corpus's needle kernels and our NW/U (`tests/data/kernels/rodinia_unshared.cu`), our
//! LUD kernels (`tests/data/kernels/rodinia_lud.cu`) and LUD/U. Each recomputes, from the
//! launch's initial buffers, what the launch's blocks must have written, and compares the
//! whole matrix: the blocks' cells must match, every other cell must keep its initial value.
//!
//! NW's scores are integers and must match exactly. LUD's references compute in `f32` in the
//! kernels' order of operations (nvcc's PTX keeps `a -= b * c` as a rounded multiply and a
//! subtraction in lud_diagonal and lud_perimeter, and contracts lud_internal's dot product
//! into fused multiply-adds from 0), so they must match bit for bit.

use super::super::xor_reference::{same, same_by};
use super::Launch;
use crate::launch::Dim3;
use crate::launch::LaunchFlags;
use crate::sim::Sim;

/// NW's tile side (BLOCK_SIZE) and LUD's block side.
const B: usize = 16;

impl Launch<'_> {
    /// The launch's grid.
    fn grid(&self) -> Dim3 {
        self.flags.grid.unwrap_or(Dim3::linear(1))
    }
}

/// Needleman-Wunsch over the 16 x 16 tile at (tile_row, tile_col) of `score` (`cols` wide),
/// from its north row and west column: score[y][x] = max(score[y-1][x-1] + ref[y][x],
/// score[y][x-1] - penalty, score[y-1][x] - penalty).
fn nw_tile(score: &mut [i32], reference: &[i32], cols: usize, penalty: i32, tile: (usize, usize)) {
    let (r0, c0) = (tile.0 * B, tile.1 * B);
    for y in r0 + 1..=r0 + B {
        for x in c0 + 1..=c0 + B {
            let at = |y: usize, x: usize| y * cols + x;
            score[at(y, x)] = (score[at(y - 1, x - 1)] + reference[at(y, x)])
                .max(score[at(y, x - 1)] - penalty)
                .max(score[at(y - 1, x)] - penalty);
        }
    }
}

/// A needle launch, `(reference, score, out, cols, penalty, i, block_width)`: block bx scores
/// the tile `tile(bx, i, block_width)`.
fn nw(
    sim: &Sim,
    flags: &LaunchFlags,
    tile: fn(usize, usize, usize) -> (usize, usize),
) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (reference, mut score) = (l.initial_ints(0)?, l.initial_ints(1)?);
    let (cols, penalty) = (l.int(3)?, l.number(4)? as i32);
    let (i, width) = (l.int(5)?, l.int(6)?);
    let blocks = l.grid().x as usize;
    if cols != width * B + 1 || score.len() != cols * cols || reference.len() != cols * cols {
        return Err(format!(
            "cols {cols}: the matrices are not ({width} x {B} + 1)^2"
        ));
    }
    for bx in 0..blocks {
        let (row, col) = tile(bx, i, width);
        if row >= width || col >= width {
            return Err(format!("block {bx} of diagonal {i} has no tile"));
        }
        nw_tile(&mut score, &reference, cols, penalty, (row, col));
    }
    same("score", &l.now_ints(1)?, &score)
}

/// needle's first kernel (the corpus's `needle_cuda_shared_1` and our `nw_u_1`) on the
/// growing tile anti-diagonal `i`: block bx scores tile (i - 1 - bx, bx).
pub fn nw_upper(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    nw(sim, flags, |bx, i, _| (i.wrapping_sub(1 + bx), bx))
}

/// needle's second kernel (`needle_cuda_shared_2`, `nw_u_2`) on the shrinking anti-diagonal
/// `i`: block bx scores tile (width - 1 - bx, bx + width - i).
pub fn nw_lower(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    nw(sim, flags, |bx, i, w| {
        (w.wrapping_sub(1 + bx), (bx + w).wrapping_sub(i))
    })
}

/// A LUD launch `(m, dim, offset)`: its matrix as it started, its size and offset.
fn lud_start(l: &Launch) -> Result<(Vec<f32>, usize, usize), String> {
    let (m, dim, offset) = (l.initial(0)?, l.int(1)?, l.int(2)?);
    if m.len() != dim * dim || offset + B > dim || offset % B != 0 {
        return Err(format!(
            "m is not {dim} x {dim} or offset {offset} is not a block's"
        ));
    }
    Ok((m, dim, offset))
}

fn lud_compare(l: &Launch, want: &[f32]) -> Result<(), String> {
    same_by("m", &l.now(0)?, want, |g, w| g.to_bits() == w.to_bits())
}

/// lud_diagonal (ours and LUD/U's): the diagonal block at (offset, offset) factorised in place
/// without pivoting, L below the diagonal (unit diagonal implied), U on and above.
pub fn lud_diagonal(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (mut m, dim, o) = lud_start(&l)?;
    let at = |r: usize, c: usize| (o + r) * dim + o + c;
    for i in 0..B - 1 {
        for t in i + 1..B {
            for k in 0..i {
                m[at(t, i)] -= m[at(t, k)] * m[at(k, i)];
            }
            m[at(t, i)] /= m[at(i, i)];
        }
        for t in i + 1..B {
            for k in 0..=i {
                m[at(i + 1, t)] -= m[at(i + 1, k)] * m[at(k, t)];
            }
        }
    }
    lud_compare(&l, &m)
}

/// lud_perimeter (ours and LUD/U's), grid g: for b < g, the block right of the diagonal block
/// by b + 1 becomes U (forward substitution with the diagonal block's L, row by row) and the
/// block below it by b + 1 becomes L (each row solved against its U, column by column).
pub fn lud_perimeter(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (mut m, dim, o) = lud_start(&l)?;
    let at = |r: usize, c: usize| (o + r) * dim + o + c;
    for b in 1..=l.grid().x as usize {
        for t in 0..B {
            let c = b * B + t;
            for r in 1..B {
                for k in 0..r {
                    m[at(r, c)] -= m[at(r, k)] * m[at(k, c)];
                }
            }
            let r = b * B + t;
            for i in 0..B {
                for k in 0..i {
                    m[at(r, i)] -= m[at(r, k)] * m[at(k, i)];
                }
                m[at(r, i)] /= m[at(i, i)];
            }
        }
    }
    lud_compare(&l, &m)
}

/// lud_internal (ours and LUD/U's), grid gx x gy: the trailing block (by + 1, bx + 1) of the
/// step -= its L block (left) times its U block (above), the dot product fused from 0.
pub fn lud_internal(sim: &Sim, flags: &LaunchFlags) -> Result<(), String> {
    let l = Launch { sim, flags };
    let (m0, dim, o) = lud_start(&l)?;
    let mut m = m0.clone();
    let at = |r: usize, c: usize| (o + r) * dim + o + c;
    let g = l.grid();
    for r in B..B + g.y as usize * B {
        for c in B..B + g.x as usize * B {
            let sum = (0..B).fold(0f32, |s, k| m0[at(r, k)].mul_add(m0[at(k, c)], s));
            m[at(r, c)] = m0[at(r, c)] - sum;
        }
    }
    lud_compare(&l, &m)
}
