//! Helpers shared by the integration tests: an HTTP agent that does not turn 4xx/5xx into
//! errors, hand-written JSON bodies signed here (base64 of the bytes, HMAC-SHA512 of that text
//! by txc-sign's two stage functions), and answers as `{status, body}` values for snapshots.
//!
//! No request is built with the SDK's builders: the sandbox is tested against the docs, not
//! against txc's own idea of a valid request.

#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

pub mod recipe;
pub mod socket;

use std::sync::LazyLock;
use std::time::SystemTime;

use serde_json::{Value, json};
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_sign::Credentials;
use txc_sign::nonce::NonceSequence;

/// One nonce sequence for every request of a test binary: strictly increasing and close to
/// the clock, so both nonce rules accept it.
static NONCES: LazyLock<NonceSequence> = LazyLock::new(NonceSequence::new);

pub const PARTNER: (&str, &str) = (demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET);
pub const REGULAR: (&str, &str) = (demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET);
pub const DISABLED: (&str, &str) = (demo::DISABLED_API_KEY, demo::DISABLED_API_SECRET);

pub const MARKET_PATH: &str = "/api/v4/order/collateral/market";
pub const TRIGGER_PATH: &str = "/api/v4/order/collateral/trigger-market";
pub const PLANS_PATH: &str = "/api/v4/main-account/smart/plans";
pub const OPEN_ORDERS_PATH: &str = "/api/v4/orders";
pub const HISTORY_PATH: &str = "/api/v4/trade-account/order/history";
pub const CANCEL_PATH: &str = "/api/v4/order/cancel";
pub const CONDITIONAL_PATH: &str = "/api/v4/conditional-orders";
pub const BALANCE_PATH: &str = "/api/v4/collateral-account/balance";
pub const POSITIONS_PATH: &str = "/api/v4/collateral-account/positions/open";
pub const POSITION_HISTORY_PATH: &str = "/api/v4/collateral-account/positions/history";
pub const CLOSE_PATH: &str = "/api/v4/collateral-account/position/close";
pub const LEVERAGE_PATH: &str = "/api/v4/collateral-account/leverage";
pub const HEDGE_UPDATE_PATH: &str = "/api/v4/collateral-account/hedge-mode/update";
pub const CANCEL_ALL_PATH: &str = "/api/v4/order/cancel/all";
pub const CANCEL_BULK_PATH: &str = "/api/v4/order/cancel/bulk";
pub const KILL_SWITCH_PATH: &str = "/api/v4/order/kill-switch";
pub const KILL_SWITCH_STATUS_PATH: &str = "/api/v4/order/kill-switch/status";
pub const TOKEN_PATH: &str = "/api/v4/profile/websocket_token";
pub const LIMIT_PATH: &str = "/api/v4/order/collateral/limit";
pub const STOP_LIMIT_PATH: &str = "/api/v4/order/collateral/stop-limit";
pub const BULK_PATH: &str = "/api/v4/order/collateral/bulk";
pub const OCO_PATH: &str = "/api/v4/order/collateral/oco";
pub const OCO_ORDERS_PATH: &str = "/api/v4/oco-orders";
pub const OCO_CANCEL_PATH: &str = "/api/v4/order/oco-cancel";
pub const CONDITIONAL_CANCEL_PATH: &str = "/api/v4/order/conditional-cancel";
pub const OTO_CANCEL_PATH: &str = "/api/v4/order/oto-cancel";
pub const MODIFY_PATH: &str = "/api/v4/order/modify";
pub const CLOSED_PNL_PATH: &str = "/api/v4/collateral-account/positions/closed-pnl";
pub const FUNDING_PATH: &str = "/api/v4/collateral-account/funding-history";
pub const ADL_PATH: &str = "/api/v4/collateral-account/adl-quantile";
pub const EXECUTED_PATH: &str = "/api/v4/trade-account/executed-history";
pub const ORDER_DEALS_PATH: &str = "/api/v4/trade-account/order";

pub fn now_ms() -> u64 {
    txc_sign::nonce::unix_millis(SystemTime::now())
}

pub fn next_nonce() -> u64 {
    NONCES.next(now_ms()).0
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// An answer: status, content type and body.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub content_type: Option<String>,
    pub retry_after: Option<String>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn from_response(mut response: http::Response<ureq::Body>) -> Self {
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned());
        let retry_after = response
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_owned());
        let body = response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap();
        Self {
            status,
            content_type,
            retry_after,
            body,
        }
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// `{status, body}` for a snapshot.
    pub fn snapshot(&self) -> Value {
        json!({ "status": self.status, "body": self.json() })
    }
}

/// The answer's `code`; -1 when it has none.
pub fn code(reply: &Reply) -> i64 {
    reply.json()["code"].as_i64().unwrap_or(-1)
}

pub fn run(request: http::Request<Vec<u8>>) -> Reply {
    Reply::from_response(agent().run(request).unwrap())
}

/// Sends `body` to `path` with the given headers, exactly as given.
pub fn send_raw(sandbox: &Sandbox, path: &str, headers: &[(&str, String)], body: &[u8]) -> Reply {
    let mut builder = http::Request::post(format!("{}{path}", sandbox.base_url()));
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    run(builder.body(body.to_vec()).unwrap())
}

/// The three signing headers for `body`, signed with `account` by txc-sign's stage functions.
pub fn sign_headers(account: (&str, &str), body: &[u8]) -> Vec<(&'static str, String)> {
    let credentials = Credentials::new(account.0, account.1).unwrap();
    let payload = txc_sign::stages::payload(body);
    let signature = txc_sign::stages::signature(&credentials, &payload);
    vec![
        ("content-type", "application/json".to_owned()),
        ("x-txc-apikey", account.0.to_owned()),
        ("x-txc-payload", payload),
        ("x-txc-signature", signature),
    ]
}

/// Sends a hand-written body, correctly signed.
pub fn send_hand_signed(sandbox: &Sandbox, account: (&str, &str), path: &str, body: &str) -> Reply {
    send_raw(
        sandbox,
        path,
        &sign_headers(account, body.as_bytes()),
        body.as_bytes(),
    )
}

/// A hand-written order body for `path` with a fresh nonce (nonce window on) and `fields`
/// (a JSON object's inner text, e.g. `"market":"BTC_USDT"`).
pub fn body(path: &str, fields: &str) -> String {
    let nonce = next_nonce();
    if fields.is_empty() {
        format!(r#"{{"request":"{path}","nonce":{nonce},"nonceWindow":true}}"#)
    } else {
        format!(r#"{{"request":"{path}","nonce":{nonce},"nonceWindow":true,{fields}}}"#)
    }
}

/// Sends a hand-written order body with `fields` to `path`, signed by `account`.
pub fn send_fields(sandbox: &Sandbox, account: (&str, &str), path: &str, fields: &str) -> Reply {
    send_hand_signed(sandbox, account, path, &body(path, fields))
}

/// A private endpoint of the sandbox, by its path: what the tests send hand-written fields to.
#[derive(Debug, Clone, Copy)]
pub struct Endpoint(pub &'static str);

impl Endpoint {
    /// Sends a hand-written body with `fields` to this endpoint, signed by `account`.
    pub fn send(self, sandbox: &Sandbox, account: (&str, &str), fields: &str) -> Reply {
        send_fields(sandbox, account, self.0, fields)
    }

    /// The JSON array a listing answers `fields` with (HTTP 200).
    pub fn list(self, sandbox: &Sandbox, account: (&str, &str), fields: &str) -> Vec<Value> {
        let reply = self.send(sandbox, account, fields);
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply
            .json()
            .as_array()
            .cloned()
            .unwrap_or_else(|| panic!("not a list: {}", reply.text()))
    }
}

/// A collateral market order.
pub const MARKET: Endpoint = Endpoint(MARKET_PATH);
/// A collateral trigger market order.
pub const TRIGGER: Endpoint = Endpoint(TRIGGER_PATH);
/// The smart plans request.
pub const PLANS: Endpoint = Endpoint(PLANS_PATH);
/// `POST /api/v4/orders`.
pub const OPEN_ORDERS: Endpoint = Endpoint(OPEN_ORDERS_PATH);
/// `POST /api/v4/trade-account/order/history`.
pub const HISTORY: Endpoint = Endpoint(HISTORY_PATH);
/// `POST /api/v4/conditional-orders`.
pub const CONDITIONAL: Endpoint = Endpoint(CONDITIONAL_PATH);
/// `POST /api/v4/order/cancel`.
pub const CANCEL: Endpoint = Endpoint(CANCEL_PATH);

/// `POST /api/v4/order/collateral/limit`.
pub const LIMIT: Endpoint = Endpoint(LIMIT_PATH);
/// `POST /api/v4/order/collateral/stop-limit`.
pub const STOP_LIMIT: Endpoint = Endpoint(STOP_LIMIT_PATH);
/// `POST /api/v4/order/collateral/bulk`.
pub const BULK: Endpoint = Endpoint(BULK_PATH);
/// `POST /api/v4/order/collateral/oco`.
pub const OCO: Endpoint = Endpoint(OCO_PATH);
/// `POST /api/v4/oco-orders`.
pub const OCO_ORDERS: Endpoint = Endpoint(OCO_ORDERS_PATH);
/// `POST /api/v4/order/oco-cancel`.
pub const OCO_CANCEL: Endpoint = Endpoint(OCO_CANCEL_PATH);
/// `POST /api/v4/order/conditional-cancel`.
pub const CONDITIONAL_CANCEL: Endpoint = Endpoint(CONDITIONAL_CANCEL_PATH);
/// `POST /api/v4/order/oto-cancel`.
pub const OTO_CANCEL: Endpoint = Endpoint(OTO_CANCEL_PATH);
/// `POST /api/v4/order/modify`.
pub const MODIFY: Endpoint = Endpoint(MODIFY_PATH);
/// `POST /api/v4/collateral-account/positions/closed-pnl`.
pub const CLOSED_PNL: Endpoint = Endpoint(CLOSED_PNL_PATH);
/// `POST /api/v4/collateral-account/funding-history`.
pub const FUNDING: Endpoint = Endpoint(FUNDING_PATH);
/// `POST /api/v4/collateral-account/adl-quantile`.
pub const ADL: Endpoint = Endpoint(ADL_PATH);
/// `POST /api/v4/trade-account/executed-history`.
pub const EXECUTED: Endpoint = Endpoint(EXECUTED_PATH);
/// `POST /api/v4/trade-account/order`.
pub const ORDER_DEALS: Endpoint = Endpoint(ORDER_DEALS_PATH);

/// The fields of a `side` limit order of `amount` on `market` at `price`.
pub fn limit_fields(market: &str, side: &str, amount: &str, price: &str) -> String {
    format!(r#"{},"price":"{price}""#, fields(market, side, amount))
}

/// The fields of a `side` OCO of 0.01 on `market`: take profit (limit) at `take_profit`, stop
/// loss activating at `activation` with a limit at `stop_limit`.
pub fn oco_fields(
    market: &str,
    side: &str,
    take_profit: &str,
    activation: &str,
    stop_limit: &str,
) -> String {
    format!(
        r#"{},"activation_price":"{activation}","stop_limit_price":"{stop_limit}""#,
        limit_fields(market, side, "0.01", take_profit)
    )
}

/// The partner's sell OCO of 0.01 on `market` with `client_order_id`: take profit (limit) at
/// 66000, stop loss activating at 64000 with a limit at 63900; its answer, which must be HTTP
/// 200.
pub fn bracket(sandbox: &Sandbox, market: &str, client_order_id: &str) -> Reply {
    let fields = format!(
        r#"{},"clientOrderId":"{client_order_id}""#,
        oco_fields(market, "sell", "66000", "64000", "63900")
    );
    let reply = OCO.send(sandbox, PARTNER, &fields);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
}

/// The answer examples of the spec (`http-trade-v4.yaml`, `public-http-v4.yaml`), copied into
/// `tests/fixtures/spec-answer-examples.json` (keys in the spec's order): each new endpoint's
/// example answer, the public markets' required keys, `OrderResponse`'s properties. As text,
/// for [`entry`] and [`key_order`].
pub fn spec_examples() -> &'static str {
    include_str!("../fixtures/spec-answer-examples.json")
}

/// A JSON object's entries in the order they are written, each value as its text.
struct Entries(Vec<(String, Box<serde_json::value::RawValue>)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// The keys of the JSON object `text`, in the order they are written.
pub fn key_order(text: &str) -> Vec<String> {
    let Entries(entries) = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    entries.into_iter().map(|(k, _)| k).collect()
}

/// The text of the value under `key` of the JSON object `text`; an array's item when `key` is
/// a number.
pub fn entry(text: &str, key: &str) -> String {
    if let Ok(index) = key.parse::<usize>() {
        let items: Vec<Box<serde_json::value::RawValue>> = serde_json::from_str(text).unwrap();
        return items[index].get().to_owned();
    }
    let Entries(entries) = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    entries
        .into_iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no {key} in {text}"))
        .1
        .get()
        .to_owned()
}

/// The text at `path` (keys and indexes) of the JSON `text`.
pub fn at_path(text: &str, path: &[&str]) -> String {
    path.iter()
        .fold(text.to_owned(), |text, key| entry(&text, key))
}

/// Asserts that the object `got` has `example`'s keys in `example`'s order, plus `extra`
/// (wherever they stand) and minus `missing`.
pub fn same_keys(got: &str, example: &str, extra: &[&str], missing: &[&str]) {
    let got = key_order(got);
    let ours: Vec<&String> = got
        .iter()
        .filter(|k| !extra.contains(&k.as_str()))
        .collect();
    let example: Vec<String> = key_order(example)
        .into_iter()
        .filter(|k| !missing.contains(&k.as_str()))
        .collect();
    assert_eq!(
        ours,
        example.iter().collect::<Vec<_>>(),
        "keys {got:?} against the example's {example:?} (extra {extra:?}, missing {missing:?})"
    );
    for key in extra {
        assert!(got.iter().any(|k| k == key), "{key} missing from {got:?}");
    }
}

/// `"market":"{market}","side":"{side}","amount":"{amount}"`.
pub fn fields(market: &str, side: &str, amount: &str) -> String {
    format!(r#""market":"{market}","side":"{side}","amount":"{amount}""#)
}

/// `"market":"BTC_USDT","orderId":{id}`: the fields naming a BTC_USDT order by its id.
pub fn btc_order(id: impl std::fmt::Display) -> String {
    format!(r#""market":"BTC_USDT","orderId":{id}"#)
}

/// The fields of a `side` trigger order of `amount` on `market` activating at `activation`.
pub fn trigger_fields(market: &str, side: &str, amount: &str, activation: &str) -> String {
    format!(
        r#"{},"activation_price":"{activation}""#,
        fields(market, side, amount)
    )
}

/// A buy trigger order of 0.01 on `market` by `account` that rests (it activates at 90 000,
/// above every default market's price), with `client_order_id` and `extra` fields (each led by
/// a comma, or none); its answer, which must be HTTP 200.
pub fn resting(
    sandbox: &Sandbox,
    account: (&str, &str),
    market: &str,
    client_order_id: &str,
    extra: &str,
) -> Value {
    let order = trigger_fields(market, "buy", "0.01", "90000");
    let body = format!(r#"{order},"clientOrderId":"{client_order_id}"{extra}"#);
    let reply = TRIGGER.send(sandbox, account, &body);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// A signed request for `fields` to `path`, not yet sent (nonce window on).
pub fn signed_request(
    sandbox: &Sandbox,
    account: (&str, &str),
    path: &str,
    fields: &str,
) -> http::Request<Vec<u8>> {
    request_for(sandbox, account, path, body(path, fields))
}

/// A request carrying `body` to `path`, signed by `account`, not yet sent.
pub fn request_for(
    sandbox: &Sandbox,
    account: (&str, &str),
    path: &str,
    body: String,
) -> http::Request<Vec<u8>> {
    let mut builder = http::Request::post(format!("{}{path}", sandbox.base_url()));
    for (name, value) in sign_headers(account, body.as_bytes()) {
        builder = builder.header(name, value);
    }
    builder.body(body.into_bytes()).unwrap()
}

/// A signed market order of 0.001 BTC_USDT by the partner, not yet sent.
pub fn small_order(sandbox: &Sandbox) -> http::Request<Vec<u8>> {
    signed_request(
        sandbox,
        PARTNER,
        MARKET_PATH,
        &fields("BTC_USDT", "buy", "0.001"),
    )
}

/// The market order of [`small_order`], sent.
pub fn small_market_order(sandbox: &Sandbox) -> Reply {
    run(small_order(sandbox))
}

/// Snapshot settings for order answers: the order's id, OTO id and timestamp redacted.
pub fn order_snapshots() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_redaction(".body.timestamp", "[timestamp]");
    settings.add_redaction(".body.orderId", "[orderId]");
    settings.add_redaction(".body.oto.otoId", "[otoId]");
    settings
}

/// Snapshots an order answer as `name`, with [`order_snapshots`]' redactions, where the
/// calling test binary's own snapshots are (`tests/snapshots/<binary>__<name>.snap`).
pub fn snap_order(name: &str, reply: &Reply) {
    let mut settings = order_snapshots();
    settings.set_snapshot_path("../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    let binary = module_path!().split("::").next().unwrap_or_default();
    let name = format!("{binary}__{name}");
    settings.bind(|| insta::assert_json_snapshot!(name, reply.snapshot()));
}

/// The keys every order record starts with, in the docs' order.
pub const ORDER_HEAD_KEYS: [&str; 6] = [
    "orderId",
    "clientOrderId",
    "market",
    "side",
    "type",
    "timestamp",
];

/// A sandbox with the defaults, started, whose `route` answers its next `times` requests
/// (every one with `None`) with `fault`.
pub fn faulty(route: Route, fault: Fault, times: Option<u32>) -> Sandbox {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(route, fault, times);
    sandbox
}

/// A sandbox with the defaults, started, whose next order placed on `route` stays out of
/// every look-up for an hour (answered as usual).
pub fn hidden_once(route: Route) -> Sandbox {
    faulty(
        route,
        Fault::VisibleAfter(std::time::Duration::from_secs(3600)),
        Some(1),
    )
}

/// Polls `condition` every 20 ms for at most 10 s.
pub fn eventually(condition: impl Fn() -> bool) {
    for _ in 0..500 {
        if condition() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("never happened");
}

pub fn get(sandbox: &Sandbox, path: &str) -> Reply {
    Reply::from_response(
        agent()
            .get(format!("{}{path}", sandbox.base_url()))
            .call()
            .unwrap(),
    )
}

pub fn post_json(sandbox: &Sandbox, path: &str, body: &Value) -> Reply {
    Reply::from_response(
        agent()
            .post(format!("{}{path}", sandbox.base_url()))
            .header("content-type", "application/json")
            .send(body.to_string())
            .unwrap(),
    )
}
