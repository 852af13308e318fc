//! Lowercase hex of signatures by `const-hex`, and decoding of signatures a server receives.
//! Measured against a hand-written table encoder in BENCHMARKS.md ("Base64 and hex: crates or
//! hand-written").

/// The two lowercase hex digits of `byte`.
pub(crate) fn byte_digits(byte: u8) -> [u8; 2] {
    let mut out = [b'0'; 2];
    // Two output bytes for one input byte: cannot fail.
    let _ = const_hex::encode_to_slice([byte], &mut out);
    out
}

/// Writes the lowercase hex of `bytes` into `dst`, which must be exactly twice as long (any
/// other length leaves `dst` unspecified; nothing panics).
pub(crate) fn encode_to_slice(bytes: &[u8], dst: &mut [u8]) {
    // Only fails on a length mismatch, which the callers size to rule out.
    let _ = const_hex::encode_to_slice(bytes, dst);
}

/// Lowercase hex of `bytes`.
pub(crate) fn encode(bytes: &[u8]) -> String {
    const_hex::encode(bytes)
}

#[cfg(feature = "server")]
/// Decodes hex (either case); `None` for odd length, a non-hex character or a `0x` prefix
/// (which `const-hex` would otherwise skip: a signature never has one).
pub(crate) fn decode(text: &[u8]) -> Option<Vec<u8>> {
    if matches!(text, [b'0', b'x' | b'X', ..]) {
        return None;
    }
    const_hex::decode(text).ok()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{byte_digits, decode, encode};

    /// The obvious reference: two `{:02x}` per byte.
    fn reference(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn known_answers() {
        assert_eq!(encode(&[]), "");
        assert_eq!(encode(&[0x00, 0x0f, 0x10, 0xab, 0xff]), "000f10abff");
        for b in 0..=255u8 {
            assert_eq!(byte_digits(b), reference(&[b]).as_bytes(), "{b}");
        }
    }

    #[test]
    fn rejects_what_is_not_a_signature() {
        assert_eq!(decode(b"0A"), Some(vec![0x0a]));
        for bad in [&b"abc"[..], b"0x0a", b"0X0a", b"zz", b"0a "] {
            assert_eq!(decode(bad), None, "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn matches_the_reference_and_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let text = encode(&bytes);
            prop_assert_eq!(&text, &reference(&bytes));
            prop_assert_eq!(decode(text.as_bytes()), Some(bytes));
        }
    }
}
