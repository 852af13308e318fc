//! `--via rest|ws`: the one option every placing and canceling command shares, and sending a
//! command's request over the exchange's authorized WebSocket (`--via ws`) as its order
//! method — the same typed request REST sends, through `txc-blocking`'s
//! [`SocketTrading`] on the same journaled client: an order with a `client_order_id` is
//! journaled before its frame is written, an unknown outcome is exit 4 with the `txc resolve`
//! command that settles it (its attempts over the socket as `--ws-attempt`), `--once` resolves
//! and resends only what was proven not placed, `txc pending` lists the records. Also `txc
//! tpsl`, which only the socket serves.
//!
//! The commands without an order method on the socket (`bulk`, `cancel-bulk`, `cancel-oco` by
//! client order id) refuse `--via ws` before anything is sent, and so do the cancels' and
//! modify's `--once`, which settle over REST.

use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use txc_blocking::Error;
use txc_blocking::outcomes::{Found, PendingOrder};
use txc_blocking::socket::{
    CollateralTpslOrder, CollateralTpslOrderBuilder, SocketAnswer, SocketAttempt, SocketPlaced,
    SocketRequest, SocketTrading, ToSocket,
};

use crate::args::GlobalArgs;
use crate::config::{self, Target};
use crate::exit::CliError;
use crate::order_args::{PositionSideArg, StpArg};
use crate::placing::{resolve_command, stp};
use crate::run::{Outcome, TradingOutcome, check_live, given, ordering_client, position_side};

/// How a command's request travels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum Via {
    /// Over REST (signed HTTP)
    #[default]
    Rest,
    /// As an order method on the authorized WebSocket: journaled the same, --once and txc
    /// resolve work the same
    Ws,
}

/// `--via`, flattened into every placing and canceling command.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct ViaArgs {
    /// How to send it: over REST, or as an order method on the exchange's authorized WebSocket
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Via::Rest)]
    pub(crate) via: Via,
}

impl ViaArgs {
    /// Whether `--via ws` was asked for.
    pub(crate) fn ws(self) -> bool {
        self.via == Via::Ws
    }

    /// Refuses `--via ws` for `command`, which has no order method on the socket.
    pub(crate) fn rest_only(self, command: &str) -> Result<(), CliError> {
        if self.ws() {
            return Err(CliError::invalid(format!(
                "{command} has no order method on the WebSocket; nothing was sent: use --via \
                 rest"
            )));
        }
        Ok(())
    }
}

/// What a command sent over the socket produced.
#[derive(Debug)]
pub(crate) enum SocketOutcome {
    /// The order method's answer.
    Answer(Box<SocketAnswer>),
    /// `--dry-run`: the call that would be sent (its frame's method and parameters).
    Frame(SocketRequest),
}

/// Refuses `--once` with `--via ws` for `command`, whose exactly-once settling goes over REST.
pub(crate) fn no_once(command: &str, once: bool) -> Result<(), CliError> {
    if once {
        return Err(CliError::invalid(format!(
            "{command} --once settles over REST; nothing was sent: drop --once, or use --via \
             rest"
        )));
    }
    Ok(())
}

/// Places `order` over the socket (or shows its call, with `--dry-run`): once, or exactly
/// once with `--once`.
pub(crate) fn place<O: ToSocket>(
    global: &GlobalArgs,
    target: &Target,
    order: &O,
    once: bool,
) -> Result<Outcome, CliError> {
    let Some(mut session) = session(global, target, order)? else {
        return frame(order);
    };
    let check = |error: &Error| error.pending_order().map(resolve_command);
    if !once {
        let result = session.place(order);
        session.close();
        return answered(result, check);
    }
    let result = session.place_once(order);
    session.close();
    let found = result.map_err(|error| {
        let check = check(&error);
        CliError::changing(error, check)
    })?;
    Ok(match found.record {
        SocketPlaced::Order(record) => {
            Outcome::Placed(Box::new(Found::new(record, found.evidence)))
        }
        SocketPlaced::Oco(pair) => Outcome::Trading(Box::new(TradingOutcome::OcoPlaced(Box::new(
            Found::new(pair, found.evidence),
        )))),
        SocketPlaced::Answered(answer) => {
            Outcome::Socket(Box::new(SocketOutcome::Answer(Box::new(answer))))
        }
        other => {
            return Err(CliError::Unknown(format!(
                "placed, in a form this txc cannot show: {other:?}"
            )));
        }
    })
}

/// Sends `request` — a modify or a cancel — over the socket with `call` (or shows it, with
/// `--dry-run`); `check` says how to see what became of it when the outcome is unknown.
pub(crate) fn send<R: ToSocket>(
    global: &GlobalArgs,
    request: &R,
    call: impl FnOnce(&mut SocketTrading, &R) -> Result<SocketAnswer, Error>,
    check: impl FnOnce(&Error) -> Option<String>,
) -> Result<Outcome, CliError> {
    let target = config::target(global)?;
    let Some(mut session) = session(global, &target, request)? else {
        return frame(request);
    };
    let result = call(&mut session, request);
    session.close();
    answered(result, check)
}

/// The session for `request` past the `--live` guard; `None` with `--dry-run` (nothing is
/// sent). What the socket does not take of `request` is refused first.
fn session<R: ToSocket + ?Sized>(
    global: &GlobalArgs,
    target: &Target,
    request: &R,
) -> Result<Option<SocketTrading>, CliError> {
    request.to_socket()?;
    check_live(global, target)?;
    if global.dry_run {
        return Ok(None);
    }
    let client = ordering_client(global, target)?;
    client
        .socket_trading()
        .map(Some)
        .map_err(|e| CliError::changing(e, None))
}

/// `--dry-run`'s outcome: the call that would be sent.
fn frame<R: ToSocket + ?Sized>(request: &R) -> Result<Outcome, CliError> {
    Ok(Outcome::Socket(Box::new(SocketOutcome::Frame(
        request.to_socket()?,
    ))))
}

/// The outcome of an answered call, or its failure (`check` for an unknown outcome).
fn answered(
    result: Result<SocketAnswer, Error>,
    check: impl FnOnce(&Error) -> Option<String>,
) -> Result<Outcome, CliError> {
    result
        .map(|answer| Outcome::Socket(Box::new(SocketOutcome::Answer(Box::new(answer)))))
        .map_err(|error| {
            let check = check(&error);
            CliError::changing(error, check)
        })
}

/// What `txc tpsl` takes.
#[derive(Debug, Args)]
pub(crate) struct TpslArgs {
    /// The market of the open position, e.g. BTC_PERP
    pub(crate) market: String,
    /// The take-profit's trigger price: on a long above the market, on a short below
    #[arg(long, value_name = "P")]
    pub(crate) take_profit: Option<String>,
    /// The stop-loss's trigger price: on a long below the market, on a short above
    #[arg(long, value_name = "P")]
    pub(crate) stop_loss: Option<String>,
    /// Which position (hedge mode)
    #[arg(long, value_name = "SIDE")]
    pub(crate) position_side: Option<PositionSideArg>,
    /// Self-trade prevention
    #[arg(long, value_name = "MODE")]
    pub(crate) stp: Option<StpArg>,
}

/// `txc tpsl`: a take-profit and/or stop-loss on the open position, over the socket (the
/// method has no REST twin). It carries no client order id, so it is not journaled: a lost
/// answer is exit 4 with the look-up that shows whether its legs exist.
pub(crate) fn tpsl(global: &GlobalArgs, args: &TpslArgs) -> Result<Outcome, CliError> {
    type B = CollateralTpslOrderBuilder;
    let builder = CollateralTpslOrder::builder(args.market.as_str());
    let builder = given(builder, args.take_profit.as_deref(), B::take_profit);
    let builder = given(builder, args.stop_loss.as_deref(), B::stop_loss);
    let builder = given(
        builder,
        args.position_side.map(position_side),
        B::position_side,
    );
    let order = given(builder, args.stp.map(stp), B::stp).build()?;
    let market = args.market.clone();
    send(
        global,
        &order,
        |session, order| session.place(order),
        |_| {
            Some(format!(
                "txc orders --market {market}  (its legs are stop-market orders there if it \
                 was placed)"
            ))
        },
    )
}

/// The `--ws-attempt` value `WRITTEN:SETTLED` (Unix microseconds).
pub(crate) fn ws_attempt(text: &str) -> Result<(u64, u64), String> {
    let parse = |part: &str| {
        part.trim()
            .parse::<u64>()
            .map_err(|e| format!("{part:?} is not Unix microseconds: {e}"))
    };
    let (written, settled) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not WRITTEN:SETTLED"))?;
    let (written, settled) = (parse(written)?, parse(settled)?);
    if settled < written {
        return Err(format!("{text:?}: settled before it was written"));
    }
    Ok((written, settled))
}

/// `attempt` as `--ws-attempt` takes it.
pub(crate) fn ws_attempt_text(attempt: &SocketAttempt) -> String {
    let us = |t: std::time::SystemTime| {
        t.duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
    };
    format!("{}:{}", us(attempt.written_at), us(attempt.settled_at))
}

/// The `ws_attempts` detail of an error's pending order.
pub(crate) fn ws_attempts_value(attempts: &[SocketAttempt]) -> Value {
    Value::Array(attempts.iter().map(|a| json!(ws_attempt_text(a))).collect())
}

/// `records` to resolve, with the `--ws-attempt`s given: a record of `given`'s order holding
/// them when one was read, else one more record of them.
pub(crate) fn with_ws_attempts(
    mut records: Vec<PendingOrder>,
    given: &PendingOrder,
    ws: &[(u64, u64)],
) -> Vec<PendingOrder> {
    if ws.is_empty() {
        return records;
    }
    let at = |us: u64| std::time::UNIX_EPOCH + std::time::Duration::from_micros(us);
    let attempts: Vec<SocketAttempt> = ws
        .iter()
        .map(|&(written, settled)| SocketAttempt {
            written_at: at(written),
            settled_at: at(settled),
        })
        .collect();
    let holds = |record: &PendingOrder| {
        attempts.iter().all(|a| {
            record
                .socket_attempts()
                .iter()
                .any(|b| b.written_at == a.written_at)
        })
    };
    if records.iter().any(holds) {
        records.retain(holds);
        return records;
    }
    records.push(
        PendingOrder::new(
            given.market().clone(),
            given.client_order_id().clone(),
            Vec::new(),
        )
        .with_trigger(given.is_trigger())
        .with_socket_attempts(attempts),
    );
    records
}

/// The `result` of a JSON document: the answer as the socket writes it (`via`, the method's
/// kind of answer), or the call `--dry-run` would send.
pub(crate) fn result(outcome: &SocketOutcome) -> Value {
    match outcome {
        SocketOutcome::Answer(answer) => {
            let (kind, value) = match &**answer {
                SocketAnswer::Order(order) => ("order", json!(order)),
                SocketAnswer::Oco(group) => ("oco", json!(group)),
                SocketAnswer::Oto(group) => ("oto", json!(group)),
                SocketAnswer::Tpsl(pair) => ("tpsl", json!(pair)),
                SocketAnswer::Done => ("done", json!({})),
                other => ("other", json!(format!("{other:?}"))),
            };
            json!({ "via": "ws", "answer": kind, "result": value })
        }
        SocketOutcome::Frame(request) => json!({
            "via": "ws",
            "dry_run": true,
            "method": request.method().name(),
            "params": request.params_value(),
        }),
    }
}

/// Prints `outcome` as lines: each order of the answer, or the call.
pub(crate) fn print(outcome: &SocketOutcome) {
    #![allow(clippy::print_stdout)]
    match outcome {
        SocketOutcome::Answer(answer) if matches!(**answer, SocketAnswer::Done) => {
            println!("done (over the WebSocket): read the open orders to confirm");
        }
        SocketOutcome::Answer(answer) => {
            let group = match &**answer {
                SocketAnswer::Oco(g) => Some(format!("OCO group {}", g.id)),
                SocketAnswer::Oto(g) => Some(format!("OTO group {}", g.id)),
                SocketAnswer::Tpsl(_) => Some("TPSL on the position".to_owned()),
                _ => None,
            };
            if let Some(group) = group {
                println!("{group} (over the WebSocket)");
            }
            for order in answer.orders() {
                let text = |v: Option<&txc_blocking::values::ExactDecimal>| {
                    v.map_or_else(|| "-".to_owned(), ToString::to_string)
                };
                println!(
                    "order {} {} {} type {} status {} price {} amount {} executed {}{}",
                    order.id,
                    order.market.as_ref().map_or("-", |m| m.as_str()),
                    order.side.map_or("-", |s| s.as_str()),
                    order
                        .order_type
                        .map_or_else(|| "-".to_owned(), |t| t.to_string()),
                    order.status.as_ref().map_or("-", |s| s.as_str()),
                    text(order.price.as_ref()),
                    text(order.amount.as_ref()),
                    text(order.deal_stock.as_ref()),
                    order
                        .activation_price
                        .as_ref()
                        .map_or_else(String::new, |p| format!(" trigger {p}")),
                );
            }
        }
        SocketOutcome::Frame(request) => println!(
            "would send over the WebSocket (--dry-run, nothing sent): {} {}",
            request.method().name(),
            request.params_value()
        ),
    }
}
