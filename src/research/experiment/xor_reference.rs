//! The host references of the XOR experiment's kernels (`xor_kernels.rs`): each reads a
//! finished simulation's input buffers, computes what the kernel must have written, and
//! compares it with the output buffer. A bank hash changes where a word lives, never its value
//! (XOR §4: every hash is a bijection on a bank's rows when its rank is full), so every run of
//! every hash method must pass its kernel's check; a failing check is the run's error.
//!
//! The shapes come from the buffers: every kernel here runs on square images (transpose, DCT,
//! convolution) or whole blocks (reduction, FWT, scan, AES), so the buffer lengths fix them.

use crate::sim::Sim;

/// Buffer argument `index` of `sim` as little-endian 32-bit words.
pub(super) fn words(sim: &Sim, index: usize) -> Result<Vec<u32>, String> {
    let bytes = crate::run::buffer_bytes(sim.image(), sim.global(), index)
        .ok_or_else(|| format!("argument {index} is not a buffer"))?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

pub(super) fn ints(sim: &Sim, index: usize) -> Result<Vec<i32>, String> {
    Ok(words(sim, index)?.into_iter().map(|w| w as i32).collect())
}

pub(super) fn floats(sim: &Sim, index: usize) -> Result<Vec<f32>, String> {
    Ok(words(sim, index)?.into_iter().map(f32::from_bits).collect())
}

/// Buffer argument `index` of `sim` as little-endian f64s (a buffer of doubles).
pub(super) fn doubles(sim: &Sim, index: usize) -> Result<Vec<f64>, String> {
    let bytes = crate::run::buffer_bytes(sim.image(), sim.global(), index)
        .ok_or_else(|| format!("argument {index} is not a buffer"))?;
    Ok(bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect())
}

/// The side of a square image of `len` elements.
pub(super) fn side(len: usize) -> Result<usize, String> {
    let n = (len as f64).sqrt().round() as usize;
    (n * n == len)
        .then_some(n)
        .ok_or_else(|| format!("{len} elements is not a square image"))
}

/// `Err` naming the first element where `got` and `want` differ.
pub(super) fn same<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
) -> Result<(), String> {
    same_by(what, got, want, |g, w| g == w)
}

/// [`same`] with the elements compared by `equal` (floats by their bits, say).
pub(super) fn same_by<T: std::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
    equal: impl Fn(&T, &T) -> bool,
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, the reference has {}",
            got.len(),
            want.len()
        ));
    }
    match got.iter().zip(want).position(|(g, w)| !equal(g, w)) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}: element {i} is {:?}, the reference gives {:?}",
            got[i], want[i]
        )),
    }
}

/// `transpose16(out, in, n, n)`: out = in transposed.
pub fn transpose(sim: &Sim) -> Result<(), String> {
    let (out, input) = (floats(sim, 0)?, floats(sim, 1)?);
    let n = side(input.len())?;
    let want: Vec<f32> = (0..n * n).map(|i| input[(i % n) * n + i / n]).collect();
    same("transpose", &out, &want)
}

/// `reduce_interleaved(in, out, n)`: out[b] = the sum of in's block b of 256.
pub fn reduction(sim: &Sim) -> Result<(), String> {
    let (input, out) = (ints(sim, 0)?, ints(sim, 1)?);
    let want: Vec<i32> = input
        .chunks(256)
        .map(|c| c.iter().fold(0i32, |a, &v| a.wrapping_add(v)))
        .collect();
    same("reduction", &out, &want)
}

/// `fwt1024(out, in)`: each block of 1,024 through the Walsh-Hadamard transform (natural order).
pub fn fwt(sim: &Sim) -> Result<(), String> {
    let (out, input) = (ints(sim, 0)?, ints(sim, 1)?);
    let mut want = input.clone();
    for block in want.chunks_mut(1024) {
        let mut h = 1;
        while h < block.len() {
            for i in (0..block.len()).step_by(2 * h) {
                for j in i..i + h {
                    let (a, b) = (block[j], block[j + h]);
                    block[j] = a.wrapping_add(b);
                    block[j + h] = a.wrapping_sub(b);
                }
            }
            h *= 2;
        }
    }
    same("fwt", &out, &want)
}

/// `scan512(out, in)`: each block of 512's exclusive prefix sum.
pub fn scan(sim: &Sim) -> Result<(), String> {
    let (out, input) = (ints(sim, 0)?, ints(sim, 1)?);
    let want: Vec<i32> = input
        .chunks(512)
        .flat_map(|c| {
            c.iter()
                .scan(0i32, |sum, &v| {
                    let before = *sum;
                    *sum = sum.wrapping_add(v);
                    Some(before)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    same("scan", &out, &want)
}

/// `conv_cols(out, in, taps, n, n)`: each pixel the 17-tap column filter, zeros past the edges.
pub fn conv_cols(sim: &Sim) -> Result<(), String> {
    let (out, input, taps) = (ints(sim, 0)?, ints(sim, 1)?, ints(sim, 2)?);
    let n = side(input.len())?;
    let at = |r: i64, c: usize| {
        if (0..n as i64).contains(&r) {
            input[r as usize * n + c]
        } else {
            0
        }
    };
    let want: Vec<i32> = (0..n * n)
        .map(|i| {
            let (r, c) = ((i / n) as i64, i % n);
            (-8i64..=8).fold(0i32, |s, j| {
                s.wrapping_add(taps[(8 + j) as usize].wrapping_mul(at(r + j, c)))
            })
        })
        .collect();
    same("conv_cols", &out, &want)
}

/// `dct8x8` / `idct8x8(dst, src, n)`: each 8 x 8 block's orthonormal 2-D DCT (C X C^T) or its
/// inverse (C^T X C), within 1e-5 of the f64 result.
pub fn dct(sim: &Sim, inverse: bool) -> Result<(), String> {
    let (out, img) = (floats(sim, 0)?, floats(sim, 1)?);
    let w = side(img.len())?;
    let mut c = [[0.0f64; 8]; 8];
    for (k, row) in c.iter_mut().enumerate() {
        let scale = if k == 0 { (1.0f64 / 8.0).sqrt() } else { 0.5 };
        for (n, v) in row.iter_mut().enumerate() {
            *v = scale * ((2 * n + 1) as f64 * k as f64 * std::f64::consts::PI / 16.0).cos();
        }
    }
    let m = |k: usize, n: usize| if inverse { c[n][k] } else { c[k][n] };
    for (i, &got) in out.iter().enumerate() {
        let (y, x) = (i / w, i % w);
        let (by, bx, k, l) = (y - y % 8, x - x % 8, y % 8, x % 8);
        let mut sum = 0.0;
        for a in 0..8 {
            for b in 0..8 {
                sum += m(k, a) * f64::from(img[(by + a) * w + bx + b]) * m(l, b);
            }
        }
        if (f64::from(got) - sum).abs() >= 1e-5 {
            return Err(format!(
                "dct: element {i} is {got}, the reference gives {sum}"
            ));
        }
    }
    Ok(())
}

fn xtime(b: u8) -> u8 {
    (b << 1) ^ if b & 0x80 != 0 { 0x1b } else { 0 }
}

fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        a = xtime(a);
        b >>= 1;
    }
    r
}

/// The S-box from its definition (GF(2^8) inverse, then the affine map), or its inverse.
fn sbox(inverse: bool) -> [u8; 256] {
    let mut s = [0u8; 256];
    for (x, out) in s.iter_mut().enumerate() {
        let inv = (1..256usize)
            .find(|&y| gmul(x as u8, y as u8) == 1)
            .unwrap_or(0) as u8;
        *out = inv
            ^ inv.rotate_left(1)
            ^ inv.rotate_left(2)
            ^ inv.rotate_left(3)
            ^ inv.rotate_left(4)
            ^ 0x63;
    }
    if !inverse {
        return s;
    }
    let mut inv = [0u8; 256];
    for (x, &v) in s.iter().enumerate() {
        inv[v as usize] = x as u8;
    }
    inv
}

/// `aes_encrypt` / `aes_decrypt(out, in, rk)`: each 16-byte block through AES-128 with the 44
/// round-key words `rk` (FIPS-197; decryption by the equivalent inverse cipher, whose keys the
/// launch gives already transformed).
pub fn aes(sim: &Sim, decrypt: bool) -> Result<(), String> {
    aes_of(&words(sim, 0)?, &words(sim, 1)?, &words(sim, 2)?, decrypt)
}

/// [`aes`] on the buffers: `out` against `input` ciphered with the 44 round-key words `keys`.
pub fn aes_of(out: &[u32], input: &[u32], keys: &[u32], decrypt: bool) -> Result<(), String> {
    let keys: Vec<[u8; 4]> = keys.iter().map(|w| w.to_le_bytes()).collect();
    if keys.len() != 44 {
        return Err(format!("aes: {} round-key words, not 44", keys.len()));
    }
    let table = sbox(decrypt);
    let (shift, m) = if decrypt {
        (3, [14, 11, 13, 9])
    } else {
        (1, [2u8, 3, 1, 1])
    };
    let mix = |col: [u8; 4]| -> [u8; 4] {
        std::array::from_fn(|r| (0..4).fold(0, |acc, i| acc ^ gmul(m[(i + 4 - r) % 4], col[i])))
    };
    let want: Vec<u32> = input
        .chunks(4)
        .flat_map(|block| {
            // state[column][row]
            let mut s: [[u8; 4]; 4] = std::array::from_fn(|c| {
                std::array::from_fn(|r| block[c].to_le_bytes()[r] ^ keys[c][r])
            });
            for round in 1..=10 {
                let mut t: [[u8; 4]; 4] = std::array::from_fn(|c| {
                    std::array::from_fn(|r| table[s[(c + shift * r) % 4][r] as usize])
                });
                if round < 10 {
                    t = t.map(mix);
                }
                s = std::array::from_fn(|c| {
                    std::array::from_fn(|r| t[c][r] ^ keys[4 * round + c][r])
                });
            }
            s.map(u32::from_le_bytes)
        })
        .collect();
    same("aes", out, &want)
}
