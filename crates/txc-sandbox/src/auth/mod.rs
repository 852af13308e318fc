//! Authentication and limits: who may act on the exchange, how often, with which nonce — the
//! sandbox's own, written from the exchange's docs (wire-contract.md "Authentication",
//! exchange-docs-notes §2 and §7.4). It deliberately repeats `txc_sign::verify` rather than
//! calling it: a signing mistake in txc must not pass its own sandbox.
//!
//! **What it is for:** admitting a request, in two parts:
//!
//! - [`check::check`], stateless and run without the state's lock: the headers, the key, the
//!   signature (HMAC-SHA512, the expensive part) and the body ([`envelope::read`]).
//! - [`Locked::admit`], under the lock: the per-key rate limit, then the nonce rules
//!   ([`nonces::Nonces`]). A request admitted has used its nonce, even if the operation then
//!   rejects it (as on the exchange); a rate-limited request has not.
//!
//! And holding the lock: [`Exchange`] keeps the state (`crate::state`) behind it with the
//! nonces, the rate limits and the WebSocket tokens, so that a request's admission and its
//! effect are one critical section; the keys and markets beside it, read without it. Both
//! transports reach the exchange through it.
//!
//! **What it is not for:** the operations' rules and effects (`crate::rules`, `crate::state`),
//! or reading HTTP beyond the signing headers: the routes hand over the headers and the body's
//! bytes, and turn an [`AuthRejection`] into an answer.
//!
//! Every check, its answer and its source are in the crate docs' "Checks and answers" table.

mod check;
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

pub(crate) use check::Signed;
pub(crate) use exchange::{Exchange, Locked};
pub(crate) use rejection::AuthRejection;
