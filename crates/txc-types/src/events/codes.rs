//! The numeric codes of the event stream: the side of an order or deal (`1` sell, `2` buy),
//! the kind of an order event (`1`, `2`, `3`), a deal's role (`1` maker, `2` taker) and the
//! kind of a position event (`1` margin call, `2` liquidation). A code this version does not
//! know is kept as its number (`Other`), never an error.

use serde::Serializer;
use serde::de::MapAccess;
use txc_derive::WireEnum;

use crate::lenient::{Field, FromWire, Scalar, Set, code, put};
use crate::orders::Side;

/// [`Side`] as the stream's code: `1` sell, `2` buy.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SideCode(pub(crate) Side);

impl FromWire for SideCode {
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        match code(value)? {
            1 => Some(Self(Side::Sell)),
            2 => Some(Self(Side::Buy)),
            _ => None,
        }
    }
}

/// The stream's code of `side`.
pub(crate) fn side_code(side: Side) -> u8 {
    match side {
        Side::Sell => 1,
        Side::Buy => 2,
    }
}

/// Stores a side sent as its code; any other value is kept in `extra`.
pub(crate) fn side<'de, A: MapAccess<'de>>(
    slot: &mut Option<Side>,
    field: Field<'_, 'de, A>,
) -> Result<Set, A::Error> {
    let mut code: Option<SideCode> = None;
    let set = put(&mut code, field)?;
    *slot = code.map(|c| c.0);
    Ok(set)
}

/// Writes a side as its code.
pub(crate) fn serialize_side<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(side_code(*side))
}

/// What happened to an order, the first element of an `ordersPending_update`.
///
/// ```
/// use txc_types::events::OrderEventKind;
/// assert_eq!(OrderEventKind::from_code(3), OrderEventKind::Finished);
/// assert_eq!(OrderEventKind::from_code(9), OrderEventKind::Other(9));
/// assert_eq!(OrderEventKind::Other(9).code(), 9);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, WireEnum)]
#[non_exhaustive]
pub enum OrderEventKind {
    /// `1`: a new order (also a stop order that activated: the same id again).
    #[wire(code = 1)]
    New,
    /// `2`: the order changed (a partial fill).
    #[wire(code = 2)]
    Updated,
    /// `3`: the order finished — filled or canceled. An order that fills at once sends only
    /// this one.
    #[wire(code = 3)]
    Finished,
    /// A code this version does not know, kept as sent.
    #[wire(other)]
    Other(u64),
}

/// The account's role in a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, WireEnum)]
#[non_exhaustive]
pub enum DealRole {
    /// `1`: maker.
    #[wire(code = 1)]
    Maker,
    /// `2`: taker.
    #[wire(code = 2)]
    Taker,
    /// A code this version does not know, kept as sent.
    #[wire(other)]
    Other(u64),
}

/// What a `positionsAccountMargin_update` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, WireEnum)]
#[non_exhaustive]
pub enum PositionEventKind {
    /// `1`: a margin call.
    #[wire(code = 1)]
    MarginCall,
    /// `2`: a liquidation.
    #[wire(code = 2)]
    Liquidation,
    /// A code this version does not know, kept as sent.
    #[wire(other)]
    Other(u64),
}
