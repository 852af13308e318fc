//! The collateral account's reports, written from `http-trade-v4.yaml`: a closed position's
//! PnL ([`ClosedPositionRecord`], `positions/closed-pnl`), a funding payment and its page
//! ([`FundingRecord`], [`FundingPage`], `funding-history`) and a market's ADL quantiles
//! ([`AdlRecord`], `adl-quantile`). Keys in the spec examples' order.

use serde::Serialize;

/// One closed position, aggregated over its whole life (`POST
/// /api/v4/collateral-account/positions/closed-pnl`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClosedPositionRecord {
    pub(crate) position_id: u64,
    pub(crate) market: String,
    pub(crate) gross_pnl: String,
    pub(crate) net_pnl: String,
    pub(crate) total_trade_fee: String,
    pub(crate) total_funding: String,
    pub(crate) avg_entry_price: String,
    pub(crate) avg_exit_price: String,
    pub(crate) closed_size: String,
    /// Always `"0"`: a closed position holds nothing.
    pub(crate) amount: &'static str,
    pub(crate) side: &'static str,
    pub(crate) is_hedge: bool,
    /// Unix seconds (an integer, unlike the position history's dates).
    pub(crate) open_date: u64,
    /// Unix seconds.
    pub(crate) close_date: u64,
}

/// One funding payment (`POST /api/v4/collateral-account/funding-history`): every figure a
/// string, the times Unix seconds as strings.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FundingRecord {
    pub(crate) market: String,
    pub(crate) funding_time: String,
    pub(crate) funding_rate: String,
    pub(crate) funding_amount: String,
    pub(crate) position_amount: String,
    pub(crate) settlement_price: String,
    pub(crate) rate_calculated_time: String,
}

/// The funding history's answer: `{records, limit, offset}`, no `total`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FundingPage {
    pub(crate) records: Vec<FundingRecord>,
    pub(crate) limit: usize,
    pub(crate) offset: usize,
}

/// One perpetual market's ADL quantiles (`POST /api/v4/collateral-account/adl-quantile`):
/// `null` for a side without a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct AdlRecord {
    pub(crate) market: String,
    pub(crate) long: Option<u8>,
    pub(crate) short: Option<u8>,
}
