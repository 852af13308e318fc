//! Closing a position — a trade — and finding out, after a failure that leaves it unknown,
//! whether it was closed: [`Close`], [`PendingClose`], [`ResolveClose`] (the one
//! [`Resolver`] with the close's look-ups, [`CloseSearch`]) and what it answers
//! ([`CloseResolution`], with the [`Evidence`] behind it).

use std::time::SystemTime;

use txc_types::endpoint::Acknowledged;
use txc_types::orders::PositionSide;
use txc_types::positions::{ClosePosition, Position, PositionEvent};
use txc_types::values::Market;

use super::close_search::CloseSearch;
use super::resolver::Resolver;
use crate::machine::Call;
use crate::{AttemptRecord, Error, Evidence, Machine, Response, Step, TransportError};

/// A close whose outcome is unknown: the position (market, id, side sent) and every attempt to
/// close it. Carried by [`Error::CloseUnknown`]; give it to the client's `resolve_close`.
/// Without attempts, every attempt is taken to have been sent before the resolver's first
/// look-up.
///
/// ```
/// use std::time::SystemTime;
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::PendingClose;
/// use txc_sign::nonce::Nonce;
/// let pending = PendingClose::new(
///     "BTC_USDT".parse()?,
///     527,
///     None,
///     vec![AttemptRecord { nonce: Nonce(1_700_000_000_000), signed_at: SystemTime::now() }],
/// );
/// assert_eq!(pending.position_id(), 527);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingClose {
    market: Market,
    position_id: u64,
    position_side: Option<PositionSide>,
    attempts: Vec<AttemptRecord>,
}

impl PendingClose {
    /// A close of the position `position_id` of `market` (sent with `position_side`), in
    /// `attempts`. Without attempts, every attempt is taken to have been sent before the
    /// resolver's first look-up.
    pub fn new(
        market: Market,
        position_id: u64,
        position_side: Option<PositionSide>,
        attempts: Vec<AttemptRecord>,
    ) -> Self {
        Self {
            market,
            position_id,
            position_side,
            attempts,
        }
    }

    /// The market.
    pub fn market(&self) -> &Market {
        &self.market
    }

    /// The position's id.
    pub fn position_id(&self) -> u64 {
        self.position_id
    }

    /// The side the close was sent with.
    pub fn position_side(&self) -> Option<PositionSide> {
        self.position_side
    }

    /// Every attempt, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }
}

/// A close and the failure that ended it: the context of [`Error::CloseUnknown`]. As an error
/// it reads as its cause.
#[derive(Debug)]
#[non_exhaustive]
pub struct UnresolvedClose {
    /// The operation: `close_position`, or `resolve_close` when resolving could not tell.
    pub operation: &'static str,
    /// The close.
    pub close: PendingClose,
    /// Why it is unknown.
    pub cause: Error,
    /// The look-ups resolving made, if it ran.
    pub evidence: Option<Evidence>,
}

impl UnresolvedClose {
    /// The context of a close of `operation` whose outcome `cause` left unknown.
    pub fn new(operation: &'static str, close: PendingClose, cause: Error) -> Self {
        Self {
            operation,
            close,
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

impl std::fmt::Display for UnresolvedClose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.cause.fmt(f)
    }
}

impl std::error::Error for UnresolvedClose {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.source()
    }
}

/// Closes a position: a [`Call`] whose failures that leave the outcome unknown come out as
/// [`Error::CloseUnknown`], carrying the [`PendingClose`] resolving needs. Never resent after
/// such a failure.
pub struct Close<'a> {
    call: Call<'a, ClosePosition>,
}

impl<'a> Close<'a> {
    pub(crate) fn new(call: Call<'a, ClosePosition>) -> Self {
        Self { call }
    }

    fn pending(&self) -> PendingClose {
        let close = self.call.endpoint();
        PendingClose::new(
            close.market().clone(),
            close.position_id(),
            close.side(),
            self.call.attempts().to_vec(),
        )
    }
}

impl Machine for Close<'_> {
    type Output = Result<Acknowledged, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                let unresolved = UnresolvedClose::new("close_position", self.pending(), cause);
                Step::Done(Err(Error::CloseUnknown(Box::new(unresolved))))
            }
            step => step,
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}

/// What resolving a close found, and what proved it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CloseResolution {
    /// The position is not open: it was closed (by this close or anything else — a stop-loss,
    /// a liquidation). Nothing more to do. Its latest event in the position history.
    Closed(Box<PositionEvent>, Evidence),
    /// The position is still open, and no attempt of the close can take effect any more:
    /// closing it again is safe. Its latest state.
    StillOpen(Box<Position>, Evidence),
}

impl CloseResolution {
    /// What proved it.
    pub fn evidence(&self) -> &Evidence {
        match self {
            Self::Closed(_, evidence) | Self::StillOpen(_, evidence) => evidence,
        }
    }
}

/// Resolves a [`PendingClose`]: a [`Resolver`] with the close's look-ups ([`CloseSearch`]),
/// whose output is a [`CloseResolution`], or [`Error::CloseUnknown`] with the reason when it
/// cannot tell.
///
/// # The rule
///
/// A close is never sent again blindly. When no answer says what became of it, the client
/// answers [`Error::CloseUnknown`] with a [`PendingClose`] (market, position id, every attempt's
/// nonce and signing time), and resolving looks the position up in **rounds**: the open
/// positions of its market, then — when it is not listed — its events in the position
/// history. The acceptance window, the exchange's clock, the settling delay and the proof of
/// absence are [`Resolve`](crate::Resolve)'s; every answer says what proved it
/// ([`Evidence`]):
///
/// - **Closed**: two rounds at least the settling delay apart found the position absent from
///   the open positions, with an event in its history (the latest is the answer's). A closed
///   position's id never opens again (the history lists each position's life under its id;
///   the docs do not say so in words), so it needs no wait for the attempts to age; the second
///   round guards against an answer that lags. Closed by anything — a stop-loss, a
///   liquidation — is closed.
/// - **Still open**: the close's absence, proven twice by the rule
///   ([`AbsenceRule`](crate::AbsenceRule)): the position listed in two rounds, the first
///   processed after the exchange's clock passed the attempts' acceptance window — with
///   `nonceWindow` no attempt is accepted after `max(nonce) + 5 s`; with strict nonces none
///   after the exchange accepted the resolver's first look-up — plus the
///   [`CREATION_ALLOWANCE`](crate::CREATION_ALLOWANCE) for an accepted close to take effect
///   (not documented), plus the settling delay; the second the settling delay later.
/// - Anything else is **unknown**, with the reason: a look-up failed; an answer listed
///   another market or position (a filter ignored: nothing is proven); the position was
///   absent, then listed again; or no pair of rounds agreed within the resolver's rounds.
///
/// "Still open" is safe to close again; "closed" needs nothing more — closing again would be
/// refused with code 104.
pub type ResolveClose<'a> = Resolver<'a, CloseSearch>;
