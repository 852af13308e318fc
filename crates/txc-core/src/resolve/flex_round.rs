//! A flex plan's investment and withdrawal as operations that move money ([`MoneyMove`] for
//! [`FlexInvest`] and [`FlexWithdraw`]), and their round of look-ups: every page of the flex
//! history of the plan and action, each record of the amount a candidate.
//!
//! An account holds one flex investment per plan, whose `invested` is the sum of every
//! operation: the investments list cannot show one operation, the history can — each
//! investment (`INVEST`, or `OPEN_INVESTMENT` when it reopened a closed one) and each
//! withdrawal (`WITHDRAW_FROM_INVESTMENT`) is a record with its amount and time.

use std::time::{SystemTime, UNIX_EPOCH};

use txc_types::investments::flex::{
    FlexAction, FlexHistoryQuery, FlexHistoryRecord, FlexInvest, FlexTransaction, FlexWithdraw,
};
use txc_types::paging::PageCursor;
use txc_types::values::{Amount, ExactDecimal};

use super::evidence::{AcceptanceWindow, Flaw, Sighting};
use super::search::{Lookup, RoundFindings, RoundMachine};
use crate::machine::Call;
use crate::{
    ClientCore, Error, Evidence, FlexDone, Machine, MoneyMove, PendingMove, PendingRecord,
    Response, Step, TransportError, UnresolvedMove,
};

/// The history's actions of a flex investment: a creation or top-up, or a closed
/// investment's reopening.
const INVESTED: &[FlexAction] = &[FlexAction::Invest, FlexAction::Open];
/// The history's action of a flex withdrawal.
const WITHDRAWN: &[FlexAction] = &[FlexAction::Withdraw];

impl super::money_move::Sealed for FlexInvest {}
impl super::money_move::Sealed for FlexWithdraw {}

/// `MoneyMove` for a flex operation: the two differ only in names, the history's actions a
/// round reads and their errors.
macro_rules! flex_money_move {
    ($(#[$doc:meta])* $move:ident, $noun:literal, $kind:ident, $accessor:ident, $actions:expr,
     $unknown:ident, $not_done:ident) => {
        $(#[$doc])*
        impl MoneyMove for $move {
            type Record = FlexHistoryRecord;
            type Resolution = crate::FlexResolution;
            type Done = FlexDone;

            const NOUN: &'static str = $noun;

            fn plan_id(&self) -> &str {
                self.plan()
            }

            fn amount(&self) -> &Amount {
                $move::amount(self)
            }

            fn wrap(pending: PendingMove<Self>) -> PendingRecord {
                PendingRecord::$kind(pending)
            }

            fn unwrap(record: &PendingRecord) -> Option<&PendingMove<Self>> {
                record.$accessor()
            }

            fn round<'a>(
                pending: &PendingMove<Self>,
                core: &'a ClientCore,
                window: Option<&AcceptanceWindow>,
            ) -> RoundMachine<'a, FlexHistoryRecord> {
                let request = pending.request();
                FlexRound::start(core, (request.plan(), request.amount()), $actions, window)
            }

            fn record_id(record: &FlexHistoryRecord) -> &str {
                &record.transaction_id
            }

            fn unknown(unresolved: Box<UnresolvedMove<Self>>) -> Error {
                Error::$unknown(unresolved)
            }

            fn not_done(unresolved: Box<UnresolvedMove<Self>>) -> Error {
                Error::$not_done(unresolved)
            }

            fn unresolved(error: Error) -> Result<Box<UnresolvedMove<Self>>, Error> {
                match error {
                    Error::$unknown(unresolved) => Ok(unresolved),
                    other => Err(other),
                }
            }

            fn answered(answer: FlexTransaction) -> FlexDone {
                FlexDone::Answered(answer)
            }

            fn found(record: Box<FlexHistoryRecord>, evidence: Evidence) -> FlexDone {
                FlexDone::Found { record, evidence }
            }
        }
    };
}

flex_money_move!(
    /// A round reads every page of the flex history (`POST
    /// /api/v4/main-account/smart-flex/investments/history`) of the plan and the actions
    /// `INVEST` and `OPEN_INVESTMENT`, from the attempts' window on, through the shared page
    /// cursor.
    FlexInvest,
    "flex investment",
    FlexInvest,
    flex_invest,
    INVESTED,
    FlexInvestUnknown,
    FlexNotInvested
);

flex_money_move!(
    /// A round reads every page of the flex history of the plan and the action
    /// `WITHDRAW_FROM_INVESTMENT`, from the attempts' window on, through the shared page
    /// cursor.
    FlexWithdraw,
    "flex withdrawal",
    FlexWithdraw,
    flex_withdraw,
    WITHDRAWN,
    FlexWithdrawUnknown,
    FlexNotWithdrawn
);

/// One round of a flex investment or withdrawal: every page of the plan's history of its
/// actions, read by the shared [`PageCursor`] (which never returns a record twice nor skips
/// one silently while the history gains records at its head).
struct FlexRound<'a> {
    core: &'a ClientCore,
    plan_id: String,
    amount: Option<ExactDecimal>,
    actions: &'static [FlexAction],
    cursor: PageCursor<FlexHistoryQuery>,
    /// The page being read.
    call: Option<Call<'a, FlexHistoryQuery>>,
    findings: RoundFindings<FlexHistoryRecord>,
}

impl<'a> FlexRound<'a> {
    /// A round of the history of `plan`'s `actions` of `amount`: from the window's first
    /// second on (less one, whatever the exchange's reading of `dateFrom`), when it is known.
    fn start(
        core: &'a ClientCore,
        (plan, amount): (&str, &Amount),
        actions: &'static [FlexAction],
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, FlexHistoryRecord> {
        let mut builder = FlexHistoryQuery::builder()
            .plan(plan)
            .action_types(actions.iter().copied());
        let from = window
            .and_then(AcceptanceWindow::start)
            .and_then(|start| start.duration_since(UNIX_EPOCH).ok())
            .map(|since| since.as_secs().saturating_sub(1))
            .filter(|&seconds| seconds > 0);
        if let Some(seconds) = from {
            builder = builder.date_from(seconds);
        }
        let mut findings = RoundFindings::default();
        let query = builder.build().unwrap_or_else(|e| {
            findings.failure = Some(e.into());
            FlexHistoryQuery::new()
        });
        Box::new(FlexRound {
            core,
            plan_id: plan.to_owned(),
            amount: ExactDecimal::new(amount.as_str()).ok(),
            actions,
            cursor: PageCursor::new(query),
            call: None,
            findings,
        })
    }

    fn finish(&mut self) -> Step<RoundFindings<FlexHistoryRecord>> {
        self.call = None;
        Step::Done(std::mem::take(&mut self.findings))
    }

    /// Notes a page's records not read before.
    fn page(&mut self, records: Vec<FlexHistoryRecord>) {
        for record in records {
            let ours = record.plan_id == self.plan_id
                && self.actions.contains(&record.action_type)
                && Some(&record.amount) == self.amount.as_ref();
            if !ours {
                continue;
            }
            let created = record.created_at.to_system_time();
            let sighting = Sighting::new(&record.transaction_id, created)
                .with_precision(FlexInvest::CREATED_PRECISION);
            self.findings.candidate(sighting, record);
        }
    }
}

impl Machine for FlexRound<'_> {
    type Output = RoundFindings<FlexHistoryRecord>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        if self.findings.failure.is_some() {
            return self.finish();
        }
        let call = match &mut self.call {
            Some(call) => call,
            None => match self.cursor.next_query() {
                Ok(Some(query)) => self.call.insert(self.core.call_owned(query.clone())),
                Ok(None) => return self.finish(),
                Err(stopped) => {
                    self.findings.flaw(Flaw::Incomplete(stopped.to_string()));
                    return self.finish();
                }
            },
        };
        match self.findings.answer("flex_history", call, now) {
            Lookup::Pending(step) => step,
            Lookup::Failed(e) => {
                self.findings.fail(e);
                self.finish()
            }
            Lookup::Answered(page) => {
                self.call = None;
                match self.cursor.accept(page) {
                    Ok(records) => {
                        self.page(records);
                        self.next(now)
                    }
                    Err(stopped) => {
                        self.findings.flaw(Flaw::Incomplete(stopped.to_string()));
                        self.finish()
                    }
                }
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some(call) = &mut self.call {
            call.receive(response);
        }
    }
}
