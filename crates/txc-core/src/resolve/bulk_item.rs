//! What became of a bulk order's items: [`BulkItem`] each, [`BulkPlaced`] all of them; the
//! rule that judges an item's answer ([`verdict`]); [`UnresolvedBulk`], a bulk order whose
//! answer was lost.

use std::error::Error as StdError;
use std::fmt;

use txc_types::orders::{BulkOrderResult, ItemError, Order};

use super::evidence::Evidence;
use super::outcome::Placed;
use crate::{Error, PendingOrder, Unresolved};

/// What became of one item of a bulk order placed exactly once (`place_bulk_once`).
#[derive(Debug)]
#[non_exhaustive]
// At most 20 per bulk order, one bulk per call: matching on the order beats saving the bytes.
#[allow(clippy::large_enum_variant)]
pub enum BulkItem {
    /// Placed: the order, and what proved it (the bulk's answer, or resolving).
    Placed(Placed),
    /// Refused by the exchange at its first placement: its error (its
    /// [`refusal`](ItemError::refusal) says what the code means). Nothing of it exists.
    Refused(ItemError),
    /// Not processed: with `stopOnFail`, an item after the first that failed. Nothing of it
    /// exists.
    Skipped,
    /// Not placed, proven (resolving proved every attempt absent, or the exchange refused the
    /// request as a whole), and not sent again: the client's `max_placements` was reached.
    NotPlaced(Evidence),
    /// Its outcome is unknown: resolving could not tell, or a later attempt failed. Its record
    /// stays unresolved in the client (`pending_orders`, the journal): resolve it later.
    Unknown(Box<Unresolved>),
}

impl BulkItem {
    /// The placed order, if the item was placed.
    pub fn placed(&self) -> Option<&Placed> {
        match self {
            Self::Placed(placed) => Some(placed),
            _ => None,
        }
    }

    /// Whether the item may exist on the exchange without the client knowing (its outcome is
    /// unknown).
    pub fn is_unknown(&self) -> bool {
        matches!(self, Self::Unknown(_))
    }
}

/// A bulk order placed exactly once: what became of each item, in the request's order.
#[derive(Debug)]
#[non_exhaustive]
pub struct BulkPlaced {
    /// Each item's outcome, in the request's order.
    pub items: Vec<BulkItem>,
}

impl BulkPlaced {
    /// The items placed, with their indexes in the request.
    pub fn placed(&self) -> impl Iterator<Item = (usize, &Placed)> {
        self.items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| item.placed().map(|p| (i, p)))
    }

    /// The items whose outcome is unknown, with their indexes in the request.
    pub fn unknown(&self) -> impl Iterator<Item = (usize, &Unresolved)> {
        self.items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                BulkItem::Unknown(unresolved) => Some((i, &**unresolved)),
                _ => None,
            })
    }
}

/// What one item's answer says, judged by the exchange's rules (before anything is looked
/// up): the pure part of placing a bulk order exactly once.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// Placed: the answer's order.
    Placed(Box<Order>),
    /// Refused at its first placement: nothing of it exists.
    Refused(ItemError),
    /// Not processed (`stopOnFail`, after a failure): nothing of this attempt exists.
    Skipped,
    /// To be resolved: its answer was lost or unreadable, or a resend was refused with code 36
    /// (the id held by an open order: an earlier attempt may rest) — `refused_36`.
    Resolve {
        /// A resend refused with code 36.
        refused_36: bool,
    },
    /// A resend refused otherwise: a later attempt's refusal says nothing of the earlier ones,
    /// whose absence rested on the rule's assumptions — unknown, with the refusal.
    Unknown(String),
}

/// The verdict on an item whose answer (its bulk answer's item, `None` for an item the answer
/// has none for) came at its `first` placement or not.
pub(crate) fn verdict(first: bool, answer: Option<&BulkOrderResult>) -> Verdict {
    match answer {
        Some(BulkOrderResult::Placed(order)) => Verdict::Placed(order.clone()),
        Some(BulkOrderResult::Refused(error)) if first => Verdict::Refused(error.clone()),
        Some(BulkOrderResult::Refused(error)) if error.code == Some(36) => {
            Verdict::Resolve { refused_36: true }
        }
        Some(BulkOrderResult::Refused(error)) => Verdict::Unknown(format!(
            "a resend of the item was refused (code {:?}: {}), which says nothing of the \
             earlier attempts",
            error.code,
            error.message.as_deref().unwrap_or_default()
        )),
        None => Verdict::Skipped,
        // An item neither placed nor refused: unknown, never "not placed".
        Some(_) => Verdict::Resolve { refused_36: false },
    }
}

/// A bulk order whose answer was lost (the context of [`Error::BulkUnknown`]): every item's
/// pending record — each may or may not have been placed; resolve each with the client's
/// `resolve` (or place the bulk with `place_bulk_once`, which does) — and the failure. As an
/// error it reads as its cause.
#[derive(Debug)]
#[non_exhaustive]
pub struct UnresolvedBulk {
    /// The operation, `collateral_bulk_order`.
    pub operation: &'static str,
    /// Each item's pending record, in the request's order.
    pub orders: Vec<PendingOrder>,
    /// The failure that ended the last attempt.
    pub cause: Error,
}

impl fmt::Display for UnresolvedBulk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cause.fmt(f)
    }
}

impl StdError for UnresolvedBulk {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.cause.source()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(json: &str) -> BulkOrderResult {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_refusal_is_definite_only_at_the_first_placement_and_36_is_evidence() {
        let refused = item(r#"{"result":null,"error":{"code":10,"message":"Not enough"}}"#);
        let in_use = item(r#"{"result":null,"error":{"code":36,"message":"used"}}"#);
        let odd = item(r#"{"result":"?","error":null}"#);
        assert!(matches!(verdict(true, Some(&refused)), Verdict::Refused(_)));
        assert!(matches!(
            verdict(false, Some(&refused)),
            Verdict::Unknown(_)
        ));
        assert_eq!(
            verdict(false, Some(&in_use)),
            Verdict::Resolve { refused_36: true }
        );
        assert_eq!(
            verdict(true, Some(&odd)),
            Verdict::Resolve { refused_36: false }
        );
        assert_eq!(verdict(false, None), Verdict::Skipped);
    }
}
