//! `POST /api/v4/main-account/smart/plans` over real HTTP: partner-only access, the ticker
//! filter, unknown tickers, and answers the SDK decodes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use txc_sandbox::{AccountConfig, Sandbox};
use txc_sign::{ApiErrorClass, decode};
use txc_types::{InvestmentPlan, PlanStatus, SmartPlansQuery};

fn query(ticker: &str) -> SmartPlansQuery {
    SmartPlansQuery::builder().ticker(ticker).build().unwrap()
}

#[test]
fn partner_gets_every_plan() {
    let sandbox = Sandbox::start().unwrap();
    let reply = send(&sandbox, PARTNER, &SmartPlansQuery::new(), true);
    insta::assert_json_snapshot!("all_plans", reply.snapshot());
    let plans = decode::<SmartPlansQuery>(reply.status, &reply.body).unwrap();
    assert_eq!(plans.len(), 6);
    let statuses: Vec<_> = plans.iter().filter_map(|p| p.status).collect();
    for status in [
        PlanStatus::Active,
        PlanStatus::NoCoinsLeft,
        PlanStatus::Inactive,
        PlanStatus::Pause,
    ] {
        assert!(statuses.contains(&status), "{status:?}");
    }
    assert!(
        plans.iter().all(|p| p.extra.is_empty()),
        "no field unknown to the SDK"
    );
    assert_eq!(sandbox.stats().plans_served, 1);
}

#[test]
fn filters_by_ticker() {
    let sandbox = Sandbox::start().unwrap();
    let count = |ticker: &str| {
        let reply = send(&sandbox, PARTNER, &query(ticker), true);
        assert_eq!(reply.status, 200, "{}", reply.text());
        let plans = decode::<SmartPlansQuery>(reply.status, &reply.body).unwrap();
        assert!(plans.iter().all(|p| p.ticker.as_deref() == Some(ticker)));
        plans.len()
    };
    assert_eq!(count("USDT"), 4);
    assert_eq!(count("BTC"), 2);
    // A known currency without plans: an empty list.
    assert_eq!(count("ETH"), 0);
}

#[test]
fn rejections() {
    let sandbox = Sandbox::start().unwrap();
    let reply = send(&sandbox, PARTNER, &query("DOGE"), true);
    insta::assert_json_snapshot!("unknown_ticker", reply.snapshot());
    let error = decode::<SmartPlansQuery>(reply.status, &reply.body).unwrap_err();
    assert_eq!(error.api().unwrap().class, ApiErrorClass::Validation);

    let reply = send_fields(&sandbox, PARTNER, PLANS_PATH, r#""ticker":"usdt""#);
    insta::assert_json_snapshot!("malformed_ticker", reply.snapshot());
    let reply = send_fields(&sandbox, PARTNER, PLANS_PATH, r#""ticker":7"#);
    insta::assert_json_snapshot!("ticker_not_a_string", reply.snapshot());

    let reply = send(&sandbox, REGULAR, &SmartPlansQuery::new(), true);
    insta::assert_json_snapshot!("not_a_partner", reply.snapshot());
    let error = decode::<SmartPlansQuery>(reply.status, &reply.body).unwrap_err();
    assert_eq!(error.api().unwrap().class, ApiErrorClass::Permission);
    assert_eq!(sandbox.stats().plans_served, 0);
}

#[test]
fn configured_plans() {
    let mut plan = InvestmentPlan::default();
    plan.id = Some("00000000-0000-4000-8000-000000000001".to_owned());
    plan.ticker = Some("SOL".to_owned());
    plan.status = Some(PlanStatus::Unknown(9));
    plan.duration_minutes = Some(60);
    let sandbox = Sandbox::builder()
        .clear_defaults()
        .account(AccountConfig::new("p", "s").partner(true))
        .plan(plan.clone())
        .start()
        .unwrap();
    let reply = send(&sandbox, ("p", "s"), &SmartPlansQuery::new(), true);
    let plans = decode::<SmartPlansQuery>(reply.status, &reply.body).unwrap();
    assert_eq!(plans, vec![plan]);
    assert_eq!(send(&sandbox, ("p", "s"), &query("SOL"), true).status, 200);
    assert_eq!(send(&sandbox, ("p", "s"), &query("USDT"), true).status, 400);
}
