//! [`SocketOrders`]: the sans-IO machine of order methods on the WebSocket.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use serde::Deserialize;
use serde_json::value::RawValue;
use txc_types::socket::{Fate, SocketAnswer, SocketCall, SocketRefusal, SocketRequest};

use super::outcome::{Settled, SocketAttempt, SocketOutcome, UnknownCause};
use super::pacing::{SocketLimits, SocketPacer};

/// The first request id of order calls: far above the stream machine's ids (which count from
/// 1 on each connection), so both machines share one connection without a collision.
pub const FIRST_ORDER_REQUEST_ID: u64 = 1 << 40;

/// How long a call waits for its answer by default before its outcome is unknown.
pub const DEFAULT_ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// The settings of a [`SocketOrders`] machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SocketOrdersConfig {
    /// The limits paced by.
    pub limits: SocketLimits,
    /// How long a written call waits for its answer.
    pub answer_timeout: Duration,
}

impl Default for SocketOrdersConfig {
    fn default() -> Self {
        Self {
            limits: SocketLimits::documented(),
            answer_timeout: DEFAULT_ANSWER_TIMEOUT,
        }
    }
}

impl SocketOrdersConfig {
    /// The same with `limits`.
    pub fn with_limits(mut self, limits: SocketLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The same with `timeout` as the answer time-out.
    pub fn with_answer_timeout(mut self, timeout: Duration) -> Self {
        self.answer_timeout = timeout;
        self
    }
}

/// Why a call could not be taken or moved on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SocketOrderError {
    /// No connection is up (or it has not been counted with [`SocketOrders::connected`]).
    #[error("no WebSocket connection is up")]
    NotConnected,
    /// A budget has no slot yet: nothing was taken; try again after `wait`.
    #[error("the WebSocket's {what} limit is reached; a slot frees in {wait:?}")]
    Paced {
        /// Which budget: `placements`, `requests` or `connections`.
        what: &'static str,
        /// How long until a slot frees.
        wait: Duration,
    },
    /// No call in flight has this request id, or it is not at the step asked for.
    #[error("no call {id} waits for this step")]
    UnknownCall {
        /// The request id.
        id: u64,
    },
}

/// A call taken: its request id, and the record to journal before its frame is released.
#[derive(Debug, Clone, PartialEq)]
pub struct Submitted {
    /// The request id its frame carries.
    pub id: u64,
    /// What the journal must hold before the frame may be written — the market and client
    /// order id that find the order — for a call that places one with an id; `None` otherwise.
    pub record: Option<SocketRecord>,
}

/// What the journal keeps of a socket order before its frame is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocketRecord {
    /// The market.
    pub market: String,
    /// The client order id that finds the order.
    pub client_order_id: String,
    /// The method.
    pub method: &'static str,
}

/// What a received frame was to the machine.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Received {
    /// The answer of a call in flight.
    Answer(Box<Settled>),
    /// The answer of a call already settled as unknown by its time-out: evidence for
    /// resolving it.
    Late(Box<Settled>),
    /// Not an answer of an order call (a push, a subscription's answer): the stream's.
    NotOurs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Taken; its record (if any) not yet confirmed journaled.
    Submitted,
    /// The frame handed out to be written.
    Released,
    /// The frame written at this time.
    Written(SystemTime),
}

#[derive(Debug)]
struct InFlight {
    call: SocketRequest,
    resend: bool,
    stage: Stage,
}

/// The order methods on an authorized WebSocket connection, sans-IO: the driver writes the
/// frames it releases, feeds it every frame received and the time, and tells it when the
/// connection opens and closes.
///
/// - **Request ids** from [`FIRST_ORDER_REQUEST_ID`], never reused; answers are correlated by
///   id while pushes and the stream's own answers interleave ([`Received::NotOurs`]).
/// - **Journal first**: [`submit`](Self::submit) takes a call and returns the record to
///   journal; only [`release`](Self::release) — called once the record is held — hands out
///   the frame. A call never released is [`NotSent`](SocketOutcome::NotSent) when the
///   connection drops; one released or written is [`Unknown`](SocketOutcome::Unknown), as is
///   one unanswered by its time-out ([`tick`](Self::tick)).
/// - **Evidence**: `43` answering a resend is [`Duplicate`](SocketOutcome::Duplicate) (the
///   first send placed it); on a first send it is a refusal (another active order has the
///   id). `2`, `3`, `5` and unlisted codes are unknown outcomes, never "not done".
/// - **Pacing** by [`SocketLimits`]: a call or connection over budget is refused with the
///   wait ([`SocketOrderError::Paced`]), nothing taken.
#[derive(Debug)]
pub struct SocketOrders {
    config: SocketOrdersConfig,
    pacer: SocketPacer,
    next_id: u64,
    connected: bool,
    in_flight: BTreeMap<u64, InFlight>,
    /// Calls settled as unknown by their time-out, whose answer may still come.
    late: BTreeMap<u64, (SocketRequest, bool, SocketAttempt)>,
}

impl SocketOrders {
    /// A machine with `config`, no connection up.
    pub fn new(config: SocketOrdersConfig) -> Self {
        Self {
            config,
            pacer: SocketPacer::new(config.limits),
            next_id: FIRST_ORDER_REQUEST_ID,
            connected: false,
            in_flight: BTreeMap::new(),
            late: BTreeMap::new(),
        }
    }

    /// The limits paced by.
    pub fn limits(&self) -> SocketLimits {
        self.pacer.limits()
    }

    /// Counts a new connection at `now` against the connections' budget — call before
    /// opening one; on `Err` open none yet — and starts its per-connection budgets.
    pub fn connected(&mut self, now: SystemTime) -> Result<(), SocketOrderError> {
        self.pacer
            .connect(now)
            .map_err(|wait| SocketOrderError::Paced {
                what: "connections",
                wait,
            })?;
        self.connected = true;
        Ok(())
    }

    /// Takes `call` at `now` (`resend`: the same order again after an unknown outcome): its
    /// request id and the record to journal before [`release`](Self::release).
    pub fn submit(
        &mut self,
        call: SocketRequest,
        resend: bool,
        now: SystemTime,
    ) -> Result<Submitted, SocketOrderError> {
        if !self.connected {
            return Err(SocketOrderError::NotConnected);
        }
        let placement = call.method().is_placement();
        self.pacer
            .call(placement, now)
            .map_err(|wait| SocketOrderError::Paced {
                what: if placement { "placements" } else { "requests" },
                wait,
            })?;
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        let record = match (placement, call.market(), call.client_order_id()) {
            (true, Some(market), Some(client)) => Some(SocketRecord {
                market: market.to_owned(),
                client_order_id: client.as_str().to_owned(),
                method: call.method().name(),
            }),
            _ => None,
        };
        self.in_flight.insert(
            id,
            InFlight {
                call,
                resend,
                stage: Stage::Submitted,
            },
        );
        Ok(Submitted { id, record })
    }

    /// The frame of call `id`, once its record is journaled (or it has none): from here on the
    /// call counts as possibly sent.
    pub fn release(&mut self, id: u64) -> Result<String, SocketOrderError> {
        match self.in_flight.get_mut(&id) {
            Some(flight) if flight.stage == Stage::Submitted && self.connected => {
                flight.stage = Stage::Released;
                Ok(flight.call.frame(id))
            }
            _ => Err(SocketOrderError::UnknownCall { id }),
        }
    }

    /// Call `id` was not released (its record could not be journaled): it settles as never
    /// sent.
    pub fn abandon(&mut self, id: u64) -> Result<Settled, SocketOrderError> {
        match self.in_flight.get(&id) {
            Some(flight) if flight.stage == Stage::Submitted => {}
            _ => return Err(SocketOrderError::UnknownCall { id }),
        }
        let flight = self
            .in_flight
            .remove(&id)
            .ok_or(SocketOrderError::UnknownCall { id })?;
        Ok(settled(id, flight, SocketOutcome::NotSent, None))
    }

    /// Call `id`'s frame was handed to the socket at `now`: its answer time-out starts.
    pub fn written(&mut self, id: u64, now: SystemTime) -> Result<(), SocketOrderError> {
        match self.in_flight.get_mut(&id) {
            Some(flight) if flight.stage == Stage::Released => {
                flight.stage = Stage::Written(now);
                Ok(())
            }
            _ => Err(SocketOrderError::UnknownCall { id }),
        }
    }

    /// Reads a received text frame: the answer of a call in flight (or of one timed out), or
    /// not the machine's.
    pub fn receive(&mut self, text: &str, now: SystemTime) -> Received {
        #[derive(Deserialize)]
        struct Envelope<'a> {
            id: Option<u64>,
            #[serde(borrow)]
            result: Option<&'a RawValue>,
            error: Option<ErrorBody>,
        }
        #[derive(Deserialize)]
        struct ErrorBody {
            code: i64,
            #[serde(default)]
            message: String,
        }
        let Ok(envelope) = serde_json::from_str::<Envelope<'_>>(text) else {
            return Received::NotOurs;
        };
        let Some(id) = envelope.id else {
            return Received::NotOurs;
        };
        let (call, resend, attempt, late) = if let Some(flight) = self.in_flight.remove(&id) {
            let written_at = match flight.stage {
                Stage::Written(at) => at,
                _ => now,
            };
            let attempt = SocketAttempt {
                written_at,
                settled_at: now,
            };
            (flight.call, flight.resend, attempt, false)
        } else if let Some((call, resend, attempt)) = self.late.remove(&id) {
            (call, resend, attempt, true)
        } else {
            return Received::NotOurs;
        };
        let method = call.method();
        let result = envelope.result.filter(|raw| raw.get() != "null");
        let outcome = match (result, envelope.error) {
            (_, Some(error)) => judge(error.code, error.message, method, resend),
            (Some(raw), None) => match SocketAnswer::decode(method, raw.get()) {
                Ok(answer) => SocketOutcome::Done(Box::new(answer)),
                Err(e) => SocketOutcome::Unknown(UnknownCause::Unreadable(e.to_string())),
            },
            (None, None) => SocketOutcome::Unknown(UnknownCause::Unreadable(
                "neither result nor error".to_owned(),
            )),
        };
        let settled = Box::new(Settled {
            id,
            call,
            resend,
            outcome,
            attempt: Some(attempt),
        });
        if late {
            Received::Late(settled)
        } else {
            Received::Answer(settled)
        }
    }

    /// The calls written before `now` less the answer time-out, settled as unknown (their
    /// answers, if they come, are [`Received::Late`]).
    pub fn tick(&mut self, now: SystemTime) -> Vec<Settled> {
        let timeout = self.config.answer_timeout;
        let due: Vec<u64> = self
            .in_flight
            .iter()
            .filter(|(_, f)| matches!(f.stage, Stage::Written(at) if at + timeout <= now))
            .map(|(id, _)| *id)
            .collect();
        let mut out = Vec::new();
        for id in due {
            if let Some(flight) = self.in_flight.remove(&id) {
                let attempt = attempt_of(&flight, now);
                self.late
                    .insert(id, (flight.call.clone(), flight.resend, attempt));
                out.push(settled(
                    id,
                    flight,
                    SocketOutcome::Unknown(UnknownCause::TimedOut),
                    Some(attempt),
                ));
            }
        }
        out
    }

    /// The connection closed at `now`: every call released or written is unknown, every one
    /// never released not sent. Late answers can no longer come.
    pub fn disconnected(&mut self, now: SystemTime) -> Vec<Settled> {
        self.connected = false;
        self.late.clear();
        std::mem::take(&mut self.in_flight)
            .into_iter()
            .map(|(id, flight)| match flight.stage {
                Stage::Submitted => settled(id, flight, SocketOutcome::NotSent, None),
                Stage::Released | Stage::Written(_) => {
                    let attempt = attempt_of(&flight, now);
                    settled(
                        id,
                        flight,
                        SocketOutcome::Unknown(UnknownCause::ConnectionLost),
                        Some(attempt),
                    )
                }
            })
            .collect()
    }

    /// When [`tick`](Self::tick) next has something to settle.
    pub fn next_deadline(&self) -> Option<SystemTime> {
        self.in_flight
            .values()
            .filter_map(|f| match f.stage {
                Stage::Written(at) => Some(at + self.config.answer_timeout),
                _ => None,
            })
            .min()
    }

    /// How many calls wait for their answer.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }
}

fn attempt_of(flight: &InFlight, now: SystemTime) -> SocketAttempt {
    let written_at = match flight.stage {
        Stage::Written(at) => at,
        _ => now,
    };
    SocketAttempt {
        written_at,
        settled_at: now,
    }
}

fn settled(
    id: u64,
    flight: InFlight,
    outcome: SocketOutcome,
    attempt: Option<SocketAttempt>,
) -> Settled {
    Settled {
        id,
        call: flight.call,
        resend: flight.resend,
        outcome,
        attempt,
    }
}

/// An error answer by the socket's own numbering, in the call's context.
fn judge(
    code: i64,
    message: String,
    method: txc_types::socket::SocketMethod,
    resend: bool,
) -> SocketOutcome {
    let Some(refusal) = SocketRefusal::from_code(code, SocketCall::Order(method)) else {
        return SocketOutcome::Unknown(UnknownCause::UnlistedCode { code, message });
    };
    match refusal.fate() {
        Fate::Unknown => SocketOutcome::Unknown(UnknownCause::ExchangeUnsure { refusal, message }),
        Fate::Duplicate if resend => SocketOutcome::Duplicate { message },
        Fate::RateLimited => SocketOutcome::RateLimited { refusal, message },
        _ => SocketOutcome::Refused { refusal, message },
    }
}
