//! The modules of a client's surface that hold only this crate's and `txc-types`' items —
//! [`endpoint`], [`errors`], [`outcomes`], [`settings`] — written once here and re-exported
//! (inlined) by `txc-async` and `txc-blocking`, so that both transports show the same modules
//! with the same items. Not a module of this crate's own surface: its items are in the
//! crate's modules and in `txc-sign`.

pub mod endpoint {
    //! Operations as values: the [`Endpoint`] trait — for a client's `send` with an operation it
    //! has no method for — with what its requests are made of, and the [`SignedRequest`] a dry
    //! run (a client's `prepare`) returns.

    pub use txc_sign::SignedRequest;
    pub use txc_types::endpoint::{
        Acknowledged, Endpoint, EndpointKind, FieldValue, RateLimit, Validated, WireValue,
    };
}

pub mod errors {
    //! The parts of the crate's [`Error`](crate::Error): what the exchange answered
    //! ([`ApiError`]), what the connection did ([`TransportError`], with its [`Delivery`]), an
    //! answer that could not be read ([`DecodeError`]), a refused pacing slot ([`Throttled`]),
    //! an order left unresolved ([`Unresolved`]) and a request value refused before anything
    //! was sent ([`ValidationError`]).

    pub use crate::decode::{
        ApiError, ApiErrorClass, DecodeError, DecodeErrorKind, Delivery, RetryAfter, Throttled,
        TransportError, TransportErrorKind, Unresolved,
    };
    pub use crate::resolve::{
        UnresolvedBulk, UnresolvedClose, UnresolvedInvestment, UnresolvedModify, UnresolvedMove,
    };
    #[cfg(feature = "decimal")]
    pub use txc_types::errors::DecimalRangeError;
    pub use txc_types::errors::{Bound, Reason, ValidationError};
}

pub mod outcomes {
    //! An operation whose outcome is unknown — an order ([`PendingOrder`]: market,
    //! `clientOrderId`, each attempt's [`AttemptRecord`] and [`Nonce`]), a close
    //! ([`PendingClose`]), an operation that moves money ([`MoneyMove`]: [`PendingMove`] — an
    //! investment [`PendingInvestment`], a flex investment [`PendingFlexInvest`], a flex
    //! withdrawal [`PendingFlexWithdraw`] —, signed in a [`NonceMode`]); a [`Journal`]
    //! persists each one's [`PendingRecord`] before each attempt and gives the records back to
    //! the next client built with it — what resolving it found ([`Resolution`], [`Placed`]: a
    //! [`Found`] [`PlacedOrder`]; [`CloseResolution`]; [`InvestResolution`] and
    //! [`FlexResolution`] (a [`MoveResolution`]), and what doing it exactly once answers,
    //! [`Invested`], [`FlexDone`]) and what proved it: the one [`Evidence`] of every operation —
    //! the [`AcceptanceWindow`] and its [`Span`]s, the exchange's [`ClockBounds`], each
    //! [`Round`] of [`Look`]s with their [`Sighting`]s, [`Flaw`]s and [`RoundVerdict`] — by the
    //! one rule [`Resolve`] states, with the [`NONCE_WINDOW`] and the assumed
    //! [`CREATION_ALLOWANCE`] ([`ResolveClose`], [`ResolveInvestment`], [`ResolveFlexInvest`]
    //! and [`ResolveFlexWithdraw`] say what proves a close, an investment, a flex investment
    //! and a withdrawal, the last three by whether other [`InvestmentWriters`] may act with the
    //! key) — and each [`ResolveStage`] ([`StageKind`]) resolving goes through. A flex
    //! investment's close and auto-reinvestment ([`StateChange`]) are resolved by its state
    //! instead: [`StateReached`]. A modify ([`PendingModify`]) is resolved by reading the order:
    //! [`ModifyResolution`], by [`ResolveModify`]; an OCO pair's record and each item of a bulk
    //! order are orders too ([`PlacedOco`] found by [`ResolveOco`]). Placing exactly once takes
    //! any [`Placeable`] order; a bulk order placed exactly once answers each item ([`BulkItem`]
    //! of [`BulkPlaced`]); a cancel settled exactly once, its [`CancelOutcome`].

    pub use crate::machine::AttemptRecord;
    pub use crate::pacing::ClockBounds;
    pub use crate::resolve::{
        AcceptanceWindow, BulkItem, BulkPlaced, CREATION_ALLOWANCE, CancelOutcome, CloseResolution,
        Evidence, Flaw, FlexDone, FlexResolution, Found, InvestResolution, Invested,
        InvestmentWriters, Journal, Look, ModifyResolution, MoneyMove, MoveResolution,
        NONCE_WINDOW, PendingClose, PendingFlexInvest, PendingFlexWithdraw, PendingInvestment,
        PendingModify, PendingMove, PendingOrder, PendingRecord, Placeable, Placed, PlacedOco,
        PlacedOrder, Resolution, Resolve, ResolveClose, ResolveFlexInvest, ResolveFlexWithdraw,
        ResolveInvestment, ResolveModify, ResolveOco, ResolveStage, Round, RoundVerdict, Sighting,
        Span, StageKind, StateChange, StateReached,
    };
    pub use txc_sign::nonce::{Nonce, NonceMode};
}

pub mod settings {
    //! What a client's `ClientBuilder` takes beyond its defaults: the
    //! [`RetryPolicy`], pacing ([`RateLimits`], a shared [`RateLimiter`], [`RatePolicy`], the [`RateWait`]s
    //! an `on_rate_wait` observer is told), a
    //! [`FleetWorker`] place for processes sharing a key, the [`ClockOffset`] and the key's
    //! [`NonceSequence`], the checks before an order ([`ModeCheck`], [`MarketRulesCheck`]) —
    //! and [`ClientConfig`], the one
    //! configuration a builder wraps (`ClientBuilder::from(config)`; one configuration can build
    //! a blocking and an async client).

    pub use crate::machine::ClientConfig;
    pub use crate::pacing::{RateLimiter, RateLimits, RatePolicy, RateWait, RetryPolicy};
    pub use crate::risk::{MarketRulesCheck, ModeCheck};
    pub use txc_sign::nonce::{ClockOffset, FleetWorker, NonceSequence};
}
