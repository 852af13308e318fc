//! The reference arithmetic of funding and realized PnL (`positions::funding`,
//! `positions::pnl`): the spec's examples add up by it, and its laws hold for any figures —
//! sign symmetry, linearity, splitting fills, long against short.

#![cfg(feature = "decimal")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use rust_decimal::Decimal;
use txc_types::orders::PositionSide;
use txc_types::positions::pnl::{self, Direction, PnlLedger};
use txc_types::positions::{ClosedPosition, FundingHistory, ReferenceError, funding};
use txc_types::values::ExactDecimal;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

#[test]
fn the_specs_funding_examples_add_up() {
    let history: FundingHistory =
        serde_json::from_str(include_str!("fixtures/funding_history_documented.json")).unwrap();
    for record in &history.records {
        assert!(record.adds_up().unwrap(), "{record:?}");
    }
    // The first is exact; the second is the exact product written to 16 places.
    assert_eq!(
        history.records[0].reference_amount().unwrap(),
        d("-0.171053531892")
    );
    assert_eq!(
        history.records[1].reference_amount().unwrap(),
        d("-0.0054997859133136070943")
    );
    // The wrong sign, or a figure off by one unit of its last place, does not add up.
    let mut flipped = history.records[0].clone();
    flipped.funding_amount = Some("0.171053531892".parse().unwrap());
    assert!(!flipped.adds_up().unwrap());
    assert!(!funding::agrees(
        d("-0.0054997859133137"),
        d("-0.0054997859133136070943")
    ));
    assert!(funding::agrees(
        d("-0.0054997859133136"),
        d("-0.0054997859133136070943")
    ));
    let mut partial = history.records[0].clone();
    partial.settlement_price = None;
    assert_eq!(
        partial.reference_amount(),
        Err(ReferenceError::Missing("settlementPrice"))
    );
}

#[test]
fn the_specs_closed_positions_add_up() {
    let closed: Vec<ClosedPosition> =
        serde_json::from_str(include_str!("fixtures/closed_pnl_documented.json")).unwrap();
    let figure = |p: &ClosedPosition, f: fn(&ClosedPosition) -> &Option<ExactDecimal>| {
        f(p).as_ref().unwrap().to_decimal().unwrap()
    };
    for position in &closed {
        let gross = figure(position, |p| &p.gross_pnl);
        let net = figure(position, |p| &p.net_pnl);
        assert_eq!(position.reference_net_pnl().unwrap(), net);
        // The hedge position says its direction; the one-way one does not, and was long.
        let direction = position.direction().unwrap_or(Direction::Long);
        assert_eq!(position.reference_gross_pnl(direction).unwrap(), gross);
        let other = match direction {
            Direction::Long => Direction::Short,
            Direction::Short => Direction::Long,
        };
        assert_ne!(position.reference_gross_pnl(other).unwrap(), gross);
    }
    assert_eq!(closed[0].direction(), Some(Direction::Long));
    assert_eq!(closed[1].direction(), None);

    // The second example from its fills: 1.5 ETH bought at 2500 and sold at 2450, fees
    // 7.425 in all, funding of 0.8 paid.
    let mut ledger = PnlLedger::new(Direction::Long);
    ledger.increase(d("1.5"), d("2500"), d("3.75")).unwrap();
    ledger.funding(d("-0.8")).unwrap();
    ledger.reduce(d("1.5"), d("2450"), d("3.675")).unwrap();
    let summary = ledger.summary().unwrap();
    assert_eq!(
        (
            summary.avg_entry_price,
            summary.avg_exit_price,
            summary.closed_size,
            summary.total_trade_fee,
            summary.total_funding,
            summary.gross_pnl,
            summary.net_pnl
        ),
        (
            Some(d("2500")),
            Some(d("2450")),
            d("1.5"),
            d("7.425"),
            d("0.8"),
            d("-82.425"),
            d("-83.225")
        )
    );
    assert_eq!(ledger.open_size(), Decimal::ZERO);
}

#[test]
fn a_ledger_refuses_what_cannot_be_a_fill() {
    let mut ledger = PnlLedger::new(Direction::Short);
    ledger.increase(d("1"), d("100"), d("0")).unwrap();
    let before = ledger.clone();
    assert_eq!(
        ledger.reduce(d("1.5"), d("90"), d("0")),
        Err(ReferenceError::MoreThanOpen {
            open: d("1"),
            reduce: d("1.5")
        })
    );
    assert_eq!(
        ledger.increase(d("0"), d("1"), d("0")),
        Err(ReferenceError::NotPositive("amount"))
    );
    assert_eq!(
        ledger.increase(d("1"), d("-1"), d("0")),
        Err(ReferenceError::NotPositive("price"))
    );
    assert_eq!(
        ledger.increase(Decimal::MAX, Decimal::MAX, d("0")),
        Err(ReferenceError::Overflow)
    );
    assert_eq!(ledger, before, "a refused fill changes nothing");
    assert_eq!(
        funding::payment(Decimal::MAX, Decimal::MAX, d("1")),
        Err(ReferenceError::Overflow)
    );
    // A price trimmed to the money precision is cut, not rounded.
    ledger.reduce(d("0.3"), d("90.129"), d("0")).unwrap();
    ledger.reduce(d("0.7"), d("90"), d("0")).unwrap();
    let summary = ledger.summary().unwrap().trimmed(2);
    assert_eq!(summary.avg_exit_price, Some(d("90.03")));
}

/// A decimal of up to `digits` digits and `scale` places, from its parts.
fn decimal(mantissa: i64, scale: u32) -> Decimal {
    Decimal::new(mantissa, scale)
}

fn amount() -> impl Strategy<Value = Decimal> {
    (1i64..10_000_000, 0u32..=6).prop_map(|(m, s)| decimal(m, s))
}

fn price() -> impl Strategy<Value = Decimal> {
    (1i64..100_000_000, 0u32..=4).prop_map(|(m, s)| decimal(m, s))
}

fn fee() -> impl Strategy<Value = Decimal> {
    (0i64..1_000_000, 0u32..=6).prop_map(|(m, s)| decimal(m, s))
}

fn rate() -> impl Strategy<Value = Decimal> {
    (-3_000_000i64..3_000_000, 8u32..=18).prop_map(|(m, s)| decimal(m, s))
}

fn flip(direction: Direction) -> Direction {
    match direction {
        Direction::Long => Direction::Short,
        Direction::Short => Direction::Long,
    }
}

proptest! {
    /// The payment changes sign with the position's side and with the rate; a positive rate
    /// makes a long pay; no rate or no position, no payment.
    #[test]
    fn funding_is_sign_symmetric(size in amount(), price in price(), rate in rate()) {
        let long = funding::payment(funding::signed_amount(size, PositionSide::Long), price, rate).unwrap();
        let short = funding::payment(funding::signed_amount(size, PositionSide::Short), price, rate).unwrap();
        prop_assert_eq!(long, -short);
        prop_assert_eq!(funding::payment(size, price, -rate).unwrap(), -long);
        prop_assert_eq!(long.is_sign_negative() && !long.is_zero(), rate > Decimal::ZERO);
        prop_assert!(funding::payment(size, price, Decimal::ZERO).unwrap().is_zero());
        prop_assert!(funding::payment(Decimal::ZERO, price, rate).unwrap().is_zero());
        // A one-way position's amount keeps its own sign.
        prop_assert_eq!(funding::signed_amount(-size, PositionSide::Both), -size);
    }

    /// The payment is linear in the position's amount (two positions pay what one of their
    /// sum pays) and in the price.
    #[test]
    fn funding_is_linear(a in amount(), b in amount(), price in price(), rate in rate(), k in 1i64..1_000) {
        let pay = |size, price| funding::payment(size, price, rate).unwrap();
        prop_assert_eq!(pay(a + b, price), pay(a, price) + pay(b, price));
        prop_assert_eq!(pay(a, price * Decimal::from(k)), pay(a, price) * Decimal::from(k));
    }

    /// A figure agrees with the exact one written to its places, rounded or cut; one unit
    /// off does not.
    #[test]
    fn agreement_is_to_the_reported_places(exact in (-1_000_000_000_000i64..1_000_000_000_000, 6u32..=12).prop_map(|(m, s)| decimal(m, s)), places in 0u32..=6) {
        let cut = exact.trunc_with_scale(places);
        let rounded = exact.round_dp(places);
        prop_assert!(funding::agrees(cut, exact));
        prop_assert!(funding::agrees(rounded, exact));
        let unit = Decimal::new(1, places);
        prop_assert!(!funding::agrees(cut + unit + unit, exact));
    }

    /// A closed position's aggregates, from its fills: averages are the volume-weighted
    /// prices, the closed size the reducing fills' sum, the gross PnL the fills' value
    /// difference (signed by direction) less every fee, the net PnL that less the funding
    /// paid; one entry and one exit agree with the formula on the averages.
    #[test]
    fn a_closed_position_adds_up(
        entries in proptest::collection::vec((amount(), price(), fee()), 1..5),
        exit_price in price(),
        exit_fee in fee(),
        funding_received in proptest::collection::vec(rate(), 0..4),
        long in any::<bool>(),
    ) {
        let direction = if long { Direction::Long } else { Direction::Short };
        let mut ledger = PnlLedger::new(direction);
        let (mut size, mut value, mut fees) = (Decimal::ZERO, Decimal::ZERO, exit_fee);
        for (amount, price, fee) in &entries {
            ledger.increase(*amount, *price, *fee).unwrap();
            size += amount;
            value += amount * price;
            fees += fee;
        }
        let mut paid = Decimal::ZERO;
        for received in &funding_received {
            ledger.funding(*received).unwrap();
            paid -= received;
        }
        ledger.reduce(size, exit_price, exit_fee).unwrap();
        let summary = ledger.summary().unwrap();
        prop_assert_eq!(ledger.open_size(), Decimal::ZERO);
        prop_assert_eq!(summary.closed_size, size);
        prop_assert_eq!(summary.total_trade_fee, fees);
        prop_assert_eq!(summary.total_funding, paid);
        prop_assert_eq!(summary.avg_exit_price, Some(exit_price));
        prop_assert_eq!(summary.gross_pnl, direction.sign() * (size * exit_price - value) - fees);
        prop_assert_eq!(summary.net_pnl, summary.gross_pnl - paid);
        if entries.len() == 1 {
            let (_, entry_price, _) = entries[0];
            prop_assert_eq!(summary.avg_entry_price, Some(entry_price));
            prop_assert_eq!(
                pnl::gross_pnl(direction, size, entry_price, exit_price, fees).unwrap(),
                summary.gross_pnl
            );
        }
    }

    /// The same fills make opposite price PnLs for a long and a short (the fees count
    /// against both); splitting a fill in two at its price changes nothing; scaling every
    /// amount scales the fee-less PnL.
    #[test]
    fn pnl_is_symmetric_and_linear(
        amount in amount(),
        entry in price(),
        exit in price(),
        fee in fee(),
        split in 1u32..100,
        k in 1i64..1_000,
        long in any::<bool>(),
    ) {
        let direction = if long { Direction::Long } else { Direction::Short };
        let closed = |direction, fills: &[(Decimal, Decimal)], scale: Decimal, fee: Decimal| {
            let mut ledger = PnlLedger::new(direction);
            ledger.increase(amount * scale, entry, fee).unwrap();
            for (part, price) in fills {
                ledger.reduce(*part * scale, *price, Decimal::ZERO).unwrap();
            }
            ledger.summary().unwrap()
        };
        let whole = closed(direction, &[(amount, exit)], Decimal::ONE, fee);
        let mirrored = closed(flip(direction), &[(amount, exit)], Decimal::ONE, fee);
        prop_assert_eq!(whole.gross_pnl + mirrored.gross_pnl, -(fee + fee));

        let first = amount * Decimal::new(i64::from(split), 2);
        if first < amount {
            let parts = closed(direction, &[(first, exit), (amount - first, exit)], Decimal::ONE, fee);
            prop_assert_eq!(parts.gross_pnl, whole.gross_pnl);
            prop_assert_eq!(parts.avg_exit_price, whole.avg_exit_price);
            prop_assert_eq!(parts.closed_size, whole.closed_size);
        }

        let one = closed(direction, &[(amount, exit)], Decimal::ONE, Decimal::ZERO);
        let many = closed(direction, &[(amount, exit)], Decimal::from(k), Decimal::ZERO);
        prop_assert_eq!(many.gross_pnl, one.gross_pnl * Decimal::from(k));
    }
}
