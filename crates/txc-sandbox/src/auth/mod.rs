//! The sandbox's own authentication of a private request, written from the exchange's docs
//! (wire-contract.md "Authentication", exchange-docs-notes §2 and §7.4) — not with
//! `txc-sign`'s verifier, so that a signing mistake in txc cannot pass its own sandbox.
//!
//! Two parts:
//!
//! - [`check`], stateless and run without the state's lock: the headers, the key, the
//!   signature (HMAC-SHA512, the expensive part) and the body ([`envelope::read`]).
//! - [`admit`], under the lock: the per-key rate limit, then the nonce rules ([`Nonces`]).
//!   A request admitted has used its nonce, even if the operation then rejects it (as on the
//!   exchange); a rate-limited request has not.
//!
//! Every check, its answer and its source are in the crate docs' "Checks and answers" table.

mod envelope;
mod keys;
mod nonces;
mod rejection;
mod signature;
#[cfg(test)]
mod tests;

use std::time::Instant;

use http::HeaderMap;

pub(crate) use envelope::Envelope;
pub(crate) use keys::{Key, Keys};
pub(crate) use nonces::Nonces;
pub(crate) use rejection::AuthRejection;

use crate::op::Op;
use crate::state::State;

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

/// The per-key rate limit of `op`, then the nonce rules at the sandbox's time; counts the
/// rejections.
pub(crate) fn admit(state: &mut State, op: Op, signed: &Signed) -> Result<(), AuthRejection> {
    let limit = state.limit(op);
    if !state
        .limits
        .admit(&signed.api_key, op.counted_as(), limit, Instant::now())
    {
        state.stats.rate_limited += 1;
        return Err(AuthRejection::TOO_MANY_REQUESTS);
    }
    let now_ms = state.clock.now_ms();
    let envelope = &signed.envelope;
    if let Err(rejection) =
        state
            .nonces
            .admit(&signed.api_key, envelope.nonce, envelope.window, now_ms)
    {
        state.stats.nonce_rejections += 1;
        return Err(rejection);
    }
    Ok(())
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
