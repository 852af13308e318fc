//! Pacing and clocks through both transports against the sandbox: the server time, a local
//! clock that is off (named in the error, corrected by `sync_clock`), the client's own rate
//! limiter (waiting within bounds, or failing fast with nothing sent), and fleet workers that
//! share a key without colliding.

#![allow(clippy::unwrap_used, clippy::expect_used)]
#![allow(clippy::indexing_slicing, clippy::panic)]

#[macro_use]
mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::*;
use txc_core::Error;
use txc_core::decode::ApiErrorClass;
use txc_core::pacing::{RateLimiter, RateLimits, RatePolicy};
use txc_sandbox::{AccountConfig, Sandbox};
use txc_sign::nonce::{FleetWorker, NonceSequence};
use txc_types::endpoint::{Endpoint, RateLimit};
use txc_types::orders::{CollateralMarketOrder, Side};

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
        .build()
        .unwrap()
}

fn unix_secs(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64
}

/// `server_time()` is the sandbox's clock, whatever the host's.
fn server_time_is_the_exchanges(driver: &dyn Driver) {
    let sandbox = Sandbox::builder().clock_offset_ms(90_000).start().unwrap();
    let client = driver.client(sandbox.base_url(), config::partner());
    let time = client.server_time().unwrap();
    let expected = unix_secs(SystemTime::now()) + 90;
    let got = time.time.unix_seconds() as i64;
    assert!((got - expected).abs() <= 1, "{got} vs {expected}");
    // Public: no key, no nonce used.
    assert_eq!(sandbox.stats().nonce_rejections, 0);
}

/// A local clock 8 s behind the exchange's: the order is refused (nonce outside the window),
/// the error says the clock is off and by about how much; `sync_clock` measures the offset and
/// the next order is accepted.
fn a_clock_that_is_off_is_named_and_corrected(driver: &dyn Driver) {
    let sandbox = Sandbox::builder().clock_offset_ms(8_000).start().unwrap();
    // Its own nonce sequence: the clock offset is shared by every client of a key.
    let setup = config::partner().nonce_sequence(NonceSequence::new());
    let client = driver.client(sandbox.base_url(), setup);
    let (error, api) = api_error(client.market(&order()));
    assert_eq!(api.class, ApiErrorClass::Nonce);
    assert!(api.is_nonce_outside_window());
    let skew = api.clock_skew.expect("measured from the Date header");
    assert!((6_500..=9_500).contains(&skew.as_millis()), "skew {skew:?}");
    let message = error.to_string();
    assert!(message.contains("behind the exchange's"), "{message}");
    assert!(!error.outcome_unknown(), "a 4xx refusal: not placed");

    let offset = client.sync_clock().unwrap();
    assert!(
        (6_500..=9_500).contains(&offset.as_millis()),
        "offset {offset:?}"
    );
    assert_eq!(client.clock_offset(), offset);
    let placed = client.market(&order()).unwrap();
    assert_eq!(placed.market, "BTC_USDT");
    assert_eq!(sandbox.stats().nonce_rejections, 1);
}

/// A clock offset given to the builder corrects the nonces from the first request on.
fn a_known_offset_can_be_given_up_front(driver: &dyn Driver) {
    let sandbox = Sandbox::builder().clock_offset_ms(-30_000).start().unwrap();
    let setup = config::partner()
        .nonce_sequence(NonceSequence::new())
        .clock_offset(txc_sign::nonce::ClockOffset::from_millis(-30_000));
    let client = driver.client(sandbox.base_url(), setup);
    client.market(&order()).unwrap();
    assert_eq!(sandbox.stats().nonce_rejections, 0);
}

fn tight(requests: u32) -> RateLimits {
    RateLimits::documented().with_limit(
        CollateralMarketOrder::PATH,
        Some(RateLimit::new(requests, 1)),
    )
}

/// Fail fast: once the limiter has no slot, the call ends at once with `Throttled` — nothing
/// sent (the sandbox saw nothing), retryable, and saying when a slot frees up.
fn fail_fast_sends_nothing(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let setup = config::partner()
        .rate_limits(tight(3))
        .rate_policy(RatePolicy::FailFast);
    let client = driver.client(sandbox.base_url(), setup);
    client.market(&order()).unwrap(); // the burst: one request
    let seen = sandbox.stats().requests;
    let error = client.market(&order()).unwrap_err();
    let Error::Throttled(throttled) = &error else {
        panic!("expected Throttled, got {error:?}")
    };
    assert_eq!(throttled.limit, Some(RateLimit::new(3, 1)));
    assert!(throttled.retry_in > Duration::ZERO && throttled.retry_in <= Duration::from_secs(1));
    assert!(error.is_retryable() && !error.outcome_unknown());
    assert!(error.to_string().contains("not sent"), "{error}");
    assert_eq!(
        sandbox.stats().requests,
        seen,
        "nothing reached the sandbox"
    );
    // Other endpoints have their own buckets.
    client
        .plans(&txc_types::investments::SmartPlansQuery::new())
        .unwrap();
}

/// Wait: the client paces itself to the limit, and a wait beyond the policy's bound fails
/// instead.
fn wait_paces_within_the_bound(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    // 50 per second: a burst of 1, then one slot per ~20.8 ms.
    let setup = config::partner().rate_limits(tight(50));
    let client = driver.client(sandbox.base_url(), setup);
    let started = Instant::now();
    for _ in 0..9 {
        client.market(&order()).unwrap();
    }
    assert!(
        started.elapsed() >= Duration::from_millis(160),
        "{:?}",
        started.elapsed()
    );

    // One slot a second: the second order's wait (most of a second, however long the first
    // round trip took on a loaded host) is beyond the bound.
    let setup = config::partner()
        .rate_limits(tight(1))
        .rate_policy(RatePolicy::Wait {
            max_wait: Duration::from_millis(1),
        });
    let client = driver.client(sandbox.base_url(), setup);
    client.market(&order()).unwrap();
    assert!(matches!(client.market(&order()), Err(Error::Throttled(_))));
}

/// Each wait the limiter imposes is told to the client's `on_rate_wait` observer before the
/// transport sleeps it, with the operation and the limit; the order then goes out.
fn limiter_waits_are_told(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = std::sync::Arc::clone(&told);
    // One order per 2 s: the second waits most of 2 s, however slow the first round trip.
    let limit = RateLimit::new(1, 2);
    let setup = config::partner()
        .rate_limits(RateLimits::documented().with_limit(CollateralMarketOrder::PATH, Some(limit)))
        .on_rate_wait(move |wait| seen.lock().unwrap().push(*wait));
    let client = driver.client(sandbox.base_url(), setup);
    client.market(&order()).unwrap();
    assert!(
        told.lock().unwrap().is_empty(),
        "the first order had a slot"
    );
    let started = Instant::now();
    client.market(&order()).unwrap();
    let waits = told.lock().unwrap().clone();
    let first = waits.first().expect("the second order's wait was told");
    assert_eq!(first.operation, CollateralMarketOrder::OPERATION);
    assert_eq!(first.limit, Some(limit));
    assert!(first.wait > Duration::ZERO && first.wait <= Duration::from_secs(2));
    assert!(started.elapsed() >= first.wait, "told before it was slept");
    assert!(first.to_string().starts_with("waiting "), "{first}");
}

/// Clients given one limiter share its allowance (e.g. two keys behind one IP address).
fn clients_given_one_limiter_share_it(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let limiter = RateLimiter::new(tight(3));
    let fail_fast = |setup: ClientConfig| {
        setup
            .rate_limiter(limiter.clone())
            .rate_policy(RatePolicy::FailFast)
    };
    let a = driver.client(sandbox.base_url(), fail_fast(config::partner()));
    let b = driver.client(
        sandbox.base_url(),
        fail_fast(config::key(
            txc_sandbox::demo::REGULAR_API_KEY,
            txc_sandbox::demo::REGULAR_API_SECRET,
        )),
    );
    a.market(&order()).unwrap();
    assert!(matches!(b.market(&order()), Err(Error::Throttled(_))));
}

/// Strict nonces cannot be shared by several processes: a fleet worker with them is refused
/// before any I/O; a fleet of one is allowed.
fn strict_nonces_refuse_a_fleet(driver: &dyn Driver) {
    let fleet = config::partner()
        .nonce_window(false)
        .fleet_worker(FleetWorker::new(1, 4).unwrap());
    match driver.build("http://127.0.0.1:9", fleet) {
        Err(Error::InvalidConfig { what, reason }) => {
            assert_eq!(what, "fleet_worker");
            assert!(reason.contains("strict nonces"), "{reason}");
        }
        Err(other) => panic!("expected InvalidConfig, got {other:?}"),
        Ok(client) => panic!("built {}", client.debug()),
    }
    let alone = config::partner()
        .nonce_window(false)
        .fleet_worker(FleetWorker::new(0, 1).unwrap());
    assert!(driver.build("http://127.0.0.1:9", alone).is_ok());
    assert!(FleetWorker::new(4, 4).is_err());
}

/// Four workers of one key sending at the same moment, each from its own nonce class: no
/// nonce is ever used twice, so the sandbox rejects none.
fn fleet_workers_never_collide(driver: &dyn Driver) {
    let sandbox = Sandbox::start().unwrap();
    let clients: Vec<_> = (0..4)
        .map(|i| {
            let worker = FleetWorker::new(i, 4).unwrap();
            // A sequence of its own per worker, as each process of a fleet has.
            let setup = config::partner()
                .nonce_sequence(NonceSequence::partitioned(worker))
                .fleet_worker(worker);
            driver.client(sandbox.base_url(), setup)
        })
        .collect();
    std::thread::scope(|scope| {
        for client in &clients {
            scope.spawn(|| {
                for _ in 0..25 {
                    client.market(&order()).unwrap();
                }
            });
        }
    });
    let stats = sandbox.stats();
    assert_eq!(stats.accepted_orders, 100);
    assert_eq!(stats.nonce_rejections, 0);
    assert_eq!(stats.rate_limited, 0);
}

scenarios!(
    server_time_is_the_exchanges,
    a_clock_that_is_off_is_named_and_corrected,
    a_known_offset_can_be_given_up_front,
    fail_fast_sends_nothing,
    wait_paces_within_the_bound,
    limiter_waits_are_told,
    clients_given_one_limiter_share_it,
    strict_nonces_refuse_a_fleet,
    fleet_workers_never_collide,
);

/// Places orders (each its own, from `order`) with fail-fast pacing until the limiter refuses
/// one; how many went.
fn until_throttled(client: &dyn Api, order: &dyn Fn() -> CollateralMarketOrder) -> u32 {
    let mut placed = 0;
    loop {
        match client.market(&order()) {
            Ok(_) => placed += 1,
            Err(Error::Throttled(_)) => return placed,
            Err(other) => panic!("{other}"),
        }
        assert!(placed < 2_000, "never throttled");
    }
}

/// Two clients of one key built separately — one blocking, one async — draw on the key's one
/// limiter: once the key's burst is used (here by a third party drawing on the key's limiter
/// directly, at a time a minute ahead, so that how fast orders go on a loaded host does not
/// matter: the limiter's clock only moves forward), neither gets a slot. Switched off, the limit
/// does not apply.
#[test]
fn clients_of_one_key_share_its_limiter_across_transports() {
    // A key of this test's own: the limiter is shared by everything of the key in the process.
    const KEY: &str = "pacing-shared-limiter-key";
    const SECRET: &str = "pacing-shared-limiter-secret";
    let sandbox = Sandbox::builder()
        .account(AccountConfig::new(KEY, SECRET).balance("USDT", "1000000000"))
        .start()
        .unwrap();
    let setup = || config::key(KEY, SECRET).rate_policy(RatePolicy::FailFast);
    let blocking = Blocking.client(sandbox.base_url(), setup());
    let asynchronous = Async::new().client(sandbox.base_url(), setup());
    let order = || {
        CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.001")
            .build()
            .unwrap()
    };
    // Both clients place an order: the key's limiter has room.
    blocking.market(&order()).unwrap();
    asynchronous.market(&order()).unwrap();
    // The documented 10 000 per 10 s: a burst of 200 (two of it used above), drawn from the
    // key's process-wide limiter — the one both clients were built with.
    let key = RateLimiter::for_key(KEY);
    let ahead = SystemTime::now() + Duration::from_secs(60);
    let mut drawn = 0;
    while key.check::<CollateralMarketOrder>(ahead).is_ok() {
        drawn += 1;
        assert!(drawn < 2_000, "the key's limiter never ran dry");
    }
    assert!(drawn >= 190, "{drawn}");
    assert_eq!(until_throttled(&*blocking, &order), 0);
    assert_eq!(until_throttled(&*asynchronous, &order), 0);

    // Off: a limit of 3 per second, and no limiter, lets 20 orders through at once.
    let off = config::key(KEY, SECRET)
        .rate_limits(tight(3))
        .rate_policy(RatePolicy::FailFast)
        .no_rate_limit();
    let unlimited = Blocking.client(sandbox.base_url(), off);
    for _ in 0..20 {
        unlimited.market(&order()).unwrap();
    }
}
