//! The scenario table shared by both transports: every scenario runs once through
//! `txc-blocking` and once through `txc-async`, over real HTTP on 127.0.0.1 against
//! `txc-sandbox`, so the two clients cannot drift apart.
//!
//! A scenario is a function of a [`Driver`] (in `common/mod.rs`, shared with `hostile.rs`,
//! `load.rs` and `secrets.rs`); the `scenarios!` table at the end turns each into one test per
//! transport (`blocking::name`, `asynchronous::name`). Every answer comes from the sandbox —
//! its faults produce what it would not send by itself (HTTP 453, a 503 with a JSON body, a
//! chunked answer). No timing assertions: delays only make faults happen, they are never
//! measured.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::time::Duration;

use common::*;
use txc_core::decode::{ApiErrorClass, DecodeErrorKind, Delivery, RetryAfter, TransportErrorKind};
use txc_core::pacing::RetryPolicy;
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_sign::nonce::NonceSequence;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{
    CollateralMarketOrder, CollateralTriggerMarketOrder, OrderRefusal, OrderStatus, Side,
};

// ---------------------------------------------------------------------------------------------
// Scenarios: each operation succeeds.

fn market_order_is_placed(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let order = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("scenario-1")
        .stop_loss("60000")
        .take_profit("70000")
        .build()
        .unwrap();
    let placed = client.market(&order).unwrap();
    assert_eq!(placed.market, "BTC_USDT");
    assert_eq!(placed.side, Side::Buy);
    assert_eq!(placed.status, Some(OrderStatus::Filled));
    assert_eq!(placed.deal_money.as_str(), "650");
    assert_eq!(placed.client_order_id.as_deref(), Some("scenario-1"));
    assert!(placed.oto.is_some());
    assert_eq!(sandbox.orders(), vec![placed]);
}

fn trigger_order_rests_then_fires(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let order = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
        .build()
        .unwrap();
    let placed = client.trigger(&order).unwrap();
    assert_eq!(placed.status, Some(OrderStatus::Open));
    assert_eq!(
        placed.activation_price.map(|p| p.to_string()).as_deref(),
        Some("70000")
    );
    assert_eq!(placed.activated, Some(false));

    sandbox.set_price("BTC_USDT", "70000").unwrap();
    let orders = sandbox.orders();
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0].order_id, placed.order_id);
    assert_eq!(orders[0].status, Some(OrderStatus::Filled));
}

fn smart_plans_are_listed(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let all = client.plans(&SmartPlansQuery::new()).unwrap();
    assert!(all.iter().any(|p| p.ticker == "USDT"));
    assert!(all.iter().any(|p| p.ticker == "BTC"));

    let usdt = SmartPlansQuery::builder().ticker("USDT").build().unwrap();
    let only_usdt = client.plans(&usdt).unwrap();
    assert!(!only_usdt.is_empty());
    assert!(only_usdt.iter().all(|p| p.ticker == "USDT"));
}

// ---------------------------------------------------------------------------------------------
// Scenarios: every class of exchange error reaches the caller with status, code and fields.

fn amount_below_minimum_is_refusal_32(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let (error, api) = api_error(client.market(&market("0.0001")));
    assert_eq!(
        (api.status, api.code, api.class),
        (422, Some(32), ApiErrorClass::Amount)
    );
    assert_eq!(api.refusal, Some(OrderRefusal::Amount));
    assert!(
        api.field_errors("amount")
            .iter()
            .any(|m| m.contains("min amount")),
        "{api:?}"
    );
    assert!(!error.outcome_unknown());
    assert!(!error.is_retryable());
    assert!(sandbox.orders().is_empty());
}

fn short_balance_is_insufficient_balance_10(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    sandbox
        .set_balance(demo::PARTNER_API_KEY, "USDT", "1")
        .unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let (error, api) = api_error(client.market(&market("0.01")));
    assert_eq!(
        (api.status, api.code, api.class),
        (422, Some(10), ApiErrorClass::InsufficientBalance)
    );
    assert_eq!(api.field_errors("amount"), ["Not enough balance."]);
    assert!(!error.outcome_unknown());
    assert!(sandbox.orders().is_empty());
}

/// What a test calls: an order or the smart plans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Call {
    Order,
    Plans,
}

fn keys_the_exchange_refuses_get_its_answer(driver: &dyn Driver) {
    use ApiErrorClass::{Authentication, Permission};
    let regular = (demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET);
    let wrong_secret = (demo::PARTNER_API_KEY, WRONG_SECRET);
    let unknown = ("no-such-key-0000", "whatever-secret");
    let disabled = (demo::DISABLED_API_KEY, demo::DISABLED_API_SECRET);
    // The key, what is called, and the answer: status, code, class, part of the message.
    let table = [
        (regular, Call::Plans, 403, None, Permission, "permission"),
        (wrong_secret, Call::Order, 401, Some(10), Authentication, ""),
        (
            unknown,
            Call::Plans,
            401,
            Some(10),
            Authentication,
            "Unauthorized request.",
        ),
        (
            disabled,
            Call::Order,
            403,
            Some(2),
            Authentication,
            "Enable your key",
        ),
    ];
    for ((key, secret), call, status, code, class, message) in table {
        let sandbox = Sandbox::start().unwrap();
        let client = driver.client(sandbox.base_url(), config::key(key, secret));
        let (error, api) = api_error(match call {
            Call::Plans => client.plans(&SmartPlansQuery::new()).map(drop),
            Call::Order => client.market(&market("0.01")).map(drop),
        });
        assert_eq!((api.status, api.class), (status, class), "{key}");
        assert!(code.is_none() || api.code == code, "{key}: {api:?}");
        assert!(api.message.contains(message), "{key}: {api:?}");
        assert!(!error.is_retryable() && !error.outcome_unknown(), "{error}");
        assert_no_secret(&error_texts(&error));
        // Refusals are not retried, and nothing was placed.
        assert_eq!(sandbox.stats().requests, 1, "{key}");
        assert!(sandbox.orders().is_empty());
    }
}

fn the_rate_limit_is_too_many_requests(driver: &dyn Driver) {
    let sandbox = Sandbox::builder().rate_limits(1, 1).start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    client.market(&market("0.001")).unwrap();
    // Retried (signed afresh, so no nonce is reused) until the attempts run out.
    let (error, api) = api_error(client.market(&market("0.001")));
    assert_eq!(
        (api.status, api.class),
        (429, ApiErrorClass::TooManyRequests)
    );
    assert!(error.is_retryable());
    assert!(!error.outcome_unknown());
    let stats = sandbox.stats();
    let attempts = u64::from(RetryPolicy::default().max_attempts());
    assert_eq!(stats.rate_limited, attempts);
    assert_eq!(stats.nonce_rejections, 0);
    assert_eq!(sandbox.orders().len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Scenarios: answers judged by the exchange's rules, status first.

fn answer(status: u16, body: &str) -> Fault {
    Fault::Answer {
        status,
        content_type: "application/json".to_owned(),
        body: body.as_bytes().to_vec(),
    }
}

fn a_2xx_carrying_an_order_is_placed_whatever_else_it_says(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let body = r#"{"orderId":"77","clientOrderId":"","market":"BTC_USDT","side":"buy","type":"market","timestamp":"1595792396.165973","dealMoney":650,"dealStock":"0.01","amount":0.01,"left":"0","dealFee":"0.65","status":"FILLED","oto":[],"reduceOnly":0,"message":"Too many requests.","code":0,"errors":{}}"#;
    sandbox.inject_fault(Route::CollateralMarket, answer(200, body), Some(1));
    let client = driver.client(sandbox.base_url(), config::partner());
    let placed = client.market(&market("0.01")).unwrap();
    assert_eq!(placed.order_id, 77, "a string id");
    assert_eq!(
        placed.deal_money.as_str(),
        "650",
        "a number where a string is documented"
    );
    assert_eq!(placed.timestamp.as_str(), "1595792396.165973");
    assert_eq!((placed.oto, placed.reduce_only), (None, Some(false)));
    assert_eq!(placed.extra["message"], "Too many requests.");
    assert_eq!(sandbox.stats().requests, 1);
}

fn a_2xx_that_is_no_order_leaves_the_outcome_unknown(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    for body in [
        r#"{"code":0,"message":"Too many requests."}"#,
        r#"{"orderId":1}"#,
        r#"[]"#,
    ] {
        sandbox.reset();
        sandbox.inject_fault(Route::CollateralMarket, answer(200, body), Some(1));
        let error = client.market(&market("0.01")).unwrap_err();
        assert!(
            error.outcome_unknown() && !error.is_retryable(),
            "{body}: {error}"
        );
        assert_eq!(error.status(), Some(200));
        assert_eq!(sandbox.stats().requests, 1, "{body}: not resent");
    }
}

fn a_cdn_429_is_the_rate_limit_for_orders_and_plans(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let page = Fault::Answer {
        status: 429,
        content_type: "text/html".to_owned(),
        body: b"<html><body>Rate limited</body></html>".to_vec(),
    };
    let client = driver.client(sandbox.base_url(), config::partner());
    // Not executed, so resent (signed afresh) — an order as well as a read.
    sandbox.inject_fault(Route::CollateralMarket, page.clone(), Some(1));
    client.market(&market("0.01")).unwrap();
    sandbox.inject_fault(Route::SmartPlans, page, Some(1));
    client.plans(&SmartPlansQuery::new()).unwrap();
    let stats = sandbox.stats();
    assert_eq!((stats.requests, stats.faults_injected), (4, 2));
    assert_eq!(sandbox.orders().len(), 1);
}

fn retry_after_is_honoured(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    // A short one is waited out and the call goes on.
    sandbox.inject_fault(
        Route::SmartPlans,
        Fault::RetryAfter("1".to_owned()),
        Some(1),
    );
    client.plans(&SmartPlansQuery::new()).unwrap();
    assert_eq!(sandbox.stats().requests, 2);
    // One past the longest wait honoured ends the call; the error says when to come back.
    sandbox.inject_fault(
        Route::CollateralMarket,
        Fault::RetryAfter("3600".to_owned()),
        Some(1),
    );
    let error = client.market(&market("0.01")).unwrap_err();
    assert_eq!(
        error.retry_after(),
        Some(RetryAfter::Delay(Duration::from_secs(3600)))
    );
    assert!(error.is_retryable() && !error.outcome_unknown());
    assert_eq!(sandbox.stats().requests, 3, "not resent");
    assert_eq!(sandbox.orders().len(), 0);
}

// ---------------------------------------------------------------------------------------------
// Scenarios: faults. An order whose outcome is unknown is never resent.

fn a_timeout_leaves_the_order_placed_once(driver: &dyn Driver) {
    let (sandbox, _client) = order_times_out(
        driver,
        Route::CollateralMarket,
        Fault::Delay(Duration::from_secs(4)),
    );
    eventually("the order is placed", || sandbox.orders().len() == 1);
    sandbox.clear_faults();
}

fn a_timed_out_read_is_retried(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(
        Route::SmartPlans,
        Fault::Delay(Duration::from_secs(4)),
        Some(1),
    );
    // A time-out far from the delay both ways: the retry's answer comes within it even on a
    // loaded host (300 ms did not always), the first answer never does.
    let client = driver.client(
        sandbox.base_url(),
        config::partner().timeout(Duration::from_millis(1_500)),
    );
    assert!(!client.plans(&SmartPlansQuery::new()).unwrap().is_empty());
    let stats = sandbox.stats();
    assert_eq!((stats.requests, stats.nonce_rejections), (2, 0));
}

/// How an order's failed answer must reach the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    Api(u16, ApiErrorClass),
    Decode(u16, DecodeErrorKind),
    Transport(TransportErrorKind, Delivery),
}

/// What became of an order whose answer failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Refused by the exchange's rules: known not to be executed.
    Refused,
    /// Not executed, but the client cannot know that: the outcome is unknown.
    Unknown,
    /// Executed, and its answer lost on the way: the outcome is unknown.
    Lost,
}

fn an_order_whose_answer_fails_is_reported_and_never_resent(driver: &dyn Driver) {
    use ApiErrorClass::{RegionRestricted, Unavailable};
    use DecodeErrorKind::{Empty, Html, NotJson};
    use Failure::{Api, Decode, Transport};
    use Fate::{Lost, Refused, Unknown};
    use TransportErrorKind::{Io, ResponseTooLarge};
    let region =
        r#"{"code":0,"message":"This order type is not available in your region.","errors":{}}"#;
    let maintenance = r#"{"response":null,"status":503,"errors":{"message":["Service is under maintenance"]},"notification":null,"warning":null,"_token":null}"#;
    let gateway = r#"{"status":503,"errors":{"message":["Too many requests."]}}"#;
    let maybe_sent = Delivery::MaybeSent;
    // A 5xx is never "not executed", whatever its body says.
    let table = [
        (answer(453, region), Api(453, RegionRestricted), Refused),
        (answer(503, maintenance), Api(503, Unavailable), Unknown),
        (answer(503, gateway), Api(503, Unavailable), Unknown),
        (Fault::Unavailable, Decode(503, Empty), Unknown),
        (Fault::HtmlBadGateway, Decode(502, Html), Unknown),
        (Fault::TruncatedBody, Decode(200, NotJson), Lost),
        (Fault::CloseMidResponse, Transport(Io, maybe_sent), Lost),
        (
            Fault::OversizedBody(2 << 20),
            Transport(ResponseTooLarge, maybe_sent),
            Lost,
        ),
    ];
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Sell, "0.01", "60000")
        .build()
        .unwrap();
    for ((fault, failure, fate), route) in table.iter().flat_map(|row| {
        [Route::CollateralMarket, Route::CollateralTriggerMarket].map(|route| (row, route))
    }) {
        let what = format!("{fault:?} on {route:?}");
        let sandbox = Sandbox::start().unwrap();
        sandbox.inject_fault(route, fault.clone(), None);
        let client = driver.client(sandbox.base_url(), config::partner());
        let error = match route {
            Route::CollateralTriggerMarket => client.trigger(&trigger).unwrap_err(),
            _ => client.market(&market("0.01")).unwrap_err(),
        };
        let reached = match cause(&error) {
            txc_core::Error::Api(e) => Api(e.status, e.class),
            txc_core::Error::Decode(e) => Decode(e.status, e.kind),
            txc_core::Error::Transport(e) => Transport(e.kind, e.delivery),
            other => panic!("{what}: {other:?}"),
        };
        assert_eq!(reached, *failure, "{what}");
        let unknown = *fate != Refused;
        assert_eq!(error.outcome_unknown(), unknown, "{what}: {error}");
        assert_eq!(error.pending_order().is_some(), unknown, "{what}");
        assert!(!error.is_retryable(), "{what}: {error}");
        assert_eq!(sandbox.stats().requests, 1, "{what}: not resent");
        let executed = usize::from(*fate == Lost);
        assert_eq!(sandbox.orders().len(), executed, "{what}");
    }
}

fn an_unannounced_oversized_answer_is_cut_off(driver: &dyn Driver) {
    // No `Content-Length`: the cap is enforced while reading.
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::CollateralMarket, Fault::Chunked(4096), Some(1));
    let client = driver.client(
        sandbox.base_url(),
        config::partner().max_response_bytes(1024),
    );
    let (error, kind, delivery) = transport(client.market(&market("0.01")));
    assert_eq!(
        (kind, delivery),
        (TransportErrorKind::ResponseTooLarge, Delivery::MaybeSent)
    );
    assert!(error.outcome_unknown());
    assert_eq!(sandbox.stats().requests, 1, "not resent");
    assert_eq!(sandbox.orders().len(), 1, "the order was placed");

    // The same kind of answer within the cap is read to its end.
    sandbox.inject_fault(Route::CollateralMarket, Fault::Chunked(0), Some(1));
    let placed = client.market(&market("0.01")).unwrap();
    assert_eq!(sandbox.orders().last(), Some(&placed));
}

fn a_stopped_server_is_a_connect_error(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(
        sandbox.base_url(),
        config::partner().retry_policy(RetryPolicy::disabled()),
    );
    client.market(&market("0.001")).unwrap();
    sandbox.stop_listener();
    let (error, kind, delivery) = transport(client.market(&market("0.001")));
    // A pooled connection may have been cut after the request was written: either way is
    // honest, but a refused connection must say it was not sent.
    if kind == TransportErrorKind::Connect {
        assert_eq!(delivery, Delivery::NotSent);
        assert!(error.is_retryable());
    } else {
        assert_eq!(delivery, Delivery::MaybeSent, "{error:?}");
    }
    sandbox.restart_listener().unwrap();
    client.market(&market("0.001")).unwrap();
    assert_eq!(sandbox.orders().len(), 2);
}

// ---------------------------------------------------------------------------------------------
// Scenarios: retries are signed afresh and succeed.

fn plans_are_retried_after_a_503(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    sandbox.inject_fault(Route::SmartPlans, Fault::Unavailable, Some(1));
    let client = driver.client(sandbox.base_url(), config::partner());
    assert!(!client.plans(&SmartPlansQuery::new()).unwrap().is_empty());
    let stats = sandbox.stats();
    assert_eq!(
        (stats.requests, stats.faults_injected, stats.plans_served),
        (2, 1, 1)
    );
}

fn an_order_is_resent_with_a_fresh_nonce_after_a_stale_one(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    // Without the nonce window the exchange wants nonces above the key's last one. Another
    // client of the same key has just sent a nonce 5 s ahead of the clock (room for a loaded
    // host to be slow before this client's first attempt)...
    let ahead = NonceSequence::new();
    ahead.next(now_ms() + 5_000);
    let other = driver.client(
        sandbox.base_url(),
        config::partner().nonce_window(false).nonce_sequence(ahead),
    );
    other.market(&market("0.001")).unwrap();
    // ...so this client's first nonce (the clock) is stale: `Too many requests.` proves the
    // order was not taken, and the retry, signed 6 s later, carries a fresh nonce.
    let client = driver.client(
        sandbox.base_url(),
        config::partner().nonce_window(false).retry_policy(
            RetryPolicy::new(2, Duration::from_secs(6), Duration::from_secs(6))
                .with_quick_retry(Duration::from_secs(6)),
        ),
    );
    let placed = client.market(&market("0.002")).unwrap();
    assert_eq!(placed.amount.as_str(), "0.002");
    let stats = sandbox.stats();
    assert_eq!(stats.nonce_rejections, 1);
    assert_eq!(
        stats.rejections_by_message.get("Too many requests."),
        Some(&1)
    );
    assert_eq!(sandbox.orders().len(), 2);
}

fn five_hundred_concurrent_orders_never_collide(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let results = client.concurrent_markets(&market("0.001"), 500);
    let failures: Vec<_> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(failures.is_empty(), "{failures:?}");
    let stats = sandbox.stats();
    assert_eq!(stats.nonce_rejections, 0);
    assert_eq!(stats.rejections, 0);
    assert_eq!(stats.accepted_orders, 500);
    assert_eq!(sandbox.orders().len(), 500);
}

// ---------------------------------------------------------------------------------------------
// The table: every scenario, once per transport.

scenarios![
    market_order_is_placed,
    trigger_order_rests_then_fires,
    smart_plans_are_listed,
    amount_below_minimum_is_refusal_32,
    short_balance_is_insufficient_balance_10,
    keys_the_exchange_refuses_get_its_answer,
    the_rate_limit_is_too_many_requests,
    a_2xx_carrying_an_order_is_placed_whatever_else_it_says,
    a_2xx_that_is_no_order_leaves_the_outcome_unknown,
    a_cdn_429_is_the_rate_limit_for_orders_and_plans,
    retry_after_is_honoured,
    a_timeout_leaves_the_order_placed_once,
    a_timed_out_read_is_retried,
    an_order_whose_answer_fails_is_reported_and_never_resent,
    an_unannounced_oversized_answer_is_cut_off,
    a_stopped_server_is_a_connect_error,
    plans_are_retried_after_a_503,
    an_order_is_resent_with_a_fresh_nonce_after_a_stale_one,
    five_hundred_concurrent_orders_never_collide,
];
