//! The value of a number written in JSON's notation, read from its text: what
//! [`ExactDecimal`](super::ExactDecimal) compares and hashes by, with no limit on digits and
//! no conversion to a binary type.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// The most significant digits an exponent may have (leading zeros aside): beyond ±10^18 no
/// decimal means anything, and within it the value's exponent is exact in an `i128`.
const MAX_EXPONENT_DIGITS: usize = 18;

/// Whether `text` is a number as JSON writes one: `-?\d+(\.\d+)?([eE][+-]?\d+)?` (leading
/// zeros allowed, as some servers write them in strings), its exponent at most
/// [`MAX_EXPONENT_DIGITS`] significant digits.
#[inline]
pub(crate) fn is_json_number(text: &str) -> bool {
    fn digits(b: &[u8]) -> usize {
        b.iter().take_while(|c| c.is_ascii_digit()).count()
    }
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let int = digits(b.get(i..).unwrap_or_default());
    if int == 0 {
        return false;
    }
    i += int;
    if b.get(i) == Some(&b'.') {
        let frac = digits(b.get(i + 1..).unwrap_or_default());
        if frac == 0 {
            return false;
        }
        i += 1 + frac;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = b.get(i..).unwrap_or_default();
        let len = digits(exp);
        let significant = exp.iter().take(len).skip_while(|&&c| c == b'0').count();
        if len == 0 || significant > MAX_EXPONENT_DIGITS {
            return false;
        }
        i += len;
    }
    i == b.len()
}

/// A number's value in one form for all its spellings: the sign, the significant digits (no
/// leading or trailing zeros; split where the text's decimal point was) and the exponent of
/// the first of them — the value is `±0.d₁d₂d₃… × 10^exp`. Zero has no digits, no sign and
/// exponent 0, so `0`, `-0.00` and `0e7` are one value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Number<'a> {
    negative: bool,
    before_point: &'a [u8],
    after_point: &'a [u8],
    exp: i128,
}

impl<'a> Number<'a> {
    /// The value of `text`, which [`is_json_number`] accepted (anything else reads as some
    /// value without failing).
    pub(crate) fn parse(text: &'a str) -> Self {
        let b = text.as_bytes();
        let (negative, b) = match b.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, b),
        };
        let (mantissa, exponent) = match b.iter().position(|c| matches!(c, b'e' | b'E')) {
            Some(at) => (
                b.get(..at).unwrap_or_default(),
                b.get(at + 1..).unwrap_or_default(),
            ),
            None => (b, &[][..]),
        };
        let (int, frac) = match mantissa.iter().position(|&c| c == b'.') {
            Some(at) => (
                mantissa.get(..at).unwrap_or_default(),
                mantissa.get(at + 1..).unwrap_or_default(),
            ),
            None => (mantissa, &[][..]),
        };
        let e = exponent_value(exponent);
        let int_zeros = leading_zeros(int);
        let (before_point, after_point, exp) = if int_zeros < int.len() {
            let before = int.get(int_zeros..).unwrap_or_default();
            (before, frac, len(before) + e)
        } else {
            let frac_zeros = leading_zeros(frac);
            (
                &[][..],
                frac.get(frac_zeros..).unwrap_or_default(),
                e - len_usize(frac_zeros),
            )
        };
        let after = trim_trailing_zeros(after_point);
        let (before_point, after_point) = if after.is_empty() {
            (trim_trailing_zeros(before_point), after)
        } else {
            (before_point, after)
        };
        if before_point.is_empty() && after_point.is_empty() {
            return Self {
                negative: false,
                before_point,
                after_point,
                exp: 0,
            };
        }
        Self {
            negative,
            before_point,
            after_point,
            exp,
        }
    }

    /// -1, 0 or 1.
    fn signum(&self) -> i8 {
        match (self.is_zero(), self.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }

    fn is_zero(&self) -> bool {
        self.before_point.is_empty() && self.after_point.is_empty()
    }

    /// The significant digits in order, whichever side of the point they were written on.
    fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        self.before_point.iter().chain(self.after_point).copied()
    }
}

impl Ord for Number<'_> {
    /// By value: sign, then the exponent of the first significant digit, then the digits
    /// (a shorter run of digits that is a prefix of a longer one is the smaller magnitude).
    fn cmp(&self, other: &Self) -> Ordering {
        let sign = self.signum().cmp(&other.signum());
        if sign != Ordering::Equal || self.is_zero() {
            return sign;
        }
        let magnitude = self
            .exp
            .cmp(&other.exp)
            .then_with(|| self.digits().cmp(other.digits()));
        if self.negative {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl PartialOrd for Number<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Number<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number<'_> {}

impl Hash for Number<'_> {
    /// What equality compares: sign, exponent and digits (not where the point was).
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.signum().hash(state);
        self.exp.hash(state);
        for digit in self.digits() {
            state.write_u8(digit);
        }
        state.write_usize(self.before_point.len() + self.after_point.len());
    }
}

fn leading_zeros(digits: &[u8]) -> usize {
    digits.iter().take_while(|&&c| c == b'0').count()
}

fn trim_trailing_zeros(digits: &[u8]) -> &[u8] {
    let end = digits
        .iter()
        .rposition(|&c| c != b'0')
        .map_or(0, |at| at + 1);
    digits.get(..end).unwrap_or_default()
}

fn len(digits: &[u8]) -> i128 {
    len_usize(digits.len())
}

fn len_usize(n: usize) -> i128 {
    i128::try_from(n).unwrap_or(i128::MAX)
}

/// The exponent's value; [`is_json_number`] keeps it within 18 significant digits, so it is
/// exact in an `i128`.
fn exponent_value(text: &[u8]) -> i128 {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let magnitude = digits.iter().fold(0i128, |n, d| {
        n.saturating_mul(10).saturating_add(i128::from(d - b'0'))
    });
    if negative { -magnitude } else { magnitude }
}

#[cfg(test)]
mod tests {
    use super::{Number, is_json_number};

    #[test]
    fn json_number_shapes() {
        for good in [
            "0",
            "-0",
            "0.001",
            "40000",
            "007",
            "1e5",
            "1E-8",
            "-2.5e+3",
            "1.0",
            "1e000000000000000000000000000000000000123456789012345678",
        ] {
            assert!(is_json_number(good), "{good}");
        }
        for bad in [
            "",
            "-",
            ".5",
            "1.",
            "1e",
            "+1",
            "1,5",
            " 1",
            "1 ",
            "NaN",
            "0x10",
            "1.2.3",
            "1e1234567890123456789",
        ] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn one_value_for_every_spelling() {
        let same = |a: &str, b: &str| Number::parse(a) == Number::parse(b);
        for (a, b) in [
            ("1", "1.000"),
            ("1", "001"),
            ("10", "1e1"),
            ("0.05", "5e-2"),
            ("0.05", "50E-3"),
            ("0", "-0.00"),
            ("0", "0e99"),
            ("-12.5", "-125e-1"),
            (
                "123456789012345678901234567890123456789",
                "1.23456789012345678901234567890123456789e38",
            ),
        ] {
            assert!(same(a, b), "{a} == {b}");
        }
        for (a, b) in [
            ("10", "9"),
            ("1", "-1"),
            ("0.1", "0.01"),
            ("1e40", "9.99e39"),
            ("-1", "-2"),
        ] {
            assert!(Number::parse(a) > Number::parse(b), "{a} > {b}");
        }
    }
}
