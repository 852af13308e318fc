//! Investing exactly once, as sans-IO state machines driven against a scripted model of the
//! exchange on a simulated clock: the exchange's clock runs apart from the client's, requests
//! arrive late or never, answers are lost, the investments list lags and look-ups fail — and
//! the exchange accepts a nonce only as its rules say (±5 s with `nonceWindow`, increasing
//! without). Whatever happens, one `invest_once` never creates two investments, and every
//! answer it gives is true.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::HeaderMap;
use proptest::prelude::*;

use crate::exchange::{Crash, Driven, Restart};
use crate::journal::MemoryJournal;
use serde_json::{Value, json};
use txc_core::decode::{Response, TransportError, TransportErrorKind};
use txc_core::machine::AttemptRecord;
use txc_core::pacing::RetryPolicy;
use txc_core::resolve::{InvestResolution, Invested, InvestmentWriters, PendingInvestment};
use txc_core::{ClientConfig, ClientCore, Error, Machine, Step};
use txc_sign::nonce::{NonceMode, NonceSequence};
use txc_sign::{Credentials, SignedRequest};
use txc_types::investments::Invest;

const PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";
const SETTLE: Duration = Duration::from_secs(2);

/// The client the cases drive: the key's only investor ([`InvestmentWriters::Sole`]) unless
/// a case says otherwise.
fn config(mode: NonceMode) -> ClientConfig {
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

fn core(mode: NonceMode) -> ClientCore {
    config(mode).build().unwrap()
}

fn start() -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(1_700_000_000_000)
}

fn ms(t: SystemTime) -> u64 {
    u64::try_from(t.duration_since(UNIX_EPOCH).unwrap().as_millis()).unwrap()
}

fn invest(amount: &str) -> Invest {
    Invest::new(PLAN, amount).unwrap()
}

/// What the model exchange does with one investment request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
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
    /// Refused: 422 code 4, not enough balance.
    Reject,
}

fn fate() -> impl Strategy<Value = Fate> {
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

/// An investment the model holds.
#[derive(Debug, Clone)]
struct Record {
    id: String,
    amount: String,
    created_ms: u64,
    visible_ms: u64,
    /// Made by an attempt of the call under test (not pre-existing).
    ours: bool,
}

/// A model of the exchange.
struct Exchange {
    /// The exchange's clock minus the client's, in ms.
    skew_ms: i64,
    /// How long after acceptance a record is created (at most the creation allowance).
    creation_delay_ms: u64,
    /// How long after creation a record shows in the list (at most the settling delay).
    lag_ms: u64,
    fates: Vec<Fate>,
    /// The next look-ups (pages) that fail with 503, not processed.
    failing_lookups: u32,
    records: Vec<Record>,
    /// Window nonces accepted; the greatest strict nonce accepted.
    used: BTreeSet<u64>,
    max_strict: u64,
    /// Requests on their way: (arrival, nonce, window, amount).
    in_flight: Vec<(u64, u64, bool, String)>,
    lookups: u32,
    /// Other writers' investments of the plan (local time, amount), made when the clock gets
    /// there: another process of the account, a person on the website.
    others: Vec<(u64, String)>,
    /// Requests the clients sent.
    served: u32,
}

impl Exchange {
    fn new(fates: Vec<Fate>) -> Self {
        Self {
            skew_ms: 0,
            creation_delay_ms: 0,
            lag_ms: 0,
            fates,
            failing_lookups: 0,
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

    fn ours(&self) -> Vec<&Record> {
        self.records.iter().filter(|r| r.ours).collect()
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

    /// Judges an investment arriving at `local_ms`: its id when it was created.
    fn process(&mut self, nonce: u64, window: bool, amount: &str, local_ms: u64) -> Option<String> {
        if !self.accept(nonce, window, local_ms) {
            return None;
        }
        let created = self.server_ms(local_ms) + self.creation_delay_ms;
        let id = format!("inv-{}", self.records.len() + 1);
        self.records.push(Record {
            id: id.clone(),
            amount: amount.to_owned(),
            created_ms: created,
            visible_ms: created + self.lag_ms,
            ours: true,
        });
        Some(id)
    }

    /// Everything in flight that has arrived by `local_ms`, in order of arrival.
    fn advance(&mut self, local_ms: u64) {
        self.others.sort_by_key(|o| o.0);
        while self.others.first().is_some_and(|o| o.0 <= local_ms) {
            let (at, amount) = self.others.remove(0);
            let created = self.server_ms(at);
            self.records.push(Record {
                id: format!("theirs-{}", self.records.len() + 1),
                amount,
                created_ms: created,
                visible_ms: created + self.lag_ms,
                ours: false,
            });
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

    /// Serves `request` sent at `now`: when the client hears back, and what.
    fn serve(&mut self, request: &SignedRequest, now: SystemTime) -> (SystemTime, Heard) {
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
        if request.uri().path().ends_with("/smart/investments") {
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
            return (
                back,
                json(200, self.page(&body, arrival), self.headers(arrival)),
            );
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
                    (_, Some(id)) => json(201, json!({ "id": id }), self.headers(arrival)),
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

    /// A page of the list, as visible at `arrival`, newest first.
    fn page(&self, body: &Value, arrival: u64) -> Value {
        let limit = body["limit"].as_u64().unwrap_or(100) as usize;
        let offset = body["offset"].as_u64().unwrap_or(0) as usize;
        let server = self.server_ms(arrival);
        let mut visible: Vec<&Record> = self
            .records
            .iter()
            .filter(|r| r.visible_ms <= server)
            .collect();
        visible.sort_by_key(|r| std::cmp::Reverse(r.created_ms));
        let records: Vec<Value> = visible
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|r| record_json(&r.id, &r.amount, r.created_ms / 1_000))
            .collect();
        json!({ "offset": offset, "limit": limit, "records": records })
    }
}

fn record_json(id: &str, amount: &str, created: u64) -> Value {
    json!({
        "id": id,
        "plan": {
            "id": PLAN, "ticker": "USDT", "status": 1, "percent": "10", "duration": 14400,
            "interestTicker": "USDT", "interestRatio": "1", "minInvestment": "100",
            "maxInvestment": "10000", "maxPossibleInvestment": "3000"
        },
        "status": 1, "created": created, "updated": created, "paymentTime": created + 864_000,
        "amount": amount, "interestPaid": "0"
    })
}

/// What the client hears back.
enum Heard {
    Answer(u16, HeaderMap, Vec<u8>),
    Failed(TransportError),
}

/// Drives `machine` against `exchange` on the simulated clock from `at`; at the end every
/// request still in flight arrives. Returns the output and the simulated time it took.
fn drive_from<M: Machine>(
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

/// [`drive_from`], the process dying at `crash` if the machine gets that far (the machine
/// dropped, its answer lost), without flushing what is still in flight.
fn drive_until<M: Machine>(
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

fn drive<M: Machine>(machine: M, exchange: &mut Exchange) -> (M::Output, Duration) {
    drive_from(machine, exchange, start())
}

#[test]
fn an_answered_investment_is_not_looked_up() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Answer]);
    let (result, took) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Answered(new) = result.unwrap() else {
        panic!()
    };
    assert_eq!(new.id, "inv-1");
    assert_eq!(exchange.lookups, 0);
    assert!(took < Duration::from_secs(1));
}

#[test]
fn a_lost_answer_is_found_after_the_window_and_the_creation_allowance() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::LoseAnswer, Fate::Answer]);
    let (result, took) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Found {
        investment,
        evidence,
    } = result.unwrap()
    else {
        panic!()
    };
    assert_eq!(investment.id, "inv-1");
    assert_eq!(exchange.ours().len(), 1, "never sent again");
    let window = evidence.window.as_ref().unwrap();
    assert_eq!(window.fence(), None, "the nonce window bounds it");
    assert_eq!(evidence.rounds.len(), 1, "found in the first round");
    // Round 1 waited for the exchange's clock to pass nonce + 5 s + 5 s.
    let nonce = ms(window.spans()[0].to) - 10_000;
    assert!(ms(evidence.rounds[0].exchange_sent_at.unwrap()) >= nonce + 10_000);
    assert!(took >= Duration::from_secs(10));
    assert!(evidence.to_string().contains("round 1"), "{evidence}");
}

#[test]
fn a_request_arriving_late_is_never_missed() {
    // The client times out after 1 s; the request arrives 4.9 s after it was signed and is
    // accepted (its nonce is within 5 s), so the investment exists long after the client gave
    // up. Resolving must find it, never invest again.
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Late(4_900), Fate::Answer]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    assert!(matches!(result.unwrap(), Invested::Found { .. }));
    assert_eq!(exchange.ours().len(), 1);
    // Arriving after its window, the same request is refused: not invested, sent again.
    let core = self::core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Late(7_000), Fate::Answer]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    assert!(matches!(result.unwrap(), Invested::Answered(_)));
    assert_eq!(exchange.ours().len(), 1);
}

#[test]
fn a_lagging_list_is_covered_by_the_second_round() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Process503]);
    exchange.lag_ms = 1_500;
    exchange.creation_delay_ms = 4_000;
    exchange.skew_ms = -2_500;
    let pending = match drive(core.invest(&invest("250")), &mut exchange).0 {
        Err(e) => e.pending_investment().unwrap().clone(),
        Ok(_) => panic!("503 is not an answer"),
    };
    let (resolution, _) = drive(core.resolve_investment(pending), &mut exchange);
    let InvestResolution::Invested { evidence, .. } = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(exchange.ours().len(), 1);
    assert!(!evidence.rounds.is_empty());
}

#[test]
fn nothing_found_twice_is_not_invested_and_says_so() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Refuse503, Fate::Answer]);
    // Someone else's investment of the same plan and amount, long before: not ours.
    exchange.records.push(Record {
        id: "older".into(),
        amount: "250".into(),
        created_ms: ms(start()) - 3_600_000,
        visible_ms: 0,
        ours: false,
    });
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Answered(new) = result.unwrap() else {
        panic!()
    };
    assert_eq!(new.id, "inv-2");
    assert_eq!(exchange.ours().len(), 1);
    // Resolving the refused attempt alone: two rounds, the excluded record counted.
    let pending = PendingInvestment::new(
        invest("250"),
        NonceMode::Window,
        vec![AttemptRecord {
            nonce: txc_sign::nonce::Nonce(ms(start()) - 60_000),
            signed_at: start() - Duration::from_secs(60),
        }],
    );
    let mut quiet = Exchange::new(vec![]);
    quiet.records = exchange
        .records
        .iter()
        .filter(|r| !r.ours)
        .cloned()
        .collect();
    let (resolution, _) = drive(core.resolve_investment(pending), &mut quiet);
    let InvestResolution::NotInvested { evidence } = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(evidence.rounds.len(), 2);
    // Each round: the one of the plan and amount seen outside the window, none inside.
    let seen = |r: &txc_core::resolve::Round| -> Vec<bool> {
        r.looks
            .iter()
            .flat_map(|l| &l.seen)
            .map(|s| s.ours)
            .collect()
    };
    assert!(evidence.rounds.iter().all(|r| seen(r) == [false]));
    let gap = evidence.rounds[1]
        .exchange_sent_at
        .unwrap()
        .duration_since(evidence.rounds[0].exchange_sent_at.unwrap());
    assert!(gap.unwrap() + Duration::from_secs(1) >= SETTLE);
}

#[test]
fn two_identical_investments_in_the_window_cannot_be_told_apart() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::LoseAnswer]);
    // Another writer invests the same amount in the same plan at the same moment.
    exchange.records.push(Record {
        id: "theirs".into(),
        amount: "250".into(),
        created_ms: ms(start()),
        visible_ms: 0,
        ours: false,
    });
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    let Error::InvestmentUnknown(unknown) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(unknown.candidates.len(), 2);
    assert!(error.outcome_unknown() && !error.is_retryable());
    assert!(error.to_string().contains("cannot tell"), "{error}");
    assert_eq!(exchange.ours().len(), 1, "not invested again");
}

#[test]
fn a_failing_look_up_leaves_it_unknown() {
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Process503]);
    exchange.failing_lookups = 10;
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::InvestmentUnknown(_)), "{error:?}");
    assert_eq!(error.status(), Some(503));
    let pending = error.pending_investment().unwrap();
    assert_eq!(pending.attempts().len(), 1);
    assert_eq!(pending.invest().plan_id(), PLAN);
    // It carries the plan, the amount and the window the attempt could be accepted in (and
    // its record created, the creation allowance later).
    let window = pending.acceptance_window().unwrap();
    let nonce = pending.attempts()[0].nonce.get();
    let span = window.spans()[0];
    assert_eq!(
        (
            ms(span.from),
            ms(span.to - txc_core::resolve::CREATION_ALLOWANCE)
        ),
        (nonce - 5_000, nonce + 5_000)
    );
}

#[test]
fn strict_nonces_are_fenced_by_the_first_accepted_look_up() {
    let core = core(NonceMode::Strict);
    // Arrives 30 s late: with strict nonces no window stops it, but the resolver's look-up (a
    // later nonce) is accepted first, so the straggler is refused.
    let mut exchange = Exchange::new(vec![Fate::Late(30_000), Fate::Answer]);
    exchange.skew_ms = 1_200;
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    assert!(matches!(result.unwrap(), Invested::Answered(_)));
    assert_eq!(exchange.ours().len(), 1);
    // Lost after processing: found, inside a window fenced by the look-up.
    let core = self::core(NonceMode::Strict);
    let mut exchange = Exchange::new(vec![Fate::LoseAnswer]);
    exchange.skew_ms = -1_700;
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let Invested::Found { evidence, .. } = result.unwrap() else {
        panic!()
    };
    assert!(evidence.window.unwrap().fence().is_some());
    assert_eq!(exchange.ours().len(), 1);
}

#[test]
fn refused_every_time_is_not_invested_after_the_client_s_maximum() {
    let core = core(NonceMode::Window);
    // A refused connection is retried within the send (certainly not sent); each 503 leaves
    // the send unknown, resolved as not invested; the third send is the last.
    let fates = vec![
        Fate::Refuse503,
        Fate::NotSent,
        Fate::Refuse503,
        Fate::Refuse503,
    ];
    let mut exchange = Exchange::new(fates);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::NotInvested(_)), "{error:?}");
    assert!(exchange.ours().is_empty());
    assert!(error.is_retryable() && !error.outcome_unknown());
    assert_eq!(error.pending_investment().unwrap().attempts().len(), 4);
}

#[test]
fn a_refusal_after_an_unknown_attempt_stays_unknown() {
    // The first send's 503 is resolved as not invested; the second is refused ("not enough
    // balance"), which the first could have caused after all: unknown, every attempt kept.
    let core = core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Refuse503, Fate::Reject]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(matches!(error, Error::InvestmentUnknown(_)), "{error:?}");
    assert_eq!(error.pending_investment().unwrap().attempts().len(), 2);
    assert_eq!(
        error.api().map(|a| a.class),
        Some(txc_core::decode::ApiErrorClass::InsufficientBalance)
    );
    // Refused at the first send (another client: this one holds the unknown record above,
    // which it would resolve first): a plain refusal, nothing to resolve.
    let core = self::core(NonceMode::Window);
    let mut exchange = Exchange::new(vec![Fate::Reject]);
    let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
    let error = result.unwrap_err();
    assert!(
        matches!(error, Error::Api(_)) && !error.outcome_unknown(),
        "{error:?}"
    );
}

proptest! {
    /// Whatever the exchange does with each request — answer, lose the answer, let it arrive
    /// late (or too late), refuse with 503, process then 503, refuse the connection — with its
    /// clock ahead or behind, records created late and shown late (within the allowances),
    /// and look-ups failing: `invest_once` never creates two investments, says "invested" only
    /// of the one it created, and "not invested" only when none exists.
    #[test]
    fn investing_once_never_doubles(
        fates in proptest::collection::vec(fate(), 0..6),
        strict in any::<bool>(),
        skew_ms in -3_000i64..3_000,
        creation_delay_ms in 0u64..=5_000,
        lag_ms in 0u64..=2_000,
        failing_lookups in 0u32..6,
    ) {
        let mode = if strict { NonceMode::Strict } else { NonceMode::Window };
        let core = core(mode);
        let mut exchange = Exchange::new(fates);
        exchange.skew_ms = skew_ms;
        exchange.creation_delay_ms = creation_delay_ms;
        exchange.lag_ms = lag_ms;
        exchange.failing_lookups = failing_lookups;
        let (result, _) = drive(core.invest_once(&invest("250")), &mut exchange);
        let ours = exchange.ours();
        prop_assert!(ours.len() <= 1, "doubled: {:?}", ours);
        match result {
            Ok(Invested::Answered(new)) => {
                prop_assert_eq!(ours.len(), 1);
                prop_assert_eq!(&new.id, &ours[0].id);
            }
            Ok(Invested::Found { investment, .. }) => {
                prop_assert_eq!(ours.len(), 1);
                prop_assert_eq!(&investment.id, &ours[0].id);
            }
            Ok(other) => prop_assert!(false, "unexpected {:?}", other),
            Err(Error::NotInvested(_)) => prop_assert!(ours.is_empty()),
            Err(Error::InvestmentUnknown(unknown)) => {
                prop_assert!(unknown.candidates.is_empty(), "no one else invests here");
            }
            // The first attempt was refused definitely: nothing was created.
            Err(e) => prop_assert!(ours.is_empty(), "{}", e),
        }
    }
}

fn restart() -> impl Strategy<Value = Restart> {
    crate::exchange::restart(30, 30_000)
}

/// One run: the exchange's script, whether the client is the key's only investor, other
/// writers' investments (when, from the start, and whether of the same amount), and the
/// restarts.
#[derive(Debug, Clone)]
struct Run {
    fates: Vec<Fate>,
    strict: bool,
    skew_ms: i64,
    creation_delay_ms: u64,
    lag_ms: u64,
    failing_lookups: u32,
    sole: bool,
    others: Vec<(u64, bool)>,
    restarts: Vec<Restart>,
}

fn run() -> impl Strategy<Value = Run> {
    (
        (
            proptest::collection::vec(fate(), 0..6),
            any::<bool>(),
            -3_000i64..3_000,
            0u64..=5_000,
            0u64..=2_000,
            0u32..3,
        ),
        (
            any::<bool>(),
            proptest::collection::vec((0u64..40_000, any::<bool>()), 0..3),
            proptest::collection::vec(restart(), 0..3),
        ),
    )
        .prop_map(
            |(
                (fates, strict, skew_ms, creation_delay_ms, lag_ms, failing_lookups),
                (sole, others, restarts),
            )| Run {
                fates,
                strict,
                skew_ms,
                creation_delay_ms,
                lag_ms,
                failing_lookups,
                sole,
                others,
                restarts,
            },
        )
}

/// Runs `invest_once` of 250 under `run`, the process restarting as it says; checks that one
/// intent never makes two investments, that no answer names another writer's investment, that
/// "cannot tell" comes only where the cases are indistinguishable (with `Shared` a record of
/// the plan and amount in the window, with `Sole` several), and that the journal keeps a
/// record exactly while the outcome is unknown.
fn check_run(run: &Run) -> Result<(), TestCaseError> {
    let mode = if run.strict {
        NonceMode::Strict
    } else {
        NonceMode::Window
    };
    let writers = if run.sole {
        InvestmentWriters::Sole
    } else {
        InvestmentWriters::Shared
    };
    let journal = std::sync::Arc::new(MemoryJournal::default());
    let mut exchange = Exchange::new(run.fates.clone());
    exchange.skew_ms = run.skew_ms;
    exchange.creation_delay_ms = run.creation_delay_ms;
    exchange.lag_ms = run.lag_ms;
    exchange.failing_lookups = run.failing_lookups;
    // With `Sole` nobody else invests the same amount in the plan: the caller's word.
    exchange.others = run
        .others
        .iter()
        .map(|&(after, same)| {
            let amount = if same && !run.sole { "250" } else { "999" };
            (ms(start()) + after, amount.to_owned())
        })
        .collect();
    let mut now = start();
    let mut restarts = run.restarts.iter().map(Some).chain(std::iter::repeat(None));
    let result = loop {
        let restart = restarts.next().flatten();
        let core = config(mode)
            .investment_writers(writers)
            .journal(journal.clone())
            .build()
            .unwrap();
        let kept = !journal.records().is_empty();
        if restart.is_some_and(|r| r.plain_first) && kept {
            let served = exchange.served;
            let Driven::Done(plain, _) =
                drive_until(core.invest(&invest("250")), &mut exchange, now, None)
            else {
                unreachable!()
            };
            prop_assert!(
                matches!(plain, Err(Error::ResolveFirst(_))),
                "a plain investment with a record kept: {:?}",
                plain
            );
            prop_assert_eq!(exchange.served, served, "nothing sent");
        }
        let crash = restart.map(|r| r.crash);
        match drive_until(core.invest_once(&invest("250")), &mut exchange, now, crash) {
            Driven::Done(result, _) => break result,
            Driven::Crashed(at) => {
                now = at + Duration::from_millis(restart.map_or(0, |r| r.after_ms));
            }
        }
    };
    exchange.advance(u64::MAX);
    let ours = exchange.ours();
    prop_assert!(ours.len() <= 1, "doubled: {:?}", ours);
    let unknown = matches!(result, Err(Error::InvestmentUnknown(_)));
    prop_assert_eq!(
        journal.records().is_empty(),
        !unknown,
        "a record is kept exactly while the outcome is unknown: {:?}",
        result
    );
    match result {
        Ok(Invested::Answered(new)) => {
            prop_assert_eq!(ours.len(), 1);
            prop_assert_eq!(&new.id, &ours[0].id);
        }
        Ok(Invested::Found { investment, .. }) => {
            prop_assert!(run.sole, "with other writers one record cannot tell");
            prop_assert_eq!(ours.len(), 1, "someone else's taken: {}", investment.id);
            prop_assert_eq!(&investment.id, &ours[0].id, "someone else's taken");
        }
        Ok(other) => prop_assert!(false, "unexpected {:?}", other),
        Err(Error::NotInvested(_)) => prop_assert!(ours.is_empty()),
        Err(Error::InvestmentUnknown(unknown)) => {
            let candidates = &unknown.candidates;
            prop_assert!(
                candidates.is_empty() || !run.sole || candidates.len() >= 2,
                "one record cannot tell only when others may invest: {:?}",
                candidates
            );
            for candidate in candidates {
                prop_assert!(
                    exchange
                        .records
                        .iter()
                        .any(|r| r.id == candidate.id && r.amount == "250"),
                    "a candidate of the plan and amount: {}",
                    candidate.id
                );
            }
        }
        // The first attempt was refused definitely: nothing was created.
        Err(e) => prop_assert!(ours.is_empty(), "{}", e),
    }
    Ok(())
}

proptest! {
    /// `invest_once` across process restarts at any step (before or after a request reached
    /// the exchange), on one journal, with other writers of the key investing — the same
    /// amount or another — and the client `Shared` or `Sole` (never the same amount then).
    #[test]
    fn investing_once_across_restarts_and_other_writers(run in run()) {
        check_run(&run)?;
    }
}

/// Issue 35's cases at the sans-IO level: a restart after a lost answer resolves the record
/// first (found with `Sole`, "cannot tell" with `Shared` — never invested again), and another
/// writer's identical investment made while this one failed is never taken for it.
#[test]
fn a_restart_resolves_first_and_another_writer_s_investment_is_never_taken() {
    let after_lost = |sole: bool| Run {
        fates: vec![Fate::LoseAnswer],
        strict: false,
        skew_ms: 0,
        creation_delay_ms: 0,
        lag_ms: 0,
        failing_lookups: 0,
        sole,
        others: Vec::new(),
        restarts: vec![Restart {
            crash: Crash {
                at_step: 0,
                reaches: true,
            },
            after_ms: 1_000,
            plain_first: true,
        }],
    };
    check_run(&after_lost(true)).unwrap();
    check_run(&after_lost(false)).unwrap();
    let another_writer = Run {
        fates: vec![Fate::Refuse503],
        others: vec![(700, true)],
        restarts: Vec::new(),
        ..after_lost(false)
    };
    check_run(&another_writer).unwrap();
    // The same, resolved by hand: "cannot tell", the other writer's record the candidate.
    let core = config(NonceMode::Window)
        .investment_writers(InvestmentWriters::Shared)
        .build()
        .unwrap();
    let mut exchange = Exchange::new(vec![Fate::Refuse503]);
    exchange.others = vec![(ms(start()) + 700, "250".to_owned())];
    let Err(error) = drive(core.invest(&invest("250")), &mut exchange).0 else {
        panic!("a 503 is not an answer")
    };
    let pending = error.pending_investment().unwrap().clone();
    let (resolution, _) = drive(core.resolve_investment(pending), &mut exchange);
    let Ok(InvestResolution::CannotTell { candidates, .. }) = resolution else {
        panic!("{resolution:?}")
    };
    assert_eq!(candidates.len(), 1);
    assert!(candidates[0].id.starts_with("theirs"), "{candidates:?}");
    assert!(exchange.ours().is_empty());
    assert_eq!(core.pending_investments().len(), 1, "kept, with why");
    assert!(
        core.pending_investments()[0]
            .reason()
            .unwrap()
            .contains("cannot tell")
    );
}
