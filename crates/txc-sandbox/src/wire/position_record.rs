//! The records of positions: an open position as `positions/open` lists it, and a position
//! event as `positions/history` lists it — the docs' examples' fields, in their order. Both
//! start with the position as it stands ([`PositionHead`]).

use serde::Serialize;

/// The fields both position records start with: the position as it stands.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PositionHead {
    pub(crate) position_id: u64,
    pub(crate) market: String,
    pub(crate) open_date: f64,
    pub(crate) modify_date: f64,
    pub(crate) amount: String,
    pub(crate) base_price: String,
}

/// An open position (`POST /api/v4/collateral-account/positions/open`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OpenPositionRecord {
    #[serde(flatten)]
    pub(crate) head: PositionHead,
    /// `null` when the price cannot take the account to its maintenance margin.
    pub(crate) liquidation_price: Option<String>,
    /// `margin_call` while the account is below its margin-call level, else `null`.
    pub(crate) liquidation_state: Option<&'static str>,
    pub(crate) pnl: String,
    pub(crate) pnl_percent: String,
    pub(crate) margin: String,
    pub(crate) free_margin: String,
    /// Always `"0"`: the sandbox charges funding on perpetual markets only, where the spec
    /// says the field is `"0"`.
    pub(crate) funding: &'static str,
    /// Always `"0"`, likewise.
    pub(crate) unrealized_funding: &'static str,
    pub(crate) unrealized_pnl: String,
    /// Always `null`: the sandbox keeps no take-profit or stop-loss on positions.
    pub(crate) tpsl: Option<()>,
    pub(crate) position_side: &'static str,
}

/// The order behind a position event.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OrderDetailRecord {
    pub(crate) id: u64,
    pub(crate) trade_amount: String,
    pub(crate) price: String,
    pub(crate) trade_fee: String,
    /// Always `null`: funding is paid at funding times, never by an order.
    pub(crate) funding_fee: Option<String>,
    /// `null` when the order realized nothing (it opened or grew the position).
    pub(crate) realized_pnl: Option<String>,
}

/// A position event (`POST /api/v4/collateral-account/positions/history`): the current
/// shape, `side` and `isHedge` (no `positionSide`, since 29 April 2026).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PositionEventRecord {
    #[serde(flatten)]
    pub(crate) head: PositionHead,
    /// The funding the position paid over its life so far (negative: received).
    pub(crate) realized_funding: String,
    pub(crate) liquidation_price: Option<String>,
    pub(crate) liquidation_state: Option<&'static str>,
    pub(crate) order_detail: OrderDetailRecord,
    pub(crate) side: &'static str,
    pub(crate) is_hedge: bool,
}
