//! [`InvestmentLedger`]: the investments a client sent whose outcome is not definite yet — in
//! flight, or unresolved (ended unknown, abandoned, or loaded from the journal) — each known by
//! its first attempt's nonce, and handed to the [`Journal`] before every attempt.

use std::sync::{Arc, Mutex, PoisonError};

use txc_types::investments::Invest;
use txc_types::values::ExactDecimal;

use super::ledger::{Journal, NotRecorded};
use crate::{Error, Nonce, PendingInvestment, PendingRecord};

/// One investment's record.
#[derive(Debug, Clone)]
struct Held {
    record: PendingInvestment,
    /// A machine of this client is investing it (or resolving it, in `invest_once`).
    in_flight: bool,
}

impl Held {
    fn key(&self) -> Option<Nonce> {
        key(&self.record)
    }
}

/// A record's key: its first attempt's nonce.
fn key(record: &PendingInvestment) -> Option<Nonce> {
    record.attempts().first().map(|a| a.nonce)
}

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

/// The investments in flight or unresolved, shared by clones of a core. Investments are few:
/// a list, under a lock of its own.
#[derive(Debug, Clone, Default)]
pub(crate) struct InvestmentLedger {
    held: Arc<Mutex<Vec<Held>>>,
    journal: Option<Arc<dyn Journal>>,
}

impl InvestmentLedger {
    /// A ledger holding the investments among `records` as unresolved (a journal's, read
    /// when the client is built).
    pub(crate) fn loaded(journal: Option<Arc<dyn Journal>>, records: &[PendingRecord]) -> Self {
        let ledger = Self {
            held: Arc::default(),
            journal,
        };
        for investment in records.iter().filter_map(PendingRecord::investment) {
            ledger.load(investment.clone());
        }
        ledger
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Vec<Held>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds `record` (a journal's) as unresolved, unless one with its key is held.
    fn load(&self, record: PendingInvestment) {
        let mut held = self.held();
        if key(&record).is_some() && !held.iter().any(|h| h.key() == key(&record)) {
            held.push(Held {
                record,
                in_flight: false,
            });
        }
    }

    /// Records `pending` (every attempt so far, the one about to go included) in flight
    /// before it is sent, then hands it to the journal. With `check` (the first attempt of an
    /// investment), it first refuses one of the plan and amount of an unresolved record
    /// ([`Error::ResolveFirst`]): resolving could not tell the two apart.
    pub(crate) fn record(
        &self,
        pending: &PendingInvestment,
        check: bool,
    ) -> Result<(), NotRecorded> {
        {
            let mut held = self.held();
            if check
                && let Some(earlier) = held
                    .iter()
                    .find(|h| !h.in_flight && same_investment(h.record.invest(), pending.invest()))
            {
                let record = PendingRecord::Investment(earlier.record.clone());
                return Err(NotRecorded::InUse(Error::ResolveFirst(Box::new(record))));
            }
            let fresh = Held {
                record: pending.clone(),
                in_flight: true,
            };
            match held.iter_mut().find(|h| h.key() == key(pending)) {
                Some(known) => *known = fresh,
                None => held.push(fresh),
            }
        }
        match &self.journal {
            Some(journal) => journal
                .record(&PendingRecord::Investment(pending.clone()))
                .map_err(NotRecorded::Journal),
            None => Ok(()),
        }
    }

    /// Takes every unresolved record of `invest`'s plan and amount (signed in its first one's
    /// nonce mode) in flight, as one — their attempts together, oldest first — for
    /// `invest_once` to resolve before it invests: `None` when there is none. The journal gets
    /// the merged record, then forgets the others.
    pub(crate) fn adopt(&self, invest: &Invest) -> Option<PendingInvestment> {
        let mut held = self.held();
        let matching = |h: &Held| !h.in_flight && same_investment(h.record.invest(), invest);
        let mode = held.iter().find(|h| matching(h))?.record.nonce_mode();
        let (taken, kept): (Vec<Held>, Vec<Held>) = std::mem::take(&mut *held)
            .into_iter()
            .partition(|h| matching(h) && h.record.nonce_mode() == mode);
        *held = kept;
        let first = taken.first()?;
        let mut attempts = Vec::new();
        for attempt in taken.iter().flat_map(|h| h.record.attempts()) {
            if !attempts
                .iter()
                .any(|a: &crate::AttemptRecord| a.nonce == attempt.nonce)
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
            for other in taken.iter().filter(|h| h.key() != key(&merged)) {
                let _ = journal.clear(&PendingRecord::Investment(other.record.clone()));
            }
        }
        Some(merged)
    }

    /// No machine owns the record with `pending`'s key any more: it is unresolved.
    pub(crate) fn abandon(&self, pending: &PendingInvestment) {
        if let Some(held) = self.held().iter_mut().find(|h| h.key() == key(pending)) {
            held.in_flight = false;
        }
    }

    /// Notes that resolving `pending` could not tell, for `reason`: its record (held as
    /// unresolved if it was not) and its journal record carry it.
    pub(crate) fn note(&self, pending: &PendingInvestment, reason: &str) {
        if key(pending).is_none() {
            return;
        }
        let noted = pending.clone().with_reason(reason);
        {
            let mut held = self.held();
            match held.iter_mut().find(|h| h.key() == key(pending)) {
                Some(known) => known.record = known.record.clone().with_reason(reason),
                None => held.push(Held {
                    record: noted.clone(),
                    in_flight: false,
                }),
            }
        }
        if let Some(journal) = &self.journal {
            let _ = journal.record(&PendingRecord::Investment(noted));
        }
    }

    /// Forgets the record with `pending`'s key, whose outcome is definite; the journal
    /// forgets it even when this ledger never held it.
    pub(crate) fn settle(&self, pending: &PendingInvestment) {
        if key(pending).is_none() {
            return;
        }
        self.held().retain(|h| h.key() != key(pending));
        if let Some(journal) = &self.journal {
            let _ = journal.clear(&PendingRecord::Investment(pending.clone()));
        }
    }

    /// Discards the unresolved record with `pending`'s key (never one in flight): whether it
    /// was held. The journal forgets it either way.
    pub(crate) fn discard(&self, pending: &PendingInvestment) -> std::io::Result<bool> {
        let held = {
            let mut held = self.held();
            if held.iter().any(|h| h.in_flight && h.key() == key(pending)) {
                return Ok(false);
            }
            let before = held.len();
            held.retain(|h| h.key() != key(pending));
            held.len() < before
        };
        if let Some(journal) = &self.journal {
            journal.clear(&PendingRecord::Investment(pending.clone()))?;
        }
        Ok(held)
    }

    /// The investments in flight or unresolved, oldest first.
    pub(crate) fn pending(&self) -> Vec<PendingInvestment> {
        let mut records: Vec<PendingInvestment> =
            self.held().iter().map(|h| h.record.clone()).collect();
        records.sort_by_key(PendingInvestment::first_signed_at);
        records
    }
}
