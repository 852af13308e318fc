//! Stage 1 of signing: the exact body bytes, written straight from the endpoint's field walk
//! ([`Endpoint::for_each_field`]) without a serializer in between.
//!
//! The bytes are what `serde_json` writes for the same fields (compact, same escaping), which
//! the tests check against it; only the time differs, because the fields are known to be
//! strings, booleans and integers. This module neither signs nor encodes.

use txc_types::endpoint::{Endpoint, WireValue};

use crate::nonce::{Nonce, NonceMode};

/// Appends the body — `request`, `nonce` (an integer) and `nonceWindow` first, then the
/// endpoint's own fields — to `buf` as compact JSON.
pub(crate) fn write_body<E: Endpoint>(
    buf: &mut Vec<u8>,
    endpoint: &E,
    nonce: Nonce,
    mode: NonceMode,
) {
    buf.extend_from_slice(b"{\"request\":");
    push_json_str(buf, E::PATH);
    buf.extend_from_slice(b",\"nonce\":");
    push_u64(buf, nonce.0);
    buf.extend_from_slice(if mode.window() {
        b",\"nonceWindow\":true"
    } else {
        b",\"nonceWindow\":false"
    });
    // Inlined at each field, so each name is a constant there.
    endpoint.for_each_field(
        #[inline(always)]
        |name, value| {
            buf.push(b',');
            push_json_str(buf, name);
            buf.push(b':');
            push_value(buf, value);
        },
    );
    buf.push(b'}');
}

/// Appends one field's value as compact JSON; lists and objects value by value.
#[inline(always)]
fn push_value(buf: &mut Vec<u8>, value: WireValue<'_>) {
    match value {
        WireValue::Str(text) => push_json_str(buf, text),
        WireValue::Bool(true) => buf.extend_from_slice(b"true"),
        WireValue::Bool(false) => buf.extend_from_slice(b"false"),
        WireValue::Int(n) => push_u64(buf, n),
        WireValue::Null => buf.extend_from_slice(b"null"),
        WireValue::List(items) => push_list(buf, items),
        WireValue::Object(fields) => push_object(buf, fields),
    }
}

/// Appends a JSON array (rare: cancel-all's and the kill switch's type lists, bulk cancel).
fn push_list(buf: &mut Vec<u8>, items: &[WireValue<'_>]) {
    buf.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        push_value(buf, *item);
    }
    buf.push(b']');
}

/// Appends a JSON object of named values.
fn push_object(buf: &mut Vec<u8>, fields: &[(&str, WireValue<'_>)]) {
    buf.push(b'{');
    for (i, (name, value)) in fields.iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        push_json_str(buf, name);
        buf.push(b':');
        push_value(buf, *value);
    }
    buf.push(b'}');
}

/// Appends `text` as a JSON string, escaped as `serde_json` escapes it: `"` and `\`, the
/// short forms `\b \t \n \f \r`, other control characters as `\u00xx`; everything else,
/// non-ASCII included, as it is.
///
/// Always inlined so that, for the constant field names, the check folds away at compile
/// time.
#[inline(always)]
pub(crate) fn push_json_str(buf: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    buf.push(b'"');
    if needs_escape(bytes) {
        push_escaped(buf, bytes);
    } else {
        buf.extend_from_slice(bytes);
    }
    buf.push(b'"');
}

/// Whether any byte of `bytes` is `"`, `\` or a control character, eight bytes at a time.
///
/// The last word overlaps the one before it instead of being padded, and a text of four to
/// seven bytes is read as its first and last four: whole-word loads only, with no byte
/// assembly (building the last word byte by byte took 26 ns of a 76 ns body, these loads 17;
/// BENCHMARKS.md, issue 27). A byte read twice is still one of the text's bytes, so the
/// answer is the same.
#[inline(always)]
fn needs_escape(bytes: &[u8]) -> bool {
    let word = |w: &[u8; 8]| escaped_in(u64::from_le_bytes(*w));
    if let Some(last) = bytes.last_chunk::<8>() {
        let mut hits = word(last);
        let mut rest = bytes;
        while let Some((w, tail)) = rest.split_first_chunk::<8>() {
            hits |= word(w);
            rest = tail;
        }
        hits != 0
    } else if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let halves =
            u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
        escaped_in(halves) != 0
    } else {
        bytes.iter().any(|&b| is_escaped(b))
    }
}

/// Nonzero when a byte of `w` is below `0x20`, `"` or `\`.
///
/// Each test is the classic "has a byte less than n" (`n` ≤ 128), after an XOR for the two
/// characters: it never misses such a byte and never fires without one (it may mark extra
/// bytes above a hit, which does not change the answer).
#[inline(always)]
fn escaped_in(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let less_than = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH;
    less_than(w, 0x20)
        | less_than(w ^ (ONES * u64::from(b'"')), 1)
        | less_than(w ^ (ONES * u64::from(b'\\')), 1)
}

fn is_escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The slow path of [`push_json_str`]: copies runs of plain bytes, escapes the rest.
fn push_escaped(buf: &mut Vec<u8>, bytes: &[u8]) {
    let mut copied = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !is_escaped(b) {
            continue;
        }
        buf.extend_from_slice(bytes.get(copied..i).unwrap_or_default());
        copied = i + 1;
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            b'\t' => b't',
            b'\n' => b'n',
            0x0c => b'f',
            b'\r' => b'r',
            _ => {
                let [hi, lo] = crate::hex::byte_digits(b);
                buf.extend_from_slice(&[b'\\', b'u', b'0', b'0', hi, lo]);
                continue;
            }
        };
        buf.extend_from_slice(&[b'\\', short]);
    }
    buf.extend_from_slice(bytes.get(copied..).unwrap_or_default());
}

/// Appends the decimal digits of `n`.
fn push_u64(buf: &mut Vec<u8>, n: u64) {
    buf.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;

    use super::{push_json_str, push_u64};

    fn json_str(text: &str) -> String {
        let mut buf = Vec::new();
        push_json_str(&mut buf, text);
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn escapes_like_serde_json() {
        for text in [
            "",
            "BTC_USDT",
            "a\"b\\c",
            "\u{8}\t\n\u{c}\r",
            "\u{0}\u{1f}\u{7f}",
            "é€😀",
            "\"",
            "end\\",
        ] {
            assert_eq!(
                json_str(text),
                serde_json::to_string(text).unwrap(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn every_escaped_byte_is_found_at_every_offset() {
        // The word-wise check must see a byte that needs escaping wherever it stands, also
        // next to bytes at the edges of the test (0x1f/0x20, 0x7f, 0xff).
        for bad in (0u8..0x20).chain([b'"', b'\\']) {
            for len in 1..=24 {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = bad;
                    assert!(super::needs_escape(&bytes), "{bad:#x} at {at} of {len}");
                }
            }
        }
        for plain in [0x20u8, b'!', b'#', b'[', b']', 0x7f, 0x80, 0xff] {
            for len in 0..=24 {
                assert!(
                    !super::needs_escape(&vec![plain; len]),
                    "{plain:#x} x {len}"
                );
            }
        }
    }

    #[test]
    fn lists_objects_and_null_are_written_like_serde_json() {
        use txc_types::orders::SetKillSwitch;
        use txc_types::orders::{CancelAllOrders, CancelOrder, CancelOrders, OrderClass};

        fn check<E: txc_types::endpoint::Endpoint>(endpoint: &E) {
            let mut buf = Vec::new();
            super::write_body(
                &mut buf,
                endpoint,
                crate::nonce::Nonce(7),
                crate::nonce::NonceMode::Window,
            );
            let mut expected = serde_json::json!({
                "request": E::PATH, "nonce": 7, "nonceWindow": true,
            });
            let fields = serde_json::to_value(endpoint).unwrap();
            for (k, v) in fields.as_object().unwrap() {
                expected[k] = v.clone();
            }
            let written: serde_json::Value = serde_json::from_slice(&buf).unwrap();
            assert_eq!(written, expected);
            // Compact, as the exchange requires.
            assert!(!buf.contains(&b' '), "{}", String::from_utf8_lossy(&buf));
        }
        check(&SetKillSwitch::disarm("BTC_USDT").unwrap());
        check(
            &SetKillSwitch::arm("BTC_USDT", 30)
                .unwrap()
                .types([OrderClass::Spot, OrderClass::Futures])
                .unwrap(),
        );
        check(
            &CancelAllOrders::builder()
                .types([OrderClass::Margin])
                .build()
                .unwrap(),
        );
        check(
            &CancelOrders::new(vec![
                CancelOrder::by_order_id("BTC_USDT", 1).unwrap(),
                CancelOrder::by_client_order_id("BTC_USDT", "a.b").unwrap(),
            ])
            .unwrap(),
        );
    }

    #[test]
    fn integers_like_display() {
        for n in [0, 7, 10, 1_700_000_000_000, u64::MAX] {
            let mut buf = Vec::new();
            push_u64(&mut buf, n);
            assert_eq!(buf, n.to_string().into_bytes());
        }
    }

    proptest! {
        #[test]
        fn any_text_escapes_like_serde_json(text in any::<String>()) {
            prop_assert_eq!(json_str(&text), serde_json::to_string(&text).unwrap());
        }

        #[test]
        fn any_integer_like_display(n in any::<u64>()) {
            let mut buf = Vec::new();
            push_u64(&mut buf, n);
            prop_assert_eq!(buf, n.to_string().into_bytes());
        }
    }
}
