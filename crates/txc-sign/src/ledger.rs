//! The client's record of its orders in flight: [`Journal`], the hook that persists each
//! order's pending record before it is sent, and the in-memory ledger every client keeps (its
//! unresolved orders, and the ids it used recently, which it refuses to reuse inside their
//! window).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use txc_types::values::{ClientOrderId, Market};

use crate::evidence::{CREATION_ALLOWANCE, NONCE_WINDOW};
use crate::stream::{OrderSightings, SightingWatch};
use crate::{Error, NonceMode, PendingOrder};

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

/// The key of an order in the ledger.
type Key = (Market, ClientOrderId);

#[derive(Debug, Default)]
struct Entries {
    /// Orders in flight or unresolved.
    pending: HashMap<Key, PendingOrder>,
    /// What the client's streams show of each: kept from before the first attempt until the
    /// outcome is definite, so that resolving finds an event that came meanwhile.
    watches: HashMap<Key, SightingWatch>,
    /// Settled orders: the last attempt's nonce time (ms).
    settled: HashMap<Key, u64>,
    /// How many settled ids trigger dropping the old ones (amortized: twice what was left).
    prune_at: usize,
}

/// The in-memory ledger, shared by clones of a core, the caller's [`Journal`], and where the
/// client's streams publish the orders they see.
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

    /// Refuses, before any I/O, a new order whose id this client used for an order still
    /// unresolved, or for one whose acceptance window could overlap the new one's (placed
    /// with the nonce time `now_ms`): the two could not be told apart.
    pub(crate) fn check_reuse(&self, order: &PendingOrder, now_ms: u64) -> Result<(), Error> {
        let key = (order.market().clone(), order.client_order_id().clone());
        let entries = self.entries();
        let reason = if entries.pending.contains_key(&key) {
            Some(
                "an earlier order of this client with the same clientOrderId on this market is \
                 still in flight or unresolved; resolve it (the client's pending_orders) before \
                 placing another with the id"
                    .to_owned(),
            )
        } else {
            entries.settled.get(&key).and_then(|last| {
                let apart = ms(NONCE_WINDOW) * 2 + ms(CREATION_ALLOWANCE);
                (now_ms < last.saturating_add(apart)).then(|| {
                    format!(
                        "this client placed an order with the same clientOrderId on this market \
                         {} ms ago: their acceptance windows overlap, so resolving could not \
                         tell the two apart; give each order its own clientOrderId",
                        now_ms.saturating_sub(*last)
                    )
                })
            })
        };
        match reason {
            Some(reason) => Err(Error::ClientOrderIdInUse {
                client_order_id: order.client_order_id().as_str().to_owned(),
                reason,
            }),
            None => Ok(()),
        }
    }

    /// Records `order` (every attempt so far, including the one about to go) before it is
    /// sent; the journal's failure is the caller's to turn into "not sent".
    pub(crate) fn record(&self, order: &PendingOrder) -> std::io::Result<()> {
        let key = (order.market().clone(), order.client_order_id().clone());
        {
            let mut entries = self.entries();
            if !entries.watches.contains_key(&key) {
                let watch = self.sightings.expect(key.0.as_str(), key.1.as_str());
                entries.watches.insert(key.clone(), watch);
            }
            entries.pending.insert(key, order.clone());
        }
        match &self.journal {
            Some(journal) => journal.record(order),
            None => Ok(()),
        }
    }

    /// Forgets `order`, whose outcome is definite, and — unless the exchange refused every
    /// attempt (`refused`: nothing of it can exist) — remembers its id for the reuse check.
    pub(crate) fn settle(&self, order: &PendingOrder, mode: NonceMode, refused: bool) {
        let key = (order.market().clone(), order.client_order_id().clone());
        let last = order
            .attempts()
            .iter()
            .map(|a| match mode {
                NonceMode::Window => a.nonce.get(),
                NonceMode::Strict => crate::unix_millis(a.signed_at),
            })
            .max()
            .filter(|_| !refused);
        let watch = {
            let mut entries = self.entries();
            entries.pending.remove(&key);
            let watch = entries.watches.remove(&key);
            if let Some(last) = last {
                if entries.settled.len() >= entries.prune_at.max(PRUNE_AT) {
                    let keep = ms(KEEP_SETTLED);
                    entries
                        .settled
                        .retain(|_, at| at.saturating_add(keep) >= last);
                    entries.prune_at = entries.settled.len().saturating_mul(2);
                }
                entries.settled.insert(key, last);
            }
            watch
        };
        // Forgotten outside the ledger's lock.
        drop(watch);
        if let Some(journal) = &self.journal {
            // A journal that cannot forget leaves a stale record: resolving it again answers
            // the same and clears it.
            let _ = journal.clear(order);
        }
    }

    /// The orders in flight or unresolved.
    pub(crate) fn pending(&self) -> Vec<PendingOrder> {
        let mut orders: Vec<PendingOrder> = self.entries().pending.values().cloned().collect();
        orders.sort_by_key(|o| o.first_signed_at());
        orders
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
