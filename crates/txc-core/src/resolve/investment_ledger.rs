//! [`InvestmentLedger`]: the investments a client sent whose outcome is not definite yet — a
//! [`RecordLedger`] of [`PendingInvestment`]s — and taking an investment's unresolved records
//! over for `invest_once` ([`InvestmentLedger::adopt`]).

use txc_types::investments::Invest;
use txc_types::values::ExactDecimal;

use super::record_ledger::{Held, Kept, RecordLedger};
use crate::{AttemptRecord, PendingInvestment, PendingRecord};

/// The investments in flight or unresolved, shared by clones of a core.
pub(crate) type InvestmentLedger = RecordLedger<PendingInvestment>;

/// Whether `a` and `b` are investments of the same plan and amount (by value: `250` is
/// `250.0`): what resolving cannot tell apart.
pub(crate) fn same_investment(a: &Invest, b: &Invest) -> bool {
    if a.plan_id() != b.plan_id() {
        return false;
    }
    let (x, y) = (a.amount().as_str(), b.amount().as_str());
    match (ExactDecimal::new(x), ExactDecimal::new(y)) {
        (Ok(x), Ok(y)) => x == y,
        _ => x == y,
    }
}

impl Kept for PendingInvestment {
    fn attempts(&self) -> &[AttemptRecord] {
        PendingInvestment::attempts(self)
    }
    fn same(&self, other: &Self) -> bool {
        same_investment(self.invest(), other.invest())
    }
    fn noted(&self, reason: &str) -> Self {
        self.clone().with_reason(reason)
    }
    fn record(&self) -> PendingRecord {
        PendingRecord::Investment(self.clone())
    }
    fn of(record: &PendingRecord) -> Option<&Self> {
        record.investment()
    }
}

impl RecordLedger<PendingInvestment> {
    /// Takes every unresolved record of `invest`'s plan and amount (signed in its first one's
    /// nonce mode) in flight, as one — their attempts together, oldest first — for
    /// `invest_once` to resolve before it invests: `None` when there is none. The journal gets
    /// the merged record, then forgets the others.
    pub(crate) fn adopt(&self, invest: &Invest) -> Option<PendingInvestment> {
        let mut held = self.held();
        let matching = |h: &Held<PendingInvestment>| {
            !h.in_flight && same_investment(h.record.invest(), invest)
        };
        let mode = held.iter().find(|h| matching(h))?.record.nonce_mode();
        let (taken, kept): (Vec<Held<PendingInvestment>>, Vec<Held<PendingInvestment>>) =
            std::mem::take(&mut *held)
                .into_iter()
                .partition(|h| matching(h) && h.record.nonce_mode() == mode);
        *held = kept;
        let first = taken.first()?;
        let mut attempts = Vec::new();
        for attempt in taken.iter().flat_map(|h| h.record.attempts()) {
            if !attempts
                .iter()
                .any(|a: &AttemptRecord| a.nonce == attempt.nonce)
            {
                attempts.push(*attempt);
            }
        }
        attempts.sort_by_key(|a| a.signed_at);
        let mut merged = PendingInvestment::new(first.record.invest().clone(), mode, attempts);
        if let Some(reason) = first.record.reason() {
            merged = merged.with_reason(reason);
        }
        held.push(Held {
            record: merged.clone(),
            in_flight: true,
        });
        drop(held);
        if taken.len() > 1
            && let Some(journal) = &self.journal
            && journal
                .record(&PendingRecord::Investment(merged.clone()))
                .is_ok()
        {
            for other in taken.iter().filter(|h| h.record.key() != merged.key()) {
                let _ = journal.clear(&PendingRecord::Investment(other.record.clone()));
            }
        }
        Some(merged)
    }
}
