//! The risk simulator driven directly through the state, with no server: funding against
//! `txc_types::positions::funding`'s reference, closed positions against
//! `txc_types::positions::pnl::PnlLedger`, the margin call → liquidation path (positions,
//! closed PnL, balances, the changes told), ADL quantiles, the deal log — and a property test
//! over random orders, price paths and funding ticks: balances keep exactly what fills and
//! funding moved, no balance goes negative, and every closed position adds up as the
//! reference does.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use rust_decimal::Decimal;
use txc_types::positions::funding;
use txc_types::positions::pnl::{Direction, PnlLedger, PnlSummary};

use super::tests::{Recorder, state_of};
use super::*;
use crate::config::{AccountConfig, FEE_PRECISION, MarketConfig, PositionMode};
use crate::rules::{
    ClosedPnlQuery, ExecutedHistoryQuery, FundingHistoryQuery, OrderDealsQuery, OrderRequest, Page,
    Price,
};
use crate::wire::{
    ClosedPositionRecord, ExecutedDeals, LiquidationStage, OrderStatus, PositionSide, Side, decimal,
};

const PERP: &str = "BTC_PERP";
const SPOT: &str = "BTC_USDT";
const ONE_WAY: &str = "one-way";
const HEDGE: &str = "hedge";

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

/// `BTC_PERP` at 65 000 (amounts to 0.000001, prices to 0.1, taker 0.1 %, maker 0.05 %,
/// funding 0.01 %) and `BTC_USDT` at 65 000 (prices to 0.01).
fn markets() -> Vec<MarketConfig> {
    vec![
        MarketConfig::new(PERP, "65000").money_precision(1),
        MarketConfig::new(SPOT, "65000").money_precision(2),
    ]
}

/// A state of `accounts` on [`markets`], funding every hour; changes recorded.
fn risk_state(accounts: Vec<AccountConfig>) -> (State, Arc<Recorder>) {
    let settings = Settings {
        funding_interval: Duration::from_secs(3600),
        ..Settings::default()
    };
    state_of(accounts, markets(), Vec::new(), settings)
}

/// A one-way account and a hedge-mode account, `balance` USDT each, leverage 10.
fn two_accounts(balance: &str) -> (State, Arc<Recorder>) {
    risk_state(vec![
        AccountConfig::new(ONE_WAY, "secret").balance("USDT", balance),
        AccountConfig::new(HEDGE, "secret")
            .position_mode(PositionMode::Hedge)
            .balance("USDT", balance),
    ])
}

fn order(market: &str, side: Side, amount: &str) -> OrderRequest {
    OrderRequest::market(market, side, d(amount))
}

fn limit(market: &str, side: Side, amount: &str, at: &str) -> OrderRequest {
    OrderRequest {
        price: Some(Price {
            value: d(at),
            text: at.to_owned(),
        }),
        ..order(market, side, amount)
    }
}

fn hedged(request: OrderRequest, side: PositionSide) -> OrderRequest {
    OrderRequest {
        position_side: Some(side),
        ..request
    }
}

fn place(state: &mut State, api_key: &str, request: OrderRequest) -> u64 {
    state
        .place(api_key, request, Duration::ZERO)
        .unwrap_or_else(|r| panic!("refused: {r:?}"))
        .head
        .order_id
}

fn balance(state: &State, api_key: &str) -> Decimal {
    state.accounts.get(api_key).unwrap().balance("USDT")
}

fn move_to(state: &mut State, market: &str, price: &str) {
    state.move_price(market, d(price), None).unwrap();
}

fn page(limit: usize) -> Page {
    Page { limit, offset: 0 }
}

/// `api_key`'s closed positions, oldest first.
fn closed(state: &State, api_key: &str) -> Vec<ClosedPositionRecord> {
    let query = ClosedPnlQuery {
        period: (None, None),
        page: page(100),
    };
    let mut records = state.closed_pnl(api_key, &query, u64::MAX);
    records.sort_by_key(|r| r.position_id);
    records
}

/// Whether `record` is `summary` (trimmed to one place, `BTC_PERP`'s money precision).
fn same_as(record: &ClosedPositionRecord, summary: &PnlSummary) {
    let summary = summary.clone().trimmed(1);
    let text = |d: Decimal| decimal::text(d);
    assert_eq!(record.gross_pnl, text(summary.gross_pnl), "grossPnl");
    assert_eq!(record.net_pnl, text(summary.net_pnl), "netPnl");
    assert_eq!(
        record.total_trade_fee,
        text(summary.total_trade_fee),
        "fees"
    );
    assert_eq!(record.total_funding, text(summary.total_funding), "funding");
    assert_eq!(
        record.avg_entry_price,
        text(summary.avg_entry_price.unwrap()),
        "avgEntryPrice"
    );
    assert_eq!(
        record.avg_exit_price,
        text(summary.avg_exit_price.unwrap()),
        "avgExitPrice"
    );
    assert_eq!(record.closed_size, text(summary.closed_size), "closedSize");
    assert_eq!(record.amount, "0");
}

#[test]
fn funding_pays_each_position_what_the_reference_says() {
    let (mut state, told) = two_accounts("10000");
    place(&mut state, ONE_WAY, order(PERP, Side::Sell, "0.2"));
    place(
        &mut state,
        HEDGE,
        hedged(order(PERP, Side::Buy, "0.1"), PositionSide::Long),
    );
    place(
        &mut state,
        HEDGE,
        hedged(order(PERP, Side::Sell, "0.05"), PositionSide::Short),
    );
    // A spot-pair position pays no funding.
    place(&mut state, ONE_WAY, order(SPOT, Side::Buy, "0.01"));
    move_to(&mut state, PERP, "66000");
    let before = [balance(&state, ONE_WAY), balance(&state, HEDGE)];
    told.take();
    let at = state.clock.now_us();
    let paid = state.funding_tick(at);
    // In market, account and side order: the hedge account's long and short, then the short.
    let expected = [
        (HEDGE, "0.1", "-0.66"),
        (HEDGE, "-0.05", "0.33"),
        (ONE_WAY, "-0.2", "1.32"),
    ];
    assert_eq!(paid.len(), expected.len());
    for ((key, entry), (want_key, amount, received)) in paid.iter().zip(expected) {
        assert_eq!(key, want_key);
        assert_eq!(entry.position_amount, d(amount));
        let reference = funding::payment(entry.position_amount, d("66000"), d("0.0001")).unwrap();
        assert_eq!(entry.amount, reference);
        assert_eq!(entry.amount, d(received));
    }
    assert_eq!(balance(&state, ONE_WAY), before[0] + d("1.32"));
    assert_eq!(balance(&state, HEDGE), before[1] + d("-0.66") + d("0.33"));
    // Each payment told as an account change (the balance channel's).
    let accounts = told
        .take()
        .iter()
        .filter(|c| matches!(c, Change::Account { .. }))
        .count();
    assert_eq!(accounts, 3);
    // The history answers them newest first, each adding up by txc-types' own check; a
    // negative rate reverses who pays.
    state.set_funding_rate(PERP, "-0.0002").unwrap();
    let later = state.funding_tick(at + 1_000_000);
    assert_eq!(later[0].1.amount, d("1.32"));
    let query = FundingHistoryQuery {
        market: Some(PERP.to_owned()),
        page: page(100),
    };
    let history = state.funding_history(HEDGE, &query, u64::MAX);
    assert_eq!(history.records.len(), 4);
    assert_eq!(history.records[0].funding_rate, "-0.0002");
    assert_eq!(history.records[3].funding_amount, "-0.66");
    for record in &history.records {
        let text = serde_json::to_string(record).unwrap();
        let decoded: txc_types::positions::FundingPayment = serde_json::from_str(&text).unwrap();
        assert!(decoded.adds_up().unwrap(), "{text}");
    }
    // A market filter of a spot pair: nothing, as it has no funding.
    let spot = FundingHistoryQuery {
        market: Some(SPOT.to_owned()),
        page: page(100),
    };
    assert!(
        state
            .funding_history(ONE_WAY, &spot, u64::MAX)
            .records
            .is_empty()
    );
    assert_eq!(
        state
            .set_funding_rate(SPOT, "0.1")
            .map_err(|e| e.to_string()),
        Err("invalid market \"BTC_USDT\": not a perpetual (_PERP) market".to_owned())
    );
    assert_eq!(state.stats.funding_payments, 6);
}

#[test]
fn funding_times_follow_the_interval_from_the_start() {
    let (mut state, _) = two_accounts("10000");
    place(&mut state, ONE_WAY, order(PERP, Side::Buy, "0.1"));
    let first = state.funding.next_us();
    let hour = 3_600_000_000;
    state.settle_funding_due(first - 1);
    assert!(state.funding.of(ONE_WAY).is_empty());
    state.settle_funding_due(first + 2 * hour + 5);
    let times: Vec<u64> = state.funding.of(ONE_WAY).iter().map(|e| e.at_us).collect();
    assert_eq!(times, [first, first + hour, first + 2 * hour]);
    assert_eq!(state.funding.next_us(), first + 3 * hour);
    let query = FundingHistoryQuery {
        market: None,
        page: Page {
            limit: 2,
            offset: 1,
        },
    };
    let records = state.funding_history(ONE_WAY, &query, u64::MAX).records;
    let seconds = |us: u64| (us / 1_000_000).to_string();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].funding_time, seconds(first + hour));
    assert_eq!(records[0].rate_calculated_time, seconds(first));
    assert_eq!(records[1].funding_time, seconds(first));
    // A lagging read does not see payments made after its time.
    let lagging = state.funding_history(ONE_WAY, &query, first + hour - 1);
    assert_eq!(lagging.records.len(), 0);
}

#[test]
fn a_closed_position_adds_up_its_whole_life_as_the_reference_does() {
    let (mut state, _) = two_accounts("10000");
    let start = balance(&state, ONE_WAY);
    let mut ledger = PnlLedger::new(Direction::Long);
    // Bought as taker, then as maker through a resting bid a move crosses.
    place(&mut state, ONE_WAY, order(PERP, Side::Buy, "0.1"));
    ledger.increase(d("0.1"), d("65000"), d("6.5")).unwrap();
    place(&mut state, ONE_WAY, limit(PERP, Side::Buy, "0.05", "64000"));
    move_to(&mut state, PERP, "63900");
    ledger.increase(d("0.05"), d("64000"), d("1.6")).unwrap();
    let at = state.clock.now_us();
    let paid = state.funding_tick(at);
    ledger.funding(paid[0].1.amount).unwrap();
    move_to(&mut state, PERP, "66000");
    place(&mut state, ONE_WAY, order(PERP, Side::Sell, "0.08"));
    ledger.reduce(d("0.08"), d("66000"), d("5.28")).unwrap();
    assert!(closed(&state, ONE_WAY).is_empty());
    move_to(&mut state, PERP, "67000");
    place(&mut state, ONE_WAY, order(PERP, Side::Sell, "0.07"));
    ledger.reduce(d("0.07"), d("67000"), d("4.69")).unwrap();
    let records = closed(&state, ONE_WAY);
    assert_eq!(records.len(), 1);
    let summary = ledger.summary().unwrap();
    same_as(&records[0], &summary);
    assert_eq!(records[0].side, "BOTH");
    assert!(!records[0].is_hedge);
    // The balance moved by exactly the net PnL.
    assert_eq!(balance(&state, ONE_WAY), start + summary.net_pnl);
    // A flip closes the short it reverses and opens a long; the fee splits between them.
    place(&mut state, ONE_WAY, order(PERP, Side::Sell, "0.1"));
    move_to(&mut state, PERP, "66000");
    place(&mut state, ONE_WAY, order(PERP, Side::Buy, "0.15"));
    let mut short = PnlLedger::new(Direction::Short);
    short.increase(d("0.1"), d("67000"), d("6.7")).unwrap();
    let fee = d("9.9"); // 0.15 × 66 000 × 0.1 %
    let closing_fee = (fee * d("0.1") / d("0.15")).round_dp(FEE_PRECISION);
    short.reduce(d("0.1"), d("66000"), closing_fee).unwrap();
    let records = closed(&state, ONE_WAY);
    assert_eq!(records.len(), 2);
    same_as(&records[1], &short.summary().unwrap());
    let open = state.positions_of(ONE_WAY);
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].amount, "0.05");
    // The long left open carries the rest of the fee: closing it completes the account.
    place(&mut state, ONE_WAY, order(PERP, Side::Sell, "0.05"));
    let mut long = PnlLedger::new(Direction::Long);
    long.increase(d("0.05"), d("66000"), fee - closing_fee)
        .unwrap();
    long.reduce(d("0.05"), d("66000"), d("3.3")).unwrap();
    same_as(&closed(&state, ONE_WAY)[2], &long.summary().unwrap());
}

#[test]
fn a_price_move_calls_margin_then_liquidates_in_part_then_in_full() {
    let (mut state, told) = two_accounts("1000");
    place(&mut state, ONE_WAY, order(PERP, Side::Buy, "0.1"));
    // A resting order on the market: a liquidation cancels it.
    let resting = place(
        &mut state,
        ONE_WAY,
        limit(PERP, Side::Sell, "0.01", "70000"),
    );
    assert_eq!(balance(&state, ONE_WAY), d("343.5"));
    told.take();
    // Equity 283.5 below 5 % of 5 790: margin call, not yet liquidation (3 % is 173.7).
    move_to(&mut state, PERP, "57900");
    let changes = told.take();
    assert_eq!(changes.len(), 1, "{changes:?}");
    let Change::Margin {
        api_key,
        stage,
        position,
    } = &changes[0]
    else {
        panic!("{changes:?}");
    };
    assert_eq!(
        (api_key.as_str(), *stage),
        (ONE_WAY, LiquidationStage::MarginCall)
    );
    assert_eq!(position.amount, d("0.1"));
    assert_eq!(position.stage, Some(LiquidationStage::MarginCall));
    // (5 506.5 / 0.097): where equity meets 3 % of the value.
    assert_eq!(position.liquidation_price, Some(d("56768")));
    let records = state.open_position_records(ONE_WAY, None);
    assert_eq!(records[0].liquidation_state, Some("margin_call"));
    assert_eq!(records[0].liquidation_price.as_deref(), Some("56768"));
    // Staying in margin call tells nothing more.
    move_to(&mut state, PERP, "57800");
    assert!(told.take().is_empty());
    // Below 3 %: a quarter is liquidated, which restores the margin.
    move_to(&mut state, PERP, "56700");
    let changes = told.take();
    assert!(matches!(
        &changes[0],
        Change::Margin { stage: LiquidationStage::Liquidation, position, .. }
            if position.amount == d("0.1") && position.stage == Some(LiquidationStage::Liquidation)
    ));
    let liquidation_orders: Vec<&StoredOrder> = changes
        .iter()
        .filter_map(|c| match c {
            Change::Order { order, deals, .. } if order.source == OrderSource::Liquidation => {
                assert_eq!(deals.len(), 1);
                Some(order.as_ref())
            }
            _ => None,
        })
        .collect();
    assert_eq!(liquidation_orders.len(), 1);
    assert_eq!(liquidation_orders[0].deal_stock, d("0.025"));
    assert_eq!(liquidation_orders[0].status, OrderStatus::Filled);
    assert!(liquidation_orders[0].request.reduce_only);
    assert_eq!(
        state.orders.get(resting).unwrap().status,
        OrderStatus::AutoCanceledLiquidation
    );
    // −207.5 realized, 1.4175 fee, 162.5 released.
    assert_eq!(balance(&state, ONE_WAY), d("297.0825"));
    assert_eq!(state.positions_of(ONE_WAY)[0].amount, "0.075");
    assert!(closed(&state, ONE_WAY).is_empty());
    // Further down: a quarter again is not enough, so the rest goes too.
    move_to(&mut state, PERP, "55000");
    assert!(state.positions_of(ONE_WAY).is_empty());
    assert_eq!(balance(&state, ONE_WAY), d("30.4575"));
    let record = &closed(&state, ONE_WAY)[0];
    assert_eq!(record.gross_pnl, "-969.5425");
    assert_eq!(record.net_pnl, "-969.5425");
    assert_eq!(record.total_trade_fee, "12.0425");
    assert_eq!(record.avg_entry_price, "65000");
    assert_eq!(record.avg_exit_price, "55425");
    assert_eq!(record.closed_size, "0.1");
    // The balance is the start plus the closed position's net PnL.
    assert_eq!(balance(&state, ONE_WAY), d("1000") + d("-969.5425"));
    // The position history marks each liquidation fill.
    let query = crate::rules::PositionHistoryQuery {
        market: None,
        position_id: None,
        period: (None, None),
        page: page(100),
    };
    let stages: Vec<Option<&str>> = state
        .position_history(ONE_WAY, &query)
        .iter()
        .map(|e| e.liquidation_state)
        .collect();
    assert_eq!(
        stages,
        [
            Some("liquidation"),
            Some("liquidation"),
            Some("liquidation"),
            None
        ]
    );
    // No position, no margin call; liquidation orders are not "placed by a request".
    assert_eq!(state.liquidation_stage(ONE_WAY), None);
    assert_eq!(state.order_records().len(), 2);
    assert_eq!((state.stats.margin_calls, state.stats.liquidations), (1, 2));
}

#[test]
fn a_gap_past_the_bankruptcy_price_closes_in_full_there_and_leaves_no_debt() {
    let (mut state, _) = two_accounts("1000");
    place(&mut state, ONE_WAY, order(PERP, Side::Buy, "0.1"));
    move_to(&mut state, PERP, "40000");
    assert!(state.positions_of(ONE_WAY).is_empty());
    // At 40 000 the loss would be 2 500 on 993.5: the position closes at the price that
    // leaves the balance at zero (5 506.5 / 0.0999, rounded up to 0.1), not below it.
    let record = &closed(&state, ONE_WAY)[0];
    assert_eq!(record.avg_exit_price, "55120.2");
    assert_eq!(balance(&state, ONE_WAY), d("0.00798"));
    assert_eq!(
        balance(&state, ONE_WAY),
        d("1000") + d(&record.net_pnl),
        "{record:?}"
    );
    // A short past its bankruptcy price too.
    let (mut state, _) = two_accounts("1000");
    place(&mut state, ONE_WAY, order(PERP, Side::Sell, "0.1"));
    move_to(&mut state, PERP, "90000");
    assert!(state.positions_of(ONE_WAY).is_empty());
    assert!(balance(&state, ONE_WAY) >= Decimal::ZERO);
    assert!(balance(&state, ONE_WAY) < d("1"));
}

#[test]
fn liquidation_closes_margin_positions_before_futures_ones() {
    let (mut state, _) = two_accounts("2000");
    // Hedge mode: a spot-pair long and a perpetual long, both at 65 000.
    place(
        &mut state,
        HEDGE,
        hedged(order(SPOT, Side::Buy, "0.1"), PositionSide::Long),
    );
    place(
        &mut state,
        HEDGE,
        hedged(order(PERP, Side::Buy, "0.1"), PositionSide::Long),
    );
    // Only the perpetual falls: the margin position is liquidated first all the same.
    move_to(&mut state, PERP, "47000");
    let closed = closed(&state, HEDGE);
    assert!(!closed.is_empty());
    assert_eq!(closed[0].market, SPOT);
    assert_eq!(closed[0].side, "LONG");
    assert!(closed[0].is_hedge);
}

#[test]
fn adl_quantiles_rank_every_account_s_positions_by_rating() {
    let accounts = ["a", "b", "c", "d"]
        .iter()
        .zip(["10000", "2000", "1000", "10000"])
        .map(|(key, balance)| AccountConfig::new(*key, "secret").balance("USDT", balance))
        .collect();
    let (mut state, _) = risk_state(accounts);
    for key in ["a", "b", "c"] {
        place(&mut state, key, order(PERP, Side::Buy, "0.1"));
    }
    place(&mut state, "d", order(PERP, Side::Sell, "0.1"));
    place(&mut state, "a", order(SPOT, Side::Buy, "0.01"));
    // Each long gains 100: the rating is 100 over the account's equity, highest for c.
    move_to(&mut state, PERP, "66000");
    let quantile = |key: &str| {
        let records = state.adl_quantiles(key);
        assert_eq!(records.len(), 1, "{records:?}");
        assert_eq!(records[0].market, PERP);
        (records[0].long, records[0].short)
    };
    // Places 1, 2, 3 of 3: k = 1/3, 2/3, 1.
    assert_eq!(quantile("a"), (Some(0), None));
    assert_eq!(quantile("b"), (Some(1), None));
    assert_eq!(quantile("c"), (Some(4), None));
    // Alone on its side: the whole list.
    assert_eq!(quantile("d"), (None, Some(4)));
    let (fresh, _) = two_accounts("100");
    assert!(fresh.adl_quantiles(ONE_WAY).is_empty());
}

#[test]
fn every_deal_is_logged_with_its_role_and_counterparty() {
    let (mut state, told) = two_accounts("10000");
    let maker = place(
        &mut state,
        ONE_WAY,
        limit(SPOT, Side::Sell, "0.02", "66000"),
    );
    // A move through it with a volume fills half (against the market) and leaves it crossed.
    state.move_price(SPOT, d("66500"), Some(d("0.01"))).unwrap();
    let taker = place(
        &mut state,
        HEDGE,
        hedged(order(SPOT, Side::Buy, "0.01"), PositionSide::Long),
    );
    let deal_ids: Vec<u64> = told
        .take()
        .iter()
        .flat_map(|c| match c {
            Change::Order { deals, .. } => deals.iter().map(|d| d.id).collect(),
            _ => Vec::new(),
        })
        .collect();
    let query = OrderDealsQuery {
        order_id: Some(maker),
        page: page(50),
    };
    let deals = state.order_deals(ONE_WAY, &query, u64::MAX).records;
    assert_eq!(deals.len(), 2);
    // Newest first: against the taker's order, then against the market (its own id).
    assert_eq!((deals[0].deal_order_id, deals[0].role), (taker, 1));
    assert_eq!((deals[1].deal_order_id, deals[1].role), (maker, 1));
    assert_eq!(deals[0].price, "66000");
    assert_eq!(deals[0].deal, "660");
    assert_eq!(deals[0].fee, "0.33");
    assert_eq!(deals[0].fee_asset, "USDT");
    // Another account's order: no deals, no error.
    assert!(
        state
            .order_deals(HEDGE, &query, u64::MAX)
            .records
            .is_empty()
    );
    let history = ExecutedHistoryQuery {
        market: None,
        client_order_id: None,
        period: (None, None),
        page: page(50),
    };
    let ExecutedDeals::ByMarket(by_market) =
        state.executed_history(HEDGE, &history, u64::MAX).unwrap()
    else {
        panic!("not grouped");
    };
    let taken = &by_market[SPOT];
    assert_eq!(taken.len(), 1);
    assert_eq!(
        (taken[0].order_id, taken[0].side, taken[0].role),
        (taker, "buy", 2)
    );
    // The ids the stream told are the ids the reads answer.
    let mut read: Vec<u64> = deals.iter().map(|d| d.id).chain([taken[0].id]).collect();
    read.sort_unstable();
    let mut streamed = deal_ids;
    streamed.sort_unstable();
    assert_eq!(read, streamed);
    let unknown = ExecutedHistoryQuery {
        client_order_id: Some("never-used".to_owned()),
        ..history
    };
    let refused = state
        .executed_history(HEDGE, &unknown, u64::MAX)
        .unwrap_err();
    assert_eq!(refused.code, 30);
    assert_eq!(
        refused.errors["orderHistory"],
        ["OrderHistory was not found."]
    );
}

/// One step of a simulated trading session.
#[derive(Debug, Clone)]
enum Step {
    /// A market order: buy, thousandths of BTC.
    Market(bool, u16),
    /// A limit order: buy, thousandths, hundreds away from the price (a bid below, an ask
    /// above).
    Limit(bool, u16, u8),
    /// A price move to this many hundreds (50 000–80 000).
    Move(u16),
    /// A funding tick at this rate in hundred-thousandths (−3 to 3).
    Funding(i8),
    /// Closes the position, if any.
    Close,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (any::<bool>(), 1..90u16).prop_map(|(b, a)| Step::Market(b, a)),
        2 => (any::<bool>(), 1..90u16, 1..20u8).prop_map(|(b, a, o)| Step::Limit(b, a, o)),
        4 => (500..800u16).prop_map(Step::Move),
        2 => (-3..=3i8).prop_map(Step::Funding),
        1 => Just(Step::Close),
    ]
}

/// The reference: an account's positions replayed from its deals and funding payments
/// through [`PnlLedger`], a flip's fee split as the sandbox documents it.
#[derive(Default)]
struct Reference {
    qty: Decimal,
    open: Option<PnlLedger>,
    closed: Vec<PnlSummary>,
}

impl Reference {
    fn deal(&mut self, side: Side, amount: Decimal, price: Decimal, fee: Decimal) {
        let delta = if side == Side::Buy { amount } else { -amount };
        let reduces =
            !self.qty.is_zero() && self.qty.is_sign_positive() != delta.is_sign_positive();
        let closing = if reduces {
            amount.min(self.qty.abs())
        } else {
            Decimal::ZERO
        };
        let opening = amount - closing;
        let fee_closed = if opening.is_zero() {
            fee
        } else {
            (fee * closing / amount).round_dp(FEE_PRECISION)
        };
        if !closing.is_zero() {
            let ledger = self.open.as_mut().unwrap();
            ledger.reduce(closing, price, fee_closed).unwrap();
            if closing == self.qty.abs() {
                self.closed.push(ledger.summary().unwrap());
                self.open = None;
            }
        }
        if !opening.is_zero() {
            let direction = if delta.is_sign_positive() {
                Direction::Long
            } else {
                Direction::Short
            };
            let ledger = self.open.get_or_insert_with(|| PnlLedger::new(direction));
            ledger.increase(opening, price, fee - fee_closed).unwrap();
        }
        self.qty += delta;
    }
}

/// The simulated account's collateral: little enough that its positions reach margin calls
/// and liquidations.
const START: &str = "800";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Over any session of orders, price moves and funding ticks — margin calls and
    /// liquidations included — the balance plus the margin locked is exactly the start, less
    /// every fee, plus everything realized and every funding payment received; no balance
    /// goes negative; and every closed position adds up as the reference replays it.
    #[test]
    fn the_simulation_conserves_what_fills_and_funding_move(
        steps in prop::collection::vec(step(), 1..40),
    ) {
        let (mut state, _) = risk_state(vec![
            AccountConfig::new(ONE_WAY, "secret").balance("USDT", START),
        ]);
        let mut reference = Reference::default();
        let (mut deals_seen, mut funding_seen) = (0, 0);
        for step in steps {
            let price = state.price(PERP).unwrap();
            let thousandths = |n: u16| Decimal::new(i64::from(n), 3);
            let side = |buy: bool| if buy { Side::Buy } else { Side::Sell };
            match step {
                Step::Market(buy, n) => {
                    let _ = state.place(ONE_WAY, OrderRequest::market(PERP, side(buy), thousandths(n)), Duration::ZERO);
                }
                Step::Limit(buy, n, away) => {
                    let offset = Decimal::from(u32::from(away) * 100);
                    let at = if buy { price - offset } else { price + offset };
                    let request = limit(PERP, side(buy), &thousandths(n).to_string(), &at.to_string());
                    let _ = state.place(ONE_WAY, request, Duration::ZERO);
                }
                Step::Move(hundreds) => {
                    state.move_price(PERP, Decimal::from(u32::from(hundreds) * 100), None).unwrap();
                }
                Step::Funding(rate) => {
                    let rate = Decimal::new(i64::from(rate), 5);
                    state.set_funding_rate(PERP, &rate.to_string()).unwrap();
                    let at = state.clock.now_us();
                    state.funding_tick(at);
                }
                Step::Close => {
                    if let Some(((_, _, _), position)) = state.positions.listed(ONE_WAY, None).first() {
                        let request = crate::rules::ClosePositionRequest {
                            position_id: position.id,
                            market: PERP.to_owned(),
                            side: None,
                        };
                        let _ = state.close_position(ONE_WAY, &request);
                    }
                }
            }
            // Funding first (a tick's liquidation deals follow its payments), then deals.
            let payments = state.funding.of(ONE_WAY);
            for payment in &payments[funding_seen..] {
                reference.open.as_mut().unwrap().funding(payment.amount).unwrap();
            }
            funding_seen = payments.len();
            let mut deals: Vec<_> = state.orders.deals().of_account(ONE_WAY).cloned().collect();
            deals.reverse();
            for deal in &deals[deals_seen..] {
                let e = deal.execution;
                reference.deal(deal.side, e.amount, e.price, e.fee);
            }
            deals_seen = deals.len();

            let balance = balance(&state, ONE_WAY);
            prop_assert!(balance >= Decimal::ZERO, "negative balance {balance}");
            let open = state.positions.listed(ONE_WAY, None);
            let locked: Decimal = open.iter().map(|(_, p)| p.state.margin).sum();
            let realized: Decimal = open.iter().map(|(_, p)| p.realized).sum::<Decimal>()
                + state.closed_positions.of(ONE_WAY).iter().map(|c| c.position.realized).sum::<Decimal>();
            let fees: Decimal = deals.iter().map(|d| d.execution.fee).sum();
            let funding: Decimal = state.funding.of(ONE_WAY).iter().map(|e| e.amount).sum();
            prop_assert_eq!(balance + locked, d(START) - fees + realized + funding);
            let qty = open.first().map_or(Decimal::ZERO, |(_, p)| p.state.qty);
            prop_assert_eq!(qty, reference.qty);
        }
        let records = closed(&state, ONE_WAY);
        prop_assert_eq!(records.len(), reference.closed.len());
        for (record, summary) in records.iter().zip(&reference.closed) {
            same_as(record, summary);
        }
    }
}
