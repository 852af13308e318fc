//! A fixed plan's investment as an operation that moves money ([`MoneyMove`] for [`Invest`]),
//! and its round of look-ups: every page of the investments list, each investment of the plan
//! and amount a candidate.

use std::collections::BTreeSet;
use std::time::SystemTime;

use txc_types::investments::{
    Invest, Investment, InvestmentsPage, InvestmentsQuery, MAX_PAGE_LIMIT, NewInvestment,
};
use txc_types::values::{Amount, ExactDecimal};

use super::evidence::{AcceptanceWindow, Flaw, Sighting};
use super::search::{Lookup, RoundFindings, RoundMachine};
use crate::machine::Call;
use crate::{
    ClientCore, Error, Evidence, Invested, Machine, MoneyMove, PendingMove, PendingRecord,
    Response, Step, TransportError, UnresolvedMove,
};

impl super::money_move::Sealed for Invest {}

/// A round reads every page of the investments list (`POST
/// /api/v4/main-account/smart/investments`, filtered by the plan's source currency when known,
/// no status filter: a closed investment still counts) until a short page, each investment
/// once. A list longer than the exchange lets a client read (offset 10 000) leaves the round
/// proving nothing.
impl MoneyMove for Invest {
    type Record = Investment;
    type Resolution = crate::InvestResolution;
    type Done = Invested;

    const NOUN: &'static str = "investment";

    fn plan_id(&self) -> &str {
        Invest::plan_id(self)
    }

    fn amount(&self) -> &Amount {
        Invest::amount(self)
    }

    fn wrap(pending: PendingMove<Self>) -> PendingRecord {
        PendingRecord::Investment(pending)
    }

    fn unwrap(record: &PendingRecord) -> Option<&PendingMove<Self>> {
        record.investment()
    }

    fn round<'a>(
        pending: &PendingMove<Self>,
        core: &'a ClientCore,
        _window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, Investment> {
        let invest = pending.request();
        let mut round = InvestmentRound {
            core,
            plan_id: invest.plan_id().to_owned(),
            amount: ExactDecimal::new(invest.amount().as_str()).ok(),
            seen: BTreeSet::new(),
            page: None,
            findings: RoundFindings::default(),
        };
        let mut builder = InvestmentsQuery::builder().limit(MAX_PAGE_LIMIT);
        if let Some(ticker) = invest.ticker() {
            builder = builder.ticker(ticker.clone());
        }
        match builder.build() {
            Ok(query) => round.page = Some((core.call_owned(query.clone()), query)),
            Err(e) => round.findings.failure = Some(e.into()),
        }
        Box::new(round)
    }

    fn record_id(record: &Investment) -> &str {
        &record.id
    }

    fn unknown(unresolved: Box<UnresolvedMove<Self>>) -> Error {
        Error::InvestmentUnknown(unresolved)
    }

    fn not_done(unresolved: Box<UnresolvedMove<Self>>) -> Error {
        Error::NotInvested(unresolved)
    }

    fn unresolved(error: Error) -> Result<Box<UnresolvedMove<Self>>, Error> {
        match error {
            Error::InvestmentUnknown(unresolved) => Ok(unresolved),
            other => Err(other),
        }
    }

    fn answered(answer: NewInvestment) -> Invested {
        Invested::Answered(answer)
    }

    fn found(record: Box<Investment>, evidence: Evidence) -> Invested {
        Invested::Found {
            investment: record,
            evidence,
        }
    }
}

/// One round of a fixed plan's investment: every page of the investments list.
struct InvestmentRound<'a> {
    core: &'a ClientCore,
    plan_id: String,
    amount: Option<ExactDecimal>,
    /// The investments seen (a record may move to the next page while the list is read).
    seen: BTreeSet<String>,
    /// The page being read, and its query.
    page: Option<(Call<'a, InvestmentsQuery>, InvestmentsQuery)>,
    findings: RoundFindings<Investment>,
}

impl InvestmentRound<'_> {
    fn finish(&mut self) -> Step<RoundFindings<Investment>> {
        self.page = None;
        Step::Done(std::mem::take(&mut self.findings))
    }

    /// Notes a page read with `query`; the next page's query, if the list goes on.
    fn page(
        &mut self,
        query: &InvestmentsQuery,
        page: InvestmentsPage,
    ) -> Option<InvestmentsQuery> {
        let full = page.records.len() as u64 >= query.limit().unwrap_or(MAX_PAGE_LIMIT);
        let next = query.next_page(&page);
        for record in page.records {
            if !self.seen.insert(record.id.clone()) {
                continue;
            }
            if record.plan.id != self.plan_id || Some(&record.amount) != self.amount.as_ref() {
                continue;
            }
            let created = record.created.to_system_time();
            let sighting =
                Sighting::new(&record.id, created).with_precision(Invest::CREATED_PRECISION);
            self.findings.candidate(sighting, record);
        }
        if next.is_none() && full {
            self.findings.flaw(Flaw::Incomplete(
                "the investments list is longer than the exchange lets a client read (offset \
                 10 000): the whole list cannot be searched"
                    .to_owned(),
            ));
        }
        next
    }
}

impl Machine for InvestmentRound<'_> {
    type Output = RoundFindings<Investment>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        let Some((call, query)) = &mut self.page else {
            return self.finish();
        };
        match self.findings.answer("investments", call, now) {
            Lookup::Pending(step) => step,
            Lookup::Failed(e) => {
                self.findings.fail(e);
                self.finish()
            }
            Lookup::Answered(page) => {
                let query = query.clone();
                match self.page(&query, page) {
                    Some(next) => {
                        self.page = Some((self.core.call_owned(next.clone()), next));
                        self.next(now)
                    }
                    None => self.finish(),
                }
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some((call, _)) = &mut self.page {
            call.receive(response);
        }
    }
}
