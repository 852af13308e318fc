//! Reconciliation as sans-IO state machines: placing with a generated `clientOrderId`,
//! resolving an unknown outcome, and placing exactly once — driven against a scripted model of
//! the exchange, with the clock passed in.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use serde_json::{Value, json};
use txc_sign::{
    ClientConfig, ClientCore, ClientOrderIds, Credentials, Error, Machine, NonceSequence, Placed,
    Resolution, Response, SignedRequest, Step, TransportError, TransportErrorKind,
};
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder, NewOrder, Side};

fn config() -> ClientConfig {
    ClientConfig::new(Credentials::new("k", "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .nonce_sequence(NonceSequence::new())
        .client_order_id_generator(ClientOrderIds::with_prefix(7))
}

fn core() -> ClientCore {
    config().build().unwrap()
}

fn start() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_700_000_000)
}

fn market_order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .build()
        .unwrap()
}

/// What the model exchange does with one order request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Executes it and answers.
    Answer,
    /// Executes it; the response is lost (the connection drops).
    ExecuteThenDrop,
    /// Executes it and answers 503.
    ExecuteThen503,
    /// Does not execute it; answers 503.
    Refuse503,
    /// Does not execute it; answers 429.
    Refuse429,
    /// Does not execute it; the connection was refused before sending.
    NotSent,
}

fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        Just(Fate::Answer),
        Just(Fate::ExecuteThenDrop),
        Just(Fate::ExecuteThen503),
        Just(Fate::Refuse503),
        Just(Fate::Refuse429),
        Just(Fate::NotSent),
    ]
}

/// A model of the exchange: orders it executed (by `clientOrderId`), and what happens to the
/// next requests.
#[derive(Default)]
struct Exchange {
    executed: Vec<(u64, String)>,
    fates: Vec<Fate>,
    /// Look-ups fail with 503 while this is above zero.
    failing_lookups: u32,
    /// Only history look-ups fail.
    failing_history_only: bool,
    requests: Vec<String>,
}

fn order_json(id: u64, client_order_id: &str) -> Value {
    json!({
        "orderId": id, "clientOrderId": client_order_id, "market": "BTC_USDT", "side": "buy",
        "type": "market", "timestamp": 1_700_000_000.5, "dealMoney": "650", "dealStock": "0.01",
        "amount": "0.01", "left": "0", "status": "FILLED"
    })
}

impl Exchange {
    /// The response to `request`: `Ok((status, body))` or a transport failure.
    fn serve(&mut self, request: &SignedRequest) -> Result<(u16, Vec<u8>), TransportError> {
        let path = request.uri().path().to_owned();
        self.requests.push(path.clone());
        let body: Value = serde_json::from_slice(request.body()).unwrap();
        let cid = body["clientOrderId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let json = |status, v: Value| Ok((status, v.to_string().into_bytes()));
        match path.as_str() {
            "/api/v4/orders" | "/api/v4/trade-account/order/history"
                if self.failing_lookups > 0
                    && (!self.failing_history_only || path.ends_with("history")) =>
            {
                self.failing_lookups -= 1;
                Ok((503, Vec::new()))
            }
            // Market orders never rest: nothing is open.
            "/api/v4/orders" => json(200, json!([])),
            "/api/v4/trade-account/order/history" => {
                match self.executed.iter().find(|(_, c)| *c == cid) {
                    Some((id, c)) => json(
                        200,
                        json!({"BTC_USDT": [{
                            "id": id, "clientOrderId": c, "side": "buy", "type": "market",
                            "amount": "0.01", "price": "0", "ctime": 1_700_000_000.5,
                            "ftime": 1_700_000_000.6, "dealStock": "0.01", "dealMoney": "650",
                            "status": "FILLED"
                        }]}),
                    ),
                    None => json(
                        422,
                        json!({"code": 30, "message": "Validation failed",
                               "errors": {"orderHistory": ["OrderHistory was not found."]}}),
                    ),
                }
            }
            _ => {
                let fate = if self.fates.is_empty() {
                    Fate::Answer
                } else {
                    self.fates.remove(0)
                };
                let id = 4_180_300_001 + self.executed.len() as u64;
                let executes = matches!(
                    fate,
                    Fate::Answer | Fate::ExecuteThenDrop | Fate::ExecuteThen503
                );
                if executes {
                    self.executed.push((id, cid.clone()));
                }
                match fate {
                    Fate::Answer => json(200, order_json(id, &cid)),
                    Fate::ExecuteThenDrop => Err(TransportError::maybe_sent(
                        TransportErrorKind::Io,
                        "connection reset",
                    )),
                    Fate::ExecuteThen503 | Fate::Refuse503 => Ok((503, Vec::new())),
                    Fate::Refuse429 => json(
                        429,
                        json!({"code": 0, "errors": {}, "message": "Too many requests."}),
                    ),
                    Fate::NotSent => Err(TransportError::not_sent(
                        TransportErrorKind::Connect,
                        "connection refused",
                    )),
                }
            }
        }
    }
}

/// Drives `machine` against `exchange` on a simulated clock; returns the output and the time
/// it took.
fn drive<M: Machine>(mut machine: M, exchange: &mut Exchange) -> (M::Output, Duration) {
    let mut now = start();
    loop {
        match machine.next(now) {
            Step::Wait(d) => now += d,
            Step::Send(request) => match exchange.serve(&request) {
                Ok((status, body)) => machine.receive(Ok(Response::new(status, &body))),
                Err(failure) => machine.receive(Err(failure)),
            },
            Step::Done(output) => return (output, now.duration_since(start()).unwrap()),
        }
    }
}

#[test]
fn orders_without_a_client_order_id_get_one_and_keep_it_across_retries() {
    let core = core();
    let order = market_order();
    let mut exchange = Exchange {
        fates: vec![Fate::Refuse429, Fate::Answer],
        ..Exchange::default()
    };
    let (placed, _) = drive(core.place(&order), &mut exchange);
    let placed = placed.unwrap();
    assert_eq!(
        placed.client_order_id.as_deref(),
        Some("txc-0000000000007-1")
    );
    assert_eq!(
        exchange.executed,
        [(4_180_300_001, "txc-0000000000007-1".to_owned())]
    );
    // The caller's own id is kept; turning generation off sends none.
    let own = market_order().with_client_order_id("mine-1".parse().unwrap());
    assert_eq!(
        core.place(&own)
            .order()
            .fields()
            .client_order_id()
            .unwrap()
            .as_str(),
        "mine-1"
    );
    let without = config().client_order_ids(false).build().unwrap();
    assert!(
        without
            .place(&order)
            .order()
            .fields()
            .client_order_id()
            .is_none()
    );
}

#[test]
fn an_unknown_outcome_carries_what_resolving_needs() {
    let core = core();
    let order = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Sell, "0.01", "60000")
        .build()
        .unwrap();
    let mut exchange = Exchange {
        fates: vec![Fate::Refuse429, Fate::ExecuteThen503],
        ..Exchange::default()
    };
    let (result, _) = drive(core.place(&order), &mut exchange);
    let error = result.unwrap_err();
    assert!(error.outcome_unknown() && !error.is_retryable());
    assert_eq!(error.status(), Some(503), "the cause shows through");
    let Error::OutcomeUnknown(unknown) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(unknown.operation, "collateral_trigger_market_order");
    let pending = error.pending_order().unwrap();
    assert_eq!(pending.market().as_str(), "BTC_USDT");
    assert_eq!(
        pending.client_order_id().unwrap().as_str(),
        "txc-0000000000007-1"
    );
    assert_eq!(pending.attempts().len(), 2, "the 429 and the 503");
    assert!(pending.attempts()[1].nonce > pending.attempts()[0].nonce);
    let chain = std::error::Error::source(&error).map(ToString::to_string);
    assert!(chain.unwrap().contains("503"), "{error}");
}

#[test]
fn resolving_waits_for_the_settling_delay_then_looks_up_open_orders_then_history() {
    let core = config()
        .settle_delay(Duration::from_secs(10))
        .build()
        .unwrap();
    let order = market_order();
    let mut exchange = Exchange {
        fates: vec![Fate::ExecuteThenDrop],
        ..Exchange::default()
    };
    let (result, _) = drive(core.place(&order), &mut exchange);
    let pending = result.unwrap_err().pending_order().unwrap().clone();
    exchange.requests.clear();

    let mut resolve = core.resolve(pending.clone());
    // At the attempt's own time: wait out the delay from the nonce time (window mode).
    let nonce_time = UNIX_EPOCH + Duration::from_millis(pending.attempts()[0].nonce.get());
    let Step::Wait(wait) = resolve.next(start()) else {
        panic!("no settling")
    };
    assert_eq!(
        start() + wait,
        nonce_time.max(start()) + Duration::from_secs(10)
    );
    let (resolution, took) = drive(resolve, &mut exchange);
    assert!(took >= Duration::from_secs(10));
    let Resolution::Placed(Placed::Finished(found)) = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(found.id, 4_180_300_001);
    assert_eq!(
        exchange.requests,
        ["/api/v4/orders", "/api/v4/trade-account/order/history"]
    );

    // Never executed: both look-ups come back empty — not placed.
    let mut empty = Exchange::default();
    let (resolution, _) = drive(core.resolve(pending.clone()), &mut empty);
    assert_eq!(resolution.unwrap(), Resolution::NotPlaced);
}

#[test]
fn a_failing_look_up_is_still_unknown_never_not_placed() {
    let core = config()
        .retry_policy(txc_sign::RetryPolicy::disabled())
        .build()
        .unwrap();
    let pending = txc_sign::PendingOrder::new(
        "BTC_USDT".parse().unwrap(),
        Some("txc-x-1".parse().unwrap()),
        vec![],
    );
    // The open-orders look-up fails; then, with it answering, the history look-up fails.
    for history_only in [false, true] {
        let mut exchange = Exchange {
            failing_lookups: 1,
            failing_history_only: history_only,
            ..Exchange::default()
        };
        let (resolution, _) = drive(core.resolve(pending.clone()), &mut exchange);
        let error = resolution.unwrap_err();
        assert!(error.outcome_unknown(), "{error}");
        assert_eq!(error.status(), Some(503));
        assert_eq!(exchange.requests.len(), 1 + usize::from(history_only));
    }
    // An order sent without a clientOrderId cannot be looked up.
    let anonymous = txc_sign::PendingOrder::new("BTC_USDT".parse().unwrap(), None, vec![]);
    let (resolution, _) = drive(core.resolve(anonymous), &mut Exchange::default());
    assert!(resolution.unwrap_err().outcome_unknown());
}

#[test]
fn placing_once_resends_only_what_was_resolved_as_not_placed() {
    let core = core();
    let order = market_order();
    // Refused with a 503 (not executed): resolved as not placed, sent again, answered.
    let mut exchange = Exchange {
        fates: vec![Fate::Refuse503, Fate::Answer],
        ..Exchange::default()
    };
    let (placed, _) = drive(core.place_once(&order), &mut exchange);
    assert!(matches!(placed.unwrap(), Placed::Answered(_)));
    assert_eq!(exchange.executed.len(), 1);
    // Executed, then the response lost: found by the look-up, not sent again.
    let mut exchange = Exchange {
        fates: vec![Fate::ExecuteThenDrop, Fate::Answer],
        ..Exchange::default()
    };
    let (placed, _) = drive(core.place_once(&order), &mut exchange);
    let Placed::Finished(found) = placed.unwrap() else {
        panic!()
    };
    assert_eq!(exchange.executed.len(), 1);
    assert_eq!(found.id, exchange.executed[0].0);
    // Refused every time: not placed, after the client's maximum of placements.
    let mut exchange = Exchange {
        fates: vec![Fate::Refuse503; 5],
        ..Exchange::default()
    };
    let (placed, _) = drive(core.place_once(&order), &mut exchange);
    let error = placed.unwrap_err();
    assert!(matches!(error, Error::NotPlaced(_)), "{error}");
    assert!(error.is_retryable() && !error.outcome_unknown());
    assert_eq!(error.pending_order().unwrap().attempts().len(), 3);
    assert!(exchange.executed.is_empty());
}

proptest! {
    /// Whatever the exchange does with each request — execute and answer, execute and lose the
    /// response, execute and answer 503, refuse — placing once never executes the order twice,
    /// says "placed" only when it was, and "not placed" only when it was not.
    #[test]
    fn placing_once_never_doubles(fates in proptest::collection::vec(fate(), 0..8), failing in 0..3u32) {
        let core = core();
        let order = market_order();
        let mut exchange = Exchange { fates, failing_lookups: failing, ..Exchange::default() };
        let (result, _) = drive(core.place_once(&order), &mut exchange);
        prop_assert!(exchange.executed.len() <= 1, "doubled: {:?}", exchange.executed);
        match result {
            Ok(placed) => {
                prop_assert_eq!(exchange.executed.len(), 1);
                prop_assert_eq!(placed.order_id(), exchange.executed[0].0);
            }
            Err(Error::NotPlaced(_)) => prop_assert!(exchange.executed.is_empty()),
            // A look-up failed: it cannot tell, and says so.
            Err(e) if e.outcome_unknown() => prop_assert!(failing > 0, "{}", e),
            // Refused every time (429s, refused connections): nothing was executed.
            Err(e) => prop_assert!(exchange.executed.is_empty(), "{}", e),
        }
    }
}
