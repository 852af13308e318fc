//! Resolving by events, against the scripted exchange (`exchange.rs`) with a stream's
//! events published to the client's `OrderSightings` at set times: an event of the order
//! created inside the window settles it at once (and the evidence says an event proved it);
//! one that comes while the resolver waits for a round ends the wait (`Machine::wake`); an
//! older order reusing the id, a deal, another market's order prove nothing; absence is never
//! proven by events; with strict nonces an event counts once the window is known.

use std::time::Duration;

use crate::exchange::{
    ExOrder, Exchange, Fate, ROUND_TRIP, Reuse, config, drive, market_order, start,
};
use txc_core::resolve::{Found, PendingOrder, PlacedOrder, Resolution, RoundVerdict};
use txc_core::stream::{Channel, StreamEvent};
use txc_core::{ClientCore, Machine, Step};
use txc_types::events::{AccountEvent, Deal, OrderEvent};
use txc_types::orders::CollateralMarketOrder;

/// Look-ups that lag 8 s behind the matching engine (inside the 10 s settling delay): the
/// first look misses an order just created, a round after the settling delay finds it.
fn lagging(fates: &[Fate]) -> Exchange {
    Exchange {
        fates: fates.iter().copied().collect(),
        lags: vec![8_000].into(),
        ..Exchange::default()
    }
}

/// The lagging exchange with `fates`, where someone else's order carrying `cid` filled a
/// minute before: the exchange, and that order.
fn reused(cid: &str, fates: &[Fate]) -> (Exchange, ExOrder) {
    let mut ex = Exchange {
        reuse: Reuse::FinishedBefore,
        ..lagging(fates)
    };
    ex.seed(cid, ex.exchange_ms(start()));
    let theirs = ex.orders[0].clone();
    (ex, theirs)
}

/// Resolves `pending`, the only order of ours on `ex`, with the order's event published
/// before resolving starts (the exchange's log cleared first); expects it placed. Gives what
/// resolving found, how long it took, and the order.
fn resolve_with_its_event_kept(
    core: &ClientCore,
    ex: &mut Exchange,
    pending: PendingOrder,
) -> (Found<PlacedOrder>, Duration, ExOrder) {
    let ours = ex.ours()[0].clone();
    ex.log.clear();
    core.order_sightings().publish(&order_event(
        "BTC_USDT",
        ours.id,
        pending.client_order_id().as_str(),
        ours.created,
    ));
    let (resolution, took, _) = drive_with_events(core.resolve(pending), core, ex, vec![]);
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!()
    };
    (placed, took, ours)
}

/// An `ordersPending_update` (finished) of order `id` of `market` carrying `cid`, created at
/// `created_ms` on the exchange's clock.
fn order_event(market: &str, id: u64, cid: &str, created_ms: u64) -> StreamEvent {
    let params = format!(
        r#"[3,{{"id":{id},"market":"{market}","type":2,"side":2,"ctime":{}.{:03},
        "amount":"0.01","left":"0","deal_stock":"0.01","deal_money":"650",
        "client_order_id":"{cid}","status":"FILLED"}}]"#,
        created_ms / 1_000,
        created_ms % 1_000
    );
    StreamEvent::Account(AccountEvent::Order(
        OrderEvent::from_params(&params).unwrap(),
    ))
}

/// A stream of `core` runs: its first event (a subscription confirmed) is published, so the
/// client expects its orders from before their attempts.
fn stream_runs(core: &ClientCore) {
    core.order_sightings()
        .publish(&StreamEvent::Subscribed(Channel::OrdersPending));
}

fn deal_event(id: u64, cid: &str) -> StreamEvent {
    let params =
        format!(r#"[1,1700000000.1,"BTC_USDT",{id},"65000","0.01","0","{cid}",2,2,"USDT"]"#);
    StreamEvent::Account(AccountEvent::Deal(Deal::from_params(&params).unwrap()))
}

/// Drives `machine` like [`drive`], publishing each of `events` to `core`'s sightings once the
/// simulated clock reaches its time (after `start`). A wait the machine offers a wake for ends
/// at the next event; otherwise it is slept whole. Returns the output, how long it took, and
/// how many waits ended early.
fn drive_with_events<M: Machine>(
    machine: M,
    core: &ClientCore,
    exchange: &mut Exchange,
    mut events: Vec<(Duration, StreamEvent)>,
) -> (M::Output, Duration, usize) {
    events.sort_by_key(|(at, _)| *at);
    let mut events = std::collections::VecDeque::from(events);
    let sightings = core.order_sightings().clone();
    let mut woken = 0;
    let mut machine = machine;
    let mut now = start();
    loop {
        while events.front().is_some_and(|(at, _)| start() + *at <= now) {
            let (_, event) = events.pop_front().unwrap();
            sightings.publish(&event);
        }
        match machine.next(now) {
            Step::Wait(d) => {
                // Events in the wait are published at their time; the wait ends early when
                // the machine's wake fires at one of them.
                let until = now + d;
                now = until;
                while let Some(at) = events
                    .front()
                    .map(|(at, _)| start() + *at)
                    .filter(|at| *at < until)
                {
                    let (_, event) = events.pop_front().unwrap();
                    sightings.publish(&event);
                    if machine.wake().is_some_and(|w| w.wait(Duration::ZERO)) {
                        now = at;
                        woken += 1;
                        break;
                    }
                }
            }
            Step::Send(request) => {
                let answer = exchange.round_trip(request, now);
                now += ROUND_TRIP;
                match answer {
                    Ok((status, headers, body)) => {
                        machine
                            .receive(Ok(txc_core::decode::Response::new(status, &body)
                                .with_headers(&headers)))
                    }
                    Err(failure) => machine.receive(Err(failure)),
                }
            }
            Step::Done(output) => {
                return (output, now.duration_since(start()).unwrap(), woken);
            }
        }
    }
}

/// Loses the answer of `order`'s only attempt (it executed); its pending record.
fn lost(core: &ClientCore, order: &CollateralMarketOrder, ex: &mut Exchange) -> PendingOrder {
    let (result, _) = drive(core.place(order), ex, start());
    result.unwrap_err().pending_order().unwrap().clone()
}

#[test]
fn an_event_of_the_order_inside_the_window_settles_it_at_once_and_says_so() {
    // Without events: the lagging look-ups find it only after the window and the delay.
    let core = config().build().unwrap();
    let mut ex = lagging(&[Fate::LoseAnswer]);
    let pending = lost(&core, &market_order("ev-1"), &mut ex);
    let (resolution, took, _) = drive_with_events(core.resolve(pending), &core, &mut ex, vec![]);
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!()
    };
    assert!(!placed.evidence.by_event());
    assert!(took > Duration::from_secs(15), "{took:?}");

    // With the order's event, published while the answer was being lost: at once, no look-up.
    let core = config().build().unwrap();
    stream_runs(&core);
    let mut ex = lagging(&[Fate::LoseAnswer]);
    let order = market_order("ev-2");
    let pending = lost(&core, &order, &mut ex);
    // The client expected it from before its attempt: the event was kept meanwhile.
    let (placed, took, ours) = resolve_with_its_event_kept(&core, &mut ex, pending);
    assert_eq!(placed.order_id(), ours.id);
    assert!(matches!(&placed.record, PlacedOrder::Streamed(o) if o.id == ours.id));
    assert!(placed.evidence.by_event());
    let (look, seen) = placed.evidence.found().unwrap();
    assert_eq!(
        (look.operation, look.requests, seen.ours),
        ("event ordersPending_update", 0, true)
    );
    assert_eq!(
        placed.evidence.rounds.last().unwrap().verdict,
        RoundVerdict::Found
    );
    assert!(
        placed
            .evidence
            .to_string()
            .starts_with("event ordersPending_update found record"),
        "{}",
        placed.evidence
    );
    assert!(ex.log.is_empty(), "no look-up: {:?}", ex.log);
    assert_eq!(took, Duration::ZERO);
    assert!(core.pending_orders().is_empty(), "settled");
}

#[test]
fn an_event_that_comes_while_the_resolver_waits_ends_the_wait() {
    let core = config().build().unwrap();
    let mut ex = lagging(&[Fate::LoseAnswer]);
    let pending = lost(&core, &market_order("ev-wait"), &mut ex);
    let ours = ex.ours()[0].clone();
    ex.log.clear();
    // The probe misses it (8 s lag); the event comes 3 s later, long before the next round.
    let event = order_event("BTC_USDT", ours.id, "ev-wait", ours.created);
    let (resolution, took, woken) = drive_with_events(
        core.resolve(pending),
        &core,
        &mut ex,
        vec![(Duration::from_secs(3), event)],
    );
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!()
    };
    assert!(placed.evidence.by_event());
    assert_eq!(woken, 1);
    assert_eq!(took, Duration::from_secs(3));
    assert_eq!(
        ex.log,
        ["/api/v4/orders", "/api/v4/trade-account/order/history"],
        "the probe only"
    );
    assert_eq!(placed.evidence.rounds[0].verdict, RoundVerdict::Probe);
}

#[test]
fn place_once_settles_at_the_event_and_never_resends() {
    let core = config().build().unwrap();
    let mut ex = lagging(&[Fate::LoseAnswer, Fate::Normal]);
    // The event comes 50 ms after the attempt (its answer is lost meanwhile).
    let id = ex.next_id();
    let created = ex.exchange_ms(start() + Duration::from_millis(15));
    let event = order_event("BTC_USDT", id, "ev-once", created);
    let (result, took, _) = drive_with_events(
        core.place_once(&market_order("ev-once")),
        &core,
        &mut ex,
        vec![(Duration::from_millis(50), event)],
    );
    let placed = result.unwrap();
    assert_eq!(placed.order_id(), id);
    assert!(placed.evidence.by_event());
    assert_eq!(ex.ours().len(), 1, "not resent");
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn an_older_order_reusing_the_id_a_deal_or_another_market_prove_nothing() {
    let core = config().build().unwrap();
    let (mut ex, theirs) = reused("ev-reused", &[Fate::LoseAnswer]);
    let pending = lost(&core, &market_order("ev-reused"), &mut ex);
    let ours = ex.ours()[0].clone();
    let events = vec![
        // Someone else's order with the id, a minute older: outside the window.
        (
            Duration::from_secs(1),
            order_event("BTC_USDT", theirs.id, "ev-reused", theirs.created),
        ),
        // A deal of ours: it carries no creation time.
        (Duration::from_secs(2), deal_event(ours.id, "ev-reused")),
        // The id on another market.
        (
            Duration::from_secs(3),
            order_event("ETH_USDT", 999, "ev-reused", ours.created),
        ),
    ];
    let (resolution, took, woken) =
        drive_with_events(core.resolve(pending), &core, &mut ex, events);
    let Resolution::Placed(placed) = resolution.unwrap() else {
        panic!()
    };
    // Found by the look-ups' round after the window and the delay, as without a stream.
    assert!(!placed.evidence.by_event(), "{}", placed.evidence);
    assert_eq!(placed.order_id(), ours.id);
    assert!(took > Duration::from_secs(15), "{took:?}");
    assert_eq!(
        woken, 2,
        "woken by the two events of the market, judged, waited on"
    );
}

#[test]
fn absence_is_never_proven_by_events() {
    // Not processed (503): nothing exists; a stream shows a deal and someone else's order
    // with the id, and "not placed" still takes the look-ups' two rounds.
    let core = config().build().unwrap();
    let (mut ex, theirs) = reused("ev-absent", &[Fate::Unavailable]);
    let (result, _) = drive(core.place(&market_order("ev-absent")), &mut ex, start());
    let pending = result.unwrap_err().pending_order().unwrap().clone();
    let events = vec![(
        Duration::from_secs(1),
        order_event("BTC_USDT", theirs.id, "ev-absent", theirs.created),
    )];
    let (resolution, took, _) = drive_with_events(core.resolve(pending), &core, &mut ex, events);
    let Resolution::NotPlaced(evidence) = resolution.unwrap() else {
        panic!()
    };
    assert_eq!(evidence.absences(), 2);
    assert!(took > Duration::from_secs(25), "{took:?}");
}

#[test]
fn with_strict_nonces_an_event_counts_once_the_window_is_known() {
    let core = config().nonce_window(false).build().unwrap();
    stream_runs(&core);
    let mut ex = Exchange {
        strict: true,
        ..lagging(&[Fate::LoseAnswer])
    };
    let pending = lost(&core, &market_order("ev-strict"), &mut ex);
    let (placed, took, _) = resolve_with_its_event_kept(&core, &mut ex, pending);
    assert!(placed.evidence.by_event(), "{}", placed.evidence);
    // The window is fenced by the first look-up (and the clock it reads): the event is
    // judged then, not after the rounds.
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(placed.evidence.rounds.len(), 2, "the probe, then the event");
}
