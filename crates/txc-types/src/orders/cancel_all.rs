//! `POST /api/v4/order/cancel/all`: cancels every open order that matches the filters.

use serde::{Serialize, Serializer};

use super::PositionSide;
use super::order_class::{OrderClass, distinct};
use crate::building::Building;
use crate::endpoint::{Acknowledged, Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CancelAllOrders {
    market: Option<Market>,
    types: Vec<OrderClass>,
    position_side: Option<PositionSide>,
}

impl CancelAllOrders {
    /// Every open order of every market and kind.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a cancel-all with filters.
    pub fn builder() -> CancelAllOrdersBuilder {
        CancelAllOrdersBuilder(Building::new(Self::default()))
    }

    /// The market, if only one.
    pub fn market(&self) -> Option<&Market> {
        self.market.as_ref()
    }

    /// The kinds targeted (empty: every kind).
    pub fn types(&self) -> &[OrderClass] {
        &self.types
    }

    /// The position side, if only one.
    pub fn position_side(&self) -> Option<PositionSide> {
        self.position_side
    }
}

/// Builds a [`CancelAllOrders`]; the first invalid value is reported by
/// [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the request"]
pub struct CancelAllOrdersBuilder(Building<CancelAllOrders>);

impl CancelAllOrdersBuilder {
    fn set(self, apply: impl FnOnce(&mut CancelAllOrders) -> Result<(), ValidationError>) -> Self {
        Self(self.0.set(apply))
    }

    /// Only orders of `market`.
    pub fn market(self, market: impl FieldValue<Market>) -> Self {
        self.set(|c| {
            c.market = Some(market.into_field("market")?);
            Ok(())
        })
    }

    /// Only orders of these kinds (at least one; repeats are dropped).
    pub fn types(self, types: impl IntoIterator<Item = OrderClass>) -> Self {
        self.set(|c| {
            c.types = distinct(types, "type")?;
            Ok(())
        })
    }

    /// Only orders of this position side (a perpetual market only).
    pub fn position_side(self, side: PositionSide) -> Self {
        self.set(|c| {
            c.position_side = Some(side);
            Ok(())
        })
    }

    /// Checks the combination and returns the request.
    pub fn build(self) -> Result<CancelAllOrders, ValidationError> {
        let c = self.0.finish()?;
        let perpetual = c.market.as_ref().is_some_and(|m| m.money() == "PERP");
        if c.position_side.is_some() && !perpetual {
            return Err(ValidationError::invalid(
                "positionSide",
                Reason::Format("is accepted only with a perpetual futures market, e.g. BTC_PERP"),
            ));
        }
        Ok(c)
    }
}

impl Endpoint for CancelAllOrders {
    const PATH: &'static str = "/api/v4/order/cancel/all";
    const OPERATION: &'static str = "cancel_all_orders";
    const KIND: EndpointKind = EndpointKind::Order;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(10_000, 10));
    type Response = Acknowledged;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(m) = &self.market {
            visit("market", WireValue::Str(m.as_str()))?;
        }
        if !self.types.is_empty() {
            let types: Vec<WireValue<'_>> = self
                .types
                .iter()
                .map(|t| WireValue::Str(t.as_str()))
                .collect();
            visit("type", WireValue::List(&types))?;
        }
        match self.position_side {
            Some(side) => visit("positionSide", WireValue::Str(lower(side))),
            None => Ok(()),
        }
    }
}

/// The lower-case spelling this endpoint takes.
fn lower(side: PositionSide) -> &'static str {
    match side {
        PositionSide::Long => "long",
        PositionSide::Short => "short",
        PositionSide::Both => "both",
    }
}

impl Serialize for CancelAllOrders {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}
