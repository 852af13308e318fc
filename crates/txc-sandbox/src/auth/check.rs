//! [`check`]: the stateless part of authentication, run without the state's lock — the signing
//! headers, the key, the signature and the body — and [`Signed`], what it lets through.

use http::HeaderMap;

use super::envelope::{self, Envelope};
use super::keys::Keys;
use super::rejection::AuthRejection;
use super::signature;

/// `X-TXC-APIKEY`: the public API key.
pub(super) const APIKEY: &str = "x-txc-apikey";
/// `X-TXC-PAYLOAD`: the base64 of the body.
pub(super) const PAYLOAD: &str = "x-txc-payload";
/// `X-TXC-SIGNATURE`: the lowercase hex of HMAC-SHA512 over the payload's text.
pub(super) const SIGNATURE: &str = "x-txc-signature";

/// A request whose headers, signature and body passed [`check`]; its nonce is not used yet.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Signed {
    /// The API key that signed it.
    pub(crate) api_key: String,
    /// Whether the key is a B2B partner's.
    pub(crate) partner: bool,
    /// The nonce, its rule and the body's fields.
    pub(crate) envelope: Envelope,
}

/// Checks a request to `path`, in this order: `X-TXC-APIKEY` present (else `Unauthorized
/// request.`), `X-TXC-PAYLOAD` present (`Payload not provided.`), the key known (`Unauthorized
/// request.`) and enabled (code 2), the signature (`Unauthorized request.`), then the body
/// ([`envelope::read`]). A signing header sent twice is `Unauthorized request.`.
pub(crate) fn check(
    keys: &Keys,
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Signed, AuthRejection> {
    let api_key = header(headers, APIKEY)?;
    let payload = header(headers, PAYLOAD)?;
    let signature = header(headers, SIGNATURE)?;
    if api_key.is_empty() {
        return Err(AuthRejection::UNAUTHORIZED);
    }
    if payload.is_empty() {
        return Err(AuthRejection::PAYLOAD_NOT_PROVIDED);
    }
    let key = keys.get(api_key).ok_or(AuthRejection::UNAUTHORIZED)?;
    if !key.enabled {
        return Err(AuthRejection::KEY_DISABLED);
    }
    if !signature::is_valid(&key.signing, payload, signature) {
        return Err(AuthRejection::UNAUTHORIZED);
    }
    let envelope = envelope::read(path, payload, body)?;
    Ok(Signed {
        api_key: api_key.to_owned(),
        partner: key.partner,
        envelope,
    })
}

/// A signing header's text: empty when absent or not visible ASCII; `Unauthorized request.`
/// when sent more than once (official clients send each once; which one would count is a
/// guess — the sandbox's choice).
fn header<'a>(headers: &'a HeaderMap, name: &str) -> Result<&'a str, AuthRejection> {
    let mut values = headers.get_all(name).iter();
    let first = values.next();
    if values.next().is_some() {
        return Err(AuthRejection::UNAUTHORIZED);
    }
    Ok(first.and_then(|v| v.to_str().ok()).unwrap_or_default())
}
