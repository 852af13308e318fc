//! The numeric codes of the event stream: the side of an order or deal (`1` sell, `2` buy),
//! the kind of an order event (`1`, `2`, `3`), a deal's role (`1` maker, `2` taker) and the
//! kind of a position event (`1` margin call, `2` liquidation). A code this version does not
//! know is kept as its number (`Other`), never an error.

use serde::de::MapAccess;
use serde::{Serialize, Serializer};

use crate::lenient::{Field, FromWire, Scalar, Set, put};
use crate::orders::Side;

/// A number sent as a number or a digit string.
fn number(value: &Scalar<'_>) -> Option<u64> {
    value.text()?.trim().parse().ok()
}

/// [`Side`] as the stream's code: `1` sell, `2` buy.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SideCode(pub(crate) Side);

impl FromWire for SideCode {
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        match number(value)? {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OrderEventKind {
    /// `1`: a new order (also a stop order that activated: the same id again).
    New,
    /// `2`: the order changed (a partial fill).
    Updated,
    /// `3`: the order finished — filled or canceled. An order that fills at once sends only
    /// this one.
    Finished,
    /// A code this version does not know, kept as sent.
    Other(u64),
}

impl OrderEventKind {
    /// The code on the wire.
    pub fn code(self) -> u64 {
        match self {
            Self::New => 1,
            Self::Updated => 2,
            Self::Finished => 3,
            Self::Other(code) => code,
        }
    }

    /// The value of `code`.
    pub fn from_code(code: u64) -> Self {
        match code {
            1 => Self::New,
            2 => Self::Updated,
            3 => Self::Finished,
            other => Self::Other(other),
        }
    }
}

impl FromWire for OrderEventKind {
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        number(value).map(Self::from_code)
    }
}

impl Serialize for OrderEventKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.code())
    }
}

/// The account's role in a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DealRole {
    /// `1`: maker.
    Maker,
    /// `2`: taker.
    Taker,
    /// A code this version does not know, kept as sent.
    Other(u64),
}

impl DealRole {
    /// The code on the wire.
    pub fn code(self) -> u64 {
        match self {
            Self::Maker => 1,
            Self::Taker => 2,
            Self::Other(code) => code,
        }
    }

    /// The value of `code`.
    pub fn from_code(code: u64) -> Self {
        match code {
            1 => Self::Maker,
            2 => Self::Taker,
            other => Self::Other(other),
        }
    }
}

impl FromWire for DealRole {
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        number(value).map(Self::from_code)
    }
}

impl Serialize for DealRole {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.code())
    }
}

/// What a `positionsAccountMargin_update` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PositionEventKind {
    /// `1`: a margin call.
    MarginCall,
    /// `2`: a liquidation.
    Liquidation,
    /// A code this version does not know, kept as sent.
    Other(u64),
}

impl PositionEventKind {
    /// The code on the wire.
    pub fn code(self) -> u64 {
        match self {
            Self::MarginCall => 1,
            Self::Liquidation => 2,
            Self::Other(code) => code,
        }
    }

    /// The value of `code`.
    pub fn from_code(code: u64) -> Self {
        match code {
            1 => Self::MarginCall,
            2 => Self::Liquidation,
            other => Self::Other(other),
        }
    }
}

impl FromWire for PositionEventKind {
    fn from_wire(value: &Scalar<'_>) -> Option<Self> {
        number(value).map(Self::from_code)
    }
}

impl Serialize for PositionEventKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.code())
    }
}
