//! The signature check: `X-TXC-SIGNATURE` must be the lowercase hex of HMAC-SHA512 over the
//! text of `X-TXC-PAYLOAD`, keyed with the account's secret ("hex(HMAC_SHA512(payload,
//! key=api_secret))", exchange-docs-notes §2.1; "the HMAC uses the Base64-encoded string as
//! input, not the raw JSON").

use hmac::Mac as _;

use crate::config::SigningKey;

/// The length of a signature's hex: the 64 bytes of HMAC-SHA512.
const HEX_LEN: usize = 128;

// Deliberately not `txc_sign::verify`: the sandbox must not share the code it tests.
/// Whether `signature` is `key`'s signature of `payload`, compared in constant time.
pub(crate) fn is_valid(key: &SigningKey, payload: &str, signature: &str) -> bool {
    let Some(tag) = lowercase_hex(signature) else {
        return false;
    };
    let mut mac = key.mac();
    mac.update(payload.as_bytes());
    mac.verify_slice(&tag).is_ok()
}

/// The bytes of a 128-digit lowercase hex text; `None` for any other text. Upper-case digits
/// are refused: the docs give only the lowercase form and every official client sends it
/// (Go `%x`, Python `hexdigest()`, PHP `hash_hmac`, Node `digest('hex')`), so a client that
/// sends upper case differs from all of them — the strictest reading, the sandbox's choice.
fn lowercase_hex(text: &str) -> Option<[u8; HEX_LEN / 2]> {
    let lowercase = text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if text.len() != HEX_LEN || !lowercase {
        return None;
    }
    const_hex::decode_to_array(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_128_lowercase_digits() {
        let digits = "0123456789abcdef".repeat(8);
        assert!(lowercase_hex(&digits).is_some());
        for bad in [
            digits.to_uppercase(),
            digits.replacen('a', "A", 1),
            digits[..126].to_owned(),
            format!("{digits}00"),
            format!("0x{}", &digits[2..]),
            format!(" {}", &digits[1..]),
            String::new(),
        ] {
            assert_eq!(lowercase_hex(&bad), None, "{bad}");
        }
    }
}
