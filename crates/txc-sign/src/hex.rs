//! Lowercase hex of signatures, and decoding of signatures a server receives: by hand, a
//! digit's arithmetic that the compiler vectorizes for the 64-byte tag — `const-hex` less in
//! every client's build, the signature stage within its noise of `const-hex`'s (BENCHMARKS.md
//! "Pay only for what you use (issue 39)").

/// The lowercase hex digit of `nibble` (below 16).
const fn digit(nibble: u8) -> u8 {
    // `a`..`f` come 39 after `:`, the character following `9`.
    nibble + b'0' + (nibble > 9) as u8 * (b'a' - b'0' - 10)
}

/// The two lowercase hex digits of `byte`.
pub(crate) const fn byte_digits(byte: u8) -> [u8; 2] {
    [digit(byte >> 4), digit(byte & 0x0f)]
}

/// Writes the lowercase hex of `bytes` into `dst`, which must be exactly twice as long (any
/// other length leaves `dst` unspecified; nothing panics).
pub(crate) fn encode_to_slice(bytes: &[u8], dst: &mut [u8]) {
    if let (Ok(tag), Ok(out)) = (
        <&[u8; TAG_LEN]>::try_from(bytes),
        <&mut [u8; 2 * TAG_LEN]>::try_from(&mut *dst),
    ) {
        return encode_tag(tag, out);
    }
    for (pair, &byte) in dst.chunks_exact_mut(2).zip(bytes) {
        if let [hi, lo] = pair {
            [*hi, *lo] = byte_digits(byte);
        }
    }
}

/// The length of an HMAC-SHA512 tag, the one input signing encodes.
const TAG_LEN: usize = 64;

/// A tag's hex: every high digit, every low digit, then interleaved: on arrays of known length
/// both loops vectorize.
fn encode_tag(tag: &[u8; TAG_LEN], out: &mut [u8; 2 * TAG_LEN]) {
    let mut high = [0; TAG_LEN];
    let mut low = [0; TAG_LEN];
    for ((h, l), &byte) in high.iter_mut().zip(&mut low).zip(tag) {
        [*h, *l] = byte_digits(byte);
    }
    for ((pair, h), l) in out.chunks_exact_mut(2).zip(high).zip(low) {
        if let [hi, lo] = pair {
            [*hi, *lo] = [h, l];
        }
    }
}

/// Lowercase hex of `bytes`.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = vec![0; bytes.len() * 2];
    encode_to_slice(bytes, &mut out);
    // Hex digits are ASCII: never empty for a non-empty input.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(feature = "server")]
/// Decodes hex (either case); `None` for odd length, a non-hex character or a `0x` prefix (a
/// signature never has one).
pub(crate) fn decode(text: &[u8]) -> Option<Vec<u8>> {
    /// The value of a hex digit of either case.
    fn value(c: u8) -> Option<u8> {
        char::from(c)
            .to_digit(16)
            .and_then(|v| u8::try_from(v).ok())
    }
    let pairs = text.chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return None;
    }
    pairs
        .map(|pair| match *pair {
            [hi, lo] => Some(value(hi)? << 4 | value(lo)?),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{byte_digits, decode, encode, encode_to_slice};

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
            let mut into = vec![0; bytes.len() * 2];
            encode_to_slice(&bytes, &mut into);
            prop_assert_eq!(into, text.as_bytes());
            // The tag's own path (64 bytes made of these).
            let tag: Vec<u8> = bytes.iter().copied().chain([0xa5]).cycle().take(64).collect();
            let mut into = [0; 128];
            encode_to_slice(&tag, &mut into);
            let expected = reference(&tag);
            prop_assert_eq!(&into[..], expected.as_bytes());
            prop_assert_eq!(decode(text.to_uppercase().as_bytes()), Some(bytes.clone()));
            prop_assert_eq!(decode(text.as_bytes()), Some(bytes));
        }
    }
}
