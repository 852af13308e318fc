//! Deals (fills) as the two deal reads answer them, written from `http-trade-v4.yaml`: the
//! executed history's `ExecutedDeal` ([`ExecutedDealRecord`], a flat list with a `market`
//! filter, else keyed by market: [`ExecutedDeals`]) and one order's deals
//! ([`OrderDealRecord`] in a [`DealsPage`]). Keys in the schema's and the example's order.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

/// A deal of `POST /api/v4/trade-account/executed-history` (the spec's `ExecutedDeal`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExecutedDealRecord {
    pub(crate) id: u64,
    pub(crate) client_order_id: String,
    /// Unix seconds with a microsecond fraction.
    pub(crate) time: f64,
    pub(crate) side: &'static str,
    /// `1` maker, `2` taker.
    pub(crate) role: u8,
    pub(crate) amount: String,
    pub(crate) price: String,
    pub(crate) deal: String,
    pub(crate) fee: String,
    pub(crate) order_id: u64,
    pub(crate) fee_asset: String,
}

/// The executed history's answer: a flat list when the request named a market, else an
/// object keyed by market (in name order) — `[]` when it holds nothing, as the order history
/// answers.
#[derive(Debug, Clone)]
pub(crate) enum ExecutedDeals {
    /// With a `market` filter.
    Flat(Vec<ExecutedDealRecord>),
    /// Without one.
    ByMarket(BTreeMap<String, Vec<ExecutedDealRecord>>),
}

impl Serialize for ExecutedDeals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Flat(records) => records.serialize(serializer),
            Self::ByMarket(markets) if markets.is_empty() => {
                serializer.collect_seq(std::iter::empty::<()>())
            }
            Self::ByMarket(markets) => markets.serialize(serializer),
        }
    }
}

/// A deal of one order (`POST /api/v4/trade-account/order`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OrderDealRecord {
    /// Unix seconds with a microsecond fraction.
    pub(crate) time: f64,
    pub(crate) fee: String,
    pub(crate) price: String,
    pub(crate) amount: String,
    pub(crate) id: u64,
    pub(crate) deal_order_id: u64,
    pub(crate) client_order_id: String,
    /// `1` maker, `2` taker.
    pub(crate) role: u8,
    pub(crate) deal: String,
    pub(crate) fee_asset: String,
    pub(crate) rpi: bool,
}

/// One order's deals: `{records, offset, limit}`, no `total`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct DealsPage {
    pub(crate) records: Vec<OrderDealRecord>,
    pub(crate) offset: usize,
    pub(crate) limit: usize,
}
