//! [`ExecutedDeal`]: one trade (fill) of the account's orders, as the executed history and
//! the deals of an order answer it.

use serde_json::{Map, Value};
use txc_derive::Answer;

use crate::events::DealRole;
use crate::orders::Side;
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// A deal: a partial or full execution of one of the account's orders against another order.
///
/// One record for both answers that list deals, whose fields differ a little (the spec's
/// `ExecutedDeal` schema and the deals of an order's records):
/// [`ExecutedHistoryQuery`](super::ExecutedHistoryQuery) sends [`side`](Self::side) and
/// [`order_id`](Self::order_id) (the account's order), [`OrderDealsQuery`](super::OrderDealsQuery)
/// sends [`deal_order_id`](Self::deal_order_id) (the counterparty's order) and
/// [`rpi`](Self::rpi). The id, time, price and amount are required; the rest are `Option`s.
///
/// ```
/// let deal: txc_types::lookups::ExecutedDeal = serde_json::from_str(r#"{"time":1593342324.613711,
///     "fee":"0.00000419198","price":"0.00000701","amount":"598","id":149156519,
///     "dealOrderId":3134995325,"clientOrderId":"customId11","role":2,"deal":"0.00419198",
///     "feeAsset":"USDT","rpi":true}"#)?;
/// assert_eq!(deal.id, 149156519);
/// assert_eq!(deal.role, Some(txc_types::events::DealRole::Taker));
/// assert_eq!(deal.market, None); // the answer does not say; see `market`
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a deal object")]
#[non_exhaustive]
pub struct ExecutedDeal {
    /// The deal's id, from the matching engine.
    pub id: u64,
    /// The market. The records carry none: an executed history grouped by market fills it
    /// in from its key, and a [`PageCursor`](crate::paging::PageCursor) of a
    /// market-filtered executed history from the query; `None` otherwise (the deals of one
    /// order). Not written back.
    #[serde(skip_serializing)]
    pub market: Option<Market>,
    /// When it executed (Unix seconds with microseconds).
    pub time: Timestamp,
    /// The price per unit, in the market's money currency.
    pub price: ExactDecimal,
    /// The amount executed, in the market's stock currency.
    pub amount: ExactDecimal,
    /// The value, `amount × price`, in money currency.
    pub deal: Option<ExactDecimal>,
    /// The fee, in [`fee_asset`](Self::fee_asset).
    pub fee: Option<ExactDecimal>,
    /// The currency the fee was paid in.
    pub fee_asset: Option<String>,
    /// Maker (`1`: the order rested on the book) or taker (`2`).
    pub role: Option<DealRole>,
    /// The side of the order that traded (executed history).
    pub side: Option<Side>,
    /// The account's order that traded (executed history).
    pub order_id: Option<u64>,
    /// The counterparty's order it matched (deals of one order).
    pub deal_order_id: Option<u64>,
    /// The order's `clientOrderId`; `None` when the record has `""`.
    #[serde(serialize_with = "crate::orders::order::empty_when_none")]
    #[answer(with = "crate::lenient::empty_is_none", always)]
    pub client_order_id: Option<ClientOrderId>,
    /// Whether it executed under Retail Price Improvement pricing (deals of one order).
    pub rpi: Option<bool>,
    /// Fields this version does not know, values of an unexpected type and enum values it
    /// has no name for, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
