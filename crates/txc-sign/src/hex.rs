//! Lowercase hex encoding and decoding of signatures.

const DIGITS: [u8; 16] = *b"0123456789abcdef";

/// Lowercase hex of `bytes`.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = vec![0u8; bytes.len() * 2];
    for (b, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        // Both nibbles are below 16, so the lookups always succeed.
        let hi = DIGITS.get(usize::from(b >> 4)).copied().unwrap_or(b'0');
        let lo = DIGITS.get(usize::from(b & 0x0f)).copied().unwrap_or(b'0');
        pair.copy_from_slice(&[hi, lo]);
    }
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
