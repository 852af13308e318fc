//! `POST /api/v4/collateral-account/hedge-mode/update`: switches hedge mode on or off.

use txc_derive::Request;

use super::PositionMode;
use crate::endpoint::Acknowledged;

/// Switches the account to hedge mode or to one-way mode.
///
/// The docs: it "requires **no open positions**", and code 113 refuses it "while open
/// positions or orders exist"; after closing positions the switch may take about 15 s to be
/// allowed. The client looks the positions and orders up first and refuses to send a switch
/// that would fail that way. No success body is documented ([`Acknowledged`]); read the mode
/// back with [`HedgeModeQuery`](super::HedgeModeQuery). Setting a mode is idempotent.
///
/// ```
/// use txc_types::positions::{PositionMode, SetHedgeMode};
/// let on = SetHedgeMode::new(PositionMode::Hedge);
/// assert_eq!(serde_json::to_string(&on).unwrap(), r#"{"hedgeMode":true}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/hedge-mode/update",
    operation = "set_hedge_mode",
    kind = Idempotent,
    rate_limit = (1_000, 10),
    response = Acknowledged,
)]
pub struct SetHedgeMode {
    /// The mode asked for (`hedgeMode` on the wire).
    #[serde(rename = "hedgeMode")]
    #[request(get = copy)]
    mode: PositionMode,
}

impl SetHedgeMode {
    /// Switches to `mode`.
    pub fn new(mode: PositionMode) -> Self {
        Self { mode }
    }
}
