//! [`ClosedPosition`]: one record of the closed positions' PnL.

use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::orders::PositionSide;
use crate::values::{ExactDecimal, Market, Timestamp};

/// A closed position's profit and loss over its whole life, as
/// `POST /api/v4/collateral-account/positions/closed-pnl` answers it.
///
/// What the figures mean, from the spec: [`gross_pnl`](Self::gross_pnl) is the realized PnL
/// before funding with every trading fee already taken off ([`total_trade_fee`](Self::total_trade_fee)
/// is for information: do not subtract it again); [`net_pnl`](Self::net_pnl) is `grossPnl`
/// minus [`total_funding`](Self::total_funding), the funding paid over the position's life
/// (so a positive `totalFunding` is funding **paid** — the opposite sign of the funding
/// history's `fundingAmount`, see [`positions::funding`](crate::positions::funding)). The
/// average prices are the volume-weighted prices of the fills that grew the position (entry)
/// and that reduced it (exit), trimmed to the market's money precision;
/// [`closed_size`](Self::closed_size) is the sum of the reducing fills. The arithmetic is in
/// [`positions::pnl`](crate::positions::pnl).
///
/// The id and the market are required; the rest are `Option`s (a `null` reads as absent).
///
/// ```
/// let p: txc_types::positions::ClosedPosition = serde_json::from_str(r#"{"positionId":111,
///     "market":"BTC_USDT","grossPnl":"43.85","netPnl":"42.6","totalTradeFee":"6.15",
///     "totalFunding":"1.25","avgEntryPrice":"61000","avgExitPrice":"62000",
///     "closedSize":"0.05","amount":"0","side":"LONG","isHedge":true,
///     "openDate":1778000000,"closeDate":1778077400}"#)?;
/// assert_eq!(p.position_id, 111);
/// assert_eq!(p.net_pnl.as_ref().map(|d| d.as_str()), Some("42.6"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a closed position object")]
#[non_exhaustive]
pub struct ClosedPosition {
    /// The position's id.
    pub position_id: u64,
    /// The market, as sent.
    pub market: Market,
    /// The realized PnL before funding, trading fees already deducted.
    pub gross_pnl: Option<ExactDecimal>,
    /// The PnL after funding: `grossPnl − totalFunding`.
    pub net_pnl: Option<ExactDecimal>,
    /// Every fill's trading fee, opening and closing; already in `grossPnl`.
    pub total_trade_fee: Option<ExactDecimal>,
    /// The funding paid over the position's life (positive: paid).
    pub total_funding: Option<ExactDecimal>,
    /// The volume-weighted price of the fills that grew the position.
    pub avg_entry_price: Option<ExactDecimal>,
    /// The volume-weighted price of the fills that reduced it.
    pub avg_exit_price: Option<ExactDecimal>,
    /// The sum of the fills that reduced it, in base currency.
    pub closed_size: Option<ExactDecimal>,
    /// The size left: always `0` for a closed position.
    pub amount: Option<ExactDecimal>,
    /// The position's direction: `LONG` or `SHORT` in hedge mode, `BOTH` in one-way mode.
    pub side: Option<PositionSide>,
    /// Whether the position was opened in hedge mode.
    pub is_hedge: Option<bool>,
    /// When it was opened (Unix seconds).
    pub open_date: Option<Timestamp>,
    /// When it was closed (Unix seconds): the list's sort key, newest first.
    pub close_date: Option<Timestamp>,
    /// Fields this version does not know, values of an unexpected type, and enum values it
    /// has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
