//! [`Resolver`]: finds out, from proof, whether an operation whose outcome is unknown was
//! carried out, whatever the operation: its [`Search`] — for an order
//! ([`Resolve`](super::Resolve)(super::Resolve)), a position's close ([`ResolveClose`](super::ResolveClose)), an
//! investment ([`ResolveInvestment`](super::ResolveInvestment)) — says what to look up and what
//! proves it; every answer carries the [`Evidence`] that proved it.

use std::time::{Duration, SystemTime};

use txc_types::time::{ServerTime, ServerTimeQuery};

use super::evidence::{AcceptanceWindow, Evidence, Flaw, Look, Round, RoundVerdict};
use super::resolve_stage::{ResolveStage, StageKind};
use super::rule::{AbsenceRule, Timing};
use super::search::{Candidate, Outcome, Presence, RoundFindings, RoundMachine, Search};
use crate::machine::Call;
use crate::machine::Wake;
use crate::stream::SightingWatch;
use crate::{
    ApiError, ClientCore, ClockBounds, ClockOffset, Error, Machine, NonceMode, Response, Step,
    TransportError,
};

/// The default settling delay: 10 s. Resolving proves absence with two rounds of look-ups,
/// the first once the exchange's clock is past the attempts' window plus this delay, the
/// second this delay later; it is the longest visibility lag of the look-ups the rounds cover.
pub const DEFAULT_SETTLE_DELAY: Duration = Duration::from_secs(10);

/// The most rounds of look-ups one resolution makes before it gives up as unknown.
const MAX_ROUNDS: usize = 8;

/// What a stream showed of the operation: the watch of its sightings, how a sighting reads as
/// a record, and how far its sightings were judged.
pub(crate) struct EventProof<R> {
    watch: SightingWatch,
    record: fn(&crate::stream::Sighting) -> Option<R>,
    judged: u64,
}

impl<R> EventProof<R> {
    /// The sightings of `watch`, each read as a record by `record` (`None`: it shows none).
    pub(crate) fn new(
        watch: SightingWatch,
        record: fn(&crate::stream::Sighting) -> Option<R>,
    ) -> Self {
        Self {
            watch,
            record,
            judged: 0,
        }
    }
}

/// The look-up an event is written down as in the [`Evidence`]: `event <its method>`.
fn event_look(source: &str) -> &'static str {
    match source {
        "ordersPending_update" => "event ordersPending_update",
        "ordersExecuted_update" => "event ordersExecuted_update",
        "resync" => "event resync",
        _ => "event",
    }
}

/// Where a [`Resolver`] is.
enum Stage<'a, R> {
    /// Not started: the first round goes at once, or waits for the rule
    /// ([`Presence::Settled`]).
    Start,
    /// About to make a round.
    Round(RoundMachine<'a, R>),
    /// Reading the exchange's clock, with the round it needs it for.
    Clock(Box<Call<'a, ServerTimeQuery>>, Option<RoundFindings<R>>),
    /// Waiting to make the next round.
    Waiting(SystemTime),
    /// Done.
    Finished,
}

/// Finds out from proof whether an operation whose outcome is unknown was carried out: a
/// [`Machine`] whose output is the operation's answer ([`Search::Answer`]: a [`Resolution`](super::Resolution)
/// for an order), or an unknown-outcome error when it cannot prove either way. Generic over
/// the [`Search`] that finds the operation — [`Resolve`](super::Resolve) (orders, whose docs state the rule),
/// [`ResolveClose`](crate::ResolveClose), [`ResolveInvestment`](crate::ResolveInvestment); the
/// acceptance window, the clock measurement, the proof of absence ([`AbsenceRule`]) and the
/// [`Evidence`] are the same for every operation, and the search says what proves presence
/// ([`Presence`]).
pub struct Resolver<'a, S: Search> {
    core: &'a ClientCore,
    search: S,
    rule: AbsenceRule,
    evidence: Evidence,
    /// With strict nonces (or attempts not known): the latest the exchange's clock read when
    /// it accepted the first look-up, once one was accepted.
    fence: Option<SystemTime>,
    /// What a stream shows of the operation, when one may.
    events: Option<EventProof<S::Record>>,
    /// With [`Presence::Twice`]: the round that found the record first, awaiting the second.
    sighted: Option<usize>,
    stage: Stage<'a, S::Record>,
}

impl<'a, S: Search> Resolver<'a, S> {
    /// Starts resolving what `search` finds, by `core`'s settings.
    pub fn new(core: &'a ClientCore, search: S) -> Self {
        let rule = core.absence_rule();
        let evidence = Evidence {
            settle_delay: rule.settle_delay(None, core.nonces().clock_offset()),
            guaranteed: rule.is_proven(),
            ..Evidence::default()
        };
        Self {
            core,
            search,
            rule,
            evidence,
            fence: None,
            events: None,
            sighted: None,
            stage: Stage::Start,
        }
    }

    /// The search.
    pub fn search(&self) -> &S {
        &self.search
    }

    /// Takes what a stream shows of the operation as proof too (see [`Resolve`](super::Resolve)'s docs).
    pub(crate) fn with_events(mut self, events: EventProof<S::Record>) -> Self {
        self.events = Some(events);
        self
    }

    /// Ends placed when a sighting not judged yet is a record created inside the window.
    fn by_event(&mut self, now: SystemTime) -> Option<Step<<Self as Machine>::Output>> {
        let events = self.events.as_ref()?;
        let version = events.watch.version();
        if version == events.judged {
            return None;
        }
        // With strict nonces the window is known once a look-up was accepted: the sightings
        // are judged then.
        let window = self.window()?;
        let events = self.events.as_mut()?;
        events.judged = version;
        let sightings = events.watch.all();
        let record = events.record;
        // Judged as a look-up's record is: inside the window, and the search's own test.
        let search = &self.search;
        let (seen, mut sighting, record) = sightings.into_iter().find_map(|seen| {
            let sighting = super::evidence::Sighting::new(seen.order_id, seen.created?);
            let record = record(&seen)?;
            search
                .is_ours(&record, window.admits(&sighting))
                .then_some((seen, sighting, record))
        })?;
        sighting.ours = true;
        let mut look = Look::new(event_look(seen.source), now, now);
        look.requests = 0;
        look.seen.push(sighting);
        self.evidence.clock = self.clock();
        self.evidence.window = Some(window);
        let exchange_sent_at = self.evidence.clock.map(|c| c.earliest(now));
        self.evidence.rounds.push(Round {
            looks: vec![look],
            verdict: RoundVerdict::Found,
            exchange_sent_at,
        });
        Some(self.answer(|evidence| Outcome::Found(record, evidence)))
    }

    /// Whether the window is fenced by the first look-up: strict nonces, or attempts not
    /// known.
    fn fenced(&self) -> bool {
        let sockets = self.search.socket_attempts();
        if self.search.attempts().is_empty() {
            return sockets.is_empty();
        }
        self.search.nonce_mode(self.core) == NonceMode::Strict
    }

    /// The attempts' acceptance window, as far as it is known.
    ///
    /// Attempts over the WebSocket (no nonce) add their own spans
    /// ([`AcceptanceWindow::of_socket`]); with only those, the window is known before any
    /// look-up.
    fn window(&self) -> Option<AcceptanceWindow> {
        let attempts = self.search.attempts();
        let sockets = self.search.socket_attempts();
        let mode = self.search.nonce_mode(self.core);
        let clock = self.clock();
        let socket =
            (!sockets.is_empty()).then(|| AcceptanceWindow::of_socket(sockets, clock.as_ref()));
        let signed = if attempts.is_empty() {
            if let Some(socket) = socket {
                return Some(socket);
            }
            AcceptanceWindow::before_look_up(self.fence?, mode)
        } else {
            match mode {
                NonceMode::Window => AcceptanceWindow::of_nonces(attempts, clock.as_ref()),
                NonceMode::Strict => AcceptanceWindow::of_strict(attempts, &clock?, self.fence?),
            }
        };
        Some(match socket {
            Some(socket) => signed.joined(socket),
            None => signed,
        })
    }

    fn clock(&self) -> Option<ClockBounds> {
        self.core.exchange_clock().bounds()
    }

    /// What the rule judges timing against: `window`'s settling time, `clock`, and the round
    /// that proved absence before, if one did.
    fn timing<'t>(
        &'t self,
        window: Option<&AcceptanceWindow>,
        clock: Option<&'t ClockBounds>,
    ) -> Timing<'t> {
        let previous = self
            .evidence
            .rounds
            .iter()
            .rfind(|r| r.verdict == RoundVerdict::Absent);
        Timing {
            settled_at: window.and_then(|w| self.rule.settled_at(w)),
            clock,
            applied: self.core.nonces().clock_offset(),
            previous,
        }
    }

    /// Ends with the operation's answer to `outcome`.
    fn answer(
        &mut self,
        outcome: impl FnOnce(Evidence) -> Outcome<S::Record>,
    ) -> Step<<Self as Machine>::Output> {
        let evidence = std::mem::take(&mut self.evidence);
        let answer = self.search.answer(self.core, outcome(evidence));
        self.stage = Stage::Finished;
        Step::Done(answer)
    }

    /// Ends unknown, because of `cause`.
    fn unknown(&mut self, cause: Error) -> Step<<Self as Machine>::Output> {
        self.search.unresolved(self.core, &cause.to_string());
        let evidence = std::mem::take(&mut self.evidence);
        let error = self.search.unknown(cause, evidence);
        self.stage = Stage::Finished;
        Step::Done(Err(error))
    }

    /// Ends unknown for `reason` (what to run is added).
    fn unproven(&mut self, reason: impl Into<String>) -> Step<<Self as Machine>::Output> {
        let reason = format!(
            "{}; resolve it again later (the client's resolve, with the pending record), or \
             look it up by hand",
            reason.into()
        );
        self.unknown(Error::Unproven { reason })
    }

    /// Takes in a finished round: classifies what it found, judges it, and goes on.
    fn take(
        &mut self,
        mut findings: RoundFindings<S::Record>,
        now: SystemTime,
    ) -> Step<<Self as Machine>::Output> {
        let hopeless = findings
            .looks
            .iter()
            .find_map(|l| l.flaw.clone())
            .filter(|f| !matches!(f, Flaw::Failed(_) | Flaw::Incomplete(_)));
        if let Some(flaw) = hopeless
            && findings.candidates.is_empty()
        {
            // Asking again the same way cannot prove more, whatever the window and the clock.
            self.evidence.rounds.push(Round {
                looks: findings.looks,
                verdict: RoundVerdict::ProvesNothing,
                exchange_sent_at: None,
            });
            return self.unproven(format!("a look-up proves nothing: {flaw}"));
        }
        let clock = self.clock();
        let accepted = findings
            .looks
            .iter()
            .filter(|l| !matches!(l.flaw, Some(Flaw::Failed(_))))
            .map(|l| l.answered_at)
            .min();
        if self.fenced()
            && self.fence.is_none()
            && let Some(accepted) = accepted
        {
            let Some(clock) = clock else {
                // The fence and the window need the exchange's clock: read it first.
                let call = self.core.call_owned(ServerTimeQuery);
                self.stage = Stage::Clock(Box::new(call), Some(findings));
                return self.next(now);
            };
            self.fence = Some(clock.latest(accepted));
        }
        let window = self.window();
        self.evidence.window.clone_from(&window);
        self.evidence.clock = clock;
        self.evidence.attempts_settled_at = window.as_ref().and_then(|w| self.rule.settled_at(w));
        self.evidence.settle_delay = self
            .rule
            .settle_delay(clock.as_ref(), self.core.nonces().clock_offset());
        for candidate in &mut findings.candidates {
            let inside = window
                .as_ref()
                .is_some_and(|w| w.admits(&candidate.sighting));
            let ours = self.search.is_ours(&candidate.record, inside);
            candidate.sighting.ours = ours;
            if let Some(seen) = findings
                .looks
                .get_mut(candidate.look)
                .and_then(|l| l.seen.iter_mut().find(|s| s.id == candidate.sighting.id))
            {
                seen.ours = ours;
            }
        }
        let first = self.evidence.rounds.is_empty();
        let flawed = findings.looks.iter().find_map(|l| l.flaw.clone());
        let (ours, others): (Vec<_>, Vec<_>) = findings
            .candidates
            .into_iter()
            .partition(|c| c.sighting.ours);
        let mut round = Round {
            exchange_sent_at: None,
            looks: findings.looks,
            verdict: RoundVerdict::ProvesNothing,
        };
        round.exchange_sent_at = clock.zip(round.sent_at()).map(|(c, t)| c.earliest(t));
        let timing = self.timing(window.as_ref(), clock.as_ref());
        let on_time = self.rule.judge(&round, &timing) == RoundVerdict::Absent;
        let presence = self.search.presence();
        if !ours.is_empty() && (presence != Presence::Settled || flawed.is_none()) {
            round.verdict = RoundVerdict::Found;
            match presence {
                Presence::Sighted => {
                    self.evidence.rounds.push(round);
                    return self.found(ours);
                }
                Presence::Settled if on_time => {
                    self.evidence.rounds.push(round);
                    return self.found(ours);
                }
                Presence::Settled => {
                    round.verdict = if first {
                        RoundVerdict::Probe
                    } else {
                        RoundVerdict::TooEarly
                    };
                }
                Presence::Twice => {
                    let settle = self.evidence.settle_delay;
                    let confirms = self
                        .sighted
                        .and_then(|i| self.evidence.rounds.get(i))
                        .and_then(Round::last_sent_at)
                        .and_then(|t| t.checked_add(settle))
                        .zip(round.sent_at())
                        .is_some_and(|(needed, sent)| sent >= needed);
                    self.evidence.rounds.push(round);
                    if confirms {
                        return self.found(ours);
                    }
                    if self.sighted.is_none() {
                        self.sighted = Some(self.evidence.rounds.len().saturating_sub(1));
                    }
                    return self.next_round(None, first, None, now);
                }
            }
        } else if flawed.is_none() {
            if self.sighted.is_some() {
                self.evidence.rounds.push(round);
                return self.unproven(
                    "the look-ups found the record, then not: the exchange's answers \
                     contradict each other",
                );
            }
            round.verdict = match self.rule.judge(&round, &timing) {
                RoundVerdict::TooEarly if first => RoundVerdict::Probe,
                verdict => verdict,
            };
        }
        self.evidence.rounds.push(round);
        if self.evidence.absences() >= 2 {
            let others = others.into_iter().map(|c| c.record).collect();
            return self.answer(|evidence| Outcome::Absent(others, evidence));
        }
        self.next_round(findings.failure, first, flawed, now)
    }

    /// Ends with the records of the attempts' a round found: the first, or — when the round
    /// saw every record of the attempts ([`Presence::Settled`]) and several are inside the
    /// window — all of them, which cannot be told apart.
    fn found(&mut self, ours: Vec<Candidate<S::Record>>) -> Step<<Self as Machine>::Output> {
        // One record an id: an order seen by two look-ups is one order.
        let mut ids: Vec<String> = Vec::new();
        let mut records = Vec::new();
        for candidate in ours {
            if !ids.contains(&candidate.sighting.id) {
                ids.push(candidate.sighting.id);
                records.push(candidate.record);
            }
        }
        if records.len() > 1 && self.search.presence() == Presence::Settled {
            return self.answer(|evidence| Outcome::Ambiguous(records, evidence));
        }
        match records.into_iter().next() {
            Some(record) => self.answer(|evidence| Outcome::Found(record, evidence)),
            None => self.unproven("no record was found"),
        }
    }

    /// Goes on after a round that proved nothing definite: stops on a failure (after the
    /// first round) or a flaw that asking again cannot mend, else waits for the next round.
    fn next_round(
        &mut self,
        failure: Option<Error>,
        first: bool,
        flawed: Option<Flaw>,
        now: SystemTime,
    ) -> Step<<Self as Machine>::Output> {
        if let Some(failure) = failure {
            let nonce_refused = failure.api().is_some_and(ApiError::is_nonce_outside_window);
            if nonce_refused && let Some(clock) = self.clock() {
                // The look-ups' own nonces are off the exchange's clock: correct the key's
                // nonce clock by what was measured (as `sync_clock` would) and look again.
                let mid = (clock.lo().as_millis() / 2).saturating_add(clock.hi().as_millis() / 2);
                self.core
                    .nonces()
                    .set_clock_offset(ClockOffset::from_millis(mid));
            } else if !first {
                return self.unknown(failure);
            }
        }
        if self.evidence.rounds.len() >= MAX_ROUNDS {
            let why = match flawed {
                Some(flaw) => format!("the look-ups prove nothing: {flaw}"),
                None => "the look-ups could not be made late enough to prove absence".to_owned(),
            };
            return self.unproven(format!(
                "{why} (after {} rounds)",
                self.evidence.rounds.len()
            ));
        }
        if let Some(flaw) = flawed
            && !matches!(flaw, Flaw::Failed(_) | Flaw::Incomplete(_))
        {
            // A filter ignored or a record that cannot be placed: asking again the same way
            // cannot prove more.
            return self.unproven(format!("a look-up proves nothing: {flaw}"));
        }
        self.schedule(now)
    }

    /// Waits for the next round, reading the exchange's clock first if the rule needs it.
    fn schedule(&mut self, now: SystemTime) -> Step<<Self as Machine>::Output> {
        let settle = self.evidence.settle_delay;
        if let Some(first) = self.sighted.and_then(|i| self.evidence.rounds.get(i)) {
            // A record seen once: the second look, the settling delay later.
            let ready = first
                .last_sent_at()
                .and_then(|t| t.checked_add(settle))
                .unwrap_or(now);
            self.tell(
                StageKind::Confirming,
                ready.duration_since(now).unwrap_or_default(),
            );
            self.stage = Stage::Waiting(ready);
            return self.next(now);
        }
        let clock = self.clock();
        let window = self.window();
        let timing = self.timing(window.as_ref(), clock.as_ref());
        let (ready_at, first_proof, settled_at) = (
            self.rule.ready_at(&timing),
            timing.previous.is_none(),
            timing.settled_at,
        );
        let ready = match (ready_at, clock) {
            (Some(ready), _) => ready,
            // No answer measured the exchange's clock yet (an investment's first round waits
            // for the rule, with no look-up before): it is read first, so that the round goes
            // when the measured clock says, not a guessed margin after the nonce clock's time.
            (None, None) => {
                self.tell(StageKind::Clock, Duration::ZERO);
                let call = self.core.call_owned(ServerTimeQuery);
                self.stage = Stage::Clock(Box::new(call), None);
                return self.next(now);
            }
            // With strict nonces and no look-up accepted yet: try again after the delay.
            (None, Some(_)) => {
                self.tell(StageKind::Fence, settle);
                self.stage = Stage::Waiting(now.checked_add(settle).unwrap_or(now));
                return self.next(now);
            }
        };
        let left = ready.duration_since(now).unwrap_or_default();
        let kind = if first_proof {
            StageKind::AcceptanceWindow {
                window_end: settled_at,
                uncertainty: clock.as_ref().map(ClockBounds::width),
            }
        } else {
            StageKind::SettlingDelay {
                next_round: self.evidence.rounds.len() + 1,
            }
        };
        self.tell(kind, left);
        self.stage = Stage::Waiting(ready);
        self.next(now)
    }

    /// Tells the client's observer, if it has one, that resolving enters `kind`, `left` long.
    fn tell(&self, kind: StageKind, left: Duration) {
        if let Some(observer) = &self.core.resolve_observer {
            observer.tell(&ResolveStage {
                subject: self.search.subject(),
                kind,
                left,
                settle_delay: self.evidence.settle_delay,
            });
        }
    }

    /// Starts a round at once.
    fn round_now(&mut self, now: SystemTime) -> Step<<Self as Machine>::Output> {
        self.tell(
            StageKind::Round(self.evidence.rounds.len() + 1),
            Duration::ZERO,
        );
        let window = self.window();
        self.stage = Stage::Round(self.search.round(self.core, window.as_ref()));
        self.next(now)
    }
}

impl<S: Search> Machine for Resolver<'_, S> {
    type Output = Result<S::Answer, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        if !matches!(self.stage, Stage::Finished)
            && let Some(placed) = self.by_event(now)
        {
            return placed;
        }
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Start => {
                if self.search.presence() == Presence::Settled && !self.fenced() {
                    self.schedule(now)
                } else {
                    self.round_now(now)
                }
            }
            Stage::Round(mut round) => match round.next(now) {
                Step::Done(findings) => self.take(findings, now),
                step => {
                    self.stage = Stage::Round(round);
                    match step {
                        Step::Wait(d) => Step::Wait(d),
                        Step::Send(r) => Step::Send(r),
                        Step::Done(_) => Step::Wait(Duration::ZERO),
                    }
                }
            },
            Stage::Clock(mut call, findings) => match call.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Clock(call, findings);
                    step
                }
                Err(Ok(time)) => {
                    let time: ServerTime = time;
                    let sent = call.attempts().last().map_or(now, |a| a.signed_at);
                    let reading = ClockBounds::from_reading(time.to_system_time(), sent, now);
                    self.core.exchange_clock().observe(reading);
                    match findings {
                        Some(findings) => self.take(findings, now),
                        None => self.schedule(now),
                    }
                }
                Err(Err(e)) => {
                    let reason = format!(
                        "the exchange's clock could not be read, so no look-up can be shown to \
                         come after the window: {e}"
                    );
                    self.unproven(reason)
                }
            },
            Stage::Waiting(ready) => {
                if let Ok(wait) = ready.duration_since(now)
                    && !wait.is_zero()
                {
                    self.stage = Stage::Waiting(ready);
                    return Step::Wait(wait);
                }
                self.round_now(now)
            }
            Stage::Finished => Step::after_end("resolve", "the resolution"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Round(round) => round.receive(response),
            Stage::Clock(call, _) => call.receive(response),
            Stage::Start | Stage::Waiting(_) | Stage::Finished => {}
        }
    }

    /// While it waits for a round: a [`Wake`] that fires when a stream shows the operation
    /// again.
    fn wake(&self) -> Option<Wake<'_>> {
        match (&self.stage, &self.events) {
            // Without a window (strict nonces, no look-up accepted yet) nothing can be judged.
            (Stage::Waiting(_), Some(events)) if self.window().is_some() => {
                Some(events.watch.wake_after(events.judged))
            }
            _ => None,
        }
    }
}
