//! Flexible lending (the spec's "Crypto Lending - Flex") against the exchange's spec: every
//! documented answer decodes (snapshots pin what to), the builders make the spec's request
//! examples, every body they make conforms to the spec's request schema, the pages follow
//! each list's rules, and the bound checks refuse exactly at each bound's edge, naming it.
//!
//! The fixtures are the spec's examples and its request schemas' facts, copied into the
//! repository.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::{assert_conforms, conforms, flex_requests, schemas};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use txc_types::endpoint::{
    Acknowledged, ENDPOINT_PATHS, Endpoint, EndpointKind, MAIN_ACCOUNT_SCOPE, RateLimit,
};
use txc_types::errors::{Bound, Reason, ValidationError};
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexAction, FlexHistoryPage, FlexHistoryQuery, FlexInvest, FlexInvestment,
    FlexInvestmentStatus, FlexInvestmentsPage, FlexInvestmentsQuery, FlexPaymentsQuery, FlexPlan,
    FlexPlansQuery, FlexTransaction, FlexWithdraw, SetFlexAutoInvest,
};
use txc_types::paging::{OffsetCap, PageCursor, Paged};
use txc_types::values::Amount;

use common::flex_requests::PLAN;

fn decode<T: DeserializeOwned>(name: &str, text: &str) -> T {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// An answer read from JSON text, as from the wire (answers read text, not `Value`s).
fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, serde_json::Error> {
    serde_json::from_str(&value.to_string())
}

fn body<T: serde::Serialize>(request: &T) -> Value {
    serde_json::to_value(request).unwrap()
}

/// A plan of `min` to `max` at 15 %, with a status when given.
fn plan(min: &str, max: &str, status: Option<i64>) -> FlexPlan {
    let mut plan = json!({"id": PLAN, "ticker": "USDT", "minInvestment": min,
        "maxInvestment": max, "maxRate": "0.15"});
    if let Some(status) = status {
        plan["status"] = json!(status);
    }
    from_json(plan).unwrap()
}

/// The account's investment in [`PLAN`] holding `invested`, active or closed.
fn investment(invested: &str, active: bool) -> FlexInvestment {
    from_json(json!({"id": "inv_1", "planId": PLAN, "currency": "USDT",
        "invested": invested, "withAutoReinvest": false, "status": i32::from(active),
        "createdAt": 1_640_995_200, "updatedAt": 1_641_081_600}))
    .unwrap()
}

fn amount(text: &str) -> Amount {
    Amount::new(text).unwrap()
}

#[test]
fn documented_answers_decode() {
    let plans: Vec<FlexPlan> = decode("plans", include_str!("fixtures/flex_plans_documented.json"));
    assert_eq!(
        plans
            .iter()
            .map(|p| (
                p.ticker.as_str(),
                p.min_investment.as_str(),
                p.max_rate.as_str()
            ))
            .collect::<Vec<_>>(),
        [("USDT", "10.0", "0.15"), ("BTC", "0.001", "0.12")]
    );
    assert!(plans.iter().all(|p| p.extra.is_empty() && p.is_active()));
    insta::assert_debug_snapshot!("flex_plans_documented", plans);

    let investments: FlexInvestmentsPage = decode(
        "investments",
        include_str!("fixtures/flex_investments_documented.json"),
    );
    let i = &investments.data[0];
    assert_eq!(
        (
            i.invested.as_str(),
            i.status,
            i.with_auto_reinvest,
            i.created_at.unix_seconds()
        ),
        ("1500.75", FlexInvestmentStatus::Active, true, 1_640_995_200)
    );
    assert!(investments.extra.is_empty() && i.extra.is_empty());
    insta::assert_debug_snapshot!("flex_investments_documented", investments);

    for (name, text, action) in [
        (
            "history",
            include_str!("fixtures/flex_history_documented.json"),
            FlexAction::Invest,
        ),
        (
            "payments",
            include_str!("fixtures/flex_payments_documented.json"),
            FlexAction::DailyEarning,
        ),
    ] {
        let page: FlexHistoryPage = decode(name, text);
        let r = &page.data[0];
        assert_eq!(
            (r.action_type, r.amount.as_str(), r.transaction_id.as_str()),
            (action, "15.75", "tx_9f3e0d4c-2b5c-4d3e-8f6g-7a8b9c0d1e2f")
        );
        assert!(page.extra.is_empty() && r.extra.is_empty());
        assert_eq!((page.limit, page.offset), (Some(50), Some(0)));
        insta::assert_debug_snapshot!(format!("flex_{name}_documented"), page);
    }

    for name in ["invest", "withdraw", "close"] {
        let text = match name {
            "invest" => include_str!("fixtures/flex_invest_documented.json"),
            "withdraw" => include_str!("fixtures/flex_withdraw_documented.json"),
            _ => include_str!("fixtures/flex_close_documented.json"),
        };
        let t: FlexTransaction = decode(name, text);
        assert_eq!(
            t.transaction_id(),
            "tx_9f3e0d4c-2b5c-4d3e-8f6g-7a8b9c0d1e2f"
        );
        assert!(t.extra.is_empty() && t.data.extra.is_empty());
        // Written back in the exchange's shape, it reads back the same.
        assert_eq!(decode::<FlexTransaction>(name, &body(&t).to_string()), t);
    }
    let set: Acknowledged = decode(
        "auto-invest",
        include_str!("fixtures/flex_auto_invest_documented.json"),
    );
    assert_eq!(set.body, Some(json!({"data": []})));
}

#[test]
fn answers_keep_what_they_cannot_read() {
    // An unknown action and status are kept as their codes; figures as numbers are read.
    let page: FlexHistoryPage = decode(
        "history",
        r#"{"data":[{"createdAt":"1640995200","planId":"p","investmentId":"i","currency":"USDT",
            "amount":15.75,"transaction_id":"tx","actionType":9,"fee":"0"}],"limit":50,"offset":0}"#,
    );
    let r = &page.data[0];
    assert_eq!(
        (r.action_type, r.amount.as_str()),
        (FlexAction::Other(9), "15.75")
    );
    assert_eq!(r.extra["fee"], "0");
    let closed: FlexInvestment = decode(
        "investment",
        r#"{"id":"i","planId":"p","currency":"USDT","invested":"0","withAutoReinvest":false,
            "status":0,"createdAt":1,"updatedAt":2}"#,
    );
    assert!(!closed.is_active());
    // A plan that carries a status is judged by it.
    let paused = plan("10", "100", Some(4));
    assert!(!paused.is_active());
    assert_eq!(
        paused.check_invest(&amount("50")).unwrap_err().field(),
        "plan"
    );
    // A page whose record lacks a required field fails whole; a transaction without data is
    // no transaction.
    assert!(serde_json::from_str::<FlexHistoryPage>(r#"{"data":[{"planId":"p"}]}"#).is_err());
    assert!(serde_json::from_str::<FlexTransaction>(r#"{"data":[]}"#).is_err());
}

#[test]
fn the_builders_make_the_specs_request_examples() {
    let d = flex_requests::documented_requests();
    for (path, request) in [
        (FlexPlansQuery::PATH, body(&d.plans)),
        (FlexInvestmentsQuery::PATH, body(&d.investments)),
        (FlexHistoryQuery::PATH, body(&d.history)),
        (FlexPaymentsQuery::PATH, body(&d.payments)),
        (FlexInvest::PATH, body(&d.invest)),
        (FlexWithdraw::PATH, body(&d.withdraw)),
        (CloseFlexInvestment::PATH, body(&d.close)),
        (SetFlexAutoInvest::PATH, body(&d.auto_invest)),
    ] {
        let documented = flex_requests::request_example(path);
        conforms(&schemas()[path], &documented, path).unwrap();
        assert_eq!(request, documented, "{path}");
    }
}

#[test]
fn every_body_the_builders_make_conforms_to_the_schema() {
    assert_conforms(&FlexPlansQuery::new());
    assert_conforms(&FlexInvestmentsQuery::new());
    assert_conforms(
        &FlexInvestmentsQuery::builder()
            .investment_status(FlexInvestmentStatus::Closed)
            .build()
            .unwrap(),
    );
    assert_conforms(&FlexHistoryQuery::new());
    assert_conforms(&FlexPaymentsQuery::new());
    assert_conforms(&FlexInvest::new(PLAN, "1").unwrap());
    assert_conforms(&FlexInvest::new(PLAN, "1").unwrap().with_reinvest(false));
    assert_conforms(&SetFlexAutoInvest::new(PLAN, false).unwrap());
    // What a cursor sends: the limit made explicit.
    assert_conforms(
        PageCursor::new(FlexPlansQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
    assert_conforms(
        PageCursor::new(FlexInvestmentsQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
    assert_conforms(
        PageCursor::new(FlexHistoryQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
    assert_conforms(
        PageCursor::new(FlexPaymentsQuery::new())
            .next_query()
            .unwrap()
            .unwrap(),
    );
}

#[test]
fn paths_kinds_limits_and_wire_bodies() {
    fn row<E: Endpoint>(request: &E, kind: EndpointKind) -> String {
        assert_eq!(E::KIND, kind, "{}", E::PATH);
        assert_eq!(
            E::RATE_LIMIT,
            Some(RateLimit::new(1_000, 10)),
            "{}",
            E::PATH
        );
        assert_eq!(E::RATE_LIMIT_SCOPE, MAIN_ACCOUNT_SCOPE, "{}", E::PATH);
        assert_eq!(ENDPOINT_PATHS.iter().filter(|p| **p == E::PATH).count(), 1);
        assert!(schemas()[E::PATH].is_object(), "{} has a schema", E::PATH);
        format!("{} {}", E::PATH, serde_json::to_string(request).unwrap())
    }
    let read = EndpointKind::Read;
    let rows = [
        row(&FlexPlansQuery::new(), read),
        row(&FlexInvestmentsQuery::new(), read),
        row(&FlexHistoryQuery::new(), read),
        row(&FlexPaymentsQuery::new(), read),
        row(&FlexInvest::new(PLAN, "10").unwrap(), EndpointKind::Order),
        row(&FlexWithdraw::new(PLAN, "10").unwrap(), EndpointKind::Order),
        row(
            &CloseFlexInvestment::new(PLAN).unwrap(),
            EndpointKind::Order,
        ),
        row(
            &SetFlexAutoInvest::new(PLAN, false).unwrap(),
            EndpointKind::Idempotent,
        ),
    ];
    insta::assert_snapshot!(rows.join("\n"));
    assert_eq!(
        (
            FlexPlansQuery::max_limit(),
            <FlexPlansQuery as Paged>::DEFAULT_LIMIT
        ),
        (100, Some(100))
    );
    assert_eq!(<FlexInvestmentsQuery as Paged>::DEFAULT_LIMIT, Some(100));
    assert_eq!(<FlexHistoryQuery as Paged>::DEFAULT_LIMIT, Some(50));
    assert_eq!(<FlexPaymentsQuery as Paged>::DEFAULT_LIMIT, Some(50));
    assert_eq!(FlexPlansQuery::offset_cap(), OffsetCap::Unbounded);
    assert_eq!(FlexHistoryQuery::offset_cap(), OffsetCap::Unbounded);
}

#[test]
fn a_cursor_reads_each_list_whole() {
    // 120 records of the history, newest first: three pages of 50 with the cursor's overlap.
    let record = |n: u32| {
        json!({"createdAt": 1_640_995_200 + n, "planId": PLAN, "investmentId": "inv",
            "currency": "USDT", "amount": "1", "transaction_id": format!("tx_{n}"),
            "actionType": 4})
    };
    let list: Vec<Value> = (0..120).rev().map(record).collect();
    let mut cursor = PageCursor::new(FlexPaymentsQuery::new());
    let mut read = Vec::new();
    while let Some(query) = cursor.next_query().unwrap() {
        let (from, limit) = (
            query.page_offset() as usize,
            query.page_limit().unwrap() as usize,
        );
        let page = json!({"data": list.iter().skip(from).take(limit).collect::<Vec<_>>(),
            "limit": limit, "offset": from});
        read.extend(cursor.accept(from_json(page).unwrap()).unwrap());
    }
    assert_eq!(read.len(), 120);
    assert!(cursor.is_finished());
    // Plans are a bare array.
    let plans: Vec<FlexPlan> = (0..3)
        .map(|n| {
            let mut p = plan("1", "100", None);
            p.id = format!("plan-{n}");
            p
        })
        .collect();
    let mut cursor = PageCursor::new(FlexPlansQuery::new());
    assert_eq!(cursor.accept(plans).unwrap().len(), 3);
    assert!(cursor.is_finished());
}

#[test]
fn the_bounds_are_refused_exactly_at_their_edges() {
    let bounds = |e: ValidationError| match e {
        ValidationError::OutOfBounds { bound, limit, .. } => (bound, limit),
        other => panic!("not a bound: {other}"),
    };
    let p = plan("10", "1000", None);
    assert!(p.check_invest(&amount("10")).is_ok());
    assert!(p.check_invest(&amount("1000")).is_ok());
    assert_eq!(
        bounds(p.check_invest(&amount("9.999999")).unwrap_err()),
        (Bound::MinInvestment, "10".to_owned())
    );
    assert_eq!(
        bounds(p.check_invest(&amount("1000.000001")).unwrap_err()),
        (Bound::MaxInvestment, "1000".to_owned())
    );
    // Seven places are refused before any bound.
    assert_eq!(
        p.check_invest(&amount("10.0000001")).unwrap_err(),
        ValidationError::InvalidField {
            field: "amount",
            reason: Reason::Format(
                "must have at most 6 decimal places (the smallest amount is 0.000001)"
            ),
        }
    );
    // A top-up: the investment holds at most maxInvestment together; a closed one reopens.
    let held = investment("600", true);
    assert!(p.check_top_up(&amount("400"), &held).is_ok());
    assert_eq!(
        bounds(p.check_top_up(&amount("400.000001"), &held).unwrap_err()),
        (Bound::InvestmentLimit, "400".to_owned())
    );
    assert!(
        p.check_top_up(&amount("1000"), &investment("0", false))
            .is_ok()
    );
    // A withdrawal: at most what is invested, leaving at least minInvestment.
    assert!(p.check_withdraw(&amount("590"), &held).is_ok());
    assert_eq!(
        bounds(p.check_withdraw(&amount("590.000001"), &held).unwrap_err()),
        (Bound::MinAmountLeft, "590".to_owned())
    );
    assert_eq!(
        bounds(p.check_withdraw(&amount("600.000001"), &held).unwrap_err()),
        (Bound::Invested, "600".to_owned())
    );
    let closed = p.check_withdraw(&amount("1"), &investment("0", false));
    assert_eq!(closed.unwrap_err().field(), "investment");
    // The message names the bound and its figure.
    let message = p
        .check_withdraw(&amount("595"), &held)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("minAmountLeft") && message.contains("590"),
        "{message}"
    );
    // Another plan's investment is no investment of this plan.
    let other = plan("10", "1000", None);
    let mut elsewhere = investment("600", true);
    elsewhere.plan_id = "another".to_owned();
    assert_eq!(
        other
            .check_withdraw(&amount("1"), &elsewhere)
            .unwrap_err()
            .field(),
        "plan"
    );
    // The constructors run the same checks.
    assert!(FlexInvest::in_plan(&p, "9").is_err());
    assert!(FlexInvest::top_up(&p, &held, "401").is_err());
    assert!(FlexWithdraw::from_investment(&p, &held, "591").is_err());
    let w = FlexWithdraw::from_investment(&p, &held, "590").unwrap();
    assert_eq!(body(&w), json!({"plan": PLAN, "amount": "590"}));
}

/// Amounts in the tests below are whole micro-units (0.000001, the smallest step): exact
/// integer arithmetic, written as plain decimals.
fn text(micro: u128) -> String {
    let (int, frac) = (micro / 1_000_000, micro % 1_000_000);
    if frac == 0 {
        int.to_string()
    } else {
        format!("{int}.{frac:06}").trim_end_matches('0').to_owned()
    }
}

/// A plain decimal of at most 6 places, in micro-units.
fn micro(text: &str) -> u128 {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    assert!(frac.len() <= 6, "{text}");
    format!("{int}{frac:0<6}").parse().unwrap()
}

/// A positive amount of up to 6 places (some written with fewer), in micro-units.
fn an_amount() -> impl Strategy<Value = u128> {
    (1u128..=2_000_000_000, 0u32..=6).prop_map(|(m, places)| m * 10u128.pow(6 - places))
}

proptest! {
    /// Every bound of an investment, a top-up and a withdrawal is refused exactly past its
    /// edge and accepted at it, naming the bound and its figure; nothing panics.
    #[test]
    fn the_bound_checks_agree_with_exact_arithmetic(
        min in an_amount(),
        span in an_amount(),
        invested in an_amount(),
        value in an_amount(),
        status in proptest::option::of(0i64..6),
    ) {
        let max = min + span;
        let p = plan(&text(min), &text(max), status);
        let a = amount(&text(value));
        let active = status.is_none_or(|s| s == 1);
        let expected = if !active {
            Err("plan")
        } else if value < min {
            Err("minInvestment")
        } else if value > max {
            Err("maxInvestment")
        } else {
            Ok(())
        };
        let name = |r: Result<(), ValidationError>| r.map_err(|e| match e {
            ValidationError::OutOfBounds { bound, limit, .. } => {
                // The figure named is the plan's own text, or the exact difference.
                let _ = micro(&limit);
                bound.as_str()
            }
            other => other.field(),
        });
        prop_assert_eq!(name(p.check_invest(&a)), expected);

        let held = investment(&text(invested), true);
        let top_up = expected.and_then(|()| if value + invested > max { Err("investmentLimit") } else { Ok(()) });
        prop_assert_eq!(name(p.check_top_up(&a, &held)), top_up);

        let withdraw = if !active {
            Err("plan")
        } else if value > invested {
            Err("invested")
        } else if invested - value < min {
            Err("minAmountLeft")
        } else {
            Ok(())
        };
        prop_assert_eq!(name(p.check_withdraw(&a, &held)), withdraw);
    }

    /// The edges themselves: the bound's figure passes, one step (0.000001) past it does not,
    /// and the refusal's limit is the figure.
    #[test]
    fn each_bound_holds_at_its_figure(min in 1u128..1_000_000_000_000, span in 0u128..1_000_000_000_000) {
        let (lo, hi) = (min, min + span);
        let p = plan(&text(lo), &text(hi), Some(1));
        let limit_of = |e: ValidationError| match e {
            ValidationError::OutOfBounds { bound, limit, .. } => (bound, micro(&limit)),
            other => panic!("{other}"),
        };
        prop_assert!(p.check_invest(&amount(&text(lo))).is_ok());
        prop_assert!(p.check_invest(&amount(&text(hi))).is_ok());
        if lo > 1 {
            let e = p.check_invest(&amount(&text(lo - 1))).unwrap_err();
            prop_assert_eq!(limit_of(e), (Bound::MinInvestment, lo));
        }
        let e = p.check_invest(&amount(&text(hi + 1))).unwrap_err();
        prop_assert_eq!(limit_of(e), (Bound::MaxInvestment, hi));
        // Withdrawing all but the minimum is the most a withdrawal takes.
        let held = investment(&text(hi), true);
        let most = hi - lo;
        if most > 0 {
            prop_assert!(p.check_withdraw(&amount(&text(most)), &held).is_ok());
        }
        let e = p.check_withdraw(&amount(&text(most + 1)), &held).unwrap_err();
        prop_assert_eq!(limit_of(e), (Bound::MinAmountLeft, most));
        // A top-up fills the investment exactly to the maximum.
        let part = investment(&text(lo), true);
        if span >= lo {
            prop_assert!(p.check_top_up(&amount(&text(hi - lo)), &part).is_ok());
            let e = p.check_top_up(&amount(&text(hi - lo + 1)), &part).unwrap_err();
            prop_assert_eq!(limit_of(e), (Bound::InvestmentLimit, hi - lo));
        }
    }

    /// Figures the exchange might send malformed never panic a check: a bound that cannot be
    /// read is left to the exchange.
    #[test]
    fn malformed_figures_never_panic(figure in "\\PC{0,12}", value in an_amount()) {
        let p: Result<FlexPlan, _> = from_json(json!({"id": PLAN, "ticker": "USDT",
            "minInvestment": figure, "maxInvestment": figure, "maxRate": figure}));
        let value = text(value);
        if let Ok(p) = p {
            let _ = p.check_invest(&amount(&value));
            let _ = p.check_top_up(&amount(&value), &investment(&figure, true));
            let _ = p.check_withdraw(&amount(&value), &investment(&value, true));
        }
    }

    /// The pages: the plans' `limit` 1 to 100, the others' any positive one; any offset.
    #[test]
    fn pages_are_checked_at_their_edges(limit in prop_oneof![0u64..=120, any::<u64>()], offset in any::<u64>()) {
        let plans = FlexPlansQuery::builder().limit(limit).offset(offset).build();
        match plans {
            Ok(q) => {
                prop_assert!((1..=100).contains(&limit));
                prop_assert_eq!((q.limit(), q.offset()), (Some(limit), Some(offset)));
            }
            Err(e) => prop_assert_eq!(e, ValidationError::InvalidField {
                field: "limit", reason: Reason::OutOfRange { min: 1, max: 100 },
            }),
        }
        let history = FlexHistoryQuery::builder().limit(limit).offset(offset).build();
        prop_assert_eq!(history.is_ok(), limit >= 1);
        let investments = FlexInvestmentsQuery::builder().limit(limit).offset(offset).build();
        prop_assert_eq!(investments.is_ok(), limit >= 1);
        if let Ok(q) = FlexPaymentsQuery::builder().limit(limit).offset(offset).build() {
            prop_assert!(limit >= 1);
            prop_assert_eq!(q.page_after(&FlexHistoryPage::default_page()).unwrap(), None);
        }
    }

    /// The history's actions: documented ones only, at least one, repeats dropped; the window
    /// in order.
    #[test]
    fn the_history_filters_are_checked(
        codes in proptest::collection::vec(0u64..9, 0..8),
        from in any::<u64>(),
        to in any::<u64>(),
    ) {
        let actions: Vec<FlexAction> = codes.iter().map(|c| FlexAction::from_code(*c)).collect();
        let built = FlexHistoryQuery::builder().action_types(actions).date_from(from).date_to(to).build();
        let known = !codes.is_empty() && codes.iter().all(|c| (1..=6).contains(c));
        match built {
            Ok(q) => {
                prop_assert!(known && from <= to);
                let sent: Vec<u64> = q.action_types().iter().map(|a| a.code()).collect();
                let mut distinct: Vec<u64> = Vec::new();
                for c in &codes {
                    if !distinct.contains(c) {
                        distinct.push(*c);
                    }
                }
                prop_assert_eq!(sent, distinct);
                assert_conforms(&q);
            }
            Err(e) => prop_assert_eq!(e.field(), if known { "dateTo" } else { "actionTypes" }),
        }
    }
}

/// What every list shares: an empty page.
trait EmptyPage {
    fn default_page() -> Self;
}

impl EmptyPage for FlexHistoryPage {
    fn default_page() -> Self {
        serde_json::from_str(r#"{"data":[]}"#).unwrap()
    }
}
