//! Standard base64 (RFC 4648 §4, with `=` padding) of payloads, by `base64-simd` (AVX2, SSSE3
//! or NEON, detected at run time, with a portable fallback), written straight into the signer's
//! buffer. The `base64` crate's engine took 105 ns for the 232-byte body of the benchmark order
//! where `base64-simd` takes 25–27 ns: 80 of the 300 ns signing spent above the HMAC floor
//! (BENCHMARKS.md, "Signing and `into_http` against the floor (issue 27)"). The verifier still
//! decodes with the `base64` crate.

/// The length of the padded encoding of `len` bytes.
pub(crate) const fn encoded_len(len: usize) -> usize {
    len.div_ceil(3) * 4
}

/// Appends the padded standard base64 of `input` to `out`.
pub(crate) fn encode_into(input: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + encoded_len(input.len()), 0);
    if let Some(dst) = out.get_mut(start..) {
        encode_to_slice(input, dst);
    }
}

/// Writes the padded standard base64 of `input` into `dst`, which must be at least
/// [`encoded_len`] long (a shorter one is left unspecified; nothing panics).
pub(crate) fn encode_to_slice(input: &[u8], dst: &mut [u8]) {
    // `base64-simd` panics on a short output: hand it exactly the encoding's length, which the
    // callers size to be there.
    if let Some(dst) = dst.get_mut(..encoded_len(input.len())) {
        let _ = base64_simd::STANDARD.encode(input, base64_simd::Out::from_slice(dst));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{encode_into, encoded_len};

    fn encode(input: &[u8]) -> String {
        let mut out = Vec::new();
        encode_into(input, &mut out);
        assert_eq!(out.len(), encoded_len(input.len()));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rfc_4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(input.as_bytes()), expected, "base64 of {input:?}");
        }
    }

    proptest::proptest! {
        /// The same text as the `base64` crate's standard engine, for every length (the SIMD
        /// paths take different branches by length).
        #[test]
        fn matches_the_base64_crate(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            use base64::Engine as _;
            proptest::prop_assert_eq!(
                encode(&input),
                base64::engine::general_purpose::STANDARD.encode(&input)
            );
        }
    }

    #[test]
    fn appends_after_existing_bytes_and_uses_both_high_characters() {
        let mut out = b"prefix:".to_vec();
        encode_into(&[0xfb, 0xff, 0xbf], &mut out);
        assert_eq!(out, b"prefix:+/+/");
    }
}
