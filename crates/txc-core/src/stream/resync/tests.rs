//! The resync's decisions, by table: what the consumer was told, what the look-ups found, and
//! what is reported.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::events::{AccountEvent, OrderEvent, Positions};
use txc_types::lookups::{HistoryOrder, OrderHistory};
use txc_types::orders::Order;
use txc_types::positions::Position;

use super::{ResyncChange, ResyncFindings, Resyncer};
use crate::stream::{Resync, StreamError, StreamEvent, Subscription};
use crate::{Error, TransportError, TransportErrorKind};

fn t(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_700_000_000 + secs)
}

fn resync(connection: u64, gap_since: Option<SystemTime>) -> StreamEvent {
    StreamEvent::Resync(Resync {
        connection,
        subscriptions: vec![
            Subscription::orders_pending(["BTC_USDT"]).unwrap(),
            Subscription::positions(),
        ],
        gap_since,
    })
}

fn live(kind: u8, id: u64, deal_stock: &str, status: &str) -> StreamEvent {
    let params = format!(
        r#"[{kind},{{"id":{id},"market":"BTC_USDT","type":10,"side":1,"ctime":1700000000.5,
        "amount":"1","left":"1","deal_stock":"{deal_stock}","deal_money":"0","status":"{status}"}}]"#
    );
    StreamEvent::Account(AccountEvent::Order(
        OrderEvent::from_params(&params).unwrap(),
    ))
}

fn open(id: u64, deal_stock: &str, status: &str) -> Order {
    serde_json::from_str(&format!(
        r#"{{"orderId":{id},"clientOrderId":"c{id}","market":"BTC_USDT","side":"sell",
        "type":"stop market","timestamp":1700000000.5,"dealMoney":"0","dealStock":"{deal_stock}",
        "amount":"1","left":"1","status":"{status}"}}"#
    ))
    .unwrap()
}

fn finished(id: u64) -> HistoryOrder {
    let history: OrderHistory = serde_json::from_str(&format!(
        r#"{{"BTC_USDT":[{{"id":{id},"clientOrderId":"","side":"sell","type":"stop market",
        "status":"FILLED","amount":"1","dealStock":"1","dealMoney":"1","ctime":1700000000.5,
        "ftime":1700000001.5}}]}}"#
    ))
    .unwrap();
    history.into_orders().next().unwrap()
}

fn findings(open: Vec<Order>, history: Vec<HistoryOrder>) -> Result<ResyncFindings, Error> {
    Ok(ResyncFindings {
        open,
        history,
        positions: None,
        lookups: 3,
        truncated: false,
        started_at: Some(t(100)),
    })
}

/// The changes among `events`, as (kind, id).
fn changes(events: &[StreamEvent]) -> Vec<(&'static str, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Resynced(c) => Some((
                match c {
                    ResyncChange::Opened(_) => "opened",
                    ResyncChange::Updated(_) => "updated",
                    ResyncChange::Finished(_) => "finished",
                    _ => "gone",
                },
                c.order_id(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn the_first_resync_reports_every_open_order_and_reads_no_history() {
    let mut r = Resyncer::new();
    assert!(r.due(t(0)).is_none());
    r.observe(&resync(1, None));
    let plan = r.due(t(1)).unwrap();
    assert_eq!(plan.markets().len(), 1);
    assert_eq!(plan.history_since(), None);
    // One at a time.
    assert!(r.due(t(1)).is_none());
    let events = r.finish(
        t(2),
        findings(vec![open(1, "0", "OPEN"), open(2, "0", "OPEN")], vec![]),
    );
    assert_eq!(changes(&events), [("opened", 1), ("opened", 2)]);
    let StreamEvent::ResyncDone(report) = events.last().unwrap() else {
        panic!()
    };
    assert_eq!((report.opened, report.lookups), (2, 3));
    assert_eq!(r.open_orders(), 2);
}

#[test]
fn after_a_gap_each_change_is_reported_once_and_a_finished_order_stays_finished() {
    let mut r = Resyncer::new();
    r.observe(&resync(1, None));
    let _ = r.due(t(1)).unwrap();
    let _ = r.finish(t(1), findings(vec![], vec![]));
    // Known: 10 open, 11 open (then finished live), 12 open, 13 open, 14 finished live.
    for id in [10, 11, 12, 13] {
        r.observe(&live(1, id, "0", "OPEN"));
    }
    r.observe(&live(3, 11, "1", "FILLED"));
    r.observe(&live(3, 14, "1", "FILLED"));
    r.observe(&resync(2, Some(t(500))));
    let plan = r.due(t(501)).unwrap();
    // The history since the gap, less the overlap; the orders known open of the markets.
    assert_eq!(plan.history_since(), Some(1_700_000_000 + 500 - 60));
    assert_eq!(
        plan.known_open
            .iter()
            .map(|(id, _)| *id)
            .collect::<Vec<_>>(),
        [10, 12, 13]
    );
    // Meanwhile order 13 finishes live (after the look-ups read it open).
    r.observe(&live(3, 13, "1", "FILLED"));
    let events = r.finish(
        t(502),
        findings(
            // 10 unchanged, 13 stale (finished live since), 20 new; 11 stale too.
            vec![
                open(10, "0", "OPEN"),
                open(13, "0", "OPEN"),
                open(20, "0", "OPEN"),
                open(11, "0", "OPEN"),
            ],
            // 14 already reported; 21 placed and finished while away.
            vec![finished(14), finished(21)],
        ),
    );
    // 12: known open, in no list: gone.
    assert_eq!(
        changes(&events),
        [("opened", 20), ("finished", 21), ("gone", 12)]
    );
    assert_eq!(r.open_orders(), 2); // 10 and 20
}

#[test]
fn progress_on_a_known_open_order_is_an_update() {
    let mut r = Resyncer::new();
    r.observe(&live(1, 5, "0", "OPEN"));
    r.observe(&resync(2, Some(t(10))));
    let _ = r.due(t(11)).unwrap();
    let events = r.finish(
        t(12),
        findings(vec![open(5, "0.5", "PARTIALLY_FILLED")], vec![]),
    );
    assert_eq!(changes(&events), [("updated", 5)]);
}

#[test]
fn a_failed_resync_is_an_error_and_is_retried_unless_a_newer_one_replaces_it() {
    let mut r = Resyncer::new();
    r.observe(&resync(1, Some(t(5))));
    let _ = r.due(t(10)).unwrap();
    let failure = TransportError::not_sent(TransportErrorKind::Connect, "refused");
    let events = r.finish(t(10), Err(failure.into()));
    let [
        StreamEvent::Error(StreamError::ResyncFailed {
            connection: 1,
            retry_in: Some(d),
            ..
        }),
    ] = &events[..]
    else {
        panic!("{events:?}")
    };
    assert_eq!(*d, Duration::from_secs(1));
    assert_eq!(r.retry_at(), Some(t(11)));
    assert!(r.due(t(10)).is_none());
    let plan = r.due(t(11)).unwrap();
    assert_eq!(plan.history_since(), Some(1_700_000_000 + 5 - 60));
    // A newer connection's resync replaces a failed one, reading from the earlier gap.
    r.observe(&resync(2, Some(t(20))));
    let failure = TransportError::not_sent(TransportErrorKind::Connect, "refused");
    let events = r.finish(t(12), Err(failure.into()));
    assert!(matches!(
        &events[..],
        [StreamEvent::Error(StreamError::ResyncFailed {
            retry_in: None,
            ..
        })]
    ));
    let plan = r.due(t(12)).unwrap();
    assert_eq!(plan.connection(), 2);
    assert_eq!(plan.history_since(), Some(1_700_000_000 + 5 - 60));
}

fn position(id: u64, amount: &str) -> Position {
    serde_json::from_str(&format!(
        r#"{{"positionId":{id},"market":"BTC_USDT","amount":"{amount}","positionSide":"BOTH"}}"#
    ))
    .unwrap()
}

fn positions_of(events: &[StreamEvent]) -> Option<Vec<u64>> {
    events.iter().find_map(|e| match e {
        StreamEvent::ResyncedPositions(p) => Some(p.iter().map(|p| p.position_id).collect()),
        _ => None,
    })
}

#[test]
fn the_positions_read_are_sent_unless_a_live_snapshot_came_after_the_look_ups_started() {
    let mut resyncer = Resyncer::new();
    resyncer.observe(&resync(1, None));
    let plan = resyncer.due(t(0)).unwrap();
    assert!(plan.reads_positions());
    let mut found = findings(Vec::new(), Vec::new()).unwrap();
    found.positions = Some(vec![position(7, "0.5"), position(8, "-1")]);
    let events = resyncer.finish(t(1), Ok(found.clone()));
    assert_eq!(positions_of(&events), Some(vec![7, 8]));
    let StreamEvent::ResyncDone(report) = events.last().unwrap() else {
        panic!("{events:?}")
    };
    assert_eq!(report.positions, Some(2));
    // A live snapshot while the look-ups run is no older than what they read.
    resyncer.observe(&resync(2, Some(t(2))));
    let _plan = resyncer.due(t(3)).unwrap();
    let snapshot = Positions::from_params(r#"{"records":[]}"#).unwrap();
    resyncer.observe(&StreamEvent::Account(AccountEvent::Positions(snapshot)));
    let events = resyncer.finish(t(4), Ok(found));
    assert_eq!(positions_of(&events), None);
    let StreamEvent::ResyncDone(report) = events.last().unwrap() else {
        panic!("{events:?}")
    };
    assert_eq!(report.positions, None);
    // Without a positions channel nothing is read.
    let mut resyncer = Resyncer::new();
    resyncer.observe(&StreamEvent::Resync(Resync {
        connection: 1,
        subscriptions: vec![Subscription::orders_pending(["BTC_USDT"]).unwrap()],
        gap_since: None,
    }));
    assert!(!resyncer.due(t(0)).unwrap().reads_positions());
}
