//! Decimal helpers: parsing plain decimal text and printing the exchange's decimal strings.
//!
//! Money math uses `rust_decimal` with checked operations only, so no input can panic it.

use std::str::FromStr as _;

use rust_decimal::Decimal;

/// Parses plain decimal text (`65000`, `0.001`); no sign, exponent or separators.
pub(crate) fn parse(text: &str) -> Option<Decimal> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().filter(|b| *b == b'.').count() <= 1
        && !text.starts_with('.')
        && !text.ends_with('.');
    if !plain {
        return None;
    }
    Decimal::from_str_exact(text)
        .ok()
        .or_else(|| Decimal::from_str(text).ok())
        .filter(|d| !d.is_sign_negative())
}

/// Parses plain decimal text with an optional leading `-` (`-0.0001`): a signed rate.
pub(crate) fn parse_signed(text: &str) -> Option<Decimal> {
    match text.strip_prefix('-') {
        Some(magnitude) => parse(magnitude).map(|d| -d),
        None => parse(text),
    }
}

/// Parses a strictly positive plain decimal.
pub(crate) fn parse_positive(text: &str) -> Option<Decimal> {
    parse(text).filter(|d| !d.is_zero())
}

/// The exchange's text form: no trailing zeros, no exponent, `0` for zero.
pub(crate) fn text(value: Decimal) -> String {
    value.normalize().to_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_plain_only() {
        assert_eq!(parse("0.001").unwrap().to_string(), "0.001");
        assert_eq!(parse("65000").unwrap().to_string(), "65000");
        for bad in ["", "-1", "+1", "1e5", "1.", ".5", "1.2.3", "1_000", " 1"] {
            assert!(parse(bad).is_none(), "{bad}");
        }
        assert!(parse_positive("0").is_none());
        assert!(parse("0").is_some());
        assert_eq!(parse_signed("-0.0001").unwrap().to_string(), "-0.0001");
        assert_eq!(parse_signed("0.5").unwrap().to_string(), "0.5");
        for bad in ["--1", "-", "+1", "-1e5"] {
            assert!(parse_signed(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn prints_normalized() {
        assert_eq!(text(Decimal::new(65_000_000, 3)), "65000");
        assert_eq!(text(Decimal::new(-0, 2)), "0");
        assert_eq!(text(Decimal::new(1, 3)), "0.001");
    }
}
