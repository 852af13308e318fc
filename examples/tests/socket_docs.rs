//! The docs' request and answer examples of every order method, through both clients'
//! `SocketTrading`: a WebSocket server on 127.0.0.1 replays the exchange's docs
//! (`fixtures/socket/*.json`, copied from whitebit-exchange/docs' `snippets/ws-data`) — it
//! checks that each request's parameters are the docs' (the client's generated
//! `client_order_id` aside) and answers with the docs' answer; the client decodes it into the
//! typed answer. The token comes over REST from the embedded sandbox.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::net::TcpListener;
use std::thread;

use common::config;
use common::socket::Transport;
use serde_json::{Value, json};
use tungstenite::Message;
use txc_core::pacing::RateLimits;
use txc_core::socket::SessionConfig;
use txc_core::{ClientConfig, Error};
use txc_sandbox::Sandbox;
use txc_types::endpoint::Endpoint;
use txc_types::events::WebSocketTokenQuery;
use txc_types::orders::{
    BboRole, CancelAllOrders, CancelConditionalOrder, CancelOrder, CollateralBboOrder,
    CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder, CollateralStopBboOrder,
    CollateralStopLimitOrder, CollateralTriggerMarketOrder, ModifyOrder, OrderClass, Side, Stp,
};
use txc_types::socket::{CollateralTpslOrder, SocketAnswer, SocketMethod, ToSocket};

/// The docs' example of `method`: `{"request", "response"}`, from `fixtures/socket/<method>.json`.
fn fixture(method: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/socket/{method}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// `params` without the ids the client generates (the docs' examples carry none).
fn without_generated_ids(mut params: Value) -> Value {
    if let Some(map) = params.as_object_mut() {
        map.remove("client_order_id");
        map.remove("limit_client_order_id");
        if let Some(trigger) = map.get_mut("trigger_order").and_then(Value::as_object_mut) {
            trigger.remove("client_order_id");
        }
    }
    params
}

/// A WebSocket server replaying the docs: `authorize` succeeds, each order method whose
/// parameters are the docs' gets the docs' answer (with the request's id), anything else an
/// error naming what differs. Its URL.
fn docs_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            thread::spawn(move || {
                let Ok(mut socket) = tungstenite::accept(stream) else {
                    return;
                };
                while let Ok(message) = socket.read() {
                    let Message::Text(text) = message else {
                        continue;
                    };
                    let request: Value = serde_json::from_str(text.as_str()).unwrap();
                    let id = request["id"].clone();
                    let method = request["method"].as_str().unwrap_or_default().to_owned();
                    let answer = match method.as_str() {
                        "authorize" => {
                            json!({"id": id, "result": {"status": "success"}, "error": null})
                        }
                        "ping" => json!({"id": id, "result": "pong", "error": null}),
                        _ => {
                            let docs = fixture(&method);
                            let sent = without_generated_ids(request["params"][0].clone());
                            let expected = docs["request"]["params"][0].clone();
                            if sent == expected {
                                let mut response = docs["response"].clone();
                                response["id"] = id;
                                response
                            } else {
                                let message =
                                    format!("not the docs' request: sent {sent}, docs {expected}");
                                json!({"id": id, "result": null, "error": {"code": 1, "message": message}})
                            }
                        }
                    };
                    if socket.send(Message::text(answer.to_string())).is_err() {
                        return;
                    }
                }
            });
        }
    });
    url
}

/// The docs' examples as the typed requests a user builds — the same values REST sends.
fn docs_requests() -> Vec<(SocketMethod, Box<dyn ToSocket>)> {
    let no = Stp::No;
    vec![
        (
            SocketMethod::LimitPlace,
            Box::new(
                CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "63385.90")
                    .stp(no)
                    .build()
                    .unwrap(),
            ),
        ),
        (
            SocketMethod::MarketPlace,
            Box::new(
                CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "0.001")
                    .stp(no)
                    .build()
                    .unwrap(),
            ),
        ),
        (
            SocketMethod::StopLimitPlace,
            Box::new(
                CollateralStopLimitOrder::builder(
                    "BTC_PERP",
                    Side::Buy,
                    "0.001",
                    "66263.38",
                    "65298.38",
                )
                .stp(no)
                .build()
                .unwrap(),
            ),
        ),
        (
            SocketMethod::StopMarketPlace,
            Box::new(
                CollateralTriggerMarketOrder::builder("BTC_PERP", Side::Sell, "0.001", "63385.76")
                    .stp(no)
                    .build()
                    .unwrap(),
            ),
        ),
        (
            SocketMethod::BboPlace,
            Box::new(
                CollateralBboOrder::builder("BTC_PERP", Side::Buy, "0.001", BboRole::Maker)
                    .stp(no)
                    .build()
                    .unwrap(),
            ),
        ),
        (
            SocketMethod::StopBboPlace,
            Box::new(
                CollateralStopBboOrder::builder(
                    "BTC_PERP",
                    Side::Sell,
                    "0.001",
                    "63385.76",
                    BboRole::Maker,
                )
                .stp(no)
                .build()
                .unwrap(),
            ),
        ),
        (
            SocketMethod::OcoPlace,
            Box::new(
                CollateralOcoOrder::builder(
                    "BTC_PERP",
                    Side::Sell,
                    "0.001",
                    "65301.08",
                    "63370.99",
                    "62405.95",
                )
                .stp(no)
                .build()
                .unwrap(),
            ),
        ),
        (
            SocketMethod::OtoPlace,
            Box::new(
                CollateralLimitOrder::builder("BTC_PERP", Side::Buy, "0.001", "63370.99")
                    .stp(no)
                    .take_profit("66266.12")
                    .stop_loss("62405.95")
                    .build()
                    .unwrap(),
            ),
        ),
        (
            SocketMethod::TpslPlace,
            Box::new(
                CollateralTpslOrder::builder("BTC_PERP")
                    .take_profit("65319.18")
                    .stop_loss("63388.57")
                    .stp(no)
                    .build()
                    .unwrap(),
            ),
        ),
    ]
}

fn partner(sandbox: &Sandbox) -> ClientConfig {
    config::partner()
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
}

/// What the docs' answer of `method` decodes to.
fn docs_answer(method: SocketMethod) -> SocketAnswer {
    let docs = fixture(method.name());
    SocketAnswer::decode(method, &docs["response"]["result"].to_string()).unwrap()
}

fn every_docs_example_goes_through_the_client(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let url = docs_server();
    let mut session = transport.open(partner(&sandbox), SessionConfig::default().with_url(url));
    for (method, request) in docs_requests() {
        let answer = session
            .place(request.as_ref())
            .unwrap_or_else(|e: Error| panic!("{method}: {e}"));
        assert_eq!(answer, docs_answer(method), "{method}");
        assert!(!answer.orders().is_empty(), "{method}: the answer's orders");
    }
    let modify = ModifyOrder::by_order_id("ETH_USDT", 2_423_735_905_491)
        .amount("0.00216")
        .price("1831.41")
        .build()
        .unwrap();
    let answer = session.modify(&modify).unwrap();
    assert_eq!(answer, docs_answer(SocketMethod::Modify));
    let cancel = CancelOrder::by_order_id("ETH_USDT", 2_423_735_868_673).unwrap();
    let answer = session.cancel(&cancel).unwrap();
    assert_eq!(answer, docs_answer(SocketMethod::Cancel));
    let SocketAnswer::Order(canceled) = &answer else {
        panic!("{answer:?}")
    };
    assert_eq!(canceled.id, 2_423_735_868_673);
    let conditional = CancelConditionalOrder::new("BTC_PERP", 2_423_735_892_717).unwrap();
    let answer = session.cancel_conditional(&conditional).unwrap();
    assert_eq!(answer, docs_answer(SocketMethod::CancelConditional));
    let all = CancelAllOrders::builder()
        .market("ETH_USDT")
        .types([OrderClass::Spot, OrderClass::Futures, OrderClass::Margin])
        .build()
        .unwrap();
    assert_eq!(session.cancel_all(&all).unwrap(), SocketAnswer::Done);
}

scenarios!(every_docs_example_goes_through_the_client);
