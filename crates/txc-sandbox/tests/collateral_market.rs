//! `POST /api/v4/order/collateral/market` over real HTTP: the filled order's shape, the
//! leniency of the live server, every validation answer, and that rejections change nothing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use txc_sandbox::Sandbox;
use txc_sign::decode;
use txc_types::{CollateralMarketOrder, OrderStatus, OrderType, PositionSide, Side, Stp};

#[test]
fn fills_at_the_market_price() {
    let sandbox = Sandbox::start().unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap();
    let reply = send(&sandbox, PARTNER, &order, true);
    insta::assert_json_snapshot!("market_order_filled", reply.snapshot(), {
        ".body.timestamp" => "[timestamp]",
        ".body.orderId" => "[orderId]",
    });

    let placed = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap();
    assert_eq!(placed.status, Some(OrderStatus::Filled));
    assert_eq!(placed.order_type, Some(OrderType::Market));
    assert_eq!(placed.client_order_id, None, "\"\" decodes as none");
    assert_eq!(reply.json()["clientOrderId"], "");
    assert_eq!(reply.json()["oto"], serde_json::Value::Null);
    assert!(placed.timestamp.unwrap() > 1.7e9);
    assert_eq!(sandbox.orders(), vec![placed]);
}

#[test]
fn oto_and_client_order_id() {
    let sandbox = Sandbox::start().unwrap();
    let order = CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "0.002")
        .client_order_id("order-1.a_b")
        .stop_loss("70000")
        .take_profit("60000")
        .stp(Stp::CancelOld)
        .build()
        .unwrap();
    let reply = send(&sandbox, PARTNER, &order, true);
    insta::assert_json_snapshot!("market_order_oto", reply.snapshot(), {
        ".body.timestamp" => "[timestamp]",
        ".body.orderId" => "[orderId]",
        ".body.oto.otoId" => "[otoId]",
    });
    let placed = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap();
    assert_eq!(placed.client_order_id.as_deref(), Some("order-1.a_b"));
    assert_eq!(placed.oto.unwrap().stop_loss.as_deref(), Some("70000"));

    // A filled market order does not hold its client order id.
    assert_eq!(send(&sandbox, PARTNER, &order, true).status, 200);
}

#[test]
fn hand_made_bodies_as_the_live_server_accepts() {
    let sandbox = Sandbox::start().unwrap();
    // Reordered keys, string nonce, lower-case positionSide, legacy stp, empty clientOrderId.
    let nonce = next_nonce();
    let body = format!(
        r#"{{"amount":"0.5","stp":"cancel_both","positionSide":"long","clientOrderId":"","side":"buy","market":"ETH_USDT","nonceWindow":true,"nonce":"{nonce}","request":"{MARKET_PATH}"}}"#
    );
    let reply = send_hand_signed(&sandbox, REGULAR, MARKET_PATH, &body);
    insta::assert_json_snapshot!("market_order_hand_made_hedge", reply.snapshot(), {
        ".body.timestamp" => "[timestamp]",
        ".body.orderId" => "[orderId]",
    });
    let json = reply.json();
    assert_eq!(json["positionSide"], "LONG");
    assert_eq!(json["stp"], "cb");

    // One-way mode ignores positionSide and answers BOTH.
    let reply = send_fields(
        &sandbox,
        PARTNER,
        MARKET_PATH,
        r#""market":"ETH_USDT","side":"sell","amount":"0.5","positionSide":"SHORT","stp":"cancel_new""#,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["positionSide"], "BOTH");
    assert_eq!(reply.json()["stp"], "cn");
}

#[test]
fn validation_answers() {
    let sandbox = Sandbox::start().unwrap();
    let cases: &[(&str, (&str, &str), &str)] = &[
        (
            "unknown_market",
            PARTNER,
            r#""market":"DOGE_USDT","side":"buy","amount":"1""#,
        ),
        (
            "malformed_market",
            PARTNER,
            r#""market":"btc-usdt","side":"buy","amount":"1""#,
        ),
        ("missing_market", PARTNER, r#""side":"buy","amount":"1""#),
        (
            "amount_below_min",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.0005""#,
        ),
        (
            "amount_off_step",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.0010001""#,
        ),
        (
            "amount_below_min_and_off_step",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.0000001""#,
        ),
        (
            "amount_not_a_number",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"1e3""#,
        ),
        (
            "amount_zero",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0""#,
        ),
        (
            "amount_json_number",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":0.01"#,
        ),
        (
            "missing_amount",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy""#,
        ),
        (
            "stop_loss_not_a_number",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","stopLoss":"-1""#,
        ),
        (
            "take_profit_zero",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","takeProfit":"0.0""#,
        ),
        (
            "client_order_id_bad_chars",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","clientOrderId":"a b/c""#,
        ),
        (
            "client_order_id_too_long",
            PARTNER,
            &format!(
                r#""market":"BTC_USDT","side":"buy","amount":"0.01","clientOrderId":"{}""#,
                "x".repeat(65)
            ),
        ),
        (
            "reduce_only_with_stop_loss",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","reduceOnly":true,"stopLoss":"50000""#,
        ),
        (
            "reduce_only_not_boolean",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","reduceOnly":"true""#,
        ),
        (
            "invalid_side",
            PARTNER,
            r#""market":"BTC_USDT","side":"long","amount":"0.01""#,
        ),
        (
            "invalid_stp",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","stp":"never""#,
        ),
        (
            "invalid_position_side",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","positionSide":"UP""#,
        ),
        (
            "hedge_without_position_side",
            REGULAR,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01""#,
        ),
        (
            "hedge_position_side_both",
            REGULAR,
            r#""market":"BTC_USDT","side":"buy","amount":"0.01","positionSide":"BOTH""#,
        ),
        (
            "reduce_only_without_position",
            PARTNER,
            r#""market":"BTC_USDT","side":"sell","amount":"0.01","reduceOnly":true"#,
        ),
        (
            "hedge_close_without_position",
            REGULAR,
            r#""market":"BTC_USDT","side":"sell","amount":"0.01","positionSide":"LONG""#,
        ),
        (
            "not_enough_balance",
            PARTNER,
            r#""market":"BTC_USDT","side":"buy","amount":"2""#,
        ),
    ];
    for (name, account, fields) in cases {
        let reply = send_fields(&sandbox, *account, MARKET_PATH, fields);
        insta::assert_json_snapshot!(*name, reply.snapshot());
    }
    // Nothing changed.
    assert!(sandbox.orders().is_empty());
    assert!(sandbox.positions(PARTNER.0).is_empty());
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));
    assert_eq!(sandbox.balance(REGULAR.0, "USDT").as_deref(), Some("10000"));
    let stats = sandbox.stats();
    assert_eq!(stats.rejections, u64::try_from(cases.len()).unwrap());
    assert_eq!(stats.rejections_by_code[&32], 7);
    assert_eq!(stats.rejections_by_code[&10], 1);
    assert_eq!(
        stats.rejections_by_message["Validation failed"],
        u64::try_from(cases.len()).unwrap() - 1
    );
}

#[test]
fn reduce_only_needs_the_opposite_position() {
    let sandbox = Sandbox::start().unwrap();
    let buy = |amount: &str, reduce: bool| {
        send_fields(
            &sandbox,
            PARTNER,
            MARKET_PATH,
            &format!(
                r#""market":"BTC_PERP","side":"buy","amount":"{amount}","reduceOnly":{reduce}"#
            ),
        )
    };
    let sell = |amount: &str, reduce: bool| {
        send_fields(
            &sandbox,
            PARTNER,
            MARKET_PATH,
            &format!(
                r#""market":"BTC_PERP","side":"sell","amount":"{amount}","reduceOnly":{reduce}"#
            ),
        )
    };
    assert_eq!(buy("0.01", false).status, 200);
    // Same side: rejected.
    assert_eq!(buy("0.01", true).json()["code"], 116);
    // More than the position: rejected.
    assert_eq!(sell("0.02", true).json()["code"], 116);
    let reply = sell("0.004", true);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["reduceOnly"], true);
    let positions = sandbox.positions(PARTNER.0);
    assert_eq!(positions.len(), 1);
    assert_eq!(positions[0].amount, "0.006");
    assert_eq!(positions[0].position_side, PositionSide::Both);
}

#[test]
fn sdk_decoder_reads_every_answer() {
    let sandbox = Sandbox::start().unwrap();
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.0005")
        .build()
        .unwrap();
    let reply = send(&sandbox, PARTNER, &order, true);
    let error = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap_err();
    let api = error.api().unwrap();
    assert_eq!((api.status, api.code), (422, Some(32)));
    assert_eq!(
        api.errors["amount"],
        vec!["Given amount is less than min amount 0.001"]
    );

    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "5")
        .build()
        .unwrap();
    let reply = send(&sandbox, PARTNER, &order, true);
    let error = decode::<CollateralMarketOrder>(reply.status, &reply.body).unwrap_err();
    assert_eq!(
        error.api().unwrap().class,
        txc_sign::ApiErrorClass::InsufficientBalance
    );
}
