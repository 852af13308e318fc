//! [`OrderClass`]: which kind of order cancel-all and the kill switch target.

use serde::{Deserialize, Serialize};
use txc_derive::WireEnum;

use crate::errors::{Reason, ValidationError};

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
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, WireEnum,
)]
#[serde(rename_all = "lowercase", try_from = "std::borrow::Cow<'_, str>")]
#[wire(field = "type")]
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
