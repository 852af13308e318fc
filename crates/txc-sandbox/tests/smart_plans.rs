//! `POST /api/v4/main-account/smart/plans` over real HTTP with hand-written bodies:
//! partner-only access, the docs' record shape, the ticker filter and its rules, configured
//! plans.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::*;
use serde_json::json;
use txc_sandbox::{AccountConfig, PlanConfig, Sandbox};

#[test]
fn partner_gets_every_plan() {
    let sandbox = Sandbox::start().unwrap();
    let reply = PLANS.send(&sandbox, PARTNER, "");
    insta::assert_json_snapshot!("all_plans", reply.snapshot());
    let list = reply.json();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 6);
    let statuses: Vec<i64> = list.iter().map(|p| p["status"].as_i64().unwrap()).collect();
    for status in 1..=4 {
        assert!(statuses.contains(&status), "{status}");
    }
    // The first is the docs' example, byte for byte.
    let docs = r#"{"id":"8e667b4a-0b71-4988-8af5-9474dbfaeb51","ticker":"USDT","status":1,"percent":"10","duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100","maxInvestment":"10000","maxPossibleInvestment":"3000"}"#;
    assert!(
        reply.text().starts_with(&format!("[{docs},")),
        "{}",
        reply.text()
    );
    assert_eq!(sandbox.stats().plans_served, 1);
}

#[test]
fn filters_by_ticker() {
    let sandbox = Sandbox::start().unwrap();
    let count = |ticker: &str| {
        let reply = PLANS.send(&sandbox, PARTNER, &format!(r#""ticker":"{ticker}""#));
        assert_eq!(reply.status, 200, "{}", reply.text());
        let list = reply.json();
        let list = list.as_array().unwrap();
        assert!(list.iter().all(|p| p["ticker"] == ticker));
        list.len()
    };
    assert_eq!(count("USDT"), 4);
    assert_eq!(count("BTC"), 2);
    // A known currency without plans: an empty list.
    assert_eq!(count("ETH"), 0);
    // null is no filter.
    let reply = PLANS.send(&sandbox, PARTNER, r#""ticker":null"#);
    assert_eq!(reply.json().as_array().unwrap().len(), 6);
}

#[test]
fn rejections() {
    let sandbox = Sandbox::start().unwrap();
    for (name, account, fields) in [
        ("unknown_ticker", PARTNER, r#""ticker":"DOGE""#),
        ("lower_case_ticker", PARTNER, r#""ticker":"usdt""#),
        ("empty_ticker", PARTNER, r#""ticker":"""#),
        ("ticker_not_a_string", PARTNER, r#""ticker":7"#),
        ("not_a_partner", REGULAR, ""),
    ] {
        let reply = PLANS.send(&sandbox, account, fields);
        insta::assert_json_snapshot!(name, reply.snapshot());
    }
    let reply = PLANS.send(&sandbox, PARTNER, r#""ticker":"DOGE""#);
    assert_eq!(
        reply.json(),
        json!({"code":0,"message":"Validation failed","errors":{"ticker":["The selected ticker is invalid."]}}),
        "the docs' example"
    );
    let reply = PLANS.send(&sandbox, REGULAR, r#""ticker":7"#);
    assert_eq!(reply.status, 403, "access is checked first");
    assert_eq!(sandbox.stats().plans_served, 0);
}

#[test]
fn configured_plans() {
    let sandbox = Sandbox::builder()
        .clear_defaults()
        .account(AccountConfig::new("p", "s").partner(true))
        .plan(
            PlanConfig::new("00000000-0000-4000-8000-000000000001", "SOL")
                .status(9)
                .duration_minutes(60),
        )
        .start()
        .unwrap();
    let reply = PLANS.send(&sandbox, ("p", "s"), "");
    assert_eq!(
        reply.json(),
        json!([{"id":"00000000-0000-4000-8000-000000000001","ticker":"SOL","status":9,"percent":"0","duration":60,"interestTicker":"SOL","interestRatio":"1","minInvestment":"0","maxInvestment":"0","maxPossibleInvestment":"0"}])
    );
    assert_eq!(
        PLANS.send(&sandbox, ("p", "s"), r#""ticker":"SOL""#).status,
        200
    );
    assert_eq!(
        PLANS
            .send(&sandbox, ("p", "s"), r#""ticker":"USDT""#)
            .status,
        400
    );

    let bad = Sandbox::builder()
        .plan(PlanConfig::new("x", "USDT").percent("ten"))
        .start();
    assert!(matches!(bad, Err(txc_sandbox::SandboxError::Config { .. })));
    let bad = Sandbox::builder().plan(PlanConfig::new("", "USDT")).start();
    assert!(bad.is_err());
}
