//! [`PlaceBulk`] and [`PlaceBulkOnce`]: placing a bulk order, and placing it exactly once —
//! item by item.

use std::time::SystemTime;

use txc_types::orders::{BulkOrderResult, CollateralBulkOrder, CollateralLimitOrder};

use super::bulk_item::{BulkItem, BulkPlaced, UnresolvedBulk, Verdict, verdict};
use super::bulk_send::BulkSend;
use super::evidence::Evidence;
use super::order_search::{Resolve, absence_caveat};
use super::outcome::{Found, PlacedOrder, Resolution};
use super::placeable::{Placeable, pending_of};
use crate::machine::{Concurrently, Wake};
use crate::{ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError, Unresolved};

/// The operation, for errors and records.
const OPERATION: &str = "collateral_bulk_order";

/// Places a bulk order: one sending (every item's record kept before the first byte) whose
/// answer — one item per order — settles each item's record: placed, refused, or not
/// processed (`stopOnFail`) is definite; an item the exchange answered with neither an order
/// nor an error stays unresolved. A failure that leaves the whole answer unknown comes out as
/// [`Error::BulkUnknown`], every item's record kept unresolved (resolve each with the
/// client's `resolve`, or use [`PlaceBulkOnce`]). Never resent after such a failure.
pub struct PlaceBulk<'a> {
    core: &'a ClientCore,
    send: BulkSend<'a>,
    done: bool,
}

impl<'a> PlaceBulk<'a> {
    pub(crate) fn new(core: &'a ClientCore, bulk: CollateralBulkOrder) -> Self {
        let items = bulk.orders().len();
        Self {
            core,
            send: BulkSend::new(core, bulk, vec![Vec::new(); items], vec![true; items]),
            done: false,
        }
    }

    /// Settles item `index`'s record (`refused`: nothing of it exists), or leaves it
    /// unresolved (`None`).
    fn settle(&self, index: usize, refused: Option<bool>) {
        let Some(pending) = self.send.pending(index) else {
            return;
        };
        match refused {
            Some(refused) => self
                .core
                .ledger()
                .settle(&pending, self.core.nonce_mode(), refused),
            None => self
                .core
                .ledger()
                .abandon(pending.market(), pending.client_order_id()),
        }
    }

    /// Leaves every item's record unresolved.
    fn abandon_all(&mut self) {
        if std::mem::take(&mut self.send.in_flight) {
            for index in 0..self.send.bulk().orders().len() {
                self.settle(index, None);
            }
        }
    }
}

impl Machine for PlaceBulk<'_> {
    type Output = Result<Vec<BulkOrderResult>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        let outcome = match self.send.next(now) {
            Step::Done(outcome) => outcome,
            step => return step,
        };
        self.done = true;
        match outcome {
            Ok(answer) => {
                if std::mem::take(&mut self.send.in_flight) {
                    for index in 0..self.send.bulk().orders().len() {
                        let settled = match verdict(true, answer.get(index)) {
                            Verdict::Placed(_) => Some(false),
                            Verdict::Refused(_) | Verdict::Skipped => Some(true),
                            Verdict::Resolve { .. } | Verdict::Unknown(_) => None,
                        };
                        self.settle(index, settled);
                    }
                }
                Step::Done(Ok(answer))
            }
            Err(cause) if cause.outcome_unknown() => {
                let orders = self.send.pendings();
                self.abandon_all();
                Step::Done(Err(Error::BulkUnknown(Box::new(UnresolvedBulk {
                    operation: OPERATION,
                    orders,
                    cause,
                }))))
            }
            Err(refused) => {
                if std::mem::take(&mut self.send.in_flight) {
                    for index in 0..self.send.bulk().orders().len() {
                        self.settle(index, Some(true));
                    }
                }
                Step::Done(Err(refused))
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.send.receive(response);
    }
}

impl Drop for PlaceBulk<'_> {
    /// Dropped while its items are in flight (a dropped future): their records are left
    /// unresolved.
    fn drop(&mut self) {
        if !self.done {
            self.abandon_all();
        }
    }
}

/// One item of a bulk order being placed exactly once.
struct Item {
    order: CollateralLimitOrder,
    /// Every attempt so far, earlier placements' (and an adopted record's) included.
    pending: PendingOrder,
    /// How many times it was sent.
    placements: u32,
    /// Whether it is to be checked like a new order's id before its next sending (never sent,
    /// never adopted).
    fresh: bool,
    /// Whether its last sending was refused with code 36.
    refused_36: bool,
    /// Why it is being resolved: the failure, as text.
    cause: String,
    /// The evidence of its last resolution.
    evidence: Option<Evidence>,
    state: ItemState,
}

/// Where an item is.
// At most 20 per bulk order, one bulk per call: matching on the outcome beats saving the bytes.
#[allow(clippy::large_enum_variant)]
enum ItemState {
    /// To be sent (again).
    ToSend,
    /// In a sending, or being resolved.
    Busy,
    /// Its outcome.
    Done(BulkItem),
}

/// Where a [`PlaceBulkOnce`] is.
enum Stage<'a> {
    /// Not started: unresolved records of the items' ids are resolved first.
    Start,
    /// Sending the items at these indexes.
    Sending(Box<BulkSend<'a>>, Vec<usize>),
    /// Resolving the items at these indexes, side by side.
    Resolving(Box<Concurrently<Resolve<'a>>>, Vec<usize>),
    Finished,
}

/// Places a bulk order exactly once, item by item: sends it; resolves every item whose
/// outcome the answer leaves unknown — each by its `clientOrderId`, by the rule
/// [`Resolve`](super::Resolve) states, the items side by side — and sends again, as a bulk of
/// their own (same ids, fresh nonce), **only the items proven not placed**: never one that may
/// be resting. At most the client's `max_placements` sendings of an item.
///
/// | an item's answer | at its first placement | at a resend |
/// |---|---|---|
/// | an order | [`BulkItem::Placed`] | the same |
/// | an error | [`BulkItem::Refused`] | code 36 (its id held by an open order): resolved again, placed if found, else unknown; any other: unknown (a later refusal says nothing of the earlier attempts) |
/// | none (`stopOnFail`, after a failure) | [`BulkItem::Skipped`] | the same |
/// | neither an order nor an error | resolved | resolved |
/// | the whole answer lost (a 5xx, a reset, a timeout) | resolved | resolved |
/// | the whole request refused (a 4xx) | the error, for the call | [`BulkItem::Unknown`] |
///
/// Resolved: placed → [`BulkItem::Placed`]; not placed → sent again, or
/// [`BulkItem::NotPlaced`] once `max_placements` is reached; cannot tell (a B2B account) →
/// sent again only with `resend_when_cancels_are_invisible`, else unknown; anything else →
/// [`BulkItem::Unknown`], its record kept unresolved.
///
/// **Across restarts**: an item whose `clientOrderId` has an unresolved record (of this
/// process, or of an earlier one read from the journal) is resolved first, before anything of
/// it is sent. An item of an id in flight in this client refuses the whole call before any
/// I/O ([`Error::ClientOrderIdInUse`]). Dropped before it ends (a dropped future), it leaves
/// the items' records unresolved.
pub struct PlaceBulkOnce<'a> {
    core: &'a ClientCore,
    stop_on_fail: Option<bool>,
    items: Vec<Item>,
    stage: Stage<'a>,
}

impl<'a> PlaceBulkOnce<'a> {
    pub(crate) fn new(core: &'a ClientCore, bulk: &CollateralBulkOrder) -> Self {
        let items = bulk
            .orders()
            .iter()
            .map(|order| Item {
                pending: pending_of(order),
                order: order.clone(),
                placements: 0,
                fresh: true,
                refused_36: false,
                cause: String::new(),
                evidence: None,
                state: ItemState::ToSend,
            })
            .collect();
        Self {
            core,
            stop_on_fail: bulk.stop_on_fail(),
            items,
            stage: Stage::Start,
        }
    }

    fn item(&mut self, index: usize) -> Option<&mut Item> {
        self.items.get_mut(index)
    }

    /// Ends the item at `index` with `outcome`.
    fn end(&mut self, index: usize, outcome: BulkItem) {
        if let Some(item) = self.item(index) {
            item.state = ItemState::Done(outcome);
        }
    }

    /// Ends the item at `index` unknown for `reason`, its record kept unresolved.
    fn unknown(&mut self, index: usize, reason: String) {
        let core = self.core;
        let Some(item) = self.item(index) else {
            return;
        };
        core.ledger()
            .abandon(item.pending.market(), item.pending.client_order_id());
        core.ledger().note(&item.pending, &reason);
        let mut unresolved = Unresolved::new(
            OPERATION,
            item.pending.clone().with_reason(reason.clone()),
            Error::Unproven { reason },
        );
        unresolved.evidence = item.evidence.take();
        item.state = ItemState::Done(BulkItem::Unknown(Box::new(unresolved)));
    }

    /// Starts: adopts each item's unresolved records, to be resolved before anything is sent.
    fn start(&mut self, now: SystemTime) -> Step<Result<BulkPlaced, Error>> {
        let mut adopted = Vec::new();
        for index in 0..self.items.len() {
            let Some(item) = self.items.get(index) else {
                continue;
            };
            match self
                .core
                .ledger()
                .adopt(item.order.market(), item.order.client_order_id())
            {
                Ok(None) => {}
                Ok(Some(earlier)) => {
                    adopted.push(index);
                    if let Some(item) = self.item(index) {
                        item.cause = format!(
                            "an earlier placement of this clientOrderId was unresolved ({}); \
                             it was resolved before anything was sent",
                            earlier.reason().unwrap_or("its outcome was unknown")
                        );
                        item.pending = earlier.with_trigger(true);
                        item.fresh = false;
                        item.placements = 1;
                        item.state = ItemState::Busy;
                    }
                }
                Err(in_flight) => {
                    // Nothing is sent: the records adopted go back as they were.
                    for index in adopted {
                        if let Some(item) = self.items.get(index) {
                            self.core
                                .ledger()
                                .abandon(item.pending.market(), item.pending.client_order_id());
                        }
                    }
                    self.stage = Stage::Finished;
                    return Step::Done(Err(in_flight));
                }
            }
        }
        if adopted.is_empty() {
            self.send(now)
        } else {
            self.resolve(adopted, now)
        }
    }

    /// Sends the items to send, as a bulk of their own; or finishes when none is left.
    fn send(&mut self, now: SystemTime) -> Step<Result<BulkPlaced, Error>> {
        let batch: Vec<usize> = (0..self.items.len())
            .filter(|&i| {
                matches!(
                    self.items.get(i).map(|it| &it.state),
                    Some(ItemState::ToSend)
                )
            })
            .collect();
        if batch.is_empty() {
            return self.finish();
        }
        let mut orders = Vec::new();
        let mut earlier = Vec::new();
        let mut check = Vec::new();
        for &index in &batch {
            if let Some(item) = self.item(index) {
                item.placements += 1;
                item.state = ItemState::Busy;
                orders.push(item.order.clone());
                earlier.push(item.pending.attempts().to_vec());
                check.push(item.fresh);
            }
        }
        let bulk = match CollateralBulkOrder::new(orders) {
            Ok(bulk) => match self.stop_on_fail {
                Some(stop) => bulk.with_stop_on_fail(stop),
                None => bulk,
            },
            // A part of a valid bulk order is valid: never reached.
            Err(invalid) => {
                self.stage = Stage::Finished;
                return Step::Done(Err(invalid.into()));
            }
        };
        let send = BulkSend::new(self.core, bulk, earlier, check);
        self.stage = Stage::Sending(Box::new(send), batch);
        self.next(now)
    }

    /// Takes in a sending's answer.
    fn sent(
        &mut self,
        send: &BulkSend<'_>,
        batch: &[usize],
        outcome: Result<Vec<BulkOrderResult>, Error>,
        now: SystemTime,
    ) -> Step<Result<BulkPlaced, Error>> {
        for (at, &index) in batch.iter().enumerate() {
            if let (Some(pending), Some(item)) = (send.pending(at), self.items.get_mut(index)) {
                item.pending = pending;
            }
        }
        let mode = self.core.nonce_mode();
        let answer = match outcome {
            Ok(answer) => answer,
            Err(refused) if !refused.outcome_unknown() => {
                let all_fresh = batch
                    .iter()
                    .all(|&i| self.items.get(i).is_some_and(|it| it.fresh));
                if !send.in_flight {
                    // Refused before any I/O (an id in use): nothing was recorded or sent; the
                    // records adopted go back as they were.
                    for &index in batch {
                        if let Some(item) = self.items.get(index).filter(|it| !it.fresh) {
                            self.core
                                .ledger()
                                .abandon(item.pending.market(), item.pending.client_order_id());
                        }
                    }
                    self.stage = Stage::Finished;
                    return Step::Done(Err(refused));
                }
                if all_fresh {
                    for &index in batch {
                        if let Some(item) = self.items.get(index) {
                            self.core.ledger().settle(&item.pending, mode, true);
                        }
                    }
                    self.stage = Stage::Finished;
                    return Step::Done(Err(refused));
                }
                let reason = refused.to_string();
                for &index in batch {
                    let fresh = self.items.get(index).is_some_and(|it| it.fresh);
                    if fresh {
                        if let Some(item) = self.items.get(index) {
                            self.core.ledger().settle(&item.pending, mode, true);
                        }
                        self.end(index, BulkItem::NotPlaced(Evidence::answered()));
                    } else {
                        self.unknown(
                            index,
                            format!(
                                "a resend was refused ({reason}), which says nothing of the \
                                 earlier attempts"
                            ),
                        );
                    }
                }
                return self.send(now);
            }
            Err(lost) => {
                let reason = lost.to_string();
                for &index in batch {
                    if let Some(item) = self.item(index) {
                        item.cause.clone_from(&reason);
                        // Sent: a resend is no first placement (its id is this item's own).
                        item.fresh = false;
                    }
                }
                return self.resolve(batch.to_vec(), now);
            }
        };
        let mut to_resolve = Vec::new();
        for (at, &index) in batch.iter().enumerate() {
            let Some(item) = self.items.get_mut(index) else {
                continue;
            };
            let first = item.fresh;
            item.fresh = false;
            match verdict(first, answer.get(at)) {
                Verdict::Placed(order) => {
                    self.core.ledger().settle(&item.pending, mode, false);
                    let placed = Found::new(PlacedOrder::Answered(*order), Evidence::answered());
                    item.state = ItemState::Done(BulkItem::Placed(placed));
                }
                Verdict::Refused(error) => {
                    self.core.ledger().settle(&item.pending, mode, true);
                    item.state = ItemState::Done(BulkItem::Refused(error));
                }
                Verdict::Skipped => {
                    self.core.ledger().settle(&item.pending, mode, true);
                    item.state = ItemState::Done(BulkItem::Skipped);
                }
                Verdict::Resolve { refused_36 } => {
                    item.refused_36 = refused_36;
                    item.cause = if refused_36 {
                        "a resend was refused with code 36: the id is held by an open order"
                    } else {
                        "the item's answer was neither an order nor an error"
                    }
                    .to_owned();
                    to_resolve.push(index);
                }
                Verdict::Unknown(reason) => self.unknown(index, reason),
            }
        }
        if to_resolve.is_empty() {
            self.send(now)
        } else {
            self.resolve(to_resolve, now)
        }
    }

    /// Resolves the items at `indexes`, side by side.
    fn resolve(&mut self, indexes: Vec<usize>, now: SystemTime) -> Step<Result<BulkPlaced, Error>> {
        let resolvers = indexes
            .iter()
            .filter_map(|&i| self.items.get(i))
            .map(|item| Resolve::of_order(self.core, item.pending.clone(), OPERATION))
            .collect();
        self.stage = Stage::Resolving(Box::new(Concurrently::new(resolvers)), indexes);
        self.next(now)
    }

    /// Takes in the items' resolutions, then sends what was proven not placed.
    fn resolved(
        &mut self,
        indexes: &[usize],
        resolutions: Vec<Result<Resolution, Error>>,
        now: SystemTime,
    ) -> Step<Result<BulkPlaced, Error>> {
        let core = self.core;
        let max = core.max_placements();
        for (&index, resolution) in indexes.iter().zip(resolutions) {
            let Some(item) = self.items.get_mut(index) else {
                continue;
            };
            match resolution {
                Ok(Resolution::Placed(placed)) => {
                    item.state = ItemState::Done(BulkItem::Placed(placed))
                }
                Ok(Resolution::NotPlaced(evidence)) if item.refused_36 => {
                    item.evidence = Some(evidence);
                    let reason = item.cause.clone();
                    self.unknown(index, reason);
                }
                Ok(Resolution::NotPlaced(evidence)) if item.placements >= max => {
                    item.state = ItemState::Done(BulkItem::NotPlaced(evidence));
                }
                Ok(Resolution::NotPlaced(evidence)) => {
                    item.evidence = Some(evidence);
                    item.state = ItemState::ToSend;
                }
                Ok(Resolution::CannotTell(evidence)) => {
                    let resend = core.resend_when_cancels_are_invisible()
                        && !item.refused_36
                        && item.placements < max;
                    item.evidence = Some(evidence);
                    if resend {
                        item.state = ItemState::ToSend;
                    } else {
                        let reason = absence_caveat(core).unwrap_or_default();
                        self.unknown(index, reason);
                    }
                }
                Err(Error::OutcomeUnknown(unresolved)) => {
                    core.ledger().abandon(
                        unresolved.order.market(),
                        unresolved.order.client_order_id(),
                    );
                    item.state = ItemState::Done(BulkItem::Unknown(unresolved));
                }
                Err(other) => self.unknown(index, other.to_string()),
            }
        }
        self.send(now)
    }

    /// Ends with every item's outcome.
    fn finish(&mut self) -> Step<Result<BulkPlaced, Error>> {
        self.stage = Stage::Finished;
        let items = std::mem::take(&mut self.items)
            .into_iter()
            .map(|item| match item.state {
                ItemState::Done(outcome) => outcome,
                // Never left so: every item ends before the bulk does.
                ItemState::ToSend | ItemState::Busy => {
                    BulkItem::Unknown(Box::new(Unresolved::new(
                        OPERATION,
                        item.pending,
                        Error::Unproven {
                            reason: "the item was never judged".to_owned(),
                        },
                    )))
                }
            })
            .collect();
        Step::Done(Ok(BulkPlaced { items }))
    }
}

impl Machine for PlaceBulkOnce<'_> {
    type Output = Result<BulkPlaced, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Start => self.start(now),
            Stage::Sending(mut send, batch) => match send.next(now) {
                Step::Done(outcome) => self.sent(&send, &batch, outcome, now),
                step => {
                    self.stage = Stage::Sending(send, batch);
                    match step {
                        Step::Wait(delay) => Step::Wait(delay),
                        Step::Send(request) => Step::Send(request),
                        Step::Done(_) => Step::Wait(std::time::Duration::ZERO),
                    }
                }
            },
            Stage::Resolving(mut resolving, indexes) => match resolving.next(now) {
                Step::Done(resolutions) => self.resolved(&indexes, resolutions, now),
                step => {
                    self.stage = Stage::Resolving(resolving, indexes);
                    match step {
                        Step::Wait(delay) => Step::Wait(delay),
                        Step::Send(request) => Step::Send(request),
                        Step::Done(_) => Step::Wait(std::time::Duration::ZERO),
                    }
                }
            },
            Stage::Finished => Step::after_end(OPERATION, "the bulk order"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Sending(send, _) => send.receive(response),
            Stage::Resolving(resolving, _) => resolving.receive(response),
            Stage::Start | Stage::Finished => {}
        }
    }

    fn wake(&self) -> Option<Wake<'_>> {
        match &self.stage {
            Stage::Resolving(resolving, _) => resolving.wake(),
            _ => None,
        }
    }
}

impl Drop for PlaceBulkOnce<'_> {
    /// Dropped before it ended (a dropped future): the records of the items in flight are
    /// left unresolved.
    fn drop(&mut self) {
        let in_flight = match &self.stage {
            Stage::Sending(send, _) => send.in_flight,
            Stage::Resolving(..) => true,
            Stage::Start | Stage::Finished => false,
        };
        if !in_flight {
            return;
        }
        for item in &self.items {
            if matches!(item.state, ItemState::Busy) {
                self.core
                    .ledger()
                    .abandon(item.pending.market(), item.pending.client_order_id());
            }
        }
    }
}
