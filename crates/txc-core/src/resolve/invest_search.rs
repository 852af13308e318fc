//! [`InvestmentSearch`]: finding an investment again by its plan and amount in the
//! investments list, for [`ResolveInvestment`](crate::ResolveInvestment).

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime};

use txc_types::investments::{Investment, InvestmentsPage, InvestmentsQuery, MAX_PAGE_LIMIT};
use txc_types::values::ExactDecimal;

use super::evidence::{AcceptanceWindow, Evidence, Flaw, Sighting};
use super::invest_resolution::InvestResolution;
use super::invest_resolution::InvestmentWriters;
use super::search::{Lookup, Outcome, Presence, RoundFindings, RoundMachine, Search};
use crate::machine::Call;
use crate::{
    AttemptRecord, ClientCore, Error, Machine, NonceMode, PendingInvestment, PendingRecord,
    Response, Step, TransportError, UnresolvedInvestment,
};

/// The resolution of an investment's `created`: whole seconds.
const CREATED_PRECISION: Duration = Duration::from_secs(1);

/// The look-ups that find an investment by its plan and amount (the [`Search`] of
/// [`ResolveInvestment`](crate::ResolveInvestment)).
///
/// A round reads every page of the investments list (`POST
/// /api/v4/main-account/smart/investments`, filtered by the plan's source currency when known,
/// no status filter: a closed investment still counts) until a short page, each investment
/// once. An investment of the plan and amount is a candidate, the attempts' own when created
/// inside their window ([`Presence::Settled`]: only a round made once every record of the
/// attempts shows counts, and several inside the window cannot be told apart). A list longer
/// than the exchange lets a client read (offset 10 000) leaves the round proving nothing.
#[derive(Debug, Clone)]
pub struct InvestmentSearch {
    pending: PendingInvestment,
    amount: Option<ExactDecimal>,
}

impl InvestmentSearch {
    /// The search for `pending`.
    pub fn new(pending: PendingInvestment) -> Self {
        let amount = ExactDecimal::new(pending.invest().amount().as_str()).ok();
        Self { pending, amount }
    }

    /// The investment searched for.
    pub fn pending(&self) -> &PendingInvestment {
        &self.pending
    }

    /// The first page's query.
    fn query(&self) -> Result<InvestmentsQuery, Error> {
        let mut builder = InvestmentsQuery::builder().limit(MAX_PAGE_LIMIT);
        if let Some(ticker) = self.pending.invest().ticker() {
            builder = builder.ticker(ticker.clone());
        }
        Ok(builder.build()?)
    }
}

impl Search for InvestmentSearch {
    type Record = Investment;
    type Answer = InvestResolution;

    fn attempts(&self) -> &[AttemptRecord] {
        self.pending.attempts()
    }

    fn nonce_mode(&self, _core: &ClientCore) -> NonceMode {
        self.pending.nonce_mode()
    }

    fn presence(&self) -> Presence {
        Presence::Settled
    }

    fn round<'a>(
        &self,
        core: &'a ClientCore,
        _window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, Investment> {
        let mut round = InvestmentRound {
            core,
            plan_id: self.pending.invest().plan_id().to_owned(),
            amount: self.amount.clone(),
            seen: BTreeSet::new(),
            page: None,
            findings: RoundFindings::default(),
        };
        match self.query() {
            Ok(query) => round.page = Some((core.call_owned(query.clone()), query)),
            Err(e) => round.findings.failure = Some(e),
        }
        Box::new(round)
    }

    fn answer(
        &self,
        core: &ClientCore,
        outcome: Outcome<Investment>,
    ) -> Result<InvestResolution, Error> {
        let ledger = core.investment_ledger();
        Ok(match outcome {
            Outcome::Found(investment, evidence)
                if core.investment_writers() == InvestmentWriters::Sole =>
            {
                ledger.settle(&self.pending);
                InvestResolution::Invested {
                    investment: Box::new(investment),
                    evidence,
                }
            }
            Outcome::Absent(_, evidence) => {
                ledger.settle(&self.pending);
                InvestResolution::NotInvested { evidence }
            }
            Outcome::Found(investment, evidence) => {
                self.cannot_tell(core, vec![investment], evidence)
            }
            Outcome::Ambiguous(candidates, evidence) => {
                self.cannot_tell(core, candidates, evidence)
            }
        })
    }

    fn unknown(&self, cause: Error, evidence: Evidence) -> Error {
        let unresolved =
            UnresolvedInvestment::new(self.pending.clone(), cause).with_evidence(evidence);
        Error::InvestmentUnknown(Box::new(unresolved))
    }

    fn unresolved(&self, core: &ClientCore, reason: &str) {
        core.investment_ledger().note(&self.pending, reason);
    }

    fn subject(&self) -> String {
        PendingRecord::Investment(self.pending.clone()).subject()
    }
}

impl InvestmentSearch {
    /// "Cannot tell", with `candidates`: the record stays, noted with why.
    fn cannot_tell(
        &self,
        core: &ClientCore,
        candidates: Vec<Investment>,
        evidence: Evidence,
    ) -> InvestResolution {
        let reason = crate::decode::cannot_tell_reason(&candidates);
        core.investment_ledger().note(&self.pending, &reason);
        InvestResolution::CannotTell {
            candidates,
            evidence,
        }
    }
}

/// One round of [`InvestmentSearch`]: every page of the list.
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
            let sighting = Sighting::new(&record.id, created).with_precision(CREATED_PRECISION);
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
