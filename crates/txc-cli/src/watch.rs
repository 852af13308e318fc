//! `txc watch`: the account's events, printed as they happen — a line each, or one JSON
//! document per line with `--json`. Driven by `txc-blocking`'s event iterator (no tokio).
//!
//! Printing is this module's purpose, so it writes to standard output.
#![allow(clippy::print_stdout)]

use std::io::Write as _;

use serde_json::{Value, json};
use txc_blocking::events::{
    AccountEvent, PositionEvent, PositionEventKind, ResyncChange, StopReason, StreamEvent,
    Subscription,
};

use crate::args::{GlobalArgs, WatchArgs};
use crate::config;
use crate::exit::CliError;

/// Runs `txc watch` until interrupted, the stream stops, or `--count` updates were printed.
pub(crate) fn run(global: &GlobalArgs, args: &WatchArgs) -> Result<(), CliError> {
    if global.dry_run {
        return Err(CliError::invalid(
            "watch sends no order; run it without --dry-run",
        ));
    }
    let markets = args.markets.iter().map(String::as_str);
    let subscriptions = [
        Subscription::orders_pending(markets.clone()),
        Subscription::orders_executed(markets.clone(), Default::default()),
        Subscription::deals(markets),
        Subscription::balance_margin(args.assets.iter().map(String::as_str)),
    ]
    .into_iter()
    .collect::<Result<Vec<_>, _>>()
    .map_err(|e| CliError::invalid(e.to_string()))?;
    let subscriptions = subscriptions
        .into_iter()
        .chain([Subscription::positions(), Subscription::position_events()])
        .chain(optional_channels(args)?);
    let target = config::target(global)?;
    let client = crate::run::client_for(global, &target)?;
    let mut events = client
        .events(subscriptions)
        .config(crate::test_timing::stream_config(global))
        .start()
        .map_err(|e| CliError::invalid(e.to_string()))?;
    let mut updates = 0;
    let mut stdout = std::io::stdout().lock();
    while let Some(event) = events.next() {
        if matches!(event, StreamEvent::Account(_) | StreamEvent::Resynced(_)) {
            updates += 1;
        }
        // The connection's state is progress: standard error (silenced by --quiet), with or
        // without --json; with --json it is an event of the stream too.
        if is_progress(&event) {
            crate::progress::line(format_args!("{}", text(&event)));
        }
        let line = if global.json {
            Some(
                crate::output::camel_case(json!({"command": "watch", "event": document(&event)}))
                    .to_string(),
            )
        } else {
            (!is_progress(&event)).then(|| text(&event))
        };
        // A closed pipe (`txc watch | head`) ends the watch.
        if let Some(line) = line
            && writeln!(stdout, "{line}")
                .and_then(|()| stdout.flush())
                .is_err()
        {
            return Ok(());
        }
        if let StreamEvent::Stopped(reason) = &event {
            return match reason {
                StopReason::Requested => Ok(()),
                other => Err(CliError::Rejected(format!("the stream stopped: {other:?}"))),
            };
        }
        if args.count.is_some_and(|count| updates >= count) {
            events.stop();
        }
    }
    Ok(())
}

/// The channels chosen by option: `--adl[=PERP]`, `--premium-index[=PERP]`.
fn optional_channels(args: &WatchArgs) -> Result<Vec<Subscription>, CliError> {
    let adl = args
        .adl
        .as_ref()
        .map(|market| Subscription::adl_quantile(market.as_deref()));
    let premium = args
        .premium_index
        .as_ref()
        .map(|markets| Subscription::premium_index(markets.iter().map(String::as_str)));
    adl.into_iter()
        .chain(premium)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::invalid(e.to_string()))
}

/// Whether a table-mode line of `event` is the connection's progress (connecting, resyncing,
/// subscribed, disconnected and reconnecting) rather than the account's events.
fn is_progress(event: &StreamEvent) -> bool {
    matches!(
        event,
        StreamEvent::Resync(_)
            | StreamEvent::ResyncDone(_)
            | StreamEvent::Disconnected(_)
            | StreamEvent::Subscribed(_)
            | StreamEvent::Unsubscribed(_)
    )
}

/// An event as JSON: `{"type": …}` and its fields; records in their wire form.
fn document(event: &StreamEvent) -> Value {
    match event {
        StreamEvent::Account(update) => json!({"type": "update", "update": update}),
        StreamEvent::Resynced(change) => {
            let (kind, record) = match change {
                ResyncChange::Opened(o) => ("opened", json!(o)),
                ResyncChange::Updated(o) => ("updated", json!(o)),
                ResyncChange::Finished(h) => ("finished", json!(h)),
                _ => ("gone", Value::Null),
            };
            json!({
                "type": "resynced",
                "change": kind,
                "orderId": change.order_id(),
                "market": change.market().as_str(),
                "record": record,
            })
        }
        StreamEvent::ResyncedPositions(positions) => {
            json!({"type": "resynced_positions", "positions": positions})
        }
        StreamEvent::Resync(resync) => json!({
            "type": "resync",
            "connection": resync.connection,
            "channels": resync.channels().map(|c| c.to_string()).collect::<Vec<_>>(),
            "gapSince": resync.gap_since.map(txc_sign::nonce::unix_millis),
        }),
        StreamEvent::ResyncDone(report) => json!({
            "type": "resync_done",
            "connection": report.connection,
            "opened": report.opened,
            "updated": report.updated,
            "finished": report.finished,
            "gone": report.gone,
            "positions": report.positions,
            "lookups": report.lookups,
            "truncated": report.truncated,
        }),
        StreamEvent::Subscribed(channel) => {
            json!({"type": "subscribed", "channel": channel.to_string()})
        }
        StreamEvent::Unsubscribed(channel) => {
            json!({"type": "unsubscribed", "channel": channel.to_string()})
        }
        StreamEvent::Disconnected(d) => json!({
            "type": "disconnected",
            "connection": d.connection,
            "reason": format!("{:?}", d.reason),
            "wasEstablished": d.was_established,
            "reconnectInMs": d.reconnect_in.map(|r| u64::try_from(r.as_millis()).unwrap_or(u64::MAX)),
        }),
        StreamEvent::Update(update) => json!({
            "type": "undecodable",
            "channel": update.channel().to_string(),
            "error": update.error().to_string(),
            "params": serde_json::from_str::<Value>(update.params().get()).unwrap_or(Value::Null),
        }),
        StreamEvent::Unknown(message) => json!({
            "type": "unknown",
            "message": serde_json::from_str::<Value>(message.raw().get()).unwrap_or(Value::Null),
        }),
        StreamEvent::Error(error) => json!({
            "type": "error",
            "message": error.to_string(),
            "fatal": error.is_fatal(),
        }),
        StreamEvent::Stopped(reason) => json!({"type": "stopped", "reason": format!("{reason:?}")}),
        _ => json!({"type": "other", "debug": format!("{event:?}")}),
    }
}

/// An event as one line of text.
fn text(event: &StreamEvent) -> String {
    match event {
        StreamEvent::Account(AccountEvent::Order(e)) => {
            let o = &e.order;
            format!(
                "order {:?} {} {} {} {} {:?} amount {} executed {} {}",
                e.kind,
                o.id,
                o.market,
                o.client_order_id.as_ref().map_or("-", |c| c.as_str()),
                o.side.as_str(),
                o.status.as_ref().map_or("-", |s| s.as_str()),
                o.amount,
                o.deal_stock,
                o.deal_money,
            )
        }
        StreamEvent::Account(AccountEvent::Executed(e)) => e
            .orders
            .iter()
            .map(|o| {
                format!(
                    "executed {} {} {} {}",
                    o.id, o.market, o.deal_stock, o.deal_money
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        StreamEvent::Account(AccountEvent::Deal(d)) => format!(
            "deal {} order {} {} price {} amount {} fee {}",
            d.id,
            d.order_id,
            d.market,
            d.price,
            d.amount,
            d.fee.as_ref().map_or("-", |f| f.as_str()),
        ),
        StreamEvent::Account(AccountEvent::Balances(b)) => b
            .balances
            .iter()
            .map(|b| format!("balance {} {}", b.asset, b.balance))
            .collect::<Vec<_>>()
            .join("\n"),
        StreamEvent::Account(AccountEvent::Positions(p)) => {
            let mut lines = vec![format!("positions {}", p.records.len())];
            lines.extend(p.records.iter().map(|r| {
                format!(
                    "  {} {} {}",
                    r.market,
                    side_of(r.position_side, Some(&r.amount)),
                    r.amount
                )
            }));
            lines.join("\n")
        }
        StreamEvent::Account(AccountEvent::PositionEvent(e)) => position_event(e),
        StreamEvent::Account(AccountEvent::AdlQuantiles(q)) => {
            let quantile = |q: Option<txc_blocking::positions::AdlQuantile>| {
                q.map_or_else(|| "-".to_owned(), |q| q.get().to_string())
            };
            let mut lines = vec![format!("adl quantiles {}", q.records.len())];
            lines.extend(q.records.iter().map(|r| {
                format!(
                    "  {} long {} short {}",
                    r.market,
                    quantile(r.long),
                    quantile(r.short)
                )
            }));
            lines.join("\n")
        }
        StreamEvent::Account(AccountEvent::PremiumIndex(p)) => p
            .records
            .iter()
            .map(|r| {
                format!(
                    "premium index {} mark {} index {} funding rate {} next funding {}",
                    r.market,
                    r.mark_price,
                    r.index_price,
                    r.funding_rate,
                    r.next_funding
                        .as_ref()
                        .map_or_else(|| "-".to_owned(), ToString::to_string),
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        StreamEvent::Resynced(change) => format!(
            "resynced {} {} {}",
            match change {
                ResyncChange::Opened(_) => "opened",
                ResyncChange::Updated(_) => "updated",
                ResyncChange::Finished(_) => "finished",
                _ => "gone",
            },
            change.order_id(),
            change.market()
        ),
        StreamEvent::ResyncedPositions(positions) => {
            let mut lines = vec![format!("resynced positions {}", positions.len())];
            lines.extend(positions.iter().map(|p| {
                format!(
                    "  {} {} {}",
                    p.market,
                    side_of(p.position_side, p.amount.as_ref()),
                    p.amount.as_ref().map_or("-", |a| a.as_str())
                )
            }));
            lines.join("\n")
        }
        StreamEvent::Resync(r) => format!(
            "connected (connection {}): resyncing over REST{}",
            r.connection,
            if r.is_initial() { "" } else { " after a gap" }
        ),
        StreamEvent::ResyncDone(r) => format!(
            "resynced connection {}: {} opened, {} updated, {} finished, {} gone ({} look-ups)",
            r.connection, r.opened, r.updated, r.finished, r.gone, r.lookups
        ),
        StreamEvent::Disconnected(d) => format!(
            "disconnected (connection {}): {:?}{}",
            d.connection,
            d.reason,
            d.reconnect_in
                .map_or_else(String::new, |r| format!("; reconnecting in {r:?}"))
        ),
        StreamEvent::Error(e) => format!("error: {e}"),
        StreamEvent::Update(u) => format!("undecodable {}: {}", u.channel(), u.error()),
        StreamEvent::Unknown(m) => format!("unknown: {}", m.raw().get()),
        StreamEvent::Subscribed(c) => format!("subscribed {c}"),
        StreamEvent::Unsubscribed(c) => format!("unsubscribed {c}"),
        StreamEvent::Stopped(r) => format!("stopped: {r:?}"),
        other => format!("{other:?}"),
    }
}

/// A margin call or a liquidation as one line: what happened, to which position, and its
/// figures as the event gives them.
fn position_event(e: &PositionEvent) -> String {
    let p = &e.position;
    let what = match e.kind {
        PositionEventKind::MarginCall => "MARGIN CALL".to_owned(),
        PositionEventKind::Liquidation => "LIQUIDATION".to_owned(),
        other => format!("position event {other:?}"),
    };
    let figure = |name: &str, value: Option<&txc_blocking::values::ExactDecimal>| {
        value.map_or_else(String::new, |v| format!(" {name} {v}"))
    };
    format!(
        "{what} position {} {} {} amount {}{}{}{}{}{}",
        p.id,
        p.market,
        side_of(p.position_side, Some(&p.amount)),
        p.amount,
        figure("price", p.base_price.as_ref()),
        figure("liq price", p.liq_price.as_ref()),
        figure("pnl", p.pnl.as_ref()),
        figure("margin", p.margin.as_ref()),
        figure("free margin", p.free_margin.as_ref()),
    )
}

/// A position's side as the tables show it (`long`/`short`, one-way mode's by its amount's
/// sign), `-` when nothing tells.
fn side_of(
    side: Option<txc_blocking::orders::PositionSide>,
    amount: Option<&txc_blocking::values::ExactDecimal>,
) -> String {
    let side = crate::table::position_side(side, amount);
    if side.is_empty() {
        "-".to_owned()
    } else {
        side
    }
}
