//! The bodies of `POST /api/v4/order/conditional-cancel` (`market`, `id`) and `POST
//! /api/v4/order/oto-cancel` (`market`, `otoId`): a market and a conditional order's id, both
//! required. (`POST /api/v4/order/oco-cancel` names its OCO like an order cancel,
//! [`super::CancelRequest`].)
//!
//! Field problems answer together with code 30 in the cancel's wording (`Market field is
//! required.`, `Id field is required.`, `OtoId field should be an integer.`); an unknown
//! market is 31 `Market is not available.`, as the spec's error lists say.

use serde_json::{Map, Value};

use super::fields::{Fields, Wording};
use super::market_name;
use super::market_rule::MarketRule;
use crate::config::Markets;
use crate::wire::Rejection;

/// A conditional order named by its market and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroupRef {
    pub(crate) market: String,
    /// The OCO's or the OTO's id, as `POST /api/v4/conditional-orders` lists them.
    pub(crate) id: u64,
}

/// `conditional-cancel`'s body: its id under `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConditionalCancel(pub(crate) GroupRef);

/// `oto-cancel`'s body: its id under `otoId`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OtoCancel(pub(crate) GroupRef);

impl MarketRule for ConditionalCancel {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        parse(map, markets, "id").map(Self)
    }
}

impl MarketRule for OtoCancel {
    fn parse(map: &Map<String, Value>, markets: &Markets) -> Result<Self, Rejection> {
        parse(map, markets, "otoId").map(Self)
    }
}

/// `market` and the id under `field`, both required.
fn parse(map: &Map<String, Value>, markets: &Markets, field: &str) -> Result<GroupRef, Rejection> {
    let mut fields = Fields::new(map, Wording::Field);
    let market = fields.required_market();
    let id = match fields.integer::<u64>(field) {
        None => {
            fields.required(field);
            None
        }
        Some(id) => id,
    };
    fields.finish(30)?;
    let (market, id) = market_name::available(market, id, markets)?;
    Ok(GroupRef { market, id })
}
