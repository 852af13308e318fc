//! Authentication of a private request: signature and body checks by [`txc_sign::verify`]
//! (plus: the body must be compact JSON), then the per-key rate limit, then the nonce rules of
//! [`txc_sign::NonceGuard`].
//!
//! A request that passed authentication has used its nonce, even if the operation then
//! rejects it (as on the exchange); a rate-limited request has not.

use std::time::Instant;

use http::HeaderMap;
use txc_sign::{AuthRejection, VerifiedRequest, verify};

use crate::answer::Answer;
use crate::op::Op;
use crate::state::State;

/// Authenticates a request to `op`, or answers with the exchange's rejection.
pub(crate) fn authenticate(
    state: &mut State,
    op: Op,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<VerifiedRequest, Answer> {
    let verified = verify(op.path(), headers, body, |key| {
        state.accounts.key_status(key)
    })
    .map_err(Answer::auth)?;
    if !is_compact(body) {
        return Err(Answer::auth(AuthRejection::INVALID_PAYLOAD));
    }
    let limit = state.limit(op);
    if !state
        .limits
        .admit(&verified.api_key, op, limit, Instant::now())
    {
        state.stats.rate_limited += 1;
        return Err(Answer::auth(AuthRejection::TOO_MANY_REQUESTS));
    }
    if let Err(rejection) = state.nonces.check(
        &verified.api_key,
        verified.nonce,
        verified.nonce_window,
        state.clock.now_ms(),
    ) {
        state.stats.nonce_rejections += 1;
        return Err(Answer::auth(rejection));
    }
    Ok(verified)
}

/// Whether a JSON body has no whitespace outside its strings. The docs: "the server validates
/// the body against a canonical (no-whitespace) serialization and rejects spaced JSON with HTTP
/// 400 `{"code":9,"message":"Invalid payload."}`" (guides/first-api-call, since 2026-04-23).
/// Older official clients that sent spaced JSON suggest the live rule may once have been
/// looser; the sandbox follows the current docs.
pub(crate) fn is_compact(body: &[u8]) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_outside_strings() {
        assert!(is_compact(br#"{"a":"x y","b":"\" ","c":[1,2]}"#));
        assert!(is_compact(br#"{"a":"\\"}"#));
        for spaced in [
            &br#"{"a": 1}"#[..],
            br#"{"a":1} "#,
            b"{\"a\":1,\n\"b\":2}",
            br#"{"a":"\\" ,"b":1}"#,
            b"\t{}",
        ] {
            assert!(!is_compact(spaced), "{}", String::from_utf8_lossy(spaced));
        }
    }
}
