//! [`Search`]: the look-ups that find one kind of operation again — what a [`Resolver`]
//! needs to know of it — [`RoundFindings`], what one round of them found, and [`Outcome`],
//! what the resolver proved before the operation names it.
//!
//! [`Resolver`]: crate::Resolver

use std::time::SystemTime;

use super::evidence::{AcceptanceWindow, Evidence, Look, Sighting};
use txc_types::endpoint::Endpoint;

use crate::machine::Call;
use crate::{AttemptRecord, ClientCore, Error, Machine, NonceMode, Step};

/// What a round of look-ups found.
#[derive(Debug)]
#[non_exhaustive]
pub struct RoundFindings<R> {
    /// Each look-up made, in order (a failed one carries its [`Flaw`](crate::Flaw) and ends
    /// the round).
    pub looks: Vec<Look>,
    /// The records carrying the identifier looked for, with the look-up (index into
    /// [`looks`](Self::looks)) that found each.
    pub candidates: Vec<Candidate<R>>,
    /// The error of the look-up that failed, if one did.
    pub failure: Option<Error>,
}

/// What stepping a look-up's call came to ([`RoundFindings::answer`]).
pub(crate) enum Lookup<T, U> {
    /// Still running: the step to hand on.
    Pending(Step<U>),
    /// It failed.
    Failed(Error),
    /// It answered.
    Answered(T),
}

impl<R> Default for RoundFindings<R> {
    fn default() -> Self {
        Self {
            looks: Vec::new(),
            candidates: Vec::new(),
            failure: None,
        }
    }
}

impl<R> RoundFindings<R> {
    /// Steps `call`, a look-up of `operation`: the step to hand on while it runs; once it
    /// ends, notes the look-up (sent when its last attempt was signed, answered `now`) and
    /// gives what it answered.
    pub(crate) fn answer<E: Endpoint, U>(
        &mut self,
        operation: &'static str,
        call: &mut Call<'_, E>,
        now: SystemTime,
    ) -> Lookup<E::Response, U> {
        match call.next(now).forward() {
            Ok(step) => Lookup::Pending(step),
            Err(outcome) => {
                let sent = call.attempts().last().map_or(now, |a| a.signed_at);
                self.look(operation, sent, now);
                match outcome {
                    Ok(answer) => Lookup::Answered(answer),
                    Err(error) => Lookup::Failed(error),
                }
            }
        }
    }

    /// Notes a look-up of `operation` signed at `sent_at` and answered at `answered_at` — or,
    /// when the latest look-up is of the same operation, its next page.
    pub fn look(&mut self, operation: &'static str, sent_at: SystemTime, answered_at: SystemTime) {
        match self.looks.last_mut() {
            Some(look) if look.operation == operation => {
                look.requests = look.requests.saturating_add(1);
                look.sent_at = look.sent_at.min(sent_at);
            }
            _ => self.looks.push(Look::new(operation, sent_at, answered_at)),
        }
    }

    /// Notes `record`, seen as `sighting` by the latest look-up.
    pub fn candidate(&mut self, sighting: Sighting, record: R) {
        let look = self.looks.len().saturating_sub(1);
        if let Some(l) = self.looks.last_mut() {
            l.seen.push(sighting.clone());
        }
        self.candidates.push(Candidate::new(look, sighting, record));
    }

    /// Marks the latest look-up with `flaw`, unless it has one.
    pub fn flaw(&mut self, flaw: crate::Flaw) {
        if let Some(look) = self.looks.last_mut()
            && look.flaw.is_none()
        {
            look.flaw = Some(flaw);
        }
    }

    /// Takes in the looks and records of `other`, a round of another search made as part of
    /// this one, each record made one of this search's by `record`.
    pub(crate) fn extend_with<S>(&mut self, other: RoundFindings<S>, record: impl Fn(S) -> R) {
        let offset = self.looks.len();
        self.looks.extend(other.looks);
        self.candidates
            .extend(other.candidates.into_iter().map(|c| Candidate {
                look: c.look.saturating_add(offset),
                sighting: c.sighting,
                record: record(c.record),
            }));
        if other.failure.is_some() {
            self.failure = other.failure;
        }
    }

    /// Ends the round with `error`: the latest look-up failed.
    pub fn fail(&mut self, error: Error) {
        self.flaw(crate::Flaw::Failed(error.to_string()));
        self.failure = Some(error);
    }
}

/// A record a look-up found carrying the identifier looked for.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Candidate<R> {
    /// The look-up that found it: an index into [`RoundFindings::looks`].
    pub look: usize,
    /// Its id and creation time.
    pub sighting: Sighting,
    /// The record.
    pub record: R,
}

impl<R> Candidate<R> {
    /// The record `record` seen as `sighting` by look-up `look`.
    pub fn new(look: usize, sighting: Sighting, record: R) -> Self {
        Self {
            look,
            sighting,
            record,
        }
    }
}

/// A round of look-ups: a [`Machine`] a transport drives, finishing with what it found.
pub type RoundMachine<'a, R> = Box<dyn Machine<Output = RoundFindings<R>> + Send + 'a>;

/// What proves that an operation was carried out, once a round found a record of the
/// attempts' ([`Search::is_ours`]). Absence is proven the same way for every operation
/// ([`AbsenceRule`](crate::AbsenceRule)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Presence {
    /// Any round that finds it, at any time: the record carries an identifier of the
    /// attempts' and was created inside their window (an order, by its `clientOrderId`).
    Sighted,
    /// Only a round late enough to prove absence: by then every record of the attempts exists
    /// and shows, so that several inside the window are seen together — and, carrying no
    /// identifier of the attempts', cannot be told apart (an investment: a record of the plan
    /// and amount). No round is made before then but to learn the fence (strict nonces).
    Settled,
    /// Two rounds the settling delay apart, both finding it, at any time: one answer may lag
    /// (a position absent from the open positions is closed only if it stays absent).
    Twice,
}

/// What a [`Resolver`](crate::Resolver) proved, which [`Search::answer`] names for its
/// operation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Outcome<R> {
    /// A record of the attempts', found as the search's [`Presence`] requires.
    Found(R, Evidence),
    /// Several records inside the window, in a round that saw every record of the attempts:
    /// one may be theirs, which cannot be told ([`Presence::Settled`] only).
    Ambiguous(Vec<R>, Evidence),
    /// Absence, proven twice by the rule; with what the last round saw that was not the
    /// attempts' (someone else's records; for a close, the position still open).
    Absent(Vec<R>, Evidence),
}

/// The look-ups that find one kind of operation again (an order by its `clientOrderId`; a
/// position's close; an investment by its plan and amount), for a
/// [`Resolver`](crate::Resolver), which applies the one proof rule
/// ([`AbsenceRule`](crate::AbsenceRule)) to whatever they find.
pub trait Search {
    /// What a found record is.
    type Record;
    /// The operation's answer, made of an [`Outcome`] by [`answer`](Self::answer).
    type Answer;

    /// Every attempt of the operation, oldest first. None known: every attempt is taken to
    /// have been sent before the resolver's first look-up.
    fn attempts(&self) -> &[AttemptRecord];

    /// Every attempt made over the WebSocket (no nonce), oldest first; none by default.
    fn socket_attempts(&self) -> &[crate::socket::SocketAttempt] {
        &[]
    }

    /// How the exchange checked the attempts' nonces: the client's mode, unless the
    /// operation's record says otherwise.
    fn nonce_mode(&self, core: &ClientCore) -> NonceMode {
        core.nonce_mode()
    }

    /// What proves the operation was carried out.
    fn presence(&self) -> Presence {
        Presence::Sighted
    }

    /// Whether `record`, created inside the attempts' window (`inside`) or not, is the
    /// attempts' own: by default, whether it was created inside the window.
    fn is_ours(&self, record: &Self::Record, inside: bool) -> bool {
        let _ = record;
        inside
    }

    /// A round of look-ups. `window` is the attempts' acceptance window when known (with
    /// strict nonces it is not before the first look-up): a round uses it to decide how far to
    /// look (say, reading a whole list when a filtered answer shows only someone else's
    /// record) and may stop at the first record inside it.
    fn round<'a>(
        &self,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, Self::Record>;

    /// The operation's answer to what was proven — called once, when the outcome is
    /// definite (to clear the operation's journal entry, say) — or the error to end with when
    /// the outcome makes no answer of the operation's.
    fn answer(
        &self,
        core: &ClientCore,
        outcome: Outcome<Self::Record>,
    ) -> Result<Self::Answer, Error>;

    /// The error an unknown outcome ends with, carrying `cause` and the evidence.
    fn unknown(&self, cause: Error, evidence: Evidence) -> Error;

    /// Called once when resolving ends without a definite answer, with why: the operation's
    /// record stays unresolved, noted with `reason` (in the client's ledger and journal, say).
    /// Nothing by default.
    fn unresolved(&self, core: &ClientCore, reason: &str) {
        let _ = (core, reason);
    }

    /// What is being resolved, in a few words (`order <id> on <market>`), for the stages
    /// resolving reports ([`ResolveStage`](crate::ResolveStage)).
    fn subject(&self) -> String {
        "the operation".to_owned()
    }
}
