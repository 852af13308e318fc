//! [`ResolveInvestment`]: finds out from the investments list whether an investment whose
//! outcome is unknown was made — never answering "not invested" before every attempt is too
//! old to be accepted, and saying what proved each answer.
//!
//! The rule is on [`ResolveInvestment`].

use crate::{CREATION_ALLOWANCE, NONCE_WINDOW};
use std::collections::BTreeSet;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::investments::{Investment, InvestmentsPage, InvestmentsQuery, MAX_PAGE_LIMIT};
use txc_types::values::{ExactDecimal, Timestamp};

use crate::call::Call;
use crate::{
    ClientCore, Error, Machine, PendingInvestment, Response, Step, TransportError,
    UnresolvedInvestment, unix_millis,
};

/// How many rounds dated before the window's end are read again before giving up.
const MAX_EARLY_ROUNDS: u32 = 3;

/// How the window's end was bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WindowBasis {
    /// The attempts' nonces, accepted only within ±5 s of the exchange's clock.
    NonceWindow,
    /// Strict nonces: the `Date` of the first accepted look-up of the same key (a later nonce),
    /// after which no attempt can be accepted.
    Fence {
        /// That answer's `Date`.
        date: SystemTime,
    },
}

/// The span of the exchange's clock (Unix milliseconds) in which an attempt could have been
/// accepted, and so the `created` seconds a record of it can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvestmentWindow {
    /// The earliest exchange time an attempt could have been accepted at.
    pub from_ms: u64,
    /// The latest.
    pub to_ms: u64,
    /// What bounds it.
    pub basis: WindowBasis,
}

impl InvestmentWindow {
    /// The window of attempts signed with `nonceWindow`: their nonces ± [`NONCE_WINDOW`].
    pub(crate) fn of_nonces(nonces: impl Iterator<Item = u64> + Clone) -> Option<Self> {
        let w = millis(NONCE_WINDOW);
        Some(Self {
            from_ms: nonces.clone().min()?.saturating_sub(w),
            to_ms: nonces.max()?.saturating_add(w),
            basis: WindowBasis::NonceWindow,
        })
    }

    /// The window of strict-nonce attempts first signed at `first_signed`, fenced by a look-up
    /// answered with `date` that arrived at `received` (local).
    fn fenced(first_signed: SystemTime, date: SystemTime, received: SystemTime) -> Self {
        // The exchange's clock was at least `date` when the local one read `received`: the
        // lowest offset the answer allows.
        let offset = i128::from(unix_millis(date)) - i128::from(unix_millis(received));
        let from = i128::from(unix_millis(first_signed)) + offset;
        Self {
            from_ms: u64::try_from(from.max(0)).unwrap_or(u64::MAX),
            to_ms: unix_millis(date).saturating_add(1_000),
            basis: WindowBasis::Fence { date },
        }
    }

    /// The first `created` second a record of an attempt can carry.
    pub fn created_from(&self) -> u64 {
        self.from_ms / 1_000
    }

    /// The last `created` second a record of an attempt can carry (the window's end plus the
    /// creation allowance).
    pub fn created_to(&self) -> u64 {
        self.settled_ms() / 1_000
    }

    /// Whether a record created at `created` can be an attempt's.
    pub fn contains(&self, created: &Timestamp) -> bool {
        (self.created_from()..=self.created_to()).contains(&created.unix_seconds())
    }

    /// When (exchange time, ms) every accepted attempt's record exists.
    fn settled_ms(&self) -> u64 {
        self.to_ms.saturating_add(millis(CREATION_ALLOWANCE))
    }
}

/// One complete reading of the investments list.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvestmentRound {
    /// The `Date` of its first answer (the exchange's clock, whole seconds).
    pub server_date: SystemTime,
    /// How many pages it read.
    pub pages: u32,
    /// How many distinct investments it saw.
    pub records: usize,
    /// How many were of the plan and amount, created inside the window.
    pub matches: usize,
    /// How many were of the plan and amount but created outside the window: someone else's,
    /// neither proving nor disproving anything.
    pub excluded: usize,
}

/// What proved a resolution: the window and the rounds read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvestmentEvidence {
    /// The attempts' acceptance window.
    pub window: InvestmentWindow,
    /// The rounds that counted, in order.
    pub rounds: Vec<InvestmentRound>,
}

impl fmt::Display for InvestmentEvidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "created between {} and {} (exchange seconds, {})",
            self.window.created_from(),
            self.window.created_to(),
            match self.window.basis {
                WindowBasis::NonceWindow => "the nonces ± 5 s",
                WindowBasis::Fence { .. } => "strict nonces fenced by a later look-up",
            }
        )?;
        for (n, round) in self.rounds.iter().enumerate() {
            write!(
                f,
                "; round {} at {}: {} pages, {} investments, {} matching, {} outside the window",
                n + 1,
                unix_millis(round.server_date) / 1_000,
                round.pages,
                round.records,
                round.matches,
                round.excluded
            )?;
        }
        Ok(())
    }
}

/// What resolving an investment found, and what proved it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InvestResolution {
    /// One investment of the plan and amount was created inside the window: this one.
    Invested {
        /// The investment, as the list showed it.
        investment: Box<Investment>,
        /// The window and the rounds.
        evidence: InvestmentEvidence,
    },
    /// Two rounds, the settling delay apart and both after every attempt was too old to be
    /// accepted, found none: not invested; investing again is safe.
    NotInvested {
        /// The window and the two rounds.
        evidence: InvestmentEvidence,
    },
    /// Several investments of the plan and amount were created inside the window: one may be
    /// this one, and which cannot be told. Do not invest again.
    CannotTell {
        /// All of them.
        candidates: Vec<Investment>,
        /// The window and the rounds.
        evidence: InvestmentEvidence,
    },
}

impl InvestResolution {
    /// What proved it.
    pub fn evidence(&self) -> &InvestmentEvidence {
        match self {
            Self::Invested { evidence, .. }
            | Self::NotInvested { evidence }
            | Self::CannotTell { evidence, .. } => evidence,
        }
    }
}

/// A reading of the list in progress.
struct Round {
    query: InvestmentsQuery,
    date: Option<SystemTime>,
    pages: u32,
    seen: BTreeSet<String>,
    matches: Vec<Investment>,
    excluded: usize,
}

impl Round {
    fn new(query: InvestmentsQuery) -> Self {
        Self {
            query,
            date: None,
            pages: 0,
            seen: BTreeSet::new(),
            matches: Vec::new(),
            excluded: 0,
        }
    }
}

// One per resolution, never stored in bulk: a wait between rounds is short-lived.
#[allow(clippy::large_enum_variant)]
enum Stage<'a> {
    /// Start the next round once the local clock reads this.
    Wait(SystemTime),
    /// Reading a page of the round.
    Read(Box<Round>, Call<'a, InvestmentsQuery>),
    Finished,
}

/// Resolves a [`PendingInvestment`]: a [`Machine`] whose output is an [`InvestResolution`], or
/// [`Error::InvestmentUnknown`] when a look-up fails.
///
/// # The rule
///
/// An investment request carries no id of the caller's, so the only trace of an attempt is a
/// record of the same plan and amount in the investments list, created while the attempt could
/// have been accepted. Everything is judged on the **exchange's clock**:
///
/// 1. **Acceptance window** ([`InvestmentWindow`]). With `nonceWindow` the exchange accepts a
///    nonce only within ±5 s of its own time ([`NONCE_WINDOW`]), so an attempt with nonce `n`
///    was accepted, if at all, in `[n − 5 s, n + 5 s]` — whatever this host's clock says.
///    Without it (strict nonces) a nonce is accepted only above every nonce the key had
///    accepted, so once the resolver's own look-up (a later nonce of the same key) is accepted,
///    no earlier attempt can be: the window ends at that answer's `Date` + 1 s (the fence), and
///    starts at the first attempt's signing time corrected by the offset measured from the same
///    answer (its `Date` against the local receive time: the earliest the exchange's clock can
///    have read). A record of the attempt was created no later than [`CREATION_ALLOWANCE`]
///    after its acceptance; its `created` (whole seconds) lies in the window's seconds.
/// 2. **Round 1** counts only when its first answer is dated (`Date` header, whole seconds) at
///    or after the window's end plus the creation allowance: every attempt that will ever be
///    accepted has been, and its record exists. An earlier-dated round is discarded and read
///    again once the exchange's clock has passed that point.
/// 3. **Round 2** follows at least the client's settling delay after round 1 ends: the delay is
///    the allowance for the list lagging behind the record's creation (not documented).
/// 4. A round reads every page of the list (filtered by the plan's source currency when known,
///    no status filter: a closed investment still counts) until a short page. One record of
///    the plan and amount inside the window → **invested**; several → **cannot tell**; none in
///    both rounds → **not invested**. A failed look-up, an answer without `Date`, or a list
///    longer than the exchange lets a client read (offset 10 000) → the outcome stays
///    unknown ([`Error::InvestmentUnknown`]).
///
/// # What cannot be told apart
///
/// Two investments of the same plan and the same amount created inside one window: one of them
/// may be this one and the other anyone else's (another process of the account, a person on
/// the website). The resolver answers [`InvestResolution::CannotTell`] with both, and
/// `invest_once` ends as unknown without investing again — it may under-invest, it never
/// invests twice. One such record is taken for this one: an investment of the same plan and
/// amount made by someone else inside the window, while this one failed, is indistinguishable.
/// Distinct amounts for concurrent investments in one plan make every one identifiable.
pub struct ResolveInvestment<'a> {
    core: &'a ClientCore,
    pending: PendingInvestment,
    amount: Option<ExactDecimal>,
    /// Known from the start with `nonceWindow`; from the first answer with strict nonces.
    window: Option<InvestmentWindow>,
    rounds: Vec<InvestmentRound>,
    early: u32,
    /// The `Date` of the last response handed in.
    date: Option<SystemTime>,
    stage: Stage<'a>,
}

impl fmt::Debug for ResolveInvestment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResolveInvestment")
            .field("pending", &self.pending)
            .field("window", &self.window)
            .field("rounds", &self.rounds)
            .finish_non_exhaustive()
    }
}

impl<'a> ResolveInvestment<'a> {
    pub(crate) fn new(core: &'a ClientCore, pending: PendingInvestment) -> Self {
        let window = pending.acceptance_window();
        let amount = ExactDecimal::new(pending.invest().amount().as_str()).ok();
        // With nonceWindow, the local time at which the (corrected) clock reaches the point
        // round 1 needs; with strict nonces, at once (the first answer sets the fence).
        let start = match &window {
            Some(w) => {
                let offset = core.nonces().clock_offset().as_millis();
                let local = i128::from(w.settled_ms()) - i128::from(offset);
                UNIX_EPOCH + Duration::from_millis(u64::try_from(local.max(0)).unwrap_or(0))
            }
            None => UNIX_EPOCH,
        };
        Self {
            core,
            pending,
            amount,
            window,
            rounds: Vec::new(),
            early: 0,
            date: None,
            stage: Stage::Wait(start),
        }
    }

    /// The investment being resolved.
    pub fn pending(&self) -> &PendingInvestment {
        &self.pending
    }

    fn query(&self, offset: u64) -> Result<InvestmentsQuery, Error> {
        let mut builder = InvestmentsQuery::builder()
            .limit(MAX_PAGE_LIMIT)
            .offset(offset);
        if let Some(ticker) = self.pending.invest().ticker() {
            builder = builder.ticker(ticker.clone());
        }
        Ok(builder.build()?)
    }

    fn finish(&mut self, resolution: InvestResolution) -> Step<Result<InvestResolution, Error>> {
        self.stage = Stage::Finished;
        Step::Done(Ok(resolution))
    }

    fn unknown(&mut self, cause: Error) -> Step<Result<InvestResolution, Error>> {
        self.stage = Stage::Finished;
        let unresolved = UnresolvedInvestment::new(self.pending.clone(), cause);
        Step::Done(Err(Error::InvestmentUnknown(Box::new(unresolved))))
    }

    fn evidence(&self, window: InvestmentWindow) -> InvestmentEvidence {
        InvestmentEvidence {
            window,
            rounds: self.rounds.clone(),
        }
    }

    /// Starts a round at `now`.
    fn start_round(&mut self, now: SystemTime) -> Step<Result<InvestResolution, Error>> {
        match self.query(0) {
            Ok(query) => {
                let call = self.core.call_owned(query.clone());
                self.stage = Stage::Read(Box::new(Round::new(query)), call);
                self.next(now)
            }
            Err(e) => self.unknown(e),
        }
    }

    /// Takes in one page of `round`, answered at `now` with `date`.
    fn page(
        &mut self,
        mut round: Box<Round>,
        page: InvestmentsPage,
        date: SystemTime,
        now: SystemTime,
    ) -> Step<Result<InvestResolution, Error>> {
        if round.pages == 0 {
            let window = match self.window {
                Some(window) => window,
                None => {
                    let first = self.pending.first_signed_at().unwrap_or(now);
                    let fenced = InvestmentWindow::fenced(first, date, now);
                    self.window = Some(fenced);
                    fenced
                }
            };
            let dated = unix_millis(date);
            if dated < window.settled_ms() {
                // Answered before every attempt's record must exist: the round does not count.
                self.early += 1;
                if self.early > MAX_EARLY_ROUNDS {
                    return self.unknown(Error::invalid_config(
                        "resolve_investment",
                        "the exchange's clock (its answers' Date) stayed before the end of the \
                         attempts' acceptance window",
                    ));
                }
                // `Date` is whole seconds: one more second makes the next round's count.
                let behind = window.settled_ms() - dated + 1_000;
                self.stage = Stage::Wait(now + Duration::from_millis(behind));
                return self.next(now);
            }
            round.date = Some(date);
        }
        let Some(window) = self.window else {
            return self.unknown(Error::invalid_config("resolve_investment", "no window"));
        };
        round.pages += 1;
        let full = page.records.len() as u64 >= round.query.limit().unwrap_or(MAX_PAGE_LIMIT);
        let next = round.query.next_page(&page);
        let plan_id = self.pending.invest().plan_id();
        for record in page.records {
            if !round.seen.insert(record.id.clone()) {
                continue;
            }
            if record.plan.id != plan_id || Some(&record.amount) != self.amount.as_ref() {
                continue;
            }
            if window.contains(&record.created) {
                round.matches.push(record);
            } else {
                round.excluded += 1;
            }
        }
        match (next, full) {
            (Some(query), _) => {
                let call = self.core.call_owned(query.clone());
                round.query = query;
                self.stage = Stage::Read(round, call);
                self.next(now)
            }
            (None, true) => self.unknown(Error::invalid_config(
                "resolve_investment",
                "the investments list is longer than the exchange lets a client read (offset \
                 10 000): the whole list cannot be searched",
            )),
            (None, false) => self.round_read(*round, window, now),
        }
    }

    /// Judges a complete round.
    fn round_read(
        &mut self,
        round: Round,
        window: InvestmentWindow,
        now: SystemTime,
    ) -> Step<Result<InvestResolution, Error>> {
        self.rounds.push(InvestmentRound {
            server_date: round.date.unwrap_or(UNIX_EPOCH),
            pages: round.pages,
            records: round.seen.len(),
            matches: round.matches.len(),
            excluded: round.excluded,
        });
        let evidence = self.evidence(window);
        let mut matches = round.matches;
        match (matches.len(), self.rounds.len()) {
            (0, 1) => {
                self.stage = Stage::Wait(now + self.core.settle_delay());
                self.next(now)
            }
            (0, _) => self.finish(InvestResolution::NotInvested { evidence }),
            (1, _) => match matches.pop() {
                Some(investment) => self.finish(InvestResolution::Invested {
                    investment: Box::new(investment),
                    evidence,
                }),
                None => self.finish(InvestResolution::NotInvested { evidence }),
            },
            _ => self.finish(InvestResolution::CannotTell {
                candidates: matches,
                evidence,
            }),
        }
    }
}

impl Machine for ResolveInvestment<'_> {
    type Output = Result<InvestResolution, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        if self.pending.attempts().is_empty() {
            self.stage = Stage::Finished;
            return Step::Done(Err(Error::invalid_config(
                "resolve_investment",
                "the investment has no attempt: nothing was sent",
            )));
        }
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Wait(until) => match until.duration_since(now) {
                Ok(wait) if !wait.is_zero() => {
                    self.stage = Stage::Wait(until);
                    Step::Wait(wait)
                }
                _ => self.start_round(now),
            },
            Stage::Read(round, mut call) => match call.next(now).forward() {
                Ok(step) => {
                    self.stage = Stage::Read(round, call);
                    step
                }
                Err(Ok(page)) => match self.date.take() {
                    Some(date) => self.page(round, page, date, now),
                    None => self.unknown(Error::invalid_config(
                        "resolve_investment",
                        "the investments list was answered without a Date header: the \
                         exchange's clock is what proves when the list was read",
                    )),
                },
                Err(Err(e)) => self.unknown(e),
            },
            Stage::Finished => Step::Done(Err(Error::invalid_config(
                "resolve_investment",
                "the resolution has already finished",
            ))),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.date = response.as_ref().ok().and_then(Response::date);
        if let Stage::Read(_, call) = &mut self.stage {
            call.receive(response);
        }
    }
}

/// A duration in whole milliseconds.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
