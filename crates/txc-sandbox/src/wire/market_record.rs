//! The public market information, written from `public-http-v4.yaml`: a market's rules as
//! `GET /api/v4/public/markets` lists them ([`MarketRecord`]), the `{success, message, result}`
//! envelope of the collateral and futures lists ([`PublicList`]) and a futures market
//! ([`FuturesRecord`]). Keys in the schemas' order; precisions as stringified integers, fees
//! as percentages, as the spec says.

use std::collections::BTreeMap;

use serde::Serialize;

/// A market's configuration and trading rules.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MarketRecord {
    pub(crate) name: String,
    pub(crate) stock: String,
    pub(crate) money: String,
    pub(crate) stock_prec: String,
    pub(crate) money_prec: String,
    pub(crate) fee_prec: String,
    pub(crate) maker_fee: String,
    pub(crate) taker_fee: String,
    pub(crate) min_amount: String,
    pub(crate) min_total: String,
    pub(crate) max_total: String,
    pub(crate) trades_enabled: bool,
    pub(crate) is_collateral: bool,
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) is_trad_fi_futures: bool,
    pub(crate) delisted_at: Option<u64>,
}

/// `{"success": true, "message": null, "result": […]}`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PublicList<T> {
    pub(crate) success: bool,
    pub(crate) message: Option<String>,
    pub(crate) result: Vec<T>,
}

impl<T> PublicList<T> {
    /// A successful list of `result`.
    pub(crate) fn of(result: Vec<T>) -> Self {
        Self {
            success: true,
            message: None,
            result,
        }
    }
}

/// A futures market of `GET /api/v4/public/futures`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FuturesRecord {
    pub(crate) ticker_id: String,
    pub(crate) stock_currency: String,
    pub(crate) money_currency: String,
    pub(crate) last_price: String,
    pub(crate) stock_volume: String,
    pub(crate) money_volume: String,
    pub(crate) bid: String,
    pub(crate) ask: String,
    pub(crate) high: String,
    pub(crate) low: String,
    pub(crate) product_type: &'static str,
    pub(crate) open_interest: String,
    pub(crate) index_price: String,
    pub(crate) index_name: String,
    pub(crate) index_currency: String,
    pub(crate) funding_rate: String,
    pub(crate) funding_cap: &'static str,
    pub(crate) funding_floor: &'static str,
    pub(crate) next_funding_rate_timestamp: String,
    pub(crate) brackets: BTreeMap<String, u64>,
    pub(crate) max_leverage: u64,
    pub(crate) funding_interval_minutes: u64,
}
