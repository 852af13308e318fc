//! Authentication of a private request: signature and body checks by [`txc_sign::verify`]
//! (plus: the body must be a JSON object), then the per-key rate limit, then the nonce rules of [`txc_sign::NonceGuard`].
//!
//! A request that passed authentication has used its nonce, even if the operation then
//! rejects it (as on the exchange); a rate-limited request has not.

use std::time::Instant;

use http::HeaderMap;
use txc_sign::{AuthRejection, VerifiedRequest, verify};

use crate::answer::Answer;
use crate::clock;
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
        clock::now_ms(),
    ) {
        state.stats.nonce_rejections += 1;
        return Err(Answer::auth(rejection));
    }
    Ok(verified)
}
