//! `--via rest|ws`: the one option every placing and canceling command shares, and sending a
//! command's request over the exchange's authorized WebSocket (`--via ws`) as its order
//! method — the same typed request REST sends, through `txc-blocking`'s
//! [`SocketTrading`] on the same journaled client: an order with a `client_order_id` is
//! journaled before its frame is written, an unknown outcome is exit 4 with the `txc resolve`
//! command that settles it (its attempts over the socket as `--ws-attempt`), `--once` resolves
//! and resends only what was proven not placed, `txc pending` lists the records (`tpsl.rs`,
//! which only the socket serves, sends through it too; `socket_output.rs` prints).
//!
//! The commands without an order method on the socket (`bulk`, `cancel-bulk`, `cancel-oco` by
//! client order id) refuse `--via ws` before anything is sent, and so do the cancels' and
//! modify's `--once`, which settle over REST.

use serde_json::{Value, json};
use txc_blocking::Error;
use txc_blocking::outcomes::{Found, PendingOrder};
use txc_blocking::socket::{SocketAnswer, SocketAttempt, SocketPlaced, SocketTrading, ToSocket};

use crate::args::GlobalArgs;
use crate::config::{self, Target};
use crate::exit::CliError;
use crate::run::{Outcome, TradingOutcome, check_live, ordering_client};
use crate::socket_output::SocketOutcome;
use crate::via_args::ViaArgs;

/// Refuses `--via ws` for `command`, which has no order method on the socket.
pub(crate) fn rest_only(via: ViaArgs, command: &str) -> Result<(), CliError> {
    if via.ws() {
        return Err(CliError::invalid(format!(
            "{command} has no order method on the WebSocket; nothing was sent: use --via \
             rest"
        )));
    }
    Ok(())
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
/// once with `--once`; an unknown outcome says to settle it with `resolve_command`'s command.
pub(crate) fn place<O: ToSocket>(
    global: &GlobalArgs,
    target: &Target,
    order: &O,
    once: bool,
    resolve_command: fn(&PendingOrder) -> String,
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
