//! The MRPB experiment's Rodinia NW and LUD cases (MRPB Table 3: NW and NW/U on a 2,048 x
//! 2,048 alignment, LUD and LUD/U on a 512 x 512 matrix), each kernel's representative launch
//! of a program that launches its kernels many times (NW 255 launches, LUD 93), checked
//! against its host reference (`mrpb_reference_rodinia.rs`).
//!
//! Every launch here is its program's whole launch (no [`on_chip`](super::mrpb_chip::on_chip)
//! entry): the one-SM run and the 14-SM chip run the same grid.

use super::mrpb_reference as reference;
use super::{Case, Check, Suite};
use crate::bench::BenchCase;

const UNSHARED_PTX: &str = include_str!("../../../tests/data/kernels/rodinia_unshared.sm_52.ptx");
const LUD_PTX: &str = include_str!("../../../tests/data/kernels/rodinia_lud.sm_52.ptx");
const NEEDLE_PTX: &str =
    include_str!("../../../tests/data/ptx-corpus/ocelot_rodinia_needle_kernel.ptx");

/// A Rodinia launch checked against its host reference.
const fn rodinia(
    name: &'static str,
    about: &'static str,
    ptx: &'static str,
    check: Check,
    flags: &'static [&'static str],
) -> Case {
    Case {
        suite: Suite::Rodinia,
        launch: BenchCase {
            name,
            about,
            ptx,
            flags,
        },
        check: Some(check),
    }
}

/// A needle launch (the corpus's kernel `$kernel` or ours) on Table 3's 2,048 x 2,048
/// alignment (a 2,049 x 2,049 score matrix, 128 x 128 tiles of 16 x 16) at tile
/// anti-diagonal `$i`, `$i` blocks of 16 threads or `$grid` where the shrinking diagonal has
/// fewer: `(reference, score, out, cols, penalty, i, block_width)`. The reference scores are
/// blosum62's range (-4 to 11), the scores random in -2,000 to 0, the unused `out` one word;
/// penalty 10, Rodinia's default.
macro_rules! needle {
    ($kernel:literal, $i:literal) => {
        &[
            "--kernel",
            $kernel,
            "--grid",
            $i,
            "--block",
            "16",
            "--arg",
            "s32[4198401]=rand:1:-4:11",
            "--arg",
            "s32[4198401]=rand:2:-2000:0",
            "--arg",
            "s32[1]=0",
            "--arg",
            "2049",
            "--arg",
            "10",
            "--arg",
            $i,
            "--arg",
            "128",
        ]
    };
}

/// NW's first kernel (the corpus's `needle_cuda_shared_1`, 16-thread blocks, a 17 x 17 score
/// tile and a 16 x 16 reference tile in shared memory) on the longest growing anti-diagonal
/// of a 2,048 x 2,048 alignment: i = 128, 128 blocks, one per tile from the bottom-left
/// corner to the top-right. Rodinia's nw launches this kernel 128 times (i = 1 to 128) and
/// the second kernel 127 times (i = 127 down to 1); every launch runs the same block on other
/// tiles, so each kernel's longest launch, with the most blocks to overlap, stands for its
/// launches. Its tiles read their north row and west column from the score matrix, which the
/// previous launches wrote; here those hold random scores, which move no access (the kernel's
/// max is a select, its loops have fixed trip counts).
#[rustfmt::skip]
pub const NW_1: Case = rodinia(
    "nw_1",
    "Rodinia nw needle_cuda_shared_1, 2048 x 2048, the longest anti-diagonal (128 tiles)",
    NEEDLE_PTX,
    reference::nw_upper,
    needle!("_Z20needle_cuda_shared_1PiS_S_iiii", "128"),
);

/// NW's second kernel (the corpus's `needle_cuda_shared_2`) on the longest shrinking
/// anti-diagonal, i = 127 (127 blocks, the tiles just below and right of [`NW_1`]'s), for
/// the second kernel's 127 launches as `NW_1` stands for the first's.
#[rustfmt::skip]
pub const NW_2: Case = rodinia(
    "nw_2",
    "Rodinia nw needle_cuda_shared_2, 2048 x 2048, the longest shrinking anti-diagonal",
    NEEDLE_PTX,
    reference::nw_lower,
    needle!("_Z20needle_cuda_shared_2PiS_S_iiii", "127"),
);

/// NW/U's first kernel (ours, `nw_u_1` in `tests/data/kernels/rodinia_unshared.cu`):
/// needle_cuda_shared_1 without its shared tiles, each thread reading its cell's three
/// neighbours and its reference score from global memory (through the L1D) and writing its
/// score straight into the matrix, on [`NW_1`]'s launch.
#[rustfmt::skip]
pub const NW_U_1: Case = rodinia(
    "nw_u_1",
    "NW/U's first kernel (ours): needle's tiles in global memory, the longest anti-diagonal",
    UNSHARED_PTX,
    reference::nw_upper,
    needle!("nw_u_1", "128"),
);

/// NW/U's second kernel (ours, `nw_u_2`) on [`NW_2`]'s launch.
#[rustfmt::skip]
pub const NW_U_2: Case = rodinia(
    "nw_u_2",
    "NW/U's second kernel (ours): needle's tiles in global memory, i = 127",
    UNSHARED_PTX,
    reference::nw_lower,
    needle!("nw_u_2", "127"),
);

/// A LUD launch of `$kernel` (ours or LUD/U's) on Table 3's 512 x 512 matrix at its step 13
/// (offset 208): `(m, dim, offset)`, the matrix random in [0.5, 1.5).
///
/// Rodinia's lud runs 32 steps, one per 16 columns: at offset 16 s, lud_diagonal (1 block of
/// 16), lud_perimeter (k = 31 - s blocks of 32) and lud_internal (k x k blocks of 16 x 16),
/// and lud_diagonal alone at the last. lud_internal's blocks are most of the program's work
/// (16 fused multiply-adds a thread), and step 13 (k = 18, 324 blocks) is the step whose
/// internal grid is nearest the mean over the 31 steps that have one (336 blocks; the middle
/// step, 15, has 256); its perimeter (18 blocks) and diagonal kernel stand for theirs. Each
/// kernel reads the blocks the previous kernels wrote, which here hold random values: the
/// kernels' loops have fixed trip counts, so the values move no access.
macro_rules! lud {
    ($kernel:literal, $grid:literal, $block:literal) => {
        &[
            "--kernel",
            $kernel,
            "--grid",
            $grid,
            "--block",
            $block,
            "--arg",
            "f32[262144]=rand:1:0.5:1.5",
            "--arg",
            "512",
            "--arg",
            "208",
        ]
    };
}

/// LUD's lud_diagonal (ours, `tests/data/kernels/rodinia_lud.cu`, the block in shared memory)
/// at step 13: one block of 16 threads factorising the 16 x 16 diagonal block.
#[rustfmt::skip]
pub const LUD_1: Case = rodinia(
    "lud_1",
    "Rodinia lud's lud_diagonal (ours), 512 x 512, step 13: the diagonal block, 16 threads",
    LUD_PTX,
    reference::lud_diagonal,
    lud!("lud_diagonal", "1", "16"),
);

/// LUD's lud_perimeter (ours, three 16 x 16 blocks in shared memory) at step 13: 18 blocks
/// of 32 threads, each the U block right of the diagonal block and the L block below it.
#[rustfmt::skip]
pub const LUD_2: Case = rodinia(
    "lud_2",
    "Rodinia lud's lud_perimeter (ours), 512 x 512, step 13: 18 blocks of 32",
    LUD_PTX,
    reference::lud_perimeter,
    lud!("lud_perimeter", "18", "32"),
);

/// LUD's lud_internal (ours, two 16 x 16 blocks in shared memory) at step 13: 18 x 18 blocks
/// of 16 x 16, the trailing matrix minus L U.
#[rustfmt::skip]
pub const LUD_3: Case = rodinia(
    "lud_3",
    "Rodinia lud's lud_internal (ours), 512 x 512, step 13: 18 x 18 blocks of 16 x 16",
    LUD_PTX,
    reference::lud_internal,
    lud!("lud_internal", "18,18", "16,16"),
);

/// LUD/U's lud_diagonal (ours, `lud_u_diagonal` in `tests/data/kernels/rodinia_unshared.cu`):
/// the diagonal block factorised in place in global memory, on [`LUD_1`]'s launch.
#[rustfmt::skip]
pub const LUD_U_1: Case = rodinia(
    "lud_u_1",
    "LUD/U's lud_diagonal (ours): the diagonal block factorised in global memory, step 13",
    UNSHARED_PTX,
    reference::lud_diagonal,
    lud!("lud_u_diagonal", "1", "16"),
);

/// LUD/U's lud_perimeter (ours, `lud_u_perimeter`): the substitutions in place in global
/// memory, reading the diagonal block there, on [`LUD_2`]'s launch.
#[rustfmt::skip]
pub const LUD_U_2: Case = rodinia(
    "lud_u_2",
    "LUD/U's lud_perimeter (ours): the perimeter blocks in global memory, 18 blocks of 32",
    UNSHARED_PTX,
    reference::lud_perimeter,
    lud!("lud_u_perimeter", "18", "32"),
);

/// LUD/U's lud_internal (ours, `lud_u_internal`): each thread's dot product reads its L row
/// and U column from global memory, on [`LUD_3`]'s launch.
#[rustfmt::skip]
pub const LUD_U_3: Case = rodinia(
    "lud_u_3",
    "LUD/U's lud_internal (ours): L and U read from global memory, 18 x 18 blocks",
    UNSHARED_PTX,
    reference::lud_internal,
    lud!("lud_u_internal", "18,18", "16,16"),
);
