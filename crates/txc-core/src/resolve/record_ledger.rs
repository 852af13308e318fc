//! [`RecordLedger`]: the operations of one kind a client sent whose outcome is not definite
//! yet — in flight, or unresolved (ended unknown, abandoned, or loaded from the journal) — each
//! known by its first attempt's nonce, and handed to the [`Journal`] before every attempt:
//! the modifies ([`ModifyLedger`](super::ModifyLedger)) and the operations that move money
//! ([`MoveLedger`](super::MoveLedger), every kind in one list). (Orders have a ledger of their
//! own, keyed by market and `clientOrderId`.)

use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use super::ledger::{Journal, NotRecorded};
use crate::{AttemptRecord, Error, Nonce, PendingRecord};

/// A pending record a [`RecordLedger`] keeps.
pub(crate) trait Kept: Clone {
    /// Every attempt, oldest first: the first is the record's key.
    fn attempts(&self) -> &[AttemptRecord];
    /// Whether `other` is an operation resolving could not tell from this one: what must not
    /// be sent while this is unresolved.
    fn same(&self, other: &Self) -> bool;
    /// The same record, noted with why resolving could not tell.
    fn noted(&self, reason: &str) -> Self;
    /// The record, for the journal.
    fn record(&self) -> PendingRecord;
    /// The record of this kind among a journal's.
    fn of(record: &PendingRecord) -> Option<&Self>;

    /// The record's key: its first attempt's nonce.
    fn key(&self) -> Option<Nonce> {
        self.attempts().first().map(|a| a.nonce)
    }

    /// When its first attempt was signed.
    fn first_signed_at(&self) -> Option<SystemTime> {
        self.attempts().iter().map(|a| a.signed_at).min()
    }
}

/// One record.
#[derive(Debug, Clone)]
pub(crate) struct Held<R> {
    pub(crate) record: R,
    /// A machine of this client is sending it (or resolving it).
    pub(crate) in_flight: bool,
}

/// The records in flight or unresolved, shared by clones of a core. They are few: a list,
/// under a lock of its own.
#[derive(Debug, Clone)]
pub(crate) struct RecordLedger<R> {
    pub(crate) held: Arc<Mutex<Vec<Held<R>>>>,
    pub(crate) journal: Option<Arc<dyn Journal>>,
}

impl<R: Kept> RecordLedger<R> {
    /// A ledger holding the records of its kind among `records` as unresolved (a journal's,
    /// read when the client is built).
    pub(crate) fn loaded(journal: Option<Arc<dyn Journal>>, records: &[PendingRecord]) -> Self {
        let ledger = Self {
            held: Arc::default(),
            journal,
        };
        for record in records.iter().filter_map(R::of) {
            ledger.load(record.clone());
        }
        ledger
    }

    pub(crate) fn held(&self) -> std::sync::MutexGuard<'_, Vec<Held<R>>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds `record` (a journal's) as unresolved, unless one with its key is held.
    fn load(&self, record: R) {
        let mut held = self.held();
        if record.key().is_some() && !held.iter().any(|h| h.record.key() == record.key()) {
            held.push(Held {
                record,
                in_flight: false,
            });
        }
    }

    /// An unresolved record resolving could not tell from `pending`, if one is held.
    pub(crate) fn unresolved_like(&self, pending: &R) -> Option<R> {
        self.held()
            .iter()
            .find(|h| !h.in_flight && h.record.same(pending))
            .map(|h| h.record.clone())
    }

    /// Records `pending` (every attempt so far, the one about to go included) in flight
    /// before it is sent, then hands it to the journal. With `check` (its first attempt), it
    /// first refuses one resolving could not tell from an unresolved record
    /// ([`Error::ResolveFirst`]).
    pub(crate) fn record(&self, pending: &R, check: bool) -> Result<(), NotRecorded> {
        {
            let mut held = self.held();
            if check
                && let Some(earlier) = held.iter().find(|h| !h.in_flight && h.record.same(pending))
            {
                let record = earlier.record.record();
                return Err(NotRecorded::InUse(Error::ResolveFirst(Box::new(record))));
            }
            let fresh = Held {
                record: pending.clone(),
                in_flight: true,
            };
            match held.iter_mut().find(|h| h.record.key() == pending.key()) {
                Some(known) => *known = fresh,
                None => held.push(fresh),
            }
        }
        match &self.journal {
            Some(journal) => journal
                .record(&pending.record())
                .map_err(NotRecorded::Journal),
            None => Ok(()),
        }
    }

    /// No machine owns the record with `pending`'s key any more: it is unresolved.
    pub(crate) fn abandon(&self, pending: &R) {
        if let Some(held) = self
            .held()
            .iter_mut()
            .find(|h| h.record.key() == pending.key())
        {
            held.in_flight = false;
        }
    }

    /// Notes that resolving `pending` could not tell, for `reason`: its record (held as
    /// unresolved if it was not) and its journal record carry it.
    pub(crate) fn note(&self, pending: &R, reason: &str) {
        if pending.key().is_none() {
            return;
        }
        let noted = pending.noted(reason);
        {
            let mut held = self.held();
            match held.iter_mut().find(|h| h.record.key() == pending.key()) {
                Some(known) => known.record = known.record.noted(reason),
                None => held.push(Held {
                    record: noted.clone(),
                    in_flight: false,
                }),
            }
        }
        if let Some(journal) = &self.journal {
            let _ = journal.record(&noted.record());
        }
    }

    /// Forgets the record with `pending`'s key, whose outcome is definite; the journal
    /// forgets it even when this ledger never held it.
    pub(crate) fn settle(&self, pending: &R) {
        if pending.key().is_none() {
            return;
        }
        self.held().retain(|h| h.record.key() != pending.key());
        if let Some(journal) = &self.journal {
            let _ = journal.clear(&pending.record());
        }
    }

    /// Discards the unresolved record with `pending`'s key (never one in flight): whether it
    /// was held. The journal forgets it either way.
    pub(crate) fn discard(&self, pending: &R) -> std::io::Result<bool> {
        let held = {
            let mut held = self.held();
            if held
                .iter()
                .any(|h| h.in_flight && h.record.key() == pending.key())
            {
                return Ok(false);
            }
            let before = held.len();
            held.retain(|h| h.record.key() != pending.key());
            held.len() < before
        };
        if let Some(journal) = &self.journal {
            journal.clear(&pending.record())?;
        }
        Ok(held)
    }

    /// The records in flight or unresolved, oldest first.
    pub(crate) fn pending(&self) -> Vec<R> {
        let mut records: Vec<R> = self.held().iter().map(|h| h.record.clone()).collect();
        records.sort_by_key(Kept::first_signed_at);
        records
    }
}
