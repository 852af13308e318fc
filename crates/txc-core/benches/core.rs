//! Benchmarks of the sans-IO protocol: decoding answers (beside serde_json's floor of reading
//! the same bytes) and the rate limiter's check. Signing is txc-sign's bench. Run:
//! `cargo bench -p txc-core --bench core`. Allocation counts come from divan's allocation
//! profiler.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    missing_docs
)]

use std::hint::black_box;

use divan::{AllocProfiler, Bencher};
use txc_core::decode::{Response, decode};
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::CollateralMarketOrder;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

mod decoding {
    use super::*;

    const ORDER: &[u8] = br#"{"orderId":4180284841,"clientOrderId":"order1987111","market":"BTC_USDT","side":"sell","type":"market","timestamp":1595792396.165973,"dealMoney":"0","dealStock":"0","amount":"0.001","left":"0.001","dealFee":"0","status":"FILLED","stp":"no","oto":{"otoId":29457221,"stopLoss":"50000","takeProfit":"40000"},"positionSide":"LONG","reduceOnly":false}"#;
    const ERROR: &[u8] = br#"{"code":32,"message":"Validation failed","errors":{"amount":["Given amount is less than min amount 0.001","Min amount step = 0.000001"]}}"#;

    fn plans(n: usize) -> Vec<u8> {
        let plan = r#"{"id":"8e667b4a-0b71-4988-8af5-9474dbfaeb51","ticker":"USDT","status":1,"percent":"10","duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100","maxInvestment":"10000","maxPossibleInvestment":"3000"}"#;
        format!("[{}]", vec![plan; n].join(",")).into_bytes()
    }

    #[divan::bench]
    fn order_answer(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(
                decode::<CollateralMarketOrder>(black_box(&Response::new(200, ORDER))).unwrap(),
            )
        });
    }

    #[divan::bench]
    fn plans_answer_100(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(decode::<SmartPlansQuery>(black_box(&Response::new(200, &body))).unwrap())
        });
    }

    /// The floor of the order decode: serde_json reading the same bytes into nothing.
    #[divan::bench]
    fn floor_order_parse_only(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(black_box(ORDER)).unwrap())
        });
    }

    /// The floor of the 100-plan decode: serde_json reading the same bytes into nothing.
    #[divan::bench]
    fn floor_plans_100_parse_only(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(black_box(&body)).unwrap())
        });
    }

    #[divan::bench]
    fn api_error_body(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(
                decode::<CollateralMarketOrder>(black_box(&Response::new(422, ERROR))).unwrap_err(),
            )
        });
    }
}

mod pacing {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;
    use txc_core::pacing::{RateLimiter, RateLimits};

    /// One limiter check that admits (no limit reached): what pacing adds to a request that
    /// does not have to wait. The time advances 2 ms per check, above the sustained rate.
    #[divan::bench]
    fn check_admitted(b: Bencher<'_, '_>) {
        let limiter = RateLimiter::new(RateLimits::documented());
        let mut now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        b.bench_local(|| {
            now += Duration::from_millis(2);
            black_box(limiter.check::<CollateralMarketOrder>(black_box(now)))
        });
    }
}
