//! The book driven directly through the state, with no server: property tests of what any
//! sequence of placements, price moves, cancels and modifies keeps true — every order's
//! executions add up to what it executed and never exceed its amount, no execution is beyond
//! the order's limit price, an OCO never executes both legs, no balance goes negative — and of
//! price-time priority, against an independent walk over the orders a move or a taker
//! crosses; and examples of each order type's life.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use rust_decimal::Decimal;

use super::tests::{Recorder, state_of};
use super::*;
use crate::config::{AccountConfig, MarketConfig};
use crate::rules::Flags;
use crate::rules::{
    CancelRequest, ConditionalQuery, GroupRef, ModifyRequest, OcoRequest, OrderRef, OrderRequest,
    Price,
};
use crate::state::orders::Execution;
use crate::wire::{OrderStatus, Side, Stp};

const KEYS: [&str; 3] = ["alice", "bob", "carol"];
const MARKET: &str = "BTC_USDT";

/// Three one-way accounts with a billion USDT each, `BTC_USDT` at 100 (amounts to 0.001,
/// prices to 0.01, taker fee 0.1 %, maker fee 0.05 %); changes recorded.
fn market() -> (State, Arc<Recorder>) {
    let accounts = KEYS
        .iter()
        .map(|k| AccountConfig::new(*k, "secret").balance("USDT", "1000000000"))
        .collect();
    let market = MarketConfig::new(MARKET, "100")
        .amount_step("0.001")
        .money_precision(2);
    state_of(accounts, vec![market], Vec::new(), Settings::default())
}

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn price(value: Decimal) -> Price {
    Price {
        value,
        text: value.normalize().to_string(),
    }
}

fn limit(side: Side, amount: Decimal, at: Decimal) -> OrderRequest {
    OrderRequest {
        price: Some(price(at)),
        ..OrderRequest::market(MARKET, side, amount)
    }
}

/// Every execution the subscriber was told of, by order id.
fn executions(told: &[Change]) -> HashMap<u64, Vec<Execution>> {
    let mut by_order: HashMap<u64, Vec<Execution>> = HashMap::new();
    for change in told {
        if let Change::Order { order, deals, .. } = change {
            by_order
                .entry(order.id)
                .or_default()
                .extend(deals.iter().map(|d| d.execution));
        }
    }
    by_order
}

/// One thing a trader or the market does.
#[derive(Debug, Clone)]
enum Op {
    /// Account, buy, price offset from 100, amount in hundredths, ioc, post-only.
    Limit(usize, bool, i8, u16, bool, bool),
    /// Account, buy, amount in hundredths.
    Market(usize, bool, u16),
    /// Account, buy, activation offset, limit offset (none: stop-market), amount.
    Stop(usize, bool, i8, Option<i8>, u16),
    /// Account, buy, take-profit offset, activation offset, stop-limit offset, amount.
    Oco(usize, bool, i8, i8, i8, u16),
    /// Price offset, volume in hundredths.
    Move(i8, Option<u16>),
    /// Cancels the n-th order ever placed, if open.
    Cancel(usize),
    /// Moves the n-th order's price by an offset.
    Modify(usize, i8),
}

fn op() -> impl Strategy<Value = Op> {
    let key = 0..3usize;
    let offset = -8..=8i8;
    let amount = 1..=40u16;
    prop_oneof![
        4 => (key.clone(), any::<bool>(), offset.clone(), amount.clone(), prop::bool::weighted(0.2), prop::bool::weighted(0.2))
            .prop_map(|(k, b, o, a, ioc, post)| Op::Limit(k, b, o, a, ioc, post)),
        1 => (key.clone(), any::<bool>(), amount.clone()).prop_map(|(k, b, a)| Op::Market(k, b, a)),
        1 => (key.clone(), any::<bool>(), offset.clone(), prop::option::of(offset.clone()), amount.clone())
            .prop_map(|(k, b, o, l, a)| Op::Stop(k, b, o, l, a)),
        1 => (key, any::<bool>(), offset.clone(), offset.clone(), offset.clone(), amount.clone())
            .prop_map(|(k, b, t, s, l, a)| Op::Oco(k, b, t, s, l, a)),
        3 => (offset.clone(), prop::option::of(amount)).prop_map(|(o, v)| Op::Move(o, v)),
        1 => (0..40usize).prop_map(Op::Cancel),
        1 => (0..40usize, offset).prop_map(|(n, o)| Op::Modify(n, o)),
    ]
}

fn at(offset: i8) -> Decimal {
    Decimal::from(100 + i64::from(offset))
}

fn hundredths(n: u16) -> Decimal {
    Decimal::new(i64::from(n), 2)
}

fn side(buy: bool) -> Side {
    if buy { Side::Buy } else { Side::Sell }
}

/// Runs `op`; refusals are part of the game.
fn run(state: &mut State, op: &Op) {
    let first = state.orders.next_id() - u64::try_from(state.orders.all().len()).unwrap();
    let nth = |n: usize| first + n as u64;
    match *op {
        Op::Limit(k, buy, offset, amount, ioc, post_only) => {
            let mut request = limit(side(buy), hundredths(amount), at(offset));
            request.flags = Flags {
                post_only,
                ioc,
                rpi: false,
            };
            let _ = state.place(KEYS[k], request, Duration::ZERO);
        }
        Op::Market(k, buy, amount) => {
            let request = OrderRequest::market(MARKET, side(buy), hundredths(amount));
            let _ = state.place(KEYS[k], request, Duration::ZERO);
        }
        Op::Stop(k, buy, activation, limit_at, amount) => {
            let request = OrderRequest {
                activation: Some(price(at(activation))),
                price: limit_at.map(|l| price(at(l))),
                ..OrderRequest::market(MARKET, side(buy), hundredths(amount))
            };
            let _ = state.place(KEYS[k], request, Duration::ZERO);
        }
        Op::Oco(k, buy, take_profit, activation, stop_limit, amount) => {
            let request = OcoRequest {
                market: MARKET.to_owned(),
                side: side(buy),
                amount: hundredths(amount),
                price: price(at(take_profit)),
                activation: price(at(activation)),
                stop_limit_price: price(at(stop_limit)),
                client_order_id: None,
                reduce_only: false,
                position_side: None,
                stp: Stp::No,
            };
            let _ = state.place_oco(KEYS[k], &request, Duration::ZERO);
        }
        Op::Move(offset, volume) => {
            state
                .move_price(MARKET, at(offset), volume.map(hundredths))
                .unwrap();
        }
        Op::Cancel(n) => {
            if let Some(order) = state.orders.get(nth(n)).cloned() {
                let request = CancelRequest {
                    market: MARKET.to_owned(),
                    which: OrderRef::Id(order.id),
                };
                let _ = state.cancel(&order.api_key, &request);
            }
        }
        Op::Modify(n, offset) => {
            if let Some(order) = state.orders.get(nth(n)).cloned()
                && let Some(old) = order.price()
            {
                let moved = (old.value + Decimal::from(offset)).max(Decimal::ONE);
                let request = ModifyRequest {
                    market: MARKET.to_owned(),
                    which: OrderRef::Id(order.id),
                    amount: None,
                    total: None,
                    price: Some(price(moved)),
                    activation: None,
                    stp: None,
                };
                let _ = state.modify(&order.api_key, &request, Duration::ZERO);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever happens: each order's executions add up to what it shows executed, which is
    /// at most its amount (filled + left = amount); `FILLED` exactly when nothing is left;
    /// every execution at or within its order's limit price (a maker's at its price); an
    /// OCO's legs never both executed; no balance below zero.
    #[test]
    fn the_book_keeps_its_invariants(ops in prop::collection::vec(op(), 1..60)) {
        let (mut state, told) = market();
        let mut executed: HashMap<u64, Vec<Execution>> = HashMap::new();
        for op in &ops {
            run(&mut state, op);
            for (id, list) in executions(&told.take()) {
                executed.entry(id).or_default().extend(list);
            }
            // Per OCO, which of its legs executed (a replacement takes its original's place).
            let mut legs: HashMap<u64, std::collections::HashSet<bool>> = HashMap::new();
            for order in state.orders.all() {
                let deals = executed.get(&order.id).cloned().unwrap_or_default();
                let stock: Decimal = deals.iter().map(|e| e.amount).sum();
                let money: Decimal = deals.iter().map(|e| e.amount * e.price).sum();
                let fee: Decimal = deals.iter().map(|e| e.fee).sum();
                prop_assert_eq!(stock, order.deal_stock, "order {}", order.id);
                prop_assert_eq!(money, order.deal_money, "order {}", order.id);
                prop_assert_eq!(fee, order.deal_fee, "order {}", order.id);
                prop_assert!(order.deal_stock <= order.amount, "order {}", order.id);
                prop_assert_eq!(order.deal_stock + order.left(), order.amount);
                prop_assert_eq!(order.status == OrderStatus::Filled, order.left().is_zero() && !order.amount.is_zero(), "order {} {:?}", order.id, order.status);
                if let Some(limit) = order.price() {
                    for e in &deals {
                        let within = match order.side() {
                            Side::Buy => e.price <= limit.value,
                            Side::Sell => e.price >= limit.value,
                        };
                        prop_assert!(within, "order {} executed at {} beyond {}", order.id, e.price, limit.value);
                        if e.maker {
                            prop_assert_eq!(e.price, limit.value);
                        }
                    }
                }
                if let Some(oco) = order.oco_id && !order.deal_stock.is_zero() {
                    legs.entry(oco).or_default().insert(order.activation().is_some());
                }
            }
            prop_assert!(legs.values().all(|l| l.len() <= 1), "an OCO executed both legs");
            for key in KEYS {
                prop_assert!(state.accounts.get(key).unwrap().balance("USDT") >= Decimal::ZERO);
            }
        }
    }

    /// A price move executes the bids it crosses best price first, then oldest, each at its
    /// own price, as far as its volume goes; a market sell then takes the crossed bids left in
    /// the same order before the market — an independent walk says which and how much.
    #[test]
    fn price_time_priority(
        bids in prop::collection::vec((90..100i64, 1..=20u16), 1..25),
        to in 85..100i64,
        volume in prop::option::of(1..=200u16),
        sell in 1..=300u16,
    ) {
        let (mut state, told) = market();
        let mut placed = Vec::new();
        for (i, (bid, amount)) in bids.iter().enumerate() {
            let record = state
                .place(KEYS[i % 2], limit(Side::Buy, hundredths(*amount), Decimal::from(*bid)), Duration::ZERO)
                .unwrap();
            placed.push((record.head.order_id, Decimal::from(*bid), hundredths(*amount)));
        }
        told.take();
        let to = Decimal::from(to);
        state.move_price(MARKET, to, volume.map(hundredths)).unwrap();
        // The crossed bids in priority order, and what the move's volume gives each.
        let mut crossed: Vec<_> = placed.iter().filter(|(_, bid, _)| *bid >= to).cloned().collect();
        crossed.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut left = volume.map(hundredths);
        let mut expected: HashMap<u64, Decimal> = HashMap::new();
        for (id, _, amount) in &crossed {
            let fill = left.map_or(*amount, |v| v.min(*amount));
            left = left.map(|v| v - fill);
            expected.insert(*id, fill);
        }
        for (id, _, _) in &placed {
            let executed = state.orders.get(*id).unwrap().deal_stock;
            prop_assert_eq!(executed, expected.get(id).copied().unwrap_or_default(), "bid {}", id);
        }
        // A market sell by the third account: the crossed bids left first, in the same
        // order, then the market's price.
        let record = state
            .place(KEYS[2], OrderRequest::market(MARKET, Side::Sell, hundredths(sell)), Duration::ZERO)
            .unwrap();
        let deals = executions(&told.take()).remove(&record.head.order_id).unwrap_or_default();
        let mut want = Vec::new();
        let mut to_sell = hundredths(sell);
        for (id, bid, amount) in &crossed {
            let rest = *amount - expected[id];
            let take = rest.min(to_sell);
            if !take.is_zero() {
                want.push((*bid, take));
                to_sell -= take;
            }
        }
        if !to_sell.is_zero() {
            want.push((to, to_sell));
        }
        let got: Vec<(Decimal, Decimal)> = deals.iter().map(|e| (e.price, e.amount)).collect();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn a_limit_order_rests_then_a_move_fills_it_as_maker() {
    let (mut state, told) = market();
    let resting = state
        .place(KEYS[0], limit(Side::Buy, d("2"), d("99.5")), Duration::ZERO)
        .unwrap();
    assert_eq!(resting.status, "OPEN");
    assert_eq!(resting.price.as_deref(), Some("99.5"));
    assert_eq!(
        (resting.post_only, resting.ioc, resting.rpi),
        (Some(false), Some(false), Some(false))
    );
    assert!(matches!(
        told.take().as_slice(),
        [Change::Order {
            change: OrderChange::New,
            ..
        }]
    ));
    // Half of it: the move's volume.
    state.move_price(MARKET, d("99"), Some(d("0.5"))).unwrap();
    let order = state.orders.get(resting.head.order_id).unwrap();
    assert_eq!(order.status, OrderStatus::PartiallyFilled);
    assert_eq!(order.deal_stock, d("0.5"));
    // Maker fee: 0.5 × 99.5 × 0.0005.
    assert_eq!(order.deal_fee, d("0.024875"));
    let told = told.take();
    assert!(told.iter().any(|c| matches!(c,
        Change::Order { change: OrderChange::Updated, deals, .. } if deals.len() == 1 && deals[0].execution.maker)));
    // The rest on the next move, whatever its direction: it is still crossed.
    state.set_price(MARKET, "99.2").unwrap();
    let order = state.orders.get(resting.head.order_id).unwrap();
    assert_eq!(order.status, OrderStatus::Filled);
    assert_eq!(order.deal_money, d("199"));
    assert_eq!(state.positions_of(KEYS[0])[0].amount, "2");
}

#[test]
fn a_marketable_limit_order_takes_at_the_market_and_rests_the_rest_or_cancels_it_with_ioc() {
    let (mut state, _) = market();
    // The market sells at 100: a buy at 101 takes it there, all of it.
    let taken = state
        .place(KEYS[0], limit(Side::Buy, d("1"), d("101")), Duration::ZERO)
        .unwrap();
    assert_eq!(
        (taken.status, taken.head.deal_money.as_str()),
        ("FILLED", "100")
    );
    assert_eq!(taken.head.deal_fee, "0.1", "taker fee");
    // Post-only would take: refused, code 30 on the flag.
    let mut post_only = limit(Side::Buy, d("1"), d("100"));
    post_only.flags.post_only = true;
    let refused = state.place(KEYS[0], post_only, Duration::ZERO).unwrap_err();
    assert_eq!(
        (refused.code, refused.errors.contains_key("postOnly")),
        (30, true)
    );
    // RPI is post-only too.
    let mut rpi = limit(Side::Sell, d("1"), d("99"));
    rpi.flags.rpi = true;
    assert!(
        state
            .place(KEYS[0], rpi, Duration::ZERO)
            .unwrap_err()
            .errors
            .contains_key("rpi")
    );
    // Crossed bids left by a move with a volume, then an ioc sell that takes them and
    // cancels what is left at its limit.
    state
        .place(KEYS[1], limit(Side::Buy, d("1"), d("99")), Duration::ZERO)
        .unwrap();
    state.move_price(MARKET, d("98"), Some(d("0.25"))).unwrap();
    let mut ioc = limit(Side::Sell, d("2"), d("98.5"));
    ioc.flags.ioc = true;
    let ioc = state.place(KEYS[2], ioc, Duration::ZERO).unwrap();
    assert_eq!(ioc.status, "CANCELED");
    assert_eq!(ioc.head.deal_stock, "0.75", "the bid's rest, at 99");
    assert_eq!(ioc.head.deal_money, "74.25");
}

#[test]
fn a_stop_limit_order_activates_and_rests_as_a_limit_order() {
    let (mut state, told) = market();
    let stop = OrderRequest {
        activation: Some(price(d("105"))),
        price: Some(price(d("104"))),
        ..OrderRequest::market(MARKET, Side::Buy, d("1"))
    };
    let placed = state.place(KEYS[0], stop, Duration::ZERO).unwrap();
    assert_eq!(
        (placed.head.order_type, placed.status),
        ("stop limit", "OPEN")
    );
    assert_eq!(placed.activated, Some(0));
    told.take();
    // Reached: activated (a new order on the stream), then a limit buy at 104 with the
    // market at 105 — not marketable: it rests.
    assert_eq!(state.set_price(MARKET, "105").unwrap(), 1);
    let order = state.orders.get(placed.head.order_id).unwrap().clone();
    assert_eq!(order.status, OrderStatus::Open);
    assert!(order.activated_us.is_some());
    assert!(matches!(
        told.take().as_slice(),
        [Change::Order {
            change: OrderChange::New,
            ..
        }]
    ));
    // The price comes back down through it: filled at its price, as maker.
    state.set_price(MARKET, "103").unwrap();
    let order = state.orders.get(placed.head.order_id).unwrap();
    assert_eq!(
        (order.status, order.deal_money),
        (OrderStatus::Filled, d("104"))
    );
}

#[test]
fn an_oco_executes_one_leg_and_cancels_the_other() {
    let (mut state, _) = market();
    let request = OcoRequest {
        market: MARKET.to_owned(),
        side: Side::Sell,
        amount: d("1"),
        price: price(d("110")),
        activation: price(d("95")),
        stop_limit_price: price(d("94")),
        client_order_id: Some("bracket-1".to_owned()),
        reduce_only: false,
        position_side: None,
        stp: Stp::No,
    };
    let oco = state.place_oco(KEYS[0], &request, Duration::ZERO).unwrap();
    assert_eq!(oco.stop_loss.order_type, "stop limit");
    assert_eq!(oco.take_profit.order_type, "limit");
    assert_eq!(oco.take_profit.client_order_id, "bracket-1");
    assert_eq!(
        state.oco_orders(KEYS[0], &oco_query(), now(&state)).len(),
        1
    );
    // The take-profit leg executes: the stop-loss leg is canceled.
    state.set_price(MARKET, "111").unwrap();
    let take_profit = state.orders.get(oco.take_profit.order_id).unwrap();
    let stop_loss = state.orders.get(oco.stop_loss.order_id).unwrap();
    assert_eq!(take_profit.status, OrderStatus::Filled);
    assert_eq!(stop_loss.status, OrderStatus::Canceled);
    assert!(
        state
            .oco_orders(KEYS[0], &oco_query(), now(&state))
            .is_empty()
    );
    // Falling through the stop now does nothing.
    assert_eq!(state.set_price(MARKET, "90").unwrap(), 0);
    // The cancel no longer finds it.
    let cancel = CancelRequest {
        market: MARKET.to_owned(),
        which: OrderRef::Id(oco.id),
    };
    assert_eq!(state.cancel_oco(KEYS[0], &cancel).unwrap_err().code, 2);
}

#[test]
fn an_oto_group_activates_when_its_order_fills() {
    let (mut state, _) = market();
    let request = OrderRequest {
        stop_loss: Some(price(d("90"))),
        take_profit: Some(price(d("120"))),
        ..limit(Side::Buy, d("1"), d("99"))
    };
    let parent = state.place(KEYS[0], request, Duration::ZERO).unwrap();
    let oto = parent.oto.clone();
    let crate::wire::OtoField::Group(oto) = oto else {
        panic!("no group");
    };
    let groups = state.conditional_orders(KEYS[0], &conditional_query(), now(&state));
    assert_eq!(groups.total, 1);
    state.set_price(MARKET, "98").unwrap();
    // Filled: the group placed a reduce-only stop-loss and take-profit on the other side.
    let open: Vec<StoredOrder> = state.orders.listed(KEYS[0], None, true).cloned().collect();
    assert_eq!(open.len(), 2);
    assert!(
        open.iter()
            .all(|o| o.side() == Side::Sell && o.request.reduce_only)
    );
    assert!(open.iter().all(|o| o.amount == d("1")));
    assert_eq!(
        state
            .conditional_orders(KEYS[0], &conditional_query(), now(&state))
            .total,
        0
    );
    // The take-profit executes: the stop-loss is canceled and the position closed.
    state.set_price(MARKET, "121").unwrap();
    assert!(state.orders.listed(KEYS[0], None, true).next().is_none());
    assert!(state.positions_of(KEYS[0]).is_empty());
    // Its group was used up: canceling it finds nothing.
    let group = GroupRef {
        market: MARKET.to_owned(),
        id: oto.oto_id,
    };
    assert!(state.cancel_group(KEYS[0], &group, GroupKind::Oto).is_err());
}

#[test]
fn canceling_an_oto_group_cancels_its_order() {
    let (mut state, _) = market();
    let request = OrderRequest {
        stop_loss: Some(price(d("90"))),
        ..limit(Side::Buy, d("1"), d("99"))
    };
    let parent = state.place(KEYS[0], request, Duration::ZERO).unwrap();
    let crate::wire::OtoField::Group(oto) = parent.oto else {
        panic!("no group");
    };
    let group = GroupRef {
        market: MARKET.to_owned(),
        id: oto.oto_id,
    };
    state.cancel_group(KEYS[0], &group, GroupKind::Oto).unwrap();
    let order = state.orders.get(parent.head.order_id).unwrap();
    assert_eq!(order.status, OrderStatus::Canceled);
    // Nothing rests, and a price through it places nothing.
    state.set_price(MARKET, "80").unwrap();
    assert!(state.orders.listed(KEYS[0], None, true).next().is_none());
}

#[test]
fn modify_replaces_the_order_with_a_new_id() {
    let (mut state, told) = market();
    let request = OrderRequest {
        client_order_id: Some("quote-1".to_owned()),
        ..limit(Side::Buy, d("1"), d("95"))
    };
    let original = state.place(KEYS[0], request, Duration::ZERO).unwrap();
    told.take();
    let modify = ModifyRequest {
        market: MARKET.to_owned(),
        which: OrderRef::ClientId("quote-1".to_owned()),
        amount: Some(d("2")),
        total: None,
        price: Some(price(d("96"))),
        activation: None,
        stp: None,
    };
    let replaced = state.modify(KEYS[0], &modify, Duration::ZERO).unwrap();
    assert_ne!(replaced.head.order_id, original.head.order_id);
    assert_eq!(replaced.head.client_order_id, "quote-1");
    assert_eq!(
        (replaced.head.amount.as_str(), replaced.price.as_deref()),
        ("2", Some("96"))
    );
    assert_eq!(
        state.orders.get(original.head.order_id).unwrap().status,
        OrderStatus::Canceled
    );
    // The stream: the original finished (3), then the replacement new (1).
    let kinds: Vec<(u64, OrderChange)> = told
        .take()
        .into_iter()
        .filter_map(|c| match c {
            Change::Order { order, change, .. } => Some((order.id, change)),
            Change::Account { .. } | Change::Margin { .. } => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (original.head.order_id, OrderChange::Finished),
            (replaced.head.order_id, OrderChange::New)
        ]
    );
    // A refused modify changes nothing: a price beyond the market's, post-only... here a
    // stop-market field on a limit order.
    let wrong = ModifyRequest {
        activation: Some(price(d("90"))),
        ..modify
    };
    assert_eq!(
        state
            .modify(KEYS[0], &wrong, Duration::ZERO)
            .unwrap_err()
            .code,
        30
    );
    assert!(state.orders.get(replaced.head.order_id).unwrap().is_open());
}

fn now(state: &State) -> AsOf {
    AsOf {
        at_us: state.clock.now_us(),
        lagging: false,
    }
}

fn oco_query() -> crate::rules::OcoOrdersQuery {
    crate::rules::OcoOrdersQuery {
        market: None,
        page: crate::rules::Page {
            limit: 50,
            offset: 0,
        },
    }
}

fn conditional_query() -> ConditionalQuery {
    ConditionalQuery {
        market: None,
        page: crate::rules::Page {
            limit: 100,
            offset: 0,
        },
    }
}
