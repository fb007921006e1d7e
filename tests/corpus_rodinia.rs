//! The Rodinia kernels of the PTX corpus (tests/data/ptx-corpus; each `.src.txt` gives the
//! origin, licence and the launch its host program used) run unchanged on data made here, and
//! every output element equals a reference computed here in plain Rust, following the Rodinia
//! algorithm and the operation order of the PTX (issue 3, "Done when").
//!
//! Inputs are scaled down so the debug build stays fast. Where the host program launches a
//! kernel repeatedly (bfs until nothing changes, hotspot and pathfinder pyramids, gaussian over
//! rows, needle over block diagonals, srad iterations), the test drives the same launches and
//! passes each launch's output buffers to the next as `list:` data.
//!
//! Floating point: every float kernel here uses only IEEE add/sub/mul/div/sqrt/rcp (`.rn`),
//! fused multiply-adds and f32<->f64 conversions, so the references use the same operations in
//! the same order (`mul_add` for `fma`/`mad.rn`) and results are compared bit for bit. The one
//! kernel with approximate instructions (ocelot backprop: `lg2.approx`, `ex2.approx`) uses them
//! only for its loop bound and stride, where they are exact (log2 of 16 and 2 to an integer
//! power); its float outputs are plain adds and multiplies, compared bit for bit too.

mod common;

use common::*;
use warpstep::experiment::unified_fig7::backprop_adjusted;

fn corpus(name: &str) -> String {
    data(&format!("ptx-corpus/{name}.ptx"))
}

/// `TYPE[N]=list:...` holding exactly `values`.
fn buffer<T: ToString>(ty: &str, values: &[T]) -> String {
    format!("{ty}[{}]={}", values.len(), list(values))
}

/// A float written so that it reads back as exactly `v`: the f64 it widens to, in shortest
/// round-trip form (a decimal parsed to f64 and then rounded to f32 could round twice).
fn float(v: f32) -> String {
    assert!(v.is_finite(), "{v} cannot be passed as text");
    format!("{:e}", v as f64)
}

/// `f32[N]=list:...` holding exactly `values`.
fn f32_buffer(values: &[f32]) -> String {
    let items: Vec<String> = values.iter().map(|&v| float(v)).collect();
    format!("f32[{}]=list:{}", values.len(), items.join(","))
}

/// Runs `ptx` with `flags` (owned strings) and returns the prepared launch with its buffers.
fn run(ptx: &str, flags: &[String]) -> warpstep::run::Prepared {
    run_with(ptx, flags, &[])
}

/// `run` with `extra` flags appended (a configuration variant).
fn run_with(ptx: &str, flags: &[String], extra: &[&str]) -> warpstep::run::Prepared {
    let mut refs: Vec<&str> = flags.iter().map(String::as_str).collect();
    refs.extend_from_slice(extra);
    run_ok(ptx, &refs)
}

/// Configurations the most divergent kernels also run under: their results must not depend
/// on the SIMT stack's push order or on the warp size (MODEL.md section 3).
const SIMT_VARIANTS: [&[&str]; 4] = [
    &[],
    &["--set", "core.push_order=fallthrough_last"],
    &["--set", "core.push_order=smaller_last"],
    &[
        "--set",
        "core.warp_size=16",
        "--set",
        "core.simd_width=16",
        "--set",
        "core.max_warps_per_sm=96",
    ],
];

/// `--flag value` pairs from `(flag, value)` items.
fn flags(items: &[(&str, String)]) -> Vec<String> {
    items
        .iter()
        .flat_map(|(f, v)| [f.to_string(), v.clone()])
        .collect()
}

/// Uniform in [0, 1), 24 random bits.
fn unit(rng: &mut Rng) -> f32 {
    rng.below(1 << 24) as f32 / (1u32 << 24) as f32
}

fn assert_bits_eq(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g.to_bits(),
            w.to_bits(),
            "{what}[{i}]: got {g:e}, expected {w:e}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// bfs (dice, nvcc 11.7): Kernel and Kernel2, launched until no node is updated.

/// A random graph in Rodinia's layout: per node (first edge, edge count), then the edge list.
fn random_graph(rng: &mut Rng, nodes: usize) -> (Vec<i32>, Vec<i32>) {
    let mut node_words = Vec::with_capacity(2 * nodes);
    let mut edges = Vec::new();
    for _ in 0..nodes {
        // A few nodes without edges exercise the kernel's `no_of_edges < 1` exit.
        // Mostly short hops forward (so the search needs many levels), some long ones.
        let degree = if !node_words.is_empty() && rng.below(10) == 0 {
            0
        } else {
            1 + rng.below(3) as usize
        };
        let here = node_words.len() / 2;
        node_words.push(edges.len() as i32);
        node_words.push(degree as i32);
        for _ in 0..degree {
            let to = if rng.below(8) == 0 {
                rng.below(nodes as u64) as usize
            } else {
                (here + 1 + rng.below(6) as usize) % nodes
            };
            edges.push(to as i32);
        }
    }
    (node_words, edges)
}

#[test]
fn dice_bfs_until_no_change() {
    for extra in SIMT_VARIANTS {
        bfs(extra);
    }
}

fn bfs(extra: &[&str]) {
    // Host (bfs.cu): grid ceil(n/512), block min(n, 512); the kernels index ctaid.x * 512, so
    // the block must be 512. Here 700 nodes: grid 2, block 512, the last 324 threads idle.
    let n = 700usize;
    let mut rng = Rng::new(21);
    let (nodes, edges) = random_graph(&mut rng, n);
    let ptx = corpus("dice_rodinia_bfs");

    // Reference: breadth-first distances from node 0 (what level-synchronous BFS computes).
    let mut want_cost = vec![-1i32; n];
    want_cost[0] = 0;
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(u) = queue.pop_front() {
        let (start, degree) = (nodes[2 * u] as usize, nodes[2 * u + 1] as usize);
        for &v in &edges[start..start + degree] {
            if want_cost[v as usize] < 0 {
                want_cost[v as usize] = want_cost[u] + 1;
                queue.push_back(v as usize);
            }
        }
    }
    let depth = *want_cost.iter().max().unwrap();
    assert!(
        depth >= 8,
        "the graph should need several levels, not {depth}"
    );
    assert!(want_cost.contains(&-1), "some nodes should stay unreached");

    let mut mask = vec![0u8; n];
    let mut updating = vec![0u8; n];
    let mut visited = vec![0u8; n];
    let mut cost = vec![-1i32; n];
    mask[0] = 1;
    visited[0] = 1;
    cost[0] = 0;
    let mut launches = 0;
    loop {
        launches += 1;
        assert!(launches <= n, "bfs does not terminate");
        let p = run_with(
            &ptx,
            &flags(&[
                ("--kernel", "_Z6KernelP4NodePiPbS2_S2_S1_i".into()),
                ("--grid", "2".into()),
                ("--block", "512".into()),
                ("--arg", buffer("s32", &nodes)),
                ("--arg", buffer("s32", &edges)),
                ("--arg", buffer("u8", &mask)),
                ("--arg", buffer("u8", &updating)),
                ("--arg", buffer("u8", &visited)),
                ("--arg", buffer("s32", &cost)),
                ("--arg", n.to_string()),
            ]),
            extra,
        );
        mask = u8s(&p, 2);
        updating = u8s(&p, 3);
        cost = i32s(&p, 5);
        assert_eq!(u8s(&p, 4), visited, "Kernel must not write visited");
        let p = run_with(
            &ptx,
            &flags(&[
                ("--kernel", "_Z7Kernel2PbS_S_S_i".into()),
                ("--grid", "2".into()),
                ("--block", "512".into()),
                ("--arg", buffer("u8", &mask)),
                ("--arg", buffer("u8", &updating)),
                ("--arg", buffer("u8", &visited)),
                ("--arg", "u8[1]=0".into()),
                ("--arg", n.to_string()),
            ]),
            extra,
        );
        mask = u8s(&p, 0);
        updating = u8s(&p, 1);
        visited = u8s(&p, 2);
        if u8s(&p, 3)[0] == 0 {
            break;
        }
    }
    assert_eq!(cost, want_cost);
    let want_visited: Vec<u8> = want_cost.iter().map(|&c| (c >= 0) as u8).collect();
    assert_eq!(visited, want_visited);
    assert!(mask.iter().chain(&updating).all(|&b| b == 0));
    // One launch pair per level, plus the one that finds nothing new.
    assert_eq!(launches, depth as usize + 1);
}

// ---------------------------------------------------------------------------------------------
// backprop: bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda, in both compilations.

const HID: usize = 16;

/// Reference of bpnn_layerforward_CUDA: per block of 16 input rows, weight_matrix[ty][tx] =
/// w[index] * input[index_in], then the tree over ty (stride 1, 2, 4, 8: row ty adds row
/// ty + p/2 when ty % p == 0, each step after a barrier). Returns the weights written back
/// (every row holds its partial sum) and hidden_partial_sum.
fn layerforward_reference(input: &[f32], weights: &[f32], inputs: usize) -> (Vec<f32>, Vec<f32>) {
    let mut w_out = weights.to_vec();
    let mut partial = vec![0f32; inputs / 16 * HID];
    for by in 0..inputs / 16 {
        let index = |ty: usize, tx: usize| (HID + 1) * 16 * by + (HID + 1) * ty + tx + 1 + HID + 1;
        let mut m = [[0f32; 16]; 16];
        for (ty, row) in m.iter_mut().enumerate() {
            let node = input[16 * by + ty + 1];
            for (tx, cell) in row.iter_mut().enumerate() {
                *cell = weights[index(ty, tx)] * node;
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
        for ty in 0..16 {
            for tx in 0..16 {
                w_out[index(ty, tx)] = m[ty][tx];
            }
            partial[by * HID + ty] = m[0][ty];
        }
    }
    (w_out, partial)
}

struct BackpropData {
    inputs: usize,
    input: Vec<f32>,
    weights: Vec<f32>,
    delta: Vec<f32>,
    oldw: Vec<f32>,
}

fn backprop_data(seed: u64, inputs: usize) -> BackpropData {
    let mut rng = Rng::new(seed);
    let mut values = |k: usize| (0..k).map(|_| unit(&mut rng)).collect::<Vec<f32>>();
    BackpropData {
        inputs,
        input: values(inputs + 1),
        weights: values((inputs + 1) * (HID + 1)),
        delta: values(HID + 1),
        oldw: values((inputs + 1) * (HID + 1)),
    }
}

fn check_layerforward(ptx: &str, d: &BackpropData) {
    // Host (backprop_cuda.cu): block (16,16), grid (1, in/16), hid = 16.
    let p = run(
        ptx,
        &flags(&[
            ("--kernel", "_Z22bpnn_layerforward_CUDAPfS_S_S_ii".into()),
            ("--grid", format!("1,{}", d.inputs / 16)),
            ("--block", "16,16".into()),
            ("--arg", f32_buffer(&d.input)),
            ("--arg", format!("f32[{}]=0", HID + 1)),
            ("--arg", f32_buffer(&d.weights)),
            ("--arg", format!("f32[{}]=0", d.inputs / 16 * HID)),
            ("--arg", d.inputs.to_string()),
            ("--arg", HID.to_string()),
        ]),
    );
    let (w_out, partial) = layerforward_reference(&d.input, &d.weights, d.inputs);
    assert_bits_eq(&f32s(&p, 2), &w_out, "input_hidden_cuda");
    assert_bits_eq(&f32s(&p, 3), &partial, "hidden_partial_sum");
    assert_eq!(
        f32s(&p, 1),
        vec![0.0; HID + 1],
        "output_hidden_cuda is unused"
    );
}

/// Runs bpnn_adjust_weights_cuda (`extra` are the trailing scalar arguments) and returns
/// (w, oldw).
fn run_adjust(ptx: &str, d: &BackpropData, ly: &[f32], extra: &[&str]) -> (Vec<f32>, Vec<f32>) {
    let kernel = if extra.is_empty() {
        "_Z24bpnn_adjust_weights_cudaPfiS_iS_S_"
    } else {
        "_Z24bpnn_adjust_weights_cudaPfiS_iS_S_ff"
    };
    let mut f = flags(&[
        ("--kernel", kernel.into()),
        ("--grid", format!("1,{}", d.inputs / 16)),
        ("--block", "16,16".into()),
        ("--arg", f32_buffer(&d.delta)),
        ("--arg", HID.to_string()),
        ("--arg", f32_buffer(ly)),
        ("--arg", d.inputs.to_string()),
        ("--arg", f32_buffer(&d.weights)),
        ("--arg", f32_buffer(&d.oldw)),
    ]);
    for e in extra {
        f.extend(["--arg".to_string(), e.to_string()]);
    }
    let p = run(ptx, &f);
    (f32s(&p, 4), f32s(&p, 5))
}

/// The cells bpnn_adjust_weights_cuda updates: (index, index_x, index_y) for the thread
/// grid, then (index_x, index_x, none) for row 0 (threads ty == 0 of block 0).
fn adjust_cells(inputs: usize) -> Vec<(usize, usize, Option<usize>)> {
    let mut cells = Vec::new();
    for by in 0..inputs / 16 {
        for ty in 0..16 {
            for tx in 0..16 {
                let index = (HID + 1) * 16 * by + (HID + 1) * ty + tx + 1 + HID + 1;
                cells.push((index, tx + 1, Some(16 * by + ty + 1)));
            }
        }
    }
    for tx in 0..16 {
        cells.push((tx + 1, tx + 1, None));
    }
    cells
}

#[test]
fn dice_backprop_layerforward() {
    check_layerforward(&corpus("dice_rodinia_backprop"), &backprop_data(31, 256));
}

#[test]
fn ocelot_backprop_layerforward() {
    check_layerforward(
        &corpus("ocelot_rodinia_backprop_cuda_kernel"),
        &backprop_data(32, 128),
    );
}

#[test]
fn dice_backprop_adjust_weights() {
    // nvcc 11.7 keeps the C source's double arithmetic: eta = momentum = 0.3 (as a double),
    // w += fma(0.3 * delta, ly, 0.3 * oldw) in f64, rounded once to f32; oldw likewise.
    let d = backprop_data(33, 64);
    let mut rng = Rng::new(34);
    let ly: Vec<f32> = (0..d.inputs + 1).map(|_| unit(&mut rng)).collect();
    let (w, oldw) = run_adjust(&corpus("dice_rodinia_backprop"), &d, &ly, &[]);
    let (want_w, want_oldw) = backprop_adjusted(&d.delta, &ly, &d.weights, &d.oldw, d.inputs / 16);
    assert_bits_eq(&w, &want_w, "w");
    assert_bits_eq(&oldw, &want_oldw, "oldw");
}

#[test]
fn ocelot_backprop_adjust_weights() {
    // nvopencc 4.0 computes in f32 with 0.3f: w += fma(ly, delta * 0.3f, oldw * 0.3f); the
    // eta and momentum parameters are overwritten by the kernel (their values do not matter).
    let d = backprop_data(35, 64);
    let mut rng = Rng::new(36);
    let ly: Vec<f32> = (0..d.inputs + 1).map(|_| unit(&mut rng)).collect();
    let (w, oldw) = run_adjust(
        &corpus("ocelot_rodinia_backprop_cuda_kernel"),
        &d,
        &ly,
        &["5.5", "-2"],
    );
    let (mut want_w, mut want_oldw) = (d.weights.clone(), d.oldw.clone());
    for (index, x, y) in adjust_cells(d.inputs) {
        let old = d.oldw[index] * 0.3f32;
        let step = match y {
            Some(y) => ly[y].mul_add(d.delta[x] * 0.3f32, old),
            None => d.delta[x].mul_add(0.3f32, old),
        };
        want_w[index] = d.weights[index] + step;
        want_oldw[index] = step;
    }
    assert_bits_eq(&w, &want_w, "w");
    assert_bits_eq(&oldw, &want_oldw, "oldw");
}

// ---------------------------------------------------------------------------------------------
// hotspot: calculate_temp, a pyramid of `iteration` stencil steps per launch.

/// The host's chip constants (hotspot.cu) for a square grid of `n` cells per side.
struct Chip {
    cap: f32,
    rx: f32,
    ry: f32,
    rz: f32,
    step: f32,
}

fn chip(n: usize) -> Chip {
    let (t_chip, chip_height, chip_width) = (0.0005f32, 0.016f32, 0.016f32);
    let (factor_chip, spec_heat_si, k_si, max_pd, precision) =
        (0.5f64, 1.75e6f64, 100f64, 3.0e6f64, 0.001f64);
    let grid_height = chip_height / n as f32;
    let grid_width = chip_width / n as f32;
    let cap = (factor_chip * spec_heat_si * t_chip as f64 * grid_width as f64 * grid_height as f64)
        as f32;
    let rx = (grid_width as f64 / (2.0 * k_si * t_chip as f64 * grid_height as f64)) as f32;
    let ry = (grid_height as f64 / (2.0 * k_si * t_chip as f64 * grid_width as f64)) as f32;
    let rz = (t_chip as f64 / (k_si * grid_height as f64 * grid_width as f64)) as f32;
    let max_slope = (max_pd / (factor_chip * t_chip as f64 * spec_heat_si)) as f32;
    let step = (precision / max_slope as f64) as f32;
    Chip {
        cap,
        rx,
        ry,
        rz,
        step,
    }
}

/// One stencil step over the whole grid, neighbours clamped at the border (what the pyramid
/// computes). Operation order of both compilations: N+S and E+W in f32, the rest in f64 with
/// fused multiply-adds, rounded once to f32.
fn hotspot_step(temp: &[f32], power: &[f32], n: usize, c: &Chip) -> Vec<f32> {
    let step_div_cap = (c.step / c.cap) as f64;
    let (rx_1, ry_1, rz_1) = ((1.0 / c.rx) as f64, (1.0 / c.ry) as f64, 1.0 / c.rz);
    let mut out = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let t = temp[y * n + x];
            let at = |yy: usize, xx: usize| temp[yy * n + xx];
            let north = at(y.saturating_sub(1), x);
            let south = at((y + 1).min(n - 1), x);
            let west = at(y, x.saturating_sub(1));
            let east = at(y, (x + 1).min(n - 1));
            let t2 = t as f64 + t as f64;
            let v = ((south + north) as f64 - t2).mul_add(ry_1, power[y * n + x] as f64);
            let v = ((east + west) as f64 - t2).mul_add(rx_1, v);
            let v = v + (rz_1 * (80.0 - t)) as f64;
            out[y * n + x] = v.mul_add(step_div_cap, t as f64) as f32;
        }
    }
    out
}

fn check_hotspot(file: &str, seed: u64, extra: &[&str]) {
    // Host: block (16,16), grid = ceil(n / (16 - 2*pyramid))^2, border = pyramid; launched
    // for t in (0..total).step_by(pyramid) with iteration = min(pyramid, total - t), source
    // and destination swapping. Original run: 512x512, pyramid 2, 2 iterations; here 64x64,
    // pyramid 2, 5 iterations (launches of 2, 2 and 1 steps: grid 6x6).
    let (n, pyramid, total) = (64usize, 2usize, 5usize);
    let small = 16 - 2 * pyramid;
    let blocks = n.div_ceil(small);
    let c = chip(n);
    let mut rng = Rng::new(seed);
    let power: Vec<f32> = (0..n * n).map(|_| unit(&mut rng) * 1e-3).collect();
    let mut temp: Vec<f32> = (0..n * n).map(|_| 323.0 + 10.0 * unit(&mut rng)).collect();
    let mut want = temp.clone();
    let ptx = corpus(file);
    for t in (0..total).step_by(pyramid) {
        let iteration = pyramid.min(total - t);
        let p = run_with(
            &ptx,
            &flags(&[
                ("--grid", format!("{blocks},{blocks}")),
                ("--block", "16,16".into()),
                ("--arg", iteration.to_string()),
                ("--arg", f32_buffer(&power)),
                ("--arg", f32_buffer(&temp)),
                ("--arg", format!("f32[{}]=0", n * n)),
                ("--arg", n.to_string()),
                ("--arg", n.to_string()),
                ("--arg", pyramid.to_string()),
                ("--arg", pyramid.to_string()),
                ("--arg", float(c.cap)),
                ("--arg", float(c.rx)),
                ("--arg", float(c.ry)),
                ("--arg", float(c.rz)),
                ("--arg", float(c.step)),
                ("--arg", "0.001".into()),
            ]),
            extra,
        );
        for _ in 0..iteration {
            want = hotspot_step(&want, &power, n, &c);
        }
        temp = f32s(&p, 3);
        assert_bits_eq(
            &temp,
            &want,
            &format!("{file}: temperatures after {} steps", t + iteration),
        );
        assert_bits_eq(&f32s(&p, 1), &power, "power is read-only");
    }
}

#[test]
fn dice_hotspot_pyramid() {
    for extra in SIMT_VARIANTS {
        check_hotspot("dice_rodinia_hotspot", 41, extra);
    }
}

#[test]
fn ocelot_hotspot_pyramid() {
    // The same algorithm as dice's: the push-order and warp-size variants run there.
    check_hotspot("ocelot_rodinia_hotspot", 42, &[]);
}

// ---------------------------------------------------------------------------------------------
// pathfinder (dice): dynproc_kernel, a pyramid of `iteration` rows per launch.

#[test]
fn dice_pathfinder() {
    for extra in SIMT_VARIANTS {
        pathfinder(extra);
    }
}

fn pathfinder(extra: &[&str]) {
    // Host: block 256, grid ceil(cols / (256 - 2*pyramid)), border = pyramid; launched for
    // t in (0..rows-1).step_by(pyramid) with iteration = min(pyramid, rows-1-t). Original run:
    // 100000 cols, 100 rows, pyramid 20; here 600 cols, 12 rows, pyramid 4 (launches of 4, 4
    // and 3 rows, grid 3).
    let (cols, rows, pyramid) = (600usize, 12usize, 4usize);
    let blocks = cols.div_ceil(256 - 2 * pyramid);
    let mut rng = Rng::new(51);
    let data: Vec<i32> = (0..rows * cols).map(|_| rng.below(10) as i32).collect();
    let wall = &data[cols..];
    let ptx = corpus("dice_rodinia_pathfinder");
    let mut src = data[..cols].to_vec();
    let mut want = src.clone();
    let mut t = 0;
    while t < rows - 1 {
        let iteration = pyramid.min(rows - 1 - t);
        let p = run_with(
            &ptx,
            &flags(&[
                ("--grid", blocks.to_string()),
                ("--block", "256".into()),
                ("--arg", iteration.to_string()),
                ("--arg", buffer("s32", wall)),
                ("--arg", buffer("s32", &src)),
                ("--arg", format!("s32[{cols}]=-1")),
                ("--arg", cols.to_string()),
                ("--arg", rows.to_string()),
                ("--arg", t.to_string()),
                ("--arg", pyramid.to_string()),
            ]),
            extra,
        );
        for r in t..t + iteration {
            want = (0..cols)
                .map(|j| {
                    let left = want[j.saturating_sub(1)];
                    let right = want[(j + 1).min(cols - 1)];
                    left.min(want[j]).min(right) + wall[r * cols + j]
                })
                .collect();
        }
        src = i32s(&p, 3);
        assert_eq!(src, want, "after row {}", t + iteration);
        t += pyramid;
    }
}

// ---------------------------------------------------------------------------------------------
// gaussian (dice): Fan1 and Fan2 for every pivot row.

#[test]
fn dice_gaussian_elimination() {
    // Host (gaussian.cu): for t in 0..size-1: Fan1<<<ceil(size/512), 512>>>(m, a, size, t),
    // Fan2<<<(g, g), (16, 16)>>>(m, a, b, size, size-t, t) with g = ceil(size/16). Original
    // run: 208x208; here 24x24 (Fan2 grid 2x2 with partial blocks).
    let size = 24usize;
    let g = size.div_ceil(16);
    let mut rng = Rng::new(61);
    let mut a: Vec<f32> = (0..size * size).map(|_| rng.small_float() / 16.0).collect();
    for i in 0..size {
        a[i * size + i] += 100.0; // diagonally dominant: no tiny pivots
    }
    let mut b: Vec<f32> = (0..size).map(|_| rng.small_float()).collect();
    let mut m = vec![0f32; size * size];
    let (mut wa, mut wb, mut wm) = (a.clone(), b.clone(), m.clone());
    let ptx = corpus("dice_rodinia_gaussian");
    for t in 0..size - 1 {
        let p = run(
            &ptx,
            &flags(&[
                ("--kernel", "_Z4Fan1PfS_ii".into()),
                ("--grid", size.div_ceil(512).to_string()),
                ("--block", "512".into()),
                ("--arg", f32_buffer(&m)),
                ("--arg", f32_buffer(&a)),
                ("--arg", size.to_string()),
                ("--arg", t.to_string()),
            ]),
        );
        m = f32s(&p, 0);
        for i in t + 1..size {
            wm[i * size + t] = wa[i * size + t] / wa[t * size + t];
        }
        assert_bits_eq(&m, &wm, &format!("m after Fan1 t={t}"));
        let p = run(
            &ptx,
            &flags(&[
                ("--kernel", "_Z4Fan2PfS_S_iii".into()),
                ("--grid", format!("{g},{g}")),
                ("--block", "16,16".into()),
                ("--arg", f32_buffer(&m)),
                ("--arg", f32_buffer(&a)),
                ("--arg", f32_buffer(&b)),
                ("--arg", size.to_string()),
                ("--arg", (size - t).to_string()),
                ("--arg", t.to_string()),
            ]),
        );
        a = f32s(&p, 1);
        b = f32s(&p, 2);
        for i in t + 1..size {
            let factor = wm[i * size + t];
            for j in t..size {
                wa[i * size + j] -= factor * wa[t * size + j];
            }
            wb[i] -= factor * wb[t];
        }
        assert_bits_eq(&a, &wa, &format!("a after Fan2 t={t}"));
        assert_bits_eq(&b, &wb, &format!("b after Fan2 t={t}"));
    }
    // The result is upper triangular (below the diagonal only exact zeros or tiny residues).
    assert!(wa[size * size - 2].abs() < 1e-3);
}

// ---------------------------------------------------------------------------------------------
// nn (dice): euclid.

#[test]
fn dice_nn_euclid() {
    // Host: block min(maxThreadsPerBlock, 256), blocks = ceil(records/256), a 2D grid when
    // that exceeds the x limit; here 1000 records on a 2x2 grid of 256 threads, so the kernel's
    // (ctaid.y * nctaid.x + ctaid.x) * ntid.x + tid.x indexing is exercised.
    let records = 1000usize;
    let mut rng = Rng::new(71);
    let locations: Vec<f32> = (0..2 * records)
        .map(|i| if i % 2 == 0 { 180.0 } else { 90.0 } * (unit(&mut rng) - 0.5))
        .collect();
    let (lat, lng) = (30.25f32, -90.75f32);
    let p = run(
        &corpus("dice_rodinia_nn"),
        &flags(&[
            ("--grid", "2,2".into()),
            ("--block", "256".into()),
            ("--arg", f32_buffer(&locations)),
            ("--arg", "f32[1024]=-1".into()),
            ("--arg", records.to_string()),
            ("--arg", float(lat)),
            ("--arg", float(lng)),
        ]),
    );
    // sqrt(fma(lat - x, lat - x, (lng - y) * (lng - y))), as the PTX contracts it.
    let mut want: Vec<f32> = (0..records)
        .map(|i| {
            let dx = lat - locations[2 * i];
            let dy = lng - locations[2 * i + 1];
            dx.mul_add(dx, dy * dy).sqrt()
        })
        .collect();
    want.resize(1024, -1.0);
    assert_bits_eq(&f32s(&p, 1), &want, "distances");
}

// ---------------------------------------------------------------------------------------------
// needle (ocelot, nvopencc 4.0): needle_cuda_shared_1 / _2 over the block anti-diagonals.

#[test]
fn ocelot_needle_wavefront() {
    for extra in SIMT_VARIANTS {
        needle(extra);
    }
}

fn needle(extra: &[&str]) {
    // Host (needle.cu): block 16, block_width = (cols-1)/16; shared_1 with grid i for
    // i = 1..=block_width, then shared_2 with grid i for i = block_width-1 down to 1.
    // Here sequences of 64 (a 65x65 score matrix, block_width 4), penalty 10.
    let (len, penalty) = (64usize, 10i32);
    let cols = len + 1;
    let block_width = len / 16;
    let mut rng = Rng::new(81);
    let mut reference = vec![0i32; cols * cols];
    for i in 1..cols {
        for j in 1..cols {
            reference[i * cols + j] = rng.below(16) as i32 - 4; // blosum62's range
        }
    }
    let mut matrix = vec![0i32; cols * cols];
    for i in 1..cols {
        matrix[i * cols] = -(i as i32) * penalty;
        matrix[i] = -(i as i32) * penalty;
    }
    let mut want = matrix.clone();
    for i in 1..cols {
        for j in 1..cols {
            want[i * cols + j] = (want[(i - 1) * cols + j - 1] + reference[i * cols + j])
                .max(want[i * cols + j - 1] - penalty)
                .max(want[(i - 1) * cols + j] - penalty);
        }
    }
    let ptx = corpus("ocelot_rodinia_needle_kernel");
    let launches = (1..=block_width)
        .map(|i| ("_Z20needle_cuda_shared_1PiS_S_iiii", i))
        .chain(
            (1..block_width)
                .rev()
                .map(|i| ("_Z20needle_cuda_shared_2PiS_S_iiii", i)),
        );
    for (kernel, i) in launches {
        let p = run_with(
            &ptx,
            &flags(&[
                ("--kernel", kernel.into()),
                ("--grid", i.to_string()),
                ("--block", "16".into()),
                ("--arg", buffer("s32", &reference)),
                ("--arg", buffer("s32", &matrix)),
                ("--arg", format!("s32[{}]=0", cols * cols)),
                ("--arg", cols.to_string()),
                ("--arg", penalty.to_string()),
                ("--arg", i.to_string()),
                ("--arg", block_width.to_string()),
            ]),
            extra,
        );
        matrix = i32s(&p, 1);
    }
    assert_eq!(matrix, want);
}

// ---------------------------------------------------------------------------------------------
// srad v2 (ocelot, nvopencc 4.0): srad_cuda_1 and srad_cuda_2 per iteration.

/// q0sqr from the region of interest, as the host computes it (f32 sums).
fn q0sqr(j: &[f32], cols: usize, (r1, r2, c1, c2): (usize, usize, usize, usize)) -> f32 {
    let (mut sum, mut sum2) = (0f32, 0f32);
    for i in r1..=r2 {
        for k in c1..=c2 {
            let v = j[i * cols + k];
            sum += v;
            sum2 += v * v;
        }
    }
    let size = ((r2 - r1 + 1) * (c2 - c1 + 1)) as f32;
    let mean = sum / size;
    let var = sum2 / size - mean * mean;
    var / (mean * mean)
}

/// The directional derivatives (N, S, W, E) and the diffusion coefficient of srad_cuda_1,
/// neighbours clamped at the image border, in the PTX's operation order.
fn srad_1(j: &[f32], rows: usize, cols: usize, q0: f32) -> [Vec<f32>; 5] {
    let mut out: [Vec<f32>; 5] = std::array::from_fn(|_| vec![0f32; rows * cols]);
    for y in 0..rows {
        for x in 0..cols {
            let k = y * cols + x;
            let jc = j[k];
            let n = j[y.saturating_sub(1) * cols + x] - jc;
            let s = j[(y + 1).min(rows - 1) * cols + x] - jc;
            let w = j[y * cols + x.saturating_sub(1)] - jc;
            let e = j[y * cols + (x + 1).min(cols - 1)] - jc;
            let l = (n + s + w + e) / jc;
            let den = (l as f64).mul_add(0.25, 1.0) as f32;
            let g2 = e.mul_add(e, w.mul_add(w, n.mul_add(n, s * s))) / (jc * jc);
            let num = (g2 as f64 * 0.5 - (l * l) as f64 * 0.0625) as f32;
            let qsqr = num / (den * den);
            let den = (qsqr - q0) / (q0 * (q0 + 1.0));
            let c = (1.0 / (den as f64 + 1.0)) as f32;
            out[0][k] = n;
            out[1][k] = s;
            out[2][k] = w;
            out[3][k] = e;
            // Saturated: below 0 gives 0, above 1 gives 1.
            out[4][k] = c.clamp(0.0, 1.0);
        }
    }
    out
}

#[test]
fn ocelot_srad_iterations() {
    // Host (srad.cu): block (16,16), grid (cols/16, rows/16); per iteration q0sqr from the
    // ROI, then srad_cuda_1 and srad_cuda_2 (no values fixed in the repo); here a 64x64 image,
    // ROI rows/cols 0..=31, lambda 0.5, 2 iterations.
    let (rows, cols, lambda, iterations) = (64usize, 64usize, 0.5f32, 2);
    let roi = (0, 31, 0, 31);
    let mut rng = Rng::new(91);
    let mut j: Vec<f32> = (0..rows * cols)
        .map(|_| (unit(&mut rng) as f64).exp() as f32)
        .collect();
    let mut want = j.clone();
    let ptx = corpus("ocelot_rodinia_srad_kernel");
    let grid = format!("{},{}", cols / 16, rows / 16);
    let zeros = format!("f32[{}]=0", rows * cols);
    for it in 0..iterations {
        let q0 = q0sqr(&want, cols, roi);
        // Order of the parameters: E_C, W_C, N_C, S_C, J, C, cols, rows, [lambda,] q0sqr.
        let p = run(
            &ptx,
            &flags(&[
                ("--kernel", "_Z11srad_cuda_1PfS_S_S_S_S_iif".into()),
                ("--grid", grid.clone()),
                ("--block", "16,16".into()),
                ("--arg", zeros.clone()),
                ("--arg", zeros.clone()),
                ("--arg", zeros.clone()),
                ("--arg", zeros.clone()),
                ("--arg", f32_buffer(&j)),
                ("--arg", zeros.clone()),
                ("--arg", cols.to_string()),
                ("--arg", rows.to_string()),
                ("--arg", float(q0)),
            ]),
        );
        let [dn, ds, dw, de, c] = srad_1(&want, rows, cols, q0);
        let (e_c, w_c, n_c, s_c, c_c) = (
            f32s(&p, 0),
            f32s(&p, 1),
            f32s(&p, 2),
            f32s(&p, 3),
            f32s(&p, 5),
        );
        assert_bits_eq(&n_c, &dn, &format!("N_C, iteration {it}"));
        assert_bits_eq(&s_c, &ds, &format!("S_C, iteration {it}"));
        assert_bits_eq(&w_c, &dw, &format!("W_C, iteration {it}"));
        assert_bits_eq(&e_c, &de, &format!("E_C, iteration {it}"));
        assert_bits_eq(&c_c, &c, &format!("C, iteration {it}"));

        let p = run(
            &ptx,
            &flags(&[
                ("--kernel", "_Z11srad_cuda_2PfS_S_S_S_S_iiff".into()),
                ("--grid", grid.clone()),
                ("--block", "16,16".into()),
                ("--arg", f32_buffer(&e_c)),
                ("--arg", f32_buffer(&w_c)),
                ("--arg", f32_buffer(&n_c)),
                ("--arg", f32_buffer(&s_c)),
                ("--arg", f32_buffer(&j)),
                ("--arg", f32_buffer(&c_c)),
                ("--arg", cols.to_string()),
                ("--arg", rows.to_string()),
                ("--arg", float(lambda)),
                ("--arg", float(q0)),
            ]),
        );
        // cn = cw = c here, cs = c south, ce = c east (clamped); the divergence summed as
        // fma(E, ce, fma(W, c, fma(N, c, S * cs))), then J + 0.25*lambda*D in f64.
        let quarter_lambda = lambda as f64 * 0.25;
        for y in 0..rows {
            for x in 0..cols {
                let k = y * cols + x;
                let cs = c[(y + 1).min(rows - 1) * cols + x];
                let ce = c[y * cols + (x + 1).min(cols - 1)];
                let d = de[k].mul_add(ce, dw[k].mul_add(c[k], dn[k].mul_add(c[k], ds[k] * cs)));
                want[k] = (d as f64).mul_add(quarter_lambda, want[k] as f64) as f32;
            }
        }
        j = f32s(&p, 4);
        assert_bits_eq(&j, &want, &format!("J after iteration {it}"));
    }
}
