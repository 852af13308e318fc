//! `POST /api/v4/collateral-account/hedge-mode/update`: switches hedge mode on or off.

use serde::{Serialize, Serializer};

use super::PositionMode;
use crate::endpoint::{Acknowledged, Endpoint, EndpointKind, RateLimit, WireValue};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetHedgeMode {
    mode: PositionMode,
}

impl SetHedgeMode {
    /// Switches to `mode`.
    pub fn new(mode: PositionMode) -> Self {
        Self { mode }
    }

    /// The mode asked for.
    pub fn mode(&self) -> PositionMode {
        self.mode
    }
}

impl Endpoint for SetHedgeMode {
    const PATH: &'static str = "/api/v4/collateral-account/hedge-mode/update";
    const OPERATION: &'static str = "set_hedge_mode";
    const KIND: EndpointKind = EndpointKind::Idempotent;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(1_000, 10));
    type Response = Acknowledged;

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        visit("hedgeMode", WireValue::Bool(self.mode.is_hedge()))
    }
}

impl Serialize for SetHedgeMode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}
