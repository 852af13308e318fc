//! The account's risk report with the blocking client, against the embedded sandbox's risk
//! simulator: a position opened and closed at a profit (a closed-PnL record), a long opened,
//! funding ticked on it twice, then the price moved down until the exchange calls margin —
//! the margin call seen on the event stream — and the report printed: the closed positions'
//! PnL, the funding paid, the ADL quantiles and the position at risk.
//!
//! ```text
//! cargo run -p txc-examples --example risk_report
//! ```
//!
//! Sandbox only: it moves the market's price and ticks funding through the sandbox's own
//! controls, which no real exchange has. Every read goes through the client as it would
//! against WhiteBIT; the paged ones are read whole with `pages()`.

#![allow(clippy::print_stdout)]

use std::error::Error;
use std::time::{Duration, Instant};

use txc_blocking::events::{
    AccountEvent, PositionEvent, PositionEventKind, StreamEvent, Subscription,
};
use txc_blocking::orders::{CollateralMarketOrder, Side};
use txc_blocking::positions::{
    ClosedPnlQuery, ClosedPosition, FundingHistoryQuery, FundingPayment, MarketAdlQuantile,
    OpenPositionsQuery, Position,
};
use txc_blocking::{Client, Credentials};
use txc_sandbox::{AccountConfig, Sandbox};

const KEY: &str = "risk-report-demo";
const SECRET: &str = "risk-report-demo-secret";
const MARKET: &str = "BTC_PERP";

/// What the report shows.
#[derive(Debug)]
pub struct Report {
    /// The closed positions' PnL, newest first.
    pub closed: Vec<ClosedPosition>,
    /// The funding paid and received, newest first.
    pub funding: Vec<FundingPayment>,
    /// Each perpetual market's ADL quantiles.
    pub adl: Vec<MarketAdlQuantile>,
    /// The margin call, as the stream sent it.
    pub margin_call: PositionEvent,
    /// The position at risk, as the open positions show it after the call.
    pub position: Position,
}

#[allow(dead_code)] // The example's test includes this file for `run`.
fn main() -> Result<(), Box<dyn Error>> {
    let sandbox = Sandbox::builder()
        .account(AccountConfig::new(KEY, SECRET).balance("USDT", "1000"))
        .start()?;
    let report = run(&sandbox)?;
    print(&report);
    Ok(())
}

/// Places a market order that must fill.
fn trade(client: &Client, side: Side, amount: &str) -> Result<(), Box<dyn Error>> {
    let order = CollateralMarketOrder::builder(MARKET, side, amount).build()?;
    let filled = client.collateral_market_order(&order)?;
    println!(
        "{} {} {MARKET}: order {}",
        side.as_str(),
        filled.deal_stock,
        filled.order_id
    );
    Ok(())
}

/// The whole scenario against `sandbox`, whose account [`KEY`] holds 1 000 USDT.
pub fn run(sandbox: &Sandbox) -> Result<Report, Box<dyn Error>> {
    let client = Client::builder(Credentials::new(KEY, SECRET)?)
        .base_url(sandbox.base_url())
        .build()?;

    // A position closed at a profit: 0.02 bought at 65 000, sold at 66 000.
    trade(&client, Side::Buy, "0.02")?;
    sandbox.set_price(MARKET, "66000")?;
    trade(&client, Side::Sell, "0.02")?;
    sandbox.set_price(MARKET, "65000")?;

    // A long of 0.1 (6 500 USDT at leverage 10: 650 of margin), watched on the stream.
    let mut events = client
        .events([
            Subscription::position_events(),
            Subscription::balance_margin(["USDT"])?,
        ])
        .start()?;
    wait_for(&mut events, "the stream established", |e| {
        matches!(e, StreamEvent::ResyncDone(_))
    })?;
    trade(&client, Side::Buy, "0.1")?;

    // Two funding times pass, each at its own rate (the sandbox's controls; on the exchange,
    // every eight hours at the rate of the interval before).
    for rate in ["0.0001", "0.00015"] {
        sandbox.set_funding_rate(MARKET, rate)?;
        let paid = sandbox.funding_tick();
        println!("funding settled: {} payment(s)", paid.len());
    }

    // The price falls, 250 at a time, until the exchange calls margin.
    let mut price = 65_000;
    let margin_call = loop {
        price -= 250;
        if price < 50_000 {
            return Err("no margin call above 50 000".into());
        }
        sandbox.set_price(MARKET, &price.to_string())?;
        let open = client.open_positions(&OpenPositionsQuery::of_market(MARKET)?)?;
        let called = open
            .iter()
            .any(|p| p.liquidation_state.as_ref().map(|s| s.as_str()) == Some("margin_call"));
        if called {
            println!("{MARKET} at {price}: margin call");
            break wait_for(&mut events, "the margin call event", |e| {
                matches!(
                    e,
                    StreamEvent::Account(AccountEvent::PositionEvent(p))
                        if p.kind == PositionEventKind::MarginCall
                )
            })?;
        }
    };
    let StreamEvent::Account(AccountEvent::PositionEvent(margin_call)) = margin_call else {
        return Err("not a position event".into());
    };
    events.stop();

    let closed = client
        .pages(ClosedPnlQuery::builder().limit(100).build()?)
        .collect::<Result<Vec<_>, _>>()?
        .concat();
    let funding = client
        .pages(FundingHistoryQuery::builder().market(MARKET).build()?)
        .collect::<Result<Vec<_>, _>>()?
        .concat();
    let adl = client.adl_quantile()?;
    let position = client
        .open_positions(&OpenPositionsQuery::of_market(MARKET)?)?
        .into_iter()
        .next()
        .ok_or("the position is gone")?;
    Ok(Report {
        closed,
        funding,
        adl,
        margin_call,
        position,
    })
}

/// Reads `events` until one that `wanted` picks, for at most ten seconds.
fn wait_for(
    events: &mut txc_blocking::events::EventIter,
    what: &str,
    wanted: impl Fn(&StreamEvent) -> bool,
) -> Result<StreamEvent, Box<dyn Error>> {
    let deadline = Instant::now() + Duration::from_secs(10);
    for event in events.by_ref() {
        if wanted(&event) {
            return Ok(event);
        }
        if let StreamEvent::Stopped(reason) = event {
            return Err(format!("the stream stopped before {what}: {reason:?}").into());
        }
        if Instant::now() > deadline {
            break;
        }
    }
    Err(format!("no {what}").into())
}

/// A figure, or `-` when the exchange gave none.
fn figure(value: Option<&impl std::fmt::Display>) -> String {
    value.map_or_else(|| "-".to_owned(), ToString::to_string)
}

/// Prints the report.
pub fn print(report: &Report) {
    let call = &report.margin_call.position;
    println!(
        "\nMARGIN CALL on position {} ({} {}): margin {}, free margin {}, liquidation at {}",
        call.id,
        call.amount,
        call.market,
        figure(call.margin.as_ref()),
        figure(call.free_margin.as_ref()),
        figure(call.liq_price.as_ref()),
    );
    let p = &report.position;
    println!(
        "open: {} {} from {}, unrealized PnL {}, margin {}, liquidation at {}",
        figure(p.amount.as_ref()),
        p.market,
        figure(p.base_price.as_ref()),
        figure(p.unrealized_pnl.as_ref()),
        figure(p.margin.as_ref()),
        figure(p.liquidation_price.as_ref()),
    );
    println!("\nclosed positions:");
    for c in &report.closed {
        println!(
            "  {} {}: {} closed, entry {} exit {}, gross {} fees {} funding {} net {}",
            c.position_id,
            c.market,
            figure(c.closed_size.as_ref()),
            figure(c.avg_entry_price.as_ref()),
            figure(c.avg_exit_price.as_ref()),
            figure(c.gross_pnl.as_ref()),
            figure(c.total_trade_fee.as_ref()),
            figure(c.total_funding.as_ref()),
            figure(c.net_pnl.as_ref()),
        );
    }
    println!("\nfunding:");
    for f in &report.funding {
        println!(
            "  {} at {}: rate {} on {} at {} -> {}",
            f.market,
            figure(f.funding_time.as_ref()),
            figure(f.funding_rate.as_ref()),
            figure(f.position_amount.as_ref()),
            figure(f.settlement_price.as_ref()),
            figure(f.funding_amount.as_ref()),
        );
    }
    println!("\nADL quantiles (0 safest, 4 first to be deleveraged):");
    for q in &report.adl {
        let side = |q: Option<txc_blocking::positions::AdlQuantile>| {
            q.map_or_else(|| "-".to_owned(), |q| q.get().to_string())
        };
        println!(
            "  {}: long {}, short {}",
            q.market,
            side(q.long),
            side(q.short)
        );
    }
}
