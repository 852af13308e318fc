//! [`Deal`]: a `deals_update` — one trade of the account, an 11-element array.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::codes::{SideCode, side_code};
use super::{DealRole, EventDecodeError, positional::Elements};
use crate::orders::Side;
use crate::values::{ClientOrderId, ExactDecimal, Market, Timestamp};

/// A trade of the account: `[id, time, market, order_id, price, amount, fee, client_order_id,
/// side, role, fee_asset]`, read by position and leniently — every element by the crate's
/// leniency rule, a value no spelling fits and any element past the eleventh kept in
/// [`Deal::extra`] under its position. The id, time, market, order id, price and amount are
/// required; the rest may be missing (a shorter array).
///
/// ```
/// let deal = txc_types::events::Deal::from_params(
///     r#"[13674578673,1738251095.345432,"ETH_BTC",1212909726406,"0.03084","0.2625","0.0002625","",2,2,"ETH"]"#,
/// )?;
/// assert_eq!((deal.id, deal.order_id), (13674578673, 1212909726406));
/// assert_eq!(deal.time.as_str(), "1738251095.345432");
/// assert_eq!(deal.side, Some(txc_types::orders::Side::Buy));
/// assert_eq!(deal.role, Some(txc_types::events::DealRole::Taker));
/// assert_eq!(deal.client_order_id, None);
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Deal {
    /// The deal's id.
    pub id: u64,
    /// When it happened.
    pub time: Timestamp,
    /// The market.
    pub market: Market,
    /// The account's order that traded.
    pub order_id: u64,
    /// The price.
    pub price: ExactDecimal,
    /// The amount in stock currency.
    pub amount: ExactDecimal,
    /// The fee, in [`Deal::fee_asset`].
    pub fee: Option<ExactDecimal>,
    /// The order's `clientOrderId`; `None` for `""`.
    pub client_order_id: Option<ClientOrderId>,
    /// Buy or sell (`2`, `1`).
    #[serde(serialize_with = "serialize_side_option")]
    pub side: Option<Side>,
    /// Maker or taker.
    pub role: Option<DealRole>,
    /// The fee's currency.
    pub fee_asset: Option<String>,
    /// Elements of an unexpected type and elements past the eleventh, by position, as sent.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

/// The update's method, named in errors.
const METHOD: &str = "deals_update";

impl Deal {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        Self::read(Elements::new(params, METHOD)?)
    }

    /// Reads the update's `params` already read as JSON (e.g. borrowed from the frame): the
    /// same result as [`Deal::from_params`] on its text, without a second parse of the array.
    pub fn from_raw_params(params: &RawValue) -> Result<Self, EventDecodeError> {
        Self::read(Elements::of(params, METHOD)?)
    }

    fn read(mut e: Elements<'_>) -> Result<Self, EventDecodeError> {
        let deal = Self {
            id: e.require(0, "id")?,
            time: e.require(1, "time")?,
            market: e.require(2, "market")?,
            order_id: e.require(3, "order_id")?,
            price: e.require(4, "price")?,
            amount: e.require(5, "amount")?,
            fee: e.get(6),
            client_order_id: e
                .get::<ClientOrderId>(7)
                .filter(|id| !id.as_str().is_empty()),
            side: e.get::<SideCode>(8).map(|c| c.0),
            role: e.get(9),
            fee_asset: e.get(10),
            extra: Map::new(),
        };
        Ok(Self {
            extra: e.finish(11),
            ..deal
        })
    }
}

fn serialize_side_option<S: serde::Serializer>(
    side: &Option<Side>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => s.serialize_u8(side_code(*side)),
        None => s.serialize_none(),
    }
}
