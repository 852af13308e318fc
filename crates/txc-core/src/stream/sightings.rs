//! [`OrderSightings`]: an in-process registry where a stream's driver publishes every order it
//! sees, and a resolver waits for the one carrying its `clientOrderId` — the hook for settling
//! an order whose outcome is unknown as soon as an event shows it, instead of after the
//! settling delay and the REST look-ups.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant, SystemTime};

use txc_types::events::{AccountEvent, OrderEventKind, StreamOrder};
use txc_types::values::{ClientOrderId, Market};

use super::{Channel, ResyncChange, StreamEvent};
use crate::machine::{Signal, Wake};
use crate::resolve::PlacedOrder;

/// What a stream showed of an order carrying an expected `clientOrderId`: one per order id (an
/// older order that reused the id is another sighting), updated as its events come.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Sighting {
    /// The exchange's order id.
    pub order_id: u64,
    /// Whether the order was seen finished (filled or canceled).
    pub finished: bool,
    /// When the order was created, on the exchange's clock (`ctime`, `timestamp`), when the
    /// event carried it — a deal and an order a resync found gone do not. What tells the
    /// order the attempts' from an older one that reused the id.
    pub created: Option<SystemTime>,
    /// What showed its latest record (or, before any, the deal that showed it):
    /// `ordersPending_update`, `ordersExecuted_update`, `resync` (a resync's finding over
    /// REST) or `deals_update`.
    pub source: &'static str,
    /// The order's latest record: the stream's ([`PlacedOrder::Streamed`]) or, from a resync,
    /// the REST one; `None` for a deal or an order a resync found gone.
    pub order: Option<PlacedOrder>,
}

/// Orders awaited by `(market, clientOrderId)`, and the markets a live stream covers.
///
/// Cheap to clone (one `Arc`); every clone is the same registry. Give one to a stream's builder
/// (`sightings(…)`): its driver publishes every event ([`publish`](Self::publish)). Before
/// sending an order whose outcome may become unknown, [`expect`](Self::expect) its
/// `(market, clientOrderId)`; the [`SightingWatch`] then says — at once
/// ([`SightingWatch::get`]), blocking ([`SightingWatch::wait`]) or as a future
/// ([`SightingWatch::seen`]) — when an event of the order arrived: a live update, a deal, or a
/// resync's finding. Only expected orders are kept (dropping the last watch of an order forgets
/// it), so the registry holds what its waiters ask for, nothing more.
///
/// A client has one ([`ClientCore::order_sightings`](crate::ClientCore::order_sightings), or
/// the one given to its `order_sightings` setting): the streams it opens publish to it, once
/// one has published ([`is_published_to`](Self::is_published_to)) it expects each order before
/// its first attempt and until its outcome is definite, and its
/// `resolve` and `place_once` take an order the stream showed — created inside the attempts'
/// acceptance window — as proof that it was placed.
///
/// Absence proves nothing: a stream that is down, or that covers another market
/// ([`covers`](Self::covers)), sees nothing — fall back to the look-ups then.
///
/// ```
/// use std::time::Duration;
/// use txc_core::stream::OrderSightings;
/// let sightings = OrderSightings::new();
/// let watch = sightings.expect("BTC_USDT", "order-42");
/// assert_eq!(watch.get(), None);
/// assert!(!sightings.covers("BTC_USDT")); // no stream established yet
/// assert_eq!(watch.wait(Duration::from_millis(1)), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct OrderSightings {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    state: Mutex<State>,
    changed: Condvar,
    /// Whether a stream has published to it: until then no event can come, and a client
    /// need not expect its orders ahead of resolving them.
    published: AtomicBool,
}

#[derive(Debug, Default)]
struct State {
    /// Expected orders: what was seen of each, and who waits.
    /// Hashed as the ledger's maps: the keys are the client's own orders.
    expected: HashMap<(String, String), Slot, crate::fast_hash::FastHash>,
    /// The markets of the order channels of an established stream.
    covered: BTreeSet<Market>,
}

#[derive(Debug, Default)]
struct Slot {
    watchers: usize,
    /// Every order seen with the key, by order id, in the order first seen.
    seen: Vec<Sighting>,
    /// How many times the slot changed: what a [`Wake`] waits to grow.
    version: u64,
    wakers: Vec<Waker>,
}

impl Slot {
    /// Notes what an event showed of order `order_id`.
    fn note(&mut self, shown: Shown<'_>) {
        let Shown {
            order_id,
            finished,
            created,
            source,
            order,
            ..
        } = shown;
        match self.seen.iter_mut().find(|s| s.order_id == order_id) {
            Some(known) => {
                known.finished |= finished;
                known.created = known.created.or(created);
                // The source is that of the record kept: a deal does not replace an order's.
                if order.is_some() || known.order.is_none() {
                    known.source = source;
                }
                if order.is_some() {
                    known.order = order;
                }
            }
            None => self.seen.push(Sighting {
                order_id,
                finished,
                created,
                source,
                order,
            }),
        }
        self.version = self.version.wrapping_add(1);
        for waker in self.wakers.drain(..) {
            waker.wake();
        }
    }
}

/// What one event shows of one order.
struct Shown<'a> {
    market: &'a Market,
    client_order_id: Option<&'a ClientOrderId>,
    order_id: u64,
    finished: bool,
    created: Option<SystemTime>,
    source: &'static str,
    order: Option<PlacedOrder>,
}

impl<'a> Shown<'a> {
    fn stream(order: &'a StreamOrder, finished: bool, source: &'static str) -> Self {
        Self {
            market: &order.market,
            client_order_id: order.client_order_id.as_ref(),
            order_id: order.id,
            finished: finished || order.is_finished(),
            created: Some(order.ctime.to_system_time()),
            source,
            order: Some(PlacedOrder::Streamed(order.clone())),
        }
    }

    fn resync(change: &'a ResyncChange) -> Self {
        let (created, order) = match change {
            ResyncChange::Opened(o) | ResyncChange::Updated(o) => (
                Some(o.timestamp.to_system_time()),
                Some(PlacedOrder::Open(o.clone())),
            ),
            ResyncChange::Finished(h) => (
                Some(h.ctime.to_system_time()),
                Some(PlacedOrder::Finished(h.clone())),
            ),
            _ => (None, None),
        };
        Self {
            market: change.market(),
            client_order_id: change.client_order_id(),
            order_id: change.order_id(),
            finished: change.is_finished(),
            created,
            source: "resync",
            order,
        }
    }
}

impl OrderSightings {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Expects the order of `market` with `client_order_id`: its events are kept until the
    /// returned watch (and every other watch of it) is dropped.
    pub fn expect(&self, market: &str, client_order_id: &str) -> SightingWatch {
        let key = (market.to_owned(), client_order_id.to_owned());
        self.state()
            .expected
            .entry(key.clone())
            .or_default()
            .watchers += 1;
        SightingWatch {
            sightings: self.clone(),
            key,
        }
    }

    /// Whether a stream has published to the registry (its first event, at the latest the
    /// first resync, came): until then no order can be seen.
    pub fn is_published_to(&self) -> bool {
        self.inner.published.load(Ordering::Acquire)
    }

    /// How many orders are expected.
    #[cfg(test)]
    pub(crate) fn expected_len(&self) -> usize {
        self.state().expected.len()
    }

    /// Whether an established stream reports the orders of `market` now.
    pub fn covers(&self, market: &str) -> bool {
        self.state().covered.iter().any(|m| m.as_str() == market)
    }

    /// Takes note of a stream's event: the orders it shows, and whether the stream is
    /// established (a [`StreamEvent::Resync`] covers the markets of its order channels until
    /// the next [`StreamEvent::Disconnected`]). Drivers call it for every event.
    pub fn publish(&self, event: &StreamEvent) {
        self.inner.published.store(true, Ordering::Release);
        let mut state = self.state();
        match event {
            StreamEvent::Resync(resync) => {
                state.covered = resync
                    .subscriptions
                    .iter()
                    .filter(|s| {
                        matches!(
                            s.channel(),
                            Channel::OrdersPending | Channel::OrdersExecuted
                        )
                    })
                    .flat_map(|s| s.markets().iter().cloned())
                    .collect();
            }
            StreamEvent::Disconnected(_) | StreamEvent::Stopped(_) => state.covered.clear(),
            _ => {}
        }
        if state.expected.is_empty() {
            return;
        }
        // Only the orders carrying an id are looked at (and cloned when expected).
        let keyed = |market: &Market, id: Option<&ClientOrderId>| {
            id.map(|id| (market.as_str().to_owned(), id.as_str().to_owned()))
        };
        let expected = |market: &Market, id: Option<&ClientOrderId>| {
            keyed(market, id).is_some_and(|k| state.expected.contains_key(&k))
        };
        let mut shown = Vec::new();
        match event {
            StreamEvent::Account(AccountEvent::Order(e))
                if expected(&e.order.market, e.order.client_order_id.as_ref()) =>
            {
                let finished = e.kind == OrderEventKind::Finished;
                shown.push(Shown::stream(&e.order, finished, "ordersPending_update"));
            }
            StreamEvent::Account(AccountEvent::Executed(e)) => {
                for o in &e.orders {
                    if expected(&o.market, o.client_order_id.as_ref()) {
                        shown.push(Shown::stream(o, false, "ordersExecuted_update"));
                    }
                }
            }
            StreamEvent::Account(AccountEvent::Deal(d)) => shown.push(Shown {
                market: &d.market,
                client_order_id: d.client_order_id.as_ref(),
                order_id: d.order_id,
                finished: false,
                created: None,
                source: "deals_update",
                order: None,
            }),
            StreamEvent::Resynced(change)
                if expected(change.market(), change.client_order_id()) =>
            {
                shown.push(Shown::resync(change));
            }
            _ => {}
        }
        let mut woke = false;
        for seen in shown {
            let Some(key) = keyed(seen.market, seen.client_order_id) else {
                continue;
            };
            if let Some(slot) = state.expected.get_mut(&key) {
                slot.note(seen);
                woke = true;
            }
        }
        drop(state);
        if woke {
            self.inner.changed.notify_all();
        }
    }
}

/// The wait for one expected order; dropping it forgets the order (once no other watch of it
/// is left). Cloning it expects the order again.
#[derive(Debug)]
pub struct SightingWatch {
    sightings: OrderSightings,
    key: (String, String),
}

impl Clone for SightingWatch {
    fn clone(&self) -> Self {
        self.sightings.expect(&self.key.0, &self.key.1)
    }
}

impl SightingWatch {
    /// The order that changed last of those seen with the id so far.
    pub fn get(&self) -> Option<Sighting> {
        self.sightings
            .state()
            .expected
            .get(&self.key)
            .and_then(|s| s.seen.last().cloned())
    }

    /// Every order seen with the id so far (usually one; an older order that reused the id is
    /// another), in the order first seen.
    pub fn all(&self) -> Vec<Sighting> {
        self.sightings
            .state()
            .expected
            .get(&self.key)
            .map(|s| s.seen.clone())
            .unwrap_or_default()
    }

    /// How many times what was seen changed: it grows with every event of the order. A
    /// [`Wake`] made with it ([`wake_after`](Self::wake_after)) fires at the next change.
    pub fn version(&self) -> u64 {
        self.sightings
            .state()
            .expected
            .get(&self.key)
            .map_or(0, |s| s.version)
    }

    /// Blocks until the order is seen, for at most `timeout`.
    pub fn wait(&self, timeout: Duration) -> Option<Sighting> {
        if self.wake_after(0).wait(timeout) {
            self.get()
        } else {
            None
        }
    }

    /// A future, on any runtime, ready when the order is seen (bound it with your runtime's
    /// timeout).
    pub fn seen(&self) -> Seen<'_> {
        Seen { watch: self }
    }

    /// What fires once the order's sightings changed past `version`
    /// ([`version`](Self::version)).
    pub fn wake_after(&self, version: u64) -> Wake<'_> {
        Wake::new(self, version)
    }

    /// Whether the slot changed past `after`.
    fn changed(&self, state: &State, after: u64) -> bool {
        state
            .expected
            .get(&self.key)
            .is_some_and(|s| s.version != after)
    }
}

impl Drop for SightingWatch {
    fn drop(&mut self) {
        let mut state = self.sightings.state();
        if let Some(slot) = state.expected.get_mut(&self.key) {
            slot.watchers = slot.watchers.saturating_sub(1);
            if slot.watchers == 0 {
                state.expected.remove(&self.key);
            }
        }
    }
}

impl Signal for SightingWatch {
    fn wait_past(&self, version: u64, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.sightings.state();
        loop {
            if self.changed(&state, version) {
                return true;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return false;
            };
            state = self
                .sightings
                .inner
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn poll_past(&self, version: u64, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.sightings.state();
        if self.changed(&state, version) {
            return Poll::Ready(());
        }
        if let Some(slot) = state.expected.get_mut(&self.key)
            && !slot.wakers.iter().any(|w| w.will_wake(cx.waker()))
        {
            slot.wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

/// The future of [`SightingWatch::seen`].
#[derive(Debug)]
#[must_use = "a future does nothing unless awaited"]
pub struct Seen<'a> {
    watch: &'a SightingWatch,
}

impl Future for Seen<'_> {
    type Output = Sighting;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Sighting> {
        match self.watch.poll_past(0, cx) {
            Poll::Ready(()) => match self.watch.get() {
                Some(seen) => Poll::Ready(seen),
                None => Poll::Pending,
            },
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests;
