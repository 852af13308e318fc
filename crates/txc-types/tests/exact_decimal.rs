//! `ExactDecimal` compares by value: ordering and equality agree with `rust_decimal` for every
//! spelling of values in its range, and beyond it `Ord` stays a total order consistent with
//! `Eq` and `Hash`.

#![cfg(feature = "decimal")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::cmp::Ordering;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use proptest::prelude::*;
use txc_types::values::{Decimal, ExactDecimal};

fn hash(d: &ExactDecimal) -> u64 {
    let mut h = DefaultHasher::new();
    d.hash(&mut h);
    h.finish()
}

/// A decimal anywhere in `rust_decimal`'s range: 96-bit mantissa, scale 0 to 28.
fn decimal() -> impl Strategy<Value = Decimal> {
    let mantissa = prop_oneof![-1_000i128..1_000, -(1i128 << 96) + 1..(1i128 << 96),];
    (mantissa, 0u32..=28).prop_map(|(m, scale)| Decimal::from_i128_with_scale(m, scale))
}

/// How a decimal is written.
#[derive(Debug, Clone, Copy)]
enum Spelling {
    /// As `rust_decimal` prints it (`1.50` keeps its scale).
    Plain,
    /// With `n` more trailing zeros after the point.
    TrailingZeros(usize),
    /// With `n` leading zeros before the first digit.
    LeadingZeros(usize),
    /// The digits with the point moved `shift` places left and an exponent making up for it.
    Scientific {
        shift: usize,
        upper: bool,
        plus: bool,
    },
}

fn spelling() -> impl Strategy<Value = Spelling> {
    prop_oneof![
        Just(Spelling::Plain),
        (1..4usize).prop_map(Spelling::TrailingZeros),
        (1..4usize).prop_map(Spelling::LeadingZeros),
        (0..40usize, any::<bool>(), any::<bool>())
            .prop_map(|(shift, upper, plus)| Spelling::Scientific { shift, upper, plus }),
    ]
}

fn write(d: Decimal, spelling: Spelling) -> String {
    let plain = d.to_string();
    let (sign, unsigned) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest.to_owned()),
        None => ("", plain.clone()),
    };
    match spelling {
        Spelling::Plain => plain,
        Spelling::TrailingZeros(n) if unsigned.contains('.') => format!("{plain}{}", "0".repeat(n)),
        Spelling::TrailingZeros(n) => format!("{plain}.{}", "0".repeat(n)),
        Spelling::LeadingZeros(n) => format!("{sign}{}{unsigned}", "0".repeat(n)),
        Spelling::Scientific { shift, upper, plus } => {
            let digits = d.mantissa().unsigned_abs().to_string();
            let shift = shift.min(digits.len() - 1);
            let (int, frac) = digits.split_at(digits.len() - shift);
            let exp = i64::try_from(shift).unwrap() - i64::from(d.scale());
            let mantissa = if frac.is_empty() {
                int.to_owned()
            } else {
                format!("{int}.{frac}")
            };
            let e = if upper { "E" } else { "e" };
            let plus = if plus && exp >= 0 { "+" } else { "" };
            let sign = if d.mantissa() < 0 { "-" } else { "" };
            format!("{sign}{mantissa}{e}{plus}{exp}")
        }
    }
}

/// Numbers in JSON's notation, most of them beyond `rust_decimal` (long digit runs, large
/// exponents), some from a small alphabet so that spellings of one value meet often.
fn json_number() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{1,45}(\\.[0-9]{1,45})?([eE][+-]?[0-9]{1,4})?",
        "-?0{0,2}[01]{1,2}(\\.[01]{1,2}0{0,2})?([eE][+-]?[01])?",
    ]
}

proptest! {
    #[test]
    fn ordering_and_equality_agree_with_rust_decimal(
        a in decimal(), b in decimal(), sa in spelling(), sb in spelling(), same in any::<bool>(),
    ) {
        let b = if same { a } else { b };
        let (ta, tb) = (write(a, sa), write(b, sb));
        let (x, y) = (ExactDecimal::new(&ta).unwrap(), ExactDecimal::new(&tb).unwrap());
        prop_assert_eq!(x.cmp(&y), a.cmp(&b), "{} vs {}", ta, tb);
        prop_assert_eq!(x == y, a == b, "{} vs {}", ta, tb);
        if x == y {
            prop_assert_eq!(hash(&x), hash(&y), "{} vs {}", ta, tb);
        }
        prop_assert_eq!(x.as_str(), ta.as_str());
        prop_assert_eq!(x.to_decimal().unwrap(), a, "{}", ta);
    }

    #[test]
    fn ord_is_a_total_order_consistent_with_eq_and_hash(
        texts in proptest::collection::vec(json_number(), 3..12),
    ) {
        let mut values: Vec<ExactDecimal> =
            texts.iter().map(|t| ExactDecimal::new(t).unwrap()).collect();
        for x in &values {
            prop_assert_eq!(x.cmp(x), Ordering::Equal);
            for y in &values {
                prop_assert_eq!(x.cmp(y), y.cmp(x).reverse(), "{:?} {:?}", x, y);
                prop_assert_eq!(x == y, x.cmp(y) == Ordering::Equal, "{:?} {:?}", x, y);
                if x == y {
                    prop_assert_eq!(hash(x), hash(y), "{:?} {:?}", x, y);
                }
                for z in &values {
                    if x <= y && y <= z {
                        prop_assert!(x <= z, "{:?} <= {:?} <= {:?}", x, y, z);
                    }
                }
            }
        }
        values.sort();
        prop_assert!(values.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn beyond_rust_decimal_values_still_compare() {
    let d = |t: &str| ExactDecimal::new(t).unwrap();
    assert!(d("1").to_decimal().is_ok());
    let huge = d("123456789012345678901234567890123456789");
    assert!(huge.to_decimal().is_err());
    assert_eq!(huge, d("1.23456789012345678901234567890123456789e38"));
    assert!(huge < d("1.23456789012345678901234567890123456790e38"));
    assert!(d("1e-40") > d("0") && d("1e-40") < d("2e-40"));
    assert!(d("-1e100") < d("-9.9e99"));
    assert_eq!(d("1.00").as_str(), "1.00");
    assert_eq!(d("1.00"), d("1.0"));
    let mut sorted = [d("10"), d("9"), d("-0.5"), d("0"), d("-0")];
    sorted.sort();
    let texts: Vec<&str> = sorted.iter().map(ExactDecimal::as_str).collect();
    assert_eq!(texts, ["-0.5", "0", "-0", "9", "10"]);
}
