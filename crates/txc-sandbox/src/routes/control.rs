//! The control API under `/sandbox/v1/`: set prices (one, or a path of them), balances and
//! funding rates, settle funding now, list orders, read statistics and accounts, reset. No authentication: the sandbox is a loopback test double.

use std::collections::BTreeMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State as Extract};
use axum::response::Response;
use http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::answer::Answer;
use super::shared::Shared;
use crate::auth::Exchange;
use crate::config::{PriceStep, SandboxError};
use crate::state::{Outcome, Position, funding_records_json};
use crate::wire::decimal;

#[derive(Deserialize)]
struct PriceBody {
    market: String,
    price: String,
}

#[derive(Deserialize)]
struct StepBody {
    price: String,
    #[serde(default)]
    volume: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PathBody {
    market: String,
    steps: Vec<StepBody>,
    /// Played in the background, one step every so many milliseconds, when given.
    #[serde(default)]
    interval_ms: Option<u64>,
}

#[derive(Deserialize)]
struct FundingRateBody {
    market: String,
    rate: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BalanceBody {
    api_key: String,
    ticker: String,
    amount: String,
}

/// `POST /sandbox/v1/price {"market":"BTC_USDT","price":"65000"}`: sets the price, fires
/// the trigger orders it reaches; answers `{"market":..,"price":..,"triggered":N}`.
pub(super) async fn price(Extract(shared): Extract<Arc<Shared>>, body: Bytes) -> Response {
    let answer = match serde_json::from_slice::<PriceBody>(&body) {
        Err(e) => bad_body(&e),
        Ok(b) => match shared.lock().state.set_price(&b.market, &b.price) {
            Ok(triggered) => ok(&json!({
                "market": b.market,
                "price": b.price,
                "triggered": triggered,
            })),
            Err(e) => failed(&e),
        },
    };
    answer.into_response()
}

/// `POST /sandbox/v1/price-path {"market":"BTC_USDT","steps":[{"price":"64000"},
/// {"price":"63500","volume":"0.25"}]}`: moves the price along the steps, at once — answers
/// `{"market","moves":[{"market","price","filled","triggered"},…]}` — or, with
/// `"intervalMs":N`, one step every N ms in the background, answering
/// `{"market","scheduled":steps}` once the path is checked.
pub(super) async fn price_path(Extract(shared): Extract<Arc<Shared>>, body: Bytes) -> Response {
    let answer = match serde_json::from_slice::<PathBody>(&body) {
        Err(e) => bad_body(&e),
        Ok(b) => {
            let steps: Vec<PriceStep> = b
                .steps
                .into_iter()
                .map(|s| {
                    let step = PriceStep::to(s.price);
                    match s.volume {
                        Some(volume) => step.volume(volume),
                        None => step,
                    }
                })
                .collect();
            match b.interval_ms {
                None => match shared.lock().state.follow(&b.market, &steps) {
                    Ok(moves) => ok(&json!({"market": b.market, "moves": moves})),
                    Err(e) => failed(&e),
                },
                Some(ms) => {
                    let checked = shared.lock().state.check_path(&b.market, &steps);
                    match checked {
                        Ok(()) => {
                            let count = steps.len();
                            tokio::spawn(play(
                                Arc::downgrade(&shared.exchange),
                                b.market.clone(),
                                steps,
                                Duration::from_millis(ms),
                            ));
                            ok(&json!({"market": b.market, "scheduled": count}))
                        }
                        Err(e) => failed(&e),
                    }
                }
            }
        }
    };
    answer.into_response()
}

/// Moves `market` along `steps` (checked), one step every `every`, the first after `every`;
/// stops early if the exchange is gone or a step fails.
pub(crate) async fn play(
    exchange: Weak<Exchange>,
    market: String,
    steps: Vec<PriceStep>,
    every: Duration,
) {
    for step in steps {
        tokio::time::sleep(every).await;
        let Some(exchange) = exchange.upgrade() else {
            return;
        };
        if exchange
            .lock()
            .state
            .follow(&market, std::slice::from_ref(&step))
            .is_err()
        {
            return;
        }
    }
}

/// `POST /sandbox/v1/balance {"apiKey":..,"ticker":"USDT","amount":"5000"}`: sets a balance;
/// answers the body back.
pub(super) async fn balance(Extract(shared): Extract<Arc<Shared>>, body: Bytes) -> Response {
    let answer = match serde_json::from_slice::<BalanceBody>(&body) {
        Err(e) => bad_body(&e),
        Ok(b) => match shared
            .lock()
            .state
            .set_balance(&b.api_key, &b.ticker, &b.amount)
        {
            Ok(()) => ok(&json!({
                "apiKey": b.api_key,
                "ticker": b.ticker,
                "amount": b.amount,
            })),
            Err(e) => failed(&e),
        },
    };
    answer.into_response()
}

/// `POST /sandbox/v1/funding` (any body): settles funding now on every perpetual market with a
/// rate, off the schedule; answers `{"payments":[…]}`, each payment as the funding history
/// lists it with its account's `apiKey`.
pub(super) async fn funding(Extract(shared): Extract<Arc<Shared>>) -> Response {
    let payments = {
        let mut locked = shared.lock();
        let now = locked.state.clock.now_us();
        locked.state.catch_up(now);
        funding_records_json(&locked.state.funding_tick(now))
    };
    ok(&json!({ "payments": payments })).into_response()
}

/// `POST /sandbox/v1/funding-rate {"market":"BTC_PERP","rate":"-0.0002"}`: sets a perpetual
/// market's funding rate; echoes the body.
pub(super) async fn funding_rate(Extract(shared): Extract<Arc<Shared>>, body: Bytes) -> Response {
    let answer = match serde_json::from_slice::<FundingRateBody>(&body) {
        Err(e) => bad_body(&e),
        Ok(b) => match shared.lock().state.set_funding_rate(&b.market, &b.rate) {
            Ok(()) => ok(&json!({"market": b.market, "rate": b.rate})),
            Err(e) => failed(&e),
        },
    };
    answer.into_response()
}

/// `GET /sandbox/v1/orders`: every accepted order, in id order.
pub(super) async fn orders(Extract(shared): Extract<Arc<Shared>>) -> Response {
    let orders = shared.lock().state.order_records();
    ok(&orders).into_response()
}

/// `GET /sandbox/v1/stats`: the counters of [`crate::SandboxStats`].
pub(super) async fn stats(Extract(shared): Extract<Arc<Shared>>) -> Response {
    let stats = shared.lock().state.stats.clone();
    ok(&stats).into_response()
}

/// `POST /sandbox/v1/reset`: back to the initial state; answers `{"reset":true}`.
pub(super) async fn reset(Extract(shared): Extract<Arc<Shared>>) -> Response {
    shared.reset();
    ok(&json!({ "reset": true })).into_response()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AccountView {
    api_key: String,
    enabled: bool,
    partner: bool,
    position_mode: &'static str,
    leverage: String,
    balances: BTreeMap<String, String>,
    main_balances: BTreeMap<String, String>,
    positions: Vec<Position>,
}

/// `GET /sandbox/v1/accounts/{apiKey}`: balances and open positions of an account.
pub(super) async fn account(
    Extract(shared): Extract<Arc<Shared>>,
    Path(api_key): Path<String>,
) -> Response {
    let locked = shared.lock();
    let state = &locked.state;
    let answer = match state.accounts.get(&api_key) {
        None => failed(&SandboxError::UnknownAccount(api_key)),
        Some(account) => ok(&AccountView {
            api_key: api_key.clone(),
            enabled: account.spec.terms.enabled,
            partner: account.spec.terms.partner,
            position_mode: account.spec.terms.mode.as_str(),
            leverage: decimal::text(account.spec.leverage),
            balances: account
                .balances
                .iter()
                .map(|(t, v)| (t.clone(), decimal::text(*v)))
                .collect(),
            main_balances: account
                .main
                .iter()
                .map(|(t, v)| (t.clone(), decimal::text(*v)))
                .collect(),
            positions: state.positions_of(&api_key),
        }),
    };
    drop(locked);
    answer.into_response()
}

fn ok(value: &impl Serialize) -> Answer {
    Answer::ok(value, Outcome::Served)
}

fn bad_body(error: &serde_json::Error) -> Answer {
    Answer::protocol(StatusCode::BAD_REQUEST, &format!("Invalid body: {error}"))
}

fn failed(error: &SandboxError) -> Answer {
    let status = match error {
        SandboxError::UnknownMarket(_) | SandboxError::UnknownAccount(_) => StatusCode::NOT_FOUND,
        _ => StatusCode::BAD_REQUEST,
    };
    Answer::protocol(status, &error.to_string())
}
