//! The order methods over the sandbox's WebSocket, driven by hand with tungstenite: the
//! docs' placements and cancel against the same book as the HTTP routes, the socket's own
//! numbering of refusals (6 before `authorize`, 43, 14, 11, 1, 6 for a cancel), and the fault
//! that drops a connection after the order was processed and before its answer.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::socket::{connect, next, request, send, token};
use common::{LIMIT, OPEN_ORDERS, PARTNER};
use serde_json::{Value, json};
use tungstenite::Message;
use txc_sandbox::{Sandbox, WsFault};

fn authorized(sandbox: &Sandbox) -> common::socket::Socket {
    let mut socket = connect(sandbox);
    let token = token(sandbox, PARTNER);
    let ok = request(&mut socket, 1, "authorize", json!([token, "public"]));
    assert_eq!(ok["result"]["status"], "success");
    socket
}

fn open_orders(sandbox: &Sandbox) -> Value {
    let reply = OPEN_ORDERS.send(sandbox, PARTNER, r#""market":"BTC_USDT""#);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

#[test]
fn placements_and_cancels_run_against_the_same_book_as_rest() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = authorized(&sandbox);
    // A resting limit order over the socket, with the docs' parameters.
    let placed = request(
        &mut socket,
        500010,
        "collateral_order_limit_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "60000.10",
                "client_order_id": "ws-limit-1", "post_only": true, "stp": "no"}]),
    );
    assert!(placed["error"].is_null(), "{placed}");
    let order = &placed["result"];
    assert_eq!(order["type"], 7);
    assert_eq!(order["side"], 2, "the answer's side is numeric: 2 buy");
    assert_eq!(order["client_order_id"], "ws-limit-1");
    assert_eq!(order["status"], "OPEN");
    assert_eq!(order["price"], "60000.1", "trailing zeros dropped");
    assert!(order["ctime"].is_number());
    // REST sees it on the book.
    let open = open_orders(&sandbox);
    assert!(
        open.as_array()
            .unwrap()
            .iter()
            .any(|o| o["orderId"] == order["id"] && o["clientOrderId"] == "ws-limit-1"),
        "{open}"
    );
    // A REST order canceled over the socket, by its client order id.
    let rest = LIMIT.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","side":"buy","amount":"0.001","price":"59000","clientOrderId":"rest-1""#,
    );
    assert_eq!(rest.status, 200, "{}", rest.text());
    let canceled = request(
        &mut socket,
        500020,
        "order_cancel",
        json!([{"market": "BTC_USDT", "client_order_id": "rest-1"}]),
    );
    assert_eq!(canceled["result"]["id"], rest.json()["orderId"]);
    assert_eq!(canceled["result"]["status"], "CANCELED");
    // A market order over the socket fills against the book at once.
    let market = request(
        &mut socket,
        500011,
        "collateral_order_market_place",
        json!([{"market": "BTC_USDT", "side": "sell", "amount": "0.001"}]),
    );
    assert_eq!(market["result"]["type"], 8);
    assert_eq!(market["result"]["side"], 1, "1 sell");
    assert_eq!(market["result"]["status"], "FILLED");
    // Stop orders rest waiting for their activation price.
    let stop = request(
        &mut socket,
        500013,
        "collateral_order_stop_market_place",
        json!([{"market": "BTC_USDT", "side": "sell", "amount": "0.001", "activation_price": "50000"}]),
    );
    assert_eq!(stop["result"]["type"], 10, "{stop}");
    let stop_limit = request(
        &mut socket,
        500012,
        "collateral_order_stop_limit_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "80100", "activation_price": "80000"}]),
    );
    assert_eq!(stop_limit["result"]["type"], 9, "{stop_limit}");
}

#[test]
fn refusals_are_in_the_sockets_own_numbering() {
    let sandbox = Sandbox::start().unwrap();
    let mut early = connect(&sandbox);
    let unauthorized = request(
        &mut early,
        1,
        "collateral_order_market_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001"}]),
    );
    assert_eq!(unauthorized["error"]["code"], 6);

    let mut socket = authorized(&sandbox);
    let limit = |id: &str, price: &str, post_only: bool| {
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": price,
                "client_order_id": id, "post_only": post_only}])
    };
    let first = request(
        &mut socket,
        2,
        "collateral_order_limit_place",
        limit("dup", "60000", false),
    );
    assert!(first["error"].is_null(), "{first}");
    let cases = [
        (
            "collateral_order_limit_place",
            limit("dup", "60000", false),
            43,
        ),
        // Post-only crossing the ask (the book's asks start at 65000).
        (
            "collateral_order_limit_place",
            limit("po", "70000", true),
            14,
        ),
        (
            "collateral_order_market_place",
            json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.0000001"}]),
            11,
        ),
        (
            "collateral_order_market_place",
            json!([{"market": "NOPE_USDT", "side": "buy", "amount": "1"}]),
            1,
        ),
        (
            "collateral_order_market_place",
            json!({"market": "BTC_USDT"}),
            1,
        ),
        (
            "order_cancel",
            json!([{"market": "BTC_USDT", "order_id": 987654321}]),
            6,
        ),
    ];
    for (id, (method, params, code)) in (10..).zip(cases) {
        let answer = request(&mut socket, id, method, params.clone());
        assert!(answer["result"].is_null(), "{method} {params}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{method} {params}: {answer}");
    }
}

#[test]
fn a_connection_dropped_after_the_order_was_processed_leaves_the_order_placed() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = authorized(&sandbox);
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    send(
        &mut socket,
        json!({"id": 7, "method": "collateral_order_limit_place", "params": [
            {"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "60000", "client_order_id": "lost-1"}
        ]}),
    );
    // No answer: the connection is gone.
    let ended = loop {
        match socket.read() {
            Ok(Message::Text(text)) => panic!("answered: {text}"),
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) => {}
        }
    };
    assert!(ended);
    // The order was placed all the same.
    let open = open_orders(&sandbox);
    assert!(
        open.as_array()
            .unwrap()
            .iter()
            .any(|o| o["clientOrderId"] == "lost-1"),
        "{open}"
    );
    // A resend with the same id on a new connection is refused with 43: evidence.
    let mut again = authorized(&sandbox);
    let resend = request(
        &mut again,
        8,
        "collateral_order_limit_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "60000", "client_order_id": "lost-1"}]),
    );
    assert_eq!(resend["error"]["code"], 43);
    // The fault is spent: the next order is answered.
    let answered = request(
        &mut again,
        9,
        "collateral_order_limit_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "60000", "client_order_id": "kept-1"}]),
    );
    assert!(answered["error"].is_null(), "{answered}");
    let _ = next;
}

#[test]
fn modify_replaces_and_cancel_all_clears_the_market() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = authorized(&sandbox);
    let placed = request(
        &mut socket,
        2,
        "collateral_order_limit_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "60000", "client_order_id": "m-1"}]),
    );
    let first_id = placed["result"]["id"].clone();
    let modified = request(
        &mut socket,
        500019,
        "order_modify",
        json!([{"market": "BTC_USDT", "order_id": first_id, "amount": "0.00216", "price": "61000.50"}]),
    );
    let replacement = &modified["result"];
    assert_ne!(
        replacement["id"], first_id,
        "a replacement with a new id: {modified}"
    );
    assert_eq!(replacement["price"], "61000.5");
    assert_eq!(replacement["amount"], "0.00216");
    assert_eq!(
        replacement["client_order_id"], "m-1",
        "the client order id is kept"
    );
    // The original is gone: modifying it again is "order not found".
    let again = request(
        &mut socket,
        3,
        "order_modify",
        json!([{"market": "BTC_USDT", "order_id": first_id, "price": "61000"}]),
    );
    assert_eq!(again["error"]["code"], 6);
    // The docs' refusals of cancel-all's parameters.
    for (params, message) in [
        (json!([{"type": ["futures"]}]), "market is required"),
        (
            json!([{"market": "BTC_USDT", "type": []}]),
            "at least one order type should be specified",
        ),
        (
            json!([{"market": "BTC_USDT", "type": "margin"}]),
            "order types must be an array",
        ),
    ] {
        let refused = request(&mut socket, 4, "order_cancel_all", params.clone());
        assert_eq!(
            refused["error"],
            json!({"code": 1, "message": message}),
            "{params}"
        );
    }
    let cleared = request(
        &mut socket,
        500085,
        "order_cancel_all",
        json!([{"market": "BTC_USDT", "type": ["spot", "futures", "margin"]}]),
    );
    assert_eq!(cleared["result"], json!({}), "{cleared}");
    let open = open_orders(&sandbox);
    assert_eq!(open, json!([]), "{open}");
}

#[test]
fn a_bbo_order_takes_the_books_best_and_an_oto_is_rests_order_with_its_exits() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = authorized(&sandbox);
    let rest = LIMIT.send(
        &sandbox,
        PARTNER,
        r#""market":"BTC_USDT","side":"buy","amount":"0.001","price":"60000.5""#,
    );
    assert_eq!(rest.status, 200, "{}", rest.text());
    // The maker role prices at its own side's best, post-only.
    let bbo = request(
        &mut socket,
        500014,
        "collateral_order_bbo_place",
        json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "bbo_role": 1, "stp": "no"}]),
    );
    assert_eq!(bbo["result"]["price"], "60000.5", "{bbo}");
    assert_eq!(bbo["result"]["post_only"], true);
    assert_eq!(bbo["result"]["type"], 7);
    for (params, message) in [
        (
            json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "bbo_role": 3}]),
            "bbo role must be an integer in range 1..2",
        ),
        (
            json!([{"market": "BTC_USDT", "side": "buy", "amount": "0.001", "bbo_role": 2, "post_only": true}]),
            "wrong flags combination",
        ),
    ] {
        let refused = request(&mut socket, 5, "collateral_order_bbo_place", params);
        assert_eq!(refused["error"], json!({"code": 1, "message": message}));
    }
    // The docs' OTO: a limit entry arming both exits.
    let oto = request(
        &mut socket,
        500017,
        "collateral_order_oto_place",
        json!([{"trigger_order_type": "margin_limit",
                "trigger_order": {"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "59000", "stp": "no", "client_order_id": "oto-1"},
                "conditional_order_type": "margin_market_oco",
                "take_profit": "66266.12", "stop_loss": "52405.95"}]),
    );
    let group = &oto["result"];
    assert_eq!(group["type"], "oto", "{oto}");
    assert!(group["id"].as_u64().is_some());
    assert_eq!(group["conditional_order_type"], "margin_market_oco");
    assert_eq!(group["take_profit_price"], "66266.12");
    assert_eq!(group["trigger_order"]["client_order_id"], "oto-1");
    assert_eq!(group["trigger_order"]["side"], 2);
    let group_id = group["id"].clone();
    let canceled = request(
        &mut socket,
        8,
        "order_cancel_conditional",
        json!([{"market": "BTC_USDT", "order_id": group_id}]),
    );
    assert_eq!(canceled["result"]["type"], "oto", "{canceled}");
    assert_eq!(canceled["result"]["trigger_order"]["status"], "CANCELED");
    for (exit, tp, sl, message) in [
        (
            "margin_market_oco",
            Some("66000"),
            None,
            "take_profit and stop_loss are required",
        ),
        (
            "margin_take_profit",
            Some("66000"),
            Some("50000"),
            "only take_profit is required",
        ),
        (
            "margin_stop_loss",
            Some("66000"),
            Some("50000"),
            "only stop_loss is required",
        ),
    ] {
        let mut params = json!({"trigger_order_type": "margin_limit",
            "trigger_order": {"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "59000"},
            "conditional_order_type": exit});
        if let Some(tp) = tp {
            params["take_profit"] = json!(tp);
        }
        if let Some(sl) = sl {
            params["stop_loss"] = json!(sl);
        }
        let refused = request(
            &mut socket,
            6,
            "collateral_order_oto_place",
            json!([params]),
        );
        assert_eq!(
            refused["error"],
            json!({"code": 1, "message": message}),
            "{exit}"
        );
    }
    let rpi = request(
        &mut socket,
        7,
        "collateral_order_oto_place",
        json!([{"trigger_order_type": "margin_limit",
                "trigger_order": {"market": "BTC_USDT", "side": "buy", "amount": "0.001", "price": "59000", "rpi": true},
                "conditional_order_type": "margin_stop_loss", "stop_loss": "50000"}]),
    );
    assert_eq!(
        rpi["error"]["message"],
        "flags: rpi=1 can't be set for trigger in oto"
    );
}

#[test]
fn an_oco_is_placed_and_canceled_as_a_group() {
    let sandbox = Sandbox::start().unwrap();
    let mut socket = authorized(&sandbox);
    // A sell OCO above and below the price (65000): take profit at 70000, stop at 60000.
    let placed = request(
        &mut socket,
        500016,
        "collateral_order_oco_place",
        json!([{"market": "BTC_USDT", "side": "sell", "amount": "0.001", "price": "70000",
                "activation_price": "60000", "stop_limit_price": "59000", "stp": "no",
                "limit_client_order_id": "oco-1"}]),
    );
    let group = &placed["result"];
    assert_eq!(group["type"], "oco", "{placed}");
    let id = group["id"].clone();
    assert_eq!(group["take_profit"]["type"], 7);
    assert_eq!(group["stop_loss"]["type"], 9);
    assert_eq!(group["take_profit"]["side"], 1);
    let same = request(
        &mut socket,
        2,
        "collateral_order_oco_place",
        json!([{"market": "BTC_USDT", "side": "sell", "amount": "0.001", "price": "70000",
                "activation_price": "60000", "stop_limit_price": "59000",
                "limit_client_order_id": "x", "stop_client_order_id": "x"}]),
    );
    assert_eq!(
        same["error"]["message"],
        "limit_client_order_id and stop_client_order_id cannot be equal"
    );
    let canceled = request(
        &mut socket,
        500021,
        "order_cancel_conditional",
        json!([{"market": "BTC_USDT", "order_id": id}]),
    );
    let group = &canceled["result"];
    assert_eq!(group["type"], "oco", "{canceled}");
    assert_eq!(group["id"], id);
    assert_eq!(group["take_profit"]["status"], "CANCELED");
    assert_eq!(group["stop_loss"]["status"], "CANCELED");
    let gone = request(
        &mut socket,
        3,
        "order_cancel_conditional",
        json!([{"market": "BTC_USDT", "order_id": id}]),
    );
    assert_eq!(gone["error"]["code"], 6);
}
