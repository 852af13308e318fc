//! The account's reports over HTTP, signed by hand: the closed positions' PnL, the funding
//! history, the ADL quantiles, the executed history and one order's deals — each answer's
//! keys against the spec example's, key by key and in order, decoded by txc-types; each
//! paging rule at its edge; each refusal; each route's faults — and the funding controls.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::time::Duration;

use common::{
    ADL, CLOSED_PNL, EXECUTED, FUNDING, LIMIT, MARKET, ORDER_DEALS, PARTNER, at_path, code, entry,
    fields, get, limit_fields, post_json, same_keys, spec_examples,
};
use serde_json::{Value, json};
use txc_sandbox::{AccountConfig, Fault, MarketConfig, Route, Sandbox};
use txc_types::lookups::{ExecutedDeals, OrderDeals};
use txc_types::positions::{ClosedPosition, FundingHistory, MarketAdlQuantile};

/// An account of its own with `balance` USDT, one-way, leverage 10.
const TRADER: (&str, &str) = ("trader", "trader-secret");

/// The defaults plus [`TRADER`] with `balance` USDT.
fn sandbox_with(balance: &str) -> Sandbox {
    Sandbox::builder()
        .account(AccountConfig::new(TRADER.0, TRADER.1).balance("USDT", balance))
        .start()
        .unwrap()
}

/// A market order of `account`, which must be placed; its id.
fn market_order(
    sandbox: &Sandbox,
    account: (&str, &str),
    market: &str,
    side: &str,
    amount: &str,
) -> u64 {
    let reply = MARKET.send(sandbox, account, &fields(market, side, amount));
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["orderId"].as_u64().unwrap()
}

/// The spec example's text at `key` of the fixture.
fn example(key: &str) -> String {
    entry(spec_examples(), key)
}

#[test]
fn closed_pnl_answers_the_spec_shape_and_pages_by_its_rules() {
    let sandbox = sandbox_with("10000");
    assert_eq!(CLOSED_PNL.list(&sandbox, TRADER, ""), Vec::<Value>::new());
    // A perpetual position opened and closed at a profit, then a spot-pair one at a loss.
    market_order(&sandbox, TRADER, "BTC_PERP", "buy", "0.05");
    sandbox.set_price("BTC_PERP", "66000").unwrap();
    market_order(&sandbox, TRADER, "BTC_PERP", "sell", "0.05");
    market_order(&sandbox, TRADER, "BTC_USDT", "sell", "0.02");
    sandbox.set_price("BTC_USDT", "65500").unwrap();
    market_order(&sandbox, TRADER, "BTC_USDT", "buy", "0.02");

    let reply = CLOSED_PNL.send(&sandbox, TRADER, "");
    assert_eq!(reply.status, 200);
    let text = reply.text();
    let records: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(records.len(), 2);
    for i in ["0", "1"] {
        same_keys(
            &entry(&text, i),
            &at_path(spec_examples(), &["closedPnl", "0"]),
            &[],
            &[],
        );
    }
    // Closed in the same second: the later position id first.
    let (spot, perp) = (&records[0], &records[1]);
    assert!(spot["positionId"].as_u64() > perp["positionId"].as_u64());
    // 0.05 × 1 000 − fees 3.25 + 3.3.
    assert_eq!(perp["market"], "BTC_PERP");
    assert_eq!(perp["grossPnl"], "43.45");
    assert_eq!(perp["netPnl"], "43.45");
    assert_eq!(perp["totalTradeFee"], "6.55");
    assert_eq!(perp["totalFunding"], "0");
    assert_eq!(
        (&perp["avgEntryPrice"], &perp["avgExitPrice"]),
        (&json!("65000"), &json!("66000"))
    );
    assert_eq!(
        (&perp["closedSize"], &perp["amount"]),
        (&json!("0.05"), &json!("0"))
    );
    assert_eq!(
        (&perp["side"], &perp["isHedge"]),
        (&json!("BOTH"), &json!(false))
    );
    assert!(perp["openDate"].is_u64() && perp["closeDate"].is_u64());
    // A short: 0.02 × −500 − fees 1.3 + 1.31.
    assert_eq!(spot["grossPnl"], "-12.61");
    // What txc-types reads.
    let decoded: Vec<ClosedPosition> = serde_json::from_str(&text).unwrap();
    assert_eq!(
        decoded[1].gross_pnl.as_ref().map(|d| d.as_str()),
        Some("43.45")
    );
    // The same records the sandbox shows, plus their account.
    let shown = sandbox.closed_position_records();
    assert_eq!(shown.len(), 2);
    assert_eq!(shown[0]["grossPnl"], perp["grossPnl"]);
    assert_eq!(shown[0]["apiKey"], TRADER.0);

    // Pages: fewer than the limit is the last.
    let page = |fields: &str| CLOSED_PNL.list(&sandbox, TRADER, fields);
    assert_eq!(page(r#""limit":1"#), std::slice::from_ref(spot));
    assert_eq!(page(r#""limit":1,"offset":1"#), std::slice::from_ref(perp));
    assert!(page(r#""limit":1,"offset":2"#).is_empty());
    assert_eq!(page(r#""limit":100,"offset":9900"#), Vec::<Value>::new());
    // The window applies to the close time.
    let closed_at = perp["closeDate"].as_u64().unwrap();
    let last = spot["closeDate"].as_u64().unwrap();
    assert_eq!(
        page(&format!(r#""startDate":{closed_at},"endDate":{last}"#)).len(),
        2
    );
    assert_eq!(
        page(&format!(r#""startDate":{}"#, last + 1)),
        Vec::<Value>::new()
    );
    assert!(page(&format!(r#""endDate":{}"#, closed_at - 1)).is_empty());
    // Refusals: code 30, at each edge.
    for bad in [
        r#""limit":101"#.to_owned(),
        r#""limit":0"#.to_owned(),
        r#""offset":-1"#.to_owned(),
        r#""limit":100,"offset":9901"#.to_owned(),
        format!(r#""startDate":{},"endDate":{closed_at}"#, closed_at + 1),
        format!(r#""endDate":{}"#, last + 3_600),
    ] {
        let reply = CLOSED_PNL.send(&sandbox, TRADER, &bad);
        assert_eq!(
            (reply.status, code(&reply)),
            (422, 30),
            "{bad}: {}",
            reply.text()
        );
    }
}

#[test]
fn funding_history_answers_the_spec_shape_and_its_last_page_is_the_short_one() {
    let sandbox = sandbox_with("10000");
    market_order(&sandbox, TRADER, "BTC_PERP", "sell", "0.02");
    let before: f64 = sandbox.balance(TRADER.0, "USDT").unwrap().parse().unwrap();
    // Three funding times, the last at a negative rate.
    let first = sandbox.funding_tick();
    assert_eq!(first.len(), 1);
    assert_eq!(first[0]["fundingAmount"], "0.13"); // a short receives 0.02 × 65 000 × 0.01 %
    assert_eq!(first[0]["apiKey"], TRADER.0);
    sandbox.funding_tick();
    sandbox.set_funding_rate("BTC_PERP", "-0.0003").unwrap();
    sandbox.funding_tick();
    let after: f64 = sandbox.balance(TRADER.0, "USDT").unwrap().parse().unwrap();
    assert!(
        (after - before - (0.13 + 0.13 - 0.39)).abs() < 1e-9,
        "{before} → {after}"
    );

    let reply = FUNDING.send(&sandbox, TRADER, r#""market":"BTC_PERP""#);
    assert_eq!(reply.status, 200);
    let text = reply.text();
    same_keys(&text, &example("fundingHistory"), &[], &[]);
    same_keys(
        &at_path(&text, &["records", "0"]),
        &at_path(spec_examples(), &["fundingHistory", "records", "0"]),
        &[],
        &[],
    );
    let page: FundingHistory = serde_json::from_str(&text).unwrap();
    assert_eq!(page.records.len(), 3);
    assert_eq!((page.limit, page.offset), (Some(100), Some(0)));
    // Newest first; each adds up by txc-types' reference.
    assert_eq!(
        page.records[0].funding_rate.as_ref().map(|d| d.as_str()),
        Some("-0.0003")
    );
    assert_eq!(
        page.records[0].funding_amount.as_ref().map(|d| d.as_str()),
        Some("-0.39")
    );
    assert!(page.records.iter().all(|r| r.adds_up().unwrap()));
    assert!(reply.json().get("total").is_none());
    // Two a page: the second page is short, so it is the last.
    let body = |fields: &str| FUNDING.send(&sandbox, TRADER, fields).json();
    assert_eq!(body(r#""limit":2"#)["records"].as_array().unwrap().len(), 2);
    let last = body(r#""limit":2,"offset":2"#);
    assert_eq!(last["records"].as_array().unwrap().len(), 1);
    assert_eq!((&last["limit"], &last["offset"]), (&json!(2), &json!(2)));
    assert!(
        body(r#""offset":3"#)["records"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // A collateral market with no funding; refusals.
    assert!(
        body(r#""market":"BTC_USDT""#)["records"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    for (bad, want) in [
        (r#""market":"ETH_PERP""#, 31),
        (r#""market":"btc_perp_x""#, 31),
        (r#""limit":101"#, 30),
        (r#""limit":0"#, 30),
        (r#""offset":-1"#, 30),
    ] {
        let reply = FUNDING.send(&sandbox, TRADER, bad);
        assert_eq!(
            (reply.status, code(&reply)),
            (422, want),
            "{bad}: {}",
            reply.text()
        );
    }
    // The futures list publishes the rate and the next funding time.
    let futures = get(&sandbox, "/api/v4/public/futures").json();
    let perp = &futures["result"][0];
    assert_eq!(perp["funding_rate"], "-0.0003");
    assert_eq!(perp["funding_interval_minutes"], 480);
    let next: u64 = perp["next_funding_rate_timestamp"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(next > common::now_ms() + 7 * 3_600_000);
}

#[test]
fn funding_settles_by_itself_at_the_configured_interval() {
    let sandbox = Sandbox::builder()
        .account(AccountConfig::new(TRADER.0, TRADER.1).balance("USDT", "10000"))
        .funding_interval(Duration::from_millis(100))
        .start()
        .unwrap();
    market_order(&sandbox, TRADER, "BTC_PERP", "buy", "0.01");
    common::eventually(|| sandbox.funding_records().len() >= 3);
    let records = FUNDING.send(&sandbox, TRADER, "").json();
    let payments = records["records"].as_array().unwrap();
    assert!(payments.len() >= 3);
    // A long pays 0.01 × 65 000 × 0.01 % each time.
    assert!(payments.iter().all(|p| p["fundingAmount"] == "-0.065"));
    assert_eq!(
        sandbox.stats().funding_payments as usize,
        sandbox.funding_records().len()
    );
}

#[test]
fn adl_quantile_lists_each_perpetual_market_with_a_position() {
    let sandbox = Sandbox::builder()
        .account(AccountConfig::new(TRADER.0, TRADER.1).balance("USDT", "10000"))
        .market(
            MarketConfig::new("ETH_PERP", "3500")
                .min_amount("0.01")
                .amount_step("0.0001"),
        )
        .start()
        .unwrap();
    assert_eq!(ADL.list(&sandbox, TRADER, ""), Vec::<Value>::new());
    market_order(&sandbox, TRADER, "BTC_USDT", "buy", "0.01");
    assert_eq!(ADL.list(&sandbox, TRADER, ""), Vec::<Value>::new());
    market_order(&sandbox, TRADER, "BTC_PERP", "buy", "0.01");
    market_order(&sandbox, TRADER, "ETH_PERP", "sell", "0.1");
    // Another account long on ETH_PERP, at a loss once the price rises: the trader's short
    // is alone on its side, the other's long alone on its.
    market_order(&sandbox, PARTNER, "ETH_PERP", "buy", "0.1");
    sandbox.set_price("ETH_PERP", "3600").unwrap();
    let reply = ADL.send(&sandbox, TRADER, "");
    let text = reply.text();
    assert_eq!(
        reply.json(),
        json!([
            {"market": "BTC_PERP", "long": 4, "short": null},
            {"market": "ETH_PERP", "long": null, "short": 4},
        ])
    );
    same_keys(
        &entry(&text, "0"),
        &at_path(spec_examples(), &["adlQuantile", "0"]),
        &[],
        &[],
    );
    let decoded: Vec<MarketAdlQuantile> = serde_json::from_str(&text).unwrap();
    assert_eq!(decoded[1].short.map(|q| q.get()), Some(4));
}

#[test]
fn executed_history_and_an_order_s_deals_answer_the_spec_shapes() {
    let sandbox = sandbox_with("10000");
    let reply = MARKET.send(
        &sandbox,
        TRADER,
        &format!(
            r#"{},"clientOrderId":"deal-1""#,
            fields("BTC_USDT", "buy", "0.01")
        ),
    );
    let taken = reply.json()["orderId"].as_u64().unwrap();
    let resting = LIMIT.send(
        &sandbox,
        TRADER,
        &limit_fields("BTC_PERP", "buy", "0.02", "64000"),
    );
    let resting = resting.json()["orderId"].as_u64().unwrap();
    sandbox.set_price("BTC_PERP", "63900").unwrap();

    // With a market: a flat list of the schema's fields, in its order.
    let reply = EXECUTED.send(&sandbox, TRADER, r#""market":"BTC_USDT""#);
    assert_eq!(reply.status, 200);
    let text = reply.text();
    same_keys(
        &entry(&text, "0"),
        &example("executedDealProperties"),
        &[],
        &[],
    );
    let flat = reply.json();
    assert_eq!(flat[0]["orderId"], taken);
    assert_eq!(
        (&flat[0]["side"], &flat[0]["role"]),
        (&json!("buy"), &json!(2))
    );
    assert_eq!(
        (&flat[0]["deal"], &flat[0]["fee"]),
        (&json!("650"), &json!("0.65"))
    );
    assert_eq!(flat[0]["clientOrderId"], "deal-1");
    let decoded: ExecutedDeals = serde_json::from_str(&text).unwrap();
    assert_eq!(decoded.deals.len(), 1);
    // Without one: keyed by market, newest first, paged across markets.
    let grouped = EXECUTED.send(&sandbox, TRADER, "").json();
    assert_eq!(grouped["BTC_PERP"][0]["role"], 1);
    assert_eq!(grouped["BTC_USDT"][0]["orderId"], taken);
    let first = EXECUTED.send(&sandbox, TRADER, r#""limit":1"#).json();
    assert_eq!(
        first.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["BTC_PERP"]
    );
    let second = EXECUTED
        .send(&sandbox, TRADER, r#""limit":1,"offset":1"#)
        .json();
    assert_eq!(
        second.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["BTC_USDT"]
    );
    assert_eq!(
        EXECUTED.send(&sandbox, TRADER, r#""offset":2"#).json(),
        json!([])
    );
    // One order by its clientOrderId; one no order carried.
    let lookup = EXECUTED
        .send(&sandbox, TRADER, r#""clientOrderId":"deal-1""#)
        .json();
    assert_eq!(lookup["BTC_USDT"][0]["orderId"], taken);
    assert!(lookup.get("BTC_PERP").is_none());
    let unknown = EXECUTED.send(&sandbox, TRADER, r#""clientOrderId":"nope""#);
    assert_eq!((unknown.status, code(&unknown)), (422, 30));
    assert_eq!(
        unknown.json()["errors"],
        json!({"orderHistory": ["OrderHistory was not found."]})
    );
    for (bad, want) in [
        (r#""limit":501"#, 30),
        (r#""limit":"x""#, 30),
        (r#""market":"BTC-USDT""#, 31),
    ] {
        let reply = EXECUTED.send(&sandbox, TRADER, bad);
        assert_eq!((reply.status, code(&reply)), (422, want), "{bad}");
    }

    // One order's deals: the example's envelope and record, in its order.
    let reply = ORDER_DEALS.send(&sandbox, TRADER, &format!(r#""orderId":{resting}"#));
    assert_eq!(reply.status, 200);
    let text = reply.text();
    same_keys(&text, &example("orderDeals"), &[], &[]);
    same_keys(
        &at_path(&text, &["records", "0"]),
        &at_path(spec_examples(), &["orderDeals", "records", "0"]),
        &[],
        &[],
    );
    let deals: OrderDeals = serde_json::from_str(&text).unwrap();
    assert_eq!(deals.records.len(), 1);
    let deal = &reply.json()["records"][0];
    assert_eq!(
        (&deal["role"], &deal["price"], &deal["amount"]),
        (&json!(1), &json!("64000"), &json!("0.02"))
    );
    // Against the market: the order's own id, as the example's.
    assert_eq!(deal["dealOrderId"], resting);
    assert_eq!(
        (&deal["clientOrderId"], &deal["rpi"]),
        (&json!(""), &json!(false))
    );
    assert_eq!(reply.json()["limit"], 50);
    // Not the account's, unknown: an empty page, not an error.
    for (account, id) in [(PARTNER, resting), (TRADER, 1)] {
        let reply = ORDER_DEALS.send(&sandbox, account, &format!(r#""orderId":{id}"#));
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["records"], json!([]));
    }
    for bad in [
        "",
        r#""orderId":"x""#,
        r#""orderId":1,"limit":0"#,
        r#""orderId":1,"offset":-1"#,
    ] {
        let reply = ORDER_DEALS.send(&sandbox, TRADER, bad);
        assert_eq!((reply.status, code(&reply)), (422, 30), "{bad}");
    }
}

#[test]
fn a_liquidation_shows_in_every_report() {
    let sandbox = sandbox_with("1000");
    market_order(&sandbox, TRADER, "BTC_PERP", "buy", "0.1");
    sandbox.set_price("BTC_PERP", "57900").unwrap();
    let open = common::Endpoint(common::POSITIONS_PATH).list(&sandbox, TRADER, "");
    assert_eq!(open[0]["liquidationState"], "margin_call");
    assert_eq!(open[0]["liquidationPrice"], "56768");
    // A quarter liquidated, then the rest.
    sandbox.set_price("BTC_PERP", "56700").unwrap();
    assert_eq!(sandbox.positions(TRADER.0)[0].amount, "0.075");
    sandbox.set_price("BTC_PERP", "55000").unwrap();
    assert!(sandbox.positions(TRADER.0).is_empty());
    assert_eq!(
        sandbox.balance(TRADER.0, "USDT").as_deref(),
        Some("30.4575")
    );
    let closed = CLOSED_PNL.list(&sandbox, TRADER, "");
    assert_eq!(closed[0]["grossPnl"], "-969.5425");
    // The liquidation orders' deals, sells as takers, newest first.
    let deals = EXECUTED
        .send(&sandbox, TRADER, r#""market":"BTC_PERP""#)
        .json();
    let sells: Vec<&Value> = deals
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["side"] == "sell")
        .collect();
    assert_eq!(sells.len(), 3);
    assert!(sells.iter().all(|d| d["role"] == 2));
    let history = common::Endpoint(common::POSITION_HISTORY_PATH).list(&sandbox, TRADER, "");
    assert_eq!(history[0]["liquidationState"], "liquidation");
    assert_eq!(history[0]["amount"], "0");
    // The order history shows the liquidation orders: reduce-only market orders.
    let orders = common::HISTORY.send(&sandbox, TRADER, "").json();
    let liquidations = orders["BTC_PERP"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["side"] == "sell" && o["reduceOnly"] == true)
        .count();
    assert_eq!(liquidations, 3);
}

#[test]
fn every_report_route_is_faultable() {
    let sandbox = sandbox_with("10000");
    market_order(&sandbox, TRADER, "BTC_PERP", "buy", "0.01");
    sandbox.funding_tick();
    for (route, endpoint, body) in [
        (Route::ClosedPnl, CLOSED_PNL, ""),
        (Route::FundingHistory, FUNDING, ""),
        (Route::AdlQuantile, ADL, ""),
        (Route::ExecutedHistory, EXECUTED, ""),
        (Route::OrderDeals, ORDER_DEALS, r#""orderId":1"#),
    ] {
        sandbox.inject_fault(route, Fault::Unavailable, Some(1));
        assert_eq!(
            endpoint.send(&sandbox, TRADER, body).status,
            503,
            "{route:?}"
        );
        assert_eq!(
            endpoint.send(&sandbox, TRADER, body).status,
            200,
            "{route:?}"
        );
    }
    // A lagging read answers from the records as they were an hour ago: none yet.
    sandbox.inject_fault(
        Route::FundingHistory,
        Fault::Lagging(Duration::from_secs(3600)),
        Some(1),
    );
    assert_eq!(
        FUNDING.send(&sandbox, TRADER, "").json()["records"],
        json!([])
    );
    assert_eq!(
        FUNDING.send(&sandbox, TRADER, "").json()["records"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    sandbox.inject_fault(
        Route::ExecutedHistory,
        Fault::Lagging(Duration::from_secs(3600)),
        Some(1),
    );
    assert_eq!(EXECUTED.send(&sandbox, TRADER, "").json(), json!([]));
}

#[test]
fn the_funding_controls_tick_and_set_rates() {
    let sandbox = sandbox_with("10000");
    market_order(&sandbox, TRADER, "BTC_PERP", "buy", "0.01");
    let reply = post_json(
        &sandbox,
        "/sandbox/v1/funding-rate",
        &json!({"market": "BTC_PERP", "rate": "0.0002"}),
    );
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json(),
        json!({"market": "BTC_PERP", "rate": "0.0002"})
    );
    let reply = post_json(&sandbox, "/sandbox/v1/funding", &json!({}));
    assert_eq!(reply.status, 200);
    let payments = reply.json()["payments"].clone();
    assert_eq!(payments.as_array().unwrap().len(), 1);
    assert_eq!(payments[0]["fundingAmount"], "-0.13");
    assert_eq!(payments[0]["apiKey"], TRADER.0);
    for (body, status) in [
        (json!({"market": "BTC_PERP", "rate": "1e-4"}), 400),
        (json!({"market": "BTC_USDT", "rate": "0.1"}), 400),
        (json!({"market": "NOPE_PERP", "rate": "0.1"}), 404),
        (json!({"market": "BTC_PERP"}), 400),
    ] {
        let reply = post_json(&sandbox, "/sandbox/v1/funding-rate", &body);
        assert_eq!(reply.status, status, "{body}: {}", reply.text());
    }
    // A reset restores the configured rate and forgets the payments.
    sandbox.reset();
    assert!(sandbox.funding_records().is_empty());
    let futures = get(&sandbox, "/api/v4/public/futures").json();
    assert_eq!(futures["result"][0]["funding_rate"], "0.0001");
}
