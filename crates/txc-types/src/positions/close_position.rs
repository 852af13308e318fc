//! `POST /api/v4/collateral-account/position/close`: closes a position at the market price.

use serde::{Serialize, Serializer};

use crate::endpoint::{Acknowledged, Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClosePosition {
    market: Market,
    position_id: u64,
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

    /// The market.
    pub fn market(&self) -> &Market {
        &self.market
    }

    /// The position's id.
    pub fn position_id(&self) -> u64 {
        self.position_id
    }

    /// The side sent, if any.
    pub fn side(&self) -> Option<PositionSide> {
        self.position_side
    }
}

impl Endpoint for ClosePosition {
    const PATH: &'static str = "/api/v4/collateral-account/position/close";
    const OPERATION: &'static str = "close_position";
    const KIND: EndpointKind = EndpointKind::Order;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(10_000, 10));
    type Response = Acknowledged;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        visit("positionId", WireValue::Int(self.position_id))?;
        visit("market", WireValue::Str(self.market.as_str()))?;
        match self.position_side {
            Some(side) => visit("positionSide", WireValue::Str(side.as_str())),
            None => Ok(()),
        }
    }
}

impl Serialize for ClosePosition {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}
