//! A scripted model of the exchange for the operations that move money — investing in a fixed
//! plan, investing in and withdrawing from a flex plan — on a simulated clock: the exchange's
//! clock runs apart from the client's, requests arrive late or never, answers are lost, the
//! list that shows the operations (the investments list; the flex history) lags and look-ups
//! fail, other writers of the key make operations of their own — and the exchange accepts a
//! nonce only as its rules say (±5 s with `nonceWindow`, increasing without). The properties
//! every such operation keeps, whatever happens, are [`check_script`] and [`check_run`]: never
//! done twice, never a wrong "done", "cannot tell" only where the cases are indistinguishable.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::HeaderMap;
use proptest::prelude::*;
use serde_json::{Value, json};
use txc_core::decode::{Response, TransportError, TransportErrorKind};
use txc_core::pacing::RetryPolicy;
use txc_core::resolve::{
    FlexDone, Invested, InvestmentWriters, MoneyMove, MoveOnce, MoveSearch, Moving, PendingMove,
    Resolver,
};
use txc_core::{ClientConfig, ClientCore, Error, Machine, Step};
use txc_sign::nonce::{NonceMode, NonceSequence};
use txc_sign::{Credentials, SignedRequest};
use txc_types::investments::Invest;
use txc_types::investments::flex::{FlexInvest, FlexWithdraw};

use crate::exchange::{Crash, Driven, Restart};
use crate::journal::MemoryJournal;

/// The plan of every operation: the docs' fixed plan, or the spec's flex USDT plan.
pub const FIXED_PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";
pub const FLEX_PLAN: &str = "8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f";
pub const SETTLE: Duration = Duration::from_secs(2);

/// The flex history's actions.
pub const INVEST: u64 = 1;
pub const WITHDRAW: u64 = 3;
pub const DAILY_EARNING: u64 = 4;
pub const OPEN: u64 = 6;

/// The client the cases drive: the key's only writer ([`InvestmentWriters::Sole`]) unless a
/// case says otherwise.
pub fn config(mode: NonceMode) -> ClientConfig {
    ClientConfig::new(Credentials::new("k", "s").unwrap())
        .base_url("http://127.0.0.1:1")
        .nonce_sequence(NonceSequence::new())
        .nonce_window(mode == NonceMode::Window)
        .no_rate_limit()
        .unproven_settle_delay(SETTLE)
        .investment_writers(InvestmentWriters::Sole)
        .retry_policy(RetryPolicy::new(
            4,
            Duration::from_millis(50),
            Duration::from_millis(200),
        ))
}

pub fn core(mode: NonceMode) -> ClientCore {
    config(mode).build().unwrap()
}

pub fn start() -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(1_700_000_000_000)
}

pub fn ms(t: SystemTime) -> u64 {
    u64::try_from(t.duration_since(UNIX_EPOCH).unwrap().as_millis()).unwrap()
}

/// What an operation is to the model: which list shows it, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A fixed plan's investment: the investments list shows one record per investment.
    Fixed,
    /// A flex investment: the flex history shows it as `INVEST` (or `OPEN_INVESTMENT`).
    FlexInvest,
    /// A flex withdrawal: the flex history shows it as `WITHDRAW_FROM_INVESTMENT`.
    FlexWithdraw,
}

impl Kind {
    /// The history's action of the kind's operations (flex), or 0 (fixed).
    fn action(self) -> u64 {
        match self {
            Self::Fixed => 0,
            Self::FlexInvest => INVEST,
            Self::FlexWithdraw => WITHDRAW,
        }
    }

    /// The actions that show an operation of the kind.
    pub fn shows(self, action: u64) -> bool {
        match self {
            Self::Fixed => true,
            Self::FlexInvest => action == INVEST || action == OPEN,
            Self::FlexWithdraw => action == WITHDRAW,
        }
    }

    /// An action that does not show an operation of the kind: someone else's other
    /// operation of the same amount, which must never be taken for ours.
    fn other_action(self) -> u64 {
        match self {
            Self::Fixed | Self::FlexInvest => WITHDRAW,
            Self::FlexWithdraw => INVEST,
        }
    }
}

/// What the model exchange does with one request of the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Arrives at once, is judged, and answered.
    Answer,
    /// Arrives at once and is judged; the answer is lost (a reset connection).
    LoseAnswer,
    /// Arrives this many milliseconds later; the client times out after 1 s meanwhile.
    Late(u64),
    /// Not processed: 503.
    Refuse503,
    /// Processed, then 503.
    Process503,
    /// The connection was refused: never sent.
    NotSent,
    /// Refused: 422 (the balance, or what is invested).
    Reject,
}

pub fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        Just(Fate::Answer),
        Just(Fate::LoseAnswer),
        (0u64..12_000).prop_map(Fate::Late),
        Just(Fate::Refuse503),
        Just(Fate::Process503),
        Just(Fate::NotSent),
        Just(Fate::Reject),
    ]
}

/// A record the model's list holds: an investment (fixed), a history record (flex).
#[derive(Debug, Clone)]
pub struct Record {
    pub id: String,
    pub amount: String,
    pub created_ms: u64,
    pub visible_ms: u64,
    /// The flex history's action (0 for a fixed investment).
    pub action: u64,
    /// Made by an attempt of the call under test (not pre-existing, nobody else's).
    pub ours: bool,
}

/// A model of the exchange.
pub struct Exchange {
    pub kind: Kind,
    /// The exchange's clock minus the client's, in ms.
    pub skew_ms: i64,
    /// How long after acceptance a record is created (at most the creation allowance).
    pub creation_delay_ms: u64,
    /// How long after creation a record shows in the list (at most the settling delay).
    pub lag_ms: u64,
    pub fates: Vec<Fate>,
    /// The next look-ups (pages) that fail with 503, not processed.
    pub failing_lookups: u32,
    /// Our flex investments reopen a closed investment: the history says `OPEN_INVESTMENT`.
    pub reopens: bool,
    /// The history's page size when the request sends none, and the most it serves.
    pub page_limit: usize,
    pub records: Vec<Record>,
    /// Window nonces accepted; the greatest strict nonce accepted.
    used: BTreeSet<u64>,
    max_strict: u64,
    /// Requests on their way: (arrival, nonce, window, amount).
    in_flight: Vec<(u64, u64, bool, String)>,
    pub lookups: u32,
    /// Other writers' operations of the plan (local time, amount, whether of the same kind),
    /// made when the clock gets there: another process of the account, a person on the
    /// website.
    pub others: Vec<(u64, String, bool)>,
    /// Requests the clients sent.
    pub served: u32,
}

impl Exchange {
    pub fn new(kind: Kind, fates: Vec<Fate>) -> Self {
        Self {
            kind,
            skew_ms: 0,
            creation_delay_ms: 0,
            lag_ms: 0,
            fates,
            failing_lookups: 0,
            reopens: false,
            page_limit: 50,
            records: Vec::new(),
            used: BTreeSet::new(),
            max_strict: 0,
            in_flight: Vec::new(),
            lookups: 0,
            others: Vec::new(),
            served: 0,
        }
    }

    fn server_ms(&self, local_ms: u64) -> u64 {
        local_ms.saturating_add_signed(self.skew_ms)
    }

    pub fn ours(&self) -> Vec<&Record> {
        self.records.iter().filter(|r| r.ours).collect()
    }

    /// A record of someone else's, created at `created_ms` (exchange clock), shown at once.
    pub fn theirs(&mut self, amount: &str, created_ms: u64, same_kind: bool) {
        let action = if same_kind {
            self.kind.action()
        } else {
            self.kind.other_action()
        };
        self.records.push(Record {
            id: format!("theirs-{}", self.records.len() + 1),
            amount: amount.to_owned(),
            created_ms,
            visible_ms: 0,
            action,
            ours: false,
        });
    }

    /// The nonce rules at `local_ms`.
    fn accept(&mut self, nonce: u64, window: bool, local_ms: u64) -> bool {
        if window {
            let server = self.server_ms(local_ms);
            if nonce.abs_diff(server) > 5_000 || !self.used.insert(nonce) {
                return false;
            }
            true
        } else if nonce > self.max_strict {
            self.max_strict = nonce;
            true
        } else {
            false
        }
    }

    /// Judges an operation arriving at `local_ms`: its record's id when it was made.
    fn process(&mut self, nonce: u64, window: bool, amount: &str, local_ms: u64) -> Option<String> {
        if !self.accept(nonce, window, local_ms) {
            return None;
        }
        let created = self.server_ms(local_ms) + self.creation_delay_ms;
        let prefix = if self.kind == Kind::Fixed {
            "inv"
        } else {
            "tx"
        };
        let id = format!("{prefix}-{}", self.records.len() + 1);
        let action = if self.reopens && self.kind == Kind::FlexInvest {
            OPEN
        } else {
            self.kind.action()
        };
        self.records.push(Record {
            id: id.clone(),
            amount: amount.to_owned(),
            created_ms: created,
            visible_ms: created + self.lag_ms,
            action,
            ours: true,
        });
        Some(id)
    }

    /// Everything in flight that has arrived by `local_ms`, in order of arrival.
    pub fn advance(&mut self, local_ms: u64) {
        self.others.sort_by_key(|o| o.0);
        while self.others.first().is_some_and(|o| o.0 <= local_ms) {
            let (at, amount, same_kind) = self.others.remove(0);
            let created = self.server_ms(at);
            self.theirs(&amount, created, same_kind);
            if let Some(theirs) = self.records.last_mut() {
                theirs.visible_ms = created + self.lag_ms;
            }
        }
        self.in_flight.sort_by_key(|f| f.0);
        while self.in_flight.first().is_some_and(|f| f.0 <= local_ms) {
            let (at, nonce, window, amount) = self.in_flight.remove(0);
            self.process(nonce, window, &amount, at);
        }
    }

    fn headers(&self, local_ms: u64) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let date = UNIX_EPOCH + Duration::from_secs(self.server_ms(local_ms) / 1_000);
        headers.insert(
            http::header::DATE,
            httpdate::fmt_http_date(date).parse().unwrap(),
        );
        headers
    }

    /// Whether `path` is the list that shows the kind's operations.
    fn is_list(&self, path: &str) -> bool {
        match self.kind {
            Kind::Fixed => path.ends_with("/smart/investments"),
            Kind::FlexInvest | Kind::FlexWithdraw => path.ends_with("/investments/history"),
        }
    }

    /// Serves `request` sent at `now`: when the client hears back, and what.
    pub fn serve(&mut self, request: &SignedRequest, now: SystemTime) -> (SystemTime, Heard) {
        self.served += 1;
        if request.uri().path() == "/api/v4/public/time" {
            let arrival = ms(now) + 5;
            self.advance(arrival);
            let time = json!({ "time": self.server_ms(arrival) / 1_000 });
            let heard = Heard::Answer(200, self.headers(arrival), time.to_string().into_bytes());
            return (now + Duration::from_millis(10), heard);
        }
        let body: Value = serde_json::from_slice(request.body()).unwrap();
        let nonce = body["nonce"].as_u64().unwrap();
        let window = body["nonceWindow"].as_bool().unwrap_or(false);
        let sent = ms(now);
        let json = |status: u16, v: Value, headers: HeaderMap| {
            Heard::Answer(status, headers, v.to_string().into_bytes())
        };
        if self.is_list(request.uri().path()) {
            let arrival = sent + 5;
            self.advance(arrival);
            let back = now + Duration::from_millis(10);
            if self.failing_lookups > 0 {
                self.failing_lookups -= 1;
                return (back, Heard::Answer(503, self.headers(arrival), Vec::new()));
            }
            if !self.accept(nonce, window, arrival) {
                let refusal = json!({"code": 0, "errors": {}, "message": "Too many requests."});
                return (back, json(429, refusal, self.headers(arrival)));
            }
            self.lookups += 1;
            let page = match self.kind {
                Kind::Fixed => self.investments_page(&body, arrival),
                Kind::FlexInvest | Kind::FlexWithdraw => self.history_page(&body, arrival),
            };
            return (back, json(200, page, self.headers(arrival)));
        }
        let amount = body["amount"].as_str().unwrap().to_owned();
        let fate = if self.fates.is_empty() {
            Fate::Answer
        } else {
            self.fates.remove(0)
        };
        let arrival = sent + 10;
        let back = now + Duration::from_millis(20);
        let lost = Heard::Failed(TransportError::maybe_sent(
            TransportErrorKind::Io,
            "connection reset",
        ));
        match fate {
            Fate::Answer | Fate::LoseAnswer | Fate::Process503 => {
                self.advance(arrival);
                let created = self.process(nonce, window, &amount, arrival);
                let heard = match (fate, created) {
                    (Fate::LoseAnswer, _) => lost,
                    (Fate::Process503, _) => Heard::Answer(503, self.headers(arrival), Vec::new()),
                    (_, Some(id)) => json(201, self.answer(&id), self.headers(arrival)),
                    (_, None) => json(
                        429,
                        json!({"code": 0, "errors": {}, "message": "Too many requests."}),
                        self.headers(arrival),
                    ),
                };
                (back, heard)
            }
            Fate::Late(delay) => {
                self.in_flight.push((sent + delay, nonce, window, amount));
                let timeout = Heard::Failed(TransportError::maybe_sent(
                    TransportErrorKind::Timeout,
                    "timed out",
                ));
                (now + Duration::from_secs(1), timeout)
            }
            Fate::Refuse503 => (back, Heard::Answer(503, self.headers(arrival), Vec::new())),
            Fate::Reject => {
                let refusal = json!({"code": 4, "message": "Inner validation failed",
                    "errors": {"amount": ["Available 9 < 10"]}});
                (back, json(422, refusal, self.headers(arrival)))
            }
            Fate::NotSent => (
                now,
                Heard::Failed(TransportError::not_sent(
                    TransportErrorKind::Connect,
                    "connection refused",
                )),
            ),
        }
    }

    /// The operation's answer (HTTP 201) for its record `id`.
    fn answer(&self, id: &str) -> Value {
        match self.kind {
            Kind::Fixed => json!({ "id": id }),
            Kind::FlexInvest | Kind::FlexWithdraw => json!({"data": {"transaction_id": id}}),
        }
    }

    /// The records visible at `arrival`, newest first.
    fn visible(&self, arrival: u64) -> Vec<&Record> {
        let server = self.server_ms(arrival);
        let mut visible: Vec<&Record> = self
            .records
            .iter()
            .filter(|r| r.visible_ms <= server)
            .collect();
        visible.sort_by_key(|r| std::cmp::Reverse(r.created_ms));
        visible
    }

    /// A page of the investments list, as visible at `arrival`, newest first.
    fn investments_page(&self, body: &Value, arrival: u64) -> Value {
        let limit = body["limit"].as_u64().unwrap_or(100) as usize;
        let offset = body["offset"].as_u64().unwrap_or(0) as usize;
        let records: Vec<Value> = self
            .visible(arrival)
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|r| investment_json(&r.id, &r.amount, r.created_ms / 1_000))
            .collect();
        json!({ "offset": offset, "limit": limit, "records": records })
    }

    /// A page of the flex history, as visible at `arrival`, newest first, filtered as the
    /// request says (plan, actions, `dateFrom`).
    fn history_page(&self, body: &Value, arrival: u64) -> Value {
        let limit = (body["limit"].as_u64().unwrap_or(self.page_limit as u64) as usize)
            .min(self.page_limit);
        let offset = body["offset"].as_u64().unwrap_or(0) as usize;
        let actions: Option<Vec<u64>> = body["actionTypes"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect());
        let from = body["dateFrom"].as_u64().unwrap_or(0);
        assert!(
            body["plan"].as_str().is_none_or(|p| p == FLEX_PLAN),
            "the plan filter"
        );
        let records: Vec<Value> = self
            .visible(arrival)
            .into_iter()
            .filter(|r| actions.as_ref().is_none_or(|a| a.contains(&r.action)))
            .filter(|r| r.created_ms / 1_000 >= from)
            .skip(offset)
            .take(limit)
            .map(history_json)
            .collect();
        json!({ "data": records, "limit": limit, "offset": offset })
    }
}

fn investment_json(id: &str, amount: &str, created: u64) -> Value {
    json!({
        "id": id,
        "plan": {
            "id": FIXED_PLAN, "ticker": "USDT", "status": 1, "percent": "10", "duration": 14400,
            "interestTicker": "USDT", "interestRatio": "1", "minInvestment": "100",
            "maxInvestment": "10000", "maxPossibleInvestment": "3000"
        },
        "status": 1, "created": created, "updated": created, "paymentTime": created + 864_000,
        "amount": amount, "interestPaid": "0"
    })
}

fn history_json(record: &Record) -> Value {
    json!({
        "createdAt": record.created_ms / 1_000, "planId": FLEX_PLAN, "investmentId": "inv-flex",
        "currency": "USDT", "amount": record.amount, "transaction_id": record.id,
        "actionType": record.action
    })
}

/// What the client hears back.
pub enum Heard {
    Answer(u16, HeaderMap, Vec<u8>),
    Failed(TransportError),
}

/// Drives `machine` against `exchange` on the simulated clock from `at`; at the end every
/// request still in flight arrives. Returns the output and the simulated time it took.
pub fn drive_from<M: Machine>(
    machine: M,
    exchange: &mut Exchange,
    at: SystemTime,
) -> (M::Output, Duration) {
    match drive_until(machine, exchange, at, None) {
        Driven::Done(output, end) => {
            exchange.advance(u64::MAX);
            (output, end.duration_since(at).unwrap())
        }
        Driven::Crashed(_) => unreachable!("no crash was asked for"),
    }
}

/// [`drive_from`] at [`start`].
pub fn drive<M: Machine>(machine: M, exchange: &mut Exchange) -> (M::Output, Duration) {
    drive_from(machine, exchange, start())
}

/// [`drive_from`], the process dying at `crash` if the machine gets that far (the machine
/// dropped, its answer lost), without flushing what is still in flight.
pub fn drive_until<M: Machine>(
    mut machine: M,
    exchange: &mut Exchange,
    at: SystemTime,
    crash: Option<Crash>,
) -> Driven<M::Output> {
    let mut now = at;
    let mut step = 0;
    loop {
        assert!(now < at + Duration::from_secs(600), "never finished");
        let next = machine.next(now);
        let dies = crash.filter(|c| c.at_step == step);
        step += 1;
        match next {
            Step::Wait(d) if dies.is_some() => return Driven::Crashed(now + d / 2),
            Step::Wait(d) => {
                now += d;
                exchange.advance(ms(now));
            }
            Step::Send(request) => {
                if let Some(crash) = dies {
                    if crash.reaches {
                        let (back, _) = exchange.serve(&request, now);
                        now = back;
                    } else {
                        now += Duration::from_millis(10);
                    }
                    exchange.advance(ms(now));
                    return Driven::Crashed(now);
                }
                let (back, heard) = exchange.serve(&request, now);
                now = back;
                exchange.advance(ms(now));
                match heard {
                    Heard::Answer(status, headers, body) => {
                        machine.receive(Ok(Response::new(status, &body).with_headers(&headers)));
                    }
                    Heard::Failed(failure) => machine.receive(Err(failure)),
                }
            }
            Step::Done(output) => return Driven::Done(output, now),
        }
    }
}

/// An operation that moves money as the cases drive it: how to make one of an amount, and the
/// client's calls for it.
pub trait Lending: MoneyMove + Sized {
    const MODEL: Kind;
    /// The operation of `amount` in the kind's plan.
    fn of(amount: &str) -> Self;
    /// The client's exactly-once call.
    fn once<'a>(core: &'a ClientCore, request: &Self) -> MoveOnce<'a, Self>;
    /// The client's plain call.
    fn plain<'a>(core: &'a ClientCore, request: &'a Self) -> Moving<'a, Self>;
    /// The client's resolve call.
    fn resolve(core: &ClientCore, pending: PendingMove<Self>) -> Resolver<'_, MoveSearch<Self>>;
    /// The id of what was done, and whether resolving found it (not the answer).
    fn done(done: &Self::Done) -> (String, bool);
    /// Whether `error` is the kind's "not done".
    fn is_not_done(error: &Error) -> bool;
    /// The unresolved operation an unknown outcome carries.
    fn pending_of(error: &Error) -> Option<&PendingMove<Self>>;
}

impl Lending for Invest {
    const MODEL: Kind = Kind::Fixed;
    fn of(amount: &str) -> Self {
        Invest::new(FIXED_PLAN, amount).unwrap()
    }
    fn once<'a>(core: &'a ClientCore, request: &Self) -> MoveOnce<'a, Self> {
        core.invest_once(request)
    }
    fn plain<'a>(core: &'a ClientCore, request: &'a Self) -> Moving<'a, Self> {
        core.invest(request)
    }
    fn resolve(core: &ClientCore, pending: PendingMove<Self>) -> Resolver<'_, MoveSearch<Self>> {
        core.resolve_investment(pending)
    }
    fn done(done: &Invested) -> (String, bool) {
        (done.id().to_owned(), matches!(done, Invested::Found { .. }))
    }
    fn is_not_done(error: &Error) -> bool {
        matches!(error, Error::NotInvested(_))
    }
    fn pending_of(error: &Error) -> Option<&PendingMove<Self>> {
        error.pending_investment()
    }
}

/// The flex operations' adapters differ only in the names they call.
macro_rules! flex_lending {
    ($move:ident, $kind:ident, $once:ident, $plain:ident, $resolve:ident, $not_done:ident, $pending:ident) => {
        impl Lending for $move {
            const MODEL: Kind = Kind::$kind;
            fn of(amount: &str) -> Self {
                $move::new(FLEX_PLAN, amount).unwrap()
            }
            fn once<'a>(core: &'a ClientCore, request: &Self) -> MoveOnce<'a, Self> {
                core.$once(request)
            }
            fn plain<'a>(core: &'a ClientCore, request: &'a Self) -> Moving<'a, Self> {
                core.$plain(request)
            }
            fn resolve(
                core: &ClientCore,
                pending: PendingMove<Self>,
            ) -> Resolver<'_, MoveSearch<Self>> {
                core.$resolve(pending)
            }
            fn done(done: &FlexDone) -> (String, bool) {
                flex_done(done)
            }
            fn is_not_done(error: &Error) -> bool {
                matches!(error, Error::$not_done(_))
            }
            fn pending_of(error: &Error) -> Option<&PendingMove<Self>> {
                error.$pending()
            }
        }
    };
}

flex_lending!(
    FlexInvest,
    FlexInvest,
    flex_invest_once,
    flex_invest,
    resolve_flex_invest,
    FlexNotInvested,
    pending_flex_invest
);
flex_lending!(
    FlexWithdraw,
    FlexWithdraw,
    flex_withdraw_once,
    flex_withdraw,
    resolve_flex_withdraw,
    FlexNotWithdrawn,
    pending_flex_withdraw
);

fn flex_done(done: &FlexDone) -> (String, bool) {
    (
        done.transaction_id().to_owned(),
        matches!(done, FlexDone::Found { .. }),
    )
}

/// A script of the exchange for one call: what becomes of each request, the clocks, the lags
/// and the failing look-ups.
#[derive(Debug, Clone)]
pub struct Script {
    pub fates: Vec<Fate>,
    pub strict: bool,
    pub skew_ms: i64,
    pub creation_delay_ms: u64,
    pub lag_ms: u64,
    pub failing_lookups: u32,
}

pub fn script() -> impl Strategy<Value = Script> {
    (
        proptest::collection::vec(fate(), 0..6),
        any::<bool>(),
        -3_000i64..3_000,
        0u64..=5_000,
        0u64..=2_000,
        0u32..6,
    )
        .prop_map(
            |(fates, strict, skew_ms, creation_delay_ms, lag_ms, failing_lookups)| Script {
                fates,
                strict,
                skew_ms,
                creation_delay_ms,
                lag_ms,
                failing_lookups,
            },
        )
}

impl Script {
    fn mode(&self) -> NonceMode {
        if self.strict {
            NonceMode::Strict
        } else {
            NonceMode::Window
        }
    }

    fn exchange(&self, kind: Kind) -> Exchange {
        let mut exchange = Exchange::new(kind, self.fates.clone());
        exchange.skew_ms = self.skew_ms;
        exchange.creation_delay_ms = self.creation_delay_ms;
        exchange.lag_ms = self.lag_ms;
        exchange.failing_lookups = self.failing_lookups;
        exchange
    }
}

/// One call of the exactly-once operation of 250 under `script`: it never makes two records,
/// says "done" only of the one it made, and "not done" only when none exists.
pub fn check_script<R: Lending>(script: &Script) -> Result<(), TestCaseError> {
    let core = core(script.mode());
    let mut exchange = script.exchange(R::MODEL);
    let (result, _) = drive(R::once(&core, &R::of("250")), &mut exchange);
    let ours = exchange.ours();
    prop_assert!(ours.len() <= 1, "doubled: {:?}", ours);
    match result {
        Ok(done) => {
            let (id, _) = R::done(&done);
            prop_assert_eq!(ours.len(), 1);
            prop_assert_eq!(&id, &ours[0].id);
        }
        Err(e) if R::is_not_done(&e) => prop_assert!(ours.is_empty()),
        Err(e) => match R::unresolved(e) {
            Ok(unknown) => {
                prop_assert!(unknown.candidates.is_empty(), "no one else acts here");
            }
            // The first attempt was refused definitely: nothing was made.
            Err(e) => prop_assert!(ours.is_empty(), "{}", e),
        },
    }
    Ok(())
}

/// One run: the exchange's script, whether the client is the key's only writer, other
/// writers' operations (when, from the start; whether of the same amount and kind), and the
/// restarts.
#[derive(Debug, Clone)]
pub struct Run {
    pub script: Script,
    pub sole: bool,
    pub others: Vec<(u64, bool, bool)>,
    pub restarts: Vec<Restart>,
}

pub fn run() -> impl Strategy<Value = Run> {
    (
        script(),
        any::<bool>(),
        proptest::collection::vec((0u64..40_000, any::<bool>(), any::<bool>()), 0..3),
        proptest::collection::vec(crate::exchange::restart(30, 30_000), 0..3),
    )
        .prop_map(|(mut script, sole, others, restarts)| {
            script.failing_lookups = script.failing_lookups.min(2);
            Run {
                script,
                sole,
                others,
                restarts,
            }
        })
}

/// Runs the exactly-once operation of 250 under `run`, the process restarting as it says;
/// checks that one intent never makes two records, that no answer names another writer's
/// record, that "cannot tell" comes only where the cases are indistinguishable (with `Shared` a
/// record of the plan, amount and kind in the window, with `Sole` several), and that the
/// journal keeps a record exactly while the outcome is unknown.
pub fn check_run<R: Lending>(run: &Run) -> Result<(), TestCaseError> {
    let writers = if run.sole {
        InvestmentWriters::Sole
    } else {
        InvestmentWriters::Shared
    };
    let journal = std::sync::Arc::new(MemoryJournal::default());
    let mut exchange = run.script.exchange(R::MODEL);
    // With `Sole` nobody else makes an identical operation: the caller's word. Of another
    // kind (a withdrawal beside an investment) or amount they may.
    exchange.others = run
        .others
        .iter()
        .map(|&(after, same_amount, same_kind)| {
            // The investments list shows every investment alike: another writer's is of the
            // same kind.
            let same_kind = same_kind || R::MODEL == Kind::Fixed;
            let identical = same_amount && same_kind;
            let amount = if same_amount && !(identical && run.sole) {
                "250"
            } else {
                "999"
            };
            (ms(start()) + after, amount.to_owned(), same_kind)
        })
        .collect();
    let mut now = start();
    let mut restarts = run.restarts.iter().map(Some).chain(std::iter::repeat(None));
    let request = R::of("250");
    let result = loop {
        let restart = restarts.next().flatten();
        let core = config(run.script.mode())
            .investment_writers(writers)
            .journal(journal.clone())
            .build()
            .unwrap();
        let kept = !journal.records().is_empty();
        if restart.is_some_and(|r| r.plain_first) && kept {
            let served = exchange.served;
            let Driven::Done(plain, _) =
                drive_until(R::plain(&core, &request), &mut exchange, now, None)
            else {
                unreachable!()
            };
            prop_assert!(
                matches!(plain, Err(Error::ResolveFirst(_))),
                "a plain call with a record kept: {:?}",
                plain.err()
            );
            prop_assert_eq!(exchange.served, served, "nothing sent");
        }
        let crash = restart.map(|r| r.crash);
        match drive_until(R::once(&core, &request), &mut exchange, now, crash) {
            Driven::Done(result, _) => break result,
            Driven::Crashed(at) => {
                now = at + Duration::from_millis(restart.map_or(0, |r| r.after_ms));
            }
        }
    };
    exchange.advance(u64::MAX);
    let ours: Vec<Record> = exchange.ours().into_iter().cloned().collect();
    prop_assert!(ours.len() <= 1, "doubled: {:?}", ours);
    let unknown = result.as_ref().err().and_then(R::pending_of).is_some()
        && !result.as_ref().err().is_some_and(R::is_not_done);
    prop_assert_eq!(
        journal.records().is_empty(),
        !unknown,
        "a record is kept exactly while the outcome is unknown: {:?}",
        result
    );
    match result {
        Ok(done) => {
            let (id, found) = R::done(&done);
            prop_assert!(
                !found || run.sole,
                "with other writers one record cannot tell"
            );
            prop_assert_eq!(ours.len(), 1, "someone else's taken: {}", id);
            prop_assert_eq!(&id, &ours[0].id, "someone else's taken");
        }
        Err(e) if R::is_not_done(&e) => prop_assert!(ours.is_empty()),
        Err(e) => match R::unresolved(e) {
            Ok(unknown) => {
                let candidates = &unknown.candidates;
                prop_assert!(
                    candidates.is_empty() || !run.sole || candidates.len() >= 2,
                    "one record cannot tell only when others may act: {:?}",
                    candidates
                );
                for candidate in candidates {
                    let id = R::record_id(candidate);
                    prop_assert!(
                        exchange
                            .records
                            .iter()
                            .any(|r| r.id == id && r.amount == "250" && R::MODEL.shows(r.action)),
                        "a candidate of the plan, amount and kind: {}",
                        id
                    );
                }
            }
            // The first attempt was refused definitely: nothing was made.
            Err(e) => prop_assert!(ours.is_empty(), "{}", e),
        },
    }
    Ok(())
}
