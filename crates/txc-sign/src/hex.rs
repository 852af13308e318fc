//! Lowercase hex encoding and decoding of signatures.

/// The lowercase hex digit of a nibble (only the low four bits of `nibble` are used).
const fn digit(nibble: u8) -> u8 {
    let v = nibble & 0x0f;
    if v < 10 { b'0' + v } else { b'a' + (v - 10) }
}

/// The two lowercase hex digits of every byte value, first digit in the low byte.
static PAIRS: [u16; 256] = pairs();

const fn pairs() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut rest: &mut [u16] = &mut table;
    let mut byte = 0u8;
    while let Some((slot, tail)) = rest.split_first_mut() {
        *slot = u16::from_le_bytes([digit(byte >> 4), digit(byte)]);
        rest = tail;
        byte = byte.wrapping_add(1);
    }
    table
}

/// The digits of `byte` as a little-endian pair.
fn pair(byte: u8) -> u16 {
    // Every byte value has an entry.
    PAIRS.get(usize::from(byte)).copied().unwrap_or(0x3030)
}

/// The two lowercase hex digits of `byte`.
pub(crate) fn byte_digits(byte: u8) -> [u8; 2] {
    pair(byte).to_le_bytes()
}

/// Writes the lowercase hex of `bytes` into `dst`, which must be twice as long (the shorter
/// of the two decides how much is written): four bytes to one eight-byte store at a time.
pub(crate) fn encode_to_slice(bytes: &[u8], dst: &mut [u8]) {
    let mut rest_in = bytes;
    let mut rest_out = dst;
    while let Some(([a, b, c, d], tail_in)) = rest_in.split_first_chunk::<4>() {
        let Some((out, tail_out)) = std::mem::take(&mut rest_out).split_first_chunk_mut::<8>()
        else {
            return;
        };
        let digits = u64::from(pair(*a))
            | u64::from(pair(*b)) << 16
            | u64::from(pair(*c)) << 32
            | u64::from(pair(*d)) << 48;
        *out = digits.to_le_bytes();
        rest_in = tail_in;
        rest_out = tail_out;
    }
    for (&b, out) in rest_in.iter().zip(rest_out.chunks_exact_mut(2)) {
        out.copy_from_slice(&byte_digits(b));
    }
}

/// Lowercase hex of `bytes`.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = vec![0u8; bytes.len() * 2];
    encode_to_slice(bytes, &mut out);
    // Only ASCII digits and letters were written.
    String::from_utf8(out).unwrap_or_default()
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes hex (either case); `None` for odd length or a non-hex character.
pub(crate) fn decode(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    text.chunks_exact(2)
        .map(|pair| match pair {
            [hi, lo] => Some(nibble(*hi)? << 4 | nibble(*lo)?),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{decode, encode};

    /// The obvious reference: two `{:02x}` per byte.
    fn reference(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn known_answers() {
        assert_eq!(encode(&[]), "");
        assert_eq!(encode(&[0x00, 0x0f, 0x10, 0xab, 0xff]), "000f10abff");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(encode(&all), reference(&all));
        // Every length around the four-byte step, into a buffer of exactly twice the length.
        for len in 0..=9 {
            assert_eq!(encode(&all[..len]), reference(&all[..len]), "length {len}");
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
