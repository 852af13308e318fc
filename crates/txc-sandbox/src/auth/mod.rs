//! Authentication and limits: who may act on the exchange, how often, with which nonce — the
//! sandbox's own, written from the exchange's docs (wire-contract.md "Authentication",
//! exchange-docs-notes §2 and §7.4). It deliberately repeats what `txc_sign::verify` does, not
//! calls it: a signing mistake in txc must not pass its own sandbox.
//!
//! Two parts:
//!
//! - [`check`], stateless and run without the state's lock: the headers, the key, the
//!   signature (HMAC-SHA512, the expensive part) and the body ([`envelope::read`]).
//! - [`Locked::admit`], under the lock: the per-key rate limit, then the nonce rules
//!   ([`nonces::Nonces`]). A request admitted has used its nonce, even if the operation then rejects
//!   it (as on the exchange); a rate-limited request has not.
//!
//! [`Exchange`] holds that lock: the state (`crate::state`) behind it with the nonces, the
//! rate limits and the WebSocket tokens, so that a request's admission and its effect are one
//! critical section; the keys and markets beside it, read without it. Both transports reach
//! the exchange through it.
//!
//! **What it is not for:** the operations' rules and effects (`crate::rules`, `crate::state`),
//! or reading HTTP beyond the signing headers: the routes hand over the headers and the body's
//! bytes, and turn an [`AuthRejection`] into an answer.
//!
//! Every check, its answer and its source are in the crate docs' "Checks and answers" table.

mod envelope;
mod exchange;
mod keys;
mod nonces;
mod rate_limit;
mod rejection;
mod signature;
#[cfg(test)]
mod tests;
mod tokens;

use http::HeaderMap;

pub(crate) use envelope::Envelope;
pub(crate) use exchange::{Exchange, Locked};
use keys::Keys;
pub(crate) use rejection::AuthRejection;

/// `X-TXC-APIKEY`: the public API key.
const APIKEY: &str = "x-txc-apikey";
/// `X-TXC-PAYLOAD`: the base64 of the body.
const PAYLOAD: &str = "x-txc-payload";
/// `X-TXC-SIGNATURE`: the lowercase hex of HMAC-SHA512 over the payload's text.
const SIGNATURE: &str = "x-txc-signature";

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
