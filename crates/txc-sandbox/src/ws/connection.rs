//! `GET /ws` ([`route`]) and one WebSocket connection: its requests (authorize, ping,
//! subscriptions), the updates of its channels, its request budget, its idle timeout and the
//! faults.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use super::fault::Command;
use super::hub::WsHub;
use super::market_feeds::{self, ADL_EVERY_TICKS, PREMIUM_INDEX_EVERY};
use super::orders::{self, Method};
use super::records;
use crate::auth::Exchange;
use crate::state::{Change, OrderChange};
use crate::wire::decimal;

/// The window of the per-connection request limit.
const WINDOW: Duration = Duration::from_secs(60);

/// The channels a connection subscribed, with their parameters.
#[derive(Debug, Default)]
struct Subscriptions {
    pending: Option<Vec<String>>,
    /// Markets and filter (0 all, 1 limit only, 2 market only).
    executed: Option<(Vec<String>, u64)>,
    deals: Option<Vec<String>>,
    balance: Option<Vec<String>>,
    positions: bool,
    position_events: bool,
    /// `ADLQuantile`: every market (`None` inside) or one.
    adl: Option<Option<String>>,
    /// `premiumIndex`: every perpetual market (empty) or these.
    premium: Option<Vec<String>>,
}

/// A connection's state.
struct Connection {
    exchange: Arc<Exchange>,
    hub: Arc<WsHub>,
    api_key: Option<String>,
    subs: Subscriptions,
    requests: VecDeque<Instant>,
    /// The balances last sent, by asset.
    balances: BTreeMap<String, String>,
    /// Drop the connection now, unanswered ([`crate::WsFault::DropAfterOrder`]).
    drop_now: bool,
    /// Premium-index periods since the connection opened.
    ticks: u64,
}

/// `GET /ws` of `exchange`: upgrades to a WebSocket and serves it, sharing `hub`.
pub(crate) fn route<S>(exchange: Arc<Exchange>, hub: Arc<WsHub>) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    get(move |upgrade: WebSocketUpgrade| {
        let (exchange, hub) = (Arc::clone(&exchange), Arc::clone(&hub));
        async move { upgrade.on_upgrade(move |socket| serve(socket, exchange, hub)) }
    })
}

/// Serves one connection until it closes, is dropped by a fault, or idles out.
async fn serve(mut socket: WebSocket, exchange: Arc<Exchange>, hub: Arc<WsHub>) {
    let _open = hub.open();
    let mut changes = hub.changes();
    let mut commands = hub.commands();
    let idle = exchange.settings().ws_idle_timeout;
    let limit = usize::try_from(exchange.settings().ws_requests_per_minute).unwrap_or(usize::MAX);
    let mut conn = Connection {
        exchange,
        hub,
        api_key: None,
        subs: Subscriptions::default(),
        requests: VecDeque::new(),
        balances: BTreeMap::new(),
        drop_now: false,
        ticks: 0,
    };
    let mut feeds = tokio::time::interval(PREMIUM_INDEX_EVERY);
    let mut deadline = Instant::now() + idle;
    loop {
        let out = tokio::select! {
            biased;
            command = commands.recv() => match command {
                Ok(Command::Drop) | Err(RecvError::Closed) => return,
                Ok(Command::Stall(d)) => {
                    tokio::time::sleep(d).await;
                    Vec::new()
                }
                Ok(Command::UnknownEvent) if conn.api_key.is_some() => vec![text(json!({
                    "id": null,
                    "method": "sandbox_unknown_update",
                    "params": [{"note": "an event the exchange does not document"}],
                }))],
                Ok(Command::MalformedFrames) => malformed(),
                Ok(_) | Err(RecvError::Lagged(_)) => Vec::new(),
            },
            message = socket.recv() => match message {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(message)) => {
                    deadline = Instant::now() + idle;
                    let request = match message {
                        Message::Text(t) => Some(t.as_str().to_owned()),
                        Message::Binary(b) => Some(String::from_utf8_lossy(&b).into_owned()),
                        _ => None,
                    };
                    match request {
                        Some(request) => {
                            if !conn.admit(limit) {
                                let _ = close(&mut socket, 1008, "too many requests").await;
                                return;
                            }
                            let out = conn.request(&request);
                            if conn.drop_now {
                                return;
                            }
                            out
                        }
                        None => Vec::new(),
                    }
                }
            },
            change = changes.recv(), if conn.api_key.is_some() => match change {
                Ok(change) => conn.updates(&change),
                Err(RecvError::Lagged(_)) => {
                    let _ = close(&mut socket, 1011, "too slow").await;
                    return;
                }
                Err(RecvError::Closed) => return,
            },
            _ = feeds.tick(), if conn.subs.premium.is_some() || conn.subs.adl.is_some() => conn.tick(),
            () = tokio::time::sleep_until(deadline) => {
                let _ = close(&mut socket, 1000, "idle").await;
                return;
            }
        };
        for message in out {
            if socket.send(message).await.is_err() {
                return;
            }
        }
    }
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) -> Result<(), axum::Error> {
    socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await
}

fn text(value: Value) -> Message {
    Message::Text(value.to_string().into())
}

/// The frames of [`super::WsFault::MalformedFrames`](crate::WsFault::MalformedFrames).
fn malformed() -> Vec<Message> {
    vec![
        Message::Text("this is not JSON".into()),
        Message::Text("[1,2,3]".into()),
        Message::Text(r#"{"id":"seven","result":{}}"#.into()),
        Message::Binary(vec![0xff, 0xfe, 0x00, b'{'].into()),
        Message::Text(r#"{"id":null,"method":"deals_update","params":["not a deal"]}"#.into()),
    ]
}

/// An answer to request `id`.
fn answer(id: &Value, result: Result<Value, (u8, &str)>) -> Message {
    match result {
        Ok(result) => text(json!({"id": id, "result": result, "error": null})),
        Err((code, message)) => text(json!({
            "id": id,
            "result": null,
            "error": {"code": code, "message": message},
        })),
    }
}

const INVALID: (u8, &str) = (1, "invalid argument");
const UNAUTHENTICATED: (u8, &str) = (6, "require authentication");
const REFUSED: (u8, &str) = (6, "authorization failed");

impl Connection {
    /// Whether one more request fits the budget of the last minute.
    fn admit(&mut self, limit: usize) -> bool {
        let now = Instant::now();
        while self
            .requests
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            self.requests.pop_front();
        }
        if self.requests.len() >= limit {
            return false;
        }
        self.requests.push_back(now);
        true
    }

    /// Answers one request, and sends what subscribing shows at once.
    fn request(&mut self, text: &str) -> Vec<Message> {
        let Ok(Value::Object(request)) = serde_json::from_str::<Value>(text) else {
            return vec![answer(&Value::Null, Err(INVALID))];
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let method = request.get("method").and_then(Value::as_str).unwrap_or("");
        let empty = Vec::new();
        let params = match request.get("params") {
            Some(Value::Array(params)) => params,
            None => &empty,
            Some(_) => return vec![answer(&id, Err(INVALID))],
        };
        let success = || Ok(json!({"status": "success"}));
        match method {
            "ping" => vec![answer(&id, Ok(json!("pong")))],
            "authorize" => vec![answer(
                &id,
                self.authorize(params)
                    .map(|()| json!({"status": "success"})),
            )],
            name if let Some(order) = Method::of(name) => {
                let Some(api_key) = self.api_key.clone() else {
                    return vec![answer(&id, Err(UNAUTHENTICATED))];
                };
                let served = orders::serve(&self.exchange, &api_key, order, params);
                if self.hub.take_drop_after_order() {
                    // Processed, and the connection lost before the answer.
                    self.drop_now = true;
                    return Vec::new();
                }
                let value = match served {
                    Ok(result) => json!({"id": id, "result": result, "error": null}),
                    Err((code, message)) => json!({
                        "id": id,
                        "result": null,
                        "error": {"code": code, "message": message},
                    }),
                };
                vec![Message::Text(value.to_string().into())]
            }
            _ => {
                let Some((stem, action)) = method.rsplit_once('_') else {
                    return vec![answer(&id, Err(INVALID))];
                };
                if !matches!(action, "subscribe" | "unsubscribe") || !is_channel(stem) {
                    return vec![answer(&id, Err(INVALID))];
                }
                // The premium index is public: no `authorize` needed.
                if self.api_key.is_none() && stem != "premiumIndex" {
                    return vec![answer(&id, Err(UNAUTHENTICATED))];
                }
                if action == "unsubscribe" {
                    self.unsubscribe(stem);
                    return vec![answer(&id, success())];
                }
                match self.subscribe(stem, params) {
                    Ok(()) => {
                        let mut out = vec![answer(&id, success())];
                        if stem == "positionsMargin" {
                            out.extend(self.positions());
                        }
                        if stem == "ADLQuantile" {
                            out.extend(self.adl());
                        }
                        out
                    }
                    Err(e) => vec![answer(&id, Err(e))],
                }
            }
        }
    }

    fn authorize(&mut self, params: &[Value]) -> Result<(), (u8, &'static str)> {
        let token = params.first().and_then(Value::as_str).ok_or(INVALID)?;
        if self.hub.take_refusal() {
            return Err(REFUSED);
        }
        let api_key = self
            .exchange
            .lock()
            .tokens
            .api_key(token)
            .map(str::to_owned)
            .ok_or(REFUSED)?;
        self.api_key = Some(api_key);
        Ok(())
    }

    fn subscribe(&mut self, stem: &str, params: &[Value]) -> Result<(), (u8, &'static str)> {
        let markets = |list: Option<&Value>| -> Result<Vec<String>, (u8, &'static str)> {
            let list = list.and_then(Value::as_array).ok_or(INVALID)?;
            let names = strings(list)?;
            let known = self.exchange.markets();
            if names.iter().all(|m| known.get(m).is_some()) {
                Ok(names)
            } else {
                Err(INVALID)
            }
        };
        let whole = Value::Array(params.to_vec());
        match stem {
            "ordersPending" => self.subs.pending = Some(markets(Some(&whole))?),
            "ordersExecuted" => {
                let filter = params.get(1).and_then(Value::as_u64).unwrap_or(0);
                if filter > 2 {
                    return Err(INVALID);
                }
                self.subs.executed = Some((markets(params.first())?, filter));
            }
            "deals" => self.subs.deals = Some(markets(params.first())?),
            "balanceMargin" => self.subs.balance = Some(strings(params)?),
            "positionsMargin" => self.subs.positions = true,
            "ADLQuantile" => {
                let market = match params {
                    [] => None,
                    [Value::String(m)] if market_feeds::is_perpetual(&self.exchange, m) => {
                        Some(m.clone())
                    }
                    _ => return Err(INVALID),
                };
                self.subs.adl = Some(market);
            }
            "premiumIndex" => {
                let names = if params.is_empty() {
                    Vec::new()
                } else {
                    strings(params)?
                };
                if !names
                    .iter()
                    .all(|m| market_feeds::is_perpetual(&self.exchange, m))
                {
                    return Err(INVALID);
                }
                self.subs.premium = Some(names);
            }
            _ => self.subs.position_events = true,
        }
        Ok(())
    }

    /// One premium-index period: its pushes, and every 30 s the ADL quantiles.
    fn tick(&mut self) -> Vec<Message> {
        self.ticks += 1;
        let mut out = Vec::new();
        if let Some(markets) = &self.subs.premium {
            for params in market_feeds::premium_index(&self.exchange, markets) {
                out.push(update("premiumIndex_update", params));
            }
        }
        if self.ticks.is_multiple_of(ADL_EVERY_TICKS) {
            out.extend(self.adl());
        }
        out
    }

    /// The ADL quantiles, when subscribed.
    fn adl(&self) -> Vec<Message> {
        let (Some(api_key), Some(market)) = (self.api_key.as_deref(), &self.subs.adl) else {
            return Vec::new();
        };
        vec![update(
            "ADLQuantile_update",
            market_feeds::adl_quantiles(&self.exchange, api_key, market.as_deref()),
        )]
    }

    fn unsubscribe(&mut self, stem: &str) {
        match stem {
            "ordersPending" => self.subs.pending = None,
            "ordersExecuted" => self.subs.executed = None,
            "deals" => self.subs.deals = None,
            "balanceMargin" => self.subs.balance = None,
            "positionsMargin" => self.subs.positions = false,
            "ADLQuantile" => self.subs.adl = None,
            "premiumIndex" => self.subs.premium = None,
            _ => self.subs.position_events = false,
        }
    }

    /// The updates `change` makes on this connection's channels.
    fn updates(&mut self, change: &Change) -> Vec<Message> {
        let Some(api_key) = self.api_key.clone() else {
            return Vec::new();
        };
        match change {
            Change::Account { api_key: key } if *key == api_key => {
                let mut out = self.balances(&api_key);
                if self.subs.positions {
                    out.extend(self.positions());
                }
                out
            }
            Change::Margin {
                api_key: key,
                stage,
                position,
            } if *key == api_key && self.subs.position_events => vec![update(
                "positionsAccountMargin_update",
                records::margin_event(*stage, position),
            )],
            Change::Order {
                change,
                order,
                deals,
            } if order.api_key == api_key => {
                let market = order.market();
                let has = |list: &Option<Vec<String>>| {
                    list.as_ref().is_some_and(|l| l.iter().any(|m| m == market))
                };
                let now = self.exchange.clock().now_us();
                let fee_asset = self
                    .exchange
                    .markets()
                    .get(market)
                    .map_or_else(String::new, |m| m.collateral.clone());
                let mut out = Vec::new();
                if has(&self.subs.pending) {
                    let event = match change {
                        OrderChange::New => 1,
                        OrderChange::Updated => 2,
                        OrderChange::Finished => 3,
                    };
                    out.push(update(
                        "ordersPending_update",
                        json!([event, records::order(order, now, None)]),
                    ));
                }
                if deals.is_empty() {
                    return out;
                }
                // Filter 1: limit orders only; 2: market orders only (stop orders by what
                // they become).
                let limit = order.price().is_some();
                let executed = self
                    .subs
                    .executed
                    .as_ref()
                    .is_some_and(|(markets, filter)| {
                        markets.iter().any(|m| m == market)
                            && match filter {
                                1 => limit,
                                2 => !limit,
                                _ => true,
                            }
                    });
                if executed {
                    out.push(update(
                        "ordersExecuted_update",
                        json!([records::order(order, now, Some(&fee_asset))]),
                    ));
                }
                if has(&self.subs.deals) {
                    for deal in deals {
                        out.push(update(
                            "deals_update",
                            records::deal(order, deal, &fee_asset),
                        ));
                    }
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// The subscribed assets' balances that changed since last sent.
    fn balances(&mut self, api_key: &str) -> Vec<Message> {
        let Some(assets) = self.subs.balance.clone() else {
            return Vec::new();
        };
        let now: Vec<(String, rust_decimal::Decimal)> = {
            let locked = self.exchange.lock();
            let Some(account) = locked.state.accounts.get(api_key) else {
                return Vec::new();
            };
            assets
                .iter()
                .map(|a| (a.clone(), account.balance(a)))
                .collect()
        };
        let mut changed = Vec::new();
        for (asset, amount) in now {
            let text = decimal::text(amount);
            if self.balances.get(&asset) != Some(&text) {
                changed.push(records::balance(&asset, amount));
                self.balances.insert(asset, text);
            }
        }
        if changed.is_empty() {
            Vec::new()
        } else {
            vec![update("balanceMargin_update", Value::Array(changed))]
        }
    }

    /// The positions snapshot.
    fn positions(&self) -> Vec<Message> {
        let Some(api_key) = self.api_key.as_deref() else {
            return Vec::new();
        };
        let views = self.exchange.lock().state.position_views(api_key, None);
        vec![update("positionsMargin_update", records::positions(&views))]
    }
}

fn update(method: &str, params: Value) -> Message {
    text(json!({"id": null, "method": method, "params": params}))
}

fn is_channel(stem: &str) -> bool {
    matches!(
        stem,
        "ordersPending"
            | "ordersExecuted"
            | "deals"
            | "balanceMargin"
            | "positionsMargin"
            | "positionsAccountMargin"
            | "ADLQuantile"
            | "premiumIndex"
    )
}

/// Every item as a string; at least one.
fn strings(items: &[Value]) -> Result<Vec<String>, (u8, &'static str)> {
    let names: Option<Vec<String>> = items
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect();
    names.filter(|n| !n.is_empty()).ok_or(INVALID)
}
