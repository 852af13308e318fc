//! [`Resyncer`]: what the consumer has been told about orders, when a resync is due, and what
//! a resync's findings change.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::{SystemTime, UNIX_EPOCH};

use txc_types::events::{AccountEvent, OrderEventKind, StreamOrder};
use txc_types::orders::OrderStatus;
use txc_types::values::{ClientOrderId, ExactDecimal, Market};

use super::{RESYNC_OVERLAP, ResyncChange, ResyncFindings, ResyncPlan, ResyncReport};
use crate::Error;
use crate::stream::{Backoff, Channel, Resync, StreamError, StreamEvent};

/// How many finished order ids are remembered, to report each finish once.
const FINISHED_KEPT: usize = 100_000;

/// An order the consumer was told is open.
#[derive(Debug, Clone)]
struct Known {
    market: Market,
    client_order_id: Option<ClientOrderId>,
    deal_stock: ExactDecimal,
    status: Option<OrderStatus>,
}

/// Keeps what the consumer has been told about orders and decides the resyncs: a driver hands
/// it every event it hands the consumer ([`observe`](Self::observe)), runs the
/// [`ResyncPlan`] it says is [`due`](Self::due) over REST
/// ([`ClientCore::resync_lookups`](crate::ClientCore::resync_lookups)) and hands the outcome
/// to [`finish`](Self::finish), whose events go to the consumer (and back through
/// `observe`). A failed resync is retried with growing delays
/// ([`retry_at`](Self::retry_at)) while no newer one replaces it.
#[derive(Debug)]
pub struct Resyncer {
    open: BTreeMap<u64, Known>,
    finished: HashSet<u64>,
    finished_order: VecDeque<u64>,
    /// A resync asked for and not yet started: the connection and the gap.
    wanted: Option<(Resync, Option<SystemTime>)>,
    /// The plan in flight.
    running: Option<ResyncPlan>,
    /// What the plan in flight came from, to ask again if it fails.
    pending_retry: Option<(Resync, Option<SystemTime>)>,
    retry_at: Option<SystemTime>,
    failures: u32,
    backoff: Backoff,
    /// Whether a live positions snapshot was handed on since the plan in flight started.
    live_positions: bool,
}

impl Default for Resyncer {
    fn default() -> Self {
        Self::new()
    }
}

impl Resyncer {
    /// A resyncer that knows nothing yet; failed resyncs are retried after 1 s doubling to 30 s.
    pub fn new() -> Self {
        Self {
            open: BTreeMap::new(),
            finished: HashSet::new(),
            finished_order: VecDeque::new(),
            wanted: None,
            running: None,
            pending_retry: None,
            retry_at: None,
            failures: 0,
            backoff: Backoff::default(),
            live_positions: false,
        }
    }

    /// How many orders it knows open.
    pub fn open_orders(&self) -> usize {
        self.open.len()
    }

    /// Takes note of an event handed to the consumer: orders opened, changed and finished, a
    /// positions snapshot (which supersedes the positions of a resync in flight), and a
    /// [`StreamEvent::Resync`], which makes a resync due.
    pub fn observe(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::Resync(resync) => {
                // A resync not yet done keeps its (earlier) gap.
                let gap = match self.wanted.take() {
                    Some((_, earlier)) => earlier.or(resync.gap_since),
                    None => resync.gap_since,
                };
                self.wanted = Some((resync.clone(), gap));
                self.retry_at = None;
                self.failures = 0;
            }
            StreamEvent::Account(AccountEvent::Order(event)) => {
                let finished = event.kind == OrderEventKind::Finished || event.order.is_finished();
                self.stream_order(&event.order, finished);
            }
            StreamEvent::Account(AccountEvent::Positions(_)) => {
                self.live_positions |= self.running.is_some();
            }
            StreamEvent::Account(AccountEvent::Executed(executed)) => {
                for order in &executed.orders {
                    self.stream_order(order, order.is_finished());
                }
            }
            StreamEvent::Resynced(change) => match change {
                ResyncChange::Opened(o) | ResyncChange::Updated(o) => {
                    self.opened(
                        o.order_id,
                        Known {
                            market: o.market.clone(),
                            client_order_id: o.client_order_id.clone(),
                            deal_stock: o.deal_stock.clone(),
                            status: o.status.clone(),
                        },
                    );
                }
                ResyncChange::Finished(h) => self.finished(h.id),
                ResyncChange::Gone { order_id, .. } => self.finished(*order_id),
            },
            _ => {}
        }
    }

    fn stream_order(&mut self, order: &StreamOrder, finished: bool) {
        if finished {
            self.finished(order.id);
        } else {
            self.opened(
                order.id,
                Known {
                    market: order.market.clone(),
                    client_order_id: order.client_order_id.clone(),
                    deal_stock: order.deal_stock.clone(),
                    status: order.status.clone(),
                },
            );
        }
    }

    /// A finished order stays finished.
    fn opened(&mut self, id: u64, known: Known) {
        if !self.finished.contains(&id) {
            self.open.insert(id, known);
        }
    }

    fn finished(&mut self, id: u64) {
        self.open.remove(&id);
        if self.finished.insert(id) {
            self.finished_order.push_back(id);
            if self.finished_order.len() > FINISHED_KEPT
                && let Some(oldest) = self.finished_order.pop_front()
            {
                self.finished.remove(&oldest);
            }
        }
    }

    /// The resync to run at `now`, if one is due and none runs: the open orders of the
    /// markets of the order channels in force, the history since the gap (less
    /// [`RESYNC_OVERLAP`]), the orders known open, and the open positions when a positions
    /// channel is in force. A resync with neither an order channel's market nor a positions
    /// channel has nothing to look up: it finishes at once ([`finish`](Self::finish) with
    /// empty findings).
    pub fn due(&mut self, now: SystemTime) -> Option<ResyncPlan> {
        if self.running.is_some() || self.retry_at.is_some_and(|at| at > now) {
            return None;
        }
        let (resync, gap) = self.wanted.take()?;
        self.retry_at = None;
        let mut markets: Vec<Market> = Vec::new();
        for sub in &resync.subscriptions {
            if matches!(
                sub.channel(),
                Channel::OrdersPending | Channel::OrdersExecuted | Channel::Deals
            ) {
                for market in sub.markets() {
                    if !markets.contains(market) {
                        markets.push(market.clone());
                    }
                }
            }
        }
        let history_since = gap.map(|gap| {
            let since = gap.checked_sub(RESYNC_OVERLAP).unwrap_or(UNIX_EPOCH);
            since
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
                // The history reads at most 31 days.
                .max(
                    now.duration_since(UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs())
                        .saturating_sub(31 * 24 * 3600 - 60),
                )
        });
        let known_open = self
            .open
            .iter()
            .filter(|(_, k)| markets.contains(&k.market))
            .map(|(id, k)| (*id, k.market.clone()))
            .collect();
        let positions = resync
            .channels()
            .any(|c| matches!(c, Channel::Positions | Channel::PositionEvents));
        let plan = ResyncPlan {
            connection: resync.connection,
            markets,
            history_since,
            known_open,
            positions,
        };
        self.running = Some(plan.clone());
        self.live_positions = false;
        // Kept until finished: a failure asks for it again.
        self.pending_retry = Some((resync, gap));
        Some(plan)
    }

    /// When a failed resync is tried again, if one waits.
    pub fn retry_at(&self) -> Option<SystemTime> {
        self.retry_at.filter(|_| self.wanted.is_some())
    }

    /// Whether a resync is due now or later and not running.
    pub fn is_wanted(&self) -> bool {
        self.wanted.is_some()
    }

    /// The outcome of the look-ups of the plan [`due`](Self::due) returned, at `now`: the
    /// events to hand the consumer (each [`StreamEvent::Resynced`] change, then
    /// [`StreamEvent::ResyncDone`]), or on failure a [`StreamError::ResyncFailed`] — retried
    /// later unless a newer resync came meanwhile.
    pub fn finish(
        &mut self,
        now: SystemTime,
        outcome: Result<ResyncFindings, Error>,
    ) -> Vec<StreamEvent> {
        let Some(plan) = self.running.take() else {
            return Vec::new();
        };
        let retry = self.pending_retry.take();
        match outcome {
            Err(error) => {
                let delay = self.backoff.delay(self.failures, 0.0);
                self.failures = self.failures.saturating_add(1);
                match (&mut self.wanted, retry) {
                    (None, retry) => {
                        self.wanted = retry;
                        self.retry_at = now.checked_add(delay);
                    }
                    // A newer resync replaces it, reading from the earlier of the two gaps.
                    (Some((_, gap)), Some((_, failed))) => {
                        *gap = match (*gap, failed) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (a, b) => a.or(b),
                        };
                    }
                    (Some(_), None) => {}
                }
                vec![StreamEvent::Error(StreamError::ResyncFailed {
                    connection: plan.connection,
                    error,
                    retry_in: self.retry_at.map(|_| delay),
                })]
            }
            Ok(findings) => {
                self.failures = 0;
                let mut events = self.changes(&plan, &findings);
                let positions = findings.positions.filter(|_| !self.live_positions);
                let count = |f: fn(&ResyncChange) -> bool| {
                    events
                        .iter()
                        .filter(|e| matches!(e, StreamEvent::Resynced(c) if f(c)))
                        .count()
                };
                let report = ResyncReport {
                    connection: plan.connection,
                    opened: count(|c| matches!(c, ResyncChange::Opened(_))),
                    updated: count(|c| matches!(c, ResyncChange::Updated(_))),
                    finished: count(|c| matches!(c, ResyncChange::Finished(_))),
                    gone: count(|c| matches!(c, ResyncChange::Gone { .. })),
                    positions: positions.as_ref().map(Vec::len),
                    lookups: findings.lookups,
                    truncated: findings.truncated,
                    started_at: findings.started_at.unwrap_or(now),
                };
                for event in &events {
                    self.observe(event);
                }
                events.extend(positions.map(StreamEvent::ResyncedPositions));
                events.push(StreamEvent::ResyncDone(report));
                events
            }
        }
    }

    /// What the findings change for the consumer.
    fn changes(&self, plan: &ResyncPlan, findings: &ResyncFindings) -> Vec<StreamEvent> {
        let mut changes = Vec::new();
        let mut seen: HashSet<u64> = HashSet::new();
        for order in &findings.open {
            let id = order.order_id;
            if !seen.insert(id) || self.finished.contains(&id) {
                continue;
            }
            match self.open.get(&id) {
                None => changes.push(ResyncChange::Opened(order.clone())),
                Some(known)
                    if known.deal_stock != order.deal_stock
                        || (order.status.is_some() && known.status != order.status) =>
                {
                    changes.push(ResyncChange::Updated(order.clone()));
                }
                Some(_) => {}
            }
        }
        for order in &findings.history {
            if seen.insert(order.id) && !self.finished.contains(&order.id) {
                changes.push(ResyncChange::Finished(order.clone()));
            }
        }
        for (id, _) in &plan.known_open {
            if seen.contains(id) {
                continue;
            }
            if let Some(known) = self.open.get(id) {
                changes.push(ResyncChange::Gone {
                    order_id: *id,
                    market: known.market.clone(),
                    client_order_id: known.client_order_id.clone(),
                });
            }
        }
        changes.into_iter().map(StreamEvent::Resynced).collect()
    }
}
