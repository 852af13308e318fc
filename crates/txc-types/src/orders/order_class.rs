//! [`OrderClass`]: which kind of order cancel-all and the kill switch target.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::lenient::Word;

/// The kinds of order cancel-all and the kill switch can target (their `type`/`types`
/// lists). Left out, both target every kind.
///
/// The docs warn that `margin` here is not the collateral *account*: it is the order type of
/// margin orders on spot markets (`BTC_USDT`); orders on perpetual futures markets
/// (`BTC_PERP`) are `futures`. The collateral orders of this crate are `margin` or `futures`
/// orders by their market.
///
/// ```
/// use txc_types::orders::OrderClass;
/// assert_eq!("futures".parse::<OrderClass>()?, OrderClass::Futures);
/// assert_eq!(OrderClass::of_market("BTC_PERP"), OrderClass::Futures);
/// assert_eq!(OrderClass::of_market("BTC_USDT"), OrderClass::Margin);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "std::borrow::Cow<'_, str>")]
pub enum OrderClass {
    /// Standard spot orders.
    Spot,
    /// Margin orders on spot markets.
    Margin,
    /// Margin orders on perpetual futures markets (`…_PERP`).
    Futures,
}

impl OrderClass {
    /// Every kind, in wire order.
    pub const ALL: [Self; 3] = [Self::Spot, Self::Margin, Self::Futures];

    /// The wire form: `spot`, `margin` or `futures`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Spot => "spot",
            Self::Margin => "margin",
            Self::Futures => "futures",
        }
    }

    /// The kind of a collateral order on `market`: `futures` on a perpetual (`…_PERP`)
    /// market, `margin` otherwise.
    pub fn of_market(market: &str) -> Self {
        if market.ends_with("_PERP") {
            Self::Futures
        } else {
            Self::Margin
        }
    }
}

impl FromStr for OrderClass {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or(ValidationError::invalid("type", Reason::UnknownVariant))
    }
}

impl TryFrom<std::borrow::Cow<'_, str>> for OrderClass {
    type Error = ValidationError;
    fn try_from(s: std::borrow::Cow<'_, str>) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for OrderClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Word for OrderClass {}

impl ToWire for OrderClass {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Str(self.as_str())
    }
}

/// `classes` without repeats, in the order given; an empty list is refused on `field`.
pub(crate) fn distinct(
    classes: impl IntoIterator<Item = OrderClass>,
    field: &'static str,
) -> Result<Vec<OrderClass>, ValidationError> {
    let mut out: Vec<OrderClass> = Vec::new();
    for class in classes {
        if !out.contains(&class) {
            out.push(class);
        }
    }
    if out.is_empty() {
        return Err(ValidationError::invalid(
            field,
            Reason::Format(
                "must list at least one of spot, margin, futures (leave it out for all)",
            ),
        ));
    }
    Ok(out)
}
