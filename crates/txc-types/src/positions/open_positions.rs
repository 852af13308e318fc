//! `POST /api/v4/collateral-account/positions/open`: the open positions.

use serde::{Serialize, Serializer};

use super::Position;
use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::errors::ValidationError;
use crate::values::Market;

/// Lists the open positions of every market, or of one.
///
/// ```
/// use txc_types::positions::OpenPositionsQuery;
/// let q = OpenPositionsQuery::of_market("BTC_USDT")?;
/// assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"market":"BTC_USDT"}"#);
/// assert_eq!(serde_json::to_string(&OpenPositionsQuery::new()).unwrap(), "{}");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenPositionsQuery {
    market: Option<Market>,
}

impl OpenPositionsQuery {
    /// Every open position.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only the open positions of `market`.
    pub fn of_market(market: impl FieldValue<Market>) -> Result<Self, ValidationError> {
        Ok(Self {
            market: Some(market.into_field("market")?),
        })
    }

    /// The market filter, if any.
    pub fn market(&self) -> Option<&Market> {
        self.market.as_ref()
    }
}

impl Endpoint for OpenPositionsQuery {
    const PATH: &'static str = "/api/v4/collateral-account/positions/open";
    const OPERATION: &'static str = "open_positions";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(12_000, 10));
    type Response = Vec<Position>;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match &self.market {
            Some(m) => visit("market", WireValue::Str(m.as_str())),
            None => Ok(()),
        }
    }
}

impl Serialize for OpenPositionsQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}
