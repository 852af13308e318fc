//! Decoding answers: the derived decoders (`#[derive(Answer)]`) against the floor, serde_json
//! reading the same bytes into nothing, in the same run.
//! Run: `cargo bench -p txc-types --bench decode`.
//!
//! Until 0.4.0 this bench also carried a verbatim copy of txc-types 0.2's hand-written
//! decoders; the derive matched them (BENCHMARKS.md, the 0.3.0 rows) and the copy was retired.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    missing_docs,
    unreachable_pub
)]

use std::hint::black_box;

use divan::{AllocProfiler, Bencher};
use txc_types::investments::InvestmentPlan;
use txc_types::orders::Order;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

const ORDER: &[u8] = br#"{"orderId":4180284841,"clientOrderId":"order1987111","market":"BTC_USDT","side":"sell","type":"market","timestamp":1595792396.165973,"dealMoney":"0","dealStock":"0","amount":"0.001","left":"0.001","dealFee":"0","status":"FILLED","stp":"no","oto":{"otoId":29457221,"stopLoss":"50000","takeProfit":"40000"},"positionSide":"LONG","reduceOnly":false}"#;

fn plans(n: usize) -> Vec<u8> {
    let plan = r#"{"id":"8e667b4a-0b71-4988-8af5-9474dbfaeb51","ticker":"USDT","status":1,"percent":"10","duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100","maxInvestment":"10000","maxPossibleInvestment":"3000"}"#;
    format!("[{}]", vec![plan; n].join(",")).into_bytes()
}

mod order_answer {
    use super::*;

    /// `#[derive(Answer)]`.
    #[divan::bench]
    fn derived(b: Bencher<'_, '_>) {
        b.bench_local(|| black_box(serde_json::from_slice::<Order>(black_box(ORDER)).unwrap()));
    }

    /// The floor: serde_json reading the same bytes into nothing.
    #[divan::bench]
    fn floor_parse_only(b: Bencher<'_, '_>) {
        b.bench_local(|| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(black_box(ORDER)).unwrap())
        });
    }
}

mod plans_answer_100 {
    use super::*;

    /// `#[derive(Answer)]`.
    #[divan::bench]
    fn derived(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(serde_json::from_slice::<Vec<InvestmentPlan>>(black_box(&body)).unwrap())
        });
    }

    /// The floor: serde_json reading the same bytes into nothing.
    #[divan::bench]
    fn floor_parse_only(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| {
            black_box(serde_json::from_slice::<serde::de::IgnoredAny>(black_box(&body)).unwrap())
        });
    }
}
