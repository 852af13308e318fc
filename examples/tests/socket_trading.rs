//! Trading over the WebSocket, the scenario table run once per transport (`blocking::name`,
//! `asynchronous::name`): each client's `SocketTrading` against the embedded sandbox's socket
//! on 127.0.0.1 — placements of every kind the sandbox serves, modify and the cancels,
//! pushes interleaving with the answers, the socket's refusals as typed errors, and exactly
//! once through the sandbox's faults (a connection dropped after the frame was processed, a
//! stall past the answer time-out, `43` on a resend, a restart reading the journal back).
//! No timing assertions: delays only make faults happen. Proving absence waits the 1 s
//! acceptance window the tests' clients give the sandbox (`unproven_acceptance_window`, which
//! replaces the socket's 10 s processing grace and 5 s creation allowance);
//! `TXC_FULL_RESOLVE=1` waits the documented 15 s.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::sync::Arc;
use std::time::Duration;

use std::time::SystemTime;

use common::config;
use common::journal::MemoryJournal;
use common::socket::Transport;
use txc_core::pacing::RateLimits;
use txc_core::resolve::{Journal, PendingOrder, PendingRecord, Resolution};
use txc_core::risk::{MarketRulesCheck, ModeCheck};
use txc_core::socket::{
    SessionConfig, Settled, SocketAttempt, SocketError, SocketLimits, SocketOrdersConfig,
    SocketOutcome, SocketPlaced,
};
use txc_core::stream::{StopReason, StreamConfig, StreamEvent, Subscription};
use txc_core::{ClientConfig, Error};
use txc_sandbox::{Sandbox, WsFault, demo};
use txc_sign::nonce::NonceSequence;
use txc_types::endpoint::Endpoint;
use txc_types::endpoint::RateLimit;
use txc_types::errors::ValidationError;
use txc_types::events::AccountEvent;
use txc_types::events::WebSocketTokenQuery;
use txc_types::markets::Rule;
use txc_types::orders::PositionSide;
use txc_types::orders::{
    BboRole, CancelAllOrders, CancelConditionalOrder, CancelOrder, CollateralBboOrder,
    CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder, CollateralStopBboOrder,
    CollateralStopLimitOrder, CollateralTriggerMarketOrder, ModifyOrder, OrderStatus, Side,
};
use txc_types::socket::{CollateralTpslOrder, SocketAnswer, SocketRefusal};

/// The partner's client of `sandbox`. Token requests are not paced (the client keeps to the
/// documented 10 a minute, which the suite's parallel sessions of one key would share).
fn partner(sandbox: &Sandbox) -> ClientConfig {
    config::partner()
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
}

/// A session with a short answer time-out (faults make answers not come).
fn quick() -> SessionConfig {
    SessionConfig::default()
        .with_orders(SocketOrdersConfig::default().with_answer_timeout(Duration::from_millis(500)))
}

fn order_of(answer: &SocketAnswer) -> &txc_types::socket::SocketOrder {
    let SocketAnswer::Order(order) = answer else {
        panic!("not an order: {answer:?}")
    };
    order
}

// ---------------------------------------------------------------------------------------------
// Success.

fn limit_and_market_orders_are_placed_over_the_socket(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    let limit = txc_types::orders::CollateralLimitOrder::builder(
        "BTC_USDT",
        txc_types::orders::Side::Buy,
        "0.01",
        "60000.10",
    )
    .client_order_id("ws-limit-1")
    .build()
    .unwrap();
    let placed = session.place(&limit).unwrap();
    let order = order_of(&placed);
    assert_eq!(order.status, Some(OrderStatus::Open));
    assert_eq!(order.side, Some(txc_types::orders::Side::Buy));
    assert_eq!(
        order.client_order_id.as_ref().map(|c| c.as_str()),
        Some("ws-limit-1")
    );
    // REST sees it on the same book.
    assert!(
        sandbox
            .orders()
            .iter()
            .any(|o| o.order_id == order.id && o.status == Some(OrderStatus::Open))
    );
    let market = txc_types::orders::CollateralMarketOrder::builder(
        "BTC_USDT",
        txc_types::orders::Side::Sell,
        "0.01",
    )
    .client_order_id("ws-market-1")
    .build()
    .unwrap();
    let placed = session.place_once(&market).unwrap();
    let SocketPlaced::Answered(answer) = &placed.record else {
        panic!("answered: {placed:?}")
    };
    assert_eq!(
        order_of(answer).side,
        Some(txc_types::orders::Side::Sell),
        "the answer's numeric side read"
    );
    assert!(session.pending_orders().is_empty(), "every record settled");
}

fn buy_limit(cid: &str, price: &str) -> CollateralLimitOrder {
    CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", price)
        .client_order_id(cid)
        .build()
        .unwrap()
}

fn every_served_kind_is_placed_modified_and_canceled(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    // A resting limit order, modified (a replacement with a new id), then canceled.
    let rest = order_of(&session.place(&buy_limit("kind-limit", "60000")).unwrap()).clone();
    assert_eq!(rest.order_type, Some(7));
    let modify = ModifyOrder::by_order_id("BTC_USDT", rest.id)
        .price("60100")
        .build()
        .unwrap();
    let modified = order_of(&session.modify(&modify).unwrap()).clone();
    assert_ne!(modified.id, rest.id, "a modify replaces the order");
    assert_eq!(modified.price.as_ref().map(|p| p.as_str()), Some("60100"));
    let canceled = session
        .cancel(&CancelOrder::by_order_id("BTC_USDT", modified.id).unwrap())
        .unwrap();
    assert_eq!(order_of(&canceled).id, modified.id);
    // Stop-limit and stop-market (trigger) orders rest until their activation price.
    let stop_limit =
        CollateralStopLimitOrder::builder("BTC_USDT", Side::Buy, "0.01", "70100", "70000")
            .build()
            .unwrap();
    let placed = session.place(&stop_limit).unwrap();
    assert_eq!(order_of(&placed).order_type, Some(9));
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Buy, "0.01", "70000")
        .build()
        .unwrap();
    let placed = session.place(&trigger).unwrap();
    assert_eq!(order_of(&placed).order_type, Some(10));
    // BBO: priced at the own side's best (the resting buy below) as a maker.
    session.place(&buy_limit("kind-book", "60000")).unwrap();
    let bbo = CollateralBboOrder::builder("BTC_USDT", Side::Buy, "0.01", BboRole::Maker)
        .build()
        .unwrap();
    let placed = session.place(&bbo).unwrap();
    assert_eq!(
        order_of(&placed).price.as_ref().map(|p| p.as_str()),
        Some("60000")
    );
    // An order with stop-loss and take-profit goes as the socket's OTO: the group answers.
    let oto = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .stop_loss("60000")
        .take_profit("70000")
        .build()
        .unwrap();
    let SocketAnswer::Oto(group) = session.place(&oto).unwrap() else {
        panic!("an OTO group")
    };
    assert!(group.trigger_order.is_some());
    // An OCO pair, then canceled by its group id.
    let oco = CollateralOcoOrder::builder("BTC_USDT", Side::Buy, "0.01", "60000", "70000", "70100")
        .client_order_id("kind-oco")
        .build()
        .unwrap();
    let SocketAnswer::Oco(pair) = session.place(&oco).unwrap() else {
        panic!("an OCO group")
    };
    assert!(pair.take_profit.is_some() && pair.stop_loss.is_some());
    let cancel = CancelConditionalOrder::new("BTC_USDT", pair.id).unwrap();
    let SocketAnswer::Oco(canceled) = session.cancel_conditional(&cancel).unwrap() else {
        panic!("the OCO group canceled")
    };
    assert_eq!(canceled.id, pair.id);
    // Every order left on the market, canceled at once.
    let all = CancelAllOrders::builder()
        .market("BTC_USDT")
        .build()
        .unwrap();
    assert_eq!(session.cancel_all(&all).unwrap(), SocketAnswer::Done);
    assert!(
        sandbox
            .orders()
            .iter()
            .all(|o| o.status != Some(OrderStatus::Open)),
        "nothing open after cancel-all"
    );
    assert!(session.pending_orders().is_empty());
}

fn pushes_interleave_with_the_answers(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let subscribed = SessionConfig::default()
        .with_subscription(Subscription::orders_pending(["BTC_USDT"]).unwrap());
    let mut session = transport.open(partner(&sandbox), subscribed);
    for n in 0..5 {
        let cid = format!("push-{n}");
        let placed = session.place(&buy_limit(&cid, "60000")).unwrap();
        assert_eq!(
            order_of(&placed)
                .client_order_id
                .as_ref()
                .map(|c| c.as_str()),
            Some(cid.as_str()),
            "each answer is its own call's, whatever came between"
        );
    }
    // The last call's answer may come before its push: one more call reads the rest.
    session
        .cancel_all(
            &CancelAllOrders::builder()
                .market("BTC_USDT")
                .build()
                .unwrap(),
        )
        .unwrap();
    let events = session.events();
    let pushed = events
        .iter()
        .filter(|e| matches!(e, StreamEvent::Account(AccountEvent::Order(_))))
        .count();
    assert!(pushed >= 4, "the pushes were kept: {events:?}");
}

fn refusals_are_typed_errors(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    session.place(&buy_limit("refused-dup", "60000")).unwrap();
    // Another process's session places the same id: the exchange's 43 on a first send.
    let mut other = transport.open(partner(&sandbox), SessionConfig::default());
    let err = other.place(&buy_limit("refused-dup", "60000")).unwrap_err();
    let Error::Socket(SocketError::Refused { refusal, .. }) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*refusal, SocketRefusal::ClientOrderIdExists);
    assert!(!err.outcome_unknown() && !err.is_retryable());
    // Below the market's minimum amount: 11.
    let small = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.00001", "60000")
        .build()
        .unwrap();
    let err = session.place(&small).unwrap_err();
    assert_eq!(
        err_refusal(&err),
        Some(SocketRefusal::AmountTooSmall),
        "{err:?}"
    );
    // A cancel of no order: 6 read as "order not found" in a cancel's answer.
    let err = session
        .cancel(&CancelOrder::by_order_id("BTC_USDT", 424_242).unwrap())
        .unwrap_err();
    assert_eq!(err_refusal(&err), Some(SocketRefusal::OrderNotFound));
    assert!(
        session.pending_orders().is_empty(),
        "refusals leave no record"
    );
    assert!(other.pending_orders().is_empty());
}

/// The other account's client of `sandbox` (hedge mode: its orders name their side).
fn regular(sandbox: &Sandbox) -> ClientConfig {
    config::key(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET)
        .base_url(sandbox.base_url())
        .rate_limits(RateLimits::documented().with_limit(WebSocketTokenQuery::PATH, None))
}

/// The sandbox's record of order `id` (REST's fields), as it now stands.
fn record(sandbox: &Sandbox, id: u64) -> serde_json::Value {
    sandbox
        .order_records()
        .into_iter()
        .find(|r| r["orderId"] == id)
        .unwrap_or_else(|| panic!("no order {id}"))
}

/// The signed size of the partner's `BTC_PERP` position (`0` with none).
fn perp_position(sandbox: &Sandbox) -> String {
    sandbox
        .positions(demo::PARTNER_API_KEY)
        .into_iter()
        .find(|p| p.market == "BTC_PERP")
        .map_or_else(|| "0".to_owned(), |p| p.amount)
}

/// A resting order of the other account on `BTC_PERP`: the book a BBO order prices from.
fn book(transport: &dyn Transport, sandbox: &Sandbox, side: Side, price: &str) {
    let position = match side {
        Side::Buy => PositionSide::Long,
        _ => PositionSide::Short,
    };
    let order = CollateralLimitOrder::builder("BTC_PERP", side, "0.01", price)
        .position_side(position)
        .build()
        .unwrap();
    let mut other = transport.open(regular(sandbox), SessionConfig::default());
    let placed = other.place(&order).unwrap();
    assert_eq!(order_of(&placed).status, Some(OrderStatus::Open));
}

/// A stop-BBO order waits unpriced, fires at its activation price, and is priced from the
/// book then (a taker sell: the best bid).
fn a_stop_bbo_order_waits_and_is_priced_from_the_book_when_it_fires(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    book(transport, &sandbox, Side::Buy, "63000");
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    let stop =
        CollateralStopBboOrder::builder("BTC_PERP", Side::Sell, "0.001", "63500", BboRole::Taker)
            .client_order_id("sbbo-1")
            .build()
            .unwrap();
    let placed = order_of(&session.place(&stop).unwrap()).clone();
    assert_eq!(placed.order_type, Some(9));
    assert_eq!(
        placed.client_order_id.as_ref().map(|c| c.as_str()),
        Some("sbbo-1")
    );
    let waiting = record(&sandbox, placed.id);
    assert_eq!(waiting["status"], "OPEN", "it waits: {waiting}");
    assert_eq!(perp_position(&sandbox), "0");
    sandbox.set_price("BTC_PERP", "63400").unwrap();
    let fired = record(&sandbox, placed.id);
    assert_eq!(fired["status"], "FILLED", "{fired}");
    assert_eq!(fired["price"], "63000", "priced from the book: {fired}");
    assert_eq!(perp_position(&sandbox), "-0.001");
}

/// TPSL on an open position: both legs placed; the take-profit closes the whole position
/// when the price crosses it (the stop-loss goes with it); a pair on a position closed by an
/// order is canceled.
fn tpsl_closes_the_position_and_goes_with_it(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    let buy = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "0.01")
        .build()
        .unwrap();
    session.place(&buy).unwrap();
    assert_eq!(perp_position(&sandbox), "0.01");
    let pair = CollateralTpslOrder::builder("BTC_PERP")
        .take_profit("66000")
        .stop_loss("64000")
        .build()
        .unwrap();
    let SocketAnswer::Tpsl(legs) = session.place(&pair).unwrap() else {
        panic!("a TPSL pair")
    };
    let (tp, sl) = (legs.take_profit.unwrap(), legs.stop_loss.unwrap());
    for leg in [&tp, &sl] {
        assert_eq!(leg.order_type, Some(10));
        assert_eq!(record(&sandbox, leg.id)["status"], "OPEN");
    }
    sandbox.set_price("BTC_PERP", "66100").unwrap();
    let fired = record(&sandbox, tp.id);
    assert_eq!(fired["status"], "FILLED", "{fired}");
    assert_eq!(fired["dealStock"], "0.01", "the whole position: {fired}");
    assert_eq!(perp_position(&sandbox), "0");
    assert_eq!(record(&sandbox, sl.id)["status"], "CANCELED");
    // A new position, its stop-loss; the position closed by an order: the leg goes.
    let again = CollateralMarketOrder::builder("BTC_PERP", Side::Buy, "0.01")
        .build()
        .unwrap();
    session.place(&again).unwrap();
    let stop = CollateralTpslOrder::builder("BTC_PERP")
        .stop_loss("65000")
        .build()
        .unwrap();
    let SocketAnswer::Tpsl(legs) = session.place(&stop).unwrap() else {
        panic!("a TPSL pair")
    };
    assert!(legs.take_profit.is_none());
    let sl = legs.stop_loss.unwrap();
    let sell = CollateralMarketOrder::builder("BTC_PERP", Side::Sell, "0.01")
        .build()
        .unwrap();
    session.place(&sell).unwrap();
    assert_eq!(perp_position(&sandbox), "0");
    assert_eq!(record(&sandbox, sl.id)["status"], "CANCELED");
}

/// An order with a take-profit and a BBO entry goes as the socket's OTO: the entry is priced
/// from the book (a taker buy: the best ask) and fills; the group carries the exit.
fn an_oto_with_a_bbo_entry_is_priced_from_the_book(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    book(transport, &sandbox, Side::Sell, "65500");
    let mut session = transport.open(partner(&sandbox), SessionConfig::default());
    let entry = CollateralBboOrder::builder("BTC_PERP", Side::Buy, "0.001", BboRole::Taker)
        .take_profit("67000")
        .client_order_id("oto-bbo")
        .build()
        .unwrap();
    let SocketAnswer::Oto(group) = session.place(&entry).unwrap() else {
        panic!("an OTO group")
    };
    assert_eq!(
        group.take_profit_price.as_ref().map(|p| p.to_string()),
        Some("67000".to_owned())
    );
    let placed = group.trigger_order.unwrap();
    let filled = record(&sandbox, placed.id);
    assert_eq!(filled["status"], "FILLED", "{filled}");
    assert_eq!(filled["price"], "65500", "the best ask: {filled}");
    assert_eq!(filled["clientOrderId"], "oto-bbo");
    assert_eq!(perp_position(&sandbox), "0.001");
}

/// REST's checks before an order run before a socket frame too (the same code): a rule- or
/// mode-breaking order is the same typed error as over REST, nothing journaled or sent — the
/// sandbox never even saw a connection for the first ones.
fn orders_are_checked_before_the_socket_like_rest(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let checked = partner(&sandbox)
        .market_rules_check(MarketRulesCheck::Learn)
        .position_mode_check(ModeCheck::Learn);
    let mut session = transport.open(checked, SessionConfig::default());
    // Below the market's minimum amount (0.001), the price past its precision.
    let small = CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.0005", "60000")
        .client_order_id("rule-1")
        .build()
        .unwrap();
    let err = session.place(&small).unwrap_err();
    let Error::InvalidRequest(ValidationError::MarketRule(violation)) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(violation.rule, Rule::MinAmount);
    assert_eq!(violation.nearest.as_deref(), Some("0.001"));
    let fine_price =
        CollateralStopLimitOrder::builder("BTC_USDT", Side::Sell, "0.01", "59900.001", "60000")
            .client_order_id("rule-2")
            .build()
            .unwrap();
    let err = session.place_once(&fine_price).unwrap_err();
    assert!(
        matches!(err, Error::InvalidRequest(ValidationError::MarketRule(_))),
        "{err:?}"
    );
    // The account is one-way: LONG is refused, as REST refuses it.
    let long = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .position_side(PositionSide::Long)
        .client_order_id("mode-1")
        .build()
        .unwrap();
    let err = session.place(&long).unwrap_err();
    assert!(
        matches!(err, Error::InvalidRequest(ref e) if e.field() == "positionSide"),
        "{err:?}"
    );
    let tpsl = CollateralTpslOrder::builder("BTC_USDT")
        .stop_loss("50000.001")
        .build()
        .unwrap();
    assert!(matches!(
        session.place(&tpsl),
        Err(Error::InvalidRequest(ValidationError::MarketRule(_)))
    ));
    assert_eq!(
        sandbox.ws_connections(),
        0,
        "no frame: not even a connection"
    );
    // Connected, placed; a modify past the price precision is refused before its frame.
    let placed = session.place(&buy_limit("rule-ok", "60000")).unwrap();
    let modify = ModifyOrder::by_order_id("BTC_USDT", order_of(&placed).id)
        .price("60000.001")
        .build()
        .unwrap();
    let err = session.modify(&modify).unwrap_err();
    assert!(
        matches!(err, Error::InvalidRequest(ValidationError::MarketRule(_))),
        "{err:?}"
    );
    for cid in ["rule-1", "rule-2", "mode-1"] {
        assert_eq!(count(&sandbox, cid), 0, "{cid} was not sent");
    }
    assert_eq!(sandbox.orders().len(), 1, "only the valid order was placed");
    assert!(session.pending_orders().is_empty(), "nothing journaled");
    // With the checks off the socket's own refusal comes back typed (11).
    let mut unchecked = transport.open(partner(&sandbox), SessionConfig::default());
    let err = unchecked.place(&small).unwrap_err();
    assert_eq!(
        err_refusal(&err),
        Some(SocketRefusal::AmountTooSmall),
        "{err:?}"
    );
}

fn err_refusal(err: &Error) -> Option<SocketRefusal> {
    match err {
        Error::Socket(e) => e.refusal(),
        _ => None,
    }
}

fn a_connection_dropped_after_the_frame_is_resolved(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), quick());
    session.place(&buy_limit("drop-0", "60000")).unwrap(); // connected
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    let err = session.place(&buy_limit("drop-1", "60000")).unwrap_err();
    assert!(err.outcome_unknown(), "{err:?}");
    let pending = err.pending_order().unwrap().clone();
    assert_eq!(pending.socket_attempts().len(), 1);
    assert_eq!(session.pending_orders(), vec![pending.clone()]);
    let Resolution::Placed(found) = session.resolve(&pending).unwrap() else {
        panic!("processed before the drop: placed")
    };
    assert_eq!(found.client_order_id(), Some("drop-1"));
    assert!(session.pending_orders().is_empty(), "resolved: settled");
    // place_once through the same fault: resolved, never sent twice.
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    let placed = session.place_once(&buy_limit("drop-2", "60000")).unwrap();
    assert!(
        matches!(placed.record, SocketPlaced::Order(_)),
        "{placed:?}"
    );
    assert_eq!(count(&sandbox, "drop-2"), 1);
    assert!(session.pending_orders().is_empty());
}

fn count(sandbox: &Sandbox, cid: &str) -> usize {
    sandbox
        .orders()
        .iter()
        .filter(|o| o.client_order_id.as_deref() == Some(cid))
        .count()
}

fn a_stall_past_the_answer_timeout_is_resolved(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), quick());
    session.place(&buy_limit("stall-0", "60000")).unwrap(); // connected
    sandbox.ws_fault(WsFault::Stall(Duration::from_millis(1_500)));
    let placed = session.place_once(&buy_limit("stall-1", "60000")).unwrap();
    assert!(
        matches!(placed.record, SocketPlaced::Order(_)),
        "{placed:?}"
    );
    assert_eq!(count(&sandbox, "stall-1"), 1, "placed once");
    assert!(session.pending_orders().is_empty());
    // The answer came after the stall, long after the call had given up on it: kept as a
    // late answer (read with what has arrived).
    session.events();
    let late = session.late();
    let answered = |s: &Settled| match &s.outcome {
        SocketOutcome::Done(answer) => answer.orders()[0]
            .client_order_id
            .as_ref()
            .is_some_and(|c| c.as_str() == "stall-1"),
        _ => false,
    };
    assert!(late.iter().any(answered), "{late:?}");
}

/// The record an earlier process left of `cid`: a frame written two minutes ago whose answer
/// it never read.
fn earlier_record(cid: &str) -> PendingRecord {
    let written_at = SystemTime::now() - Duration::from_secs(120);
    let attempt = SocketAttempt {
        written_at,
        settled_at: written_at + Duration::from_secs(1),
    };
    PendingRecord::Order(
        PendingOrder::new(
            "BTC_USDT".parse().unwrap(),
            cid.parse().unwrap(),
            Vec::new(),
        )
        .with_trigger(true)
        .with_socket_attempts([attempt]),
    )
}

fn a_43_on_a_resend_is_evidence(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    // An order with the id rests now (placed by another way, outside the record's window)...
    let mut first = transport.open(partner(&sandbox), SessionConfig::default());
    first.place(&buy_limit("evidence-43", "60000")).unwrap();
    // Created well before the resend below: never inside the resend's window, whatever the
    // clocks' uncertainty under load.
    std::thread::sleep(Duration::from_secs(2));
    // ...and a journal holds an earlier process's unresolved record of the id.
    let journal = Arc::new(MemoryJournal::default());
    journal.record(&earlier_record("evidence-43")).unwrap();
    let restarted = partner(&sandbox).journal(journal.clone());
    let mut session = transport.open(restarted, SessionConfig::default());
    // The record is resolved first: nothing inside its window, so not placed; the resend is
    // answered 43 — evidence an order with the id rests: never a second order, and unknown.
    let err = session
        .place_once(&buy_limit("evidence-43", "60000"))
        .unwrap_err();
    assert!(err.outcome_unknown(), "{err:?}");
    let Error::OutcomeUnknown(unresolved) = &err else {
        panic!("{err:?}")
    };
    assert!(
        matches!(
            unresolved.cause,
            Error::Socket(SocketError::Duplicate { .. })
        ),
        "{err:?}"
    );
    assert_eq!(count(&sandbox, "evidence-43"), 1, "never doubled");
    assert_eq!(journal.records().len(), 1, "kept for resolving later");
}

fn a_restart_reads_the_journal_back(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let journal = Arc::new(MemoryJournal::default());
    let process = || {
        partner(&sandbox)
            .journal(journal.clone())
            .nonce_sequence(NonceSequence::new())
    };
    let mut session = transport.open(process(), quick());
    session.place(&buy_limit("restart-0", "60000")).unwrap(); // connected
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    let err = session.place(&buy_limit("restart-1", "60000")).unwrap_err();
    assert!(err.outcome_unknown());
    drop(session); // the process dies
    let records = journal.records();
    assert_eq!(records.len(), 1, "journaled before the frame: {records:?}");
    assert_eq!(records[0].order().unwrap().socket_attempts().len(), 1);
    // A new process on the same journal: a plain placement of the id is refused before any
    // I/O; place_once resolves the record first and finds the order.
    let mut restarted = transport.open(process(), quick());
    assert_eq!(restarted.pending_orders().len(), 1);
    let err = restarted
        .place(&buy_limit("restart-1", "60000"))
        .unwrap_err();
    assert!(matches!(err, Error::ResolveFirst(_)), "{err:?}");
    let placed = restarted
        .place_once(&buy_limit("restart-1", "60000"))
        .unwrap();
    assert!(
        matches!(placed.record, SocketPlaced::Order(_)),
        "{placed:?}"
    );
    assert_eq!(count(&sandbox, "restart-1"), 1);
    assert!(
        journal.records().is_empty(),
        "settled: the journal forgot it"
    );
}

fn pacing_waits_for_a_slot_or_fails_typed(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    // One placement a minute, no waiting for a slot: the second call fails, nothing sent.
    let tight = SessionConfig::default()
        .with_orders(
            SocketOrdersConfig::default()
                .with_limits(SocketLimits::documented().with_placements(RateLimit::new(1, 60))),
        )
        .with_pacing_wait(Duration::ZERO);
    let mut session = transport.open(partner(&sandbox), tight);
    session.place(&buy_limit("paced-1", "60000")).unwrap();
    let err = session.place(&buy_limit("paced-2", "60000")).unwrap_err();
    let Error::Socket(SocketError::Paced { what, wait }) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*what, "placements");
    assert!(*wait > Duration::from_secs(1));
    assert!(err.is_retryable() && !err.outcome_unknown());
    assert_eq!(count(&sandbox, "paced-2"), 0, "nothing sent");
    assert!(session.pending_orders().is_empty());
    // The other budget is apart: a cancel still goes.
    session
        .cancel_all(
            &CancelAllOrders::builder()
                .market("BTC_USDT")
                .build()
                .unwrap(),
        )
        .unwrap();
    // One a second and a wait of 10 s: the second call waits for its slot, then goes.
    let waiting = SessionConfig::default().with_orders(
        SocketOrdersConfig::default()
            .with_limits(SocketLimits::documented().with_placements(RateLimit::new(1, 1))),
    );
    let mut session = transport.open(partner(&sandbox), waiting);
    session.place(&buy_limit("paced-3", "60000")).unwrap();
    session.place(&buy_limit("paced-4", "60000")).unwrap();
    assert_eq!(count(&sandbox, "paced-4"), 1);
}

fn no_connection_is_a_typed_error_and_nothing_is_sent(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}/ws", closed.local_addr().unwrap());
    drop(closed);
    let config = SessionConfig::default()
        .with_url(url)
        .with_connect_wait(Duration::from_millis(300));
    let mut session = transport.open(partner(&sandbox), config);
    let err = session.place(&buy_limit("unsent-1", "60000")).unwrap_err();
    assert!(
        matches!(err, Error::Socket(SocketError::NotConnected { .. })),
        "{err:?}"
    );
    assert!(err.is_retryable() && !err.outcome_unknown());
    assert!(session.pending_orders().is_empty(), "nothing was recorded");
}

fn a_refused_authorization_is_a_typed_error(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    sandbox.ws_fault(WsFault::RefuseAuthorize(1_000));
    let config = SessionConfig::default()
        .with_stream(StreamConfig::default().with_max_authorize_refusals(1))
        .with_connect_wait(Duration::from_secs(5));
    let mut session = transport.open(partner(&sandbox), config);
    let err = session
        .place(&buy_limit("unauthorized-1", "60000"))
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Socket(SocketError::Stopped(StopReason::AuthorizationRefused))
        ),
        "{err:?}"
    );
    assert!(!err.outcome_unknown());
    assert_eq!(count(&sandbox, "unauthorized-1"), 0);
}

fn a_lost_cancel_answer_is_unknown_not_refused(transport: &dyn Transport) {
    let sandbox = Sandbox::start().unwrap();
    let mut session = transport.open(partner(&sandbox), quick());
    let placed = session.place(&buy_limit("cancel-lost", "60000")).unwrap();
    sandbox.ws_fault(WsFault::DropAfterOrder(1));
    let cancel = CancelOrder::by_order_id("BTC_USDT", order_of(&placed).id).unwrap();
    let err = session.cancel(&cancel).unwrap_err();
    assert!(
        matches!(err, Error::Socket(SocketError::Unknown { .. })),
        "{err:?}"
    );
    assert!(err.outcome_unknown() && !err.is_retryable());
    // It was processed: asking again says the order is gone.
    let again = session.cancel(&cancel).unwrap_err();
    assert_eq!(err_refusal(&again), Some(SocketRefusal::OrderNotFound));
}

scenarios!(
    limit_and_market_orders_are_placed_over_the_socket,
    every_served_kind_is_placed_modified_and_canceled,
    pushes_interleave_with_the_answers,
    refusals_are_typed_errors,
    a_connection_dropped_after_the_frame_is_resolved,
    a_stall_past_the_answer_timeout_is_resolved,
    a_43_on_a_resend_is_evidence,
    a_restart_reads_the_journal_back,
    pacing_waits_for_a_slot_or_fails_typed,
    no_connection_is_a_typed_error_and_nothing_is_sent,
    a_refused_authorization_is_a_typed_error,
    a_lost_cancel_answer_is_unknown_not_refused,
    orders_are_checked_before_the_socket_like_rest,
    a_stop_bbo_order_waits_and_is_priced_from_the_book_when_it_fires,
    tpsl_closes_the_position_and_goes_with_it,
    an_oto_with_a_bbo_entry_is_priced_from_the_book,
);

/// Both sessions move between threads, and the async one's calls run on any runtime's tasks
/// (their futures are `Send`).
#[test]
fn sessions_and_their_calls_are_send() {
    fn send<T: Send>(_: &T) {}
    fn send_type<T: Send>() {}
    send_type::<txc_blocking::socket::SocketTrading>();
    send_type::<txc_async::socket::SocketTrading>();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _entered = runtime.enter();
    let client = txc_async::ClientBuilder::from(config::partner())
        .build()
        .unwrap();
    let mut session = client.socket_trading().unwrap();
    let order = buy_limit("send-1", "60000");
    send(&session.place(&order));
    send(&session.place_once(&order));
    send(&session.take_events());
}
