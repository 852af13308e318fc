//! `POST /api/v4/collateral-account/hedge-mode`: reads the account's position mode.

use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::PositionMode;

/// Asks whether hedge mode is on. It has no fields.
///
/// The client reads it once per key before the key's first order (and again after the
/// exchange answers an order with code 114), to refuse an order whose `positionSide` cannot
/// be right for the mode before it is sent.
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::positions::HedgeModeQuery;
/// assert_eq!(HedgeModeQuery::PATH, "/api/v4/collateral-account/hedge-mode");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/hedge-mode",
    operation = "hedge_mode",
    kind = Read,
    rate_limit = (12_000, 10),
    response = HedgeMode,
)]
pub struct HedgeModeQuery;

/// Whether hedge mode is on: `{"hedgeMode": true}`.
///
/// ```
/// use txc_types::positions::{HedgeMode, PositionMode};
/// let m: HedgeMode = serde_json::from_str(r#"{"hedgeMode":true}"#)?;
/// assert_eq!(m.mode(), PositionMode::Hedge);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a hedge mode object")]
#[non_exhaustive]
pub struct HedgeMode {
    /// `true`: hedge mode (a long and a short position per market); `false`: one-way mode.
    pub hedge_mode: bool,
    /// Fields the docs do not list, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl HedgeMode {
    /// The position mode.
    pub fn mode(&self) -> PositionMode {
        PositionMode::from_hedge_mode(self.hedge_mode)
    }
}
