//! [`BulkSend`]: one sending of a bulk order, every item's record kept before each attempt.

use std::time::SystemTime;

use txc_types::orders::{BulkOrderResult, CollateralBulkOrder, CollateralLimitOrder};

use super::ledger::{NotRecorded, Record, last_nonce_time};
use super::placeable::Placeable;
use crate::machine::Call;
use crate::{
    AttemptRecord, ClientCore, Error, Machine, PendingOrder, Response, Step, TransportError,
    TransportErrorKind,
};

/// One sending of a bulk order: a [`Call`] before each attempt of which every item's pending
/// record — its market, `clientOrderId`, and every attempt so far, earlier sendings' included
/// — is kept in the client's ledger and [`Journal`](crate::Journal): an item is recorded
/// before the first byte, as a single order is. An attempt the journal cannot record is not
/// sent. On the first attempt each item marked `check` is first checked like a new order's
/// `clientOrderId` (in use, unresolved, or used inside its window: refused before any I/O, and
/// nothing recorded).
///
/// It only records: settling, abandoning or resolving the items once it ends is its owner's.
pub(crate) struct BulkSend<'a> {
    core: &'a ClientCore,
    call: Call<'a, CollateralBulkOrder>,
    /// Each item's attempts of earlier sendings, in the request's order.
    earlier: Vec<Vec<AttemptRecord>>,
    /// Whether each item's `clientOrderId` is checked before its first attempt (a first
    /// placement: not an item resent, or adopted from an unresolved record).
    check: Vec<bool>,
    /// Whether the ledger holds the items' records in flight.
    pub(crate) in_flight: bool,
}

impl<'a> BulkSend<'a> {
    /// Sends `bulk`, whose items were sent before in `earlier` (in its items' order), each
    /// checked first if `check` says so.
    pub(crate) fn new(
        core: &'a ClientCore,
        bulk: CollateralBulkOrder,
        earlier: Vec<Vec<AttemptRecord>>,
        check: Vec<bool>,
    ) -> Self {
        Self {
            core,
            call: core.call_owned(bulk),
            earlier,
            check,
            in_flight: false,
        }
    }

    /// The bulk order being sent.
    pub(crate) fn bulk(&self) -> &CollateralBulkOrder {
        self.call.endpoint()
    }

    /// Item `index`'s pending record: every attempt so far, earlier sendings' first.
    pub(crate) fn pending(&self, index: usize) -> Option<PendingOrder> {
        let item = self.bulk().orders().get(index)?;
        let mut pending = super::placeable::pending_of(item);
        let earlier = self
            .earlier
            .get(index)
            .map(Vec::as_slice)
            .unwrap_or_default();
        pending.push_attempts(earlier.iter().chain(self.call.attempts()));
        Some(pending)
    }

    /// Every item's pending record, in the request's order.
    pub(crate) fn pendings(&self) -> Vec<PendingOrder> {
        (0..self.bulk().orders().len())
            .filter_map(|i| self.pending(i))
            .collect()
    }

    /// Records every item before an attempt: `Ok` to send; the refusal of an item's id (on
    /// the first attempt, nothing recorded); or the journal's failure (the attempt must not
    /// go).
    fn record(&mut self) -> Result<(), NotRecorded> {
        let first = self.call.attempts().len() <= 1;
        let reuse_at = first
            .then(|| last_nonce_time(self.call.attempts(), self.core.nonce_mode()))
            .flatten();
        let orders: &[CollateralLimitOrder] = self.call.endpoint().orders();
        // The items checked first: a refused one leaves only checked ones to undo.
        let mut order: Vec<usize> = (0..orders.len()).collect();
        order.sort_by_key(|&i| !self.check.get(i).copied().unwrap_or(false));
        let mut recorded: Vec<usize> = Vec::new();
        for index in order {
            let Some(item) = orders.get(index) else {
                continue;
            };
            let earlier = self
                .earlier
                .get(index)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let record = Record {
                market: item.market(),
                client_order_id: item.client_order_id(),
                trigger: item.may_rest(),
                attempts: earlier
                    .iter()
                    .chain(self.call.attempts())
                    .copied()
                    .collect(),
                socket: Vec::new(),
            };
            let checked = reuse_at.filter(|_| self.check.get(index).copied().unwrap_or(false));
            match self.core.ledger().record(record, checked) {
                Ok(()) => recorded.push(index),
                Err(NotRecorded::InUse(refused)) => {
                    // Nothing was sent: the items recorded for this attempt (all checked ones,
                    // none of them held before) are forgotten.
                    for undone in recorded {
                        if let Some(item) = orders.get(undone) {
                            self.core.ledger().settle_recorded(
                                item.market(),
                                item.client_order_id(),
                                self.call.attempts(),
                                self.core.nonce_mode(),
                                true,
                            );
                        }
                    }
                    return Err(NotRecorded::InUse(refused));
                }
                Err(journal) => {
                    self.in_flight = true;
                    return Err(journal);
                }
            }
        }
        self.in_flight = true;
        Ok(())
    }
}

impl Machine for BulkSend<'_> {
    type Output = Result<Vec<BulkOrderResult>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Send(request) => match self.record() {
                Ok(()) => Step::Send(request),
                Err(NotRecorded::InUse(refused)) => Step::Done(Err(refused)),
                Err(NotRecorded::Journal(failed)) => {
                    drop(request);
                    self.call.receive(Err(TransportError::not_sent(
                        TransportErrorKind::Other,
                        format!(
                            "the journal could not record the bulk order's items before it \
                             was sent: {failed}"
                        ),
                    )));
                    self.next(now)
                }
            },
            step => step,
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}
