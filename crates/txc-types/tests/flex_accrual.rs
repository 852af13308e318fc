//! The reference arithmetic of a flex investment's accrual (`investments::flex::accrual`):
//! a day's earning is the exact figure cut to 8 places, money earns only for whole days it
//! stayed invested, reinvesting compounds, and every amount is accounted for.

#![cfg(feature = "decimal")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use rust_decimal::Decimal;
use txc_types::investments::flex::FlexPlan;
use txc_types::investments::flex::accrual::{
    DAYS_PER_YEAR, EARNING_PLACES, FlexLedger, daily_earning, earnings,
};
use txc_types::positions::ReferenceError;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

/// The smallest step of an earning.
fn step() -> Decimal {
    Decimal::new(1, EARNING_PLACES)
}

#[test]
fn known_figures() {
    // The spec's example plans: 15 % and 12 % a year.
    assert_eq!(daily_earning(d("1000"), d("0.15")).unwrap(), d("0.4109589"));
    assert_eq!(daily_earning(d("1"), d("0.12")).unwrap(), d("0.00032876"));
    assert_eq!(
        daily_earning(d("0.001"), d("0.12")).unwrap(),
        d("0.00000032")
    );
    assert_eq!(
        daily_earning(d("1000"), Decimal::ZERO).unwrap(),
        Decimal::ZERO
    );
    // A year of simple interest falls short of the rate by the cut days.
    let year = earnings(d("1000"), d("0.15"), DAYS_PER_YEAR, false).unwrap();
    assert_eq!(year, d("149.9999985"));
    // Compounded daily it earns more.
    let compounded = earnings(d("1000"), d("0.15"), DAYS_PER_YEAR, true).unwrap();
    assert!(
        compounded > d("161.7") && compounded < d("161.9"),
        "{compounded}"
    );
    // The plan's own rate.
    let plan: FlexPlan = serde_json::from_str(
        r#"{"id":"p","ticker":"USDT","minInvestment":"10","maxInvestment":"1000","maxRate":"0.15"}"#,
    )
    .unwrap();
    let mut ledger = plan.ledger().unwrap();
    assert_eq!(ledger.annual_rate(), d("0.15"));
    ledger.invest(d("1000")).unwrap();
    ledger.end_day().unwrap();
    assert_eq!(ledger.end_day().unwrap().earning, d("0.4109589"));
}

#[test]
fn a_ledger_refuses_what_cannot_happen() {
    assert_eq!(
        daily_earning(d("-1"), d("0.1")),
        Err(ReferenceError::Negative("principal"))
    );
    assert_eq!(
        FlexLedger::new(d("-0.1")).unwrap_err(),
        ReferenceError::Negative("rate")
    );
    let mut ledger = FlexLedger::new(d("0.1")).unwrap();
    assert_eq!(
        ledger.invest(Decimal::ZERO),
        Err(ReferenceError::NotPositive("amount"))
    );
    ledger.invest(d("5")).unwrap();
    assert_eq!(
        ledger.withdraw(d("6")),
        Err(ReferenceError::MoreThanInvested {
            invested: d("5"),
            withdraw: d("6")
        })
    );
    assert_eq!(
        daily_earning(Decimal::MAX, Decimal::MAX),
        Err(ReferenceError::Overflow)
    );
    // Closing pays back what is invested; a closed investment earns nothing.
    assert_eq!(ledger.close(), d("5"));
    assert!(!ledger.is_open());
    assert_eq!(ledger.end_day().unwrap().earning, Decimal::ZERO);
}

fn principal() -> impl Strategy<Value = Decimal> {
    (0i64..10_000_000_000, 0u32..=8).prop_map(|(m, s)| Decimal::new(m, s))
}

fn positive() -> impl Strategy<Value = Decimal> {
    (1i64..1_000_000_000, 0u32..=6).prop_map(|(m, s)| Decimal::new(m, s))
}

fn rate() -> impl Strategy<Value = Decimal> {
    (0i64..=2_000_000, 4u32..=6).prop_map(|(m, s)| Decimal::new(m, s))
}

/// An operation on a ledger during a day.
#[derive(Debug, Clone)]
enum Op {
    Invest(Decimal),
    Withdraw(Decimal),
    Reinvest(bool),
    Close,
    EndDay,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        positive().prop_map(Op::Invest),
        positive().prop_map(Op::Withdraw),
        any::<bool>().prop_map(Op::Reinvest),
        Just(Op::Close),
        Just(Op::EndDay),
        Just(Op::EndDay),
    ]
}

proptest! {
    /// A day's earning is the exact figure cut to 8 places: never above it, less than a step
    /// below it, never negative.
    #[test]
    fn a_days_earning_is_the_exact_figure_cut(p in principal(), r in rate()) {
        let earning = daily_earning(p, r).unwrap();
        let exact = p * r / Decimal::from(DAYS_PER_YEAR);
        prop_assert!(earning >= Decimal::ZERO);
        prop_assert!(earning <= exact);
        prop_assert!(exact - earning < step());
        prop_assert!(earning.scale() <= EARNING_PLACES);
    }

    /// Splitting an investment never earns more, and at most a step less per part.
    #[test]
    fn splitting_never_earns_more(a in principal(), b in principal(), r in rate()) {
        let whole = daily_earning(a + b, r).unwrap();
        let parts = daily_earning(a, r).unwrap() + daily_earning(b, r).unwrap();
        prop_assert!(parts <= whole);
        prop_assert!(whole - parts <= step() * Decimal::TWO);
    }

    /// Reinvesting compounds: it never earns less than paying out, and paying out earns the
    /// same every day.
    #[test]
    fn reinvesting_compounds(p in positive(), r in rate(), days in 0u32..60) {
        let simple = earnings(p, r, days, false).unwrap();
        let compounded = earnings(p, r, days, true).unwrap();
        prop_assert_eq!(simple, daily_earning(p, r).unwrap() * Decimal::from(days));
        prop_assert!(compounded >= simple);
    }

    /// Any sequence of operations: money invested during a day earns nothing that day, a
    /// withdrawal lowers the day's principal at once, and every amount is accounted for —
    /// what went in plus what was earned is what is invested, was withdrawn, paid back or
    /// paid out. Nothing panics.
    #[test]
    fn every_amount_is_accounted_for(r in rate(), ops in proptest::collection::vec(op(), 0..40)) {
        let mut ledger = FlexLedger::new(r).unwrap();
        let (mut put_in, mut taken_out) = (Decimal::ZERO, Decimal::ZERO);
        // The least invested since the day began, tracked independently.
        let mut floor = Decimal::ZERO;
        for op in ops {
            match op {
                Op::Invest(a) => {
                    ledger.invest(a).unwrap();
                    put_in += a;
                }
                Op::Withdraw(a) => match ledger.withdraw(a) {
                    Ok(()) => {
                        taken_out += a;
                        floor = floor.min(ledger.invested());
                    }
                    Err(e) => {
                        let more = matches!(e, ReferenceError::MoreThanInvested { .. });
                        prop_assert!(more && a > ledger.invested(), "{:?}", e);
                    }
                },
                Op::Reinvest(on) => ledger.set_reinvest(on),
                Op::Close => {
                    taken_out += ledger.close();
                    floor = Decimal::ZERO;
                }
                Op::EndDay => {
                    let open = ledger.is_open();
                    let before = ledger.invested();
                    let day = ledger.end_day().unwrap();
                    let expected = if open { daily_earning(floor, r).unwrap() } else { Decimal::ZERO };
                    prop_assert_eq!(day.earning, expected);
                    prop_assert_eq!(day.reinvested, ledger.reinvests() && !expected.is_zero());
                    let grown = if day.reinvested { before + day.earning } else { before };
                    prop_assert_eq!(ledger.invested(), grown);
                    floor = ledger.invested();
                }
            }
        }
        prop_assert_eq!(
            put_in + ledger.earned(),
            ledger.invested() + taken_out + ledger.paid_out()
        );
    }
}
