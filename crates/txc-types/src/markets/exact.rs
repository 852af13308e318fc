//! [`Dec`]: exact arithmetic on non-negative decimals, for the market rules — products of an
//! amount and a price, quotients rounded to a number of places, comparisons — with no limit
//! on digits but [`MAX_PLACES`] and no binary type (the crate's `decimal` feature is optional,
//! and `rust_decimal` rounds beyond 28 digits, which could flip a comparison at a bound).
//!
//! Digits are kept in base 10, least significant first: the values are a few dozen digits
//! long, and each operation is the schoolbook one.

use std::cmp::Ordering;
use std::fmt;

/// The most decimal places, and the most digits before the point, a value may have: beyond
/// them no market figure means anything, and the bound keeps a malformed one (`1e-99999`)
/// from allocating without end.
pub(crate) const MAX_PLACES: u32 = 64;

/// A non-negative decimal: `digits` (base 10, least significant first, no zeros at the most
/// significant end; empty for zero) divided by `10^scale`.
#[derive(Debug, Clone)]
pub(crate) struct Dec {
    digits: Vec<u8>,
    scale: u32,
}

impl Dec {
    /// Reads a non-negative number in JSON's notation (`0.001`, `40000`, `1e-8`); `None` for a
    /// negative one, anything else, or one beyond [`MAX_PLACES`].
    pub(crate) fn parse(text: &str) -> Option<Self> {
        if text.starts_with('-') && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            return None;
        }
        let text = text.strip_prefix('-').unwrap_or(text);
        let (mantissa, exponent) = match text.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.strip_prefix('+').unwrap_or(e).parse::<i64>().ok()?),
            None => (text, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut digits: Vec<u8> = int
            .bytes()
            .chain(frac.bytes())
            .rev()
            .map(|b| b - b'0')
            .collect();
        trim(&mut digits);
        let scale = i64::try_from(frac.len()).ok()?.checked_sub(exponent)?;
        let scale = if scale < 0 {
            // Checked before the zeros are written: `1e4000000000` allocates nothing.
            let zeros = u32::try_from(-scale).ok().filter(|&z| z <= MAX_PLACES)?;
            shift(&mut digits, zeros);
            0
        } else {
            u32::try_from(scale).ok()?
        };
        let value = Self { digits, scale };
        (value.scale <= 2 * MAX_PLACES && value.int_len() <= MAX_PLACES).then(|| value.normalized())
    }

    /// Whether the value is zero.
    pub(crate) fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The product.
    pub(crate) fn mul(&self, other: &Self) -> Self {
        Self {
            digits: mul(&self.digits, &other.digits),
            scale: self.scale + other.scale,
        }
        .normalized()
    }

    /// The sum.
    pub(crate) fn add(&self, other: &Self) -> Self {
        let scale = self.scale.max(other.scale);
        Self {
            digits: add(&self.at_scale(scale), &other.at_scale(scale)),
            scale,
        }
        .normalized()
    }

    /// The difference, `None` when `other` is the larger (the values are non-negative).
    pub(crate) fn checked_sub(&self, other: &Self) -> Option<Self> {
        let scale = self.scale.max(other.scale);
        let (a, b) = (self.at_scale(scale), other.at_scale(scale));
        (compare(&a, &b) != Ordering::Less).then(|| {
            Self {
                digits: sub(&a, &b),
                scale,
            }
            .normalized()
        })
    }

    /// The value rounded to `places` decimal places: down (toward zero) or `up`.
    pub(crate) fn round(&self, places: u32, up: bool) -> Self {
        if self.scale <= places {
            return self.clone();
        }
        let dropped = (self.scale - places) as usize;
        let (low, high) = self.digits.split_at(dropped.min(self.digits.len()));
        let mut digits = high.to_vec();
        if up && low.iter().any(|&d| d != 0) {
            digits = add(&digits, &[1]);
        }
        Self {
            digits,
            scale: places,
        }
        .normalized()
    }

    /// `self / divisor` rounded to `places` decimal places, down or `up`; `None` when the
    /// divisor is zero.
    pub(crate) fn div(&self, divisor: &Self, places: u32, up: bool) -> Option<Self> {
        if divisor.is_zero() {
            return None;
        }
        // self / divisor = (n / 10^sn) / (d / 10^sd); scaled by 10^places that is
        // n · 10^(places + sd) / (d · 10^sn).
        let mut numerator = self.digits.clone();
        shift(&mut numerator, places + divisor.scale);
        let mut denominator = divisor.digits.clone();
        shift(&mut denominator, self.scale);
        let (mut quotient, exact) = divmod(&numerator, &denominator);
        if up && !exact {
            quotient = add(&quotient, &[1]);
        }
        Some(
            Self {
                digits: quotient,
                scale: places,
            }
            .normalized(),
        )
    }

    /// The digits at `scale` (at least the value's own).
    fn at_scale(&self, scale: u32) -> Vec<u8> {
        let mut digits = self.digits.clone();
        shift(&mut digits, scale.saturating_sub(self.scale));
        digits
    }

    /// How many digits are before the point.
    fn int_len(&self) -> u32 {
        u32::try_from(self.digits.len())
            .unwrap_or(u32::MAX)
            .saturating_sub(self.scale)
    }

    /// The same value without zeros after its last significant decimal.
    fn normalized(mut self) -> Self {
        let zeros = self.digits.iter().take_while(|&&d| d == 0).count();
        let drop = zeros.min(self.scale as usize);
        self.digits.drain(..drop);
        self.scale -= drop as u32;
        if self.digits.is_empty() {
            self.scale = 0;
        }
        self
    }
}

impl PartialEq for Dec {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Dec {}

impl PartialOrd for Dec {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dec {
    fn cmp(&self, other: &Self) -> Ordering {
        let scale = self.scale.max(other.scale);
        compare(&self.at_scale(scale), &other.at_scale(scale))
    }
}

impl fmt::Display for Dec {
    /// Plain notation, no trailing zeros: `0.05`, `40000`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = self.scale as usize;
        let mut text: Vec<u8> = self.digits.iter().rev().map(|d| d + b'0').collect();
        if text.len() <= scale {
            let mut padded = vec![b'0'; scale + 1 - text.len()];
            padded.append(&mut text);
            text = padded;
        }
        let (int, frac) = text.split_at(text.len() - scale);
        f.write_str(&String::from_utf8_lossy(int))?;
        if !frac.is_empty() {
            f.write_str(".")?;
            f.write_str(&String::from_utf8_lossy(frac))?;
        }
        Ok(())
    }
}

/// How many decimal places `text` (a plain decimal) is written with: `0.010` has three.
pub(crate) fn places(text: &str) -> u32 {
    text.split_once('.')
        .map_or(0, |(_, frac)| u32::try_from(frac.len()).unwrap_or(u32::MAX))
}

/// Drops zeros at the most significant end.
fn trim(digits: &mut Vec<u8>) {
    while digits.last() == Some(&0) {
        digits.pop();
    }
}

/// Multiplies by `10^k`.
fn shift(digits: &mut Vec<u8>, k: u32) {
    if !digits.is_empty() {
        digits.splice(0..0, std::iter::repeat_n(0, k as usize));
    }
}

fn compare(a: &[u8], b: &[u8]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn add(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u8;
    for i in 0..a.len().max(b.len()) {
        let sum = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        out.push(sum % 10);
        carry = sum / 10;
    }
    if carry > 0 {
        out.push(carry);
    }
    out
}

/// `a - b`, for `a ≥ b`.
fn sub(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i8;
    for (i, &digit) in a.iter().enumerate() {
        let mut d = digit as i8 - borrow - b.get(i).copied().unwrap_or(0) as i8;
        borrow = i8::from(d < 0);
        if d < 0 {
            d += 10;
        }
        out.push(d as u8);
    }
    trim(&mut out);
    out
}

fn mul(a: &[u8], b: &[u8]) -> Vec<u8> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut sums = vec![0u32; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            if let Some(slot) = sums.get_mut(i + j) {
                *slot += u32::from(x) * u32::from(y);
            }
        }
    }
    let mut out = Vec::with_capacity(sums.len());
    let mut carry = 0u32;
    for sum in sums {
        let total = sum + carry;
        out.push((total % 10) as u8);
        carry = total / 10;
    }
    while carry > 0 {
        out.push((carry % 10) as u8);
        carry /= 10;
    }
    trim(&mut out);
    out
}

/// The quotient of `n / d` (`d` not zero), and whether the division was exact: long division,
/// a digit at a time.
fn divmod(n: &[u8], d: &[u8]) -> (Vec<u8>, bool) {
    let mut quotient = Vec::with_capacity(n.len());
    let mut rest: Vec<u8> = Vec::new();
    for &digit in n.iter().rev() {
        rest.insert(0, digit);
        trim(&mut rest);
        let mut count = 0u8;
        while compare(&rest, d) != Ordering::Less {
            rest = sub(&rest, d);
            count += 1;
        }
        quotient.push(count);
    }
    quotient.reverse();
    trim(&mut quotient);
    (quotient, rest.is_empty())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{Dec, places};

    fn dec(text: &str) -> Dec {
        Dec::parse(text).unwrap()
    }

    #[test]
    fn reads_and_writes_every_spelling() {
        for (text, written) in [
            ("0", "0"),
            ("0.010", "0.01"),
            ("40000", "40000"),
            ("1e-8", "0.00000001"),
            ("2.5E+3", "2500"),
            ("-0", "0"),
            ("007.50", "7.5"),
        ] {
            assert_eq!(dec(text).to_string(), written, "{text}");
        }
        for bad in [
            "-1",
            "",
            "1.2.3",
            "x",
            "1e-999",
            "1e999",
            ".5",
            "1e4000000000",
        ] {
            assert!(Dec::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(dec("0.001").mul(&dec("40000")), dec("40"));
        assert_eq!(
            dec("123456789012345678901234567890.5")
                .mul(&dec("2"))
                .to_string(),
            "246913578024691357802469135781"
        );
        assert_eq!(dec("0.0015").round(3, false).to_string(), "0.001");
        assert_eq!(dec("0.0015").round(3, true).to_string(), "0.002");
        assert_eq!(dec("0.0010").round(3, true).to_string(), "0.001");
        assert_eq!(dec("0.999").round(0, true).to_string(), "1");
        assert_eq!(
            dec("5").div(&dec("40000"), 6, true).unwrap().to_string(),
            "0.000125"
        );
        assert_eq!(
            dec("5").div(&dec("3"), 2, false).unwrap().to_string(),
            "1.66"
        );
        assert_eq!(
            dec("5").div(&dec("3"), 2, true).unwrap().to_string(),
            "1.67"
        );
        assert_eq!(
            dec("0.3").div(&dec("0.1"), 0, true).unwrap().to_string(),
            "3"
        );
        assert!(dec("1").div(&dec("0"), 2, true).is_none());
        assert!(dec("10") > dec("9.99") && dec("0.1") == dec("0.100"));
        assert_eq!((places("0.010"), places("40000")), (3, 0));
        assert_eq!(dec("999.5").add(&dec("0.5")).to_string(), "1000");
        assert_eq!(dec("0").add(&dec("0.001")).to_string(), "0.001");
        assert_eq!(
            dec("1000").checked_sub(&dec("0.001")).unwrap().to_string(),
            "999.999"
        );
        assert_eq!(
            dec("1.5").checked_sub(&dec("1.50")).unwrap().to_string(),
            "0"
        );
        assert!(dec("1").checked_sub(&dec("1.000001")).is_none());
    }
}
