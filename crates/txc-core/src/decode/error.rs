//! [`Error`]: the one error type of the SDK, shared by every transport.
//!
//! Variants hold context structs; transport-library errors appear only as `source()`.

use std::collections::BTreeMap;
use std::error::Error as StdError;
use std::fmt;

use txc_types::errors::ValidationError;
use txc_types::orders::OrderRefusal;

use txc_types::paging::PagingError;

use crate::{
    Evidence, PendingFlexInvest, PendingFlexWithdraw, PendingInvestment, PendingOrder,
    PendingRecord, UnresolvedInvestment, UnresolvedMove,
};

/// Everything that can go wrong calling the exchange.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A request value broke a rule; nothing was sent.
    #[error("invalid request: {0}")]
    InvalidRequest(#[from] ValidationError),
    /// Client configuration is unusable (base URL, credentials); nothing was sent.
    #[error("invalid configuration of {what}: {reason}")]
    InvalidConfig {
        /// What is misconfigured.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// The request could not be carried to or from the server.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The exchange answered with an error.
    #[error(transparent)]
    Api(#[from] Box<ApiError>),
    /// The exchange's response could not be understood.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An order may or may not have been placed: its request may have reached the exchange
    /// and no response says what became of it. Never place it again before resolving it (the
    /// client's `resolve` looks its `clientOrderId` up); [`Error::pending_order`] has what
    /// that needs, and the failure is the [`source`](StdError::source).
    #[error(
        "{}: the order may have been placed, its outcome is unknown; resolve it before placing it again",
        .0.operation
    )]
    OutcomeUnknown(#[source] Box<Unresolved>),
    /// An order was not placed: every attempt ended in a failure that resolving proved left
    /// nothing on the exchange. Safe to place again; the last failure is the
    /// [`source`](StdError::source).
    #[error(
        "{}: the order was not placed (every attempt was resolved as not placed)",
        .0.operation
    )]
    NotPlaced(#[source] Box<Unresolved>),
    /// An investment may or may not have been made: its request may have reached the exchange
    /// and no answer says what became of it, or resolving could not tell. An investment request
    /// carries no id of the caller's, so never invest again before resolving it (the client's
    /// `resolve_investment` looks for it in the investments list);
    /// [`Error::pending_investment`] has what that needs.
    #[error(
        "{}: the investment may have been made, its outcome is unknown{}; resolve it before investing again",
        .0.operation,
        if .0.candidates.is_empty() { "" } else { " (identical investments in its window, which may be another writer's: cannot tell whether one is this one)" }
    )]
    InvestmentUnknown(#[source] Box<UnresolvedInvestment>),
    /// An investment was not made: every attempt was resolved as not invested. Safe to invest
    /// again; the last failure is the [`source`](StdError::source).
    #[error(
        "{}: not invested (every attempt was resolved as not invested)",
        .0.operation
    )]
    NotInvested(#[source] Box<UnresolvedInvestment>),
    /// A flex investment may or may not have been made: its request may have reached the
    /// exchange and no answer says what became of it, or resolving could not tell. It carries
    /// no id of the caller's, so never invest again before resolving it (the client's
    /// `resolve_flex_invest` looks for it in the flex history);
    /// [`Error::pending_flex_invest`] has what that needs.
    #[error(
        "{}: the flex investment may have been made, its outcome is unknown{}; resolve it before investing again",
        .0.operation,
        if .0.candidates.is_empty() { "" } else { " (identical investments in its window, which may be another writer's: cannot tell whether one is this one)" }
    )]
    FlexInvestUnknown(#[source] Box<UnresolvedMove<txc_types::investments::flex::FlexInvest>>),
    /// A flex investment was not made: every attempt was resolved as not invested. Safe to
    /// invest again; the last failure is the [`source`](StdError::source).
    #[error(
        "{}: not invested (every attempt was resolved as not invested)",
        .0.operation
    )]
    FlexNotInvested(#[source] Box<UnresolvedMove<txc_types::investments::flex::FlexInvest>>),
    /// A flex withdrawal may or may not have been made: its request may have reached the
    /// exchange and no answer says what became of it, or resolving could not tell. It carries
    /// no id of the caller's, so never withdraw again before resolving it (the client's
    /// `resolve_flex_withdraw` looks for it in the flex history);
    /// [`Error::pending_flex_withdraw`] has what that needs.
    #[error(
        "{}: the withdrawal may have been made, its outcome is unknown{}; resolve it before withdrawing again",
        .0.operation,
        if .0.candidates.is_empty() { "" } else { " (identical withdrawals in its window, which may be another writer's: cannot tell whether one is this one)" }
    )]
    FlexWithdrawUnknown(#[source] Box<UnresolvedMove<txc_types::investments::flex::FlexWithdraw>>),
    /// A flex withdrawal was not made: every attempt was resolved as not withdrawn. Safe to
    /// withdraw again; the last failure is the [`source`](StdError::source).
    #[error(
        "{}: not withdrawn (every attempt was resolved as not withdrawn)",
        .0.operation
    )]
    FlexNotWithdrawn(#[source] Box<UnresolvedMove<txc_types::investments::flex::FlexWithdraw>>),
    /// A paged list cannot be read further: the next page lies past what the exchange serves,
    /// or the list changed between pages so that a record may have been skipped. Never a
    /// silent stop; the records read before it were given.
    #[error("cannot read the list further: {0}")]
    Paging(#[from] PagingError),
    /// The client's own rate limiter had no slot for the request within the
    /// [`RatePolicy`](crate::RatePolicy)'s wait: nothing was sent.
    #[error(transparent)]
    Throttled(Throttled),
    /// A position may or may not have been closed: the close request may have reached the
    /// exchange and no answer says what became of it (or resolving it could not tell). Never
    /// close it again blindly: the client's `resolve_close` looks the position up;
    /// [`Error::pending_close`] has what that needs, and the failure is the
    /// [`source`](StdError::source).
    #[error(
        "{}: the position may have been closed, the outcome is unknown; resolve it before closing it again",
        .0.operation
    )]
    CloseUnknown(#[source] Box<crate::UnresolvedClose>),
    /// A bulk order's answer was lost: each of its items may or may not have been placed.
    /// Never send them again blindly: resolve each item's record
    /// ([`Error::pending_bulk`]; the client's `resolve`), or place the bulk with
    /// `place_bulk_once`, which does; the failure is the [`source`](StdError::source).
    #[error(
        "{}: the bulk order's answer was lost, each item's outcome is unknown; resolve them before placing them again",
        .0.operation
    )]
    BulkUnknown(#[source] Box<crate::UnresolvedBulk>),
    /// A modify may or may not have replaced the order: its request may have reached the
    /// exchange and no answer says what became of it. A modify is not idempotent: never send
    /// it again blindly — the client's `resolve_modify` reads the order by its
    /// `clientOrderId` and compares it with the request ([`Error::pending_modify`] has what it
    /// needs); the failure is the [`source`](StdError::source).
    #[error(
        "{}: the order may have been replaced, the outcome is unknown; resolve it before modifying it again",
        .0.operation
    )]
    ModifyUnknown(#[source] Box<crate::UnresolvedModify>),
    /// Resolving could not prove an operation's outcome either way: why, and what to do. The
    /// cause of an [`Error::OutcomeUnknown`], [`Error::CloseUnknown`] or
    /// [`Error::InvestmentUnknown`] (whose evidence has the look-ups made).
    #[error("cannot tell: {reason}")]
    Unproven {
        /// Why the look-ups prove nothing, and what to run.
        reason: String,
    },
    /// An order was refused before any I/O: this client used its `clientOrderId` on the
    /// market for an order still unresolved, or for one whose acceptance window could overlap
    /// the new one's — resolving could not tell the two apart. Nothing was sent.
    #[error("clientOrderId {client_order_id} refused, nothing was sent: {reason}")]
    ClientOrderIdInUse {
        /// The id.
        client_order_id: String,
        /// Why.
        reason: String,
    },
    /// An order, an investment, a flex investment or withdrawal, or a modify was refused
    /// before any I/O: the client holds an unresolved record of an earlier one with the same
    /// `clientOrderId` (an order), of the same kind, plan and amount (money moved), or of the
    /// same order (a modify) — from this process, or loaded from its
    /// [`Journal`](crate::Journal) when it was built. Sending again blindly could do it twice.
    /// Resolve the record first — the client's resolve call with it
    /// ([`PendingRecord::resolve_call`]; [`Error::pending_order`],
    /// [`Error::pending_investment`], …; the client's `pending_*` lists it) — or send with the
    /// `*_once` call where there is one ([`PendingRecord::once_call`]: `place_once`,
    /// `invest_once`, …), which resolves it before sending; once settled by hand,
    /// `discard_pending` forgets it. Nothing was sent.
    #[error(
        "refused, nothing was sent: an earlier {0} is unresolved; resolve it first (the client's {call} with the record{once}), or discard it once settled by hand",
        call = .0.resolve_call(),
        once = .0.once_call().map(|once| format!(", or {once}, which resolves it before sending")).unwrap_or_default()
    )]
    ResolveFirst(Box<PendingRecord>),
    /// An order method's call over the WebSocket failed: refused by the socket's own
    /// numbering, paced, not sent, or — as the cause of an [`Error::OutcomeUnknown`] — its
    /// answer lost.
    #[error(transparent)]
    Socket(#[from] crate::socket::SocketError),
}

/// A request the client's rate limiter held back: nothing was sent. Try again after
/// [`Throttled::retry_in`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{operation}: not sent: the client's rate limit of {} requests per {} s is used up; a slot frees up in {} ms",
    limit.map_or(0, |l| l.requests),
    limit.map_or(0, |l| l.window_secs),
    retry_in.as_millis()
)]
#[non_exhaustive]
pub struct Throttled {
    /// The operation held back.
    pub operation: &'static str,
    /// The limit that was reached.
    pub limit: Option<txc_types::endpoint::RateLimit>,
    /// How long until the limiter has a slot.
    pub retry_in: std::time::Duration,
}

/// An order and the failure that ended its call: the context of [`Error::OutcomeUnknown`] and
/// [`Error::NotPlaced`]. As an error it reads as its cause.
#[derive(Debug)]
#[non_exhaustive]
pub struct Unresolved {
    /// The operation, e.g. `collateral_market_order`.
    pub operation: &'static str,
    /// The order, with every attempt to place it.
    pub order: PendingOrder,
    /// The failure that ended the last attempt, or why resolving could not tell
    /// ([`Error::Unproven`]).
    pub cause: Error,
    /// The look-ups resolving made, if it ran.
    pub evidence: Option<Evidence>,
}

impl Unresolved {
    /// The context of an order of `operation` whose last attempt failed with `cause`.
    pub fn new(operation: &'static str, order: PendingOrder, cause: Error) -> Self {
        Self {
            operation,
            order,
            cause,
            evidence: None,
        }
    }

    /// The same, with the evidence resolving gathered.
    pub fn with_evidence(mut self, evidence: Evidence) -> Self {
        self.evidence = Some(evidence);
        self
    }
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cause.fmt(f)
    }
}

impl StdError for Unresolved {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.cause.source()
    }
}

impl Error {
    /// An [`Error::InvalidConfig`] of `what` for `reason`; transports use it too.
    pub fn invalid_config(what: &'static str, reason: impl Into<String>) -> Self {
        Self::InvalidConfig {
            what,
            reason: reason.into(),
        }
    }

    /// The exchange's error response, if this is one (also behind an unresolved order).
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Self::Api(e) => Some(e),
            _ => self.unresolved()?.0.api(),
        }
    }

    /// The HTTP status the server answered with, if it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Api(e) => Some(e.status),
            Self::Decode(e) => Some(e.status),
            _ => self.unresolved()?.0.status(),
        }
    }

    /// The order behind [`Error::OutcomeUnknown`] or [`Error::NotPlaced`], or the unresolved
    /// one [`Error::ResolveFirst`] names.
    pub fn pending_order(&self) -> Option<&PendingOrder> {
        match self {
            Self::OutcomeUnknown(u) | Self::NotPlaced(u) => Some(&u.order),
            Self::ResolveFirst(record) => record.order(),
            _ => None,
        }
    }

    /// Each item's record of the bulk order behind [`Error::BulkUnknown`], in the request's
    /// order.
    pub fn pending_bulk(&self) -> Option<&[PendingOrder]> {
        match self {
            Self::BulkUnknown(u) => Some(&u.orders),
            _ => None,
        }
    }

    /// The modify behind [`Error::ModifyUnknown`], or the unresolved one
    /// [`Error::ResolveFirst`] names.
    pub fn pending_modify(&self) -> Option<&crate::PendingModify> {
        match self {
            Self::ModifyUnknown(u) => Some(&u.modify),
            Self::ResolveFirst(record) => record.modify(),
            _ => None,
        }
    }

    /// The close behind [`Error::CloseUnknown`].
    pub fn pending_close(&self) -> Option<&crate::PendingClose> {
        match self {
            Self::CloseUnknown(u) => Some(&u.close),
            _ => None,
        }
    }

    /// The investment behind [`Error::InvestmentUnknown`] or [`Error::NotInvested`], or the
    /// unresolved one [`Error::ResolveFirst`] names.
    pub fn pending_investment(&self) -> Option<&PendingInvestment> {
        match self {
            Self::InvestmentUnknown(u) | Self::NotInvested(u) => Some(&u.pending),
            Self::ResolveFirst(record) => record.investment(),
            _ => None,
        }
    }

    /// The flex investment behind [`Error::FlexInvestUnknown`] or [`Error::FlexNotInvested`],
    /// or the unresolved one [`Error::ResolveFirst`] names.
    pub fn pending_flex_invest(&self) -> Option<&PendingFlexInvest> {
        match self {
            Self::FlexInvestUnknown(u) | Self::FlexNotInvested(u) => Some(&u.pending),
            Self::ResolveFirst(record) => record.flex_invest(),
            _ => None,
        }
    }

    /// The flex withdrawal behind [`Error::FlexWithdrawUnknown`] or
    /// [`Error::FlexNotWithdrawn`], or the unresolved one [`Error::ResolveFirst`] names.
    pub fn pending_flex_withdraw(&self) -> Option<&PendingFlexWithdraw> {
        match self {
            Self::FlexWithdrawUnknown(u) | Self::FlexNotWithdrawn(u) => Some(&u.pending),
            Self::ResolveFirst(record) => record.flex_withdraw(),
            _ => None,
        }
    }

    /// The record of the operation behind an unknown or "not done" outcome of an order or an
    /// operation that moves money, or the unresolved one [`Error::ResolveFirst`] names: what
    /// the journal keeps of it.
    pub fn pending_record(&self) -> Option<PendingRecord> {
        match self {
            Self::ResolveFirst(record) => Some((**record).clone()),
            _ => self
                .pending_order()
                .cloned()
                .map(PendingRecord::Order)
                .or_else(|| {
                    self.pending_investment()
                        .cloned()
                        .map(PendingRecord::Investment)
                })
                .or_else(|| {
                    self.pending_flex_invest()
                        .cloned()
                        .map(PendingRecord::FlexInvest)
                })
                .or_else(|| {
                    self.pending_flex_withdraw()
                        .cloned()
                        .map(PendingRecord::FlexWithdraw)
                }),
        }
    }

    /// The look-ups resolving made for the order, close or investment behind an unknown or
    /// "not placed / not invested" outcome, if resolving ran.
    pub fn evidence(&self) -> Option<&Evidence> {
        self.unresolved()?.1
    }

    /// The failure that ended the operation behind an unknown or "not done" outcome — every
    /// variant that wraps an unresolved operation — and the look-ups resolving made for it, if
    /// it ran: what [`Error::api`], [`Error::status`], [`Error::retry_after`] and
    /// [`Error::evidence`] read through.
    fn unresolved(&self) -> Option<(&Error, Option<&Evidence>)> {
        Some(match self {
            Self::OutcomeUnknown(u) | Self::NotPlaced(u) => (&u.cause, u.evidence.as_ref()),
            Self::CloseUnknown(u) => (&u.cause, u.evidence.as_ref()),
            Self::InvestmentUnknown(u) | Self::NotInvested(u) => (&u.cause, u.evidence.as_ref()),
            Self::FlexInvestUnknown(u) | Self::FlexNotInvested(u) => {
                (&u.cause, u.evidence.as_ref())
            }
            Self::FlexWithdrawUnknown(u) | Self::FlexNotWithdrawn(u) => {
                (&u.cause, u.evidence.as_ref())
            }
            Self::BulkUnknown(u) => (&u.cause, None),
            Self::ModifyUnknown(u) => (&u.cause, u.evidence.as_ref()),
            _ => return None,
        })
    }

    /// Whether an order may have been executed although this error was returned, judged by
    /// the exchange's rules, status first:
    ///
    /// | what came back | outcome |
    /// |---|---|
    /// | nothing: the request may have been written ([`Delivery::MaybeSent`]) | unknown |
    /// | a 5xx status, **whatever the body says** (gateways answer `503 Too many requests.`) | unknown |
    /// | a 2xx status whose body is not the expected response (an error shape, no order id, not JSON) | unknown |
    /// | a 1xx or 3xx status | unknown |
    /// | a 4xx status (the exchange or a gateway refused it; 429 included) | not executed |
    /// | nothing, and the request was certainly not written ([`Delivery::NotSent`]) | not executed |
    ///
    /// Such an order must not be sent again before finding out whether it was placed (look
    /// its `clientOrderId` up). Never true together with [`Error::is_retryable`].
    pub fn outcome_unknown(&self) -> bool {
        match self {
            Self::OutcomeUnknown(_)
            | Self::CloseUnknown(_)
            | Self::InvestmentUnknown(_)
            | Self::FlexInvestUnknown(_)
            | Self::FlexWithdrawUnknown(_)
            | Self::BulkUnknown(_)
            | Self::ModifyUnknown(_) => true,
            Self::NotPlaced(_)
            | Self::NotInvested(_)
            | Self::FlexNotInvested(_)
            | Self::FlexNotWithdrawn(_)
            | Self::Paging(_) => false,
            Self::Transport(e) => e.delivery == Delivery::MaybeSent,
            Self::Api(e) => status_leaves_outcome_unknown(e.status),
            Self::Decode(e) => status_leaves_outcome_unknown(e.status),
            Self::Unproven { .. } => true,
            Self::InvalidRequest(_)
            | Self::InvalidConfig { .. }
            | Self::Throttled(_)
            | Self::ClientOrderIdInUse { .. }
            | Self::ResolveFirst(_) => false,
            Self::Socket(e) => e.outcome_unknown(),
        }
    }

    /// Whether resending (re-signed, with a fresh nonce) is safe for any operation, orders
    /// included: the exchange certainly did not act and may accept a later attempt. Only two
    /// things say so: HTTP 429 (the rate limit, or a nonce that lost a race — whatever the
    /// body, JSON or a CDN's page) and a connection that failed before the request was
    /// written ([`Delivery::NotSent`]). Never true together with [`Error::outcome_unknown`].
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::OutcomeUnknown(_)
            | Self::CloseUnknown(_)
            | Self::InvestmentUnknown(_)
            | Self::FlexInvestUnknown(_)
            | Self::FlexWithdrawUnknown(_)
            | Self::BulkUnknown(_)
            | Self::ModifyUnknown(_)
            | Self::Paging(_) => false,
            Self::NotPlaced(_)
            | Self::NotInvested(_)
            | Self::FlexNotInvested(_)
            | Self::FlexNotWithdrawn(_) => true,
            Self::Transport(e) => e.delivery == Delivery::NotSent,
            Self::Api(e) => e.status == 429,
            Self::Decode(e) => e.status == 429,
            Self::Throttled(_) => true,
            Self::InvalidRequest(_)
            | Self::InvalidConfig { .. }
            | Self::Unproven { .. }
            | Self::ClientOrderIdInUse { .. }
            | Self::ResolveFirst(_) => false,
            Self::Socket(e) => e.is_retryable(),
        }
    }

    /// How long the server asked to wait before the next request (`Retry-After`), if it did.
    pub fn retry_after(&self) -> Option<RetryAfter> {
        match self {
            Self::Api(e) => e.retry_after,
            Self::Decode(e) => e.retry_after,
            Self::Throttled(t) => Some(RetryAfter::Delay(t.retry_in)),
            _ => self.unresolved()?.0.retry_after(),
        }
    }
}

/// Whether an HTTP status leaves an order's outcome unknown: anything but a 4xx refusal.
fn status_leaves_outcome_unknown(status: u16) -> bool {
    !(400..500).contains(&status)
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        Self::Api(Box::new(e))
    }
}

impl From<txc_sign::Error> for Error {
    /// Credentials, a base URL or a request path txc-sign refused: an
    /// [`Error::InvalidConfig`], with the same message.
    fn from(e: txc_sign::Error) -> Self {
        Self::InvalidConfig {
            what: e.what,
            reason: e.reason,
        }
    }
}

/// How far a failed request got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Delivery {
    /// The request certainly did not reach the server (e.g. connection refused).
    NotSent,
    /// The request may have reached the server (e.g. timeout or reset after sending).
    MaybeSent,
}

/// What kind of transport failure happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// Could not connect (DNS, refused, unreachable).
    Connect,
    /// A connect or overall timeout elapsed.
    Timeout,
    /// The connection failed while sending or receiving.
    Io,
    /// TLS failed.
    Tls,
    /// The response was larger than the configured size cap; it was not read to the end.
    ResponseTooLarge,
    /// Anything else the HTTP library reported.
    Other,
}

impl fmt::Display for TransportErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Connect => "connect",
            Self::Timeout => "timeout",
            Self::Io => "i/o",
            Self::Tls => "tls",
            Self::ResponseTooLarge => "response too large",
            Self::Other => "other",
        })
    }
}

/// A transport failure; any transport can build one. The HTTP library's error is only the
/// [`source`](StdError::source).
#[derive(Debug)]
pub struct TransportError {
    /// What failed.
    pub kind: TransportErrorKind,
    /// Whether the request may have reached the server.
    pub delivery: Delivery,
    source: Option<Box<dyn StdError + Send + Sync>>,
}

impl TransportError {
    /// A failure known to have happened before any byte of the request was written (refused
    /// connection, DNS failure): an order is certainly not placed and may be sent again.
    pub fn not_sent(
        kind: TransportErrorKind,
        source: impl Into<Box<dyn StdError + Send + Sync>>,
    ) -> Self {
        Self::new(kind, Delivery::NotSent, Some(source.into()))
    }

    /// A failure after the request may have been written (timeout, reset, a broken
    /// response): an order's outcome is unknown. When in doubt, this one.
    pub fn maybe_sent(
        kind: TransportErrorKind,
        source: impl Into<Box<dyn StdError + Send + Sync>>,
    ) -> Self {
        Self::new(kind, Delivery::MaybeSent, Some(source.into()))
    }

    /// A transport error of `kind`, with the library's error as its source.
    pub fn new(
        kind: TransportErrorKind,
        delivery: Delivery,
        source: Option<Box<dyn StdError + Send + Sync>>,
    ) -> Self {
        Self {
            kind,
            delivery,
            source,
        }
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reach = match self.delivery {
            Delivery::NotSent => "the request was not sent",
            Delivery::MaybeSent => "the request may have reached the server",
        };
        write!(f, "transport error ({}); {reach}", self.kind)
    }
}

impl StdError for TransportError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn StdError + 'static))
    }
}

/// What an API error means for the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ApiErrorClass {
    /// Key, payload or signature rejected.
    Authentication,
    /// The key may not use this endpoint (e.g. smart plans without B2B partner permission).
    Permission,
    /// The nonce was missing, malformed or outside the time window.
    Nonce,
    /// `Too many requests.`: the rate limit, or a nonce not greater than the previous one.
    TooManyRequests,
    /// A field failed validation (an order endpoint's default validation code, 30, among
    /// others).
    Validation,
    /// An order's market failed validation: unknown, or not open to collateral trading
    /// (an order endpoint's code 31).
    Market,
    /// An order's amount failed validation: its precision, or below the market's minimum
    /// (an order endpoint's code 32).
    Amount,
    /// An order's price failed validation: its precision, or a total outside the market's
    /// bounds (an order endpoint's code 33).
    Price,
    /// An order's `clientOrderId` failed validation — among others, one an open order of the
    /// market already has (an order endpoint's code 36).
    ClientOrderId,
    /// `ioc` with `postOnly` (a bulk item: with `postOnly` or `rpi`; code 37).
    IocWithPostOnly,
    /// `rpi` with `ioc` (code 40).
    RpiWithIoc,
    /// The account may not place RPI orders (code 43).
    RpiNotAllowed,
    /// Not enough balance (an investment: HTTP 422 code 4, `Available … < …`).
    InsufficientBalance,
    /// Investing: the account already has an investment in the plan and may not have several
    /// (HTTP 422 code 1).
    InvestmentExists,
    /// Investing: the amount is below the plan's minimum (HTTP 422 code 2, or the exchange's
    /// smallest amount, `The amount must be at least 0.000001.`).
    BelowMinimum,
    /// Investing: the amount is above the plan's maximum (HTTP 422 code 3), or above what the
    /// plan has left (HTTP 400 `… bigger than the amount left in this SMART plan …`).
    AboveMaximum,
    /// Investing: the plan cannot pay the interest on the amount (HTTP 422 code 5).
    NoFundsInPlan,
    /// Investing: the plan is inactive or disabled (HTTP 400, `Plan is inactive`).
    PlanInactive,
    /// Investing: the plan is paused (HTTP 400, `Plan is paused`).
    PlanPaused,
    /// Investing: no coins are left in the plan (HTTP 400, `There are no coins left in the
    /// plan`).
    NoCoinsLeft,
    /// Closing an investment that is not the account's, or unknown (HTTP 400, `Investment not
    /// found`).
    InvestmentNotFound,
    /// Closing an investment already closed (HTTP 422, `Investment is already closed`).
    InvestmentClosed,
    /// The order type is not available in the caller's region (HTTP 453).
    RegionRestricted,
    /// The service is unavailable (5xx).
    Unavailable,
    /// The position or order named does not exist or is no longer open (closing a position:
    /// code 104; a bulk cancel's item: 404).
    NotFound,
    /// The resulting position would exceed the market's maximum (code 111).
    PositionLimit,
    /// The value of pending orders would exceed the allowed maximum (code 112).
    PendingOrdersLimit,
    /// The leverage or position mode cannot change while positions or orders are open
    /// (code 113).
    PositionsOpen,
    /// The order's `positionSide` does not fit the account's position mode (code 114): `LONG`
    /// or `SHORT` is required in hedge mode.
    PositionSideMismatch,
    /// The order would open a position in the opposite direction in one-way mode (code 115).
    OppositePosition,
    /// A reduce-only order has no position to reduce, or the wrong side (code 116).
    ReduceOnly,
    /// Anything else.
    Other,
}

impl fmt::Display for ApiErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Authentication => "authentication",
            Self::Permission => "permission",
            Self::Nonce => "nonce",
            Self::TooManyRequests => "too many requests",
            Self::Validation => "validation",
            Self::Market => "market",
            Self::Amount => "amount",
            Self::Price => "price",
            Self::ClientOrderId => "clientOrderId",
            Self::IocWithPostOnly => "ioc with postOnly",
            Self::RpiWithIoc => "rpi with ioc",
            Self::RpiNotAllowed => "rpi not allowed",
            Self::InsufficientBalance => "insufficient balance",
            Self::InvestmentExists => "investment exists",
            Self::BelowMinimum => "below minimum",
            Self::AboveMaximum => "above maximum",
            Self::NoFundsInPlan => "no funds in plan",
            Self::PlanInactive => "plan inactive",
            Self::PlanPaused => "plan paused",
            Self::NoCoinsLeft => "no coins left",
            Self::InvestmentNotFound => "investment not found",
            Self::InvestmentClosed => "investment closed",
            Self::RegionRestricted => "region restricted",
            Self::Unavailable => "unavailable",
            Self::NotFound => "not found",
            Self::PositionLimit => "position limit",
            Self::PendingOrdersLimit => "pending orders limit",
            Self::PositionsOpen => "positions or orders open",
            Self::PositionSideMismatch => "position side does not fit the mode",
            Self::OppositePosition => "opposite position",
            Self::ReduceOnly => "reduce-only",
            Self::Other => "other",
        })
    }
}

impl From<OrderRefusal> for ApiErrorClass {
    /// The class of an order endpoint's refusal: one class per documented code (30 is
    /// [`Validation`](Self::Validation), 10 [`InsufficientBalance`](Self::InsufficientBalance)).
    fn from(refusal: OrderRefusal) -> Self {
        match refusal {
            OrderRefusal::Market => Self::Market,
            OrderRefusal::Amount => Self::Amount,
            OrderRefusal::Price => Self::Price,
            OrderRefusal::ClientOrderId => Self::ClientOrderId,
            OrderRefusal::IocWithPostOnly => Self::IocWithPostOnly,
            OrderRefusal::RpiWithIoc => Self::RpiWithIoc,
            OrderRefusal::RpiNotAllowed => Self::RpiNotAllowed,
            OrderRefusal::InsufficientBalance => Self::InsufficientBalance,
            OrderRefusal::PositionLimit => Self::PositionLimit,
            OrderRefusal::PendingOrdersLimit => Self::PendingOrdersLimit,
            OrderRefusal::PositionsOpen => Self::PositionsOpen,
            OrderRefusal::PositionSideMismatch => Self::PositionSideMismatch,
            OrderRefusal::OppositePosition => Self::OppositePosition,
            OrderRefusal::ReduceOnly => Self::ReduceOnly,
            // Code 30, and any class a later version adds.
            _ => Self::Validation,
        }
    }
}

/// An error response of the exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// The exchange's error code, when it sent one (codes are per endpoint).
    pub code: Option<i64>,
    /// The exchange's message (messages of nested shapes joined with `; `).
    pub message: String,
    /// Messages per field, e.g. `amount: ["Not enough balance."]`.
    pub errors: BTreeMap<String, Vec<String>>,
    /// What the error means.
    pub class: ApiErrorClass,
    /// What an order endpoint's refusal means: set for a 4xx answer of an order operation (an
    /// order of any type, a bulk order, an OCO, a modify, a cancel) carrying one of the order
    /// pages' codes (30–43, 10, 111–116), whose [`class`](Self::class) it also decides;
    /// `None` for any other error (codes are per endpoint: code 10 means something else
    /// elsewhere).
    pub refusal: Option<OrderRefusal>,
    /// The raw body, truncated to [`ApiError::MAX_RAW`] bytes.
    pub raw: String,
    /// The response's `Retry-After`, if it had one.
    pub retry_after: Option<RetryAfter>,
    /// The response's `Date` header: the server's clock, to the second.
    pub server_date: Option<std::time::SystemTime>,
    /// For a window-mode nonce the exchange found outside its ±5 s window: how far the
    /// client's nonce clock is off, as far as the client can tell (the response's `Date`
    /// against the attempt's signing and receiving time, good to about a second); `None` when
    /// the response had no `Date`. Correct it with the client's `sync_clock`.
    pub clock_skew: Option<crate::ClockOffset>,
}

/// A response's `Retry-After`: a number of seconds, or an HTTP date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RetryAfter {
    /// Wait this long from the response.
    Delay(std::time::Duration),
    /// Wait until this time.
    At(std::time::SystemTime),
}

impl RetryAfter {
    /// Parses a `Retry-After` header value: delay-seconds or an HTTP date; `None` otherwise.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use txc_core::decode::RetryAfter;
    /// assert_eq!(RetryAfter::parse("3"), Some(RetryAfter::Delay(Duration::from_secs(3))));
    /// assert_eq!(
    ///     RetryAfter::parse("Sun, 06 Nov 1994 08:49:37 GMT"),
    ///     Some(RetryAfter::At(UNIX_EPOCH + Duration::from_secs(784_111_777)))
    /// );
    /// assert_eq!(RetryAfter::parse("soon"), None);
    /// ```
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
            return value
                .parse()
                .ok()
                .map(|s| Self::Delay(std::time::Duration::from_secs(s)));
        }
        httpdate::parse_http_date(value).ok().map(Self::At)
    }

    /// The wait left at `now`.
    pub fn delay_at(self, now: std::time::SystemTime) -> std::time::Duration {
        match self {
            Self::Delay(d) => d,
            Self::At(t) => t.duration_since(now).unwrap_or_default(),
        }
    }
}

impl ApiError {
    /// The most raw body kept, in bytes.
    pub const MAX_RAW: usize = 1024;

    /// Whether this is the exchange's answer to a window-mode nonce outside its ±5 s window
    /// ("Your nonce is more than 5 seconds lesser than the current nonce").
    pub fn is_nonce_outside_window(&self) -> bool {
        self.class == ApiErrorClass::Nonce
            && super::messages::is_nonce_outside_window(&self.message)
    }

    /// The messages of one field.
    pub fn field_errors(&self, field: &str) -> &[String] {
        self.errors.get(field).map_or(&[], Vec::as_slice)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exchange answered HTTP {} ({})", self.status, self.class)?;
        if let Some(code) = self.code {
            write!(f, " code {code}")?;
        }
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        for (field, messages) in &self.errors {
            if messages.iter().any(|m| !m.is_empty()) {
                write!(f, "; {field}: {}", messages.join(" "))?;
            }
        }
        if self.is_nonce_outside_window() {
            match self.clock_skew {
                Some(skew) => write!(
                    f,
                    "; {skew} (from the response's Date header, to about a second): fix the clock or call sync_clock"
                )?,
                None => f.write_str(
                    "; the local clock is probably off: measure it with server_time or sync_clock",
                )?,
            }
        }
        Ok(())
    }
}

impl StdError for ApiError {}

/// Why a response could not be understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The body was empty.
    Empty,
    /// The body was an HTML page (typically from a proxy).
    Html,
    /// The body was not JSON, or was truncated.
    NotJson,
    /// The body was JSON of an unexpected shape.
    Shape,
}

/// A response that could not be decoded, with the status and a short redacted snippet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot decode the response to {operation} (HTTP {status}, {kind:?}): {detail}; body starts {snippet:?}"
)]
#[non_exhaustive]
pub struct DecodeError {
    /// The operation whose response it was.
    pub operation: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// What was wrong.
    pub kind: DecodeErrorKind,
    /// The parser's explanation.
    pub detail: String,
    /// The start of the body, with long token-like runs redacted.
    pub snippet: String,
    /// The response's `Retry-After`, if it had one.
    pub retry_after: Option<RetryAfter>,
}
