//! Secret hygiene across the suite: every operation and every error path that can be produced,
//! through both transports, with a process-wide `tracing` subscriber at TRACE and a `log`
//! logger at TRACE (what ureq and reqwest log) capturing everything into memory. The API
//! secret — as text, bytes, hex or base64 —, the payload and the signature must appear in
//! none of it: not in the captured output, not in the `Display`, `Debug` or `source()` chain
//! of any error, not in the `Debug` of any client, builder or prepared request.
//!
//! One known exception, pinned here: at `log` level TRACE, ureq's protocol crate
//! (`ureq_proto::util`) hex-dumps the raw bytes it writes and reads, so the blocking transport's
//! request heads — `X-TXC-PAYLOAD` and `X-TXC-SIGNATURE` included, never the secret, which is
//! never sent — appear there, in rows of 16 bytes. The test reassembles those dumps, checks
//! that the secret is not in them, counts the request heads they show, and holds everything
//! else (txc's own tracing, reqwest's and ureq's other records, every error and `Debug`) to the
//! full rule. RELIABILITY.md tells users to keep `ureq_proto` below TRACE.
//!
//! One test in this file on purpose: the subscriber and the logger are global.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

mod common;

use std::io::Write as _;
use std::sync::Mutex;
use std::time::Duration;

use common::*;
use txc_core::Error;
use txc_core::pacing::RetryPolicy;
use txc_sandbox::{Fault, Route, Sandbox, demo};
use txc_sign::Credentials;
use txc_sign::nonce::NonceSequence;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder, PositionSide, Side};

/// Everything the `log` crate was given.
static LOG: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, record: &log::Record<'_>) {
        let mut out = LOG.lock().unwrap();
        let _ = writeln!(
            out,
            "{} {} {}",
            record.level(),
            record.target(),
            record.args()
        );
    }

    fn flush(&self) {}
}

static CAPTURE: Capture = Capture;

/// What the run collected: texts to search, and the payloads and signatures it knows of.
#[derive(Default)]
struct Collected {
    texts: Vec<String>,
    signed: Vec<(String, String)>,
    errors: usize,
}

impl Collected {
    fn error(&mut self, error: &Error) {
        self.errors += 1;
        self.texts.push(error_texts(error));
    }

    fn err<T: std::fmt::Debug>(&mut self, result: Result<T, Error>) {
        match result {
            Ok(value) => panic!("expected an error, got {value:?}"),
            Err(error) => self.error(&error),
        }
    }
}

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("secrets-1")
        .stop_loss("60000")
        .take_profit("70000")
        .build()
        .unwrap()
}

/// Every operation and error path through one transport.
fn exercise(driver: &dyn Driver, out: &mut Collected) {
    let sandbox = Sandbox::start().unwrap();
    let url = sandbox.base_url();
    let quick = || {
        config::partner()
            .timeout(Duration::from_millis(300))
            .max_response_bytes(64 * 1024)
    };
    let partner = driver.client(url, quick());

    // Debug of builders, clients and prepared requests.
    out.texts.push(driver.builder_debug(url, quick()));
    out.texts
        .push(driver.builder_debug(url, config::key(demo::PARTNER_API_KEY, WRONG_SECRET)));
    out.texts.push(partner.debug());
    let prepared = partner.prepare(&order()).unwrap();
    out.signed.push((
        prepared.payload().to_owned(),
        prepared.signature().to_owned(),
    ));
    out.texts.push(format!("{prepared:?}"));

    // Every operation, successfully.
    partner.market(&order()).unwrap();
    let trigger = CollateralTriggerMarketOrder::builder("BTC_USDT", Side::Sell, "0.01", "60000")
        .build()
        .unwrap();
    partner.trigger(&trigger).unwrap();
    partner.plans(&SmartPlansQuery::new()).unwrap();
    let usdt = SmartPlansQuery::builder().ticker("USDT").build().unwrap();
    partner.plans(&usdt).unwrap();

    // Invalid requests and configurations: nothing sent.
    let invalid = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "-1").build();
    out.error(&Error::from(invalid.unwrap_err()));
    let conflict = CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .reduce_only(true)
        .stop_loss("1")
        .build();
    out.error(&Error::from(conflict.unwrap_err()));
    out.err(Credentials::new(demo::PARTNER_API_KEY, "").map_err(Error::from));
    out.err(Credentials::new("key with spaces", demo::PARTNER_API_SECRET).map_err(Error::from));
    out.err(
        txc_blocking::ClientBuilder::from(config::partner())
            .base_url("ftp://whitebit.com/path?secret=1")
            .build(),
    );
    out.err(
        txc_async::ClientBuilder::from(config::partner())
            .max_response_bytes(0)
            .build(),
    );

    // The exchange's rejections.
    let wrong = driver.client(url, config::key(demo::PARTNER_API_KEY, WRONG_SECRET));
    out.err(wrong.market(&order()));
    out.err(wrong.plans(&SmartPlansQuery::new()));
    let unknown = driver.client(url, config::key("no-such-key", "no-such-secret-value"));
    out.err(unknown.market(&order()));
    let disabled = driver.client(
        url,
        config::key(demo::DISABLED_API_KEY, demo::DISABLED_API_SECRET),
    );
    out.err(disabled.market(&order()));
    let regular = driver.client(
        url,
        config::key(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET),
    );
    out.err(regular.plans(&SmartPlansQuery::new()));
    out.err(regular.market(&market("0.01"))); // hedge mode without positionSide: 114
    let hedged = CollateralMarketOrder::builder("BTC_USDT", Side::Sell, "0.01")
        .position_side(PositionSide::Long)
        .reduce_only(true)
        .build()
        .unwrap();
    out.err(regular.market(&hedged)); // nothing to reduce: 116
    out.err(partner.market(&market("0.0001"))); // below the minimum: 32
    out.err(partner.market(&market("1000"))); // insufficient balance: 10
    let unknown_ticker = SmartPlansQuery::builder().ticker("NOPE").build().unwrap();
    out.err(partner.plans(&unknown_ticker));
    // A stale strict nonce: another client of the key is ahead.
    let ahead = NonceSequence::new();
    ahead.next(now_ms() + 60_000);
    let runner = driver.client(
        url,
        config::partner()
            .nonce_window(false)
            .nonce_sequence(ahead)
            .retry_policy(RetryPolicy::disabled()),
    );
    runner.market(&market("0.001")).unwrap();
    let stale = driver.client(
        url,
        config::partner()
            .nonce_window(false)
            .retry_policy(RetryPolicy::disabled()),
    );
    out.err(stale.market(&market("0.001")));
    let limited = Sandbox::builder().rate_limits(1, 1).start().unwrap();
    let rate = driver.client(limited.base_url(), quick());
    rate.market(&market("0.001")).unwrap();
    out.err(rate.market(&market("0.001")));
    out.err(
        rate.plans(&SmartPlansQuery::new())
            .and_then(|_| rate.plans(&SmartPlansQuery::new())),
    );

    // Every fault: decode and transport errors.
    let faults = [
        Fault::Unavailable,
        Fault::HtmlBadGateway,
        Fault::TruncatedBody,
        Fault::CloseMidResponse,
        Fault::ResetMidBody,
        Fault::OversizedBody(1 << 20),
        Fault::Chunked(1 << 20),
        Fault::Stall,
        Fault::Answer {
            status: 453,
            content_type: "application/json".to_owned(),
            body: br#"{"code":0,"message":"Not available in your region.","errors":{}}"#.to_vec(),
        },
        Fault::Answer {
            status: 200,
            content_type: "application/json".to_owned(),
            body: b"[1,2,3]".to_vec(),
        },
        Fault::Answer {
            status: 200,
            content_type: "application/json".to_owned(),
            body: "[".repeat(100_000).into_bytes(),
        },
    ];
    for fault in faults {
        sandbox.inject_fault(Route::All, fault.clone(), None);
        out.err(partner.market(&market("0.001")));
        out.err(partner.plans(&SmartPlansQuery::new()));
        sandbox.clear_faults();
    }

    // A server that is gone.
    sandbox.stop_listener();
    let gone = driver.client(url, quick().retry_policy(RetryPolicy::disabled()));
    out.err(gone.market(&market("0.001")));
    out.err(gone.plans(&SmartPlansQuery::new()));
    sandbox.restart_listener().unwrap();
}

/// The target of ureq's wire dumps.
const WIRE_DUMP: &str = "TRACE ureq_proto::util ";

/// Splits the captured log into the wire dumps, reassembled to the bytes they show, and
/// everything else.
fn split_wire_dumps(logged: &str) -> (String, String) {
    let mut wire = Vec::new();
    let mut other = String::new();
    for line in logged.lines() {
        match line.strip_prefix(WIRE_DUMP) {
            Some(row) => {
                // "630d 0a0d 0a-- ---- …  c......": hex pairs up to the double space.
                let hex = row.split("  ").next().unwrap_or_default().replace(' ', "");
                for pair in hex.as_bytes().chunks(2) {
                    let pair = std::str::from_utf8(pair).unwrap();
                    if let Ok(byte) = u8::from_str_radix(pair, 16) {
                        wire.push(byte);
                    }
                }
            }
            None => {
                other.push_str(line);
                other.push('\n');
            }
        }
    }
    (String::from_utf8_lossy(&wire).into_owned(), other)
}

#[test]
fn nothing_anywhere_shows_a_secret() {
    let trace = Trace::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::FULL)
        .with_writer(trace.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();
    log::set_logger(&CAPTURE).unwrap();
    log::set_max_level(log::LevelFilter::Trace);

    let mut out = Collected::default();
    exercise(&Blocking, &mut out);
    exercise(&Async::new(), &mut out);

    let traced = trace.text();
    let logged = String::from_utf8_lossy(&LOG.lock().unwrap()).into_owned();
    // The capture works: spans of every operation, and the HTTP libraries' own records.
    for operation in [
        "collateral_market_order",
        "collateral_trigger_market_order",
        "smart_plans",
    ] {
        assert!(traced.contains(operation), "{operation} not traced");
    }
    assert!(traced.contains("TRACE") || traced.contains("DEBUG"));
    // The request spans carry what happened: a retried read, a status, a timeout.
    for record in ["txc.request", "attempt=2", "status=200", "error=timeout"] {
        assert!(traced.contains(record), "{record} not traced");
    }
    assert!(!logged.is_empty(), "nothing logged");

    let (wire, logged) = split_wire_dumps(&logged);
    for text in out.texts.iter().chain([&traced, &logged]) {
        assert_no_secret(text);
        for (payload, signature) in &out.signed {
            assert!(!text.contains(payload.as_str()), "payload in: {text}");
            assert!(!text.contains(signature.as_str()), "signature in: {text}");
        }
    }
    // The key is no secret, but it is kept out of traces and logs too.
    assert!(!traced.contains(demo::PARTNER_API_KEY), "key traced");
    assert!(!logged.contains(demo::PARTNER_API_KEY), "key logged");
    // The wire dumps: never the secret, in any form.
    for secret in SECRETS {
        let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
        for form in [
            secret.to_owned(),
            hex,
            txc_sign::stages::payload(secret.as_bytes()),
        ] {
            assert!(!wire.contains(&form), "secret on the wire dump: {form}");
        }
    }
    let dumped_heads = wire.matches("x-txc-signature: ").count();
    eprintln!(
        "secrets: {} errors, {} Debug/error texts, {} KiB traced, {} KiB logged: 0 leaks; \
         ureq_proto TRACE wire dumps ({} KiB) show {dumped_heads} signed request heads, \
         no secret",
        out.errors,
        out.texts.len(),
        traced.len() / 1024,
        logged.len() / 1024,
        wire.len() / 1024
    );
}
