//! `POST /api/v4/collateral-account/positions/open`: the open positions.

use txc_derive::Request;

use super::Position;
use crate::values::Market;

/// Lists the open positions of every market ([`new`](Self::new)), or of one.
///
/// ```
/// use txc_types::positions::OpenPositionsQuery;
/// let q = OpenPositionsQuery::of_market("BTC_USDT")?;
/// assert_eq!(serde_json::to_string(&q).unwrap(), r#"{"market":"BTC_USDT"}"#);
/// assert_eq!(serde_json::to_string(&OpenPositionsQuery::new()).unwrap(), "{}");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/positions/open",
    operation = "open_positions",
    kind = Read,
    rate_limit = (12_000, 10),
    response = Vec<Position>,
)]
pub struct OpenPositionsQuery {
    /// The market filter: only this market's open positions (none: every market's).
    #[request(of, text)]
    market: Option<Market>,
}

impl OpenPositionsQuery {
    /// Every open position.
    pub fn new() -> Self {
        Self::default()
    }
}
