//! [`CloseSearch`]: finding out what became of a position a close was sent for — the open
//! positions of its market, then its history — and [`ResolveClose`], the [`Resolver`] with it.

use std::time::{SystemTime, UNIX_EPOCH};

use txc_types::positions::{OpenPositionsQuery, Position, PositionEvent, PositionHistoryQuery};
use txc_types::values::{Market, Timestamp};

use super::close::CloseResolution;
use super::evidence::{AcceptanceWindow, Evidence, Flaw, Sighting};
use super::pending_close::{PendingClose, UnresolvedClose};
use super::resolver::Resolver;
use super::search::{Lookup, Outcome, Presence, RoundFindings, RoundMachine, Search};
use crate::machine::Call;
use crate::{AttemptRecord, ClientCore, Error, Machine, Response, Step, TransportError};

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

/// The position as a round of [`CloseSearch`] saw it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PositionState {
    /// Listed among the open positions: the close has not taken effect (yet).
    Open(Box<Position>),
    /// Absent from the open positions, with this latest event in its history: closed.
    Closed(Box<PositionEvent>),
}

/// The look-ups that find out whether a position was closed (the [`Search`] of
/// [`ResolveClose`]).
///
/// A round asks the open positions of the market (`POST
/// /api/v4/collateral-account/positions/open`); when the position is not listed, its events in
/// the position history (`…/positions/history`). Listed: [`PositionState::Open`] — the close's
/// absence, which the rule proves. Not listed, with an event: [`PositionState::Closed`], the
/// close's effect (by whatever closed it), which two rounds the settling delay apart prove
/// ([`Presence::Twice`]). An answer listing another market or position leaves the round proving
/// nothing; a position neither open nor in its history, too.
#[derive(Debug, Clone)]
pub struct CloseSearch {
    close: PendingClose,
}

impl CloseSearch {
    /// The search for what became of `close`.
    pub fn new(close: PendingClose) -> Self {
        Self { close }
    }

    /// The close searched for.
    pub fn close(&self) -> &PendingClose {
        &self.close
    }
}

impl Search for CloseSearch {
    type Record = PositionState;
    type Answer = CloseResolution;

    fn attempts(&self) -> &[AttemptRecord] {
        self.close.attempts()
    }

    fn presence(&self) -> Presence {
        Presence::Twice
    }

    fn is_ours(&self, record: &PositionState, _inside: bool) -> bool {
        matches!(record, PositionState::Closed(_))
    }

    fn round<'a>(
        &self,
        core: &'a ClientCore,
        _window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, PositionState> {
        let market = self.close.market().clone();
        let mut round = CloseRound {
            core,
            id: self.close.position_id(),
            market: market.clone(),
            stage: Stage::Done,
            findings: RoundFindings::default(),
        };
        match OpenPositionsQuery::of_market(market) {
            Ok(query) => round.stage = Stage::Open(core.call_owned(query)),
            Err(e) => round.findings.failure = Some(e.into()),
        }
        Box::new(round)
    }

    fn answer(
        &self,
        _core: &ClientCore,
        outcome: Outcome<PositionState>,
    ) -> Result<CloseResolution, Error> {
        let open = |others: Vec<PositionState>| {
            others.into_iter().rev().find_map(|state| match state {
                PositionState::Open(position) => Some(position),
                PositionState::Closed(_) => None,
            })
        };
        match outcome {
            Outcome::Found(PositionState::Closed(event), evidence) => {
                Ok(CloseResolution::Closed(event, evidence))
            }
            Outcome::Absent(others, evidence) => match open(others) {
                Some(position) => Ok(CloseResolution::StillOpen(position, evidence)),
                None => Err(self.unknown(
                    Error::Unproven {
                        reason: "the position was not listed in the rounds that proved the \
                                 close absent"
                            .to_owned(),
                    },
                    evidence,
                )),
            },
            Outcome::Found(_, evidence) | Outcome::Ambiguous(_, evidence) => Err(self.unknown(
                Error::Unproven {
                    reason: "the look-ups showed no closed position".to_owned(),
                },
                evidence,
            )),
        }
    }

    fn unknown(&self, cause: Error, evidence: Evidence) -> Error {
        let unresolved = UnresolvedClose::new("resolve_close", self.close.clone(), cause)
            .with_evidence(evidence);
        Error::CloseUnknown(Box::new(unresolved))
    }
}

/// Where a round is.
enum Stage<'a> {
    Open(Call<'a, OpenPositionsQuery>),
    History(Call<'a, PositionHistoryQuery>),
    Done,
}

/// One round of [`CloseSearch`].
struct CloseRound<'a> {
    core: &'a ClientCore,
    id: u64,
    market: Market,
    stage: Stage<'a>,
    findings: RoundFindings<PositionState>,
}

/// A record's time on the exchange's clock (the epoch when it has none).
fn time_of(times: [Option<&Timestamp>; 2]) -> SystemTime {
    times
        .into_iter()
        .flatten()
        .next()
        .map_or(UNIX_EPOCH, Timestamp::to_system_time)
}

impl CloseRound<'_> {
    fn finish(&mut self) -> Step<RoundFindings<PositionState>> {
        self.stage = Stage::Done;
        Step::Done(std::mem::take(&mut self.findings))
    }

    fn fail(&mut self, error: Error) -> Step<RoundFindings<PositionState>> {
        self.findings.fail(error);
        self.finish()
    }

    fn flawed(&self) -> bool {
        self.findings.looks.iter().any(|l| l.flaw.is_some())
    }

    /// Notes the open positions: whether the position is listed.
    fn open_positions(&mut self, positions: Vec<Position>) -> bool {
        let mut listed = false;
        for position in positions {
            if position.market != self.market {
                self.findings.flaw(Flaw::FilterIgnored {
                    id: position.position_id,
                });
            } else if position.position_id == self.id {
                listed = true;
                let at = time_of([position.modify_date.as_ref(), position.open_date.as_ref()]);
                let state = PositionState::Open(Box::new(position));
                self.findings.candidate(Sighting::new(self.id, at), state);
            }
        }
        listed
    }

    /// Notes the position's history: its latest event, if it has one.
    fn history(&mut self, events: Vec<PositionEvent>) {
        for event in &events {
            if event.position_id != self.id || event.market != self.market {
                self.findings.flaw(Flaw::FilterIgnored {
                    id: event.position_id,
                });
            }
        }
        if self.flawed() {
            return;
        }
        let at = |e: &PositionEvent| time_of([e.modify_date.as_ref(), e.open_date.as_ref()]);
        match events.into_iter().max_by_key(at) {
            Some(event) => {
                let sighting = Sighting::new(self.id, at(&event));
                let state = PositionState::Closed(Box::new(event));
                self.findings.candidate(sighting, state);
            }
            None => self.findings.flaw(Flaw::Incomplete(format!(
                "position {} is neither open nor in its history (yet)",
                self.id
            ))),
        }
    }
}

impl Machine for CloseRound<'_> {
    type Output = RoundFindings<PositionState>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match &mut self.stage {
            Stage::Open(call) => match self.findings.answer("open_positions", call, now) {
                Lookup::Pending(step) => step,
                Lookup::Failed(e) => self.fail(e),
                Lookup::Answered(positions) => {
                    let listed = self.open_positions(positions);
                    if listed || self.flawed() {
                        return self.finish();
                    }
                    let query = PositionHistoryQuery::of_position(self.market.clone(), self.id);
                    self.stage = Stage::History(self.core.call_owned(query));
                    self.next(now)
                }
            },
            Stage::History(call) => match self.findings.answer("position_history", call, now) {
                Lookup::Pending(step) => step,
                Lookup::Failed(e) => self.fail(e),
                Lookup::Answered(events) => {
                    self.history(events);
                    self.finish()
                }
            },
            Stage::Done => Step::Done(std::mem::take(&mut self.findings)),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Open(call) => call.receive(response),
            Stage::History(call) => call.receive(response),
            Stage::Done => {}
        }
    }
}
