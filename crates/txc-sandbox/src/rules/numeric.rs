//! The exchange's rule for `amount` and the prices: "should be numeric string or number", then
//! "should be greater than 0" (exchange-docs-notes §7.5).
//!
//! The docs do not define "numeric string". The exchange's messages are Laravel's (`The
//! selected ticker is invalid.`, `validation.required` keys, §7.1), and Laravel's `numeric`
//! rule is PHP's `is_numeric`, so that is the definition used here: optional surrounding
//! whitespace, an optional sign, digits with an optional fraction (`1.`, `.5`), an optional
//! exponent (`1e5`). A JSON number is numeric whatever its form. Which of these forms the
//! exchange then executes, and at what value, is not documented: the sandbox takes the
//! number's value (`"1e5"` is 100000).
//!
//! Values are exact decimals (`rust_decimal`, 28 digits); a positive value beyond that is
//! [`Verdict::OutOfRange`].

use rust_decimal::Decimal;
use serde_json::Value;

/// What the rule makes of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Not a numeric string and not a JSON number.
    NotNumeric,
    /// Numeric, and zero or negative.
    NotPositive,
    /// Numeric and positive, but beyond 28 significant digits or decimal places.
    OutOfRange,
    /// Numeric and positive.
    Positive(Decimal),
}

/// Classifies a JSON value; also returns its text as sent (a number's JSON text).
pub(crate) fn classify(value: &Value) -> (Verdict, String) {
    match value {
        Value::String(text) => (classify_text(text), text.clone()),
        Value::Number(number) => {
            // Integers exactly; other numbers as PHP's `json_decode` reads them, a double,
            // here written back in its shortest exact form (`0.1`, `1e20`).
            let text = number.to_string();
            (classify_text(&text), text)
        }
        _ => (Verdict::NotNumeric, String::new()),
    }
}

/// Classifies text by PHP's `is_numeric` and, if numeric, its value.
pub(crate) fn classify_text(text: &str) -> Verdict {
    match parse(text.as_bytes()) {
        None => Verdict::NotNumeric,
        Some(parts) => parts.value(),
    }
}

/// The pieces of a numeric string.
struct Parts<'a> {
    negative: bool,
    integer: &'a [u8],
    fraction: &'a [u8],
    exponent: i64,
}

/// PHP's whitespace for `is_numeric`: space, `\t`, `\n`, `\r`, `\v`, `\f`.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn digits(bytes: &[u8]) -> (&[u8], &[u8]) {
    let n = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    bytes.split_at(n)
}

fn parse(bytes: &[u8]) -> Option<Parts<'_>> {
    let start = bytes.iter().take_while(|b| is_space(**b)).count();
    let end = bytes.len() - bytes.iter().rev().take_while(|b| is_space(**b)).count();
    let mut rest = bytes.get(start..end.max(start))?;
    let negative = match rest.first() {
        Some(b'-') => true,
        Some(b'+') => false,
        _ => {
            return parse_unsigned(rest, false);
        }
    };
    rest = rest.get(1..)?;
    parse_unsigned(rest, negative)
}

fn parse_unsigned(bytes: &[u8], negative: bool) -> Option<Parts<'_>> {
    let (integer, rest) = digits(bytes);
    let (fraction, rest) = match rest.split_first() {
        Some((b'.', after)) => digits(after),
        _ => (&[][..], rest),
    };
    if integer.is_empty() && fraction.is_empty() {
        return None;
    }
    let (exponent, rest) = match rest.split_first() {
        Some((b'e' | b'E', after)) => {
            let (sign, after) = match after.split_first() {
                Some((b'-', a)) => (-1, a),
                Some((b'+', a)) => (1, a),
                _ => (1, after),
            };
            let (exp_digits, rest) = digits(after);
            if exp_digits.is_empty() {
                return None;
            }
            // Saturates far beyond any representable value.
            let magnitude = exp_digits.iter().fold(0i64, |acc, d| {
                acc.saturating_mul(10)
                    .saturating_add(i64::from(d - b'0'))
                    .min(1_000_000)
            });
            (sign * magnitude, rest)
        }
        _ => (0, rest),
    };
    rest.is_empty().then_some(Parts {
        negative,
        integer,
        fraction,
        exponent,
    })
}

impl Parts<'_> {
    fn value(&self) -> Verdict {
        let all: Vec<u8> = self
            .integer
            .iter()
            .chain(self.fraction)
            .map(|d| d - b'0')
            .skip_while(|d| *d == 0)
            .collect();
        let mut significant = all.as_slice();
        if significant.is_empty() {
            return Verdict::NotPositive;
        }
        if self.negative {
            return Verdict::NotPositive;
        }
        // value = significant × 10^exp
        let fraction_len = i64::try_from(self.fraction.len()).unwrap_or(i64::MAX);
        let mut exp = self.exponent.saturating_sub(fraction_len);
        while let Some((0, head)) = significant.split_last() {
            significant = head;
            exp = exp.saturating_add(1);
        }
        // 29 digits at most fit the 96-bit mantissa (7.9·10²⁸).
        if significant.len() > 29 {
            return Verdict::OutOfRange;
        }
        let mantissa = significant
            .iter()
            .fold(0i128, |acc, d| acc * 10 + i128::from(*d));
        let decimal = if exp >= 0 {
            u32::try_from(exp)
                .ok()
                .and_then(|e| 10i128.checked_pow(e))
                .and_then(|scale| mantissa.checked_mul(scale))
                .and_then(|m| Decimal::try_from_i128_with_scale(m, 0).ok())
        } else {
            u32::try_from(exp.unsigned_abs())
                .ok()
                .and_then(|scale| Decimal::try_from_i128_with_scale(mantissa, scale).ok())
        };
        decimal.map_or(Verdict::OutOfRange, Verdict::Positive)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn positive(text: &str) -> String {
        match classify_text(text) {
            Verdict::Positive(d) => d.normalize().to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn php_numeric_strings() {
        for (text, value) in [
            ("0.01", "0.01"),
            ("1e5", "100000"),
            ("1E-3", "0.001"),
            (".5", "0.5"),
            ("5.", "5"),
            ("+2", "2"),
            (" 3", "3"),
            ("3 \n", "3"),
            ("007", "7"),
            ("1.50e1", "15"),
        ] {
            assert_eq!(positive(text), value, "{text}");
        }
        for text in [
            "", " ", ".", "e5", "1e", "1e+", "--1", "0x1A", "1_000", "1,5", "inf", "NaN", "1 2",
            "١", "1.2.3", "+", "+.", "1e5.5",
        ] {
            assert_eq!(classify_text(text), Verdict::NotNumeric, "{text:?}");
        }
        for text in ["0", "-1", "-0.0", "0e10", "-1e400", "000.000"] {
            assert_eq!(classify_text(text), Verdict::NotPositive, "{text}");
        }
        for text in ["1e29", "1e-29", &"9".repeat(30), "1e400", "1e-400"] {
            assert_eq!(classify_text(text), Verdict::OutOfRange, "{text}");
        }
        assert_eq!(positive("1e28"), "10000000000000000000000000000");
        assert_eq!(positive("1e-28"), "0.0000000000000000000000000001");
    }

    #[test]
    fn json_values() {
        let v: Value =
            serde_json::from_str(r#"[0.01, 5, -3, 0, 1e20, true, null, [], {}]"#).unwrap();
        let got: Vec<_> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| classify(x).0)
            .collect();
        assert_eq!(got[0], Verdict::Positive(Decimal::new(1, 2)));
        assert_eq!(got[1], Verdict::Positive(Decimal::from(5)));
        assert_eq!(got[2], Verdict::NotPositive);
        assert_eq!(got[3], Verdict::NotPositive);
        assert_eq!(
            got[4],
            Verdict::Positive(Decimal::from(100_000_000_000_000_000_000u128))
        );
        assert!(got[5..].iter().all(|n| *n == Verdict::NotNumeric));
        assert_eq!(classify(&v[0]).1, "0.01");
    }
}
