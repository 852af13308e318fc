//! What the public market routes show: each market's published rules (`GET
//! /api/v4/public/markets`), the collateral markets' names and the futures markets (`GET
//! /api/v4/public/collateral/markets`, `GET /api/v4/public/futures`) at the current prices.

use rust_decimal::Decimal;

use super::State;
use crate::config::{FEE_PRECISION, MarketSpec};
use crate::wire::{FuturesRecord, MarketRecord, Side, decimal};

/// The leverages a futures market lists among its brackets.
const LEVERAGES: [u64; 8] = [1, 2, 3, 5, 10, 20, 50, 100];

impl State {
    /// Every market's rules, in name order.
    pub(crate) fn market_records(&self) -> Vec<MarketRecord> {
        self.markets
            .in_name_order()
            .into_iter()
            .map(market_record)
            .collect()
    }

    /// The collateral (not futures) markets' names, in name order.
    pub(crate) fn collateral_market_names(&self) -> Vec<String> {
        self.markets
            .in_name_order()
            .into_iter()
            .filter(|m| !m.futures)
            .map(|m| m.name.clone())
            .collect()
    }

    /// The futures markets at their current prices, in name order; `bid` and `ask` the book's
    /// best, else the price; the funding rate the next funding time charges, that time, and
    /// the interval in whole minutes (`0` for an interval shortened below a minute).
    pub(crate) fn futures_records(&self) -> Vec<FuturesRecord> {
        let next_funding = self.funding.next_us() / 1_000;
        let interval_minutes = self.funding.interval_us() / 60_000_000;
        self.markets
            .in_name_order()
            .into_iter()
            .filter(|m| m.futures)
            .map(|m| {
                let price = self.price(&m.name).unwrap_or(m.price);
                let best = |side| {
                    let at = self.orders.best(&m.name, side).map_or(price, |(at, _)| at);
                    decimal::text(at)
                };
                FuturesRecord {
                    ticker_id: m.name.clone(),
                    stock_currency: m.stock.clone(),
                    money_currency: m.money.clone(),
                    last_price: decimal::text(price),
                    stock_volume: "0".to_owned(),
                    money_volume: "0".to_owned(),
                    bid: best(Side::Buy),
                    ask: best(Side::Sell),
                    high: decimal::text(price),
                    low: decimal::text(price),
                    product_type: "Perpetual",
                    open_interest: "0".to_owned(),
                    index_price: decimal::text(price),
                    index_name: m.stock.clone(),
                    index_currency: m.stock.clone(),
                    funding_rate: decimal::text(self.funding.rate(&m.name).unwrap_or_default()),
                    funding_cap: "0.0003",
                    funding_floor: "-0.0003",
                    next_funding_rate_timestamp: next_funding.to_string(),
                    brackets: LEVERAGES.iter().map(|l| (l.to_string(), 0)).collect(),
                    max_leverage: 100,
                    funding_interval_minutes: interval_minutes,
                }
            })
            .collect()
    }
}

/// `market`'s published rules: precisions as stringified integers, fees as percentages.
fn market_record(market: &MarketSpec) -> MarketRecord {
    let percent = |rate: Decimal| decimal::text(rate * Decimal::ONE_HUNDRED);
    MarketRecord {
        name: market.name.clone(),
        stock: market.stock.clone(),
        money: market.money.clone(),
        stock_prec: market.stock_prec.to_string(),
        money_prec: market.money_prec.to_string(),
        fee_prec: FEE_PRECISION.to_string(),
        maker_fee: percent(market.maker_fee),
        taker_fee: percent(market.taker_fee),
        min_amount: decimal::text(market.min_amount),
        min_total: decimal::text(market.min_total),
        max_total: decimal::text(market.max_total),
        trades_enabled: true,
        is_collateral: true,
        kind: if market.futures { "futures" } else { "spot" },
        is_trad_fi_futures: false,
        delisted_at: None,
    }
}
