//! Closing a position — a trade — and finding out, after a failure that leaves it unknown,
//! whether it was closed: [`Close`], [`PendingClose`], [`ResolveClose`] and what it answers
//! ([`CloseResolution`], with the [`CloseProof`] behind it). The rule is [`ResolveClose`]'s.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::endpoint::Acknowledged;
use txc_types::orders::PositionSide;
use txc_types::positions::{
    ClosePosition, OpenPositionsQuery, Position, PositionEvent, PositionHistoryQuery,
};
use txc_types::values::Market;

use crate::call::Call;
use crate::{AttemptRecord, ClientCore, Error, Machine, NonceMode, Response, Step, TransportError};

/// How long after its acceptance a close is given to take effect (not documented: the
/// client's bound).
pub const TAKE_EFFECT: Duration = Duration::from_secs(5);
/// The documented acceptance window resolving a close waits out: [`NONCE_WINDOW`](crate::NONCE_WINDOW) plus
/// [`TAKE_EFFECT`].
pub const DOCUMENTED_ACCEPTANCE_WINDOW: Duration = Duration::from_secs(10);
/// The most look-up rounds resolving a close makes before it answers "unknown".
pub const MAX_CLOSE_ROUNDS: usize = 8;
/// The resolution of the `Date` header.
const DATE_RESOLUTION: Duration = Duration::from_secs(1);

/// A close whose outcome is unknown: the position (market, id, side sent) and every attempt to
/// close it. Carried by [`Error::CloseUnknown`]; give it to the client's `resolve_close`.
///
/// ```
/// use std::time::SystemTime;
/// use txc_sign::{AttemptRecord, Nonce, PendingClose};
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
}

impl UnresolvedClose {
    /// The context of a close of `operation` whose outcome `cause` left unknown.
    pub fn new(operation: &'static str, close: PendingClose, cause: Error) -> Self {
        Self {
            operation,
            close,
            cause,
        }
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

/// What resolving a close found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CloseResolution {
    /// The position is not open: it was closed (by this close or anything else — a stop-loss,
    /// a liquidation). Nothing more to do.
    Closed(CloseProof),
    /// The position is still open, and no attempt of the close can take effect any more:
    /// closing it again is safe. Its latest state.
    StillOpen(Box<Position>, CloseProof),
}

impl CloseResolution {
    /// What proved it.
    pub fn proof(&self) -> &CloseProof {
        match self {
            Self::Closed(proof) | Self::StillOpen(_, proof) => proof,
        }
    }
}

/// What a [`CloseResolution`] rests on.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CloseProof {
    /// Every look-up round, in order.
    pub rounds: Vec<LookupRound>,
    /// The exchange's time after which no attempt could still be accepted and take effect
    /// (rounded up to its `Date` header's second); `None` while unknown (strict nonces, before
    /// the first look-up).
    pub attempts_settled_at: Option<SystemTime>,
    /// The position's latest event in the history (its close, once closed), if any.
    pub last_event: Option<PositionEvent>,
}

/// One round of look-ups: the open positions of the market, then the position's history.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LookupRound {
    /// The exchange's time of the round: the earlier `Date` header of its two answers (or the
    /// local clock corrected by the key's offset, without one).
    pub answered_at: SystemTime,
    /// Whether that time came from the exchange's `Date` headers.
    pub dated: bool,
    /// Whether the position was listed open.
    pub open: bool,
}

/// One round as resolving keeps it.
#[derive(Debug, Clone)]
struct Round {
    at: SystemTime,
    dated: bool,
    open: Option<Position>,
    last_event: Option<PositionEvent>,
}

enum Stage<'a> {
    /// Wait until this local time, then start a round.
    Wait(SystemTime),
    /// The open positions of the market.
    Open(Call<'a, OpenPositionsQuery>),
    /// The position's history; the open-positions part of the round.
    History(
        Call<'a, PositionHistoryQuery>,
        Option<Box<Position>>,
        Option<SystemTime>,
    ),
    Finished,
}

/// Resolves a [`PendingClose`] by the rule below: a [`Machine`] whose output is a
/// [`CloseResolution`], or [`Error::CloseUnknown`] with the reason when it cannot tell.
///
/// # The rule
///
/// A close is never sent again blindly. When no answer says what became of it, the client
/// answers [`Error::CloseUnknown`] with a [`PendingClose`] (market, position id, every attempt's
/// nonce and signing time), and resolving looks the position up in **rounds**: the open
/// positions of its market, then its events in the position history. Every answer says what
/// proved it:
///
/// - **Closed**: the position was absent from the open positions in two rounds at least the
///   settling delay apart. A closed position's id never opens again (the history lists each
///   position's life under its id; the docs do not say so in words), so absence needs no wait
///   for the attempts to age; the second round guards against an answer that lags.
/// - **Still open**: the position was listed in two rounds at least the settling delay apart,
///   the first of them answered when no attempt could still be accepted and take effect. When
///   that is, is the exchange's documented rules, on its own clock:
///   - with `nonceWindow`, a request is accepted only within ±5 s of its nonce, so no attempt
///     is accepted after `max(nonce) + 5 s`;
///   - without it, a nonce is accepted only if greater than every earlier one of the key, so no
///     attempt is accepted after the exchange accepted the resolver's first look-up (its
///     answer's `Date`, plus that header's one-second resolution);
///   - plus 5 s for an accepted close to take effect (the docs give no bound; this one is the
///     client's).
///
///   A round counts only if the exchange's own `Date` on its answers is at or after that time
///   (a round dated before it proves nothing, and another is made once the time has passed,
///   judged by the skew measured from those same `Date` headers). Without a `Date` header the
///   local clock, corrected by the key's clock offset, stands in.
/// - Anything else is **unknown**, with the reason: a look-up failed; an answer listed another
///   market or position (a filter ignored: nothing is proven); the position was absent, then
///   listed again; or no pair of rounds agreed within eight rounds.
///
/// "Still open" is safe to close again; "closed" needs nothing more — closing again would be
/// refused with code 104.
pub struct ResolveClose<'a> {
    core: &'a ClientCore,
    close: PendingClose,
    stage: Stage<'a>,
    rounds: Vec<Round>,
    /// The index of the round that opens the pair being proven.
    first: Option<usize>,
    /// Strict nonces: the exchange's time at which it accepted the first look-up.
    fence: Option<SystemTime>,
    /// The exchange's clock minus the local one, in ms, as last measured from a `Date`.
    skew_ms: Option<i128>,
    /// The `Date` of the last answer received.
    last_date: Option<SystemTime>,
}

impl<'a> ResolveClose<'a> {
    pub(crate) fn new(core: &'a ClientCore, close: PendingClose) -> Self {
        Self {
            core,
            close,
            stage: Stage::Wait(UNIX_EPOCH),
            rounds: Vec::new(),
            first: None,
            fence: None,
            skew_ms: None,
            last_date: None,
        }
    }

    /// The exchange's time at local `now`: measured skew, else the key's clock offset.
    fn exchange_time(&self, now: SystemTime) -> SystemTime {
        let skew = self
            .skew_ms
            .unwrap_or_else(|| i128::from(self.core.nonces().clock_offset().as_millis()));
        shift(now, skew)
    }

    /// The exchange's time after which no attempt can be accepted and take effect, rounded up
    /// to a whole second (the `Date` header's resolution); `None` until known.
    fn settled_at(&self) -> Option<SystemTime> {
        let window = self.core.acceptance_window;
        let last = match self.core.nonce_mode() {
            NonceMode::Window => {
                let latest = self.close.attempts.iter().map(|a| a.nonce.get()).max();
                UNIX_EPOCH + Duration::from_millis(latest.unwrap_or(0))
            }
            _ => self.fence?,
        };
        Some(ceil_second(last + window))
    }

    /// The local time at which the exchange's clock reaches `at`.
    fn local_time_of(&self, at: SystemTime) -> SystemTime {
        let skew = self
            .skew_ms
            .unwrap_or_else(|| i128::from(self.core.nonces().clock_offset().as_millis()));
        shift(at, -skew)
    }

    /// The exchange's time of an answer received at local `now`, and whether it is dated;
    /// measures the skew from its `Date`.
    fn answered(&mut self, now: SystemTime) -> (SystemTime, bool) {
        match self.last_date.take() {
            Some(date) => {
                self.skew_ms = Some(millis(date) - millis(now));
                (date, true)
            }
            None => (self.exchange_time(now), false),
        }
    }

    fn unknown(&mut self, reason: Error) -> Step<Result<CloseResolution, Error>> {
        self.stage = Stage::Finished;
        let unresolved = UnresolvedClose::new("resolve_close", self.close.clone(), reason);
        Step::Done(Err(Error::CloseUnknown(Box::new(unresolved))))
    }

    fn cannot_tell(&mut self, why: &str) -> Step<Result<CloseResolution, Error>> {
        let reason = Error::invalid_config("resolve_close", why.to_owned());
        self.unknown(reason)
    }

    fn proof(&self) -> CloseProof {
        CloseProof {
            rounds: self
                .rounds
                .iter()
                .map(|r| LookupRound {
                    answered_at: r.at,
                    dated: r.dated,
                    open: r.open.is_some(),
                })
                .collect(),
            attempts_settled_at: self.settled_at(),
            last_event: self.rounds.iter().rev().find_map(|r| r.last_event.clone()),
        }
    }

    /// Judges the round just finished at local `now`: an answer, or the wait before the next.
    fn judge(&mut self, now: SystemTime) -> Step<Result<CloseResolution, Error>> {
        let index = self.rounds.len().saturating_sub(1);
        let Some(round) = self.rounds.last().cloned() else {
            return self.cannot_tell("no look-up was made");
        };
        let settled = self.settled_at();
        let counts = round.open.is_none() || settled.is_some_and(|t| round.at >= t);
        let settle = self.core.settle_delay();
        let next_at = if !counts {
            // Listed while an attempt may still take effect: proves nothing yet.
            self.first = None;
            let until = settled.map_or(now, |t| self.local_time_of(t));
            until.max(now + settle.min(DATE_RESOLUTION))
        } else {
            let first = self.first.and_then(|i| self.rounds.get(i)).cloned();
            match first {
                None => {
                    self.first = Some(index);
                    now + settle
                }
                Some(first) => match (&first.open, &round.open) {
                    (None, None) => {
                        let proof = self.proof();
                        self.stage = Stage::Finished;
                        return Step::Done(Ok(CloseResolution::Closed(proof)));
                    }
                    (Some(_), Some(position)) => {
                        let (position, proof) = (Box::new(position.clone()), self.proof());
                        self.stage = Stage::Finished;
                        return Step::Done(Ok(CloseResolution::StillOpen(position, proof)));
                    }
                    (None, Some(_)) => {
                        return self.cannot_tell(
                            "the position was absent from the open positions, then listed \
                             again: the exchange's answers contradict each other",
                        );
                    }
                    (Some(_), None) => {
                        // Closed in between: the absence starts a pair of its own.
                        self.first = Some(index);
                        now + settle
                    }
                },
            }
        };
        if self.rounds.len() >= MAX_CLOSE_ROUNDS {
            return self.cannot_tell("no two look-up rounds agreed within the most rounds made");
        }
        self.stage = Stage::Wait(next_at);
        self.next(now)
    }
}

impl Machine for ResolveClose<'_> {
    type Output = Result<CloseResolution, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        let market = self.close.market.clone();
        let id = self.close.position_id;
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Wait(until) => {
                if let Ok(wait) = until.duration_since(now)
                    && !wait.is_zero()
                {
                    self.stage = Stage::Wait(until);
                    return Step::Wait(wait);
                }
                match OpenPositionsQuery::of_market(market) {
                    Ok(query) => {
                        self.stage = Stage::Open(self.core.call_owned(query));
                        self.next(now)
                    }
                    Err(e) => self.unknown(e.into()),
                }
            }
            Stage::Open(mut call) => match call.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Open(call);
                    step
                }
                Err(Ok(positions)) => {
                    let (at, dated) = self.answered(now);
                    if self.fence.is_none() && self.core.nonce_mode() != NonceMode::Window {
                        self.fence = Some(at + DATE_RESOLUTION);
                    }
                    if positions.iter().any(|p| p.market != market) {
                        return self.cannot_tell(
                            "the open positions listed another market: the market filter was \
                             ignored, so the answer proves nothing",
                        );
                    }
                    let open = positions
                        .into_iter()
                        .find(|p| p.position_id == id)
                        .map(Box::new);
                    let history = PositionHistoryQuery::of_position(market, id);
                    let call = self.core.call_owned(history);
                    self.stage = Stage::History(call, open, dated.then_some(at));
                    self.next(now)
                }
                Err(Err(e)) => self.unknown(e),
            },
            Stage::History(mut call, open, open_date) => match call.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::History(call, open, open_date);
                    step
                }
                Err(Ok(events)) => {
                    let (at, dated) = self.answered(now);
                    if events
                        .iter()
                        .any(|e| e.position_id != id || e.market != market)
                    {
                        return self.cannot_tell(
                            "the position history listed another position: the filter was \
                             ignored, so the answer proves nothing",
                        );
                    }
                    // The round's time: the earlier of its answers' (both dated, or the round
                    // does not count as dated).
                    let (at, dated) = match open_date {
                        Some(first) if dated => (first.min(at), true),
                        _ => (at, false),
                    };
                    let last_event = events
                        .into_iter()
                        .max_by(|a, b| a.modify_date.cmp(&b.modify_date));
                    self.rounds.push(Round {
                        at,
                        dated,
                        open: open.map(|p| *p),
                        last_event,
                    });
                    self.judge(now)
                }
                Err(Err(e)) => self.unknown(e),
            },
            Stage::Finished => Step::Done(Err(Error::invalid_config(
                "resolve_close",
                "the resolution has already finished",
            ))),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Ok(answer) = &response {
            self.last_date = answer.date();
        }
        match &mut self.stage {
            Stage::Open(call) => call.receive(response),
            Stage::History(call, _, _) => call.receive(response),
            Stage::Wait(_) | Stage::Finished => {}
        }
    }
}

/// `t` in Unix milliseconds (0 before the epoch).
fn millis(t: SystemTime) -> i128 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_millis()).unwrap_or(i128::MAX))
}

/// `t` moved by `ms` milliseconds (either way), saturating at the epoch.
fn shift(t: SystemTime, ms: i128) -> SystemTime {
    let target = millis(t).saturating_add(ms).max(0);
    UNIX_EPOCH + Duration::from_millis(u64::try_from(target).unwrap_or(u64::MAX))
}

/// `t` rounded up to a whole second.
fn ceil_second(t: SystemTime) -> SystemTime {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() + u64::from(since.subsec_nanos() > 0);
    UNIX_EPOCH + Duration::from_secs(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_shift_and_round_up() {
        let t = UNIX_EPOCH + Duration::from_millis(10_500);
        assert_eq!(ceil_second(t), UNIX_EPOCH + Duration::from_secs(11));
        assert_eq!(
            ceil_second(UNIX_EPOCH + Duration::from_secs(3)),
            UNIX_EPOCH + Duration::from_secs(3)
        );
        assert_eq!(shift(t, -500), UNIX_EPOCH + Duration::from_secs(10));
        assert_eq!(shift(t, -20_000), UNIX_EPOCH);
        assert_eq!(millis(t), 10_500);
    }
}
