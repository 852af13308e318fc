//! `POST /api/v4/collateral-account/position/close`: closes a position at the market price.

use txc_derive::Request;

use crate::endpoint::{Acknowledged, FieldValue};
use crate::errors::ValidationError;
use crate::orders::PositionSide;
use crate::values::Market;

/// Closes an open position: the exchange places a market order in the opposite direction for
/// the whole position and cancels its take-profit and stop-loss.
///
/// Closing is a trade, so the client never resends it after a failure that leaves its outcome
/// unknown; it answers "outcome unknown" with what resolving needs (the client's
/// `resolve_close` looks the position up). The docs describe no success body
/// ([`Acknowledged`]). The exchange answers code 104 for a position that does not exist, is
/// closed already or is not the account's, and 10 when the balance cannot fund the closing
/// order.
///
/// ```
/// use txc_types::orders::PositionSide;
/// use txc_types::positions::ClosePosition;
/// let close = ClosePosition::new("BTC_USDT", 527)?.position_side(PositionSide::Long);
/// assert_eq!(
///     serde_json::to_string(&close).unwrap(),
///     r#"{"positionId":527,"market":"BTC_USDT","positionSide":"LONG"}"#
/// );
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[serde(rename_all = "camelCase")]
#[request(
    path = "/api/v4/collateral-account/position/close",
    operation = "close_position",
    kind = Order,
    rate_limit = (10_000, 10),
    response = Acknowledged,
)]
pub struct ClosePosition {
    /// The position's id.
    #[request(get = copy)]
    position_id: u64,
    /// The market.
    market: Market,
    #[request(get = none)]
    position_side: Option<PositionSide>,
}

impl ClosePosition {
    /// Closes the position `position_id` of `market` (the id comes from the open positions).
    pub fn new(market: impl FieldValue<Market>, position_id: u64) -> Result<Self, ValidationError> {
        Ok(Self {
            market: market.into_field("market")?,
            position_id,
            position_side: None,
        })
    }

    /// The position's side: `LONG` or `SHORT` in hedge mode.
    #[must_use]
    pub fn position_side(mut self, side: PositionSide) -> Self {
        self.position_side = Some(side);
        self
    }

    /// The side sent, if any.
    pub fn side(&self) -> Option<PositionSide> {
        self.position_side
    }
}
