//! A scripted model of the exchange for the reconciliation machines, on a simulated clock: its
//! own clock (an offset from the local one, on which it stamps `Date` and creation times), the
//! nonce rules (±5 s window, or strictly increasing), `clientOrderId` unique among open orders
//! (code 36), orders created up to 5 s after their request was accepted, look-ups that answer
//! from the state as it was up to 20 s ago (each look-up its own lag), the B2B cancel gap,
//! trigger orders that fill or are canceled later, OTO groups in the conditional list (or only
//! there), requests that arrive late, and answers lost at every step.

#![allow(dead_code, unreachable_pub)]

use std::collections::{HashSet, VecDeque};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::HeaderMap;
use serde_json::{Value, json};
use txc_core::decode::{Response, TransportError, TransportErrorKind};
use txc_core::{ClientConfig, Machine, Step};
use txc_sign::nonce::NonceSequence;
use txc_sign::{Credentials, SignedRequest};
use txc_types::orders::{CollateralMarketOrder, Side};

pub const MARKET: &str = "BTC_USDT";

/// Where every case's simulated clock starts.
pub fn start() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_700_000_000)
}

/// The client the cases drive against the model: its own nonces, no pacing, the settling
/// delay of 10 s (a case needing another sets it).
pub fn config() -> ClientConfig {
    ClientConfig::new(Credentials::new("k", "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .nonce_sequence(NonceSequence::new())
        .no_rate_limit()
        .settle_delay(Duration::from_secs(10))
}

/// A market order of 0.01 on [`MARKET`] with `cid`.
pub fn market_order(cid: &str) -> CollateralMarketOrder {
    CollateralMarketOrder::builder(MARKET, Side::Buy, "0.01")
        .client_order_id(cid)
        .build()
        .unwrap()
}
/// The exchange's nonce window.
const WINDOW_MS: u64 = 5_000;
/// The first order's id, and the first OTO group's.
const FIRST_ID: u64 = 4_180_300_001;
const FIRST_OTO: u64 = 29_457_302;
/// Half a round trip: a request arrives this long after it is sent, its answer as long after.
const HALF_TRIP: Duration = Duration::from_millis(15);

/// What happens to one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Processed and answered.
    Normal,
    /// Processed; the answer is lost (the connection resets).
    LoseAnswer,
    /// Not processed; HTTP 503.
    Unavailable,
    /// Processed; HTTP 503 instead of the answer.
    AnswerThen503,
    /// Not sent: the connection was refused.
    NotSent,
    /// Arrives this many milliseconds late; the client times out waiting.
    Straggle(u64),
}

/// What becomes of our trigger order after it is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Later {
    /// It rests.
    #[default]
    Rests,
    /// It fills this many milliseconds after creation.
    Fills(u64),
    /// It is canceled this many milliseconds after creation.
    Canceled(u64),
}

/// Someone else's order with the same `clientOrderId`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reuse {
    #[default]
    None,
    /// A market order filled a minute before.
    FinishedBefore,
    /// A trigger order resting since a minute before, canceled this many ms after the first
    /// order request arrives.
    OpenBefore(u64),
    /// A market order created 11 s after the first attempt's nonce time (window mode only:
    /// outside every attempt's window).
    Later,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Filled,
    Canceled,
}

#[derive(Debug, Clone)]
pub struct ExOrder {
    pub id: u64,
    pub cid: String,
    /// Creation time, exchange clock (ms).
    pub created: u64,
    pub trigger: bool,
    pub oto: Option<u64>,
    /// The final status and when it is reached (exchange clock), if ever.
    end: Option<(Status, u64)>,
    /// Placed by the machine under test.
    pub ours: bool,
}

impl ExOrder {
    /// Whether it ends canceled.
    pub fn canceled(&self) -> bool {
        matches!(self.end, Some((Status::Canceled, _)))
    }

    fn exists(&self, t: u64) -> bool {
        self.created <= t
    }

    fn open_at(&self, t: u64) -> bool {
        self.exists(t) && self.end.is_none_or(|(_, at)| at > t)
    }

    fn finished_at(&self, t: u64) -> Option<(Status, u64)> {
        self.end.filter(|(_, at)| *at <= t && self.exists(t))
    }
}

/// Values taken in turn, cycled: 0 when there are none.
#[derive(Debug, Clone, Default)]
pub struct Cycle {
    values: Vec<u64>,
    turn: usize,
}

impl Cycle {
    /// The value whose turn it is.
    fn next(&mut self) -> u64 {
        let value = self
            .values
            .get(self.turn % self.values.len().max(1))
            .copied()
            .unwrap_or(0);
        self.turn += 1;
        value
    }
}

impl From<Vec<u64>> for Cycle {
    fn from(values: Vec<u64>) -> Self {
        Self { values, turn: 0 }
    }
}

/// The model.
#[derive(Default)]
pub struct Exchange {
    /// Exchange clock minus local clock, ms.
    pub offset_ms: i64,
    pub strict: bool,
    pub b2b: bool,
    /// OTO trigger orders are listed only among the conditional orders.
    pub oto_only_conditional: bool,
    /// The fate of each request in turn (then `Normal`).
    pub fates: VecDeque<Fate>,
    /// Each look-up's lag in turn (ms).
    pub lags: Cycle,
    /// Each order's creation delay in turn (ms).
    pub creation_delays: Cycle,
    /// What becomes of our trigger orders.
    pub later: Later,
    /// Our market orders are canceled unfilled.
    pub cancel_market: bool,
    pub reuse: Reuse,
    /// Look-ups by `clientOrderId` list every open order, whatever their id.
    pub ignore_filters: bool,
    /// The conditional list's `total` counts one record more than it has.
    pub total_lies: bool,
    pub orders: Vec<ExOrder>,
    /// Requests by path, in arrival order.
    pub log: Vec<String>,
    /// Look-ups (and clock reads) that met a fate other than `Normal`.
    pub read_trouble: u32,
    /// Order requests after the first that met another fate or were refused.
    pub later_order_trouble: u32,
    /// Order requests (the first included) that met another fate or were refused.
    pub order_trouble: u32,
    pub order_requests: u32,
    /// Requests the clients sent (a straggler counts when sent, not when it arrives).
    pub served: u32,
    /// Whether the first order request was seen (someone else's order arranged).
    pub seeded: bool,
    pub used: HashSet<u64>,
    pub last_strict: u64,
    pub stragglers: Vec<(u64, SignedRequest)>,
    /// How many orders (and OTO groups) were made so far.
    pub orders_made: u64,
    pub otos_made: u64,
}

/// An answer: status and body, or a transport failure.
type Answer = Result<(u16, Vec<u8>), TransportError>;

fn json_answer(status: u16, v: &Value) -> Answer {
    Ok((status, v.to_string().into_bytes()))
}

fn seconds(ms: u64) -> Value {
    serde_json::from_str(&format!("{}.{:03}", ms / 1_000, ms % 1_000)).unwrap_or(Value::Null)
}

impl Exchange {
    /// Our orders the exchange created (whenever they were created).
    pub fn ours(&self) -> Vec<&ExOrder> {
        self.orders.iter().filter(|o| o.ours).collect()
    }

    /// Exchange time at local `now`, ms.
    pub fn exchange_ms(&self, local: SystemTime) -> u64 {
        let ms = i128::from(txc_sign::nonce::unix_millis(local)) + i128::from(self.offset_ms);
        u64::try_from(ms.max(0)).unwrap_or_default()
    }

    /// Seeds someone else's order before the first attempt.
    pub fn seed(&mut self, cid: &str, start_exchange_ms: u64) {
        match self.reuse {
            Reuse::FinishedBefore => {
                let created = start_exchange_ms.saturating_sub(60_000);
                self.add_filled_market_order_of_theirs(cid, created);
            }
            Reuse::OpenBefore(_) => {
                let created = start_exchange_ms.saturating_sub(60_000);
                let oto = Some(self.next_oto());
                self.add(cid, created, true, oto, None, false);
            }
            Reuse::None | Reuse::Later => {}
        }
    }

    fn next_oto(&mut self) -> u64 {
        let oto = FIRST_OTO + self.otos_made;
        self.otos_made += 1;
        oto
    }

    /// Our market order with `cid` placed over the WebSocket (no nonce, no request here),
    /// created and filled at `created` (exchange ms); its id.
    #[allow(dead_code)] // Only the socket cases.
    pub fn add_socket_order(&mut self, cid: &str, created: u64) -> u64 {
        self.add_filled_market_order(cid, created, true)
    }

    /// The id the next order made gets.
    pub fn next_id(&self) -> u64 {
        FIRST_ID + self.orders_made
    }

    /// Someone else's market order with `cid`, created (and filled) at `created`.
    fn add_filled_market_order_of_theirs(&mut self, cid: &str, created: u64) {
        self.add_filled_market_order(cid, created, false);
    }

    /// A market order with `cid`, created and filled at `created` (`ours` or someone else's).
    fn add_filled_market_order(&mut self, cid: &str, created: u64, ours: bool) -> u64 {
        self.add(
            cid,
            created,
            false,
            None,
            Some((Status::Filled, created)),
            ours,
        )
    }

    fn add(
        &mut self,
        cid: &str,
        created: u64,
        trigger: bool,
        oto: Option<u64>,
        end: Option<(Status, u64)>,
        ours: bool,
    ) -> u64 {
        let id = self.next_id();
        self.orders_made += 1;
        self.orders.push(ExOrder {
            id,
            cid: cid.to_owned(),
            created,
            trigger,
            oto,
            end,
            ours,
        });
        id
    }

    /// The exchange time whose state a look-up answered at `t` shows: `t` less its lag.
    fn seen_at(&mut self, t: u64) -> u64 {
        t.saturating_sub(self.lags.next())
    }

    fn creation_delay(&mut self) -> u64 {
        self.creation_delays.next().min(WINDOW_MS)
    }

    /// Processes every late request that has arrived by exchange time `until`.
    pub fn flush(&mut self, until: u64) {
        loop {
            let next = self
                .stragglers
                .iter()
                .enumerate()
                .filter(|(_, (at, _))| *at <= until)
                .min_by_key(|(_, (at, _))| *at)
                .map(|(i, _)| i);
            let Some(i) = next else { return };
            let (at, request) = self.stragglers.remove(i);
            let _ = self.process(&request, at);
        }
    }

    /// Handles `request` arriving at exchange time `t`: its fate, then (if processed) the
    /// exchange's answer.
    fn serve(&mut self, request: SignedRequest, t: u64) -> Answer {
        self.served += 1;
        self.flush(t);
        let fate = self.fates.pop_front().unwrap_or(Fate::Normal);
        let path = request.uri().path().to_owned();
        let is_order = path.starts_with("/api/v4/order/collateral/");
        if is_order {
            self.order_requests += 1;
        }
        if fate != Fate::Normal && is_order {
            self.order_trouble += 1;
        }
        if fate != Fate::Normal {
            if is_order && self.order_requests > 1 {
                self.later_order_trouble += 1;
            } else if !is_order {
                self.read_trouble += 1;
            }
        }
        let lost = || TransportError::maybe_sent(TransportErrorKind::Io, "connection reset");
        match fate {
            Fate::Normal => {
                let answer = self.process(&request, t);
                let refused = answer.as_ref().is_ok_and(|(s, _)| *s != 200);
                if is_order && refused {
                    self.order_trouble += 1;
                    if self.order_requests > 1 {
                        self.later_order_trouble += 1;
                    }
                }
                answer
            }
            Fate::LoseAnswer => {
                let _ = self.process(&request, t);
                Err(lost())
            }
            Fate::AnswerThen503 => {
                let _ = self.process(&request, t);
                Ok((503, Vec::new()))
            }
            Fate::Unavailable => Ok((503, Vec::new())),
            Fate::NotSent => Err(TransportError::not_sent(
                TransportErrorKind::Connect,
                "connection refused",
            )),
            Fate::Straggle(ms) => {
                self.stragglers.push((t + ms, request));
                Err(TransportError::maybe_sent(
                    TransportErrorKind::Timeout,
                    "timed out",
                ))
            }
        }
    }

    fn process(&mut self, request: &SignedRequest, t: u64) -> Answer {
        let path = request.uri().path().to_owned();
        self.log.push(path.clone());
        if path == "/api/v4/public/time" {
            return json_answer(200, &json!({ "time": t / 1_000 }));
        }
        let body: Value = serde_json::from_slice(request.body()).unwrap_or(Value::Null);
        let nonce = body["nonce"].as_u64().unwrap_or_default();
        if self.strict {
            if nonce <= self.last_strict {
                return json_answer(
                    429,
                    &json!({"code": 0, "errors": {}, "message": "Too many requests."}),
                );
            }
            self.last_strict = nonce;
        } else if nonce.abs_diff(t) > WINDOW_MS || !self.used.insert(nonce) {
            return json_answer(
                401,
                &json!({"code": 0,
                        "message": "Your nonce is more than 5 seconds lesser than the current nonce"}),
            );
        }
        let cid = body["clientOrderId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        match path.as_str() {
            "/api/v4/orders" => {
                let at = self.seen_at(t);
                let orders: Vec<Value> = self
                    .orders
                    .iter()
                    .filter(|o| (self.ignore_filters || o.cid == cid) && o.open_at(at))
                    .filter(|o| !(self.oto_only_conditional && o.oto.is_some()))
                    .map(|o| order_json(o, "OPEN"))
                    .collect();
                json_answer(200, &Value::Array(orders))
            }
            "/api/v4/trade-account/order/history" => {
                let at = self.seen_at(t);
                let listed = self.history_at(at);
                let by_id = !cid.is_empty();
                let mut found: Vec<Value> = listed
                    .into_iter()
                    .filter(|(o, _)| !by_id || o.cid == cid)
                    .filter(|(o, _)| {
                        by_id || o.created / 1_000 >= body["startDate"].as_u64().unwrap_or(0)
                    })
                    .map(|(o, (status, at))| history_json(o, status, at))
                    .collect();
                if by_id && found.is_empty() {
                    return json_answer(
                        422,
                        &json!({"code": 30, "message": "Validation failed",
                                "errors": {"orderHistory": ["OrderHistory was not found."]}}),
                    );
                }
                if !by_id {
                    let offset = body["offset"].as_u64().unwrap_or(0) as usize;
                    let limit = body["limit"].as_u64().unwrap_or(50) as usize;
                    found = found.into_iter().skip(offset).take(limit).collect();
                }
                if found.is_empty() {
                    return json_answer(200, &json!([]));
                }
                json_answer(200, &json!({ MARKET: found }))
            }
            "/api/v4/conditional-orders" => {
                let at = self.seen_at(t);
                let groups: Vec<Value> = self
                    .orders
                    .iter()
                    .filter(|o| o.oto.is_some() && o.open_at(at))
                    .map(|o| {
                        json!({"id": o.oto, "type": "oto", "stopLossPrice": "50000",
                               "conditionalOrder": order_json(o, "OPEN")})
                    })
                    .collect();
                let offset = body["offset"].as_u64().unwrap_or(0) as usize;
                let limit = body["limit"].as_u64().unwrap_or(100) as usize;
                let total = groups.len() + usize::from(self.total_lies);
                let page: Vec<Value> = groups.into_iter().skip(offset).take(limit).collect();
                json_answer(
                    200,
                    &json!({"limit": limit, "offset": offset, "total": total, "records": page}),
                )
            }
            order if order.starts_with("/api/v4/order/collateral/") => {
                let trigger = order.ends_with("trigger-market");
                self.place(&body, &cid, trigger, t)
            }
            _ => json_answer(
                404,
                &json!({"code": 0, "message": "Not found.", "errors": {}}),
            ),
        }
    }

    /// The finished orders as the history shows them at `at`, newest first.
    fn history_at(&self, at: u64) -> Vec<(&ExOrder, (Status, u64))> {
        let mut listed: Vec<(&ExOrder, (Status, u64))> = self
            .orders
            .iter()
            .filter_map(|o| o.finished_at(at).map(|end| (o, end)))
            .filter(|(_, (status, _))| !(self.b2b && *status == Status::Canceled))
            .collect();
        listed.sort_by_key(|(o, _)| std::cmp::Reverse(o.created));
        listed
    }

    fn place(&mut self, body: &Value, cid: &str, trigger: bool, t: u64) -> Answer {
        if !std::mem::replace(&mut self.seeded, true) {
            if let Reuse::OpenBefore(after) = self.reuse
                && let Some(theirs) = self.orders.iter_mut().find(|o| !o.ours && o.end.is_none())
            {
                theirs.end = Some((Status::Canceled, t + after));
            }
            if self.reuse == Reuse::Later && !self.strict && !self.orders.iter().any(|o| !o.ours) {
                let nonce = body["nonce"].as_u64().unwrap_or(t);
                let created = nonce + 11_000;
                self.add_filled_market_order_of_theirs(cid, created);
            }
        }
        if self.orders.iter().any(|o| o.cid == cid && o.open_at(t)) {
            return json_answer(
                422,
                &json!({"code": 36, "message": "Validation failed",
                        "errors": {"clientOrderId":
                            ["This client order id is already used by the current account."]}}),
            );
        }
        let created = t + self.creation_delay();
        let oto = (body.get("stopLoss").is_some() || body.get("takeProfit").is_some())
            .then(|| self.next_oto());
        let end = if trigger {
            match self.later {
                Later::Rests => None,
                Later::Fills(after) => Some((Status::Filled, created + after)),
                Later::Canceled(after) => Some((Status::Canceled, created + after)),
            }
        } else if self.cancel_market {
            Some((Status::Canceled, created))
        } else {
            Some((Status::Filled, created))
        };
        let id = self.add(cid, created, trigger, oto, end, true);
        let order = self.orders.iter().find(|o| o.id == id).cloned();
        let status = match end {
            Some((Status::Filled, at)) if at == created => "FILLED",
            Some((Status::Canceled, at)) if at == created => "CANCELED",
            _ => "OPEN",
        };
        match order {
            Some(order) => json_answer(200, &order_json(&order, status)),
            None => Ok((500, Vec::new())),
        }
    }
}

fn order_json(o: &ExOrder, status: &str) -> Value {
    let mut v = json!({
        "orderId": o.id, "clientOrderId": o.cid, "market": MARKET, "side": "buy",
        "type": if o.trigger { "stop market" } else { "market" },
        "timestamp": seconds(o.created), "dealMoney": "0", "dealStock": "0", "amount": "0.01",
        "left": "0.01", "status": status
    });
    if let Some(oto) = o.oto {
        v["oto"] = json!({"otoId": oto, "stopLoss": "50000"});
    }
    v
}

fn history_json(o: &ExOrder, status: Status, at: u64) -> Value {
    json!({
        "id": o.id, "clientOrderId": o.cid, "side": "buy",
        "type": if o.trigger { "stop market" } else { "market" },
        "amount": "0.01", "price": "0", "ctime": seconds(o.created), "ftime": seconds(at),
        "dealStock": "0.01", "dealMoney": "650",
        "status": if status == Status::Filled { "FILLED" } else { "CANCELED" }
    })
}

impl Exchange {
    /// Serves `request` sent at local `now`; the answer (with its `Date`) comes back a round
    /// trip ([`ROUND_TRIP`]) later.
    pub fn round_trip(
        &mut self,
        request: SignedRequest,
        now: SystemTime,
    ) -> Result<(u16, HeaderMap, Vec<u8>), TransportError> {
        let arrives = self.exchange_ms(now + HALF_TRIP);
        let (status, body) = self.serve(request, arrives)?;
        let mut headers = HeaderMap::new();
        let date = UNIX_EPOCH + Duration::from_millis(arrives);
        let date = httpdate::fmt_http_date(date);
        headers.insert(http::header::DATE, date.parse().unwrap());
        Ok((status, headers, body))
    }
}

/// A request's round trip through the scripted exchange.
#[allow(dead_code)] // Only the files that drive by hand.
pub const ROUND_TRIP: Duration = Duration::from_millis(30);

/// Drives `machine` against `exchange` on a simulated local clock from `start`; returns the
/// output and how long it took. Requests take a round trip of 30 ms.
pub fn drive<M: Machine>(
    machine: M,
    exchange: &mut Exchange,
    start: SystemTime,
) -> (M::Output, Duration) {
    match drive_until(machine, exchange, start, None) {
        Driven::Done(output, end) => (output, end.duration_since(start).unwrap_or_default()),
        Driven::Crashed(_) => unreachable!("no crash was asked for"),
    }
}

/// Where a process dies while it drives a machine: at its `at_step`th step (counting from 0) —
/// if that step sends, the request reaches the exchange first when `reaches`, and its answer
/// is lost with the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crash {
    pub at_step: usize,
    pub reaches: bool,
}

/// A restart: the process dies at a step of its call (see [`Crash`]), `after_ms` pass, and a
/// new process builds its client on the same journal and makes the same call again — first
/// with the plain call (a placement, an investment) when `plain_first`, which must be refused
/// before any I/O while the journal holds a record of it.
#[derive(Debug, Clone, Copy)]
pub struct Restart {
    pub crash: Crash,
    pub after_ms: u64,
    pub plain_first: bool,
}

/// A restart at one of the first `steps` steps, up to `after_ms` later.
pub fn restart(steps: usize, after_ms: u64) -> impl proptest::strategy::Strategy<Value = Restart> {
    use proptest::prelude::*;
    (0..steps, any::<bool>(), 0..after_ms, any::<bool>()).prop_map(
        |(at_step, reaches, after_ms, plain_first)| Restart {
            crash: Crash { at_step, reaches },
            after_ms,
            plain_first,
        },
    )
}

/// How a drive ended: the machine's output and the local time, or a crash at that time.
pub enum Driven<T> {
    Done(T, SystemTime),
    Crashed(SystemTime),
}

/// [`drive`], dying at `crash` if the machine gets that far: the machine is dropped (as a
/// process's memory is lost); whatever its journal holds is what is left. A machine that
/// sent something and finished lets every request still in flight arrive; one that sent
/// nothing (a call refused before any I/O) leaves them in flight — they arrive in time order
/// with the next process's requests, not before them.
pub fn drive_until<M: Machine>(
    mut machine: M,
    exchange: &mut Exchange,
    start: SystemTime,
    crash: Option<Crash>,
) -> Driven<M::Output> {
    let mut now = start;
    let mut step = 0;
    let mut sent = false;
    loop {
        let next = machine.next(now);
        let dies = crash.filter(|c| c.at_step == step);
        step += 1;
        match next {
            Step::Wait(d) if dies.is_some() => return Driven::Crashed(now + d / 2),
            Step::Wait(d) => now += d,
            Step::Send(request) => {
                if let Some(crash) = dies {
                    if crash.reaches {
                        let _ = exchange.round_trip(request, now);
                    }
                    return Driven::Crashed(now + ROUND_TRIP);
                }
                let answer = exchange.round_trip(request, now);
                sent = true;
                now += ROUND_TRIP;
                match answer {
                    Ok((status, headers, body)) => {
                        machine.receive(Ok(Response::new(status, &body).with_headers(&headers)));
                    }
                    Err(failure) => machine.receive(Err(failure)),
                }
            }
            Step::Done(output) => {
                if sent {
                    exchange.flush(u64::MAX);
                }
                return Driven::Done(output, now);
            }
        }
    }
}
