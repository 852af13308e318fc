//! [`OrderSearch`]: finding an order again by its `clientOrderId` — the open orders, the
//! history (read page by page when someone else's order holds the id), and for trigger orders
//! the conditional orders — and [`Resolve`], the [`Resolver`] with it, whose docs state the
//! rule.

use std::time::{Duration, SystemTime};

use txc_types::lookups::{
    ConditionalOrder, ConditionalOrders, ConditionalOrdersQuery, OpenOrdersQuery, OrderHistory,
    OrderHistoryQuery,
};
use txc_types::orders::Order;
use txc_types::values::{ClientOrderId, Market};

use super::evidence::{AcceptanceWindow, Evidence, Flaw, Look, Sighting};
use super::outcome::{Found, PlacedOrder, Resolution};
use super::resolver::{EventProof, Resolver};
use super::search::{Lookup, Outcome, RoundFindings, RoundMachine, Search};
use crate::machine::Call;
use crate::{
    AttemptRecord, ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError,
    Unresolved,
};

/// Resolves an order whose outcome is unknown: a [`Resolver`] with the order look-ups
/// ([`OrderSearch`]).
///
/// # The rule
///
/// Every answer says what proved it ([`Evidence`]):
///
/// - **Placed** only when a look-up — or an event of the private stream, see below — finds a
///   record of the market with the `clientOrderId`
///   created inside the attempts' [`AcceptanceWindow`] — with `nonceWindow`, the nonce time
///   of each attempt ± 5 s, plus the [`CREATION_ALLOWANCE`](crate::CREATION_ALLOWANCE), all on
///   the exchange's clock; with strict nonces, from the attempt's signing (moved to the
///   exchange's clock by the measured [`ClockBounds`](crate::ClockBounds)) to the first look-up the exchange
///   accepted. A record with the id outside the window is someone else's (an order that
///   reused the id before, or after): it neither proves nor disproves.
/// - **Not placed** only when absence is proven twice ([`AbsenceRule`](crate::AbsenceRule)): two rounds of the
///   look-ups, the first processed after the exchange's clock passed the window's end plus
///   the settling delay (judged by the measured clock's *lower* bound), the second the
///   settling delay after the first; neither with a flaw — a failed look-up, a filtered
///   answer listing another id, a list that could not be read to its end — and the account's
///   history recording cancels (else **cannot tell**, [`Resolution::CannotTell`]).
/// - Everything else is **unknown** ([`Error::OutcomeUnknown`]), its cause saying why and what
///   to run.
///
/// The first round goes out at once and can only find the order; resolving an order long
/// after its attempts, it may count as the first proof too.
///
/// # Events
///
/// While a private event stream of the client runs (its `events`, publishing to the client's
/// [`OrderSightings`](crate::stream::OrderSightings)), an event of an order of the market
/// carrying the `clientOrderId` — an `ordersPending` or `ordersExecuted` update, or what a
/// resync found — proves it placed by the same rule: only if the order's creation time (its
/// `ctime` on the exchange's clock) is inside the acceptance window; an older order that
/// reused the id proves nothing. Once a stream has published to the
/// sightings, the client expects each order from before its first attempt, so an event that
/// came while the answer was being lost counts. Resolving then answers at
/// the event, not after the look-ups' rounds: checked at every step, and while it waits for a
/// round the machine offers a [`Wake`](crate::machine::Wake) that ends the wait when an event comes
/// ([`Machine::wake`]); the answer's [`Evidence`] names the event
/// ([`Evidence::by_event`]). Absence is never proven by events — no event is no proof — so
/// "not placed" and "cannot tell" still take the look-ups' two rounds, and so does everything
/// when no stream covers the market.
///
/// # What is proven, what is assumed
///
/// Proven from the exchange's documented rules: with `nonceWindow` no attempt is accepted
/// outside its nonce ± 5 s of the exchange's clock; with strict nonces none after a later
/// request of the key was accepted; a `clientOrderId` is unique among the market's open
/// orders. Measured, not guessed: the exchange's clock, as bounds from the `Date` of its
/// answers (or its server time), one-second resolution and the round trip included.
///
/// Assumed, because the docs do not say (each is a case the look-ups cannot tell apart):
///
/// 1. an accepted order is created within the [`CREATION_ALLOWANCE`](crate::CREATION_ALLOWANCE)
///    (5 s) of passing the nonce check, and its `timestamp`/`ctime` is that creation time on
///    the clock the nonce check and the `Date` header read;
/// 2. every record (and every change of its state: filled, canceled, triggered) reaches each
///    look-up within the settling delay (default 10 s, at least 5 s plus the measured skew):
///    the longest visibility lag the two rounds cover. The docs give no bound; raise
///    [`settle_delay`](crate::ClientConfig::settle_delay) if the exchange lags more;
/// 3. the history keeps every finished order (a B2B account's canceled ones excepted, which is
///    why it cannot tell there), and a list read page by page does not change between pages in
///    a way that keeps its total;
/// 4. nobody else places an order with the same `clientOrderId` on the market inside the
///    window (generated ids are unique per process; the client refuses reusing one inside its
///    window).
///
/// Under these, resolving never reports a placed order as not placed, and `place_once` never
/// places an order twice; `crates/txc-core/tests/machines/exactly_once.rs` checks it against a scripted
/// exchange with look-ups lagging up to 20 s, reused ids, clocks ±120 s off, lost answers and
/// canceled B2B orders.
pub type Resolve<'a> = Resolver<'a, OrderSearch>;

/// How many records a history page holds when the history is read page by page.
const SCAN_PAGE: u64 = 500;
/// The most pages read of one list in a round.
const MAX_PAGES: u32 = 100;
/// The longest the history can be listed back (the exchange's 31-day span), less a day for
/// clocks.
const MAX_SCAN_SPAN: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The look-ups that find an order by its `clientOrderId` (the [`Search`] of
/// [`Resolve`]).
///
/// A round asks, in order, and stops at the first record inside the window:
///
/// 1. the open orders of the market with the id (`POST /api/v4/orders`);
/// 2. the history of the market with the id (`POST /api/v4/trade-account/order/history`) —
///    and, when that shows only records created outside the window (someone else's order that
///    reused the id), the market's whole history since the window opened, page by page, so
///    that a record of ours cannot hide behind theirs (the docs do not say which order a
///    reused id's look-up returns);
/// 3. for a trigger order, every page of the market's conditional orders
///    (`POST /api/v4/conditional-orders`), whose OTO groups carry the order.
///
/// A filtered answer listing a record with another id, a list that changed while it was read
/// or an unreadable record carrying the id leave the round proving nothing.
#[derive(Debug, Clone)]
pub struct OrderSearch {
    order: PendingOrder,
    operation: &'static str,
}

impl OrderSearch {
    /// The search for `order`, placed by `operation` (for its errors).
    pub fn new(order: PendingOrder, operation: &'static str) -> Self {
        Self { order, operation }
    }

    /// The order searched for.
    pub fn order(&self) -> &PendingOrder {
        &self.order
    }

    /// Why absence, even proven twice, does not tell that the order was not placed: a B2B
    /// account's history omits canceled orders (the client's `b2b_account`).
    pub fn absence_caveat(&self, core: &ClientCore) -> Option<String> {
        absence_caveat(core)
    }
}

/// The answer to what resolving `order` — anything the ledger keeps under a `clientOrderId`:
/// an order, an OCO pair — proved: placed, not placed, or cannot tell; the ledger's record
/// settled on a definite answer, noted with why otherwise.
pub(crate) fn order_answer<R>(
    core: &ClientCore,
    order: &PendingOrder,
    outcome: Outcome<R>,
) -> Resolution<R> {
    let settle = || core.ledger().settle(order, core.nonce_mode(), false);
    match outcome {
        Outcome::Found(record, evidence) => {
            settle();
            Resolution::Placed(Found::new(record, evidence))
        }
        Outcome::Absent(_, evidence) if absence_caveat(core).is_none() => {
            settle();
            Resolution::NotPlaced(evidence)
        }
        // Never several for an order (its round stops at the first); cannot tell either
        // way is the safe answer.
        Outcome::Absent(_, evidence) | Outcome::Ambiguous(_, evidence) => {
            let reason = absence_caveat(core)
                .unwrap_or_else(|| "several orders with the id in the window".to_owned());
            core.ledger().note(order, &format!("cannot tell: {reason}"));
            Resolution::CannotTell(evidence)
        }
    }
}

/// Why absence, even proven twice, does not tell that an order was not placed: a B2B
/// account's history omits canceled orders (the client's `b2b_account`).
pub(crate) fn absence_caveat(core: &ClientCore) -> Option<String> {
    core.b2b_account().then(|| {
        "the account is a B2B account (the client's b2b_account setting), whose canceled \
             orders the exchange does not record in the history: an order placed and then \
             canceled (a market order canceled unfilled, a trigger order canceled while it \
             rested) is invisible to every look-up, so absence cannot tell that the order was \
             not placed; ask the exchange's support, or resend knowingly \
             (resend_when_cancels_are_invisible)"
            .to_owned()
    })
}

impl<'a> Resolve<'a> {
    /// Resolves `order`, placed by `operation`, by the look-ups and by what the streams
    /// publishing to the client's [`OrderSightings`](crate::stream::OrderSightings) show of it.
    pub(crate) fn of_order(
        core: &'a ClientCore,
        order: PendingOrder,
        operation: &'static str,
    ) -> Self {
        let watch = core
            .order_sightings()
            .expect(order.market().as_str(), order.client_order_id().as_str());
        let events = EventProof::new(watch, |seen| seen.order.clone());
        Resolver::new(core, OrderSearch::new(order, operation)).with_events(events)
    }
}

impl Search for OrderSearch {
    type Record = PlacedOrder;
    type Answer = Resolution;

    fn attempts(&self) -> &[AttemptRecord] {
        self.order.attempts()
    }

    fn socket_attempts(&self) -> &[crate::socket::SocketAttempt] {
        self.order.socket_attempts()
    }

    fn round<'a>(
        &self,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, PlacedOrder> {
        let query = OpenOrdersQuery::by_client_order_id(
            self.order.market().clone(),
            self.order.client_order_id().clone(),
        );
        Box::new(OrderRound {
            core,
            market: self.order.market().clone(),
            id: self.order.client_order_id().clone(),
            trigger: self.order.is_trigger(),
            window: window.cloned(),
            stage: Stage::Open(core.call_owned(query)),
            findings: RoundFindings::default(),
            paging: None,
        })
    }

    fn answer(
        &self,
        core: &ClientCore,
        outcome: Outcome<PlacedOrder>,
    ) -> Result<Resolution, Error> {
        Ok(order_answer(core, &self.order, outcome))
    }

    fn unknown(&self, cause: Error, evidence: Evidence) -> Error {
        let unresolved =
            Unresolved::new(self.operation, self.order.clone(), cause).with_evidence(evidence);
        Error::OutcomeUnknown(Box::new(unresolved))
    }

    fn unresolved(&self, core: &ClientCore, reason: &str) {
        core.ledger().note(&self.order, reason);
    }

    fn subject(&self) -> String {
        crate::PendingRecord::Order(self.order.clone()).subject()
    }
}

/// Where a round is.
enum Stage<'a> {
    Open(Call<'a, OpenOrdersQuery>),
    History(Call<'a, OrderHistoryQuery>),
    Scan(Call<'a, OrderHistoryQuery>),
    Conditional(Call<'a, ConditionalOrdersQuery>),
    Done,
}

/// The page a multi-page look-up is at.
struct Paging {
    offset: u64,
    total: Option<u64>,
    read: u64,
}

/// One round of [`OrderSearch`].
struct OrderRound<'a> {
    core: &'a ClientCore,
    market: Market,
    id: ClientOrderId,
    trigger: bool,
    window: Option<AcceptanceWindow>,
    stage: Stage<'a>,
    findings: RoundFindings<PlacedOrder>,
    paging: Option<Paging>,
}

impl<'a> OrderRound<'a> {
    /// Whether `created` is inside the window (never, while it is unknown).
    fn inside(&self, created: SystemTime) -> bool {
        self.window.as_ref().is_some_and(|w| w.contains(created))
    }

    /// Whether a record of the window was found.
    fn found_ours(&self) -> bool {
        self.findings
            .candidates
            .iter()
            .any(|c| self.inside(c.sighting.created))
    }

    /// Starts a look-up's report: a new one, or the next page of the current one.
    fn current(&mut self) -> Option<&mut Look> {
        self.findings.looks.last_mut()
    }

    fn flaw(&mut self, flaw: Flaw) {
        self.findings.flaw(flaw);
    }

    /// Notes a record of the market carrying the id.
    fn candidate(&mut self, id: u64, created: SystemTime, record: PlacedOrder) {
        self.findings.candidate(Sighting::new(id, created), record);
    }

    fn fail(&mut self, error: Error) -> Step<RoundFindings<PlacedOrder>> {
        self.findings.fail(error);
        self.finish()
    }

    fn finish(&mut self) -> Step<RoundFindings<PlacedOrder>> {
        self.stage = Stage::Done;
        Step::Done(std::mem::take(&mut self.findings))
    }

    fn open_orders(&mut self, orders: Vec<Order>) {
        for order in orders {
            if order.client_order_id.as_ref() == Some(&self.id) && order.market == self.market {
                let created = order.timestamp.to_system_time();
                self.candidate(order.order_id, created, PlacedOrder::Open(order));
            } else {
                self.flaw(Flaw::FilterIgnored { id: order.order_id });
            }
        }
    }

    /// Notes the history's records; with `filtered`, a record without the id is a flaw.
    fn history(&mut self, history: OrderHistory, filtered: bool) {
        for order in history.into_orders() {
            if order.client_order_id.as_ref() == Some(&self.id) && order.market == self.market {
                let created = order.ctime.to_system_time();
                self.candidate(order.id, created, PlacedOrder::Finished(order));
            } else if filtered {
                self.flaw(Flaw::FilterIgnored { id: order.id });
            }
        }
    }

    fn conditional(&mut self, page: &ConditionalOrders) {
        for record in &page.records {
            match record {
                ConditionalOrder::Oto(group) => {
                    let order = &group.conditional_order;
                    if order.client_order_id.as_ref() == Some(&self.id)
                        && order.market == self.market
                    {
                        let created = order.timestamp.to_system_time();
                        self.candidate(order.order_id, created, PlacedOrder::Open(order.clone()));
                    }
                }
                ConditionalOrder::Other(object) => {
                    let text = serde_json::Value::Object(object.clone()).to_string();
                    if text.contains(self.id.as_str()) {
                        self.flaw(Flaw::Unclassified(
                            "a conditional order carrying the id could not be read".to_owned(),
                        ));
                    }
                }
                _ => {}
            }
        }
    }

    /// After the history look-up: read the whole history when only someone else's record
    /// holds the id, else go on to the conditional orders or finish.
    fn after_history(&mut self, now: SystemTime) -> Step<RoundFindings<PlacedOrder>> {
        let foreign_only = !self.findings.candidates.is_empty() && !self.found_ours();
        if foreign_only && self.current().is_some_and(|l| l.flaw.is_none()) {
            if self.window.is_none() {
                // With strict nonces before the first look-up: the next round will know.
                self.flaw(Flaw::Incomplete(
                    "someone else's order holds the id, and the window is not known yet".to_owned(),
                ));
                return self.after_scan(now);
            }
            match self.scan_query(0, now) {
                Ok(query) => {
                    self.paging = Some(Paging {
                        offset: 0,
                        total: None,
                        read: 0,
                    });
                    self.stage = Stage::Scan(self.core.call_owned(query));
                    return self.next(now);
                }
                Err(why) => self.flaw(Flaw::Unclassified(why)),
            }
        }
        self.after_scan(now)
    }

    fn after_scan(&mut self, now: SystemTime) -> Step<RoundFindings<PlacedOrder>> {
        self.paging = None;
        if self.trigger {
            self.paging = Some(Paging {
                offset: 0,
                total: None,
                read: 0,
            });
            let query = ConditionalOrdersQuery::page(self.market.clone(), 0);
            self.stage = Stage::Conditional(self.core.call_owned(query));
            return self.next(now);
        }
        self.finish()
    }

    /// The page at `offset` of the market's history since the window opened.
    fn scan_query(&self, offset: u64, now: SystemTime) -> Result<OrderHistoryQuery, String> {
        let start = self
            .window
            .as_ref()
            .and_then(AcceptanceWindow::start)
            .ok_or("the window has no attempts")?;
        if now.duration_since(start).unwrap_or_default() > MAX_SCAN_SPAN {
            return Err(
                "someone else's order holds the id, and the history cannot be listed back to \
                 the window (31 days at most)"
                    .to_owned(),
            );
        }
        let from = crate::unix_millis(start) / 1_000;
        OrderHistoryQuery::builder()
            .market(self.market.clone())
            .start_date(from.saturating_sub(1))
            .limit(SCAN_PAGE)
            .offset(offset)
            .build()
            .map_err(|e| e.to_string())
    }
}

impl Machine for OrderRound<'_> {
    type Output = RoundFindings<PlacedOrder>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match &mut self.stage {
            Stage::Open(call) => match self.findings.answer("open_orders", call, now) {
                Lookup::Pending(step) => step,
                Lookup::Failed(e) => self.fail(e),
                Lookup::Answered(orders) => {
                    self.open_orders(orders);
                    if self.found_ours() {
                        return self.finish();
                    }
                    let query =
                        OrderHistoryQuery::by_client_order_id(self.market.clone(), self.id.clone());
                    self.stage = Stage::History(self.core.call_owned(query));
                    self.next(now)
                }
            },
            Stage::History(call) => match self.findings.answer("order_history", call, now) {
                Lookup::Pending(step) => step,
                Lookup::Failed(e) => self.fail(e),
                Lookup::Answered(history) => {
                    self.history(history, true);
                    if self.found_ours() {
                        return self.finish();
                    }
                    self.after_history(now)
                }
            },
            Stage::Scan(call) => match self.findings.answer("order_history_scan", call, now) {
                Lookup::Pending(step) => step,
                Lookup::Failed(e) => self.fail(e),
                Lookup::Answered(history) => {
                    let count = u64::try_from(history.orders().count()).unwrap_or(u64::MAX);
                    self.history(history, false);
                    if self.found_ours() {
                        return self.finish();
                    }
                    let Some(paging) = &mut self.paging else {
                        return self.after_scan(now);
                    };
                    paging.read = paging.read.saturating_add(count);
                    paging.offset = paging.offset.saturating_add(SCAN_PAGE);
                    let (offset, pages) = (paging.offset, paging.offset / SCAN_PAGE);
                    if count < SCAN_PAGE {
                        return self.after_scan(now);
                    }
                    if pages >= u64::from(MAX_PAGES) {
                        self.flaw(Flaw::Incomplete(format!(
                            "the history holds more than {} orders since the window opened",
                            offset
                        )));
                        return self.after_scan(now);
                    }
                    match self.scan_query(offset, now) {
                        Ok(query) => {
                            self.stage = Stage::Scan(self.core.call_owned(query));
                            self.next(now)
                        }
                        Err(why) => {
                            self.flaw(Flaw::Incomplete(why));
                            self.after_scan(now)
                        }
                    }
                }
            },
            Stage::Conditional(call) => match self.findings.answer("conditional_orders", call, now)
            {
                Lookup::Pending(step) => step,
                Lookup::Failed(e) => self.fail(e),
                Lookup::Answered(page) => {
                    self.conditional(&page);
                    if self.found_ours() {
                        return self.finish();
                    }
                    let count = u64::try_from(page.records.len()).unwrap_or(u64::MAX);
                    let Some(paging) = &mut self.paging else {
                        return self.finish();
                    };
                    let changed = paging.total.is_some_and(|t| Some(t) != page.total);
                    paging.total = page.total.or(paging.total);
                    paging.read = paging.read.saturating_add(count);
                    paging.offset = paging
                        .offset
                        .saturating_add(ConditionalOrdersQuery::MAX_LIMIT);
                    let (read, total, offset) = (paging.read, paging.total, paging.offset);
                    if changed {
                        self.flaw(Flaw::Incomplete(
                            "the conditional orders changed while they were read".to_owned(),
                        ));
                        return self.finish();
                    }
                    let complete = match total {
                        Some(total) => read >= total,
                        None => count < ConditionalOrdersQuery::MAX_LIMIT,
                    };
                    if complete {
                        return self.finish();
                    }
                    if count == 0 {
                        self.flaw(Flaw::Incomplete(format!(
                            "the list says {} records but ended after {read}",
                            total.unwrap_or_default()
                        )));
                        return self.finish();
                    }
                    if offset / ConditionalOrdersQuery::MAX_LIMIT >= u64::from(MAX_PAGES) {
                        self.flaw(Flaw::Incomplete(format!(
                            "more than {offset} conditional orders"
                        )));
                        return self.finish();
                    }
                    let query = ConditionalOrdersQuery::page(self.market.clone(), offset);
                    self.stage = Stage::Conditional(self.core.call_owned(query));
                    self.next(now)
                }
            },
            Stage::Done => Step::Done(RoundFindings::default()),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Open(call) => call.receive(response),
            Stage::History(call) | Stage::Scan(call) => call.receive(response),
            Stage::Conditional(call) => call.receive(response),
            Stage::Done => {}
        }
    }
}
