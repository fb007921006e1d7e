//! Literal constants: reading them from token text (PTX ISA "Constants") and turning them into the
//! typed bit pattern an instruction operand of a given type holds.
//!
//! Integer literals are decimal, `0x` hex, `0b` binary or leading-zero octal, with an optional
//! `U` suffix; float literals are `0fXXXXXXXX` (f32 bits), `0dXXXXXXXXXXXXXXXX` (f64 bits) or
//! decimal (`1.5`, read as f64). An immediate's value in the IR is its bit pattern, zero-extended
//! to 64 bits, for the operand's type ([`immediate_bits`]).

use super::ast::Literal;
use super::types::Type;

/// Read an integer literal's text (without sign). `Err` says what is wrong.
pub fn parse_int(text: &str) -> Result<u64, String> {
    let body = text
        .strip_suffix('U')
        .or_else(|| text.strip_suffix('u'))
        .unwrap_or(text);
    let (digits, radix) = if let Some(h) = body.strip_prefix("0x").or(body.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = body.strip_prefix("0b").or(body.strip_prefix("0B")) {
        (b, 2)
    } else if let Some(o) = body.strip_prefix('0').filter(|o| !o.is_empty()) {
        (o, 8)
    } else {
        (body, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("bad integer literal `{text}`"));
    }
    u64::from_str_radix(digits, radix)
        .map_err(|_| format!("integer literal `{text}` does not fit in 64 bits"))
}

/// Read a floating-point literal's text (without sign).
pub fn parse_float(text: &str) -> Result<Literal, String> {
    let bad = || format!("bad floating-point literal `{text}`");
    let hex = |digits: &str, n: usize| {
        if digits.len() == n && digits.chars().all(|c| c.is_ascii_hexdigit()) {
            u64::from_str_radix(digits, 16).map_err(|_| bad())
        } else {
            Err(bad())
        }
    };
    if let Some(d) = text.strip_prefix("0f").or(text.strip_prefix("0F")) {
        return hex(d, 8).map(|bits| Literal::F32Bits(bits as u32));
    }
    if let Some(d) = text.strip_prefix("0d").or(text.strip_prefix("0D")) {
        return hex(d, 16).map(Literal::F64Bits);
    }
    if text.contains('.') {
        return text.parse::<f64>().map(Literal::Float).map_err(|_| bad());
    }
    Err(bad())
}

/// Negate a literal (the parser sees `-` as its own token).
pub fn negate(lit: Literal) -> Literal {
    match lit {
        Literal::Int(v) => Literal::Int(-v),
        Literal::F32Bits(b) => Literal::F32Bits(b ^ 0x8000_0000),
        Literal::F64Bits(b) => Literal::F64Bits(b ^ (1 << 63)),
        Literal::Float(f) => Literal::Float(-f),
    }
}

/// The bit pattern of `lit` as an operand of type `ty`, zero-extended to 64 bits.
///
/// Rules (PTX ISA "Constants" and "Instruction Operands"): an integer literal must fit the type's width as a
/// signed or an unsigned value and is truncated to it; in a float operand it is converted to
/// that float type. A float literal in a float operand is converted (rounded to nearest) to
/// the operand's precision; in a `.bN` operand of matching width (`0f` for 32 bits, `0d` for
/// 64) it is the raw bits. A float literal in a `.u`/`.s` operand is an error. In a `.pred`
/// operand only 0 and 1 are allowed.
pub fn immediate_bits(lit: Literal, ty: Type) -> Result<u64, String> {
    match lit {
        Literal::Int(v) => int_bits(v, ty),
        _ if ty.is_float() => Ok(float_bits(float_value(lit), ty)),
        Literal::F32Bits(b) if ty.is_bits() && ty.bits() == 32 => Ok(u64::from(b)),
        Literal::F64Bits(b) if ty.is_bits() && ty.bits() == 64 => Ok(b),
        _ => Err(format!(
            "a floating-point literal cannot be a `{ty}` operand"
        )),
    }
}

fn int_bits(v: i128, ty: Type) -> Result<u64, String> {
    if ty.is_pred() {
        return match v {
            0 | 1 => Ok(v as u64),
            _ => Err(format!("predicate literal must be 0 or 1, not {v}")),
        };
    }
    if ty.is_float() {
        return Ok(float_bits(v as f64, ty));
    }
    let bits = ty.bits();
    let min = -(1i128 << (bits - 1));
    let max = (1i128 << bits) - 1;
    if v < min || v > max {
        return Err(format!("literal {v} does not fit in `{ty}`"));
    }
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    Ok((v as u64) & mask)
}

fn float_value(lit: Literal) -> f64 {
    match lit {
        Literal::Int(v) => v as f64,
        Literal::F32Bits(b) => f64::from(f32::from_bits(b)),
        Literal::F64Bits(b) => f64::from_bits(b),
        Literal::Float(f) => f,
    }
}

fn float_bits(value: f64, ty: Type) -> u64 {
    if ty == Type::F32 {
        u64::from((value as f32).to_bits())
    } else {
        value.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int("42"), Ok(42));
        assert_eq!(parse_int("0x1fU"), Ok(31));
        assert_eq!(parse_int("017"), Ok(15));
        assert_eq!(parse_int("0b101"), Ok(5));
        assert_eq!(parse_int("0"), Ok(0));
        assert!(parse_int("09").is_err());
        assert!(parse_int("0x").is_err());
        assert!(parse_int("99999999999999999999999").is_err());
        assert!(parse_int("12abc").is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("0f3F800000"), Ok(Literal::F32Bits(0x3F80_0000)));
        assert_eq!(
            parse_float("0d3ff0000000000000"),
            Ok(Literal::F64Bits(0x3ff0_0000_0000_0000))
        );
        assert_eq!(parse_float("1.5"), Ok(Literal::Float(1.5)));
        assert!(parse_float("0f3F80").is_err());
        assert!(parse_float("0fZZZZZZZZ").is_err());
    }

    #[test]
    fn typed_bits() {
        assert_eq!(immediate_bits(Literal::Int(-1), Type::U32), Ok(0xFFFF_FFFF));
        assert_eq!(
            immediate_bits(Literal::Int(-4), Type::S64),
            Ok(-4i64 as u64)
        );
        assert!(immediate_bits(Literal::Int(1 << 32), Type::U32).is_err());
        assert!(immediate_bits(Literal::Int(-129), Type::S8).is_err());
        assert_eq!(
            immediate_bits(Literal::F32Bits(0x3F80_0000), Type::F64),
            Ok(1.0f64.to_bits())
        );
        assert_eq!(
            immediate_bits(Literal::F32Bits(0x3F80_0000), Type::B32),
            Ok(0x3F80_0000)
        );
        assert!(immediate_bits(Literal::F32Bits(0x3F80_0000), Type::U32).is_err());
        assert_eq!(
            immediate_bits(Literal::Int(2), Type::F32),
            Ok(u64::from(2.0f32.to_bits()))
        );
        assert_eq!(immediate_bits(Literal::Int(1), Type::Pred), Ok(1));
        assert_eq!(
            immediate_bits(negate(Literal::Float(0.5)), Type::F32),
            Ok(u64::from((-0.5f32).to_bits()))
        );
    }
}
