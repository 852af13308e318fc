//! [`MoveLedger`]: the operations that move money a client sent whose outcome is not definite
//! yet — investments in fixed plans, investments in and withdrawals from flex plans — in flight,
//! or unresolved (ended unknown, abandoned, or loaded from the journal), each known by its
//! first attempt's nonce, and handed to the [`Journal`] before every attempt.

use std::sync::{Arc, Mutex, PoisonError};

use super::ledger::{Journal, NotRecorded};
use crate::{AttemptRecord, Error, MoneyMove, Nonce, PendingMove, PendingRecord};

/// One operation's record.
#[derive(Debug, Clone)]
struct Held {
    record: PendingRecord,
    /// A machine of this client is sending it (or resolving it, in a `*_once`).
    in_flight: bool,
}

impl Held {
    fn key(&self) -> Option<Nonce> {
        self.record.key()
    }

    /// The operation of kind `R`, if the record is one.
    fn of<R: MoneyMove>(&self) -> Option<&PendingMove<R>> {
        R::unwrap(&self.record)
    }

    /// Whether it is an unresolved operation of kind `R` that resolving could not tell from
    /// `request`.
    fn unresolved_like<R: MoneyMove>(&self, request: &R) -> bool {
        !self.in_flight && self.of::<R>().is_some_and(|p| p.request().same(request))
    }
}

/// A record's key: its first attempt's nonce.
fn key<R>(pending: &PendingMove<R>) -> Option<Nonce> {
    pending.attempts().first().map(|a| a.nonce)
}

/// The operations that move money in flight or unresolved, shared by clones of a core. They
/// are few: a list, under a lock of its own.
#[derive(Debug, Clone, Default)]
pub(crate) struct MoveLedger {
    held: Arc<Mutex<Vec<Held>>>,
    journal: Option<Arc<dyn Journal>>,
}

impl MoveLedger {
    /// A ledger holding the operations that move money among `records` as unresolved (a
    /// journal's, read when the client is built; its orders are the order ledger's).
    pub(crate) fn loaded(journal: Option<Arc<dyn Journal>>, records: &[PendingRecord]) -> Self {
        let ledger = Self {
            held: Arc::default(),
            journal,
        };
        {
            let mut held = ledger.held();
            for record in records.iter().filter(|r| r.order().is_none()) {
                if record.key().is_some() && !held.iter().any(|h| h.key() == record.key()) {
                    held.push(Held {
                        record: record.clone(),
                        in_flight: false,
                    });
                }
            }
        }
        ledger
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Vec<Held>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn journal_record(&self, record: &PendingRecord) -> std::io::Result<()> {
        match &self.journal {
            Some(journal) => journal.record(record),
            None => Ok(()),
        }
    }

    /// Records `pending` (every attempt so far, the one about to go included) in flight
    /// before it is sent, then hands it to the journal. With `check` (the first attempt of an
    /// operation), it first refuses one that resolving could not tell from an unresolved
    /// record ([`Error::ResolveFirst`]).
    pub(crate) fn record<R: MoneyMove>(
        &self,
        pending: &PendingMove<R>,
        check: bool,
    ) -> Result<(), NotRecorded> {
        let record = R::wrap(pending.clone());
        {
            let mut held = self.held();
            if check
                && let Some(earlier) = held.iter().find(|h| h.unresolved_like(pending.request()))
            {
                let earlier = Box::new(earlier.record.clone());
                return Err(NotRecorded::InUse(Error::ResolveFirst(earlier)));
            }
            let fresh = Held {
                record: record.clone(),
                in_flight: true,
            };
            match held.iter_mut().find(|h| h.key() == key(pending)) {
                Some(known) => *known = fresh,
                None => held.push(fresh),
            }
        }
        self.journal_record(&record).map_err(NotRecorded::Journal)
    }

    /// Takes every unresolved record resolving could not tell from `request` (signed in its
    /// first one's nonce mode) in flight, as one — their attempts together, oldest first — for
    /// a `*_once` to resolve before it sends: `None` when there is none. The journal gets the
    /// merged record, then forgets the others.
    pub(crate) fn adopt<R: MoneyMove>(&self, request: &R) -> Option<PendingMove<R>> {
        let mut held = self.held();
        let mode = held
            .iter()
            .find(|h| h.unresolved_like(request))?
            .of::<R>()?
            .nonce_mode();
        let (taken, kept): (Vec<Held>, Vec<Held>) =
            std::mem::take(&mut *held).into_iter().partition(|h| {
                h.unresolved_like(request) && h.of::<R>().is_some_and(|p| p.nonce_mode() == mode)
            });
        *held = kept;
        let records: Vec<&PendingMove<R>> = taken.iter().filter_map(Held::of::<R>).collect();
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
        held.push(Held {
            record: R::wrap(merged.clone()),
            in_flight: true,
        });
        drop(held);
        if let Some(journal) = &self.journal
            && taken.len() > 1
            && journal.record(&R::wrap(merged.clone())).is_ok()
        {
            for other in taken.iter().filter(|h| h.key() != key(&merged)) {
                let _ = journal.clear(&other.record);
            }
        }
        Some(merged)
    }

    /// No machine owns the record with `pending`'s key any more: it is unresolved.
    pub(crate) fn abandon<R>(&self, pending: &PendingMove<R>) {
        if let Some(held) = self.held().iter_mut().find(|h| h.key() == key(pending)) {
            held.in_flight = false;
        }
    }

    /// Notes that resolving `pending` could not tell, for `reason`: its record (held as
    /// unresolved if it was not) and its journal record carry it.
    pub(crate) fn note<R: MoneyMove>(&self, pending: &PendingMove<R>, reason: &str) {
        if key(pending).is_none() {
            return;
        }
        let noted = R::wrap(pending.clone().with_reason(reason));
        {
            let mut held = self.held();
            match held.iter_mut().find(|h| h.key() == key(pending)) {
                Some(known) => {
                    if let Some(record) = known.of::<R>() {
                        known.record = R::wrap(record.clone().with_reason(reason));
                    }
                }
                None => held.push(Held {
                    record: noted.clone(),
                    in_flight: false,
                }),
            }
        }
        let _ = self.journal_record(&noted);
    }

    /// Forgets the record with `pending`'s key, whose outcome is definite; the journal
    /// forgets it even when this ledger never held it.
    pub(crate) fn settle<R: MoneyMove>(&self, pending: &PendingMove<R>) {
        if key(pending).is_none() {
            return;
        }
        self.held().retain(|h| h.key() != key(pending));
        if let Some(journal) = &self.journal {
            let _ = journal.clear(&R::wrap(pending.clone()));
        }
    }

    /// Discards the unresolved record with `record`'s key (never one in flight): whether it
    /// was held. The journal forgets it either way.
    pub(crate) fn discard(&self, record: &PendingRecord) -> std::io::Result<bool> {
        let held = {
            let mut held = self.held();
            if held.iter().any(|h| h.in_flight && h.key() == record.key()) {
                return Ok(false);
            }
            let before = held.len();
            held.retain(|h| h.key() != record.key());
            held.len() < before
        };
        if let Some(journal) = &self.journal {
            journal.clear(record)?;
        }
        Ok(held)
    }

    /// The operations of kind `R` in flight or unresolved, oldest first.
    pub(crate) fn pending<R: MoneyMove>(&self) -> Vec<PendingMove<R>> {
        let mut records: Vec<PendingMove<R>> = self
            .held()
            .iter()
            .filter_map(|h| h.of::<R>().cloned())
            .collect();
        records.sort_by_key(PendingMove::first_signed_at);
        records
    }
}
