//! [`ExecutedOrders`]: an `ordersExecuted_update` — orders that executed.

use serde::Serialize;

use super::{EventDecodeError, StreamOrder};

/// An update of the `ordersExecuted` channel: the orders that executed (the docs' example has
/// one), each a [`StreamOrder`] with its final figures.
///
/// ```
/// let executed = txc_types::events::ExecutedOrders::from_params(
///     r#"[{"id":9,"market":"ETH_BTC","type":1,"side":2,"ctime":1738251046.7203979,
///         "amount":"1","left":"0","deal_stock":"1","deal_money":"0.030832","status":"FILLED"}]"#,
/// )?;
/// assert_eq!(executed.orders[0].deal_money.as_str(), "0.030832");
/// assert!(executed.orders[0].is_finished());
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
#[non_exhaustive]
pub struct ExecutedOrders {
    /// The orders, in the order sent.
    pub orders: Vec<StreamOrder>,
}

impl ExecutedOrders {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        serde_json::from_str(params)
            .map(|orders| Self { orders })
            .map_err(|e| EventDecodeError::new("ordersExecuted_update", e.to_string()))
    }
}
