//! Kernel arguments as the user writes them: `--arg 1024`, `--arg f32[2048]=iota`, ... (issue 3,
//! "`warpstep run`"). One spec per kernel parameter, in declaration order. A scalar is passed by
//! value; a buffer is allocated in global memory, initialised, and its device address is passed.

use super::rng::SplitMix64;
use super::LaunchError;
use std::fmt;

/// Element type of a buffer argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    U8,
    S8,
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
    F32,
    F64,
}

impl ElemType {
    /// Every element type, in the order the help text lists them.
    pub const ALL: [ElemType; 10] = [
        ElemType::U8,
        ElemType::S8,
        ElemType::U16,
        ElemType::S16,
        ElemType::U32,
        ElemType::S32,
        ElemType::U64,
        ElemType::S64,
        ElemType::F32,
        ElemType::F64,
    ];

    /// The spelling used in specs (`u32`, `f64`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::S8 => "s8",
            ElemType::U16 => "u16",
            ElemType::S16 => "s16",
            ElemType::U32 => "u32",
            ElemType::S32 => "s32",
            ElemType::U64 => "u64",
            ElemType::S64 => "s64",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::U8 | ElemType::S8 => 1,
            ElemType::U16 | ElemType::S16 => 2,
            ElemType::U32 | ElemType::S32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::S64 | ElemType::F64 => 8,
        }
    }

    /// True for f32 and f64.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// The inclusive range of an integer type (floats: the full i128 range, unused).
    pub fn int_range(self) -> (i128, i128) {
        match self {
            ElemType::U8 => (0, u8::MAX as i128),
            ElemType::S8 => (i8::MIN as i128, i8::MAX as i128),
            ElemType::U16 => (0, u16::MAX as i128),
            ElemType::S16 => (i16::MIN as i128, i16::MAX as i128),
            ElemType::U32 => (0, u32::MAX as i128),
            ElemType::S32 => (i32::MIN as i128, i32::MAX as i128),
            ElemType::U64 => (0, u64::MAX as i128),
            ElemType::S64 => (i64::MIN as i128, i64::MAX as i128),
            ElemType::F32 | ElemType::F64 => (i128::MIN, i128::MAX),
        }
    }

    fn parse(s: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Decodes element `i` of a little-endian byte buffer as a JSON-friendly number.
    pub fn read(self, bytes: &[u8], i: usize) -> Number {
        let size = self.size();
        let mut raw = [0u8; 8];
        raw[..size].copy_from_slice(&bytes[i * size..(i + 1) * size]);
        let bits = u64::from_le_bytes(raw);
        match self {
            ElemType::U8 | ElemType::U16 | ElemType::U32 | ElemType::U64 => {
                Number::Int(bits as i128)
            }
            ElemType::S8 => Number::Int(bits as u8 as i8 as i128),
            ElemType::S16 => Number::Int(bits as u16 as i16 as i128),
            ElemType::S32 => Number::Int(bits as u32 as i32 as i128),
            ElemType::S64 => Number::Int(bits as i64 as i128),
            ElemType::F32 => Number::Float(f32::from_bits(bits as u32) as f64),
            ElemType::F64 => Number::Float(f64::from_bits(bits)),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A number as written on the command line: an integer (decimal, `0x` hex, negative) or a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    /// Parses `1024`, `-3`, `0x1f`, `-0x10`, `2.5`, `1e-3`, `inf`, `nan`.
    pub fn parse(s: &str) -> Option<Number> {
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let int = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            i128::from_str_radix(hex, 16).ok()
        } else if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
            body.parse::<i128>().ok()
        } else {
            None
        };
        if let Some(v) = int {
            return Some(Number::Int(if neg { -v } else { v }));
        }
        let float_like = body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
            || matches!(body, "inf" | "nan" | "infinity");
        if float_like {
            return s.parse::<f64>().ok().map(Number::Float);
        }
        None
    }

    /// The little-endian bytes of this number as an element of `ty`, or why it does not fit.
    pub fn encode(self, ty: ElemType) -> Result<Vec<u8>, String> {
        match (self, ty) {
            (Number::Float(v), ElemType::F32) => Ok((v as f32).to_le_bytes().to_vec()),
            (Number::Float(v), ElemType::F64) => Ok(v.to_le_bytes().to_vec()),
            (Number::Int(v), ElemType::F32) => Ok((v as f32).to_le_bytes().to_vec()),
            (Number::Int(v), ElemType::F64) => Ok((v as f64).to_le_bytes().to_vec()),
            (Number::Float(v), _) => Err(format!("{v} is not an integer, but the type is {ty}")),
            (Number::Int(v), _) => {
                let (lo, hi) = ty.int_range();
                if v < lo || v > hi {
                    return Err(format!("{v} does not fit {ty} ({lo}..={hi})"));
                }
                Ok((v as u64).to_le_bytes()[..ty.size()].to_vec())
            }
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v}"),
        }
    }
}

/// How a buffer argument's elements start out.
#[derive(Debug, Clone, PartialEq)]
pub enum BufferInit {
    /// Every element the same number (`0`, `7`, `1.5`).
    Fill(Number),
    /// 0, 1, 2, ...
    Iota,
    /// `list:1,2,3`; the rest of the buffer is zero. Longer than the buffer is an error.
    List(Vec<Number>),
    /// `rand:SEED`: floats uniform in [0,1), integers uniform over the type.
    Rand { seed: u64 },
    /// `rand:SEED:LO:HI`: integers uniform in [LO,HI]; floats uniform in [LO,HI).
    RandRange { seed: u64, lo: Number, hi: Number },
    /// `file:PATH`: raw little-endian bytes, read by the adapter (the model does no I/O).
    File(String),
    /// `image:SEED[:WIDTH]`: the buffer's bytes are synthetic WIDTH x WIDTH greyscale photographs,
    /// one byte a pixel, back to back (`photo.rs`; integer buffers only).
    Image { seed: u64, width: usize },
}

impl BufferInit {
    /// Whether it fills the buffer with zeros (`=0`, `=0.0`): what `cudaMalloc` plus
    /// `cudaMemset` give, so no host copy is modelled for it.
    pub fn is_zero_fill(&self) -> bool {
        match self {
            BufferInit::Fill(Number::Int(v)) => *v == 0,
            BufferInit::Fill(Number::Float(v)) => *v == 0.0,
            _ => false,
        }
    }
}

/// One kernel argument spec.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgSpec {
    /// A number passed by value.
    Scalar(Number),
    /// `TYPE[COUNT]=INIT`: a global buffer whose device address is passed.
    Buffer {
        elem: ElemType,
        count: usize,
        init: BufferInit,
    },
    /// `struct:FIELD,...`: a struct passed by value (a PTX `.b8` array parameter), its fields in
    /// order at C's natural alignment.
    Struct(Vec<StructField>),
}

/// One field of a struct argument.
#[derive(Debug, Clone, PartialEq)]
pub enum StructField {
    /// `TYPE=VALUE`: a number.
    Value(ElemType, Number),
    /// `TYPE[COUNT]=INIT`: a pointer member: a global buffer whose device address is stored.
    Buffer {
        elem: ElemType,
        count: usize,
        init: BufferInit,
    },
}

/// The largest buffer a launch may allocate, in bytes (keeps a typo from exhausting the tab).
pub const MAX_BUFFER_BYTES: usize = 256 << 20;

impl ArgSpec {
    /// Parses one `--arg` value.
    pub fn parse(spec: &str) -> Result<ArgSpec, LaunchError> {
        let bad = |why: String| LaunchError::BadArg {
            spec: spec.to_string(),
            why,
        };
        if let Some(fields) = spec.strip_prefix("struct:") {
            return parse_struct_fields(fields)
                .map(ArgSpec::Struct)
                .map_err(bad);
        }
        let Some(open) = spec.find('[') else {
            return Number::parse(spec)
                .map(ArgSpec::Scalar)
                .ok_or_else(|| bad("expected a number or TYPE[COUNT]=INIT".into()));
        };
        let elem = ElemType::parse(&spec[..open]).ok_or_else(|| {
            bad(format!(
                "unknown element type `{}` (one of: {})",
                &spec[..open],
                type_list()
            ))
        })?;
        let rest = &spec[open + 1..];
        let close = rest
            .find(']')
            .ok_or_else(|| bad("missing `]` after the count".into()))?;
        let count: usize = rest[..close]
            .parse()
            .map_err(|_| bad(format!("count `{}` is not a number", &rest[..close])))?;
        if count == 0 || count.saturating_mul(elem.size()) > MAX_BUFFER_BYTES {
            return Err(bad(format!(
                "count must be in 1..={}",
                MAX_BUFFER_BYTES / elem.size()
            )));
        }
        let after = &rest[close + 1..];
        let init_text = after
            .strip_prefix('=')
            .ok_or_else(|| bad("expected `=INIT` after the count (e.g. `=0`, `=iota`)".into()))?;
        let init = parse_init(init_text).map_err(bad)?;
        if let BufferInit::List(items) = &init {
            if items.len() > count {
                return Err(bad(format!(
                    "the list has {} values but the buffer only {count}",
                    items.len()
                )));
            }
        }
        Ok(ArgSpec::Buffer { elem, count, init })
    }

    /// The initial bytes of a buffer argument. `read_file` supplies `file:` contents.
    pub fn initial_bytes(
        elem: ElemType,
        count: usize,
        init: &BufferInit,
        read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    ) -> Result<Vec<u8>, String> {
        let size = elem.size();
        let mut bytes = Vec::with_capacity(count * size);
        match init {
            BufferInit::Fill(n) => {
                let one = n.encode(elem)?;
                for _ in 0..count {
                    bytes.extend_from_slice(&one);
                }
            }
            BufferInit::Iota => {
                for i in 0..count {
                    bytes.extend(Number::Int(i as i128).encode(elem).unwrap_or(vec![0; size]));
                }
            }
            BufferInit::List(items) => {
                for n in items {
                    bytes.extend(n.encode(elem)?);
                }
                bytes.resize(count * size, 0);
            }
            BufferInit::Rand { seed } => fill_random(&mut bytes, elem, count, *seed, None)?,
            BufferInit::RandRange { seed, lo, hi } => {
                fill_random(&mut bytes, elem, count, *seed, Some((*lo, *hi)))?
            }
            BufferInit::Image { seed, width } => {
                if elem.is_float() {
                    return Err(format!(
                        "image: fills bytes, so it needs an integer buffer, not {elem}"
                    ));
                }
                bytes = super::photo::photographs(*seed, *width, count * size);
            }
            BufferInit::File(path) => {
                let data = read_file(path).map_err(|e| format!("file:{path}: {e}"))?;
                if data.len() != count * size {
                    return Err(format!(
                        "file:{path} holds {} bytes, the buffer needs {} ({count} x {elem})",
                        data.len(),
                        count * size
                    ));
                }
                bytes = data;
            }
        }
        Ok(bytes)
    }
}

/// `FIELD,...`: the fields of a struct argument, each `TYPE=VALUE` or `TYPE[COUNT]=INIT` (a
/// buffer field's `list:` goes on to the next item that is not a bare number).
fn parse_struct_fields(text: &str) -> Result<Vec<StructField>, String> {
    let mut items: Vec<String> = Vec::new();
    for item in text.split(',') {
        match items.last_mut() {
            Some(last) if !item.contains('=') && last.contains("=list:") => {
                last.push(',');
                last.push_str(item);
            }
            _ => items.push(item.to_string()),
        }
    }
    items.iter().map(|item| parse_struct_field(item)).collect()
}

fn parse_struct_field(field: &str) -> Result<StructField, String> {
    let in_field = |why: String| format!("struct field `{field}`: {why}");
    if field.contains('[') {
        return match ArgSpec::parse(field) {
            Ok(ArgSpec::Buffer { elem, count, init }) => {
                Ok(StructField::Buffer { elem, count, init })
            }
            Ok(_) => Err(in_field("expected TYPE[COUNT]=INIT".into())),
            Err(LaunchError::BadArg { why, .. }) => Err(in_field(why)),
            Err(e) => Err(in_field(e.to_string())),
        };
    }
    let (ty, value) = field
        .split_once('=')
        .ok_or_else(|| format!("struct field `{field}` is not TYPE=VALUE (e.g. s32=3)"))?;
    let ty = ElemType::parse(ty.trim())
        .ok_or_else(|| in_field(format!("unknown type (one of: {})", type_list())))?;
    let value = Number::parse(value.trim())
        .ok_or_else(|| in_field(format!("`{value}` is not a number")))?;
    value.encode(ty).map_err(in_field)?;
    Ok(StructField::Value(ty, value))
}

fn type_list() -> String {
    ElemType::ALL.map(|t| t.name()).join(" ")
}

fn parse_init(text: &str) -> Result<BufferInit, String> {
    if text == "iota" {
        return Ok(BufferInit::Iota);
    }
    if let Some(list) = text.strip_prefix("list:") {
        let items = list
            .split(',')
            .map(|s| {
                Number::parse(s.trim()).ok_or_else(|| format!("`{s}` in the list is not a number"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(BufferInit::List(items));
    }
    if let Some(r) = text.strip_prefix("rand:") {
        return parse_rand(r);
    }
    if let Some(spec) = text.strip_prefix("image:") {
        return parse_image(spec);
    }
    if let Some(path) = text.strip_prefix("file:") {
        if path.is_empty() {
            return Err("file: needs a path".into());
        }
        return Ok(BufferInit::File(path.to_string()));
    }
    Number::parse(text).map(BufferInit::Fill).ok_or_else(|| {
        format!(
            "unknown initialiser `{text}` (a number, iota, list:..., rand:SEED[:LO:HI], image:SEED[:WIDTH], file:PATH)"
        )
    })
}

/// `image:SEED[:WIDTH]`, WIDTH from 4 to 4,096 pixels (256 if omitted).
fn parse_image(spec: &str) -> Result<BufferInit, String> {
    let mut parts = spec.split(':');
    let seed = parts
        .next()
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or_else(|| format!("image seed in `image:{spec}` must be an unsigned integer"))?;
    let width = match parts.next() {
        None => super::photo::DEFAULT_WIDTH,
        Some(w) => match w.parse::<usize>() {
            Ok(w) if (4..=4096).contains(&w) => w,
            _ => {
                return Err(format!(
                    "image width `{w}` must be a whole number from 4 to 4096"
                ))
            }
        },
    };
    if parts.next().is_some() {
        return Err("expected image:SEED or image:SEED:WIDTH".into());
    }
    Ok(BufferInit::Image { seed, width })
}

fn parse_rand(r: &str) -> Result<BufferInit, String> {
    let parts: Vec<&str> = r.split(':').collect();
    let seed = match Number::parse(parts[0]) {
        Some(Number::Int(s)) if (0..=u64::MAX as i128).contains(&s) => s as u64,
        _ => {
            return Err(format!(
                "rand seed `{}` must be an unsigned integer",
                parts[0]
            ))
        }
    };
    match parts.len() {
        1 => Ok(BufferInit::Rand { seed }),
        3 => {
            let lo = Number::parse(parts[1])
                .ok_or_else(|| format!("rand LO `{}` is not a number", parts[1]))?;
            let hi = Number::parse(parts[2])
                .ok_or_else(|| format!("rand HI `{}` is not a number", parts[2]))?;
            Ok(BufferInit::RandRange { seed, lo, hi })
        }
        _ => Err("expected rand:SEED or rand:SEED:LO:HI".into()),
    }
}

fn as_f64(n: Number) -> f64 {
    match n {
        Number::Int(v) => v as f64,
        Number::Float(v) => v,
    }
}

fn fill_random(
    bytes: &mut Vec<u8>,
    elem: ElemType,
    count: usize,
    seed: u64,
    range: Option<(Number, Number)>,
) -> Result<(), String> {
    let mut rng = SplitMix64::new(seed);
    if elem.is_float() {
        let (lo, hi) = range.map_or((0.0, 1.0), |(lo, hi)| (as_f64(lo), as_f64(hi)));
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return Err(format!("rand range {lo}..{hi} is empty"));
        }
        for _ in 0..count {
            let v = lo + (hi - lo) * rng.next_f64();
            bytes.extend(Number::Float(v).encode(elem)?);
        }
        return Ok(());
    }
    let (lo, hi) = match range {
        None => elem.int_range(),
        Some((Number::Int(lo), Number::Int(hi))) => (lo, hi),
        Some(_) => return Err(format!("rand LO and HI must be integers for {elem}")),
    };
    let (tlo, thi) = elem.int_range();
    if lo > hi || lo < tlo || hi > thi {
        return Err(format!(
            "rand range {lo}..={hi} must lie within {elem} ({tlo}..={thi})"
        ));
    }
    for _ in 0..count {
        let v = rng.next_in_range(lo, hi);
        bytes.extend(Number::Int(v).encode(elem)?);
    }
    Ok(())
}
