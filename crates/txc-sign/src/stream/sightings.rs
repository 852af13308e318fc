//! [`OrderSightings`]: an in-process registry where a stream's driver publishes every order it
//! sees, and a resolver waits for the one carrying its `clientOrderId` — the hook for settling
//! an order whose outcome is unknown as soon as an event shows it, instead of after the
//! settling delay and the REST look-ups.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use txc_types::events::AccountEvent;
use txc_types::values::Market;

use super::{Channel, ResyncChange, StreamEvent};

/// What a stream showed of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Sighting {
    /// The exchange's order id.
    pub order_id: u64,
    /// Whether the order was seen finished (filled or canceled).
    pub finished: bool,
}

/// Orders awaited by `(market, clientOrderId)`, and the markets a live stream covers.
///
/// Cheap to clone (one `Arc`); every clone is the same registry. Give one to a stream's builder
/// (`sightings(…)`): its driver publishes every event ([`publish`](Self::publish)). Before
/// sending an order whose outcome may become unknown, [`expect`](Self::expect) its
/// `(market, clientOrderId)`; the [`SightingWatch`] then says — at once
/// ([`SightingWatch::get`]), blocking ([`SightingWatch::wait`]) or as a future
/// ([`SightingWatch::seen`]) — when an event of the order arrived: a live update, a deal, or a
/// resync's finding. Only expected orders are kept (dropping the watch forgets it), so the
/// registry holds what its waiters ask for, nothing more.
///
/// Absence proves nothing: a stream that is down, or that covers another market
/// ([`covers`](Self::covers)), sees nothing — fall back to the look-ups then.
///
/// ```
/// use std::time::Duration;
/// use txc_sign::stream::OrderSightings;
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
}

#[derive(Debug, Default)]
struct State {
    /// Expected orders: what was seen of each, and who waits.
    expected: HashMap<(String, String), Slot>,
    /// The markets of the order channels of an established stream.
    covered: BTreeSet<Market>,
}

#[derive(Debug, Default)]
struct Slot {
    watchers: usize,
    seen: Option<Sighting>,
    wakers: Vec<Waker>,
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
    /// returned watch is dropped.
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

    /// Whether an established stream reports the orders of `market` now.
    pub fn covers(&self, market: &str) -> bool {
        self.state().covered.iter().any(|m| m.as_str() == market)
    }

    /// Takes note of a stream's event: the orders it shows, and whether the stream is
    /// established (a [`StreamEvent::Resync`] covers the markets of its order channels until
    /// the next [`StreamEvent::Disconnected`]). Drivers call it for every event.
    pub fn publish(&self, event: &StreamEvent) {
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
        let mut seen = Vec::new();
        match event {
            StreamEvent::Account(AccountEvent::Order(e)) => seen.push((
                &e.order.market,
                e.order.client_order_id.as_ref(),
                e.order.id,
                e.order.is_finished() || e.kind == txc_types::events::OrderEventKind::Finished,
            )),
            StreamEvent::Account(AccountEvent::Executed(e)) => {
                for o in &e.orders {
                    seen.push((&o.market, o.client_order_id.as_ref(), o.id, o.is_finished()));
                }
            }
            StreamEvent::Account(AccountEvent::Deal(d)) => {
                seen.push((&d.market, d.client_order_id.as_ref(), d.order_id, false));
            }
            StreamEvent::Resynced(change) => seen.push((
                change.market(),
                change.client_order_id(),
                change.order_id(),
                matches!(
                    change,
                    ResyncChange::Finished(_) | ResyncChange::Gone { .. }
                ),
            )),
            _ => {}
        }
        let mut woke = false;
        for (market, id, order_id, finished) in seen {
            let Some(id) = id else { continue };
            let key = (market.as_str().to_owned(), id.as_str().to_owned());
            if let Some(slot) = state.expected.get_mut(&key) {
                let finished = finished || slot.seen.as_ref().is_some_and(|s| s.finished);
                slot.seen = Some(Sighting { order_id, finished });
                for waker in slot.wakers.drain(..) {
                    waker.wake();
                }
                woke = true;
            }
        }
        drop(state);
        if woke {
            self.inner.changed.notify_all();
        }
    }
}

/// The wait for one expected order; dropping it forgets the order.
#[derive(Debug)]
pub struct SightingWatch {
    sightings: OrderSightings,
    key: (String, String),
}

impl SightingWatch {
    /// What was seen of the order so far.
    pub fn get(&self) -> Option<Sighting> {
        self.sightings
            .state()
            .expected
            .get(&self.key)
            .and_then(|s| s.seen.clone())
    }

    /// Blocks until the order is seen, for at most `timeout`.
    pub fn wait(&self, timeout: Duration) -> Option<Sighting> {
        let deadline = Instant::now() + timeout;
        let mut state = self.sightings.state();
        loop {
            if let Some(seen) = state.expected.get(&self.key).and_then(|s| s.seen.clone()) {
                return Some(seen);
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            state = self
                .sightings
                .inner
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// A future, on any runtime, ready when the order is seen (bound it with your runtime's
    /// timeout).
    pub fn seen(&self) -> Seen<'_> {
        Seen { watch: self }
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

/// The future of [`SightingWatch::seen`].
#[derive(Debug)]
pub struct Seen<'a> {
    watch: &'a SightingWatch,
}

impl Future for Seen<'_> {
    type Output = Sighting;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Sighting> {
        let mut state = self.watch.sightings.state();
        match state.expected.get_mut(&self.watch.key) {
            Some(slot) => match &slot.seen {
                Some(seen) => Poll::Ready(seen.clone()),
                None => {
                    if !slot.wakers.iter().any(|w| w.will_wake(cx.waker())) {
                        slot.wakers.push(cx.waker().clone());
                    }
                    Poll::Pending
                }
            },
            None => Poll::Pending,
        }
    }
}
