//! The kernels of the elastic pipeline paper's experiment (CF'11 Table 4; our CUDA in
//! `tests/data/kernels/elastic.cu`, launches and arguments from `docs/elastic-kernels.md`, "The
//! kernels"), each at the paper's size ([`Size::Full`], the reduction at 1,024 blocks as that
//! page reports it) and a smaller one for the tests ([`Size::Quick`]).

use super::{Case, Suite};
use crate::bench::BenchCase;
use serde::Serialize;

const PTX: &str = include_str!("../../../tests/data/kernels/elastic.sm_52.ptx");

pub use super::Size;

/// Table 4's row for a kernel: its name, shared memory intensity (per lane), average bank
/// conflict degree and theoretic speedup.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PaperRow {
    pub name: &'static str,
    pub intensity: f64,
    pub degree: f64,
    pub theoretic_speedup: f64,
}

/// A kernel's launch flags, and its padded (hand-optimised) version's kernel name and flags.
#[derive(Debug, Clone, Copy)]
pub struct Launches {
    pub flags: &'static [&'static str],
    pub padded: Option<(&'static str, &'static [&'static str])>,
}

/// One of Table 4's kernels (un-padded: the paper's `*` kernels with the SDK's padding undone).
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// The PTX entry.
    pub name: &'static str,
    pub about: &'static str,
    /// Table 4's Source column.
    pub source: Suite,
    pub paper: PaperRow,
    pub full: Launches,
    pub quick: Launches,
}

impl Kernel {
    fn launches(&self, size: Size) -> Launches {
        match size {
            Size::Full => self.full,
            Size::Quick => self.quick,
        }
    }

    fn case_of(&self, name: &'static str, flags: &'static [&'static str]) -> Case {
        Case {
            suite: self.source,
            launch: BenchCase {
                name,
                about: self.about,
                ptx: PTX,
                flags,
            },
            check: None,
        }
    }

    /// The un-padded kernel at `size`.
    pub fn case(&self, size: Size) -> Case {
        self.case_of(self.name, self.launches(size).flags)
    }

    /// The padded kernel at `size`, when the SDK has one (Fig. 10).
    pub fn padded_case(&self, size: Size) -> Option<Case> {
        let (name, flags) = self.launches(size).padded?;
        Some(self.case_of(name, flags))
    }
}

/// `transpose16` or its padded twin on an `$n` x `$n` matrix (`$elems` floats), grid `$grid`.
#[rustfmt::skip]
macro_rules! transpose {
    ($kernel:literal, $grid:literal, $n:literal, $elems:literal) => {
        &[
            "--kernel", $kernel, "--grid", $grid, "--block", "16,16",
            "--arg", concat!("f32[", $elems, "]=0"),
            "--arg", concat!("f32[", $elems, "]=rand:1"),
            "--arg", $n, "--arg", $n,
        ]
    };
}

/// `reduce_interleaved` over `$n` ints, one sum per block of 256.
#[rustfmt::skip]
macro_rules! reduce {
    ($blocks:literal, $n:literal) => {
        &[
            "--kernel", "reduce_interleaved", "--grid", $blocks, "--block", "256",
            "--arg", concat!("s32[", $n, "]=rand:1:0:1000"),
            "--arg", concat!("s32[", $blocks, "]=0"),
            "--arg", $n,
        ]
    };
}

/// A DCT kernel on an image of row pitch `$pitch` floats (`$elems` in all).
#[rustfmt::skip]
macro_rules! dct {
    ($kernel:literal, $grid:literal, $pitch:literal, $elems:literal) => {
        &[
            "--kernel", $kernel, "--grid", $grid, "--block", "8,4,2",
            "--arg", concat!("f32[", $elems, "]=0"),
            "--arg", concat!("f32[", $elems, "]=rand:2"),
            "--arg", $pitch,
        ]
    };
}

/// A short (16-bit) DCT kernel on an image of row pitch `$pitch` shorts (`$elems` in all), in
/// place: pixels 0-255, or coefficients -256..255 for the inverse (`$init`).
#[rustfmt::skip]
macro_rules! dct_short {
    ($kernel:literal, $grid:literal, $pitch:literal, $elems:literal, $init:literal) => {
        &[
            "--kernel", $kernel, "--grid", $grid, "--block", "8,4,4",
            "--arg", concat!("s16[", $elems, "]=", $init),
            "--arg", $pitch,
        ]
    };
}

/// An AES kernel on `$words` words (4 threads an AES block), with the round keys `$keys`.
#[rustfmt::skip]
macro_rules! aes {
    ($kernel:literal, $blocks:literal, $words:literal, $keys:expr) => {
        &[
            "--kernel", $kernel, "--grid", $blocks, "--block", "256",
            "--arg", concat!("u32[", $words, "]=0"),
            "--arg", concat!("u32[", $words, "]=rand:1"),
            "--arg", $keys,
        ]
    };
}

/// FIPS-197's key 2b7e1516 28aed2a6 abf71588 09cf4f3c expanded for encryption, and for the
/// equivalent inverse cipher (docs/elastic-kernels.md).
macro_rules! encrypt_keys {
    () => {
        "u32[44]=list:370507307,2798825000,2283141035,1011863305,402586272,2972472456,960078627,91647018,4069901042,1136236154,2055222617,2146851187,2101837885,1056839239,1149117214,998799981,1101350127,2136691368,992309686,11340763,4173779412,2275246972,3166237386,3155556625,2057537645,4248701713,1099364827,4254269642,251089998,4090060639,2991564420,1339860558,561238762,3535441333,1626680113,791252351,4083578796,568130073,1093259560,1845517399,2834896080,2300964553,3356245985,2785829814"
    };
}
macro_rules! decrypt_keys {
    () => {
        "u32[44]=list:2834896080,2300964553,3356245985,2785829814,1666874124,4276754707,2424846768,3036367974,1519549919,2645582367,1851924643,611546582,1198964754,3340902336,4090643132,1242649973,1993931886,2153045970,888167804,3116570569,4228555630,4136379324,3030680238,2368948917,323258512,176586962,1109958930,966248475,4145225596,432146498,1219371456,2076141833,3943003596,4006680382,1366043010,856770761,2802333483,97805042,3216850620,1652384075,370507307,2798825000,2283141035,1011863305"
    };
}

/// Table 4's kernels in its order. Quick sizes: the reduction 64 blocks, AES 17 blocks,
/// transpose 8 x 8 blocks (128 x 128), DCT and IDCT 8 x 16 blocks (256 x 256), the short DCT
/// and IDCT 8 x 8 blocks (256 x 256).
#[rustfmt::skip]
pub const KERNELS: [Kernel; 8] = [
    Kernel {
        name: "aes_encrypt",
        about: "AES-128 encryption with T-tables in shared memory (Manavski, the paper's Fig. 2)",
        source: Suite::Manavski,
        paper: PaperRow { name: "AES_encrypt", intensity: 0.361, degree: 1.54, theoretic_speedup: 1.19 },
        full: Launches { flags: aes!("aes_encrypt", "257", "65792", encrypt_keys!()), padded: None },
        quick: Launches { flags: aes!("aes_encrypt", "17", "4352", encrypt_keys!()), padded: None },
    },
    Kernel {
        name: "aes_decrypt",
        about: "AES-128 decryption (equivalent inverse cipher), T-tables in shared memory",
        source: Suite::Manavski,
        paper: PaperRow { name: "AES_decrypt", intensity: 0.359, degree: 1.53, theoretic_speedup: 1.19 },
        full: Launches { flags: aes!("aes_decrypt", "257", "65792", decrypt_keys!()), padded: None },
        quick: Launches { flags: aes!("aes_decrypt", "17", "4352", decrypt_keys!()), padded: None },
    },
    Kernel {
        name: "reduce_interleaved",
        about: "the SDK's interleaved-addressing reduction, strided index",
        source: Suite::CudaSdk,
        paper: PaperRow { name: "Reduction", intensity: 0.040, degree: 3.07, theoretic_speedup: 1.09 },
        full: Launches { flags: reduce!("1024", "262144"), padded: None },
        quick: Launches { flags: reduce!("64", "16384"), padded: None },
    },
    Kernel {
        name: "transpose16",
        about: "16 x 16 tile transpose, column reads 8-way conflicting",
        source: Suite::CudaSdk,
        paper: PaperRow { name: "Transpose*", intensity: 0.037, degree: 4.50, theoretic_speedup: 1.13 },
        full: Launches {
            flags: transpose!("transpose16", "16,16", "256", "65536"),
            padded: Some(("transpose16_padded", transpose!("transpose16_padded", "16,16", "256", "65536"))),
        },
        quick: Launches {
            flags: transpose!("transpose16", "8,8", "128", "16384"),
            padded: Some(("transpose16_padded", transpose!("transpose16_padded", "8,8", "128", "16384"))),
        },
    },
    Kernel {
        name: "dct8x8",
        about: "the SDK's 8 x 8 DCT, 32 x 16 tile, row pass 8-way conflicting",
        source: Suite::CudaSdk,
        paper: PaperRow { name: "DCT*", intensity: 0.216, degree: 3.33, theoretic_speedup: 1.50 },
        full: Launches {
            flags: dct!("dct8x8", "16,32", "512", "262144"),
            padded: Some(("dct8x8_padded", dct!("dct8x8_padded", "16,32", "512", "262144"))),
        },
        quick: Launches {
            flags: dct!("dct8x8", "8,16", "256", "65536"),
            padded: Some(("dct8x8_padded", dct!("dct8x8_padded", "8,16", "256", "65536"))),
        },
    },
    Kernel {
        name: "idct8x8",
        about: "the SDK's 8 x 8 inverse DCT, as dct8x8",
        source: Suite::CudaSdk,
        paper: PaperRow { name: "IDCT*", intensity: 0.212, degree: 3.33, theoretic_speedup: 1.50 },
        full: Launches {
            flags: dct!("idct8x8", "16,32", "512", "262144"),
            padded: Some(("idct8x8_padded", dct!("idct8x8_padded", "16,32", "512", "262144"))),
        },
        quick: Launches {
            flags: dct!("idct8x8", "8,16", "256", "65536"),
            padded: Some(("idct8x8_padded", dct!("idct8x8_padded", "8,16", "256", "65536"))),
        },
    },
    Kernel {
        name: "dct_short",
        about: "the SDK's 16-bit 8 x 8 DCT, 32 x 32 tile, row pass 8-way conflicting",
        source: Suite::CudaSdk,
        paper: PaperRow { name: "DCT_short*", intensity: 0.103, degree: 2.75, theoretic_speedup: 1.18 },
        full: Launches {
            flags: dct_short!("dct_short", "16,16", "512", "262144", "rand:3:0:255"),
            padded: Some(("dct_short_padded", dct_short!("dct_short_padded", "16,16", "512", "262144", "rand:3:0:255"))),
        },
        quick: Launches {
            flags: dct_short!("dct_short", "8,8", "256", "65536", "rand:3:0:255"),
            padded: Some(("dct_short_padded", dct_short!("dct_short_padded", "8,8", "256", "65536", "rand:3:0:255"))),
        },
    },
    Kernel {
        name: "idct_short",
        about: "the SDK's 16-bit 8 x 8 inverse DCT, as dct_short",
        source: Suite::CudaSdk,
        paper: PaperRow { name: "IDCT_short*", intensity: 0.103, degree: 2.75, theoretic_speedup: 1.18 },
        full: Launches {
            flags: dct_short!("idct_short", "16,16", "512", "262144", "rand:4:-256:255"),
            padded: Some(("idct_short_padded", dct_short!("idct_short_padded", "16,16", "512", "262144", "rand:4:-256:255"))),
        },
        quick: Launches {
            flags: dct_short!("idct_short", "8,8", "256", "65536", "rand:4:-256:255"),
            padded: Some(("idct_short_padded", dct_short!("idct_short_padded", "8,8", "256", "65536", "rand:4:-256:255"))),
        },
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
