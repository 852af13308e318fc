//! `POST /api/v4/order/kill-switch/status`: the active kill-switch timers.

use txc_derive::Request;

use super::KillSwitchTimer;
use crate::values::Market;

/// Lists the active kill-switch timers of every market ([`new`](Self::new)), or of one.
///
/// ```
/// use txc_types::orders::KillSwitchStatusQuery;
/// let q = KillSwitchStatusQuery::of_market("BTC_USDT")?;
/// assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"market":"BTC_USDT"}"#);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/kill-switch/status",
    operation = "kill_switch_status",
    kind = Read,
    rate_limit = (10_000, 10),
    response = Vec<KillSwitchTimer>,
)]
pub struct KillSwitchStatusQuery {
    /// The market filter: only this market's timer (none: every market's).
    #[request(of, text)]
    market: Option<Market>,
}

impl KillSwitchStatusQuery {
    /// Every market's timer.
    pub fn new() -> Self {
        Self::default()
    }
}
