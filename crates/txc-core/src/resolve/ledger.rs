//! The client's record of its orders in flight: [`Journal`], the hook that persists each
//! order's pending record before it is sent, and the in-memory ledger every client keeps (its
//! unresolved orders, and the ids it used recently, which it refuses to reuse inside their
//! window).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rustc_hash::FxBuildHasher;
use txc_types::values::{ClientOrderId, Market};

use super::evidence::{CREATION_ALLOWANCE, NONCE_WINDOW};
use crate::stream::{OrderSightings, SightingWatch};
use crate::{AttemptRecord, Error, NonceMode, PendingOrder};

/// Where a client persists each order's pending record before sending it, so that a crash,
/// a killed process or a dropped future leaves what resolving needs (market, `clientOrderId`,
/// every attempt's nonce and signing time).
///
/// The client calls [`record`](Journal::record) before **every** attempt of an order, with
/// every attempt so far including the one about to go — if it fails, that attempt is not sent
/// (it counts as [not sent](crate::Delivery::NotSent)) — and [`clear`](Journal::clear) once
/// the order's outcome is definite: placed, or certainly not placed (refused, or resolved as
/// not placed). An order whose outcome stays unknown stays recorded. Both transports call it
/// from the core, on the thread or task that sends: keep it quick (a file write).
///
/// The CLI's journal writes one file per order in the user's state directory; `txc pending`
/// lists them and `txc resolve` reads them.
pub trait Journal: Send + Sync + fmt::Debug {
    /// Persists `order`'s record, before an attempt to send it.
    fn record(&self, order: &PendingOrder) -> std::io::Result<()>;
    /// Forgets `order`: its outcome is definite.
    fn clear(&self, order: &PendingOrder) -> std::io::Result<()>;
}

/// How long the ledger keeps a settled id: past both windows (2 × the nonce window plus the
/// creation allowance), with room for clock steps.
const KEEP_SETTLED: Duration = Duration::from_secs(30);
/// The fewest settled ids the ledger holds before it drops old ones.
const PRUNE_AT: usize = 1_024;

/// One order's record as the ledger holds it: the market and id are the slot's keys.
#[derive(Debug)]
struct Held {
    /// Whether it is a trigger order ([`PendingOrder::with_trigger`]).
    trigger: bool,
    /// Every attempt so far.
    attempts: Vec<AttemptRecord>,
}

/// An order's record to keep before an attempt: its market and id borrowed from the order,
/// every attempt so far (the one about to go included).
#[derive(Debug)]
pub(crate) struct Record<'a> {
    pub(crate) market: &'a Market,
    pub(crate) client_order_id: &'a ClientOrderId,
    pub(crate) trigger: bool,
    pub(crate) attempts: Vec<AttemptRecord>,
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
        }
    }

    /// The whole record, for the journal.
    fn to_pending(&self) -> PendingOrder {
        pending_order(
            self.market,
            self.client_order_id,
            self.trigger,
            &self.attempts,
        )
    }
}

/// A [`PendingOrder`] made of its parts.
fn pending_order(
    market: &Market,
    id: &ClientOrderId,
    trigger: bool,
    attempts: &[AttemptRecord],
) -> PendingOrder {
    PendingOrder::new(market.clone(), id.clone(), attempts.to_vec()).with_trigger(trigger)
}

/// What the ledger knows of a `(market, clientOrderId)` in use: until its outcome is definite.
#[derive(Debug, Default)]
struct Slot {
    /// The order's record while it is in flight or unresolved.
    pending: Option<Held>,
    /// What the client's streams show of it: kept from before the first attempt until the
    /// outcome is definite, so that resolving finds an event that came meanwhile.
    watch: Option<SightingWatch>,
}

/// A map keyed by a market or a `clientOrderId`, hashed with FxHash: the keys are the
/// caller's own (nothing from the network), and std's SipHash was about 1 k instructions of
/// every order's bookkeeping (BENCHMARKS.md, issue 27).
type Map<K, V> = HashMap<K, V, FxBuildHasher>;

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

    /// Why a new order with an id, placed at nonce time `now_ms`, must not go: an order with
    /// the id is in flight or unresolved (`pending`), or was settled at `settled`, too recently.
    fn reuse_refusal(pending: bool, settled: Option<u64>, now_ms: u64) -> Option<String> {
        if pending {
            return Some(
                "an earlier order of this client with the same clientOrderId on this market is \
                 still in flight or unresolved; resolve it (the client's pending_orders) before \
                 placing another with the id"
                    .to_owned(),
            );
        }
        let last = settled?;
        let apart = ms(NONCE_WINDOW) * 2 + ms(CREATION_ALLOWANCE);
        (now_ms < last.saturating_add(apart)).then(|| {
            format!(
                "this client placed an order with the same clientOrderId on this market {} ms \
                 ago: their acceptance windows overlap, so resolving could not tell the two \
                 apart; give each order its own clientOrderId",
                now_ms.saturating_sub(last)
            )
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
    /// The order reuses an id it must not: nothing is to be sent.
    InUse(Error),
    /// The journal failed: the attempt must not go.
    Journal(std::io::Error),
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
}

impl Ledger {
    pub(crate) fn new(journal: Option<Arc<dyn Journal>>, sightings: OrderSightings) -> Self {
        Self {
            entries: Arc::default(),
            journal,
            sightings,
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `order` (every attempt so far, including the one about to go) before it is
    /// sent, then hands it to the journal.
    ///
    /// With `reuse_at` (the first attempt's nonce time, ms), it first refuses an order whose
    /// id this client used for an order still unresolved, or for one whose acceptance window
    /// could overlap the new one's: the two could not be told apart. A refused order is not
    /// recorded.
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
        } = record;
        let mut entries = self.entries();
        let settled = reuse_at.and_then(|_| entries.settled_at(market, id));
        with_ids(&mut entries.markets, market, |ids| {
            // One look-up of the ids in use: the slot's entry (a copy of the id, the key), left
            // vacant when the order is refused.
            let entry = ids.entry(id.clone());
            let pending = matches!(&entry, Entry::Occupied(slot) if slot.get().pending.is_some());
            if let Some(reason) =
                reuse_at.and_then(|now| Entries::reuse_refusal(pending, settled, now))
            {
                return Err(NotRecorded::InUse(Error::ClientOrderIdInUse {
                    client_order_id: id.as_str().to_owned(),
                    reason,
                }));
            }
            let slot = entry.or_default();
            // Expected only once a stream publishes to the client's sightings: before, no
            // event can come (resolving expects the order itself, and falls back to look-ups).
            if slot.watch.is_none() && self.sightings.is_published_to() {
                slot.watch = Some(self.sightings.expect(market.as_str(), id.as_str()));
            }
            slot.pending = Some(Held { trigger, attempts });
            Ok(())
        })?;
        drop(entries);
        match journaled {
            Some((journal, order)) => journal.record(&order).map_err(NotRecorded::Journal),
            None => Ok(()),
        }
    }

    /// Forgets `order`, whose outcome is definite, and — unless the exchange refused every
    /// attempt (`refused`: nothing of it can exist) — remembers its id for the reuse check.
    ///
    /// The journal forgets `order` even when this ledger never recorded it (an order resolved
    /// from the journal of a process that died).
    pub(crate) fn settle(&self, order: &PendingOrder, mode: NonceMode, refused: bool) {
        let last = kept_time(order.attempts(), mode, refused);
        self.release(order.market(), order.client_order_id(), last);
        self.clear_journal(order);
    }

    /// [`settle`](Self::settle) for an order this ledger recorded, of `market` with `id`, sent
    /// in `attempts`: the journal forgets the record the ledger held.
    pub(crate) fn settle_recorded<'a>(
        &self,
        market: &Market,
        id: &ClientOrderId,
        attempts: impl IntoIterator<Item = &'a AttemptRecord>,
        mode: NonceMode,
        refused: bool,
    ) {
        let last = kept_time(attempts, mode, refused);
        let held = self.release(market, id, last);
        if let (Some(held), Some(_)) = (held, &self.journal) {
            self.clear_journal(&pending_order(market, id, held.trigger, &held.attempts));
        }
    }

    fn clear_journal(&self, order: &PendingOrder) {
        if let Some(journal) = &self.journal {
            // A journal that cannot forget leaves a stale record: resolving it again answers
            // the same and clears it.
            let _ = journal.clear(order);
        }
    }

    /// Takes the order's slot out of use (its record, when it had one, is returned), keeping
    /// the id with `last`.
    fn release(&self, market: &Market, id: &ClientOrderId, last: Option<u64>) -> Option<Held> {
        let (pending, watch) = {
            let mut entries = self.entries();
            let (key, slot) = match entries.forget(market, id) {
                Some((key, slot)) => (Some(key), slot),
                // Never recorded (e.g. refused before it was sent): only its id is kept.
                None => (None, Slot::default()),
            };
            if let Some(last) = last {
                entries.settle(market, key.unwrap_or_else(|| id.clone()), last);
                entries.prune(last);
            }
            (slot.pending, slot.watch)
        };
        // Forgotten outside the ledger's lock.
        drop(watch);
        pending
    }

    /// The orders in flight or unresolved.
    pub(crate) fn pending(&self) -> Vec<PendingOrder> {
        let entries = self.entries();
        let mut orders: Vec<PendingOrder> = entries
            .markets
            .iter()
            .flat_map(|(market, ids)| {
                ids.iter().filter_map(move |(id, slot)| {
                    let held = slot.pending.as_ref()?;
                    Some(pending_order(market, id, held.trigger, &held.attempts))
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
        fn note(&self, what: &'static str, order: &PendingOrder) -> std::io::Result<()> {
            let id = order.client_order_id().as_str().to_owned();
            let mut notes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            notes.push((what, id));
            Ok(())
        }
    }

    impl Journal for Notes {
        fn record(&self, order: &PendingOrder) -> std::io::Result<()> {
            self.note("record", order)
        }
        fn clear(&self, order: &PendingOrder) -> std::io::Result<()> {
            self.note("clear", order)
        }
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
            let mut pending: BTreeSet<(String, String)> = BTreeSet::new();
            let mut settled: BTreeMap<(String, String), u64> = BTreeMap::new();
            let mut now = 1_000_000u64;
            for op in ops {
                match op {
                    Op::Pass(ms) => now += ms,
                    Op::Record { id, market, first } => {
                        now += 1;
                        let key = (["BTC_USDT", "ETH_USDT"][market].to_owned(), format!("id-{id}"));
                        let refused = first
                            && (pending.contains(&key)
                                || settled.get(&key).is_some_and(|at| now < at + APART));
                        let placed = order(&key.0, &key.1, now);
                        let got = ledger.record(Record::of(&placed), first.then_some(now));
                        prop_assert_eq!(matches!(got, Err(NotRecorded::InUse(_))), refused);
                        if !refused {
                            pending.insert(key);
                        }
                    }
                    Op::Settle { id, market, refused } => {
                        let key = (["BTC_USDT", "ETH_USDT"][market].to_owned(), format!("id-{id}"));
                        ledger.settle(&order(&key.0, &key.1, now), NonceMode::Window, refused);
                        pending.remove(&key);
                        if !refused {
                            settled.insert(key, now);
                        }
                    }
                }
                prop_assert_eq!(keys(&ledger), pending.clone());
            }
        }
    }
}
