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
    /// The take-profit and stop-loss attached over the socket (`collateral_order_tpsl_place`)
    /// and still waiting; `null` when none.
    pub(crate) tpsl: Option<TpslRecord>,
    pub(crate) position_side: &'static str,
}

/// A position's `tpsl`: the waiting legs' order ids and trigger prices (a leg not attached is
/// left out).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TpslRecord {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) take_profit_id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) take_profit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stop_loss_id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stop_loss: Option<String>,
}

impl TpslRecord {
    /// The record of the legs `[take-profit, stop-loss]` (id and trigger each), `None` for
    /// neither.
    pub(crate) fn of(legs: [Option<(u64, String)>; 2]) -> Option<Self> {
        let [take_profit, stop_loss] = legs;
        if take_profit.is_none() && stop_loss.is_none() {
            return None;
        }
        let (take_profit_id, take_profit) = take_profit.unzip();
        let (stop_loss_id, stop_loss) = stop_loss.unzip();
        Some(Self {
            take_profit_id,
            take_profit,
            stop_loss_id,
            stop_loss,
        })
    }
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
