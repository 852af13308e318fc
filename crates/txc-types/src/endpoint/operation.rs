//! The [`Endpoint`] trait that ties a request type to its path and response type.
//!
//! This module is for describing operations; it does not sign or send anything.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::time::SystemTime;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::WireValue;
use crate::errors::ValidationError;

/// Whether repeating an operation could have an effect beyond the first call.
///
/// Retry policies use it: an [`EndpointKind::Order`] is never resent after an ambiguous
/// failure, a [`EndpointKind::Read`] or [`EndpointKind::Idempotent`] may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndpointKind {
    /// Places or changes something on the exchange; not idempotent.
    Order,
    /// Only reads; safe to repeat.
    Read,
    /// Sets something on the exchange to a value the request carries (the leverage, the
    /// position mode, a kill-switch timer): sending it again sets the same state, so it is as
    /// safe to resend after an ambiguous failure as a read.
    Idempotent,
}

/// A documented rate limit: at most `requests` requests in any `window_secs`-second window.
///
/// The exchange's rate-limit page says its limits count **per IP address**; its lending pages
/// say "per endpoint". Each endpoint of this crate carries its own limit
/// ([`Endpoint::RATE_LIMIT`]), as the endpoint pages give it, and the scope that counts it
/// ([`Endpoint::RATE_LIMIT_SCOPE`]): its own path, or — where the docs' table of limits counts
/// endpoints together — the shared scope, such as [`MAIN_ACCOUNT_SCOPE`] for the smart
/// investment endpoints.
///
/// ```
/// use txc_types::endpoint::{Endpoint, RateLimit};
/// use txc_types::orders::CollateralMarketOrder;
/// assert_eq!(CollateralMarketOrder::RATE_LIMIT, Some(RateLimit::new(10_000, 10)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RateLimit {
    /// How many requests a window admits.
    pub requests: u32,
    /// The window's length in seconds.
    pub window_secs: u32,
}

impl RateLimit {
    /// At most `requests` requests in any `window_secs` seconds.
    pub const fn new(requests: u32, window_secs: u32) -> Self {
        Self {
            requests,
            window_secs,
        }
    }

    /// The window's length.
    pub const fn window(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.window_secs as u64)
    }
}

/// The scope the exchange's table of rate limits counts every `/api/v4/main-account/*` endpoint
/// in, together: 1 000 requests per 10 s for all of them (the smart plans, investing, closing,
/// the investments and interest payment lists). Their [`Endpoint::RATE_LIMIT_SCOPE`].
pub const MAIN_ACCOUNT_SCOPE: &str = "/api/v4/main-account/*";

/// An operation of the v4 API — private, or public when [`Endpoint::SIGNED`] is `false`: its
/// request body (the implementing type), path and response.
///
/// The request body is a JSON object holding only the endpoint's own fields, listed once by
/// [`Endpoint::for_each_field`]; the signer adds `request`, `nonce` and `nonceWindow`. The
/// `Serialize` impl writes the same fields in the same order.
pub trait Endpoint: Serialize {
    /// The request path, e.g. `/api/v4/order/collateral/market`; also the `request` body field.
    const PATH: &'static str;
    /// A short snake_case name of the operation, for logs and spans.
    const OPERATION: &'static str;
    /// Whether the operation is an order (never blindly resent) or a read.
    const KIND: EndpointKind;
    /// The exchange's documented rate limit for this endpoint, which clients pace themselves
    /// by; `None` (the default) for none known.
    const RATE_LIMIT: Option<RateLimit> = None;
    /// What counts the requests against [`RATE_LIMIT`](Endpoint::RATE_LIMIT): the endpoint's
    /// own path (the default), or a scope several endpoints share — one allowance for all of
    /// them, as the docs' table of limits gives for `/api/v4/main-account/*`
    /// ([`MAIN_ACCOUNT_SCOPE`]). Endpoints of one scope declare the same limit.
    const RATE_LIMIT_SCOPE: &'static str = Self::PATH;
    /// Whether requests are signed `POST`s of the private API (the default), or public `GET`s
    /// with no body and no authentication (`false`, e.g. the server time).
    const SIGNED: bool = true;
    /// The decoded success response.
    type Response: DeserializeOwned;

    /// The response an error response stands for, when the exchange documents one as an outcome
    /// of this endpoint rather than as a failure — "not found" of a look-up or a cancel —
    /// recognized by its `status`, `code` and field `errors`; `None` (the default) for an
    /// error.
    fn error_outcome(
        status: u16,
        code: Option<i64>,
        errors: &BTreeMap<String, Vec<String>>,
    ) -> Option<Self::Response> {
        let _ = (status, code, errors);
        None
    }

    /// Checks the rules that depend on the time the request is signed at — `now` on the
    /// exchange's clock as far as the client knows it — before it is sent: the position
    /// history's `endDate ≤ now + 1 s`, say. The default has none.
    fn check_at(&self, now: SystemTime) -> Result<(), ValidationError> {
        let _ = now;
        Ok(())
    }

    /// Calls `visit` with each of the request's own body fields — wire name and value — in
    /// wire order, stopping at the first error `visit` returns. Every endpoint provides it;
    /// see [`Endpoint::for_each_field`] for a visitor that cannot fail.
    fn try_for_each_field<Err>(
        &self,
        visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), Err>,
    ) -> Result<(), Err>;

    /// Calls `visit` with each of the request's own body fields — wire name and value — in
    /// wire order.
    ///
    /// ```
    /// use txc_types::endpoint::{Endpoint, WireValue};
    /// use txc_types::orders::{CollateralMarketOrder, Side};
    /// let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01").build()?;
    /// let mut fields = Vec::new();
    /// order.for_each_field(|name, value| fields.push((name, format!("{value:?}"))));
    /// assert_eq!(fields[0], ("market", format!("{:?}", WireValue::Str("BTC_USDT"))));
    /// assert_eq!(fields.len(), 4); // market, side, amount and the generated clientOrderId
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    #[inline]
    fn for_each_field(&self, mut visit: impl FnMut(&'static str, WireValue<'_>)) {
        // Inlined at each field, so that a caller's visitor sees each name as a constant.
        let walked: Result<(), Infallible> = self.try_for_each_field(
            #[inline(always)]
            |name, value| {
                visit(name, value);
                Ok(())
            },
        );
        match walked {
            Ok(()) => {}
            Err(never) => match never {},
        }
    }
}
