//! The risk report example, run against its own sandbox: a closed position's PnL, two
//! funding payments, the ADL quantile and the margin call — each checked against the
//! sandbox's records and txc-types' reference arithmetic.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::print_stdout,
    dead_code,
    unreachable_pub
)]

#[path = "../examples/risk_report.rs"]
mod risk_report;

use txc_blocking::events::PositionEventKind;
use txc_sandbox::{AccountConfig, Sandbox};
use txc_types::values::Decimal;

#[test]
fn the_risk_report_shows_pnl_funding_adl_and_the_margin_call() {
    let sandbox = Sandbox::builder()
        .account(
            AccountConfig::new("risk-report-demo", "risk-report-demo-secret")
                .balance("USDT", "1000"),
        )
        .start()
        .unwrap();
    let report = risk_report::run(&sandbox).unwrap();
    risk_report::print(&report);

    // The position closed at a profit: 0.02 × (66 000 − 65 000) less the fees.
    assert_eq!(report.closed.len(), 1);
    let closed = &report.closed[0];
    let d = |v: &txc_types::values::ExactDecimal| v.to_decimal().unwrap();
    let gross = d(closed.gross_pnl.as_ref().unwrap());
    let fees = d(closed.total_trade_fee.as_ref().unwrap());
    assert_eq!(gross + fees, Decimal::new(20, 0));
    assert_eq!(closed.net_pnl.as_ref().map(d), Some(gross));
    let recorded = &sandbox.closed_position_records()[0];
    assert_eq!(recorded["positionId"], closed.position_id);

    // Two payments of the open long, newest first, each adding up.
    assert_eq!(report.funding.len(), 2);
    assert!(report.funding.iter().all(|f| f.adds_up().unwrap()));
    let paid: Vec<&str> = report
        .funding
        .iter()
        .map(|f| f.funding_amount.as_ref().unwrap().as_str())
        .collect();
    assert_eq!(paid, ["-0.975", "-0.65"], "0.1 × 65 000 × the rate, paid");

    // The margin call names the open position; its ADL quantile is the long side's.
    assert_eq!(report.margin_call.kind, PositionEventKind::MarginCall);
    assert_eq!(report.margin_call.position.id, report.position.position_id);
    assert_eq!(
        report
            .position
            .liquidation_state
            .as_ref()
            .map(|s| s.as_str()),
        Some("margin_call")
    );
    assert_eq!(report.adl.len(), 1);
    assert_eq!(report.adl[0].market, "BTC_PERP");
    assert!(report.adl[0].long.is_some() && report.adl[0].short.is_none());
}
