//! Programs of the unified memory paper's Fig. 7 (Gebhart et al., MICRO'12, §6.1): Table 1's
//! programs that "do not benefit from the unified design", on which the 384 KB unified SM
//! should be within 1% of the partitioned one. Rodinia's nn and hotspot as the corpus has them
//! (`dice_rodinia_nn.ptx`, `dice_rodinia_hotspot.ptx`, unchanged) and the CUDA samples'
//! VectorAdd as our `tests/data/kernels/vector_add.cu`; Rodinia's backprop (corpus PTX), and
//! Table 1's aes and the samples' dwtHaar1D as our kernels of the XOR experiment; each run from
//! a fixed seed and checked against a Rust reference (nn, vector_add, backprop, aes and
//! dwtHaar1D bit for bit; hotspot within 1e-5 of a reference in double precision).

use super::host::{Arg, Device};
use super::unified_programs::check_close;
use super::xor_reference;
use super::Size;
use crate::launch::{ArgSpec, Dim3, ElemType, SplitMix64};

pub const NN_PTX: &str = include_str!("../../../tests/data/ptx-corpus/dice_rodinia_nn.ptx");
pub const HOTSPOT_PTX: &str =
    include_str!("../../../tests/data/ptx-corpus/dice_rodinia_hotspot.ptx");
pub const VECTOR_ADD_PTX: &str = include_str!("../../../tests/data/kernels/vector_add.sm_52.ptx");

/// nn's records.
pub fn nn_records(size: Size) -> usize {
    match size {
        Size::Full => 65536,
        Size::Quick => 4096,
    }
}

/// Rodinia nn's host (nn_cuda.cu): the records' (latitude, longitude) pairs, `euclid` on
/// ceil(n / 256) CTAs of 256 computing each record's distance to (30, 90); the host then picks
/// the nearest (not simulated). Checked bit for bit: sqrt of (lat - 30)^2 + (lng - 90)^2 with
/// one fused multiply-add, as the PTX computes it.
pub fn nn(device: &mut Device, n: usize) -> Result<(), String> {
    let (lat, lng) = (30f32, 90f32);
    let mut rng = SplitMix64::new(13);
    let records: Vec<f32> = (0..2 * n).map(|_| rng.next_f32() * 180.0 - 90.0).collect();
    device.upload_f32("locations", &records);
    device.upload("distances", ElemType::F32, vec![0; n * 4]);
    let args = [
        Arg::Buffer("locations"),
        Arg::Buffer("distances"),
        Arg::Value(n as i64),
        Arg::Float(lat.into()),
        Arg::Float(lng.into()),
    ];
    device.launch(
        "_Z6euclidP7latLongPfiff",
        Dim3::linear(n.div_ceil(256) as u32),
        256,
        &args,
    )?;
    let got = device.f32s("distances");
    let want: Vec<f32> = records
        .chunks(2)
        .map(|r| {
            let (dy, dx) = (lat - r[0], lng - r[1]);
            dy.mul_add(dy, dx * dx).sqrt()
        })
        .collect();
    let as_f64: Vec<f64> = want.iter().map(|&v| v as f64).collect();
    check_close(&got, &as_f64, 1e-6, 1.0, "nn's distances")
}

/// vector_add's elements.
pub fn vector_add_length(size: Size) -> usize {
    match size {
        Size::Full => 1 << 20,
        Size::Quick => 1 << 14,
    }
}

/// The CUDA samples' VectorAdd: c = a + b on ceil(n / 256) CTAs of 256, checked bit for bit.
pub fn vector_add(device: &mut Device, n: usize) -> Result<(), String> {
    let mut rng = SplitMix64::new(15);
    let a: Vec<f32> = (0..n).map(|_| rng.next_f32()).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.next_f32()).collect();
    device.upload_f32("a", &a);
    device.upload_f32("b", &b);
    device.upload("c", ElemType::F32, vec![0; n * 4]);
    let args = [
        Arg::Buffer("a"),
        Arg::Buffer("b"),
        Arg::Buffer("c"),
        Arg::Value(n as i64),
    ];
    device.launch(
        "vector_add",
        Dim3::linear(n.div_ceil(256) as u32),
        256,
        &args,
    )?;
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    if device.f32s("c") == want {
        Ok(())
    } else {
        Err("vector_add's sums differ from the reference".to_string())
    }
}

/// hotspot's grid side and steps (pyramid height 2, as Rodinia's run script).
pub fn hotspot_shape(size: Size) -> (usize, usize) {
    match size {
        Size::Full => (512, 4),
        Size::Quick => (64, 2),
    }
}

/// hotspot.cu's chip constants for an n x n grid: (cap, rx, ry, rz, step).
fn chip(n: usize) -> [f32; 5] {
    let (t_chip, chip_height, chip_width) = (0.0005f32, 0.016f32, 0.016f32);
    let (factor_chip, spec_heat_si, k_si, max_pd, precision) =
        (0.5f64, 1.75e6f64, 100f64, 3.0e6f64, 0.001f64);
    let grid_height = (chip_height / n as f32) as f64;
    let grid_width = (chip_width / n as f32) as f64;
    let t_chip = t_chip as f64;
    let cap = factor_chip * spec_heat_si * t_chip * grid_width * grid_height;
    let rx = grid_width / (2.0 * k_si * t_chip * grid_height);
    let ry = grid_height / (2.0 * k_si * t_chip * grid_width);
    let rz = t_chip / (k_si * grid_height * grid_width);
    let max_slope = (max_pd / (factor_chip * t_chip * spec_heat_si)) as f32;
    let step = precision / max_slope as f64;
    [cap, rx, ry, rz, step].map(|v| v as f32)
}

/// One hotspot step over the whole grid in double precision, neighbours clamped at the border
/// (what each level of the kernel's pyramid computes); ambient temperature 80.
pub fn hotspot_step(temp: &[f64], power: &[f32], n: usize, chip: [f32; 5]) -> Vec<f64> {
    let [cap, rx, ry, rz, step] = chip.map(f64::from);
    let mut out = vec![0f64; n * n];
    for y in 0..n {
        for x in 0..n {
            let at = |yy: usize, xx: usize| temp[yy * n + xx];
            let t = at(y, x);
            let ns = at(y.saturating_sub(1), x) + at((y + 1).min(n - 1), x);
            let ew = at(y, x.saturating_sub(1)) + at(y, (x + 1).min(n - 1));
            let delta = power[y * n + x] as f64
                + (ns - 2.0 * t) / ry
                + (ew - 2.0 * t) / rx
                + (80.0 - t) / rz;
            out[y * n + x] = t + step / cap * delta;
        }
    }
    out
}

/// Rodinia hotspot's host (hotspot.cu): 16 x 16 CTAs each computing a 12 x 12 tile through a
/// pyramid of 2 steps, launched per 2 steps with source and destination swapping; power in
/// [0, 1e-3), temperatures in [323, 333).
pub fn hotspot(device: &mut Device, (n, steps): (usize, usize)) -> Result<(), String> {
    let pyramid = 2usize;
    let blocks = n.div_ceil(16 - 2 * pyramid) as u32;
    let c = chip(n);
    let mut rng = SplitMix64::new(41);
    let power: Vec<f32> = (0..n * n).map(|_| rng.next_f32() * 1e-3).collect();
    let temp: Vec<f32> = (0..n * n).map(|_| 323.0 + 10.0 * rng.next_f32()).collect();
    let mut want: Vec<f64> = temp.iter().map(|&v| v as f64).collect();
    device.upload_f32("power", &power);
    device.upload_f32("temp0", &temp);
    device.upload("temp1", ElemType::F32, vec![0; n * n * 4]);
    let mut buffers = ["temp0", "temp1"];
    for t in (0..steps).step_by(pyramid) {
        let iteration = pyramid.min(steps - t);
        let mut args = vec![
            Arg::Value(iteration as i64),
            Arg::Buffer("power"),
            Arg::Buffer(buffers[0]),
            Arg::Buffer(buffers[1]),
            Arg::Value(n as i64),
            Arg::Value(n as i64),
            Arg::Value(pyramid as i64),
            Arg::Value(pyramid as i64),
        ];
        args.extend(c.map(|v| Arg::Float(v.into())));
        args.push(Arg::Float(0.001));
        let grid = Dim3 {
            x: blocks,
            y: blocks,
            z: 1,
        };
        device.launch_block(
            "_Z14calculate_tempiPfS_S_iiiiffffff",
            grid,
            Dim3 { x: 16, y: 16, z: 1 },
            &args,
        )?;
        for _ in 0..iteration {
            want = hotspot_step(&want, &power, n, c);
        }
        buffers.swap(0, 1);
    }
    check_close(
        &device.f32s(buffers[0]),
        &want,
        1e-5,
        1.0,
        "hotspot's temperatures",
    )
}

pub const BACKPROP_PTX: &str =
    include_str!("../../../tests/data/ptx-corpus/dice_rodinia_backprop.ptx");
pub const AES_PTX: &str = include_str!("../../../tests/data/kernels/elastic.sm_52.ptx");
pub const HAAR_PTX: &str = include_str!("../../../tests/data/kernels/xor_suite.sm_52.ptx");

/// backprop's input units (Rodinia's run script: 65,536).
pub fn backprop_inputs(size: Size) -> usize {
    match size {
        Size::Full => 65536,
        Size::Quick => 1024,
    }
}

/// Backprop's hidden units (Rodinia's `hid`, fixed at 16 by the kernels' 16 x 16 blocks).
const HID: usize = 16;

/// Rodinia backprop's training step (backprop_cuda.cu): `bpnn_layerforward_CUDA` on 1 x in/16
/// CTAs of 16 x 16 (each block's products of 16 inputs and their 16 hidden weights, summed down
/// a tree in shared memory), the host's hidden and output layers and errors, then
/// `bpnn_adjust_weights_cuda` on the same grid with the weights copied back in. Units and
/// weights in [0, 1) from a fixed seed. Both launches are checked bit for bit: the tree in the
/// kernel's f32 order, and the update as nvcc 11.7 compiled it (eta = momentum = 0.3 as a
/// double: `w += fma(0.3 delta, ly, 0.3 oldw)` in f64, rounded once).
pub fn backprop(device: &mut Device, inputs: usize) -> Result<(), String> {
    let mut rng = SplitMix64::new(17);
    let mut units = |k: usize| (0..k).map(|_| rng.next_f32()).collect::<Vec<f32>>();
    let input = units(inputs + 1);
    let weights = units((inputs + 1) * (HID + 1));
    let oldw = units((inputs + 1) * (HID + 1));
    let hidden_weights = units(HID + 1);
    let blocks = inputs / 16;
    device.upload_f32("input", &input);
    device.upload("output_hidden", ElemType::F32, vec![0; (HID + 1) * 4]);
    device.upload_f32("weights", &weights);
    device.upload("partial", ElemType::F32, vec![0; blocks * HID * 4]);
    let grid = Dim3 {
        x: 1,
        y: blocks as u32,
        z: 1,
    };
    let block = Dim3 { x: 16, y: 16, z: 1 };
    let args = [
        Arg::Buffer("input"),
        Arg::Buffer("output_hidden"),
        Arg::Buffer("weights"),
        Arg::Buffer("partial"),
        Arg::Value(inputs as i64),
        Arg::Value(HID as i64),
    ];
    device.launch_block("_Z22bpnn_layerforward_CUDAPfS_S_S_ii", grid, block, &args)?;
    let partial = layerforward_sums(&input, &weights, blocks);
    same_bits(
        &device.f32s("partial"),
        &partial,
        "backprop's hidden partial sums",
    )?;
    let delta = hidden_delta(&partial, &weights, &hidden_weights, blocks);
    device.upload_f32("delta", &delta);
    device.upload_f32("weights", &weights);
    device.upload_f32("oldw", &oldw);
    let args = [
        Arg::Buffer("delta"),
        Arg::Value(HID as i64),
        Arg::Buffer("input"),
        Arg::Value(inputs as i64),
        Arg::Buffer("weights"),
        Arg::Buffer("oldw"),
    ];
    device.launch_block("_Z24bpnn_adjust_weights_cudaPfiS_iS_S_", grid, block, &args)?;
    let (want_w, want_oldw) = backprop_adjusted(&delta, &input, &weights, &oldw, blocks);
    same_bits(
        &device.f32s("weights"),
        &want_w,
        "backprop's adjusted weights",
    )?;
    same_bits(
        &device.f32s("oldw"),
        &want_oldw,
        "backprop's weight changes",
    )
}

/// `bpnn_layerforward_CUDA`'s hidden_partial_sum: block `by`'s column sums of weight x input
/// over its 16 input rows, summed as the kernel's tree does (row r adds row r + p/2 for p = 2,
/// 4, 8, 16 where r is a multiple of p).
fn layerforward_sums(input: &[f32], weights: &[f32], blocks: usize) -> Vec<f32> {
    let mut partial = vec![0f32; blocks * HID];
    for by in 0..blocks {
        let mut m = [[0f32; 16]; 16];
        for (ty, row) in m.iter_mut().enumerate() {
            for (tx, cell) in row.iter_mut().enumerate() {
                *cell = weights[weight_index(by, ty, tx)] * input[16 * by + ty + 1];
            }
        }
        for p in [2usize, 4, 8, 16] {
            for ty in (0..16).step_by(p) {
                let below = m[ty + p / 2];
                for (cell, add) in m[ty].iter_mut().zip(below) {
                    *cell += add;
                }
            }
        }
        partial[by * HID..by * HID + HID].copy_from_slice(&m[0]);
    }
    partial
}

/// The weight of input row `16 by + ty + 1` to hidden unit `tx + 1` (row-major, `HID + 1` a row).
fn weight_index(by: usize, ty: usize, tx: usize) -> usize {
    (HID + 1) * (16 * by + ty + 1) + tx + 1
}

fn squash(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The host's side of the step (backprop.c): hidden units = squash(bias weight + the blocks'
/// partial sums), one output unit against target 0.1, and the hidden units' error terms.
fn hidden_delta(partial: &[f32], weights: &[f32], out_weights: &[f32], blocks: usize) -> Vec<f32> {
    let hidden: Vec<f32> = (0..=HID)
        .map(|j| match j {
            0 => 1.0,
            _ => squash(weights[j] + (0..blocks).map(|b| partial[b * HID + j - 1]).sum::<f32>()),
        })
        .collect();
    let output = squash(hidden.iter().zip(out_weights).map(|(h, w)| h * w).sum());
    let out_delta = output * (1.0 - output) * (0.1 - output);
    (0..=HID)
        .map(|j| match j {
            0 => 0.0,
            _ => hidden[j] * (1.0 - hidden[j]) * out_weights[j] * out_delta,
        })
        .collect()
}

/// `bpnn_adjust_weights_cuda` as nvcc 11.7 compiles the corpus's source (`weights`, `oldw`
/// after the launch of `blocks` blocks of 16 x 16): every weight of the grid's rows, and row 0
/// (the bias) by the threads of block 0's first row. nvcc keeps the C source's double
/// arithmetic: eta = momentum = 0.3 as a double, `w += fma(0.3 delta, ly, 0.3 oldw)` in f64,
/// rounded once to f32; oldw likewise. (tests/corpus_rodinia.rs checks the corpus's kernel
/// against it.)
pub fn backprop_adjusted(
    delta: &[f32],
    ly: &[f32],
    weights: &[f32],
    oldw: &[f32],
    blocks: usize,
) -> (Vec<f32>, Vec<f32>) {
    let (mut w, mut old) = (weights.to_vec(), oldw.to_vec());
    let mut update = |index: usize, x: usize, y: Option<usize>| {
        let d = delta[x] as f64 * 0.3;
        let o = oldw[index] as f64 * 0.3;
        let step = match y {
            Some(y) => d.mul_add(ly[y] as f64, o),
            None => (delta[x] as f64).mul_add(0.3, o),
        };
        w[index] = (step + weights[index] as f64) as f32;
        old[index] = step as f32;
    };
    for by in 0..blocks {
        for ty in 0..16 {
            for tx in 0..16 {
                update(weight_index(by, ty, tx), tx + 1, Some(16 * by + ty + 1));
            }
        }
    }
    for tx in 0..16 {
        update(tx + 1, tx + 1, None);
    }
    (w, old)
}

/// `Err` naming `what` and the first element whose bits differ.
fn same_bits(got: &[f32], want: &[f32], what: &str) -> Result<(), String> {
    xor_reference::same_by(what, got, want, |g, w| g.to_bits() == w.to_bits())
}

/// aes's 16-byte blocks (Table 1's aes [2]: 1 MB of them).
pub fn aes_blocks(size: Size) -> usize {
    match size {
        Size::Full => 65536,
        Size::Quick => 1024,
    }
}

/// AES-128 encryption with its T-tables in shared memory (our `aes_encrypt`, Manavski's
/// layout: a state word a thread, four threads a 16-byte block, 256 threads a CTA), random
/// plaintext, FIPS-197's key; every ciphertext block checked against the host's AES
/// (`xor_reference::aes_of`).
pub fn aes(device: &mut Device, blocks: usize) -> Result<(), String> {
    let keys = super::xor_kernels::ENCRYPT_KEYS;
    let keys = match ArgSpec::parse(keys) {
        Ok(ArgSpec::Buffer { elem, count, init }) => {
            ArgSpec::initial_bytes(elem, count, &init, &|p| Err(format!("no file {p}")))?
        }
        _ => return Err("aes: the round keys do not parse".into()),
    };
    let mut rng = SplitMix64::new(19);
    let plain: Vec<u32> = (0..4 * blocks).map(|_| rng.next_u64() as u32).collect();
    let bytes = |v: &[u32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    device.upload("out", ElemType::U32, vec![0; 16 * blocks]);
    device.upload("in", ElemType::U32, bytes(&plain));
    device.upload("rk", ElemType::U32, keys.clone());
    let args = [Arg::Buffer("out"), Arg::Buffer("in"), Arg::Buffer("rk")];
    device.launch(
        "aes_encrypt",
        Dim3::linear((4 * blocks).div_ceil(256) as u32),
        256,
        &args,
    )?;
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    };
    xor_reference::aes_of(&words(device.bytes("out")), &plain, &words(&keys), false)
}

/// dwtHaar1D's signal length: 256 CTAs of 1,024 ints.
pub fn haar_length(size: Size) -> usize {
    match size {
        Size::Full => 1 << 18,
        Size::Quick => 1 << 12,
    }
}

/// The CUDA samples' dwtHaar1D as our `dwt_haar1d` (`xor_suite.cu`): each CTA of 512 threads
/// takes 1,024 ints through 10 levels in shared memory, storing every detail coefficient where
/// the sample does; random ints in [-1000, 1000], checked exactly (`haar_of`).
pub fn haar(device: &mut Device, n: usize) -> Result<(), String> {
    let blocks = n / 1024;
    let mut rng = SplitMix64::new(23);
    let signal: Vec<i32> = (0..n)
        .map(|_| rng.next_in_range(-1000, 1000) as i32)
        .collect();
    device.upload("out", ElemType::S32, vec![0; n * 4]);
    device.upload("approx", ElemType::S32, vec![0; blocks * 4]);
    device.upload_i32("in", &signal);
    let args = [Arg::Buffer("out"), Arg::Buffer("approx"), Arg::Buffer("in")];
    device.launch("dwt_haar1d", Dim3::linear(blocks as u32), 512, &args)?;
    super::xor_reference_suite::haar_of(&device.i32s("out"), &device.i32s("approx"), &signal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backprops_references_sum_the_tree_and_compare_bits() {
        // Ones everywhere: every hidden unit's partial sum over a block's 16 rows is 16.
        let blocks = 3;
        let (input, weights) = (
            vec![1f32; 16 * blocks + 1],
            vec![1f32; (16 * blocks + 1) * (HID + 1)],
        );
        assert_eq!(
            layerforward_sums(&input, &weights, blocks),
            vec![16f32; blocks * HID]
        );
        // The update moves every weight the grid covers and the bias row, nothing else.
        let delta = vec![0.5f32; HID + 1];
        let (w, old) = backprop_adjusted(&delta, &input, &weights, &weights, blocks);
        assert_eq!(w[0], 1.0, "the bias of the bias unit is not updated");
        assert_eq!(old[1], (0.5f64.mul_add(0.3, 0.3)) as f32);
        assert_eq!(
            w[weight_index(2, 15, 15)],
            (0.15f64.mul_add(1.0, 0.3) + 1.0) as f32
        );
        let one_ulp = f32::from_bits(w[5].to_bits() + 1);
        let mut wrong = w.clone();
        wrong[5] = one_ulp;
        let err = same_bits(&wrong, &w, "w").unwrap_err();
        assert!(err.starts_with("w: element 5 is"), "{err}");
    }
}
