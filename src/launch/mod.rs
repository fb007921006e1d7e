//! The launch a user describes: which kernel, the grid and block shape, the arguments, dynamic
//! shared memory, and the configuration to simulate with (issue 3, "`warpstep run`").
//!
//! The same flags come from three places and mean the same thing in each: `// warpstep:` comment
//! lines inside the PTX text (so one text is a whole runnable example), the CLI's command line and
//! the browser's launch fields. [`LaunchFlags::parse_tokens`] reads them; [`LaunchFlags::overlay`]
//! lets later sources override earlier ones.

mod args;
mod photo;
mod rng;

pub use args::{ArgSpec, BufferInit, ElemType, Number, StructField, MAX_BUFFER_BYTES};
pub use rng::SplitMix64;

use std::fmt;

/// A launch problem, named so the user can fix it.
#[derive(Debug, Clone, PartialEq)]
pub enum LaunchError {
    /// A `--arg` spec that does not parse.
    BadArg { spec: String, why: String },
    /// A flag value that does not parse (`--grid 0`, `--block x`).
    BadValue {
        flag: String,
        value: String,
        why: String,
    },
    /// A flag warpstep does not know, or a flag without its value.
    BadFlag { flag: String, why: String },
    /// A problem on a `// warpstep:` line of the PTX text.
    AtLine { line: u32, inner: Box<LaunchError> },
    /// The launch does not fit the kernel (which kernel, how many arguments, shapes, sizes).
    Mismatch { why: String },
    /// Argument `index` (0-based) does not fit the kernel parameter `param`.
    ArgMismatch {
        index: usize,
        param: String,
        why: String,
    },
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::BadArg { spec, why } => write!(f, "--arg {spec}: {why}"),
            LaunchError::BadValue { flag, value, why } => write!(f, "{flag} {value}: {why}"),
            LaunchError::BadFlag { flag, why } => write!(f, "{flag}: {why}"),
            LaunchError::AtLine { line, inner } => write!(f, "line {line} (// warpstep:): {inner}"),
            LaunchError::Mismatch { why } => f.write_str(why),
            LaunchError::ArgMismatch { index, param, why } => {
                write!(f, "--arg {index} (parameter `{param}`): {why}")
            }
        }
    }
}

impl std::error::Error for LaunchError {}

/// A grid or block shape. Each dimension is at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// The most threads a block may have and the most blocks a grid may have (CUDA's limits for the
/// block; a bound on simulated work for the grid).
pub const MAX_BLOCK_THREADS: u64 = 1024;
pub const MAX_GRID_BLOCKS: u64 = 1 << 24;

impl Dim3 {
    /// A one-dimensional shape.
    pub const fn linear(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }

    /// x * y * z.
    pub fn count(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// Parses `X`, `X,Y` or `X,Y,Z` (also `XxYxZ`), each at least 1.
    pub fn parse(text: &str) -> Result<Dim3, String> {
        let parts: Vec<&str> = text.split([',', 'x']).map(str::trim).collect();
        if parts.is_empty() || parts.len() > 3 {
            return Err("expected X, X,Y or X,Y,Z".into());
        }
        let mut dims = [1u32; 3];
        for (slot, part) in dims.iter_mut().zip(&parts) {
            *slot = match part.parse::<u32>() {
                Ok(v) if v >= 1 => v,
                _ => return Err(format!("`{part}` is not a whole number of at least 1")),
            };
        }
        Ok(Dim3 {
            x: dims[0],
            y: dims[1],
            z: dims[2],
        })
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.x, self.y, self.z)
    }
}

/// Launch flags from one source. `None` / empty means "not given here".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LaunchFlags {
    pub kernel: Option<String>,
    pub grid: Option<Dim3>,
    pub block: Option<Dim3>,
    /// All the kernel's arguments; a source that gives any replaces all of an earlier source's.
    pub args: Vec<ArgSpec>,
    pub shared_dynamic: Option<u32>,
    /// Registers allocated per thread (`--regs`, as `ptxas -v` reports them), instead of the
    /// most PTX registers live at once: occupancy and the unified partition (Unified §4.5).
    pub regs: Option<u32>,
    /// A preset name or a JSON file path.
    pub config: Option<String>,
    /// `key=value` overrides, applied in order after the config.
    pub sets: Vec<String>,
    pub max_cycles: Option<u64>,
    /// The source language forced by `--lang cuda|ptx` (issue 29: the editor's switch); `None`
    /// lets [`crate::cuda::is_cuda`] decide from the text.
    pub lang: Option<String>,
}

/// Most registers a thread may be given with `--regs` (PTX's own limit is 255 per thread on
/// the architectures warpstep models).
pub const MAX_REGS_PER_THREAD: u32 = 255;

/// The flags `parse_tokens` understands, each followed by a value.
pub const LAUNCH_FLAGS: [&str; 10] = [
    "--kernel",
    "--grid",
    "--block",
    "--arg",
    "--shared-dynamic",
    "--regs",
    "--config",
    "--set",
    "--max-cycles",
    "--lang",
];

impl LaunchFlags {
    /// Parses `--flag value` pairs (also `--flag=value`).
    pub fn parse_tokens<S: AsRef<str>>(tokens: &[S]) -> Result<LaunchFlags, LaunchError> {
        let mut flags = LaunchFlags::default();
        let mut i = 0;
        while i < tokens.len() {
            let token = tokens[i].as_ref();
            let (flag, inline) = match token.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (token, None),
            };
            if !LAUNCH_FLAGS.contains(&flag) {
                return Err(LaunchError::BadFlag {
                    flag: flag.to_string(),
                    why: format!("not a launch flag (one of: {})", LAUNCH_FLAGS.join(" ")),
                });
            }
            let value = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    match tokens.get(i) {
                        Some(v) => v.as_ref().to_string(),
                        None => {
                            return Err(LaunchError::BadFlag {
                                flag: flag.to_string(),
                                why: "needs a value".into(),
                            })
                        }
                    }
                }
            };
            flags.set(flag, &value)?;
            i += 1;
        }
        Ok(flags)
    }

    /// Applies one flag and its value.
    pub fn set(&mut self, flag: &str, value: &str) -> Result<(), LaunchError> {
        let bad = |why: String| LaunchError::BadValue {
            flag: flag.to_string(),
            value: value.to_string(),
            why,
        };
        match flag {
            "--kernel" => self.kernel = Some(value.to_string()),
            "--grid" => {
                self.grid = Some(
                    check_count(Dim3::parse(value).map_err(bad)?, MAX_GRID_BLOCKS).map_err(bad)?,
                )
            }
            "--block" => {
                self.block = Some(
                    check_count(Dim3::parse(value).map_err(bad)?, MAX_BLOCK_THREADS)
                        .map_err(bad)?,
                )
            }
            "--arg" => self.args.push(ArgSpec::parse(value)?),
            "--shared-dynamic" => {
                self.shared_dynamic = Some(
                    value
                        .parse()
                        .map_err(|_| bad("expected a byte count".into()))?,
                )
            }
            "--regs" => {
                self.regs = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|r| (1..=MAX_REGS_PER_THREAD).contains(r))
                        .ok_or_else(|| bad(format!("expected 1..={MAX_REGS_PER_THREAD}")))?,
                )
            }
            "--config" => self.config = Some(value.to_string()),
            "--lang" => {
                if value != "cuda" && value != "ptx" {
                    return Err(bad("expected cuda or ptx".into()));
                }
                self.lang = Some(value.to_string())
            }
            "--set" => {
                if !value.contains('=') {
                    return Err(bad("expected KEY=VALUE".into()));
                }
                self.sets.push(value.to_string())
            }
            "--max-cycles" => {
                self.max_cycles = Some(
                    value
                        .parse()
                        .map_err(|_| bad("expected a cycle count".into()))?,
                )
            }
            _ => {
                return Err(LaunchError::BadFlag {
                    flag: flag.to_string(),
                    why: "not a launch flag".into(),
                })
            }
        }
        Ok(())
    }

    /// Reads the `// warpstep:` lines of a PTX text, given as (line number, text after the
    /// prefix). Errors name the line.
    pub fn from_directives<S: AsRef<str>>(lines: &[(u32, S)]) -> Result<LaunchFlags, LaunchError> {
        let mut flags = LaunchFlags::default();
        for (line, text) in lines {
            let tokens: Vec<&str> = text.as_ref().split_whitespace().collect();
            let one = LaunchFlags::parse_tokens(&tokens).map_err(|e| LaunchError::AtLine {
                line: *line,
                inner: Box::new(e),
            })?;
            flags = flags.overlay(one);
        }
        Ok(flags)
    }

    /// `self` with every flag that `later` gives replaced by `later`'s value. `--arg`s replace as a
    /// whole list; `--set`s accumulate (later ones win key by key when applied in order).
    pub fn overlay(mut self, later: LaunchFlags) -> LaunchFlags {
        self.kernel = later.kernel.or(self.kernel);
        self.grid = later.grid.or(self.grid);
        self.block = later.block.or(self.block);
        if !later.args.is_empty() {
            self.args = later.args;
        }
        self.shared_dynamic = later.shared_dynamic.or(self.shared_dynamic);
        self.regs = later.regs.or(self.regs);
        self.config = later.config.or(self.config);
        self.sets.extend(later.sets);
        self.max_cycles = later.max_cycles.or(self.max_cycles);
        self.lang = later.lang.or(self.lang);
        self
    }
}

fn check_count(dim: Dim3, max: u64) -> Result<Dim3, String> {
    if dim.count() > max {
        return Err(format!(
            "{} in all is more than the limit {max}",
            dim.count()
        ));
    }
    Ok(dim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_parse_with_defaults_and_reject_zero() {
        assert_eq!(Dim3::parse("8").unwrap(), Dim3 { x: 8, y: 1, z: 1 });
        assert_eq!(Dim3::parse("8,4").unwrap(), Dim3 { x: 8, y: 4, z: 1 });
        assert_eq!(Dim3::parse("2,3,4").unwrap().count(), 24);
        assert!(Dim3::parse("0").unwrap_err().contains("`0`"));
        assert!(Dim3::parse("1,2,3,4").is_err());
        assert!(Dim3::parse("a").is_err());
    }

    #[test]
    fn directive_lines_parse_and_command_line_overrides() {
        let lines = [
            (3u32, "--grid 8 --block 256"),
            (4, "--arg f32[2048]=iota --arg 2048"),
        ];
        let from_ptx = LaunchFlags::from_directives(&lines).unwrap();
        assert_eq!(from_ptx.grid, Some(Dim3::linear(8)));
        assert_eq!(from_ptx.block, Some(Dim3::linear(256)));
        assert_eq!(from_ptx.args.len(), 2);
        let cli = LaunchFlags::parse_tokens(&["--grid=2", "--set", "core.warp_size=8"]).unwrap();
        let merged = from_ptx.overlay(cli);
        assert_eq!(merged.grid, Some(Dim3::linear(2)));
        assert_eq!(merged.block, Some(Dim3::linear(256)));
        assert_eq!(merged.args.len(), 2);
        assert_eq!(merged.sets, vec!["core.warp_size=8".to_string()]);
    }

    #[test]
    fn directive_errors_name_the_line() {
        let err = LaunchFlags::from_directives(&[(7u32, "--grid 0")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 7 (// warpstep:): --grid 0: `0` is not a whole number of at least 1"
        );
        let err = LaunchFlags::from_directives(&[(2u32, "--bogus 1")]).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("line 2 (// warpstep:): --bogus: not a launch flag"));
        let err = LaunchFlags::parse_tokens(&["--block"]).unwrap_err();
        assert_eq!(err.to_string(), "--block: needs a value");
        assert!(LaunchFlags::parse_tokens(&["--block", "2048"]).is_err());
    }

    #[test]
    fn scalar_and_buffer_specs() {
        assert_eq!(
            ArgSpec::parse("1024").unwrap(),
            ArgSpec::Scalar(Number::Int(1024))
        );
        assert_eq!(
            ArgSpec::parse("-3").unwrap(),
            ArgSpec::Scalar(Number::Int(-3))
        );
        assert_eq!(
            ArgSpec::parse("0x1f").unwrap(),
            ArgSpec::Scalar(Number::Int(31))
        );
        assert_eq!(
            ArgSpec::parse("2.5").unwrap(),
            ArgSpec::Scalar(Number::Float(2.5))
        );
        assert_eq!(
            ArgSpec::parse("u32[4]=list:1,2").unwrap(),
            ArgSpec::Buffer {
                elem: ElemType::U32,
                count: 4,
                init: BufferInit::List(vec![Number::Int(1), Number::Int(2)])
            }
        );
        for bad in [
            "u33[4]=0",
            "u32[0]=0",
            "u32[4]",
            "u32[4]=list:1,2,3,4,5",
            "f32[2]=rand:x",
            "abc",
        ] {
            let err = ArgSpec::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("--arg {bad}: ")), "{err}");
        }
    }

    #[test]
    fn struct_args_parse_their_fields() {
        let ArgSpec::Struct(fields) =
            ArgSpec::parse("struct:s32=-3,f32[4]=list:1,2,3,f64=0.5").unwrap()
        else {
            panic!("not a struct");
        };
        assert_eq!(
            fields,
            vec![
                StructField::Value(ElemType::S32, Number::Int(-3)),
                StructField::Buffer {
                    elem: ElemType::F32,
                    count: 4,
                    init: BufferInit::List(vec![Number::Int(1), Number::Int(2), Number::Int(3)]),
                },
                StructField::Value(ElemType::F64, Number::Float(0.5)),
            ]
        );
        for (bad, why) in [
            (
                "struct:s32",
                "struct field `s32` is not TYPE=VALUE (e.g. s32=3)",
            ),
            ("struct:q32=1", "struct field `q32=1`: unknown type"),
            (
                "struct:u8=300",
                "struct field `u8=300`: 300 does not fit u8 (0..=255)",
            ),
            ("struct:f32=x", "struct field `f32=x`: `x` is not a number"),
            (
                "struct:f32[0]=1",
                "struct field `f32[0]=1`: count must be in",
            ),
        ] {
            let err = ArgSpec::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("--arg {bad}: {why}")), "{err}");
        }
    }

    fn bytes_of(spec: &str) -> Result<Vec<u8>, String> {
        match ArgSpec::parse(spec).unwrap() {
            ArgSpec::Buffer { elem, count, init } => {
                ArgSpec::initial_bytes(elem, count, &init, &|p| Err(format!("no file {p}")))
            }
            ArgSpec::Scalar(_) | ArgSpec::Struct(_) => panic!("not a buffer"),
        }
    }

    #[test]
    fn buffer_initialisers_produce_their_values() {
        assert_eq!(bytes_of("u16[3]=iota").unwrap(), vec![0, 0, 1, 0, 2, 0]);
        assert_eq!(bytes_of("s8[2]=-1").unwrap(), vec![0xff, 0xff]);
        assert_eq!(
            bytes_of("f32[1]=1.5").unwrap(),
            1.5f32.to_le_bytes().to_vec()
        );
        assert_eq!(
            bytes_of("u32[3]=list:7,8").unwrap(),
            vec![7, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]
        );
        assert!(bytes_of("u8[1]=256")
            .unwrap_err()
            .contains("does not fit u8"));
        assert!(bytes_of("u32[1]=1.5")
            .unwrap_err()
            .contains("not an integer"));
        assert!(bytes_of("u32[1]=file:x.bin")
            .unwrap_err()
            .contains("no file x.bin"));
    }

    #[test]
    fn random_buffers_are_seeded_and_in_range() {
        let a = bytes_of("f32[64]=rand:1").unwrap();
        assert_eq!(a, bytes_of("f32[64]=rand:1").unwrap());
        assert_ne!(a, bytes_of("f32[64]=rand:2").unwrap());
        for i in 0..64 {
            let Number::Float(v) = ElemType::F32.read(&a, i) else {
                panic!()
            };
            assert!((0.0..1.0).contains(&v));
        }
        let r = bytes_of("s32[200]=rand:9:-5:5").unwrap();
        let values: Vec<i128> = (0..200)
            .map(|i| match ElemType::S32.read(&r, i) {
                Number::Int(v) => v,
                Number::Float(_) => unreachable!(),
            })
            .collect();
        assert!(values.iter().all(|v| (-5..=5).contains(v)));
        assert!(values.contains(&-5) && values.contains(&5));
        assert!(bytes_of("u8[4]=rand:1:0:300")
            .unwrap_err()
            .contains("within u8"));
    }

    #[test]
    fn image_buffers_hold_photographs_byte_by_byte_and_refuse_bad_specs() {
        let words = bytes_of("u32[2048]=image:5:64").unwrap();
        assert_eq!(words.len(), 8_192);
        assert_eq!(words, photo::photographs(5, 64, 8_192));
        assert_eq!(bytes_of("u8[8192]=image:5:64").unwrap(), words);
        assert_eq!(
            bytes_of("u8[300]=image:2").unwrap(),
            photo::photograph(2_000_006, photo::DEFAULT_WIDTH)[..300]
        );
        assert!(bytes_of("f32[16]=image:1")
            .unwrap_err()
            .contains("integer buffer"));
        for bad in ["u8[4]=image:x", "u8[4]=image:1:2", "u8[4]=image:1:64:3"] {
            let err = ArgSpec::parse(bad).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("--arg {bad}: ")) && err.contains("image"),
                "{err}"
            );
        }
    }
}
