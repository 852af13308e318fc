//! The two channels of the newer docs on the sandbox's WebSocket: `premiumIndex` (public,
//! every 0.5 s; one push of every market, or one per named market with the server's time) and
//! `ADLQuantile` (private; at once on subscribing), each push decoded by txc-types too.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::socket::{connect, next_of, request, token};
use common::{MARKET, PARTNER, fields};
use serde_json::json;
use txc_sandbox::Sandbox;
use txc_types::events::{AdlQuantiles, PremiumIndexes};

#[test]
fn the_premium_index_is_public_and_pushed_for_every_or_each_named_market() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = connect(&sandbox);
    // No `authorize`: a public channel.
    let ok = request(&mut socket, 1, "premiumIndex_subscribe", json!([]));
    assert_eq!(ok["result"], json!({"status": "success"}), "{ok}");
    let all = next_of(&mut socket, "premiumIndex_update");
    assert!(all["id"].is_null());
    let decoded = PremiumIndexes::from_params(&all["params"].to_string()).unwrap();
    let btc = decoded
        .records
        .iter()
        .find(|r| r.market.as_str() == "BTC_PERP")
        .unwrap();
    assert_eq!(btc.mark_price.as_str(), "65000");
    assert!(btc.server_time.is_none());
    assert!(btc.next_funding_seconds().unwrap() > 1_700_000_000);
    assert!(
        decoded
            .records
            .iter()
            .all(|r| r.market.as_str().ends_with("_PERP")),
        "perpetual markets only"
    );
    // Named markets: one push per market, with the server's time.
    let named = request(
        &mut socket,
        2,
        "premiumIndex_subscribe",
        json!(["BTC_PERP"]),
    );
    assert_eq!(named["result"]["status"], "success");
    let one = loop {
        let frame = next_of(&mut socket, "premiumIndex_update");
        if frame["params"][0].is_string() {
            break frame;
        }
    };
    let decoded = PremiumIndexes::from_params(&one["params"].to_string()).unwrap();
    assert_eq!(decoded.records.len(), 1);
    assert!(decoded.records[0].server_time.is_some());
    // A spot market is refused.
    let spot = request(
        &mut socket,
        3,
        "premiumIndex_subscribe",
        json!(["BTC_USDT"]),
    );
    assert_eq!(spot["error"]["code"], 1);
    let off = request(&mut socket, 4, "premiumIndex_unsubscribe", json!([]));
    assert_eq!(off["result"]["status"], "success");
}

#[test]
fn the_adl_quantiles_are_private_and_pushed_at_once() {
    let sandbox = Sandbox::start().unwrap();
    let bought = MARKET.send(&sandbox, PARTNER, &fields("BTC_PERP", "buy", "0.01"));
    assert_eq!(bought.status, 200, "{}", bought.text());
    let mut socket = connect(&sandbox);
    let early = request(&mut socket, 1, "ADLQuantile_subscribe", json!([]));
    assert_eq!(early["error"]["code"], 6, "private: authorize first");
    let token = token(&sandbox, PARTNER);
    request(&mut socket, 2, "authorize", json!([token, "public"]));
    let ok = request(&mut socket, 3, "ADLQuantile_subscribe", json!(["BTC_PERP"]));
    assert_eq!(ok["result"]["status"], "success");
    let update = next_of(&mut socket, "ADLQuantile_update");
    let decoded = AdlQuantiles::from_params(&update["params"].to_string()).unwrap();
    assert_eq!(decoded.records.len(), 1);
    let record = &decoded.records[0];
    assert_eq!(record.market.as_str(), "BTC_PERP");
    // Alone on its side: the thin-market extreme, 4; no short side.
    assert_eq!(record.long.map(|q| q.get()), Some(4));
    assert_eq!(record.short, None);
    let spot = request(&mut socket, 4, "ADLQuantile_subscribe", json!(["BTC_USDT"]));
    assert_eq!(spot["error"]["code"], 1);
}
