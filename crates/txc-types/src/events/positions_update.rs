//! [`Positions`]: a `positionsMargin_update` — every open position.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{EventDecodeError, StreamPosition};

/// An update of the `positionsMargin` channel: the full set of open positions (about every
/// second), so the latest one replaces whatever came before — no gap to fill after a
/// reconnection beyond waiting for the next one.
///
/// ```
/// let p = txc_types::events::Positions::from_params(
///     r#"{"total":1,"records":[{"id":2,"market":"BTC_USDT","amount":"-0.01"}]}"#,
/// )?;
/// assert_eq!((p.total, p.records.len()), (Some(1), 1));
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Positions {
    /// The count the exchange reports.
    #[serde(default)]
    pub total: Option<u64>,
    /// The open positions.
    #[serde(default)]
    pub records: Vec<StreamPosition>,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Positions {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        serde_json::from_str(params)
            .map_err(|e| EventDecodeError::new("positionsMargin_update", e.to_string()))
    }
}
