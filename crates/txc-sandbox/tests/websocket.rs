//! The private WebSocket at `GET /ws`, driven by hand with tungstenite: the token route
//! (signed like every private request), `authorize`, `ping`, subscriptions and their errors,
//! the channels fed by an order, the per-connection request limit and the idle close.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::Duration;

use common::socket::{connect, next, request, send};
use common::{LIMIT, MARKET, PARTNER, TOKEN_PATH, limit_fields, send_fields};
use serde_json::{Value, json};
use tungstenite::Message;
use txc_sandbox::{PriceStep, Sandbox, WsFault};

fn token(sandbox: &Sandbox) -> String {
    common::socket::token(sandbox, PARTNER)
}

#[test]
fn the_token_route_is_signed_and_answers_the_documented_shape() {
    let sandbox = Sandbox::start().unwrap();
    let reply = send_fields(&sandbox, PARTNER, TOKEN_PATH, "");
    assert_eq!(reply.status, 200);
    let body = reply.json();
    assert_eq!(body.as_object().unwrap().len(), 1);
    assert!(!body["websocket_token"].as_str().unwrap().is_empty());
    // Unsigned: the exchange's authentication answer.
    let unsigned = common::send_raw(&sandbox, TOKEN_PATH, &[], b"{}");
    assert_eq!(unsigned.status, 401);
}

#[test]
fn ping_authorize_and_subscriptions_answer_as_the_docs_show() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = connect(&sandbox);
    assert_eq!(
        request(&mut socket, 1, "ping", json!([])),
        json!({"id": 1, "result": "pong", "error": null})
    );
    // A private channel before `authorize`.
    let early = request(
        &mut socket,
        2,
        "ordersPending_subscribe",
        json!(["BTC_USDT"]),
    );
    assert_eq!(early["error"]["code"], 6);
    let wrong = request(
        &mut socket,
        3,
        "authorize",
        json!(["not-a-token", "public"]),
    );
    assert_eq!(wrong["error"]["code"], 6);
    let token = token(&sandbox);
    let ok = request(&mut socket, 4, "authorize", json!([token, "public"]));
    assert_eq!(
        ok,
        json!({"id": 4, "result": {"status": "success"}, "error": null})
    );
    let unknown = request(
        &mut socket,
        5,
        "ordersPending_subscribe",
        json!(["NOPE_USDT"]),
    );
    assert_eq!(
        unknown["error"],
        json!({"code": 1, "message": "invalid argument"})
    );
    let method = request(&mut socket, 6, "candles_subscribe", json!([]));
    assert_eq!(method["error"]["code"], 1);
    for (id, method, params) in [
        (7, "ordersPending_subscribe", json!(["BTC_USDT"])),
        (8, "ordersExecuted_subscribe", json!([["BTC_USDT"], 0])),
        (9, "deals_subscribe", json!([["BTC_USDT"]])),
        (10, "balanceMargin_subscribe", json!(["USDT"])),
    ] {
        let answer = request(&mut socket, id, method, params);
        assert_eq!(answer["result"], json!({"status": "success"}), "{method}");
    }
    // The positions snapshot follows its subscription's answer.
    let answer = request(&mut socket, 11, "positionsMargin_subscribe", json!([]));
    assert_eq!(answer["result"]["status"], "success");
    let snapshot = next(&mut socket);
    assert_eq!(snapshot["method"], "positionsMargin_update");
    assert_eq!(snapshot["params"], json!({"total": 0, "records": []}));

    // An order that fills at once: the balance, the positions, then event 3 only, the
    // executed order and the deal.
    let placed = MARKET.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","side":"buy","amount":"0.01","clientOrderId":"ws-1""#,
    );
    assert_eq!(placed.status, 200);
    let order_id = placed.json()["orderId"].clone();
    let methods: Vec<Value> = (0..5).map(|_| next(&mut socket)).collect();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "balanceMargin_update",
            "positionsMargin_update",
            "ordersPending_update",
            "ordersExecuted_update",
            "deals_update"
        ]
    );
    assert_eq!(methods[0]["params"][0]["a"], "USDT");
    assert_eq!(methods[1]["params"]["records"][0]["amount"], "0.01");
    let pending = &methods[2]["params"];
    assert_eq!(pending[0], 3);
    assert_eq!(pending[1]["id"], order_id);
    assert_eq!(pending[1]["client_order_id"], "ws-1");
    assert_eq!(pending[1]["side"], 2);
    assert_eq!(pending[1]["status"], "FILLED");
    assert_eq!(methods[3]["params"][0]["fee_asset"], "USDT");
    let deal = methods[4]["params"].as_array().unwrap();
    assert_eq!(deal.len(), 11);
    assert_eq!(
        (&deal[2], &deal[3], &deal[4], &deal[5]),
        (
            &json!("BTC_USDT"),
            &order_id,
            &json!("65000"),
            &json!("0.01")
        )
    );
    assert_eq!(methods.iter().filter(|m| m["id"].is_null()).count(), 5);
}

#[test]
fn the_request_limit_and_the_idle_timeout_close_the_connection() {
    let sandbox = Sandbox::builder()
        .ws_requests_per_minute(3)
        .ws_idle_timeout(Duration::from_millis(300))
        .start()
        .unwrap();
    let mut socket = connect(&sandbox);
    for id in 1..=3 {
        assert_eq!(
            request(&mut socket, id, "ping", json!([]))["result"],
            "pong"
        );
    }
    send(
        &mut socket,
        json!({"id": 4, "method": "ping", "params": []}),
    );
    match socket.read().unwrap() {
        Message::Close(Some(frame)) => assert_eq!(u16::from(frame.code), 1008),
        other => panic!("{other:?}"),
    }
    // Silent for longer than the idle timeout.
    let mut socket = connect(&sandbox);
    match socket.read().unwrap() {
        Message::Close(Some(frame)) => {
            assert_eq!(
                (u16::from(frame.code), frame.reason.as_str()),
                (1000, "idle")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn faults_drop_and_refuse() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = connect(&sandbox);
    sandbox.ws_fault(WsFault::RefuseAuthorize(1));
    let token = token(&sandbox);
    assert_eq!(
        request(&mut socket, 1, "authorize", json!([token, "public"]))["error"]["code"],
        6
    );
    assert_eq!(
        request(&mut socket, 2, "authorize", json!([token, "public"]))["error"],
        Value::Null
    );
    assert_eq!(sandbox.ws_connections(), 1);
    sandbox.ws_fault(WsFault::Drop);
    assert!(socket.read().is_err());
    // The sandbox counts it closed once its task has ended.
    for _ in 0..500 {
        if sandbox.ws_connections() == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(sandbox.ws_connections(), 0);
}

#[test]
fn a_resting_limit_order_reports_each_fill_as_maker() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = connect(&sandbox);
    let token = token(&sandbox);
    request(&mut socket, 1, "authorize", json!([token, "public"]));
    for (id, method, params) in [
        (2, "ordersPending_subscribe", json!(["BTC_USDT"])),
        (3, "ordersExecuted_subscribe", json!([["BTC_USDT"], 1])),
        (4, "deals_subscribe", json!([["BTC_USDT"]])),
    ] {
        assert_eq!(
            request(&mut socket, id, method, params)["result"]["status"],
            "success"
        );
    }
    let placed = LIMIT.send(
        &sandbox,
        PARTNER,
        &format!(
            r#"{},"clientOrderId":"maker-1""#,
            limit_fields("BTC_USDT", "buy", "0.01", "64000")
        ),
    );
    let order_id = placed.json()["orderId"].clone();
    // Resting: event 1, the margin-limit type 7 with its price.
    let new = next(&mut socket);
    assert_eq!(new["method"], "ordersPending_update");
    assert_eq!(
        (
            &new["params"][0],
            &new["params"][1]["type"],
            &new["params"][1]["price"]
        ),
        (&json!(1), &json!(7), &json!("64000"))
    );
    // Half of it: event 2, the executed order (a limit order: filter 1 passes it), the deal
    // as maker (role 1) at its price.
    sandbox
        .move_price("BTC_USDT", PriceStep::to("63900").volume("0.005"))
        .unwrap();
    let methods: Vec<Value> = (0..3).map(|_| next(&mut socket)).collect();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "ordersPending_update",
            "ordersExecuted_update",
            "deals_update"
        ]
    );
    assert_eq!(
        (&methods[0]["params"][0], &methods[0]["params"][1]["status"]),
        (&json!(2), &json!("PARTIALLY_FILLED"))
    );
    let deal = methods[2]["params"].as_array().unwrap();
    assert_eq!(
        (&deal[3], &deal[4], &deal[5], &deal[9]),
        (&order_id, &json!("64000"), &json!("0.005"), &json!(1))
    );
    // The rest: event 3.
    sandbox.set_price("BTC_USDT", "63800").unwrap();
    let finished = next(&mut socket);
    assert_eq!(
        (&finished["params"][0], &finished["params"][1]["status"]),
        (&json!(3), &json!("FILLED"))
    );
}
