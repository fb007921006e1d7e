//! The kernels of the XOR experiment (van den Braak et al., IEEE TC; Table 5's benchmarks, or
//! ours of their kind): the elastic set's AES, reduction, transpose and DCT/IDCT
//! (`tests/data/kernels/elastic.cu`, nvcc's PTX), the FWT, scan and column convolution of
//! `tests/data/kernels/xor.cu`, and Table 5's hist64, hist256 (§7.2's 32 sub-histograms a
//! block), dwtHaar1D, NW-1, NW-2 and LUD-1 (Rodinia's lud_perimeter) of
//! `tests/data/kernels/xor_suite.cu`, and LUD-2 (Rodinia's lud_diagonal), lavaMD and FFT-1 /
//! FFT-2 (radix-2 in place, Stockham) and MRI-grid-1 (Parboil's splitSort) of
//! `tests/data/kernels/xor_more.cu` (nvcc's PTX; references
//! in `xor_reference_more.rs`), and MRI-grid-2 / MRI-grid-3 (Parboil mri-gridding's
//! scan_inter1_kernel / scan_inter2_kernel: the up- and down-sweeps of a 128-element Blelloch
//! scan, unpadded) of `tests/data/kernels/xor_parboil.cu` (references in
//! `xor_reference_parboil.rs`). Each has three launches: the training
//! input the searches read (a smaller grid on other data: XOR §6's "memory access trace"),
//! the full run ([`Size::Full`]: on one SM, and 16 times its grid on the paper's 15 SMs) and
//! the tests' smaller one ([`Size::Quick`]); and a host
//! reference its output is checked against (`xor_reference.rs`).

use super::xor_reference as reference;
use super::xor_reference_more as more;
use super::xor_reference_parboil as parboil;
use super::xor_reference_suite as suite;
use super::{Case, Machine, Size, Suite};
use crate::bench::BenchCase;
use crate::sim::Sim;

const ELASTIC_PTX: &str = include_str!("../../../tests/data/kernels/elastic.sm_52.ptx");
const XOR_PTX: &str = include_str!("../../../tests/data/kernels/xor.sm_52.ptx");
const SUITE_PTX: &str = include_str!("../../../tests/data/kernels/xor_suite.sm_52.ptx");
const MORE_PTX: &str = include_str!("../../../tests/data/kernels/xor_more.sm_52.ptx");
const PARBOIL_PTX: &str = include_str!("../../../tests/data/kernels/xor_parboil.sm_52.ptx");

/// One kernel: its PTX entry, what it stands for in the paper, its launches and its check.
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// The PTX entry.
    pub name: &'static str,
    pub about: &'static str,
    /// The Table 5 benchmark(s) of its kind.
    pub paper_kind: &'static str,
    pub suite: Suite,
    ptx: &'static str,
    /// The launch the searches are trained on (other data, a smaller grid).
    pub training: &'static [&'static str],
    /// The full run on one SM (`--one-sm`).
    pub full: &'static [&'static str],
    /// The full run on the paper's 15 SMs: `full`'s grid (and data) times 16, so each SM has
    /// about the one-SM run's work.
    pub chip: &'static [&'static str],
    pub quick: &'static [&'static str],
    /// Compares a finished run's output with the host's.
    pub check: fn(&Sim) -> Result<(), String>,
}

/// The paper kind of a kernel that is not one of Table 5's: AES, data-dependent and indirect as
/// the histograms are. Its rows are shown, and averaged only in the "every kernel" line: the
/// paper's Table 6 and §7.1 average over Table 5's benchmarks.
pub const BEYOND_TABLE5: &str = "none (indirect, as the histograms)";

impl Kernel {
    /// Whether the kernel is of one of Table 5's kinds, so in Table 6's averages.
    pub fn of_table5(&self) -> bool {
        self.paper_kind != BEYOND_TABLE5
    }

    fn case_of(&self, flags: &'static [&'static str]) -> Case {
        Case {
            suite: self.suite,
            launch: BenchCase {
                name: self.name,
                about: self.about,
                ptx: self.ptx,
                flags,
            },
            check: None,
        }
    }

    /// The run at `size` on `machine`.
    pub fn case(&self, size: Size, machine: Machine) -> Case {
        self.case_of(match (size, machine) {
            (Size::Full, Machine::Paper) => self.chip,
            (Size::Full, Machine::OneSm) => self.full,
            (Size::Quick, _) => self.quick,
        })
    }

    /// The training launch.
    pub fn training_case(&self) -> Case {
        self.case_of(self.training)
    }
}

/// FIPS-197's key expanded for encryption and for the equivalent inverse cipher (as the
/// elastic experiment launches them, docs/elastic-kernels.md).
pub(super) const ENCRYPT_KEYS: &str = "u32[44]=list:370507307,2798825000,2283141035,1011863305,402586272,2972472456,960078627,91647018,4069901042,1136236154,2055222617,2146851187,2101837885,1056839239,1149117214,998799981,1101350127,2136691368,992309686,11340763,4173779412,2275246972,3166237386,3155556625,2057537645,4248701713,1099364827,4254269642,251089998,4090060639,2991564420,1339860558,561238762,3535441333,1626680113,791252351,4083578796,568130073,1093259560,1845517399,2834896080,2300964553,3356245985,2785829814";
const DECRYPT_KEYS: &str = "u32[44]=list:2834896080,2300964553,3356245985,2785829814,1666874124,4276754707,2424846768,3036367974,1519549919,2645582367,1851924643,611546582,1198964754,3340902336,4090643132,1242649973,1993931886,2153045970,888167804,3116570569,4228555630,4136379324,3030680238,2368948917,323258512,176586962,1109958930,966248475,4145225596,432146498,1219371456,2076141833,3943003596,4006680382,1366043010,856770761,2802333483,97805042,3216850620,1652384075,370507307,2798825000,2283141035,1011863305";

#[rustfmt::skip]
macro_rules! encrypt {
    ($blocks:literal, $words:literal, $seed:literal) => {
        &[
            "--kernel", "aes_encrypt", "--grid", $blocks, "--block", "256",
            "--arg", concat!("u32[", $words, "]=0"),
            "--arg", concat!("u32[", $words, "]=rand:", $seed),
            "--arg", ENCRYPT_KEYS,
        ]
    };
}

#[rustfmt::skip]
macro_rules! decrypt {
    ($blocks:literal, $words:literal, $seed:literal) => {
        &[
            "--kernel", "aes_decrypt", "--grid", $blocks, "--block", "256",
            "--arg", concat!("u32[", $words, "]=0"),
            "--arg", concat!("u32[", $words, "]=rand:", $seed),
            "--arg", DECRYPT_KEYS,
        ]
    };
}

#[rustfmt::skip]
macro_rules! reduce {
    ($blocks:literal, $n:literal, $seed:literal) => {
        &[
            "--kernel", "reduce_interleaved", "--grid", $blocks, "--block", "256",
            "--arg", concat!("s32[", $n, "]=rand:", $seed, ":0:1000"),
            "--arg", concat!("s32[", $blocks, "]=0"),
            "--arg", $n,
        ]
    };
}

/// A square `$n` x `$n` image kernel (`transpose16`, `dct8x8`, `idct8x8`) on grid `$grid`.
#[rustfmt::skip]
macro_rules! transpose {
    ($grid:literal, $n:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "transpose16", "--grid", $grid, "--block", "16,16",
            "--arg", concat!("f32[", $elems, "]=0"),
            "--arg", concat!("f32[", $elems, "]=rand:", $seed),
            "--arg", $n, "--arg", $n,
        ]
    };
}

#[rustfmt::skip]
macro_rules! dct {
    ($kernel:literal, $grid:literal, $n:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", $kernel, "--grid", $grid, "--block", "8,4,2",
            "--arg", concat!("f32[", $elems, "]=0"),
            "--arg", concat!("f32[", $elems, "]=rand:", $seed),
            "--arg", $n,
        ]
    };
}

/// `fwt1024` (blocks of 1,024) or `scan512` (blocks of 512), 256 threads a block.
#[rustfmt::skip]
macro_rules! blocks {
    ($kernel:literal, $blocks:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", $kernel, "--grid", $blocks, "--block", "256",
            "--arg", concat!("s32[", $elems, "]=0"),
            "--arg", concat!("s32[", $elems, "]=rand:", $seed, ":-1000:1000"),
        ]
    };
}

#[rustfmt::skip]
macro_rules! conv {
    ($grid:literal, $n:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "conv_cols", "--grid", $grid, "--block", "16,8",
            "--arg", concat!("s32[", $elems, "]=0"),
            "--arg", concat!("s32[", $elems, "]=rand:", $seed, ":-100:100"),
            "--arg", "s32[17]=list:1,2,3,4,5,6,7,8,9,8,7,6,5,4,3,2,1",
            "--arg", $n, "--arg", $n,
        ]
    };
}

/// `hist64` or `hist256` (XOR Table 5; §7.2's 32 sub-histograms a block) on `$words` words of
/// packed bytes, `$threads` threads a block (each the block that fills a Fermi SM beside its
/// sub-histograms: hist64's 8 KB let six blocks of 256 in, hist256's 32 KB one, of 1,024), `$partial` = `$blocks` x 64 or 256 counts out. The bytes
/// are `$width` x `$width` greyscale photographs back to back (`image:SEED:WIDTH`, `photo.rs`):
/// §7.1 histograms real images, whose neighbouring pixels share bins; the SDK's uniform random
/// bytes would not conflict under `mod` as images do.
#[rustfmt::skip]
macro_rules! hist {
    ($kernel:literal, $threads:literal, $blocks:literal, $partial:literal, $words:literal, $seed:literal, $width:literal) => {
        &[
            "--kernel", $kernel, "--grid", $blocks, "--block", $threads,
            "--arg", concat!("u32[", $partial, "]=0"),
            "--arg", concat!("u32[", $words, "]=image:", $seed, ":", $width),
            "--arg", $words,
        ]
    };
}

/// `dwt_haar1d` on `$blocks` blocks of 1,024 ints (512 threads a block).
#[rustfmt::skip]
macro_rules! haar {
    ($blocks:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "dwt_haar1d", "--grid", $blocks, "--block", "512",
            "--arg", concat!("s32[", $elems, "]=0"),
            "--arg", concat!("s32[", $blocks, "]=0"),
            "--arg", concat!("s32[", $elems, "]=rand:", $seed, ":-1000:1000"),
        ]
    };
}

/// `nw_1` (on block anti-diagonal `$tiles`, `$tiles` blocks) or `nw_2` (on `$tiles - 1`, one
/// block fewer) of a zero `$cols` x `$cols` score matrix, cols = 16 tiles + 1 (`$elems` = cols²).
#[rustfmt::skip]
macro_rules! nw {
    (1, $tiles:literal, $cols:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "nw_1", "--grid", $tiles, "--block", "16",
            "--arg", concat!("s32[", $elems, "]=rand:", $seed, ":-4:11"),
            "--arg", concat!("s32[", $elems, "]=0"),
            "--arg", $cols, "--arg", "10", "--arg", $tiles,
        ]
    };
    (2, $tiles:literal, $grid:literal, $cols:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "nw_2", "--grid", $grid, "--block", "16",
            "--arg", concat!("s32[", $elems, "]=rand:", $seed, ":-4:11"),
            "--arg", concat!("s32[", $elems, "]=0"),
            "--arg", $cols, "--arg", "10", "--arg", $grid, "--arg", $tiles,
        ]
    };
}

/// `lud_perimeter` at offset 0 of a `$dim` x `$dim` matrix (`$elems` = dim²), `$blocks` = dim /
/// 16 - 1 blocks of 32 threads. Checked launches use `xor_reference_suite::LUD_INPUT`'s seed (1)
/// and range, which the check regenerates (the kernel works in place).
#[rustfmt::skip]
macro_rules! lud {
    ($blocks:literal, $dim:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "lud_perimeter", "--grid", $blocks, "--block", "32",
            "--arg", concat!("f32[", $elems, "]=rand:", $seed, ":0.5:1"),
            "--arg", $dim, "--arg", "0",
        ]
    };
}

/// `lud_diagonal` on `$blocks` 16 x 16 tiles (`$elems` = 256 blocks), 16 threads a block, as
/// `lud!`'s seed and range (the check regenerates the input: the kernel works in place).
#[rustfmt::skip]
macro_rules! lud_diagonal {
    ($blocks:literal, $elems:literal, $seed:literal) => {
        &[
            "--kernel", "lud_diagonal", "--grid", $blocks, "--block", "16",
            "--arg", concat!("f32[", $elems, "]=rand:", $seed, ":0.5:1"),
        ]
    };
}

/// `lava_md` on a `$bx` x `$by` x `$bz` grid of boxes (`$boxes` blocks of 128 threads, 100
/// particles a box: `$coords` = 400 boxes doubles of (v, x, y, z), `$charges` = 100 boxes
/// doubles: Rodinia's `fp` is double), Rodinia's alpha 0.5 (the kernel's `double alpha`
/// parameter, so the scalar is passed as an f64) and its inputs' range (0.1 to 1), positions and
/// charges of seeds `$seed` and `$qseed`.
#[rustfmt::skip]
macro_rules! lava {
    ($boxes:literal, $bx:literal, $by:literal, $bz:literal, $coords:literal, $charges:literal, $seed:literal, $qseed:literal) => {
        &[
            "--kernel", "lava_md", "--grid", $boxes, "--block", "128",
            "--arg", concat!("f64[", $coords, "]=0"),
            "--arg", concat!("f64[", $coords, "]=rand:", $seed, ":0.1:1"),
            "--arg", concat!("f64[", $charges, "]=rand:", $qseed, ":0.1:1"),
            "--arg", $bx, "--arg", $by, "--arg", $bz, "--arg", "0.5",
        ]
    };
}

/// `fft_radix2` or `fft_stockham` on `$blocks` blocks of 1,024 complex floats (512 threads a
/// block; `$words` = 2,048 blocks), inputs uniform in [-1, 1).
#[rustfmt::skip]
macro_rules! fft {
    ($kernel:literal, $blocks:literal, $words:literal, $seed:literal) => {
        &[
            "--kernel", $kernel, "--grid", $blocks, "--block", "512",
            "--arg", concat!("f32[", $words, "]=0"),
            "--arg", concat!("f32[", $words, "]=rand:", $seed, ":-1:1"),
        ]
    };
}

/// `split_sort` on `$blocks` blocks of 1,024 keys (256 threads a block; `$keys` = 1,024 blocks),
/// keys uniform in [0, 65,536) (Parboil's are sample bin numbers), values their indices, digit 0.
#[rustfmt::skip]
macro_rules! sort {
    ($blocks:literal, $keys:literal, $bins:literal, $seed:literal) => {
        &[
            "--kernel", "split_sort", "--grid", $blocks, "--block", "256",
            "--arg", concat!("u32[", $keys, "]=0"),
            "--arg", concat!("u32[", $keys, "]=0"),
            "--arg", concat!("u32[", $bins, "]=0"),
            "--arg", concat!("u32[", $keys, "]=rand:", $seed, ":0:65535"),
            "--arg", concat!("u32[", $keys, "]=iota"),
            "--arg", "0",
        ]
    };
}

/// `scan_inter_up` or `scan_inter_down` (Parboil's scan_inter1/2_kernel) on `$blocks` blocks of
/// 64 threads, 128 elements a block (Parboil's dim_block; `$words` = 128 blocks), iter 1, in place
/// on uniform random words (checked launches: `xor_reference_parboil::SCAN_INPUT_SEED`).
#[rustfmt::skip]
macro_rules! parboil_scan {
    ($kernel:literal, $blocks:literal, $words:literal, $seed:literal) => {
        &[
            "--kernel", $kernel, "--grid", $blocks, "--block", "64",
            "--arg", concat!("u32[", $words, "]=rand:", $seed),
            "--arg", "1",
        ]
    };
}

/// The kernels, data-dependent (the histograms, then AES: the histograms' kind) first. Training launches use seeds
/// the full and quick runs do not.
#[rustfmt::skip]
pub const KERNELS: [Kernel; 22] = [
    Kernel {
        name: "hist64", about: "64-bin histogram of packed bytes, 32 sub-histograms in shared memory (shared atomics)",
        paper_kind: "hist64", suite: Suite::CudaSdk, ptx: SUITE_PTX,
        training: hist!("hist64", "256", "2", "128", "65536", "7", "512"), full: hist!("hist64", "256", "8", "512", "163840", "1", "256"),
        chip: hist!("hist64", "256", "120", "7680", "2621440", "1", "1024"),
        quick: hist!("hist64", "256", "2", "128", "16384", "1", "256"), check: |s| suite::histogram(s, 64),
    },
    Kernel {
        name: "hist256", about: "256-bin histogram of packed bytes, 32 sub-histograms in shared memory (shared atomics)",
        paper_kind: "hist256", suite: Suite::CudaSdk, ptx: SUITE_PTX,
        training: hist!("hist256", "1024", "2", "512", "65536", "7", "512"), full: hist!("hist256", "1024", "4", "1024", "163840", "1", "256"),
        chip: hist!("hist256", "1024", "60", "15360", "2621440", "1", "1024"),
        quick: hist!("hist256", "1024", "2", "512", "16384", "1", "256"), check: |s| suite::histogram(s, 256),
    },
    Kernel {
        name: "aes_encrypt", about: "AES-128 encryption, T-tables in shared memory (data-dependent lookups)",
        paper_kind: BEYOND_TABLE5, suite: Suite::Manavski, ptx: ELASTIC_PTX,
        training: encrypt!("2", "512", "7"), full: encrypt!("64", "16384", "1"), chip: encrypt!("1024", "262144", "1"),
        quick: encrypt!("4", "1024", "1"), check: |s| reference::aes(s, false),
    },
    Kernel {
        name: "aes_decrypt", about: "AES-128 decryption (equivalent inverse cipher), T-tables in shared memory",
        paper_kind: BEYOND_TABLE5, suite: Suite::Manavski, ptx: ELASTIC_PTX,
        training: decrypt!("2", "512", "7"), full: decrypt!("64", "16384", "1"), chip: decrypt!("1024", "262144", "1"),
        quick: decrypt!("4", "1024", "1"), check: |s| reference::aes(s, true),
    },
    Kernel {
        name: "reduce_interleaved", about: "the SDK's interleaved-addressing reduction, strided index",
        paper_kind: "reduction", suite: Suite::CudaSdk, ptx: ELASTIC_PTX,
        training: reduce!("2", "512", "7"), full: reduce!("256", "65536", "1"), chip: reduce!("4096", "1048576", "1"),
        quick: reduce!("8", "2048", "1"), check: reference::reduction,
    },
    Kernel {
        name: "transpose16", about: "16 x 16 tile transpose without padding, column reads conflicting",
        paper_kind: "transpose", suite: Suite::CudaSdk, ptx: ELASTIC_PTX,
        training: transpose!("2,2", "32", "1024", "7"), full: transpose!("16,16", "256", "65536", "1"),
        chip: transpose!("64,64", "1024", "1048576", "1"),
        quick: transpose!("2,2", "32", "1024", "1"), check: reference::transpose,
    },
    Kernel {
        name: "dct8x8", about: "the SDK's 8 x 8 DCT without padding, row pass conflicting",
        paper_kind: "dct8x8-1/-2", suite: Suite::CudaSdk, ptx: ELASTIC_PTX,
        training: dct!("dct8x8", "1,2", "32", "1024", "7"), full: dct!("dct8x8", "8,16", "256", "65536", "2"),
        chip: dct!("dct8x8", "32,64", "1024", "1048576", "2"),
        quick: dct!("dct8x8", "1,2", "32", "1024", "2"), check: |s| reference::dct(s, false),
    },
    Kernel {
        name: "idct8x8", about: "the SDK's 8 x 8 inverse DCT, as dct8x8",
        paper_kind: "dct8x8-1/-2", suite: Suite::CudaSdk, ptx: ELASTIC_PTX,
        training: dct!("idct8x8", "1,2", "32", "1024", "7"), full: dct!("idct8x8", "8,16", "256", "65536", "2"),
        chip: dct!("idct8x8", "32,64", "1024", "1048576", "2"),
        quick: dct!("idct8x8", "1,2", "32", "1024", "2"), check: |s| reference::dct(s, true),
    },
    Kernel {
        name: "fwt1024", about: "the SDK's fast Walsh transform, radix-4 butterflies in shared memory",
        paper_kind: "FWT", suite: Suite::CudaSdk, ptx: XOR_PTX,
        training: blocks!("fwt1024", "1", "1024", "7"), full: blocks!("fwt1024", "64", "65536", "1"),
        chip: blocks!("fwt1024", "1024", "1048576", "1"),
        quick: blocks!("fwt1024", "2", "2048", "1"), check: reference::fwt,
    },
    Kernel {
        name: "scan512", about: "work-efficient (Blelloch) exclusive scan without conflict-free offsets",
        paper_kind: "matrix scan", suite: Suite::CudaSdk, ptx: XOR_PTX,
        training: blocks!("scan512", "1", "512", "7"), full: blocks!("scan512", "128", "65536", "1"),
        chip: blocks!("scan512", "2048", "1048576", "1"),
        quick: blocks!("scan512", "2", "1024", "1"), check: reference::scan,
    },
    Kernel {
        name: "conv_cols", about: "the SDK's column convolution (17 taps) without its +1 padding",
        paper_kind: "conv-1/-2", suite: Suite::CudaSdk, ptx: XOR_PTX,
        training: conv!("2,1", "32", "1024", "7"), full: conv!("16,8", "256", "65536", "1"),
        chip: conv!("64,32", "1024", "1048576", "1"),
        quick: conv!("2,1", "32", "1024", "1"), check: reference::conv_cols,
    },
    Kernel {
        name: "dwt_haar1d", about: "the SDK's 1-D Haar wavelet, 10 levels a block, without its bank padding",
        paper_kind: "dwtHaar1D", suite: Suite::CudaSdk, ptx: SUITE_PTX,
        training: haar!("1", "1024", "7"), full: haar!("64", "65536", "1"),
        chip: haar!("1024", "1048576", "1"),
        quick: haar!("2", "2048", "1"), check: suite::haar,
    },
    Kernel {
        name: "nw_1", about: "Rodinia's needle_cuda_shared_1: 16 x 16 score tiles, one block anti-diagonal",
        paper_kind: "NW-1", suite: Suite::Rodinia, ptx: SUITE_PTX,
        training: nw!(1, "8", "129", "16641", "7"), full: nw!(1, "16", "257", "66049", "1"),
        chip: nw!(1, "256", "4097", "16785409", "1"),
        quick: nw!(1, "4", "65", "4225", "1"), check: |s| suite::nw(s, false),
    },
    Kernel {
        name: "nw_2", about: "Rodinia's needle_cuda_shared_2: as nw_1 on the lower-right triangle",
        paper_kind: "NW-2", suite: Suite::Rodinia, ptx: SUITE_PTX,
        training: nw!(2, "8", "7", "129", "16641", "7"), full: nw!(2, "16", "15", "257", "66049", "1"),
        chip: nw!(2, "256", "255", "4097", "16785409", "1"),
        quick: nw!(2, "4", "3", "65", "4225", "1"), check: |s| suite::nw(s, true),
    },
    Kernel {
        name: "lud_perimeter", about: "Rodinia's lud_perimeter: 16 x 16 row and column tiles, column tile walked by rows",
        paper_kind: "LUD-1", suite: Suite::Rodinia, ptx: SUITE_PTX,
        training: lud!("8", "144", "20736", "7"), full: lud!("16", "272", "73984", "1"),
        chip: lud!("256", "4112", "16908544", "1"),
        quick: lud!("4", "80", "6400", "1"), check: suite::lud_perimeter,
    },
    Kernel {
        name: "lud_diagonal", about: "Rodinia's lud_diagonal: a 16 x 16 tile factorised in place, L's column walked by rows",
        paper_kind: "LUD-2", suite: Suite::Rodinia, ptx: MORE_PTX,
        training: lud_diagonal!("8", "2048", "7"), full: lud_diagonal!("64", "16384", "1"),
        chip: lud_diagonal!("1024", "262144", "1"),
        quick: lud_diagonal!("4", "1024", "1"), check: more::lud_diagonal,
    },
    // The one-SM run's 2 x 2 x 2 boxes have 8 neighbours each (themselves included); the chip's
    // flat 16 x 8 x 1 about as many (7.9), so it is 16 times the work.
    Kernel {
        name: "lava_md", about: "Rodinia's lavaMD in double: positions as 4-double structs (stride 8 words), charges doubles (stride 2) in shared memory",
        paper_kind: "lavaMD", suite: Suite::Rodinia, ptx: MORE_PTX,
        training: lava!("4", "2", "2", "1", "1600", "400", "7", "8"), full: lava!("8", "2", "2", "2", "3200", "800", "1", "2"),
        chip: lava!("128", "16", "8", "1", "51200", "12800", "1", "2"),
        quick: lava!("2", "2", "1", "1", "800", "200", "1", "2"), check: more::lava_md,
    },
    Kernel {
        name: "fft_radix2", about: "1,024-point radix-2 FFT in shared memory (complex as word pairs), bit-reversed load, in place",
        paper_kind: "FFT-1", suite: Suite::Gutierrez, ptx: MORE_PTX,
        training: fft!("fft_radix2", "1", "2048", "7"), full: fft!("fft_radix2", "64", "131072", "1"),
        chip: fft!("fft_radix2", "1024", "2097152", "1"),
        quick: fft!("fft_radix2", "2", "4096", "1"), check: more::fft,
    },
    Kernel {
        name: "fft_stockham", about: "1,024-point radix-2 Stockham FFT in shared memory (autosort, two buffers)",
        paper_kind: "FFT-2", suite: Suite::Gutierrez, ptx: MORE_PTX,
        training: fft!("fft_stockham", "1", "2048", "7"), full: fft!("fft_stockham", "64", "131072", "1"),
        chip: fft!("fft_stockham", "1024", "2097152", "1"),
        quick: fft!("fft_stockham", "2", "4096", "1"), check: more::fft,
    },
    // Of Table 5's four MRI-grid rows, MRI-grid-1's: the searches choose its functions on our
    // trace (bit-vector k1=0 k2=5 mask=31; bitwise XOR (0^5) .. (4^9); permutations of bits 1-5).
    Kernel {
        name: "split_sort", about: "Parboil mri-gridding's splitSort: 1,024 keys a block split by 4 bits, flags scanned in shared memory",
        paper_kind: "MRI-grid-1", suite: Suite::Parboil, ptx: MORE_PTX,
        training: sort!("2", "2048", "32", "7"), full: sort!("64", "65536", "1024", "1"),
        chip: sort!("1024", "1048576", "16384", "1"),
        quick: sort!("2", "2048", "32", "1"), check: more::split_sort,
    },
    // MRI-grid-2 and -3: Parboil's scan tree levels, 128 elements a block (Table 5's functions
    // stop at word bit 6). Parboil's padding macro pads nothing (its `+` binds before `>>`).
    Kernel {
        name: "scan_inter_up", about: "Parboil mri-gridding's scan_inter1_kernel: a 128-element Blelloch up-sweep without padding",
        paper_kind: "MRI-grid-2", suite: Suite::Parboil, ptx: PARBOIL_PTX,
        training: parboil_scan!("scan_inter_up", "2", "256", "7"), full: parboil_scan!("scan_inter_up", "64", "8192", "1"),
        chip: parboil_scan!("scan_inter_up", "1024", "131072", "1"),
        quick: parboil_scan!("scan_inter_up", "2", "256", "1"), check: parboil::scan_up,
    },
    Kernel {
        name: "scan_inter_down", about: "Parboil mri-gridding's scan_inter2_kernel: a 128-element Blelloch down-sweep without padding",
        paper_kind: "MRI-grid-3", suite: Suite::Parboil, ptx: PARBOIL_PTX,
        training: parboil_scan!("scan_inter_down", "2", "256", "7"), full: parboil_scan!("scan_inter_down", "64", "8192", "1"),
        chip: parboil_scan!("scan_inter_down", "1024", "131072", "1"),
        quick: parboil_scan!("scan_inter_down", "2", "256", "1"), check: parboil::scan_down,
    },
];

/// The kernels named `names` (all when empty), in [`KERNELS`] order; an error names a bad one.
pub fn select(names: &[String]) -> Result<Vec<Kernel>, String> {
    if let Some(bad) = names.iter().find(|n| !KERNELS.iter().any(|k| k.name == *n)) {
        let known: Vec<&str> = KERNELS.iter().map(|k| k.name).collect();
        return Err(format!(
            "--kernel {bad}: no such kernel (one of: {})",
            known.join(", ")
        ));
    }
    Ok(KERNELS
        .iter()
        .filter(|k| names.is_empty() || names.iter().any(|n| n == k.name))
        .copied()
        .collect())
}
