//! The account's reports through both transports against the sandbox, one scenario table run
//! once per transport: closed PnL, funding, ADL quantiles, the executed deals and an order's
//! deals read a page at a time and whole (`pages()`), each paged read — these, the fixed
//! plans' investments, the position history, the order history — the same records as one
//! large page, each once; the offset cap a typed error after every reachable record; the
//! margin-call → liquidation path end to end (the events on `positionsAccountMargin`, then
//! positions, closed PnL, the balance and its channel agreeing); a funding tick seen in the
//! funding history and on the balance channel. No timing assertions: waits are bounded and
//! only end a test that failed.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::config;
use common::flex::Pages;
use common::reports::{ReportsApi, ReportsDriver};
use common::stream::Events;
use txc_core::Error;
use txc_core::stream::{StreamConfig, StreamEvent, Subscription};
use txc_sandbox::{AccountConfig, Fault, Route, Sandbox, demo};
use txc_types::events::{AccountEvent, MarginBalances, PositionEvent, PositionEventKind};
use txc_types::investments::{Invest, InvestmentsQuery};
use txc_types::lookups::{ExecutedHistoryQuery, OrderDealsQuery, OrderHistoryQuery};
use txc_types::orders::{CollateralMarketOrder, Side};
use txc_types::paging::{OffsetCap, PagingError};
use txc_types::positions::{
    ClosedPnlQuery, CollateralBalanceQuery, FundingHistoryQuery, OpenPositionsQuery,
    PositionHistoryQuery,
};
use txc_types::values::{Decimal, ExactDecimal};

/// An account of its own: one-way, leverage 10.
const TRADER: (&str, &str) = ("trader", "trader-secret");

/// The docs' example plan (the sandbox's first): USDT, min 100, max 10 000, 3 000 left.
const PLAN: &str = "8e667b4a-0b71-4988-8af5-9474dbfaeb51";

/// How long a test waits for any one event before it fails.
const EVENT_WAIT: Duration = Duration::from_secs(10);

fn sandbox(balance: &str) -> Sandbox {
    Sandbox::builder()
        .account(AccountConfig::new(TRADER.0, TRADER.1).balance("USDT", balance))
        .start()
        .unwrap()
}

fn trader(driver: &dyn ReportsDriver, sandbox: &Sandbox) -> Box<dyn ReportsApi> {
    let config = config::key(TRADER.0, TRADER.1).no_rate_limit();
    driver.reporter(sandbox.base_url(), config)
}

/// A market order of the client's, which must fill; its id.
fn trade(client: &dyn ReportsApi, market: &str, side: Side, amount: &str) -> u64 {
    let order = CollateralMarketOrder::builder(market, side, amount)
        .build()
        .unwrap();
    client.market(&order).unwrap().order_id
}

fn decimal(value: &ExactDecimal) -> Decimal {
    value.to_decimal().unwrap()
}

/// The records of a whole read, which must have ended without an error, and its page count.
fn whole<T: std::fmt::Debug>(pages: Pages<T>) -> (Vec<T>, usize) {
    let count = pages.len();
    let records = pages.into_iter().flat_map(|page| page.unwrap()).collect();
    (records, count)
}

/// Each of `ids` once, in order: the same list as `expected`.
fn same_list<K: Ord + Clone + std::fmt::Debug>(what: &str, ids: &[K], expected: &[K]) {
    assert_eq!(ids, expected, "{what}");
    let distinct: BTreeSet<&K> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "{what}: a record twice");
}

// ---------------------------------------------------------------------------------------------
// Scenarios: the reports, read and paged.

/// Five positions opened and closed, a position left open with funding ticked on it, five
/// investments: every paged read gives, page by page, exactly the records of one large page.
fn every_paged_read_is_read_whole_page_by_page(driver: &dyn ReportsDriver) {
    let sandbox = sandbox("100000");
    sandbox
        .set_main_balance(demo::PARTNER_API_KEY, "USDT", "100000")
        .unwrap();
    let client = trader(driver, &sandbox);
    let mut orders = Vec::new();
    for _ in 0..5 {
        orders.push(trade(client.as_ref(), "BTC_PERP", Side::Buy, "0.01"));
        orders.push(trade(client.as_ref(), "BTC_PERP", Side::Sell, "0.01"));
    }
    trade(client.as_ref(), "BTC_PERP", Side::Sell, "0.02");
    // Four ticks, each at a rate of its own: ticks by hand within one second share their
    // funding time, and a record is told apart by market, time and amounts (the exchange
    // funds a position once per funding time).
    for rate in ["0.0001", "0.0002", "-0.0001", "0.0003"] {
        sandbox.set_funding_rate("BTC_PERP", rate).unwrap();
        assert_eq!(sandbox.funding_tick().len(), 1);
    }

    // Closed PnL: five records, newest first, three a page.
    let one_page = client
        .closed_pnl(&ClosedPnlQuery::builder().limit(100).build().unwrap())
        .unwrap();
    assert_eq!(one_page.len(), 5);
    let expected: Vec<u64> = sandbox
        .closed_position_records()
        .iter()
        .rev()
        .map(|r| r["positionId"].as_u64().unwrap())
        .collect();
    let ids: Vec<u64> = one_page.iter().map(|p| p.position_id).collect();
    same_list("closed pnl, one page", &ids, &expected);
    let (paged, pages) =
        whole(client.pnl_pages(ClosedPnlQuery::builder().limit(3).build().unwrap()));
    let paged_ids: Vec<u64> = paged.iter().map(|p| p.position_id).collect();
    same_list("closed pnl, paged", &paged_ids, &expected);
    // Three requests: 0..3, 2..5 (full: it may go on), 4..5 (short: the last), which held
    // only the record it re-read — so two pages of new records.
    assert_eq!(pages, 2);
    assert!(paged.iter().all(|p| p.market == "BTC_PERP"));

    // Funding: four payments of the open short, two a page.
    let page = client
        .funding_history(
            &FundingHistoryQuery::builder()
                .market("BTC_PERP")
                .build()
                .unwrap(),
        )
        .unwrap();
    assert_eq!(page.records.len(), 4);
    assert!(page.records.iter().all(|r| r.adds_up().unwrap()));
    let (paged, _) =
        whole(client.funding_pages(FundingHistoryQuery::builder().limit(2).build().unwrap()));
    assert_eq!(paged, page.records);

    // The executed deals, of every market, three a page; the deals of one order.
    let all = client
        .executed_history(&ExecutedHistoryQuery::builder().limit(500).build().unwrap())
        .unwrap();
    assert_eq!(all.deals.len(), 11, "one fill per order");
    let (paged, _) =
        whole(client.executed_pages(ExecutedHistoryQuery::builder().limit(3).build().unwrap()));
    let ids: Vec<u64> = paged.iter().map(|d| d.id).collect();
    let expected: Vec<u64> = all.deals.iter().map(|d| d.id).collect();
    same_list("executed deals", &ids, &expected);
    for order in &orders {
        let (deals, pages) = whole(
            client.deal_pages(
                OrderDealsQuery::builder()
                    .order_id(*order)
                    .limit(2)
                    .build()
                    .unwrap(),
            ),
        );
        assert_eq!(pages, 1, "one short page");
        assert_eq!(deals.len(), 1);
        let in_history = all.deals.iter().find(|d| d.id == deals[0].id).unwrap();
        assert_eq!(in_history.order_id, Some(*order));
        assert_eq!(
            (&deals[0].price, &deals[0].amount),
            (&in_history.price, &in_history.amount)
        );
    }
    let page = client
        .order_deals(&OrderDealsQuery::new(orders[0]))
        .unwrap();
    assert_eq!(page.records.len(), 1);
    assert!(
        client
            .order_deals(&OrderDealsQuery::new(999_999_999))
            .unwrap()
            .records
            .is_empty()
    );

    // The position history and the order history, three a page.
    let events = client
        .position_history(&PositionHistoryQuery::builder().limit(100).build().unwrap())
        .unwrap();
    assert!(events.len() >= 11, "{} position events", events.len());
    let (paged, _) =
        whole(client.position_pages(PositionHistoryQuery::builder().limit(3).build().unwrap()));
    assert_eq!(paged, events);
    let history = client
        .history(&OrderHistoryQuery::builder().limit(100).build().unwrap())
        .unwrap();
    let (paged, _) =
        whole(client.order_pages(OrderHistoryQuery::builder().limit(3).build().unwrap()));
    let ids: Vec<u64> = paged.iter().map(|o| o.id).collect();
    let expected: Vec<u64> = history.orders().map(|o| o.id).collect();
    assert_eq!(expected.len(), 11);
    same_list("order history", &ids, &expected);

    // The ADL quantile of the open short.
    let adl = client.adl_quantile().unwrap();
    assert_eq!(adl.len(), 1);
    assert_eq!(adl[0].market, "BTC_PERP");
    assert!(adl[0].short.is_some() && adl[0].long.is_none(), "{adl:?}");

    // The fixed plans' investments of the partner: five, two a page.
    let partner = driver.reporter(sandbox.base_url(), config::partner().no_rate_limit());
    for _ in 0..5 {
        partner.invest(&Invest::new(PLAN, "100").unwrap()).unwrap();
    }
    let (paged, _) =
        whole(partner.investment_pages(InvestmentsQuery::builder().limit(2).build().unwrap()));
    let ids: BTreeSet<String> = paged.iter().map(|i| i.id.clone()).collect();
    let made: BTreeSet<String> = sandbox
        .investment_records()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!((ids, paged.len()), (made, 5));
}

/// A full page whose next one lies past the exchange's cap ends the read with a typed error
/// after its records — the closed PnL's `offset + limit` ≤ 10 000, the investments' `offset`
/// ≤ 10 000 — never a silent stop; a short page ends it cleanly.
fn the_offset_cap_ends_a_read_with_a_typed_error(driver: &dyn ReportsDriver) {
    let sandbox = sandbox("1000");
    let client = trader(driver, &sandbox);
    let records: Vec<String> = (0..100)
        .map(|id| format!(r#"{{"positionId":{},"market":"BTC_PERP"}}"#, 10_000 - id))
        .collect();
    let full = format!("[{}]", records.join(","));
    sandbox.inject_fault(Route::ClosedPnl, answer(&full), Some(1));
    let query = ClosedPnlQuery::builder()
        .limit(100)
        .offset(9_900)
        .build()
        .unwrap();
    let pages = client.pnl_pages(query);
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert_eq!(pages[0].as_ref().unwrap().len(), 100);
    match &pages[1] {
        Err(Error::Paging(PagingError::OffsetCap {
            cap,
            next_offset,
            read,
        })) => {
            assert_eq!(*cap, OffsetCap::Window(10_000));
            assert_eq!((*next_offset, *read), (10_000, 100));
        }
        other => panic!("the cap, not {other:?}"),
    }
    // The same query over the real (short) list: no records there, no error.
    let (empty, pages) = whole(
        client.pnl_pages(
            ClosedPnlQuery::builder()
                .limit(100)
                .offset(9_900)
                .build()
                .unwrap(),
        ),
    );
    assert_eq!((empty.len(), pages), (0, 0));

    let partner = driver.reporter(sandbox.base_url(), config::partner().no_rate_limit());
    sandbox
        .set_main_balance(demo::PARTNER_API_KEY, "USDT", "1000")
        .unwrap();
    partner.invest(&Invest::new(PLAN, "100").unwrap()).unwrap();
    // Fifty records told apart by their ids: a full page at offset 10 000, the deepest.
    let records: Vec<serde_json::Value> = (0..50)
        .map(|n| {
            let mut record = sandbox.investment_records()[0].clone();
            record["id"] = format!("inv-{n}").into();
            record
        })
        .collect();
    let page = serde_json::json!({"offset": 10_000, "limit": 50, "records": records}).to_string();
    sandbox.inject_fault(Route::Investments, answer(&page), Some(1));
    let pages = partner.investment_pages(
        InvestmentsQuery::builder()
            .limit(50)
            .offset(10_000)
            .build()
            .unwrap(),
    );
    assert_eq!(pages.len(), 2, "{pages:?}");
    assert_eq!(pages[0].as_ref().unwrap().len(), 50);
    match &pages[1] {
        Err(Error::Paging(PagingError::OffsetCap {
            cap, next_offset, ..
        })) => {
            assert_eq!(*cap, OffsetCap::Offset(10_000));
            assert_eq!(*next_offset, 10_050);
        }
        other => panic!("the cap, not {other:?}"),
    }
}

fn answer(body: &str) -> Fault {
    Fault::Answer {
        status: 200,
        content_type: "application/json".into(),
        body: body.as_bytes().to_vec(),
    }
}

// ---------------------------------------------------------------------------------------------
// Scenarios: the risk simulator seen through the client.

/// The stream's settings here: reconnect quickly if it must.
fn stream_config() -> StreamConfig {
    StreamConfig::default().with_backoff(txc_core::stream::Backoff::new(
        Duration::from_millis(20),
        Duration::from_millis(200),
    ))
}

/// Reads `events` until the stream is established (its first resync done).
fn established(events: &mut dyn Events) {
    loop {
        match events.next_event(EVENT_WAIT) {
            Some(StreamEvent::ResyncDone(_)) => return,
            Some(StreamEvent::Stopped(reason)) => panic!("stopped: {reason:?}"),
            Some(_) => {}
            None => panic!("the stream never came up"),
        }
    }
}

/// The next margin event, skipping the other channels' events; the USDT balances the
/// balance channel sent before it are pushed onto `balances`.
fn next_margin_event(events: &mut dyn Events, balances: &mut Vec<ExactDecimal>) -> PositionEvent {
    loop {
        match events.next_event(EVENT_WAIT) {
            Some(StreamEvent::Account(AccountEvent::PositionEvent(event))) => return event,
            Some(StreamEvent::Account(AccountEvent::Balances(b))) => balances.extend(usdt(b)),
            Some(StreamEvent::Stopped(reason)) => panic!("stopped: {reason:?}"),
            Some(_) => {}
            None => panic!("no margin event"),
        }
    }
}

/// The USDT balances of a balance update.
fn usdt(update: MarginBalances) -> impl Iterator<Item = ExactDecimal> {
    update
        .balances
        .into_iter()
        .filter(|b| b.asset == "USDT")
        .map(|b| b.balance)
}

/// Reads the balance channel until it sends `want` for USDT.
fn balance_seen(events: &mut dyn Events, want: &ExactDecimal, seen: &mut Vec<ExactDecimal>) {
    while !seen.iter().any(|b| decimal(b) == decimal(want)) {
        match events.next_event(EVENT_WAIT) {
            Some(StreamEvent::Account(AccountEvent::Balances(b))) => seen.extend(usdt(b)),
            Some(StreamEvent::Stopped(reason)) => panic!("stopped: {reason:?}"),
            Some(_) => {}
            None => panic!("the balance channel never sent {want}: {seen:?}"),
        }
    }
}

/// A long of 0.1 BTC_PERP at 65 000 on 1 000 USDT: the price falls into margin call, then
/// below the maintenance level twice. The client's stream sees the margin call, then each
/// liquidation; afterwards the position is gone, its one closed-PnL record is the whole
/// loss, the balance (REST and its channel) is the start plus that loss, and every report
/// shows the liquidation.
fn a_margin_call_then_a_liquidation_agree_everywhere(driver: &dyn ReportsDriver) {
    let sandbox = sandbox("1000");
    let client = trader(driver, &sandbox);
    trade(client.as_ref(), "BTC_PERP", Side::Buy, "0.1");
    let position = client.open_positions(&OpenPositionsQuery::new()).unwrap();
    let position_id = position[0].position_id;
    let mut events = client.stream(
        vec![
            Subscription::position_events(),
            Subscription::balance_margin(["USDT"]).unwrap(),
        ],
        stream_config(),
    );
    established(events.as_mut());
    let mut balances = Vec::new();

    sandbox.set_price("BTC_PERP", "57900").unwrap();
    let call = next_margin_event(events.as_mut(), &mut balances);
    assert_eq!(call.kind, PositionEventKind::MarginCall);
    assert_eq!(
        (call.position.id, call.position.amount.as_str()),
        (position_id, "0.1")
    );
    let open = client.open_positions(&OpenPositionsQuery::new()).unwrap();
    assert_eq!(
        open[0].liquidation_state.as_ref().map(|s| s.as_str()),
        Some("margin_call")
    );

    sandbox.set_price("BTC_PERP", "56700").unwrap();
    let first = next_margin_event(events.as_mut(), &mut balances);
    assert_eq!(first.kind, PositionEventKind::Liquidation);
    assert_eq!(first.position.id, position_id);
    sandbox.set_price("BTC_PERP", "55000").unwrap();
    let second = next_margin_event(events.as_mut(), &mut balances);
    assert_eq!(second.kind, PositionEventKind::Liquidation);
    assert_eq!(
        second.position.amount.as_str(),
        "0.075",
        "a quarter went first"
    );

    // Afterwards: no position; one closed record, the whole loss; the balance agrees.
    assert!(
        client
            .open_positions(&OpenPositionsQuery::new())
            .unwrap()
            .is_empty()
    );
    let closed = client.closed_pnl(&ClosedPnlQuery::new()).unwrap();
    assert_eq!(closed.len(), 1);
    let record = &closed[0];
    assert_eq!(record.position_id, position_id);
    assert_eq!(
        record.closed_size.as_ref().map(decimal),
        Some(Decimal::new(1, 1))
    );
    assert_eq!(record.amount.as_ref().map(decimal), Some(Decimal::ZERO));
    let net = decimal(record.net_pnl.as_ref().unwrap());
    let balance = client
        .collateral_balance(&CollateralBalanceQuery::new())
        .unwrap();
    let usdt = balance
        .balances
        .iter()
        .find(|(t, _)| t.as_str() == "USDT")
        .unwrap()
        .1;
    assert_eq!(
        decimal(usdt),
        Decimal::new(1000, 0) + net,
        "the balance moved by the PnL"
    );
    assert_eq!(
        sandbox.balance(TRADER.0, "USDT").as_deref(),
        Some(usdt.as_str())
    );
    balance_seen(events.as_mut(), usdt, &mut balances);
    // The position history ends with the liquidation; the executed history holds the
    // liquidation orders' deals, which add up to the position.
    let history = client
        .position_history(&PositionHistoryQuery::new())
        .unwrap();
    assert_eq!(
        history[0].liquidation_state.as_ref().map(|s| s.as_str()),
        Some("liquidation")
    );
    let deals = client
        .executed_history(
            &ExecutedHistoryQuery::builder()
                .market("BTC_PERP")
                .build()
                .unwrap(),
        )
        .unwrap();
    let sold: Decimal = deals
        .deals
        .iter()
        .filter(|d| d.side == Some(Side::Sell))
        .map(|d| decimal(&d.amount))
        .sum();
    assert_eq!(sold, Decimal::new(1, 1));
    events.stop();
}

/// Funding ticked on an open short: the payment is in the funding history, adds up by the
/// reference, moved the balance by its amount, and the balance channel sent the new balance.
fn a_funding_tick_shows_in_the_history_and_on_the_balance_channel(driver: &dyn ReportsDriver) {
    let sandbox = sandbox("10000");
    let client = trader(driver, &sandbox);
    trade(client.as_ref(), "BTC_PERP", Side::Sell, "0.02");
    let usdt = |client: &dyn ReportsApi| {
        let balance = client
            .collateral_balance(&CollateralBalanceQuery::new())
            .unwrap();
        decimal(
            balance
                .balances
                .iter()
                .find(|(t, _)| t.as_str() == "USDT")
                .unwrap()
                .1,
        )
    };
    let before = usdt(client.as_ref());
    let mut events = client.stream(
        vec![Subscription::balance_margin(["USDT"]).unwrap()],
        stream_config(),
    );
    established(events.as_mut());

    let paid = sandbox.funding_tick();
    assert_eq!(paid.len(), 1);
    let page = client.funding_history(&FundingHistoryQuery::new()).unwrap();
    assert_eq!(page.records.len(), 1);
    let payment = &page.records[0];
    assert!(payment.adds_up().unwrap());
    assert_eq!(payment.market, "BTC_PERP");
    assert_eq!(
        payment.position_amount.as_ref().map(decimal),
        Some(Decimal::new(-2, 2))
    );
    let amount = decimal(payment.funding_amount.as_ref().unwrap());
    assert_eq!(
        amount,
        Decimal::new(13, 2),
        "a short receives 0.02 × 65 000 × 0.01 %"
    );
    let after = usdt(client.as_ref());
    assert_eq!(after, before + amount);
    let want = ExactDecimal::new(&after.to_string()).unwrap();
    balance_seen(events.as_mut(), &want, &mut Vec::new());
    events.stop();
}

scenarios!(
    every_paged_read_is_read_whole_page_by_page,
    the_offset_cap_ends_a_read_with_a_typed_error,
    a_margin_call_then_a_liquidation_agree_everywhere,
    a_funding_tick_shows_in_the_history_and_on_the_balance_channel,
);
