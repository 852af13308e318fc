//! State after runs of orders (balances, positions), the control API, reset, rate limits and
//! the builder.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use serde_json::json;
use txc_sandbox::{AccountConfig, MarketConfig, PositionMode, Sandbox, SandboxError};

/// A hedge-mode BTC_PERP order body on `position`.
fn hedge(side: &str, amount: &str, position: &str) -> String {
    format!(
        r#"{},"positionSide":"{position}""#,
        fields("BTC_PERP", side, amount)
    )
}

#[test]
fn one_way_run() {
    let sandbox = Sandbox::start().unwrap();
    let place = |side, amount| {
        let reply = MARKET.send(&sandbox, PARTNER, &fields("BTC_USDT", side, amount));
        assert_eq!(reply.status, 200, "{}", reply.text());
    };
    place("buy", "0.1"); // margin 650, fee 6.5
    sandbox.set_price("BTC_USDT", "67000").unwrap();
    place("buy", "0.1"); // margin 670, fee 6.7; entry 66000
    // The partner's one position (amount, entry price, margin) and its USDT balance.
    let standing = || {
        let positions = sandbox.positions(PARTNER.0);
        assert_eq!(positions.len(), 1);
        let balance = sandbox.balance(PARTNER.0, "USDT").unwrap();
        let [p] = &positions[..] else { unreachable!() };
        [
            p.amount.clone(),
            p.entry_price.clone(),
            p.margin.clone(),
            balance,
        ]
    };
    assert_eq!(standing(), ["0.2", "66000", "1320", "8666.8"]);

    sandbox.set_price("BTC_USDT", "70000").unwrap();
    place("sell", "0.3"); // closes 0.2 (+800 pnl, 1320 released), opens 0.1 short (700); fee 21
    assert_eq!(standing(), ["-0.1", "70000", "700", "10065.8"]);

    place("buy", "0.1"); // closes the short: +700 released, fee 7
    assert!(sandbox.positions(PARTNER.0).is_empty());
    assert_eq!(
        sandbox.balance(PARTNER.0, "USDT").as_deref(),
        Some("10758.8")
    );
    // Everything paid: 10000 + 800 profit − (6.5 + 6.7 + 21 + 7) fees.
    assert_eq!(sandbox.order_records().len(), 4);
    assert_eq!(sandbox.stats().accepted_orders, 4);
}

#[test]
fn hedge_run() {
    let sandbox = Sandbox::start().unwrap();
    let place = |side, amount, position| {
        let reply = MARKET.send(&sandbox, REGULAR, &hedge(side, amount, position));
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply
    };
    place("buy", "0.1", "LONG");
    let reply = place("sell", "0.05", "SHORT");
    assert_eq!(reply.json()["positionSide"], "SHORT");
    let positions = sandbox.positions(REGULAR.0);
    assert_eq!(positions.len(), 2);
    assert_eq!(
        (
            positions[0].position_side.as_str(),
            positions[0].amount.as_str()
        ),
        ("LONG", "0.1")
    );
    assert_eq!(
        (
            positions[1].position_side.as_str(),
            positions[1].amount.as_str()
        ),
        ("SHORT", "-0.05")
    );
    // 10000 − 650 − 6.5 − 325 − 3.25
    assert_eq!(
        sandbox.balance(REGULAR.0, "USDT").as_deref(),
        Some("9015.25")
    );

    // Buying on SHORT closes the short only: more than the short is cut to its size.
    let reply = place("buy", "0.2", "SHORT");
    assert_eq!(reply.json()["amount"], "0.05");
    let positions = sandbox.positions(REGULAR.0);
    assert_eq!(positions.len(), 1);
    assert_eq!(positions[0].position_side, "LONG");
    // Selling on LONG closes the long.
    place("sell", "0.1", "LONG");
    assert!(sandbox.positions(REGULAR.0).is_empty());
    // Nothing left to close on LONG: 116.
    let reply = MARKET.send(&sandbox, REGULAR, &hedge("sell", "0.1", "LONG"));
    assert_eq!(reply.json()["code"], 116);
}

#[test]
fn control_api() {
    let sandbox = Sandbox::start().unwrap();
    let reply = post_json(
        &sandbox,
        "/sandbox/v1/balance",
        &json!({"apiKey": PARTNER.0, "ticker": "USDT", "amount": "500"}),
    );
    assert_eq!(reply.status, 200);
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("500"));
    assert_eq!(
        MARKET
            .send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.1"))
            .json()["code"],
        10
    );
    assert_eq!(
        MARKET
            .send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.01"))
            .status,
        200
    );

    let reply = get(&sandbox, "/sandbox/v1/orders");
    let orders = reply.json();
    assert_eq!(orders.as_array().unwrap().len(), 1);
    assert_eq!(orders[0]["clientOrderId"], "", "the wire form");

    let reply = get(&sandbox, &format!("/sandbox/v1/accounts/{}", PARTNER.0));
    insta::assert_json_snapshot!("account_view", reply.snapshot());

    let stats = get(&sandbox, "/sandbox/v1/stats").json();
    assert_eq!(stats["requests"], 2);
    assert_eq!(stats["acceptedOrders"], 1);
    assert_eq!(stats["rejectionsByCode"]["10"], 1);

    for (path, body) in [
        (
            "/sandbox/v1/price",
            json!({"market": "NOPE_USDT", "price": "1"}),
        ),
        (
            "/sandbox/v1/price",
            json!({"market": "BTC_USDT", "price": "-1"}),
        ),
        ("/sandbox/v1/price", json!({"market": "BTC_USDT"})),
        (
            "/sandbox/v1/balance",
            json!({"apiKey": "nobody", "ticker": "USDT", "amount": "1"}),
        ),
    ] {
        let reply = post_json(&sandbox, path, &body);
        assert!(
            matches!(reply.status, 400 | 404),
            "{path} {body}: {}",
            reply.status
        );
        assert!(reply.json()["message"].is_string());
    }
    assert_eq!(get(&sandbox, "/sandbox/v1/accounts/nobody").status, 404);
    assert_eq!(get(&sandbox, "/sandbox/v1/reset").status, 405);

    let reply = post_json(&sandbox, "/sandbox/v1/reset", &json!({}));
    assert_eq!(reply.json(), json!({"reset": true}));
    assert!(sandbox.order_records().is_empty());
    assert_eq!(sandbox.balance(PARTNER.0, "USDT").as_deref(), Some("10000"));
    // Control calls are not counted as exchange requests.
    assert_eq!(sandbox.stats().requests, 0);
}

#[test]
fn reset_restores_everything() {
    let sandbox = Sandbox::start().unwrap();
    let order = fields("BTC_USDT", "buy", "0.01");
    let first = MARKET.send(&sandbox, PARTNER, &order).json()["orderId"].clone();
    sandbox.set_price("BTC_USDT", "70000").unwrap();
    sandbox.set_balance(PARTNER.0, "BTC", "1").unwrap();
    sandbox.inject_fault(
        txc_sandbox::Route::All,
        txc_sandbox::Fault::Unavailable,
        None,
    );

    // A nonce used before the reset is accepted again after it (nonces are reset).
    let body = format!(
        r#"{{"request":"{MARKET_PATH}","nonce":{},"market":"BTC_USDT","side":"buy","amount":"0.01"}}"#,
        next_nonce()
    );
    sandbox.reset();
    assert_eq!(
        send_hand_signed(&sandbox, PARTNER, MARKET_PATH, &body).status,
        200
    );
    sandbox.reset();
    assert_eq!(
        send_hand_signed(&sandbox, PARTNER, MARKET_PATH, &body).status,
        200
    );

    assert_eq!(sandbox.order_records().len(), 1);
    assert_eq!(
        sandbox.order_records()[0]["dealMoney"],
        "650",
        "price reset"
    );
    assert_eq!(sandbox.balance(PARTNER.0, "BTC").as_deref(), Some("0"));
    assert_eq!(
        MARKET.send(&sandbox, PARTNER, &order).json()["orderId"].as_u64(),
        first.as_u64().map(|id| id + 1),
        "ids start again"
    );
    assert_eq!(sandbox.stats().requests, 2);
}

#[test]
fn rate_limits() {
    let sandbox = Sandbox::builder().rate_limits(3, 2).start().unwrap();
    let order = fields("BTC_USDT", "buy", "0.001");
    let statuses: Vec<u16> = (0..5)
        .map(|_| MARKET.send(&sandbox, PARTNER, &order).status)
        .collect();
    assert_eq!(statuses, [200, 200, 200, 429, 429]);
    let reply = MARKET.send(&sandbox, PARTNER, &order);
    insta::assert_json_snapshot!("rate_limited", reply.snapshot());
    // Per key and per endpoint.
    let hedge_order = hedge("buy", "0.001", "LONG");
    assert_eq!(MARKET.send(&sandbox, REGULAR, &hedge_order).status, 200);
    let trigger = format!(r#"{order},"activation_price":"70000""#);
    assert_eq!(TRIGGER.send(&sandbox, PARTNER, &trigger).status, 200);
    let statuses: Vec<u16> = (0..3)
        .map(|_| PLANS.send(&sandbox, PARTNER, "").status)
        .collect();
    assert_eq!(statuses, [200, 200, 429]);
    let stats = sandbox.stats();
    assert_eq!(stats.rate_limited, 4);
    assert_eq!(stats.rejections_by_message["Too many requests."], 4);
    assert_eq!(sandbox.order_records().len(), 5);
    // Reset clears the windows.
    sandbox.reset();
    assert_eq!(MARKET.send(&sandbox, PARTNER, &order).status, 200);
}

#[test]
fn look_up_and_cancel_rate_limits() {
    // The exchange's: 12 000 / 10 s for each look-up, 10 000 for cancel.
    assert_eq!(txc_sandbox::DEFAULT_LOOKUP_RATE_LIMIT, 12_000);
    assert_eq!(txc_sandbox::DEFAULT_CANCEL_RATE_LIMIT, 10_000);
    let sandbox = Sandbox::builder().lookup_rate_limits(2, 1).start().unwrap();
    let statuses = |send: &dyn Fn() -> Reply| (0..3).map(|_| send().status).collect::<Vec<_>>();
    assert_eq!(
        statuses(&|| OPEN_ORDERS.send(&sandbox, PARTNER, "")),
        [200, 200, 429]
    );
    assert_eq!(
        statuses(&|| HISTORY.send(&sandbox, PARTNER, "")),
        [200, 200, 429]
    );
    let cancel_one = || CANCEL.send(&sandbox, PARTNER, r#""market":"BTC_USDT","orderId":1"#);
    assert_eq!(statuses(&cancel_one), [400, 429, 429]);
    // Per key, and the order routes keep theirs.
    assert_eq!(OPEN_ORDERS.send(&sandbox, REGULAR, "").status, 200);
    assert_eq!(
        MARKET
            .send(&sandbox, PARTNER, &fields("BTC_USDT", "buy", "0.001"))
            .status,
        200
    );
    assert_eq!(sandbox.stats().rate_limited, 4);
}

#[test]
fn builder_configuration() {
    let sandbox = Sandbox::builder()
        .clear_defaults()
        .account(
            AccountConfig::new("k1", "s1")
                .position_mode(PositionMode::OneWay)
                .leverage(2)
                .balance("USDC", "1000"),
        )
        .market(
            MarketConfig::new("SOL_USDC", "100")
                .min_amount("0.5")
                .amount_step("0.5")
                .taker_fee("0")
                .collateral("USDC"),
        )
        .start()
        .unwrap();
    let order = |amount: &str| fields("SOL_USDC", "buy", amount);
    assert_eq!(
        MARKET.send(&sandbox, ("k1", "s1"), &order("0.7")).json()["code"],
        32
    );
    let reply = MARKET.send(&sandbox, ("k1", "s1"), &order("1.5"));
    assert_eq!(reply.json()["dealFee"], "0");
    // leverage 2: margin 75
    assert_eq!(sandbox.balance("k1", "USDC").as_deref(), Some("925"));
    assert_eq!(
        MARKET
            .send(&sandbox, ("k1", "s1"), &fields("BTC_USDT", "buy", "1"))
            .json()["code"],
        31
    );
    assert_eq!(
        MARKET.send(&sandbox, PARTNER, &order("1")).status,
        401,
        "defaults cleared"
    );

    for bad in [
        Sandbox::builder().market(MarketConfig::new("BTC_USDT", "-1")),
        Sandbox::builder().market(MarketConfig::new("btc", "1")),
        Sandbox::builder().market(MarketConfig::new("BTC_USDT", "1").taker_fee("1.5")),
        Sandbox::builder().account(AccountConfig::new("", "s")),
        Sandbox::builder().account(AccountConfig::new("k", "s").leverage(0)),
        Sandbox::builder().account(AccountConfig::new("k", "s").balance("USDT", "ten")),
    ] {
        assert!(matches!(bad.start(), Err(SandboxError::Config { .. })));
    }
    assert!(matches!(
        sandbox.set_price("NOPE_X", "1"),
        Err(SandboxError::UnknownMarket(_))
    ));
    assert!(matches!(
        sandbox.set_price("SOL_USDC", "0"),
        Err(SandboxError::InvalidValue { .. })
    ));
    assert!(matches!(
        sandbox.set_balance("nobody", "USDC", "1"),
        Err(SandboxError::UnknownAccount(_))
    ));
    assert_eq!(sandbox.balance("nobody", "USDC"), None);
}
