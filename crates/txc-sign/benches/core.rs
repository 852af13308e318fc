//! Benchmarks of the sans-IO core: signing (with its floor, a bare pre-keyed HMAC-SHA512 of
//! the same payload), decoding, and the nonce sequence. Run: `cargo bench -p txc-sign`.
//! Allocation counts come from divan's allocation profiler.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    missing_docs
)]

use std::hint::black_box;

use divan::{AllocProfiler, Bencher};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha512;
use txc_sign::{Credentials, Nonce, NonceSequence, Signer, decode};
use txc_types::{CollateralMarketOrder, PositionSide, Side, SmartPlansQuery};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

const SECRET: &str = "bench-secret-0123456789abcdef";

fn order() -> CollateralMarketOrder {
    CollateralMarketOrder::builder("BTC_USDT", Side::Buy, "0.01")
        .client_order_id("bench-order-000001")
        .stop_loss("50000")
        .take_profit("80000")
        .position_side(PositionSide::Long)
        .build()
        .unwrap()
}

fn signer() -> Signer {
    Signer::new(
        Credentials::new("bench-key", SECRET).unwrap(),
        "https://whitebit.com",
    )
    .unwrap()
}

mod signing {
    use super::*;

    /// End to end: serialize, base64, HMAC-SHA512, hex, request value.
    #[divan::bench]
    fn sign_market_order_sl_tp(b: Bencher<'_, '_>) {
        let signer = signer();
        let order = order();
        let mut nonce = 1_700_000_000_000u64;
        b.bench_local(|| {
            nonce += 1;
            black_box(signer.sign(black_box(&order), Nonce(nonce), true).unwrap())
        });
    }

    /// Signing plus conversion into an `http::Request` (what a transport then sends).
    #[divan::bench]
    fn sign_market_order_sl_tp_into_http(b: Bencher<'_, '_>) {
        let signer = signer();
        let order = order();
        let mut nonce = 1_700_000_000_000u64;
        b.bench_local(|| {
            nonce += 1;
            black_box(
                signer
                    .sign(black_box(&order), Nonce(nonce), true)
                    .unwrap()
                    .into_http()
                    .unwrap(),
            )
        });
    }

    /// The floor: a bare HMAC-SHA512 of the same payload bytes with a pre-keyed MAC.
    #[divan::bench]
    fn floor_hmac_sha512_prekeyed(b: Bencher<'_, '_>) {
        let signed = signer()
            .sign(&order(), Nonce(1_700_000_000_000), true)
            .unwrap();
        let payload = signed.payload().to_owned();
        let mac = <Hmac<Sha512> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap();
        b.bench_local(|| {
            let mut m = mac.clone();
            m.update(black_box(payload.as_bytes()));
            black_box(m.finalize().into_bytes())
        });
    }

    /// Stage 1 alone: the body bytes.
    #[divan::bench]
    fn stage_body_bytes(b: Bencher<'_, '_>) {
        let order = order();
        b.bench_local(|| black_box(txc_sign::body_bytes(black_box(&order), Nonce(1), true)));
    }

    /// Stage 2 alone: base64 of the body.
    #[divan::bench]
    fn stage_payload(b: Bencher<'_, '_>) {
        let body = txc_sign::body_bytes(&order(), Nonce(1_700_000_000_000), true);
        b.bench_local(|| black_box(txc_sign::payload(black_box(&body))));
    }

    /// Stage 3 alone: HMAC + hex through the credential's pre-keyed MAC.
    #[divan::bench]
    fn stage_signature(b: Bencher<'_, '_>) {
        let creds = Credentials::new("bench-key", SECRET).unwrap();
        let body = txc_sign::body_bytes(&order(), Nonce(1_700_000_000_000), true);
        let payload = txc_sign::payload(&body);
        b.bench_local(|| black_box(txc_sign::signature(&creds, black_box(&payload))));
    }
}

/// The hand-written encoders, compiled into the bench from their sources, measured beside the
/// `base64`, `hex` and `const-hex` crates in the same run (issue 17's decision rule).
#[allow(dead_code, unreachable_pub, unused_imports)]
#[path = "../src/base64.rs"]
mod hand_base64;
#[allow(dead_code, unreachable_pub, unused_imports)]
#[path = "../src/hex.rs"]
mod hand_hex;

mod encoders {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    fn body() -> Vec<u8> {
        txc_sign::body_bytes(&order(), Nonce(1_700_000_000_000), true)
    }

    fn tag() -> [u8; 64] {
        let mut mac = <Hmac<Sha512> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap();
        mac.update(b"payload");
        mac.finalize().into_bytes().into()
    }

    #[divan::bench]
    fn base64_hand_written(b: Bencher<'_, '_>) {
        let body = body();
        let mut out = vec![0u8; hand_base64::encoded_len(body.len())];
        b.bench_local(|| hand_base64::encode_to_slice(black_box(&body), black_box(&mut out)));
    }

    #[divan::bench]
    fn base64_crate_encode_slice(b: Bencher<'_, '_>) {
        let body = body();
        let mut out = vec![0u8; hand_base64::encoded_len(body.len())];
        b.bench_local(|| STANDARD.encode_slice(black_box(&body), black_box(&mut out)));
    }

    #[divan::bench]
    fn hex_hand_written(b: Bencher<'_, '_>) {
        let tag = tag();
        let mut out = [0u8; 128];
        b.bench_local(|| hand_hex::encode_to_slice(black_box(&tag), black_box(&mut out)));
    }

    #[divan::bench]
    fn hex_crate(b: Bencher<'_, '_>) {
        let tag = tag();
        let mut out = [0u8; 128];
        b.bench_local(|| hex::encode_to_slice(black_box(&tag), black_box(&mut out)));
    }

    #[divan::bench]
    fn const_hex_crate(b: Bencher<'_, '_>) {
        let tag = tag();
        let mut out = [0u8; 128];
        b.bench_local(|| const_hex::encode_to_slice(black_box(&tag), black_box(&mut out)));
    }

    /// Which base64 and hex encoders a signing pipeline uses.
    #[derive(Clone, Copy, Debug)]
    enum Encoders {
        HandWritten,
        Base64Hex,
        Base64ConstHex,
    }

    /// The signer's steps outside the crate: body, payload and signature in one buffer.
    fn sign_with(
        encoders: Encoders,
        order: &CollateralMarketOrder,
        nonce: u64,
        mac: &Hmac<Sha512>,
    ) -> Vec<u8> {
        let mut buf = Vec::with_capacity(1024);
        buf.extend_from_slice(&txc_sign::body_bytes(order, Nonce(nonce), true));
        let body_len = buf.len();
        let payload_len = hand_base64::encoded_len(body_len);
        buf.resize(body_len + payload_len + 128, 0);
        let (body, rest) = buf.split_at_mut(body_len);
        let (payload, signature) = rest.split_at_mut(payload_len);
        match encoders {
            Encoders::HandWritten => hand_base64::encode_to_slice(body, payload),
            Encoders::Base64Hex | Encoders::Base64ConstHex => {
                STANDARD.encode_slice(&*body, &mut *payload).unwrap();
            }
        }
        let mut m = mac.clone();
        m.update(payload);
        let tag: [u8; 64] = m.finalize().into_bytes().into();
        match encoders {
            Encoders::HandWritten => hand_hex::encode_to_slice(&tag, signature),
            Encoders::Base64Hex => hex::encode_to_slice(tag, signature).unwrap(),
            Encoders::Base64ConstHex => const_hex::encode_to_slice(tag, signature).unwrap(),
        }
        buf
    }

    /// Body, base64, HMAC-SHA512 and hex as the signer does them, with each pair of encoders.
    #[divan::bench(args = [Encoders::HandWritten, Encoders::Base64Hex, Encoders::Base64ConstHex])]
    fn sign_pipeline(b: Bencher<'_, '_>, encoders: Encoders) {
        let order = order();
        let mac = <Hmac<Sha512> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap();
        let mut nonce = 1_700_000_000_000u64;
        b.bench_local(|| {
            nonce += 1;
            black_box(sign_with(encoders, black_box(&order), nonce, &mac))
        });
    }
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
            black_box(decode::<CollateralMarketOrder>(200, black_box(ORDER)).unwrap())
        });
    }

    #[divan::bench]
    fn plans_answer_100(b: Bencher<'_, '_>) {
        let body = plans(100);
        b.bench_local(|| black_box(decode::<SmartPlansQuery>(200, black_box(&body)).unwrap()));
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
            black_box(decode::<CollateralMarketOrder>(422, black_box(ERROR)).unwrap_err())
        });
    }
}

mod nonces {
    use super::*;

    /// Counter-bound: `threads = 1` is the single-thread rate, `threads = 2` two contending.
    #[divan::bench(threads = [1, 2])]
    fn next(b: Bencher<'_, '_>) {
        static SEQ: std::sync::LazyLock<NonceSequence> =
            std::sync::LazyLock::new(NonceSequence::new);
        b.bench(|| black_box(SEQ.next(black_box(1_700_000_000_000))));
    }
}
