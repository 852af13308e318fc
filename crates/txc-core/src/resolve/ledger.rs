//! The client's record of its operations in flight and unresolved: [`Journal`], the hook that
//! persists each one's pending record before it is sent (and gives the records back when a
//! client is built), and the in-memory ledger every client keeps of its orders (in flight and
//! unresolved, and the ids it used recently, which it refuses to reuse inside their window;
//! its investments are `investment_ledger`'s).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use txc_types::values::{ClientOrderId, Market};

use super::evidence::{CREATION_ALLOWANCE, NONCE_WINDOW};
use crate::socket::SocketAttempt;
use crate::stream::{OrderSightings, SightingWatch};
use crate::{AttemptRecord, Error, Nonce, NonceMode, PendingOrder, PendingRecord};

/// Where a client persists the pending record of each order and investment before sending it,
/// so that a crash, a killed process or a dropped future leaves what resolving needs — and
/// where the next client built with it finds them: the client's memory across processes.
///
/// A record is one placement of an order (or one investment) with every attempt so far, known
/// by its first attempt's nonce ([`PendingRecord::key`]): two placements of one
/// `clientOrderId` are two records.
///
/// - [`record`](Journal::record) comes before **every** attempt, with every attempt so far
///   including the one about to go (replacing the record with the same key) — if it fails,
///   that attempt is not sent (it counts as [not sent](crate::Delivery::NotSent)) — and again
///   when resolving could not tell, the record then carrying the
///   [reason](PendingRecord::reason);
/// - [`clear`](Journal::clear) forgets the record with the given key once its own outcome is
///   definite (placed or invested; certainly not: refused, or resolved as not placed), or
///   when the caller discards it (`discard_pending`). Settling one record never clears
///   another;
/// - [`load`](Journal::load), when a client is built with the journal: every record kept. The
///   client holds them as unresolved — `pending_orders`, `pending_investments` — and
///   refuses to send blindly what they may already have done: a plain `place` or `invest` of
///   the same `clientOrderId` (or plan and amount) fails with
///   [`Error::ResolveFirst`] before any I/O, `place_once` and `invest_once` resolve them first.
///   A failed load fails the build.
///
/// Both transports call it from the core, on the thread or task that sends: keep it quick (a
/// file write). One journal serves one client at a time for a given record: a record a
/// running process still owns is taken as unresolved by a client built beside it.
///
/// The CLI's journal writes one file per record in the user's state directory (its format is
/// versioned and documented in txc-cli's README); `txc pending` lists them, `txc resolve` and
/// `txc resolve-investment` read them.
pub trait Journal: Send + Sync + fmt::Debug {
    /// Persists `record` (replacing the one with the same key), before an attempt to send it.
    fn record(&self, record: &PendingRecord) -> std::io::Result<()>;
    /// Forgets the record with `record`'s key: its outcome is definite, or it was discarded.
    fn clear(&self, record: &PendingRecord) -> std::io::Result<()>;
    /// Every record kept, for a client being built with the journal.
    fn load(&self) -> std::io::Result<Vec<PendingRecord>>;
}

/// How long the ledger keeps a settled id: past both windows (2 × the nonce window plus the
/// creation allowance), with room for clock steps.
const KEEP_SETTLED: Duration = Duration::from_secs(30);
/// The fewest settled ids the ledger holds before it drops old ones.
const PRUNE_AT: usize = 1_024;

/// One order's record as the ledger holds it: the market and id are the slot's keys.
#[derive(Debug, Clone)]
struct Held {
    /// Whether it is a trigger order ([`PendingOrder::with_trigger`]).
    trigger: bool,
    /// Every attempt so far, oldest first: the first is the record's key.
    attempts: Vec<AttemptRecord>,
    /// Every attempt over the WebSocket, oldest first: the first is the key of a record
    /// without attempts over REST.
    socket: Vec<SocketAttempt>,
    /// Why resolving could not tell, if it was tried.
    reason: Option<String>,
}

impl Held {
    fn of(order: &PendingOrder) -> Self {
        Self {
            trigger: order.is_trigger(),
            attempts: order.attempts().to_vec(),
            socket: order.socket_attempts().to_vec(),
            reason: order.reason().map(str::to_owned),
        }
    }

    fn key(&self) -> Option<Nonce> {
        super::pending::record_key(&self.attempts, &self.socket)
    }
}

/// An order's record to keep before an attempt: its market and id borrowed from the order,
/// every attempt so far (the one about to go included).
#[derive(Debug)]
pub(crate) struct Record<'a> {
    pub(crate) market: &'a Market,
    pub(crate) client_order_id: &'a ClientOrderId,
    pub(crate) trigger: bool,
    pub(crate) attempts: Vec<AttemptRecord>,
    /// Its attempts over the WebSocket (the one about to go included, for a socket order).
    pub(crate) socket: Vec<SocketAttempt>,
}

impl<'a> Record<'a> {
    /// The record of `order` (its attempts copied).
    #[cfg(test)]
    fn of(order: &'a PendingOrder) -> Self {
        Self {
            market: order.market(),
            client_order_id: order.client_order_id(),
            trigger: order.is_trigger(),
            attempts: order.attempts().to_vec(),
            socket: order.socket_attempts().to_vec(),
        }
    }

    /// The whole record, for the journal.
    fn to_pending(&self) -> PendingRecord {
        PendingRecord::Order(pending_order(
            self.market,
            self.client_order_id,
            &Held {
                trigger: self.trigger,
                attempts: self.attempts.clone(),
                socket: self.socket.clone(),
                reason: None,
            },
        ))
    }
}

/// A [`PendingOrder`] made of its parts.
fn pending_order(market: &Market, id: &ClientOrderId, held: &Held) -> PendingOrder {
    let order = PendingOrder::new(market.clone(), id.clone(), held.attempts.clone())
        .with_trigger(held.trigger)
        .with_socket_attempts(held.socket.iter().copied());
    match &held.reason {
        Some(reason) => order.with_reason(reason.clone()),
        None => order,
    }
}

/// What the ledger knows of a `(market, clientOrderId)` in use: until every record of it is
/// definite.
#[derive(Debug, Default)]
struct Slot {
    /// The record of the placement in flight: a machine of this client is placing it (or, in
    /// `place_once`, resolving it). At most one: the reuse check refuses a second.
    pending: Option<Held>,
    /// The records no machine owns — ended unknown, abandoned by a dropped future, or loaded
    /// from the journal — each cleared only by its own definite answer.
    unresolved: Vec<Held>,
    /// What the client's streams show of it: kept from before the first attempt until the
    /// outcome is definite, so that resolving finds an event that came meanwhile.
    watch: Option<SightingWatch>,
}

impl Slot {
    /// Whether no record is left.
    fn is_empty(&self) -> bool {
        self.pending.is_none() && self.unresolved.is_empty()
    }

    /// Takes the record with `key` out, in flight or not: whether it was unresolved, and it.
    fn take(&mut self, key: Option<Nonce>) -> Option<(bool, Held)> {
        if self.pending.as_ref().is_some_and(|h| h.key() == key) {
            return self.pending.take().map(|held| (false, held));
        }
        let at = self.unresolved.iter().position(|h| h.key() == key)?;
        Some((true, self.unresolved.remove(at)))
    }

    /// The record with `key`, in flight or not.
    fn find(&mut self, key: Option<Nonce>) -> Option<&mut Held> {
        self.pending
            .iter_mut()
            .chain(self.unresolved.iter_mut())
            .find(|h| h.key() == key)
    }
}

/// A map keyed by a market or a `clientOrderId`, with the [`FastHash`](crate::fast_hash) of
/// the caller's own keys.
type Map<K, V> = HashMap<K, V, crate::fast_hash::FastHash>;

/// The ledger's ids by market, then by `clientOrderId`, looked up by borrowed text: the slots
/// of the ids in use, and apart from them the settled ids with their last attempt's nonce time
/// (ms), which the ledger keeps for the reuse check.
///
/// A settled id takes its key and eight bytes, not a whole slot: a client placing many orders
/// keeps some seconds' worth of them (BENCHMARKS.md, issue 27). Settling moves the key from
/// the slot to the settled ids, without a copy.
#[derive(Debug, Default)]
struct Entries {
    markets: Map<Market, Map<ClientOrderId, Slot>>,
    settled: Map<Market, Map<ClientOrderId, u64>>,
    /// How many settled ids trigger dropping the old ones (amortized: twice what was left).
    prune_at: usize,
}

/// Runs `f` on `market`'s map in `by_market`, made if there is none (without a copy of the
/// market's name when there is).
fn with_ids<V: Default, R>(
    by_market: &mut Map<Market, V>,
    market: &Market,
    f: impl FnOnce(&mut V) -> R,
) -> R {
    if let Some(ids) = by_market.get_mut(market.as_str()) {
        return f(ids);
    }
    f(by_market.entry(market.clone()).or_default())
}

impl Entries {
    /// When `id` on `market` was settled (its last attempt's nonce time, ms), if it is kept.
    fn settled_at(&self, market: &Market, id: &ClientOrderId) -> Option<u64> {
        self.settled.get(market.as_str())?.get(id.as_str()).copied()
    }

    /// Keeps `id` (owned: the key) as settled at `last`.
    fn settle(&mut self, market: &Market, id: ClientOrderId, last: u64) {
        with_ids(&mut self.settled, market, |ids| {
            ids.insert(id, last);
        });
    }

    /// How many settled ids are kept (a sum over the few markets of the client).
    fn settled_len(&self) -> usize {
        self.settled.values().map(HashMap::len).sum()
    }

    /// The slot of `id` on `market`, if there is one.
    fn slot(&mut self, market: &Market, id: &ClientOrderId) -> Option<&mut Slot> {
        self.markets.get_mut(market.as_str())?.get_mut(id.as_str())
    }

    /// Why a new order with an id, placed at nonce time `now_ms`, must not go: an order with
    /// the id is in flight (`slot`'s), or unresolved, or was settled at `settled`, too
    /// recently.
    fn reuse_refusal(
        slot: Option<&Slot>,
        settled: Option<u64>,
        now_ms: u64,
        market: &Market,
        id: &ClientOrderId,
    ) -> Option<Error> {
        let in_use = |reason: String| Error::ClientOrderIdInUse {
            client_order_id: id.as_str().to_owned(),
            reason,
        };
        if slot.is_some_and(|s| s.pending.is_some()) {
            return Some(in_use(
                "an earlier order of this client with the same clientOrderId on this market is \
                 still in flight; wait for its answer (or resolve it, from the client's \
                 pending_orders) before placing another with the id"
                    .to_owned(),
            ));
        }
        if let Some(held) = slot.and_then(|s| s.unresolved.first()) {
            let order = pending_order(market, id, held);
            return Some(Error::ResolveFirst(Box::new(PendingRecord::Order(order))));
        }
        let last = settled?;
        let apart = ms(NONCE_WINDOW) * 2 + ms(CREATION_ALLOWANCE);
        (now_ms < last.saturating_add(apart)).then(|| {
            in_use(format!(
                "this client placed an order with the same clientOrderId on this market {} ms \
                 ago: their acceptance windows overlap, so resolving could not tell the two \
                 apart; give each order its own clientOrderId",
                now_ms.saturating_sub(last)
            ))
        })
    }

    /// Drops the settled ids older than [`KEEP_SETTLED`] before `last`, once there are many.
    fn prune(&mut self, last: u64) {
        if self.settled_len() < self.prune_at.max(PRUNE_AT) {
            return;
        }
        let keep = ms(KEEP_SETTLED);
        for ids in self.settled.values_mut() {
            ids.retain(|_, at| at.saturating_add(keep) >= last);
        }
        self.settled.retain(|_, ids| !ids.is_empty());
        self.markets.retain(|_, ids| !ids.is_empty());
        self.prune_at = self.settled_len().saturating_mul(2);
    }
}

/// Why the ledger did not record an attempt.
#[derive(Debug)]
pub(crate) enum NotRecorded {
    /// The operation reuses an id it must not, or an earlier one like it is unresolved:
    /// nothing is to be sent.
    InUse(Error),
    /// The journal failed: the attempt must not go.
    Journal(std::io::Error),
}

/// What becomes of `request`, an attempt of `what` (an order, an investment) of `call`, once
/// the ledger `recorded` it or not: sent (the ledger holds it in flight: `in_flight` set);
/// refused, nothing sent; or — the journal failed — not sent at all, `call` told so (it may try
/// again, signed afresh): `None`, ask the machine for its next step.
pub(crate) fn send_if_recorded<E: txc_types::endpoint::Endpoint, T>(
    recorded: Result<(), NotRecorded>,
    request: crate::SignedRequest,
    in_flight: &mut bool,
    call: &mut crate::Call<'_, E>,
    what: &str,
) -> Option<crate::Step<Result<T, Error>>> {
    use crate::Machine as _;
    match recorded {
        Ok(()) => {
            *in_flight = true;
            Some(crate::Step::Send(request))
        }
        Err(NotRecorded::InUse(refused)) => Some(crate::Step::Done(Err(refused))),
        Err(NotRecorded::Journal(failed)) => {
            // The ledger holds it, the journal does not: the attempt must not go.
            *in_flight = true;
            drop(request);
            call.receive(Err(crate::TransportError::not_sent(
                crate::TransportErrorKind::Other,
                format!("the journal could not record the {what} before it was sent: {failed}"),
            )));
            None
        }
    }
}

/// The in-memory ledger, shared by clones of a core, the caller's [`Journal`], and where the
/// client's streams publish the orders they see.
///
/// One lock per attempt and one when the outcome is definite; the id-reuse check is made in
/// the first attempt's.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ledger {
    entries: Arc<Mutex<Entries>>,
    journal: Option<Arc<dyn Journal>>,
    sightings: OrderSightings,
    /// How many order records no machine owns: the check before any I/O reads it without
    /// the lock (none, nearly always).
    unresolved: Arc<AtomicUsize>,
}

impl Ledger {
    pub(crate) fn new(journal: Option<Arc<dyn Journal>>, sightings: OrderSightings) -> Self {
        Self {
            entries: Arc::default(),
            journal,
            sightings,
            unresolved: Arc::default(),
        }
    }

    /// A ledger holding the orders among `records` as unresolved (a journal's, read when the
    /// client is built).
    pub(crate) fn loaded(
        journal: Option<Arc<dyn Journal>>,
        sightings: OrderSightings,
        records: &[PendingRecord],
    ) -> Self {
        let ledger = Self::new(journal, sightings);
        for order in records.iter().filter_map(PendingRecord::order) {
            ledger.hold_unresolved(order);
        }
        ledger
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `order` (every attempt so far, including the one about to go) before it is
    /// sent, then hands it to the journal.
    ///
    /// With `reuse_at` (the first attempt's nonce time, ms), it first refuses an order whose
    /// id this client uses for an order in flight, holds unresolved ([`Error::ResolveFirst`]),
    /// or used for one whose acceptance window could overlap the new one's: the two could not
    /// be told apart. A refused order is not recorded.
    pub(crate) fn record(
        &self,
        record: Record<'_>,
        reuse_at: Option<u64>,
    ) -> Result<(), NotRecorded> {
        let journaled = self.journal.as_ref().map(|j| (j, record.to_pending()));
        let Record {
            market,
            client_order_id: id,
            trigger,
            attempts,
            socket,
        } = record;
        let mut entries = self.entries();
        let settled = reuse_at.and_then(|_| entries.settled_at(market, id));
        with_ids(&mut entries.markets, market, |ids| {
            // One look-up of the ids in use: the slot's entry (a copy of the id, the key), left
            // vacant when the order is refused.
            let entry = ids.entry(id.clone());
            if let Some(now) = reuse_at {
                let slot = match &entry {
                    Entry::Occupied(slot) => Some(slot.get()),
                    Entry::Vacant(_) => None,
                };
                if let Some(refused) = Entries::reuse_refusal(slot, settled, now, market, id) {
                    return Err(NotRecorded::InUse(refused));
                }
            }
            let slot = entry.or_default();
            // Expected only once a stream publishes to the client's sightings: before, no
            // event can come (resolving expects the order itself, and falls back to look-ups).
            if slot.watch.is_none() && self.sightings.is_published_to() {
                slot.watch = Some(self.sightings.expect(market.as_str(), id.as_str()));
            }
            slot.pending = Some(Held {
                trigger,
                attempts,
                socket,
                reason: None,
            });
            Ok(())
        })?;
        drop(entries);
        match journaled {
            Some((journal, order)) => journal.record(&order).map_err(NotRecorded::Journal),
            None => Ok(()),
        }
    }

    /// Whether the ledger holds an unresolved record of `id` on `market` (without the lock
    /// when it holds none at all).
    pub(crate) fn holds_unresolved(&self, market: &Market, id: &ClientOrderId) -> bool {
        if self.unresolved.load(Ordering::Acquire) == 0 {
            return false;
        }
        self.entries()
            .slot(market, id)
            .is_some_and(|slot| !slot.unresolved.is_empty())
    }

    /// Takes every unresolved record of `id` on `market` in flight, as one (their attempts
    /// together, oldest first), for `place_once` to resolve before it places: `None` when
    /// there is none; [`Error::ClientOrderIdInUse`] when an order with the id is in flight.
    /// The journal gets the merged record, then forgets the others.
    pub(crate) fn adopt(
        &self,
        market: &Market,
        id: &ClientOrderId,
    ) -> Result<Option<PendingOrder>, Error> {
        if self.unresolved.load(Ordering::Acquire) == 0 {
            // An order in flight with the id is refused by the placement's own record.
            return Ok(None);
        }
        let mut entries = self.entries();
        let Some(slot) = entries.slot(market, id) else {
            return Ok(None);
        };
        if let Some(refused) = Entries::reuse_refusal(Some(&*slot), None, 0, market, id)
            .filter(|e| matches!(e, Error::ClientOrderIdInUse { .. }))
        {
            return Err(refused);
        }
        let records = std::mem::take(&mut slot.unresolved);
        let Some(first) = records.first() else {
            return Ok(None);
        };
        let mut merged = Held {
            trigger: records.iter().any(|h| h.trigger),
            attempts: Vec::new(),
            socket: Vec::new(),
            reason: first.reason.clone(),
        };
        for held in &records {
            for attempt in &held.attempts {
                if !merged.attempts.iter().any(|a| a.nonce == attempt.nonce) {
                    merged.attempts.push(*attempt);
                }
            }
            for attempt in &held.socket {
                if !merged
                    .socket
                    .iter()
                    .any(|a| a.written_at == attempt.written_at)
                {
                    merged.socket.push(*attempt);
                }
            }
        }
        merged.attempts.sort_by_key(|a| a.signed_at);
        merged.socket.sort_by_key(|a| a.written_at);
        slot.pending = Some(merged.clone());
        self.unresolved.fetch_sub(records.len(), Ordering::AcqRel);
        drop(entries);
        let order = pending_order(market, id, &merged);
        if records.len() > 1
            && let Some(journal) = &self.journal
        {
            // The merged record first: a crash in between leaves every attempt journaled.
            if journal.record(&PendingRecord::Order(order.clone())).is_ok() {
                for held in records.iter().filter(|h| h.key() != merged.key()) {
                    let _ = journal.clear(&PendingRecord::Order(pending_order(market, id, held)));
                }
            }
        }
        Ok(Some(order))
    }

    /// No machine owns the record in flight of `id` on `market` any more (it ended with its
    /// outcome unknown, or was dropped): it is unresolved.
    pub(crate) fn abandon(&self, market: &Market, id: &ClientOrderId) {
        let mut entries = self.entries();
        if let Some(slot) = entries.slot(market, id)
            && let Some(held) = slot.pending.take()
        {
            slot.unresolved.push(held);
            self.unresolved.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Notes that resolving `order` could not tell, for `reason`: its record (in flight or
    /// not; held as unresolved if the ledger did not hold it) and its journal record carry it.
    pub(crate) fn note(&self, order: &PendingOrder, reason: &str) {
        let key = order.key();
        if key.is_none() {
            return;
        }
        let noted = order.clone().with_reason(reason);
        let held = {
            let mut entries = self.entries();
            let slot = entries.slot(order.market(), order.client_order_id());
            match slot.and_then(|s| s.find(key)) {
                Some(held) => {
                    held.reason = Some(reason.to_owned());
                    true
                }
                None => false,
            }
        };
        if !held {
            self.hold_unresolved(&noted);
        }
        if let Some(journal) = &self.journal {
            // A journal that cannot note keeps the record without the reason.
            let _ = journal.record(&PendingRecord::Order(noted));
        }
    }

    /// Holds `order` as unresolved (unless a record with its key is held).
    fn hold_unresolved(&self, order: &PendingOrder) {
        let key = order.key();
        let mut entries = self.entries();
        with_ids(&mut entries.markets, order.market(), |ids| {
            let slot = ids.entry(order.client_order_id().clone()).or_default();
            if slot.find(key).is_none() {
                slot.unresolved.push(Held::of(order));
                self.unresolved.fetch_add(1, Ordering::AcqRel);
            }
        });
    }

    /// Forgets `order`, whose outcome is definite — its record, the one with its key, whether
    /// in flight or not — and, unless the exchange refused every attempt (`refused`: nothing
    /// of it can exist), remembers its id for the reuse check.
    ///
    /// The journal forgets `order` even when this ledger never recorded it (an order resolved
    /// from the journal of a process that died).
    pub(crate) fn settle(&self, order: &PendingOrder, mode: NonceMode, refused: bool) {
        let last = kept_time(order.attempts(), mode, refused)
            .max(socket_time(order.socket_attempts()).filter(|_| !refused));
        let key = order.key();
        self.release(order.market(), order.client_order_id(), Some(key), last);
        if key.is_some() {
            self.clear_journal(|| PendingRecord::Order(order.clone()));
        }
    }

    /// [`settle`](Self::settle) for the order this ledger records in flight, of `market` with
    /// `id`, sent in `attempts`: the journal forgets the record the ledger held.
    pub(crate) fn settle_recorded<'a>(
        &self,
        market: &Market,
        id: &ClientOrderId,
        attempts: impl IntoIterator<Item = &'a AttemptRecord>,
        mode: NonceMode,
        refused: bool,
    ) {
        let last = kept_time(attempts, mode, refused);
        let held = self.release(market, id, None, last);
        if let Some(held) = held {
            self.clear_journal(|| PendingRecord::Order(pending_order(market, id, &held)));
        }
    }

    /// Discards the unresolved record with `order`'s key (never one in flight): whether the
    /// ledger held it. The journal forgets it either way.
    pub(crate) fn discard(&self, order: &PendingOrder) -> std::io::Result<bool> {
        let key = order.key();
        let held = {
            let mut entries = self.entries();
            let slot = entries.slot(order.market(), order.client_order_id());
            let at = slot
                .as_ref()
                .and_then(|s| s.pending.as_ref())
                .map(Held::key);
            if at == Some(key) {
                // In flight: its machine settles it.
                return Ok(false);
            }
            drop(entries);
            self.release(order.market(), order.client_order_id(), Some(key), None)
                .is_some()
        };
        if let Some(journal) = &self.journal {
            journal.clear(&PendingRecord::Order(order.clone()))?;
        }
        Ok(held)
    }

    fn clear_journal(&self, record: impl FnOnce() -> PendingRecord) {
        if let Some(journal) = &self.journal {
            // A journal that cannot forget leaves a stale record: resolving it again answers
            // the same and clears it.
            let _ = journal.clear(&record());
        }
    }

    /// Takes a record of `id` on `market` out — the one with `key` (`Some`), or the one in
    /// flight (`None`) — and returns it; keeps the id with `last`. The slot goes once no
    /// record is left.
    fn release(
        &self,
        market: &Market,
        id: &ClientOrderId,
        key: Option<Option<Nonce>>,
        last: Option<u64>,
    ) -> Option<Held> {
        let (held, slot) = {
            let mut entries = self.entries();
            let mut emptied = None;
            let held = match entries.slot(market, id) {
                Some(slot) => {
                    let taken = match key {
                        Some(key) => slot.take(key),
                        None => slot.pending.take().map(|held| (false, held)),
                    };
                    if taken.as_ref().is_some_and(|(unresolved, _)| *unresolved) {
                        self.unresolved.fetch_sub(1, Ordering::AcqRel);
                    }
                    if slot.is_empty() {
                        emptied = entries.forget(market, id);
                    }
                    taken.map(|(_, held)| held)
                }
                None => None,
            };
            if let Some(last) = last {
                let key = emptied
                    .as_ref()
                    .map_or_else(|| id.clone(), |(key, _)| key.clone());
                entries.settle(market, key, last);
                entries.prune(last);
            }
            (held, emptied)
        };
        // Forgotten outside the ledger's lock.
        drop(slot);
        held
    }

    /// The orders in flight or unresolved.
    pub(crate) fn pending(&self) -> Vec<PendingOrder> {
        let entries = self.entries();
        let mut orders: Vec<PendingOrder> = entries
            .markets
            .iter()
            .flat_map(|(market, ids)| {
                ids.iter().flat_map(move |(id, slot)| {
                    slot.pending
                        .iter()
                        .chain(&slot.unresolved)
                        .map(move |held| pending_order(market, id, held))
                })
            })
            .collect();
        drop(entries);
        orders.sort_by_key(|o| o.first_signed_at());
        orders
    }
}

impl Entries {
    /// Takes the slot of `market` and `id` out, with its key. The market's map stays, even
    /// empty (a client trades few markets; [`prune`](Self::prune) drops the empty ones): an
    /// order at a time would otherwise make and drop it for every order.
    fn forget(&mut self, market: &Market, id: &ClientOrderId) -> Option<(ClientOrderId, Slot)> {
        self.markets
            .get_mut(market.as_str())?
            .remove_entry(id.as_str())
    }
}

/// The time a settled order's id is kept with (its last attempt's nonce time), unless the
/// exchange refused every attempt: nothing of it can exist, and the id is free at once.
fn kept_time<'a>(
    attempts: impl IntoIterator<Item = &'a AttemptRecord>,
    mode: NonceMode,
    refused: bool,
) -> Option<u64> {
    last_nonce_time(attempts, mode).filter(|_| !refused)
}

/// When the last of `attempts` over the WebSocket was written (ms): what the reuse check keeps
/// of a socket order.
pub(crate) fn socket_time(attempts: &[SocketAttempt]) -> Option<u64> {
    attempts
        .iter()
        .map(|a| crate::unix_millis(a.written_at))
        .max()
}

/// The nonce time of the last of `attempts` (ms): the nonce in window mode, the signing time
/// in strict mode.
pub(crate) fn last_nonce_time<'a>(
    attempts: impl IntoIterator<Item = &'a AttemptRecord>,
    mode: NonceMode,
) -> Option<u64> {
    attempts
        .into_iter()
        .map(|a| match mode {
            NonceMode::Window => a.nonce.get(),
            NonceMode::Strict => crate::unix_millis(a.signed_at),
        })
        .max()
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::time::{Duration, UNIX_EPOCH};

    use proptest::prelude::*;

    use super::*;
    use crate::stream::{Channel, StreamEvent};
    use crate::{AttemptRecord, Nonce};

    /// How far apart two orders with one id must be placed (ms).
    const APART: u64 = 2 * 5_000 + 5_000;

    fn order(market: &str, id: &str, at_ms: u64) -> PendingOrder {
        let (Ok(market), Ok(id)) = (market.parse(), id.parse()) else {
            panic!("test keys are valid")
        };
        let attempt = AttemptRecord {
            nonce: Nonce(at_ms),
            signed_at: UNIX_EPOCH + Duration::from_millis(at_ms),
        };
        PendingOrder::new(market, id, vec![attempt])
    }

    /// An order with one attempt a nonce of `nonces`, each signed at its nonce.
    fn order_with(market: &str, id: &str, nonces: &[u64]) -> PendingOrder {
        let (Ok(market), Ok(id)) = (market.parse(), id.parse()) else {
            panic!("test keys are valid")
        };
        let attempts = nonces
            .iter()
            .map(|&n| AttemptRecord {
                nonce: Nonce(n),
                signed_at: UNIX_EPOCH + Duration::from_millis(n),
            })
            .collect();
        PendingOrder::new(market, id, attempts)
    }

    /// Records the order `order(market, id, at_ms)` would make.
    fn record(
        ledger: &Ledger,
        market: &str,
        id: &str,
        at_ms: u64,
        reuse_at: Option<u64>,
    ) -> Result<(), NotRecorded> {
        ledger.record(Record::of(&order(market, id, at_ms)), reuse_at)
    }

    fn keys(ledger: &Ledger) -> BTreeSet<(String, String)> {
        ledger
            .pending()
            .iter()
            .map(|o| {
                let (m, i) = (o.market().as_str(), o.client_order_id().as_str());
                (m.to_owned(), i.to_owned())
            })
            .collect()
    }

    #[test]
    fn the_window_constants_are_the_rules() {
        assert_eq!(ms(NONCE_WINDOW) * 2 + ms(CREATION_ALLOWANCE), APART);
    }

    #[test]
    fn orders_are_expected_in_the_sightings_once_a_stream_published() {
        let sightings = OrderSightings::new();
        let ledger = Ledger::new(None, sightings.clone());
        assert!(record(&ledger, "BTC_USDT", "a", 1, Some(1)).is_ok());
        assert_eq!(sightings.expected_len(), 0, "no stream: nothing to expect");
        sightings.publish(&StreamEvent::Subscribed(Channel::OrdersPending));
        assert!(record(&ledger, "BTC_USDT", "b", 2, Some(2)).is_ok());
        // A further attempt of an order recorded before the stream is expected too.
        assert!(record(&ledger, "BTC_USDT", "a", 3, None).is_ok());
        assert_eq!(sightings.expected_len(), 2);
        ledger.settle(&order("BTC_USDT", "a", 3), NonceMode::Window, false);
        ledger.settle(&order("BTC_USDT", "b", 2), NonceMode::Window, true);
        assert_eq!(sightings.expected_len(), 0, "settled orders are forgotten");
        assert!(ledger.pending().is_empty());
    }

    /// A journal that notes what it is told.
    #[derive(Debug, Default)]
    struct Notes(Mutex<Vec<(&'static str, String)>>);

    impl Notes {
        fn note(&self, what: &'static str, record: &PendingRecord) -> std::io::Result<()> {
            let id = match record.order() {
                Some(order) => order.client_order_id().as_str().to_owned(),
                None => "investment".to_owned(),
            };
            let mut notes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            notes.push((what, id));
            Ok(())
        }
    }

    impl Journal for Notes {
        fn record(&self, record: &PendingRecord) -> std::io::Result<()> {
            self.note("record", record)
        }
        fn clear(&self, record: &PendingRecord) -> std::io::Result<()> {
            self.note("clear", record)
        }
        fn load(&self) -> std::io::Result<Vec<PendingRecord>> {
            Ok(Vec::new())
        }
    }

    /// The journaled records by key, as a journal that forgets only the record it is told.
    #[derive(Debug, Default)]
    struct Kept(Mutex<BTreeMap<u64, PendingRecord>>);

    impl Kept {
        fn keys(&self) -> Vec<u64> {
            let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            kept.keys().copied().collect()
        }
    }

    impl Journal for Kept {
        fn record(&self, record: &PendingRecord) -> std::io::Result<()> {
            let key = record.key().map_or(0, Nonce::get);
            let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            kept.insert(key, record.clone());
            Ok(())
        }
        fn clear(&self, record: &PendingRecord) -> std::io::Result<()> {
            let key = record.key().map_or(0, Nonce::get);
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&key);
            Ok(())
        }
        fn load(&self) -> std::io::Result<Vec<PendingRecord>> {
            let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            Ok(kept.values().cloned().collect())
        }
    }

    #[test]
    fn records_are_kept_by_attempt_and_settling_one_never_clears_another() {
        let journal = Arc::new(Kept::default());
        // An earlier process: its order's answer lost, the record left.
        let earlier = Ledger::new(Some(journal.clone()), OrderSightings::new());
        assert!(record(&earlier, "BTC_USDT", "a", 1_000, Some(1_000)).is_ok());
        earlier.abandon(&"BTC_USDT".parse().unwrap_or_else(|_| panic!()), &id("a"));
        assert_eq!(journal.keys(), [1_000]);
        // The next process reads it back: held unresolved, a plain placement refused.
        let records = journal.load().unwrap_or_default();
        let ledger = Ledger::loaded(Some(journal.clone()), OrderSightings::new(), &records);
        assert!(ledger.holds_unresolved(&market(), &id("a")));
        assert!(matches!(
            record(&ledger, "BTC_USDT", "a", 60_000, Some(60_000)),
            Err(NotRecorded::InUse(Error::ResolveFirst(_)))
        ));
        // Another record of the id (a third process, say) is a record of its own.
        ledger.hold_unresolved(&order("BTC_USDT", "a", 2_000));
        assert_eq!(ledger.pending().len(), 2);
        // Settling one leaves the other, in the ledger and the journal.
        journal
            .record(&PendingRecord::Order(order("BTC_USDT", "a", 2_000)))
            .unwrap_or_else(|_| panic!());
        ledger.settle(&order("BTC_USDT", "a", 2_000), NonceMode::Window, false);
        assert_eq!(journal.keys(), [1_000]);
        assert_eq!(ledger.pending().len(), 1);
        assert_eq!(ledger.pending()[0].attempts()[0].nonce, Nonce(1_000));
        // place_once takes the rest over as one record in flight; a second one is refused.
        ledger.hold_unresolved(&order("BTC_USDT", "a", 3_000));
        let adopted = ledger
            .adopt(&market(), &id("a"))
            .unwrap_or_else(|e| panic!("{e}"));
        let nonces: Vec<u64> = adopted
            .iter()
            .flat_map(|o| o.attempts())
            .map(|a| a.nonce.get())
            .collect();
        assert_eq!(nonces, [1_000, 3_000]);
        assert!(!ledger.holds_unresolved(&market(), &id("a")));
        assert!(matches!(
            record(&ledger, "BTC_USDT", "a", 90_000, Some(90_000)),
            Err(NotRecorded::InUse(Error::ClientOrderIdInUse { .. }))
        ));
        ledger.hold_unresolved(&order("BTC_USDT", "a", 4_000));
        assert!(
            matches!(
                ledger.adopt(&market(), &id("a")),
                Err(Error::ClientOrderIdInUse { .. })
            ),
            "one in flight"
        );
        ledger.settle(&order("BTC_USDT", "a", 4_000), NonceMode::Window, false);
        // Abandoned (a dropped future), noted, then discarded by hand: gone everywhere.
        ledger.abandon(&market(), &id("a"));
        let merged = order("BTC_USDT", "a", 1_000);
        ledger.note(&merged, "cannot tell: B2B");
        assert_eq!(ledger.pending()[0].reason(), Some("cannot tell: B2B"));
        assert_eq!(ledger.discard(&merged).ok(), Some(true));
        assert!(ledger.pending().is_empty());
        assert!(journal.keys().is_empty());
    }

    fn market() -> Market {
        "BTC_USDT".parse().unwrap_or_else(|_| panic!("market"))
    }

    fn id(id: &str) -> ClientOrderId {
        id.parse().unwrap_or_else(|_| panic!("id"))
    }

    #[test]
    fn the_journal_is_told_each_attempt_and_the_end_even_of_an_order_recorded_elsewhere() {
        let notes = Arc::new(Notes::default());
        let ledger = Ledger::new(Some(notes.clone()), OrderSightings::new());
        assert!(record(&ledger, "BTC_USDT", "a", 1, Some(1)).is_ok());
        assert!(record(&ledger, "BTC_USDT", "a", 2, None).is_ok());
        ledger.settle_recorded(
            &"BTC_USDT".parse().unwrap_or_else(|_| panic!("market")),
            &"a".parse().unwrap_or_else(|_| panic!("id")),
            order("BTC_USDT", "a", 2).attempts(),
            NonceMode::Window,
            false,
        );
        // Read from the journal by another process, resolved here: cleared all the same.
        ledger.settle(&order("BTC_USDT", "b", 3), NonceMode::Window, false);
        // Refused before it was recorded: the journal never hears of it.
        assert!(matches!(
            record(&ledger, "BTC_USDT", "a", 4, Some(4)),
            Err(NotRecorded::InUse(_))
        ));
        let notes = notes
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let expected = [
            ("record", "a"),
            ("record", "a"),
            ("clear", "a"),
            ("clear", "b"),
        ];
        assert_eq!(
            notes,
            expected.map(|(what, id)| (what, id.to_owned())).to_vec()
        );
    }

    #[test]
    fn old_settled_ids_are_dropped_once_many_and_recent_ones_kept() {
        let ledger = Ledger::new(None, OrderSightings::new());
        let step = 100;
        let n = u64::try_from(PRUNE_AT).unwrap_or(u64::MAX) + 10;
        for i in 0..n {
            let o = order("BTC_USDT", &format!("id-{i}"), i * step);
            assert!(ledger.record(Record::of(&o), Some(i * step)).is_ok());
            ledger.settle(&o, NonceMode::Window, false);
        }
        let last = (n - 1) * step;
        let entries = ledger.entries();
        assert!(
            entries.markets.values().all(HashMap::is_empty),
            "no slot is left once settled"
        );
        let kept = entries.settled_len();
        // Pruned once at PRUNE_AT: what is left is at most KEEP_SETTLED old at that point.
        let keep = usize::try_from(ms(KEEP_SETTLED) / step).unwrap_or(usize::MAX);
        assert!(kept <= keep + 1 + 10, "{kept} kept");
        let recent = entries.settled["BTC_USDT"].get(format!("id-{}", n - 1).as_str());
        assert_eq!(recent, Some(&last));
    }

    #[derive(Debug, Clone)]
    enum Op {
        /// An attempt of the order with id `id` at `at` ms; the first of a new order or not.
        Record {
            id: usize,
            market: usize,
            first: bool,
        },
        /// The order's outcome became definite; refused or not.
        Settle {
            id: usize,
            market: usize,
            refused: bool,
        },
        /// Time passes (ms).
        Pass(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..4usize, 0..2usize, any::<bool>()).prop_map(|(id, market, first)| Op::Record {
                id,
                market,
                first
            }),
            (0..4usize, 0..2usize, any::<bool>()).prop_map(|(id, market, refused)| Op::Settle {
                id,
                market,
                refused
            }),
            (0..20_000u64).prop_map(Op::Pass),
        ]
    }

    proptest! {
        /// The ledger against a plain model: an id in flight or placed less than the two
        /// windows ago is refused to a new order; a refused order's id is free at once; the
        /// pending list is the orders recorded and not settled.
        #[test]
        fn the_ledger_follows_the_reuse_rule(ops in proptest::collection::vec(op(), 1..60)) {
            let ledger = Ledger::new(None, OrderSightings::new());
            // Each order in flight with its attempts' nonces, as its machine records them.
            let mut pending: BTreeMap<(String, String), Vec<u64>> = BTreeMap::new();
            let mut settled: BTreeMap<(String, String), u64> = BTreeMap::new();
            let mut now = 1_000_000u64;
            for op in ops {
                match op {
                    Op::Pass(ms) => now += ms,
                    Op::Record { id, market, first } => {
                        now += 1;
                        let key = (["BTC_USDT", "ETH_USDT"][market].to_owned(), format!("id-{id}"));
                        let refused = first
                            && (pending.contains_key(&key)
                                || settled.get(&key).is_some_and(|at| now < at + APART));
                        let mut nonces = match first {
                            true => Vec::new(),
                            false => pending.get(&key).cloned().unwrap_or_default(),
                        };
                        nonces.push(now);
                        let placed = order_with(&key.0, &key.1, &nonces);
                        let got = ledger.record(Record::of(&placed), first.then_some(now));
                        prop_assert_eq!(matches!(got, Err(NotRecorded::InUse(_))), refused);
                        if !refused {
                            pending.insert(key, nonces);
                        }
                    }
                    Op::Settle { id, market, refused } => {
                        let key = (["BTC_USDT", "ETH_USDT"][market].to_owned(), format!("id-{id}"));
                        let nonces = pending.remove(&key).unwrap_or_else(|| vec![now]);
                        let settling = order_with(&key.0, &key.1, &nonces);
                        ledger.settle(&settling, NonceMode::Window, refused);
                        if !refused {
                            settled.insert(key, nonces.last().copied().unwrap_or(now));
                        }
                    }
                }
                let expected: BTreeSet<(String, String)> = pending.keys().cloned().collect();
                prop_assert_eq!(keys(&ledger), expected);
            }
        }
    }
}
