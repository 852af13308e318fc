//! The public market information over real HTTP — `GET /api/v4/public/markets`, `…/collateral/
//! markets`, `…/futures` — against the spec's shapes, and every order type checked by exactly
//! the rules it publishes: a property test states the spec's "Order validation rules" from
//! the published JSON alone (`stockPrec`, `moneyPrec`, `minAmount`, `minTotal`, `maxTotal`)
//! and compares each verdict with the sandbox's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::sync::LazyLock;

use common::*;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use txc_sandbox::{AccountConfig, Fault, Route, Sandbox};

#[test]
fn the_markets_publish_their_rules_in_the_spec_shape() {
    let sandbox = Sandbox::start().unwrap();
    let reply = get(&sandbox, "/api/v4/public/markets");
    assert_eq!(reply.status, 200);
    let required: Vec<String> =
        serde_json::from_str(&entry(spec_examples(), "marketsRequired")).unwrap();
    for i in 0..3 {
        assert_eq!(key_order(&entry(&reply.text(), &i.to_string())), required);
    }
    let markets = reply.json();
    let names: Vec<&str> = markets
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["BTC_PERP", "BTC_USDT", "ETH_USDT"]);
    assert_eq!(
        markets[1],
        json!({
            "name": "BTC_USDT", "stock": "BTC", "money": "USDT", "stockPrec": "6",
            "moneyPrec": "2", "feePrec": "8", "makerFee": "0.05", "takerFee": "0.1",
            "minAmount": "0.001", "minTotal": "5", "maxTotal": "10000000000",
            "tradesEnabled": true, "isCollateral": true, "type": "spot",
            "isTradFiFutures": false, "delistedAt": null
        })
    );
    assert_eq!(
        (
            markets[0]["type"].as_str(),
            markets[0]["money"].as_str(),
            markets[0]["moneyPrec"].as_str()
        ),
        (Some("futures"), Some("USDT"), Some("1"))
    );

    let collateral = get(&sandbox, "/api/v4/public/collateral/markets");
    same_keys(
        &collateral.text(),
        &entry(spec_examples(), "collateralMarkets"),
        &[],
        &[],
    );
    assert_eq!(
        collateral.json(),
        json!({"success": true, "message": null, "result": ["BTC_USDT", "ETH_USDT"]})
    );

    sandbox.set_price("BTC_PERP", "66000").unwrap();
    let futures = get(&sandbox, "/api/v4/public/futures");
    let example = entry(spec_examples(), "futures");
    same_keys(&futures.text(), &example, &[], &[]);
    same_keys(
        &at_path(&futures.text(), &["result", "0"]),
        &at_path(&example, &["result", "0"]),
        &[],
        &[],
    );
    let perp = &futures.json()["result"][0];
    assert_eq!(
        (
            perp["ticker_id"].as_str(),
            perp["last_price"].as_str(),
            perp["bid"].as_str()
        ),
        (Some("BTC_PERP"), Some("66000"), Some("66000"))
    );
    // A resting bid is the best bid.
    LIMIT.send(
        &sandbox,
        PARTNER,
        &limit_fields("BTC_PERP", "buy", "0.01", "65000.5"),
    );
    assert_eq!(
        get(&sandbox, "/api/v4/public/futures").json()["result"][0]["bid"],
        "65000.5"
    );
    assert_eq!(sandbox.stats().requests, 5);
}

#[test]
fn the_market_routes_take_faults_the_time_does_not() {
    let sandbox = faulty(Route::Markets, Fault::Unavailable, Some(1));
    let reply = get(&sandbox, "/api/v4/public/markets");
    assert_eq!((reply.status, reply.body.is_empty()), (503, true));
    assert_eq!(
        get(&sandbox, "/api/v4/public/markets").status,
        200,
        "used up"
    );
    sandbox.inject_fault(Route::All, Fault::TruncatedBody, None);
    assert!(
        get(&sandbox, "/api/v4/public/time").json()["time"]
            .as_u64()
            .is_some()
    );
    let cut = get(&sandbox, "/api/v4/public/futures");
    assert!(
        serde_json::from_slice::<Value>(&cut.body).is_err(),
        "half a body"
    );
    assert_eq!(sandbox.stats().faults_injected, 2);
}

/// A sandbox with the default markets and a key rich enough that no order is short of margin.
static SANDBOX: LazyLock<Sandbox> = LazyLock::new(|| {
    Sandbox::builder()
        .account(
            AccountConfig::new(PARTNER.0, PARTNER.1)
                .partner(true)
                .leverage(100)
                .balance("USDT", "1000000000000000"),
        )
        .start()
        .unwrap()
});

/// The published rules, by market.
static PUBLISHED: LazyLock<Value> =
    LazyLock::new(|| get(&SANDBOX, "/api/v4/public/markets").json());

fn published(market: &str) -> &'static Value {
    PUBLISHED
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == market)
        .unwrap()
}

fn number(value: &Value) -> Decimal {
    value.as_str().unwrap().parse().unwrap()
}

fn places(value: Decimal) -> u32 {
    value.normalize().scale()
}

/// The spec's "Order validation rules", from the published record alone: the code the order
/// breaks first (the amount's 32, a price's 33, the total's 32), or `None`.
fn reference(market: &Value, amount: Decimal, prices: &[Decimal], at: Decimal) -> Option<i64> {
    let stock_prec: u32 = market["stockPrec"].as_str().unwrap().parse().unwrap();
    let money_prec: u32 = market["moneyPrec"].as_str().unwrap().parse().unwrap();
    if amount < number(&market["minAmount"]) || places(amount) > stock_prec {
        return Some(32);
    }
    if prices.iter().any(|p| places(*p) > money_prec) {
        return Some(33);
    }
    let total = amount * at;
    let max = number(&market["maxTotal"]);
    if total < number(&market["minTotal"]) || (!max.is_zero() && total > max) {
        return Some(32);
    }
    None
}

fn decimal(mantissa: u64, scale: u32) -> Decimal {
    Decimal::new(i64::try_from(mantissa).unwrap(), scale)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_order_type_is_checked_by_the_published_rules(
        market in prop_oneof![Just("BTC_USDT"), Just("ETH_USDT"), Just("BTC_PERP")],
        kind in 0..4usize,
        amount in (1..200_000u64, 0..9u32),
        price in (1..10_000_000u64, 0..5u32),
    ) {
        let rules = published(market);
        let amount = decimal(amount.0, amount.1);
        let price = decimal(price.0, price.1);
        // The market's price, which no test moves.
        let current = Decimal::from(if market == "ETH_USDT" { 3500 } else { 65000 });
        // Sells: they rest or fill, but never run out of margin; the verdict is what counts.
        let side = "sell";
        let (endpoint, body, prices, at) = match kind {
            0 => (MARKET, fields(market, side, &amount.to_string()), vec![], current),
            1 => (TRIGGER, format!(r#"{},"activation_price":"{price}""#, fields(market, side, &amount.to_string())), vec![price], price),
            2 => (LIMIT, limit_fields(market, side, &amount.to_string(), &price.to_string()), vec![price], price),
            _ => (STOP_LIMIT, format!(r#"{},"activation_price":"{price}""#, limit_fields(market, side, &amount.to_string(), &price.to_string())), vec![price], price),
        };
        let reply = endpoint.send(&SANDBOX, PARTNER, &body);
        let answer = reply.json();
        let expected = reference(rules, amount, &prices, at);
        match expected {
            Some(code) => prop_assert_eq!(&answer["code"], &json!(code), "{}: {}", body, answer),
            None => prop_assert_eq!(reply.status, 200, "{}: {}", body, answer),
        }
    }
}
