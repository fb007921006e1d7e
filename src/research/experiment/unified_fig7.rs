//! Programs of the unified memory paper's Fig. 7 (Gebhart et al., MICRO'12, §6.1): Table 1's
//! programs that "do not benefit from the unified design", on which the 384 KB unified SM
//! should be within 1% of the partitioned one. Rodinia's nn and hotspot as the corpus has them
//! (`dice_rodinia_nn.ptx`, `dice_rodinia_hotspot.ptx`, unchanged) and the CUDA samples'
//! VectorAdd as our `tests/data/kernels/vector_add.cu`, each run from a fixed seed and checked
//! against a Rust reference (nn and vector_add bit for bit; hotspot within 1e-5 of a
//! reference in double precision).

use super::host::{Arg, Device};
use super::unified_programs::check_close;
use super::Size;
use crate::launch::{Dim3, ElemType, SplitMix64};

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
