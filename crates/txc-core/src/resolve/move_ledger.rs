//! [`MoveLedger`]: the operations that move money a client sent whose outcome is not definite
//! yet — investments in fixed plans, investments in and withdrawals from flex plans — in flight,
//! or unresolved (ended unknown, abandoned, or loaded from the journal), each known by its
//! first attempt's nonce, and handed to the [`Journal`](super::ledger::Journal) before every
//! attempt. It is the one generic [`RecordLedger`], holding every kind as the journal's
//! [`PendingRecord`] (told apart by [`MoneyMove`]), with what only moves do: adopting the
//! unresolved operations of a request as one.

use txc_types::investments::Invest;
use txc_types::investments::flex::{FlexInvest, FlexWithdraw};

use super::ledger::NotRecorded;
use super::record_ledger::{Held, Kept, RecordLedger};
use crate::{AttemptRecord, MoneyMove, PendingMove, PendingRecord};

/// A journal's record as the move ledger keeps it: every kind but an order (the order
/// ledger's).
impl Kept for PendingRecord {
    fn attempts(&self) -> &[AttemptRecord] {
        PendingRecord::attempts(self)
    }
    /// Operations of the same kind that resolving cannot tell apart.
    fn same(&self, other: &Self) -> bool {
        same::<Invest>(self, other)
            || same::<FlexInvest>(self, other)
            || same::<FlexWithdraw>(self, other)
    }
    fn noted(&self, reason: &str) -> Self {
        match self.clone() {
            Self::Order(order) => Self::Order(order.with_reason(reason)),
            Self::Investment(invest) => Self::Investment(invest.with_reason(reason)),
            Self::FlexInvest(invest) => Self::FlexInvest(invest.with_reason(reason)),
            Self::FlexWithdraw(withdraw) => Self::FlexWithdraw(withdraw.with_reason(reason)),
            Self::Modify(modify) => Self::Modify(modify.with_reason(reason)),
        }
    }
    fn record(&self) -> PendingRecord {
        self.clone()
    }
    fn of(record: &PendingRecord) -> Option<&Self> {
        record.order().is_none().then_some(record)
    }
}

/// Whether `a` and `b` are both operations of kind `R` resolving cannot tell apart.
fn same<R: MoneyMove>(a: &PendingRecord, b: &PendingRecord) -> bool {
    match (R::unwrap(a), R::unwrap(b)) {
        (Some(a), Some(b)) => a.request().same(b.request()),
        _ => false,
    }
}

/// The operations that move money in flight or unresolved, shared by clones of a core.
#[derive(Debug, Clone)]
pub(crate) struct MoveLedger(RecordLedger<PendingRecord>);

impl MoveLedger {
    /// A ledger holding the operations that move money among `records` as unresolved (a
    /// journal's, read when the client is built; its orders are the order ledger's).
    pub(crate) fn loaded(
        journal: Option<std::sync::Arc<dyn super::ledger::Journal>>,
        records: &[PendingRecord],
    ) -> Self {
        Self(RecordLedger::loaded(journal, records))
    }

    /// Records `pending` in flight before it is sent, then hands it to the journal; with
    /// `check` (the first attempt) it first refuses one resolving could not tell from an
    /// unresolved record ([`RecordLedger::record`]).
    pub(crate) fn record<R: MoneyMove>(
        &self,
        pending: &PendingMove<R>,
        check: bool,
    ) -> Result<(), NotRecorded> {
        self.0.record(&R::wrap(pending.clone()), check)
    }

    /// Takes every unresolved record resolving could not tell from `request` (signed in its
    /// first one's nonce mode) in flight, as one — their attempts together, oldest first — for
    /// a `*_once` to resolve before it sends: `None` when there is none. The journal gets the
    /// merged record, then forgets the others.
    pub(crate) fn adopt<R: MoneyMove>(&self, request: &R) -> Option<PendingMove<R>> {
        let like = |h: &Held<PendingRecord>| {
            !h.in_flight && R::unwrap(&h.record).is_some_and(|p| p.request().same(request))
        };
        let mut held = self.0.held();
        let mode = R::unwrap(&held.iter().find(|h| like(h))?.record)?.nonce_mode();
        let (taken, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut *held)
            .into_iter()
            .partition(|h| like(h) && R::unwrap(&h.record).is_some_and(|p| p.nonce_mode() == mode));
        *held = kept;
        let records: Vec<&PendingMove<R>> =
            taken.iter().filter_map(|h| R::unwrap(&h.record)).collect();
        let first = records.first()?;
        let mut attempts: Vec<AttemptRecord> = Vec::new();
        for attempt in records.iter().flat_map(|p| p.attempts()) {
            if !attempts.iter().any(|a| a.nonce == attempt.nonce) {
                attempts.push(*attempt);
            }
        }
        attempts.sort_by_key(|a| a.signed_at);
        let mut merged = PendingMove::new(first.request().clone(), mode, attempts);
        if let Some(reason) = first.reason() {
            merged = merged.with_reason(reason);
        }
        let record = R::wrap(merged.clone());
        held.push(Held {
            record: record.clone(),
            in_flight: true,
        });
        drop(held);
        if let Some(journal) = &self.0.journal
            && taken.len() > 1
            && journal.record(&record).is_ok()
        {
            for other in taken.iter().filter(|h| h.record.key() != record.key()) {
                let _ = journal.clear(&other.record);
            }
        }
        Some(merged)
    }

    /// No machine owns the record with `pending`'s key any more: it is unresolved.
    pub(crate) fn abandon<R: MoneyMove>(&self, pending: &PendingMove<R>) {
        self.0.abandon(&R::wrap(pending.clone()));
    }

    /// Notes that resolving `pending` could not tell, for `reason`: its record (held as
    /// unresolved if it was not) and its journal record carry it.
    pub(crate) fn note<R: MoneyMove>(&self, pending: &PendingMove<R>, reason: &str) {
        self.0.note(&R::wrap(pending.clone()), reason);
    }

    /// Forgets the record with `pending`'s key, whose outcome is definite; the journal
    /// forgets it even when this ledger never held it.
    pub(crate) fn settle<R: MoneyMove>(&self, pending: &PendingMove<R>) {
        self.0.settle(&R::wrap(pending.clone()));
    }

    /// Discards the unresolved record with `record`'s key (never one in flight): whether it
    /// was held. The journal forgets it either way.
    pub(crate) fn discard(&self, record: &PendingRecord) -> std::io::Result<bool> {
        self.0.discard(record)
    }

    /// The operations of kind `R` in flight or unresolved, oldest first.
    pub(crate) fn pending<R: MoneyMove>(&self) -> Vec<PendingMove<R>> {
        self.0
            .pending()
            .iter()
            .filter_map(|record| R::unwrap(record).cloned())
            .collect()
    }
}
