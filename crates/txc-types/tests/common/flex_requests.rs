//! The flex requests the spec's request examples show, built with the builders, and the
//! examples themselves (the fixtures `request_flex_*_documented.json`): for txc-types' test
//! that the builders make each example and the examples' test that both clients sign it
//! (`examples/tests/flex_conformance.rs` includes this file).

// `pub` for the examples; each test binary uses part of it.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::panic)]

use serde_json::Value;
use txc_types::endpoint::Endpoint;
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexAction, FlexHistoryQuery, FlexInvest, FlexInvestmentStatus,
    FlexInvestmentsQuery, FlexPaymentsQuery, FlexPlansQuery, FlexWithdraw, SetFlexAutoInvest,
};

/// The plan the examples name.
pub const PLAN: &str = "8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f";

/// One request of each flex endpoint, as the spec's request example shows it.
pub struct Documented {
    pub plans: FlexPlansQuery,
    pub investments: FlexInvestmentsQuery,
    pub history: FlexHistoryQuery,
    pub payments: FlexPaymentsQuery,
    pub invest: FlexInvest,
    pub withdraw: FlexWithdraw,
    pub close: CloseFlexInvestment,
    pub auto_invest: SetFlexAutoInvest,
}

/// The documented requests, built with the builders.
pub fn documented_requests() -> Documented {
    Documented {
        plans: FlexPlansQuery::builder()
            .limit(50)
            .offset(0)
            .ticker("USDT")
            .build()
            .unwrap(),
        investments: FlexInvestmentsQuery::builder()
            .limit(100)
            .offset(0)
            .ticker("USDT")
            .plan(PLAN)
            .investment("invest_id_123")
            .investment_status(FlexInvestmentStatus::Active)
            .build()
            .unwrap(),
        history: FlexHistoryQuery::builder()
            .limit(50)
            .offset(0)
            .plan(PLAN)
            .investment("inv_123")
            .transaction("tx_456")
            .date_from(1_640_995_200)
            .date_to(1_641_081_600)
            .action_types([
                FlexAction::Invest,
                FlexAction::Reinvest,
                FlexAction::DailyEarning,
            ])
            .build()
            .unwrap(),
        payments: FlexPaymentsQuery::builder()
            .limit(50)
            .offset(0)
            .plan(PLAN)
            .investment("inv_123")
            .transaction("tx_456")
            .date_from(1_640_995_200)
            .date_to(1_641_081_600)
            .build()
            .unwrap(),
        invest: FlexInvest::new(PLAN, "1000.500000")
            .unwrap()
            .with_reinvest(true),
        withdraw: FlexWithdraw::new(PLAN, "500.250000").unwrap(),
        close: CloseFlexInvestment::new(PLAN).unwrap(),
        auto_invest: SetFlexAutoInvest::new(PLAN, true).unwrap(),
    }
}

/// The spec's request example of the flex endpoint at `path`.
pub fn request_example(path: &str) -> Value {
    let text = match path {
        FlexPlansQuery::PATH => include_str!("../fixtures/request_flex_plans_documented.json"),
        FlexInvestmentsQuery::PATH => {
            include_str!("../fixtures/request_flex_investments_documented.json")
        }
        FlexHistoryQuery::PATH => include_str!("../fixtures/request_flex_history_documented.json"),
        FlexPaymentsQuery::PATH => {
            include_str!("../fixtures/request_flex_payments_documented.json")
        }
        FlexInvest::PATH => include_str!("../fixtures/request_flex_invest_documented.json"),
        FlexWithdraw::PATH => include_str!("../fixtures/request_flex_withdraw_documented.json"),
        CloseFlexInvestment::PATH => {
            include_str!("../fixtures/request_flex_close_documented.json")
        }
        SetFlexAutoInvest::PATH => {
            include_str!("../fixtures/request_flex_auto_invest_documented.json")
        }
        other => panic!("no request example of {other}"),
    };
    serde_json::from_str(text).unwrap()
}
