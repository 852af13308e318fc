//! Standard base64 (RFC 4648 §4, with `=` padding) of payloads, by the `base64` crate's `Simd`
//! engine (AVX2 or NEON, detected once at run time; the scalar engine elsewhere), written
//! straight into the signer's buffer. `base64-simd` was about 13 ns faster on the 232-byte
//! body of the benchmark order, and three crates more in every client's build; this `base64`
//! is the one ureq and reqwest compile anyway (BENCHMARKS.md "Pay only for what you use (issue
//! 39)"). The verifier decodes with the same crate.

use ::base64::Engine as _;

/// The engine: SIMD where the CPU has it, detected once.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static ENGINE: std::sync::LazyLock<base64::engine::Simd> = std::sync::LazyLock::new(|| {
    base64::engine::Simd::standard(base64::engine::general_purpose::PAD)
});

/// The engine: the scalar one on targets without a SIMD engine.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
static ENGINE: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

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
    // Only fails on a short output, which the callers size to rule out.
    let _ = ENGINE.encode_slice(input, dst);
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
        /// The same text as the `base64` crate's scalar standard engine, for every length (the
        /// SIMD path takes different branches by length).
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
