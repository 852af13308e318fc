//! Placement latency over the WebSocket against REST, on loopback against the embedded
//! sandbox, in the same run: a resting limit order placed through each client's REST call
//! (`collateral_limit_order`) and through its socket session (`SocketTrading::place`), the
//! two alternating so that both see the same host; the median, p90 and p99 of each, per
//! transport. Then, on the blocking client, each side alone (`n` in a row), to tell the tail
//! that comes from alternating (the other side's leftover work) from each path's own.
//!
//! Both sides check nothing before sending (no market-rule or position-mode look-up), so each
//! placement is one request. Neither side is paced: REST's limiter is off for the limit orders,
//! and the session's placement budget raised (the documented 10 000 per 10 s admits a burst of
//! 200, then one placement every 1.04 ms — faster than this loop, which would then measure
//! the pacing); the sandbox's per-connection WebSocket budget (200 requests a minute by
//! default, the older docs' figure) is raised too. `cargo bench -p txc-examples --bench socket_latency`
//! (`TXC_BENCH_N` placements per side, 2 000 by default); under `cargo test --benches` a
//! quick run of 20. The figures go to BENCHMARKS.md.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::indexing_slicing
)]

use std::time::{Duration, Instant};

use txc_blocking::Credentials;
use txc_blocking::endpoint::Endpoint;
use txc_blocking::endpoint::RateLimit;
use txc_blocking::events::WebSocketTokenQuery;
use txc_blocking::orders::{CollateralLimitOrder, Side};
use txc_blocking::settings::{ClientConfig, MarketRulesCheck, ModeCheck, RateLimits};
use txc_blocking::socket::{SessionConfig, SocketLimits, SocketOrdersConfig};
use txc_sandbox::{Sandbox, demo};

fn config(sandbox: &Sandbox) -> ClientConfig {
    ClientConfig::new(Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET).unwrap())
        .base_url(sandbox.base_url())
        .position_mode_check(ModeCheck::Off)
        .market_rules_check(MarketRulesCheck::Off)
        .rate_limits(
            RateLimits::documented()
                .with_limit(WebSocketTokenQuery::PATH, None)
                .with_limit("/api/v4/order/collateral/limit", None),
        )
}

/// A session whose pacing never holds a placement of the run back.
fn unpaced() -> SessionConfig {
    let limits = SocketLimits::documented().with_placements(RateLimit::new(100_000_000, 1));
    SessionConfig::default().with_orders(SocketOrdersConfig::default().with_limits(limits))
}

/// A sandbox whose WebSocket admits every request of the run.
fn sandbox() -> Sandbox {
    Sandbox::builder()
        .ws_requests_per_minute(1_000_000)
        .start()
        .unwrap()
}

fn order(n: usize, via: &str) -> CollateralLimitOrder {
    CollateralLimitOrder::builder("BTC_USDT", Side::Buy, "0.001", "50000")
        .client_order_id(format!("bench-{via}-{n}"))
        .build()
        .unwrap()
}

/// The median, p90 and p99 of `samples`.
fn summary(mut samples: Vec<Duration>) -> [Duration; 3] {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    [at(0.5), at(0.9), at(0.99)]
}

fn report(transport: &str, rest: Vec<Duration>, socket: Vec<Duration>) {
    for (via, samples) in [("REST", rest), ("socket", socket)] {
        let [median, p90, p99] = summary(samples).map(|d| d.as_secs_f64() * 1e6);
        println!(
            "{transport:<9} {via:<6} median {median:>8.1} µs  p90 {p90:>8.1} µs  p99 {p99:>8.1} µs"
        );
    }
}

fn blocking(n: usize) {
    let sandbox = sandbox();
    let client = txc_blocking::ClientBuilder::from(config(&sandbox))
        .build()
        .unwrap();
    let mut session = client.socket_trading_with(unpaced()).unwrap();
    // Warm both paths: the connection, its token and authorization, the REST agent.
    session.place(&order(usize::MAX, "ws-warm")).unwrap();
    client
        .collateral_limit_order(&order(usize::MAX, "rest-warm"))
        .unwrap();
    let (mut rest, mut socket) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let o = order(i, "rest");
        let t = Instant::now();
        client.collateral_limit_order(&o).unwrap();
        rest.push(t.elapsed());
        let o = order(i, "ws");
        let t = Instant::now();
        session.place(&o).unwrap();
        socket.push(t.elapsed());
    }
    report("blocking", rest, socket);
    // Each side alone, back to back.
    let (mut rest, mut socket) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let o = order(i, "rest-alone");
        let t = Instant::now();
        client.collateral_limit_order(&o).unwrap();
        rest.push(t.elapsed());
    }
    for i in 0..n {
        let o = order(i, "ws-alone");
        let t = Instant::now();
        session.place(&o).unwrap();
        socket.push(t.elapsed());
    }
    report("alone", rest, socket);
    // The floor: a bare tungstenite client on its own connection, the same frames by hand.
    let token = client.send(&WebSocketTokenQuery).unwrap();
    let (mut raw, _) = tungstenite::connect(sandbox.websocket_url()).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(tcp) = raw.get_ref() {
        tcp.set_nodelay(true).unwrap();
    }
    let authorize = format!(
        r#"{{"id":1,"method":"authorize","params":["{}","public"]}}"#,
        token.expose()
    );
    raw.send(tungstenite::Message::text(authorize)).unwrap();
    raw.read().unwrap();
    let mut bare = Vec::with_capacity(n);
    for i in 0..n {
        let frame = format!(
            r#"{{"id":{},"method":"collateral_order_limit_place","params":[{{"market":"BTC_USDT","side":"buy","amount":"0.001","price":"50000","client_order_id":"bench-raw-{i}"}}]}}"#,
            i + 2
        );
        let t = Instant::now();
        raw.send(tungstenite::Message::text(frame)).unwrap();
        loop {
            if let tungstenite::Message::Text(text) = raw.read().unwrap() {
                let answer: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
                if answer["id"] == i + 2 {
                    break;
                }
            }
        }
        bare.push(t.elapsed());
    }
    let [median, p90, p99] = summary(bare).map(|d| d.as_secs_f64() * 1e6);
    println!("bare      socket median {median:>8.1} µs  p90 {p90:>8.1} µs  p99 {p99:>8.1} µs");
}

fn asynchronous(n: usize) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let sandbox = sandbox();
        let client = txc_async::ClientBuilder::from(config(&sandbox))
            .build()
            .unwrap();
        let mut session = client.socket_trading_with(unpaced()).unwrap();
        session.place(&order(usize::MAX, "ws-warm")).await.unwrap();
        client
            .collateral_limit_order(&order(usize::MAX, "rest-warm"))
            .await
            .unwrap();
        let (mut rest, mut socket) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for i in 0..n {
            let o = order(i, "rest");
            let t = Instant::now();
            client.collateral_limit_order(&o).await.unwrap();
            rest.push(t.elapsed());
            let o = order(i, "ws");
            let t = Instant::now();
            session.place(&o).await.unwrap();
            socket.push(t.elapsed());
        }
        report("async", rest, socket);
    });
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let n = if bench {
        std::env::var("TXC_BENCH_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2_000)
    } else {
        20
    };
    println!("placements per side: {n}");
    blocking(n);
    asynchronous(n);
}
