//! `POST /api/v4/order/cancel/all`: cancels every open order that matches the filters.

use txc_derive::Request;

use super::PositionSide;
use super::order_class::{OrderClass, distinct};
use crate::endpoint::{Acknowledged, Visit, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::values::Market;

/// Cancels every open order — of one market or all, of some order kinds or all, and on a
/// perpetual market of one position side or all.
///
/// An order operation: it is never resent after a failure that leaves its outcome unknown
/// (another cancel-all is harmless, but it would also cancel orders placed in between, which
/// the caller should decide). The answer is a literal `[]` ([`Acknowledged`]); the open
/// orders show what is left.
///
/// `positionSide` is accepted only with a perpetual futures market (`…_PERP`), and is written
/// in lower case on this endpoint (`long`, `short`, `both`).
///
/// ```
/// use txc_types::orders::{CancelAllOrders, OrderClass, PositionSide};
/// let all = CancelAllOrders::new();
/// assert_eq!(serde_json::to_string(&all).unwrap(), "{}");
/// let perp = CancelAllOrders::builder()
///     .market("BTC_PERP")
///     .types([OrderClass::Futures])
///     .position_side(PositionSide::Long)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&perp).unwrap(),
///     r#"{"market":"BTC_PERP","type":["futures"],"positionSide":"long"}"#
/// );
/// let spot_side = CancelAllOrders::builder().market("BTC_USDT").position_side(PositionSide::Long).build();
/// assert_eq!(spot_side.unwrap_err().field(), "positionSide");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/order/cancel/all",
    operation = "cancel_all_orders",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Acknowledged,
    builder = CancelAllOrdersBuilder,
    check = Self::side_needs_a_perpetual,
)]
pub struct CancelAllOrders {
    /// The market, if only one: only orders of this market.
    #[request(set, text)]
    market: Option<Market>,
    /// The kinds targeted: only orders of these kinds (at least one when set; repeats are
    /// dropped; empty: every kind).
    #[serde(rename = "type")]
    #[request(set, arg = impl IntoIterator<Item = OrderClass>, check = distinct)]
    types: Vec<OrderClass>,
    /// The position side, if only one: only orders of this side (a perpetual market only).
    #[request(get = copy, set, with = lower_case)]
    position_side: Option<PositionSide>,
}

impl CancelAllOrders {
    /// Every open order of every market and kind.
    pub fn new() -> Self {
        Self::default()
    }

    /// `positionSide` only with a perpetual market.
    fn side_needs_a_perpetual(&self) -> Result<(), ValidationError> {
        let perpetual = self.market.as_ref().is_some_and(|m| m.money() == "PERP");
        if self.position_side.is_some() && !perpetual {
            return Err(ValidationError::invalid(
                "positionSide",
                Reason::Format("is accepted only with a perpetual futures market, e.g. BTC_PERP"),
            ));
        }
        Ok(())
    }
}

/// Writes the position side in the lower case this endpoint takes.
fn lower_case<E>(
    side: &Option<PositionSide>,
    name: &'static str,
    visit: &mut impl Visit<E>,
) -> Result<(), E> {
    let Some(side) = side else {
        return Ok(());
    };
    let lower = match side {
        PositionSide::Long => "long",
        PositionSide::Short => "short",
        PositionSide::Both => "both",
    };
    visit(name, WireValue::Str(lower))
}
