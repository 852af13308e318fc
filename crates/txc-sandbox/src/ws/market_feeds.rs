//! The two channels of the newer docs, fed from the sandbox's own state: `premiumIndex`
//! (public; the perpetual markets' mark price — the sandbox's last price —, index price,
//! funding rate and next funding time, every 0.5 s) and `ADLQuantile` (private; the account's
//! ADL quantiles, the REST report's, at once on subscribing and then every 30 s).
//!
//! Shapes from the docs' pages (`websocket/market-streams/premium-index.mdx`,
//! `websocket/account-streams/adl-quantile.mdx`): subscribed with no market, one
//! `premiumIndex_update` holds every market's `[market, mark, index, rate, funding_time]`;
//! with named markets, each market comes in its own push with the server's time as a sixth
//! element. An ADL record is `[market, quantile_long, quantile_short]`, `null` for no side.

use std::time::Duration;

use serde_json::{Value, json};

use crate::auth::Exchange;
use crate::wire::time;

/// How often `premiumIndex_update` is pushed (the docs: every 0.5 s).
pub(super) const PREMIUM_INDEX_EVERY: Duration = Duration::from_millis(500);

/// How many premium-index periods make one ADL period (30 s).
pub(super) const ADL_EVERY_TICKS: u64 = 60;

/// Whether `market` is one of the sandbox's perpetual markets.
pub(super) fn is_perpetual(exchange: &Exchange, market: &str) -> bool {
    exchange.markets().get(market).is_some_and(|m| m.futures)
}

/// The `premiumIndex_update` parameters for `markets` (every perpetual market when empty):
/// one push of every record, or one push per named market.
pub(super) fn premium_index(exchange: &Exchange, markets: &[String]) -> Vec<Value> {
    let (records, now) = {
        let locked = exchange.lock();
        (locked.state.futures_records(), exchange.clock().now_us())
    };
    let record = |r: &crate::wire::FuturesRecord| {
        let next_funding_s = r.next_funding_rate_timestamp.parse::<u64>().unwrap_or(0) / 1000;
        vec![
            json!(r.ticker_id),
            json!(r.last_price),
            json!(r.index_price),
            json!(r.funding_rate),
            json!(next_funding_s),
        ]
    };
    if markets.is_empty() {
        let all: Vec<Value> = records.iter().map(|r| Value::Array(record(r))).collect();
        return vec![Value::Array(all)];
    }
    records
        .iter()
        .filter(|r| markets.contains(&r.ticker_id))
        .map(|r| {
            let mut one = record(r);
            one.push(json!(time::seconds(now)));
            Value::Array(one)
        })
        .collect()
}

/// The `ADLQuantile_update` parameters of `api_key`'s positions (on `market` only, if given).
pub(super) fn adl_quantiles(exchange: &Exchange, api_key: &str, market: Option<&str>) -> Value {
    let records = exchange.lock().state.adl_quantiles(api_key);
    Value::Array(
        records
            .into_iter()
            .filter(|r| market.is_none_or(|m| r.market == m))
            .map(|r| json!([r.market, r.long, r.short]))
            .collect(),
    )
}
