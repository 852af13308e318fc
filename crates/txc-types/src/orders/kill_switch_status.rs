//! `POST /api/v4/order/kill-switch/status`: the active kill-switch timers.

use serde::{Serialize, Serializer};

use super::KillSwitchTimer;
use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::errors::ValidationError;
use crate::values::Market;

/// Lists the active kill-switch timers of every market, or of one.
///
/// ```
/// use txc_types::orders::KillSwitchStatusQuery;
/// let q = KillSwitchStatusQuery::of_market("BTC_USDT")?;
/// assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"market":"BTC_USDT"}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KillSwitchStatusQuery {
    market: Option<Market>,
}

impl KillSwitchStatusQuery {
    /// Every market's timer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only `market`'s timer.
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

impl Endpoint for KillSwitchStatusQuery {
    const PATH: &'static str = "/api/v4/order/kill-switch/status";
    const OPERATION: &'static str = "kill_switch_status";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(10_000, 10));
    type Response = Vec<KillSwitchTimer>;

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

impl Serialize for KillSwitchStatusQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}
