//! Standard base64 (RFC 4648 §4, with `=` padding) encoding of payloads, appended straight
//! into a caller's buffer. Decoding stays with the `base64` crate (see `verify`).

/// The character of a 6-bit value (only the low six bits of `sextet` are used):
/// `A-Z`, `a-z`, `0-9`, `+`, `/`.
const fn char_of(sextet: u32) -> u8 {
    // Below 64 after the mask, so every cast and subtraction is in range.
    let v = (sextet & 0x3f) as u8;
    match v {
        0..=25 => b'A' + v,
        26..=51 => b'a' + (v - 26),
        52..=61 => b'0' + (v - 52),
        62 => b'+',
        _ => b'/',
    }
}

/// The two output characters of every 12-bit group, first character in the low byte, so
/// six input bytes take four lookups and one eight-byte store.
static PAIRS: [u16; 4096] = pairs();

const fn pairs() -> [u16; 4096] {
    let mut table = [0u16; 4096];
    let mut rest: &mut [u16] = &mut table;
    let mut group = 0u32;
    while let Some((slot, tail)) = rest.split_first_mut() {
        *slot = u16::from_le_bytes([char_of(group >> 6), char_of(group)]);
        rest = tail;
        group += 1;
    }
    table
}

/// The two characters of a 12-bit group (only the low twelve bits of `group` are used), first
/// character in the low byte.
fn pair_of(group: u64) -> u64 {
    u64::from(
        PAIRS
            .get((group & 0xfff) as usize)
            .copied()
            .unwrap_or(0x4141),
    )
}

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

/// Writes the padded standard base64 of `input` into `dst`, which must be exactly
/// [`encoded_len`] long (for any other length what it holds afterwards is unspecified, but
/// nothing panics).
pub(crate) fn encode_to_slice(input: &[u8], dst: &mut [u8]) {
    // Six input bytes at a time, read as one eight-byte word while eight remain.
    let mut rest_in = input;
    let mut rest_out = dst;
    while let Some((word, _)) = rest_in.split_first_chunk::<8>() {
        let Some((out, out_tail)) = std::mem::take(&mut rest_out).split_first_chunk_mut::<8>()
        else {
            return;
        };
        let n = u64::from_be_bytes(*word) >> 16;
        let chars =
            pair_of(n >> 36) | pair_of(n >> 24) << 16 | pair_of(n >> 12) << 32 | pair_of(n) << 48;
        *out = chars.to_le_bytes();
        rest_in = rest_in.get(6..).unwrap_or_default();
        rest_out = out_tail;
    }
    // The last one to seven bytes: whole groups of three, then the padded tail.
    let mut blocks = rest_in.chunks_exact(3);
    let mut quads = rest_out.chunks_exact_mut(4);
    for (block, quad) in (&mut blocks).zip(&mut quads) {
        if let [a, b, c] = *block {
            let n = u32::from(a) << 16 | u32::from(b) << 8 | u32::from(c);
            for (slot, shift) in quad.iter_mut().zip([18, 12, 6, 0]) {
                *slot = char_of(n >> shift);
            }
        }
    }
    let n = match *blocks.remainder() {
        [a] => u32::from(a) << 16,
        [a, b] => u32::from(a) << 16 | u32::from(b) << 8,
        _ => return,
    };
    if let Some(quad) = quads.next() {
        let used = blocks.remainder().len() + 1;
        for (i, (slot, shift)) in quad.iter_mut().zip([18, 12, 6, 0]).enumerate() {
            *slot = if i < used { char_of(n >> shift) } else { b'=' };
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;
    use proptest::prelude::*;

    use super::{encode_into, encode_to_slice, encoded_len};

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

    #[test]
    fn every_byte_value_and_both_high_characters() {
        assert_eq!(encode(&[0xfb, 0xff, 0xbf]), "+/+/");
        assert_eq!(encode(&[0xff]), "/w==");
        assert_eq!(encode(&[0xff, 0xff]), "//8=");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(encode(&all), STANDARD.encode(&all));
    }

    #[test]
    fn appends_after_existing_bytes() {
        let mut out = b"prefix:".to_vec();
        encode_into(b"foobar", &mut out);
        assert_eq!(out, b"prefix:Zm9vYmFy");
    }

    #[test]
    fn into_a_slice_of_the_encoded_length() {
        let input = b"any carnal pleasure.";
        let mut dst = vec![0u8; encoded_len(input.len())];
        encode_to_slice(input, &mut dst);
        assert_eq!(dst, b"YW55IGNhcm5hbCBwbGVhc3VyZS4=");
    }

    proptest! {
        #[test]
        fn matches_the_base64_crate(input in proptest::collection::vec(any::<u8>(), 0..600)) {
            prop_assert_eq!(encode(&input), STANDARD.encode(&input));
        }
    }
}
