//! [`ModifySearch`]: finding out what a modify whose answer was lost did — reading the order by
//! its `clientOrderId` and comparing it with the request — [`ResolveModify`], the [`Resolver`]
//! with it, and what it answers ([`ModifyResolution`]); the modifies' ledger.

use std::error::Error as StdError;
use std::fmt;

use txc_types::lookups::HistoryOrder;
use txc_types::orders::{ModifyOrder, Order};
use txc_types::values::ExactDecimal;

use super::evidence::{AcceptanceWindow, Evidence};
use super::order_search::OrderSearch;
use super::outcome::{Found, Placed, PlacedOrder};
use super::record_ledger::{Kept, RecordLedger};
use super::resolver::{EventProof, Resolver};
use super::search::{Outcome, RoundMachine, Search};
use crate::{AttemptRecord, ClientCore, Error, PendingModify, PendingOrder, PendingRecord};

/// The modifies in flight or unresolved, shared by clones of a core.
pub(crate) type ModifyLedger = RecordLedger<PendingModify>;

impl Kept for PendingModify {
    fn attempts(&self) -> &[AttemptRecord] {
        PendingModify::attempts(self)
    }
    fn same(&self, other: &Self) -> bool {
        self.same_order(other)
    }
    fn noted(&self, reason: &str) -> Self {
        self.clone().with_reason(reason)
    }
    fn record(&self) -> PendingRecord {
        PendingRecord::Modify(self.clone())
    }
    fn of(record: &PendingRecord) -> Option<&Self> {
        record.modify()
    }
}

/// What resolving a modify found, each answer with the [`Evidence`] that proved it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// One per modify, never stored in bulk: matching on the order beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub enum ModifyResolution {
    /// The order was replaced: the replacement — a **new `orderId`**, the `clientOrderId`
    /// carried over, the request's values — as the modify's answer or a look-up showed it (open,
    /// or finished since: filled at once, say), and what proved it.
    Replaced(Placed),
    /// The modify was not applied: the order is still open under its old `orderId` after the
    /// modify's acceptance window, proven twice. Safe to modify again (with a fresh nonce).
    Unchanged {
        /// The order as the last look-up showed it.
        order: Box<Order>,
        /// What proved it.
        evidence: Evidence,
    },
    /// The order is no longer open and no replacement of the modify's shows: it was filled or
    /// canceled meanwhile (a B2B account's history omits canceled orders, so a replacement
    /// canceled since is invisible too). Proven twice.
    Gone {
        /// The order's record in the history, if it shows there.
        order: Option<Box<HistoryOrder>>,
        /// What proved it.
        evidence: Evidence,
    },
}

impl ModifyResolution {
    /// The evidence behind the answer.
    pub fn evidence(&self) -> &Evidence {
        match self {
            Self::Replaced(found) => &found.evidence,
            Self::Unchanged { evidence, .. } | Self::Gone { evidence, .. } => evidence,
        }
    }

    /// The replacement's `orderId`, if the order was replaced.
    pub fn new_order_id(&self) -> Option<u64> {
        match self {
            Self::Replaced(found) => Some(found.order_id()),
            _ => None,
        }
    }
}

/// A modify and the failure that ended its call: the context of [`Error::ModifyUnknown`]. As
/// an error it reads as its cause.
#[derive(Debug)]
#[non_exhaustive]
pub struct UnresolvedModify {
    /// The operation, `modify_order`.
    pub operation: &'static str,
    /// The modify: the request, the order it replaces, every attempt.
    pub modify: PendingModify,
    /// The failure that ended the last attempt, or why resolving could not tell.
    pub cause: Error,
    /// The look-ups resolving made, if it ran.
    pub evidence: Option<Evidence>,
}

impl UnresolvedModify {
    /// The context of `modify`, whose last attempt (or resolution) failed with `cause`.
    pub fn new(modify: PendingModify, cause: Error) -> Self {
        Self {
            operation: "modify_order",
            modify,
            cause,
            evidence: None,
        }
    }
}

impl fmt::Display for UnresolvedModify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cause.fmt(f)
    }
}

impl StdError for UnresolvedModify {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.cause.source()
    }
}

/// Resolves a modify whose outcome is unknown: a [`Resolver`] with the look-ups of the
/// modified order by its `clientOrderId` ([`ModifySearch`]), by the one rule every resolution
/// follows (see [`Resolve`](super::Resolve)):
///
/// - **replaced** only when a look-up (or an event of the client's stream) shows an order of
///   the market with the `clientOrderId`, another `orderId` than the modified order's, created
///   inside the modify's acceptance window, with the request's amount, price and activation
///   price;
/// - **unchanged** (the modified order still open under its old `orderId`) or **gone** (no
///   longer open, no replacement) only when that is proven twice, after the window — no later
///   attempt of the modify can be accepted then;
/// - everything else is unknown ([`Error::ModifyUnknown`]): a look-up that kept failing, a
///   replacement with other values than the request's (another modify?), a modify of an order
///   without a `clientOrderId`.
pub type ResolveModify<'a> = Resolver<'a, ModifySearch>;

/// The look-ups that find what a modify did: the order search's round for the modified order's
/// `clientOrderId` — the open orders, the history (read in full when only older records hold
/// the id), the conditional orders — each record judged against the request.
#[derive(Debug, Clone)]
pub struct ModifySearch {
    modify: PendingModify,
    orders: OrderSearch,
}

impl ModifySearch {
    /// The search for what `modify` did.
    pub fn new(modify: PendingModify) -> Self {
        let order = as_order(&modify);
        Self {
            orders: OrderSearch::new(order, "modify_order"),
            modify,
        }
    }

    /// The modify searched for.
    pub fn modify(&self) -> &PendingModify {
        &self.modify
    }

    /// Whether `record` carries the request's values (amount, price, activation price: those
    /// it sets; compared by value).
    fn carries_request(&self, record: &PlacedOrder) -> bool {
        let request: &ModifyOrder = self.modify.modify();
        let (amount, price, activation) = values(record);
        let same = |asked: Option<&str>, found: Option<&ExactDecimal>| match asked {
            None => true,
            Some(asked) => found.is_some_and(|found| same_value(asked, found.as_str())),
        };
        same(request.amount().map(|a| a.as_str()), amount)
            && same(request.price().map(|p| p.as_str()), price)
            && same(request.activation_price().map(|p| p.as_str()), activation)
    }

    /// Whether `record` is the modified order itself (its old `orderId`).
    fn is_original(&self, record: &PlacedOrder) -> bool {
        self.modify.original_order_id() == Some(record.order_id())
    }
}

/// The modify's record as an order's: its market, the order's `clientOrderId` (one no order
/// carries when it is not known: the search then makes no look-up, see [`NoClientOrderId`]),
/// its attempts — what the order search looks up by.
fn as_order(modify: &PendingModify) -> PendingOrder {
    let id = modify
        .client_order_id()
        .cloned()
        .unwrap_or_else(|| txc_types::values::ClientOrderIds::process().next());
    PendingOrder::new(modify.market().clone(), id, modify.attempts().to_vec()).with_trigger(true)
}

/// A record's amount, price and activation price.
fn values(
    record: &PlacedOrder,
) -> (
    Option<&ExactDecimal>,
    Option<&ExactDecimal>,
    Option<&ExactDecimal>,
) {
    match record {
        PlacedOrder::Answered(o) | PlacedOrder::Open(o) => (
            Some(&o.amount),
            o.price.as_ref(),
            o.activation_price.as_ref(),
        ),
        PlacedOrder::Finished(h) => (
            Some(&h.amount),
            h.price.as_ref(),
            h.activation_price.as_ref(),
        ),
        // The stream's record has no activation price: the others are compared.
        PlacedOrder::Streamed(s) => (Some(&s.amount), s.price.as_ref(), None),
    }
}

/// Whether two decimal texts are the same value (`64100` is `64100.0`).
fn same_value(a: &str, b: &str) -> bool {
    match (ExactDecimal::new(a), ExactDecimal::new(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl<'a> ResolveModify<'a> {
    /// Resolves `modify`, by the look-ups and by what the streams publishing to the client's
    /// sightings show of the replacement.
    pub(crate) fn of_modify(core: &'a ClientCore, modify: PendingModify) -> Self {
        let search = ModifySearch::new(modify);
        let order = search.orders.order();
        let watch = core
            .order_sightings()
            .expect(order.market().as_str(), order.client_order_id().as_str());
        let events = EventProof::new(watch, |seen| seen.order.clone());
        Resolver::new(core, search).with_events(events)
    }
}

impl Search for ModifySearch {
    type Record = PlacedOrder;
    type Answer = ModifyResolution;

    fn attempts(&self) -> &[AttemptRecord] {
        self.modify.attempts()
    }

    fn is_ours(&self, record: &PlacedOrder, inside: bool) -> bool {
        inside && !self.is_original(record) && self.carries_request(record)
    }

    fn round<'a>(
        &self,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, PlacedOrder> {
        if self.modify.client_order_id().is_none() {
            return Box::new(NoClientOrderId);
        }
        self.orders.round(core, window)
    }

    fn answer(
        &self,
        core: &ClientCore,
        outcome: Outcome<PlacedOrder>,
    ) -> Result<ModifyResolution, Error> {
        let (others, evidence) = match outcome {
            Outcome::Found(record, evidence) => {
                core.modifies.settle(&self.modify);
                return Ok(ModifyResolution::Replaced(Found::new(record, evidence)));
            }
            Outcome::Absent(others, evidence) | Outcome::Ambiguous(others, evidence) => {
                (others, evidence)
            }
        };
        let mut original_open = None;
        let mut original_finished = None;
        for record in others {
            match record {
                PlacedOrder::Open(order) if self.is_original_id(order.order_id) => {
                    original_open = Some(order);
                }
                PlacedOrder::Finished(order) if self.is_original_id(order.id) => {
                    original_finished = Some(order);
                }
                other if !self.is_original(&other) => {
                    // A replacement inside the window with other values, or an order of the id
                    // created since: not this modify's, and not nothing either.
                    let created_since = self
                        .modify
                        .first_signed_at()
                        .is_some_and(|first| created(&other).is_some_and(|c| c >= first));
                    if created_since {
                        let reason = format!(
                            "order {} with the clientOrderId was created since the modify, with \
                             other values than the request's (another modify of the order?)",
                            other.order_id()
                        );
                        core.modifies.note(&self.modify, &reason);
                        return Err(Error::ModifyUnknown(Box::new(UnresolvedModify {
                            evidence: Some(evidence),
                            ..UnresolvedModify::new(self.modify.clone(), Error::Unproven { reason })
                        })));
                    }
                }
                _ => {}
            }
        }
        core.modifies.settle(&self.modify);
        Ok(match original_open {
            Some(order) => ModifyResolution::Unchanged {
                order: Box::new(order),
                evidence,
            },
            None => ModifyResolution::Gone {
                order: original_finished.map(Box::new),
                evidence,
            },
        })
    }

    fn unknown(&self, cause: Error, evidence: Evidence) -> Error {
        let mut unresolved = UnresolvedModify::new(self.modify.clone(), cause);
        unresolved.evidence = Some(evidence);
        Error::ModifyUnknown(Box::new(unresolved))
    }

    fn unresolved(&self, core: &ClientCore, reason: &str) {
        core.modifies.note(&self.modify, reason);
    }

    fn subject(&self) -> String {
        self.modify.subject()
    }
}

impl ModifySearch {
    fn is_original_id(&self, id: u64) -> bool {
        self.modify.original_order_id() == Some(id)
    }
}

/// When a record was created, on the exchange's clock.
fn created(record: &PlacedOrder) -> Option<std::time::SystemTime> {
    Some(match record {
        PlacedOrder::Answered(o) | PlacedOrder::Open(o) => o.timestamp.to_system_time(),
        PlacedOrder::Finished(h) => h.ctime.to_system_time(),
        PlacedOrder::Streamed(s) => s.ctime.to_system_time(),
    })
}

/// The round of a modify whose order's `clientOrderId` is not known: no look-up can find the
/// replacement, so it proves nothing (and resolving ends unknown, saying why).
struct NoClientOrderId;

impl crate::Machine for NoClientOrderId {
    type Output = super::search::RoundFindings<PlacedOrder>;

    fn next(&mut self, now: std::time::SystemTime) -> crate::Step<Self::Output> {
        let mut findings = super::search::RoundFindings::default();
        findings.look("order_by_client_order_id", now, now);
        findings.flaw(super::evidence::Flaw::Unclassified(
            "the modified order has no clientOrderId, by which alone its replacement can be \
             found: look the order up by hand"
                .to_owned(),
        ));
        crate::Step::Done(findings)
    }

    fn receive(&mut self, _: Result<crate::Response<'_>, crate::TransportError>) {}
}
