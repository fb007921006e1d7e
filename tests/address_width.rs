//! Effective addresses in the widths the PTX ISA gives (issue 28; PTX ISA "Addresses as
//! Operands", "State Spaces"): `[reg+imm]` adds in the register's width, so a 32-bit register
//! wraps at 2^32, and the windowed spaces (`.shared`, `.local`, `.const`, `.param`) have
//! 32-bit addresses. nvcc relies on the wrap in real code (Rodinia's nw: `temp - 64*tx` in a
//! `.u32` register plus `[%r+68]`), while an access that lands outside every allocation is
//! still a fault, wrapped or not (Rodinia's srad reads a row before its buffer).

mod common;

use common::*;

fn wrap_ptx() -> String {
    data("mem/address_wrap.ptx")
}

/// The reproduction: thread t reads its own shared and local words back through registers
/// 64 and 68 bytes below the variables, with `[%r3+68]` and `[%r9+72]`.
#[test]
fn a_32_bit_register_plus_offset_wraps_into_the_shared_and_local_windows() {
    let want: Vec<i32> = (100..108).collect();
    for config in ["teaching", "fermi", "tesla-c2050-s"] {
        let p = run_ok(&wrap_ptx(), &["--config", config]);
        assert_eq!(i32s(&p, 0), want, "shared words on {config}");
        assert_eq!(i32s(&p, 1), want, "local words on {config}");
    }
}

#[test]
fn a_wrapped_shared_address_outside_the_variable_is_still_a_fault() {
    // [%r3+60] is 4 bytes below buf for thread 0: 0xfffffffc in the 32-bit shared window.
    let ptx = wrap_ptx().replace("[%r3+68]", "[%r3+60]");
    let (_, report) = run_report(&ptx, &[]);
    let error = report.error.expect("a fault");
    assert!(
        error.contains("out-of-bounds .shared load of 4 bytes at 0xfffffffc")
            && error.contains("thread (0,0,0)")
            && error.contains("ld.shared.u32 %r2, [%r3+60];"),
        "{error}"
    );
}

#[test]
fn a_global_read_before_its_buffer_is_still_a_fault() {
    // As srad does at the image's first row: 64-bit arithmetic, one word before the buffer.
    for offset in ["+-4", "-4"] {
        let ptx = wrap_ptx().replace(
            "st.global.u32 [%rd4], %r2;",
            &format!("ld.global.u32 %r11, [%rd4{offset}];\n\tst.global.u32 [%rd4], %r11;"),
        );
        let (p, report) = run_report(&ptx, &[]);
        let base = p.image.buffers[0].base;
        let error = report.error.expect("a fault");
        assert!(
            error.contains(&format!(
                "out-of-bounds .global load of 4 bytes at {:#x}",
                base - 4
            )) && error.contains("thread (0,0,0)"),
            "{error}"
        );
    }
}

#[test]
fn shared_cta_is_the_shared_window_and_shared_cluster_is_named_as_unsupported() {
    let ptx = wrap_ptx().replace("ld.shared.u32 %r2", "ld.shared::cta.u32 %r2");
    let p = run_ok(&ptx, &[]);
    assert_eq!(i32s(&p, 0), (100..108).collect::<Vec<_>>());
    let ptx = wrap_ptx().replace("ld.shared.u32 %r2", "ld.shared::cluster.u32 %r2");
    let e = warpstep::ptx::load(&ptx).expect_err("an error");
    let line = ptx
        .lines()
        .position(|l| l.contains("shared::cluster"))
        .expect("the line") as u32
        + 1;
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains("shared::cluster"), "{e}");
}

/// Needleman-Wunsch over a `len` x `len` problem: the score matrix the tiles must produce.
fn needleman_wunsch(sim: &[i32], first: &[i32], cols: usize, gap: i32) -> Vec<i32> {
    let mut want = first.to_vec();
    for i in 1..cols {
        for j in 1..cols {
            want[i * cols + j] = (want[(i - 1) * cols + j - 1] + sim[i * cols + j])
                .max(want[i * cols + j - 1] - gap)
                .max(want[(i - 1) * cols + j] - gap);
        }
    }
    want
}

/// tests/data/kernels/nw_tiles.cu (nvcc 11.8 -O3): the tiles along each block anti-diagonal,
/// launched as Rodinia's host does, each launch's scores passed to the next.
fn nw_tiles(extra: &[&str]) {
    let (len, gap, tile) = (64usize, 10i32, 16usize);
    let (cols, tiles) = (len + 1, len / tile);
    let mut rng = Rng::new(28);
    let mut sim = vec![0i32; cols * cols];
    for i in 1..cols {
        for j in 1..cols {
            sim[i * cols + j] = rng.below(16) as i32 - 4;
        }
    }
    let mut score = vec![0i32; cols * cols];
    for i in 1..cols {
        score[i * cols] = -(i as i32) * gap;
        score[i] = -(i as i32) * gap;
    }
    let want = needleman_wunsch(&sim, &score, cols, gap);
    let ptx = data("kernels/nw_tiles.sm_52.ptx");
    let upper = (1..=tiles).map(|d| ("nw_upper", d));
    let lower = (1..tiles).rev().map(|d| ("nw_lower", d));
    for (kernel, d) in upper.chain(lower) {
        let sim_arg = format!("s32[{}]={}", sim.len(), list(&sim));
        let score_arg = format!("s32[{}]={}", score.len(), list(&score));
        let (cols_arg, gap_arg, d_arg, tiles_arg) = (
            cols.to_string(),
            gap.to_string(),
            d.to_string(),
            tiles.to_string(),
        );
        let grid = d.to_string();
        let mut flags = vec![
            "--kernel", kernel, "--grid", &grid, "--block", "16", "--arg", &sim_arg, "--arg",
            &score_arg, "--arg", &cols_arg, "--arg", &gap_arg, "--arg", &d_arg,
        ];
        if kernel == "nw_lower" {
            flags.extend(["--arg", &tiles_arg]);
        }
        flags.extend_from_slice(extra);
        score = i32s(&run_ok(&ptx, &flags), 1);
    }
    assert_eq!(score, want);
}

#[test]
fn needleman_wunsch_tiles_compiled_by_nvcc_give_the_reference_scores() {
    nw_tiles(&["--config", "fermi"]);
    nw_tiles(&["--config", "tesla-c2050-s", "--set", "mrpb.enabled=true"]);
}
