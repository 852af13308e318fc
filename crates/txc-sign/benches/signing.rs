//! Benchmarks of signing (with its floor, a bare pre-keyed HMAC-SHA512 of the same payload, and
//! its parts) and of the nonce sequence. Run: `cargo bench -p txc-sign --bench signing`.
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
use txc_sign::nonce::NonceMode;
use txc_sign::nonce::{Nonce, NonceSequence};
use txc_sign::{Credentials, Signer};
use txc_types::orders::{CollateralMarketOrder, PositionSide, Side};

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

    /// Signs the bench order with a fresh nonce per iteration, then `finish`es the request.
    fn sign_then<T>(b: Bencher<'_, '_>, finish: impl Fn(txc_sign::SignedRequest) -> T) {
        let signer = signer();
        let order = order();
        let mut nonce = 1_700_000_000_000u64;
        b.bench_local(|| {
            nonce += 1;
            let signed = signer.sign(black_box(&order), Nonce(nonce), NonceMode::Window);
            black_box(finish(signed.unwrap()))
        });
    }

    /// End to end: serialize, base64, HMAC-SHA512, hex, request value.
    #[divan::bench]
    fn sign_market_order_sl_tp(b: Bencher<'_, '_>) {
        sign_then(b, |signed| signed);
    }

    /// Signing plus conversion into an `http::Request` (what a transport then sends).
    #[divan::bench]
    fn sign_market_order_sl_tp_into_http(b: Bencher<'_, '_>) {
        sign_then(b, txc_sign::SignedRequest::into_http);
    }

    /// `into_http` alone, on a request signed outside the timed region: the four headers
    /// and the request value.
    #[divan::bench]
    fn stage_into_http(b: Bencher<'_, '_>) {
        let signer = signer();
        let order = order();
        let mut nonce = 1_700_000_000_000u64;
        b.with_inputs(|| {
            nonce += 1;
            signer
                .sign(&order, Nonce(nonce), NonceMode::Window)
                .unwrap()
        })
        .bench_local_values(|signed| black_box(signed.into_http()));
    }

    /// `headers()` alone (what the async transport asks for).
    #[divan::bench]
    fn stage_headers(b: Bencher<'_, '_>) {
        let signed = signer()
            .sign(&order(), Nonce(1_700_000_000_000), NonceMode::Window)
            .unwrap();
        b.bench_local(|| black_box(black_box(&signed).headers()));
    }

    /// The floor: a bare HMAC-SHA512 of the same payload bytes with a pre-keyed MAC.
    #[divan::bench]
    fn floor_hmac_sha512_prekeyed(b: Bencher<'_, '_>) {
        let signed = signer()
            .sign(&order(), Nonce(1_700_000_000_000), NonceMode::Window)
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
        b.bench_local(|| {
            black_box(txc_sign::stages::body_bytes(
                black_box(&order),
                Nonce(1),
                NonceMode::Window,
            ))
        });
    }

    /// Stage 2 alone: base64 of the body.
    #[divan::bench]
    fn stage_payload(b: Bencher<'_, '_>) {
        let body =
            txc_sign::stages::body_bytes(&order(), Nonce(1_700_000_000_000), NonceMode::Window);
        b.bench_local(|| black_box(txc_sign::stages::payload(black_box(&body))));
    }

    /// Stage 3 alone: HMAC + hex through the credential's pre-keyed MAC.
    #[divan::bench]
    fn stage_signature(b: Bencher<'_, '_>) {
        let creds = Credentials::new("bench-key", SECRET).unwrap();
        let body =
            txc_sign::stages::body_bytes(&order(), Nonce(1_700_000_000_000), NonceMode::Window);
        let payload = txc_sign::stages::payload(&body);
        b.bench_local(|| black_box(txc_sign::stages::signature(&creds, black_box(&payload))));
    }
}

/// The parts of signing and `into_http`, each alone on the bench order's bytes: where the
/// time above the HMAC floor goes (BENCHMARKS.md, "Signing and `into_http` against the floor").
mod signing_parts {
    use http::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};

    use super::*;

    fn signed() -> txc_sign::SignedRequest {
        signer()
            .sign(&order(), Nonce(1_700_000_000_000), NonceMode::Window)
            .unwrap()
    }

    /// The signer's one buffer: allocated (and freed, outside the timed region).
    #[divan::bench]
    fn buffer_1024(b: Bencher<'_, '_>) {
        b.bench_local(|| black_box(Vec::<u8>::with_capacity(black_box(1024))));
    }

    /// Base64 of the body into a buffer already there (what signing does, with the engine it
    /// uses; the hex of the tag is in `stage_signature`).
    #[divan::bench]
    fn base64_into_buffer(b: Bencher<'_, '_>) {
        use base64::Engine as _;

        let signed = signed();
        let body = signed.body().to_vec();
        let mut out = vec![0u8; signed.payload().len()];
        let engine = base64::engine::Simd::standard(base64::engine::general_purpose::PAD);
        b.bench_local(|| {
            black_box(engine.encode_slice(black_box(&body), &mut out).ok());
        });
    }

    /// The pre-keyed MAC state copied (and dropped: zeroized), as every signature and the
    /// floor do.
    #[divan::bench]
    fn mac_state_clone(b: Bencher<'_, '_>) {
        let mac = <Hmac<Sha512> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap();
        b.bench_local(|| black_box(black_box(&mac).clone()));
    }

    /// SHA-512's compression function alone on the floor's four blocks (two of payload, the
    /// padded last, the outer): the floor without the `hmac` crate's buffering.
    #[divan::bench]
    fn sha512_four_compressions(b: Bencher<'_, '_>) {
        let state = [0x6a09_e667_f3bc_c908u64; 8];
        let blocks = [[0x5au8; 128]; 2];
        let last = [[0xa5u8; 128]];
        b.bench_local(|| {
            let mut inner = *black_box(&state);
            sha2::block_api::compress512(&mut inner, black_box(&blocks));
            sha2::block_api::compress512(&mut inner, black_box(&last));
            let mut outer = *black_box(&state);
            sha2::block_api::compress512(&mut outer, black_box(&last));
            black_box((inner, outer))
        });
    }

    /// The endpoint's URI found and cloned, with the signer's shared headers: a request of a
    /// public endpoint is exactly that.
    #[divan::bench]
    fn uri_lookup_and_clone(b: Bencher<'_, '_>) {
        let signer = signer();
        b.bench_local(|| black_box(signer.public::<CollateralMarketOrder>().unwrap()));
    }

    fn four_headers() -> HeaderMap {
        const KEY: HeaderName = HeaderName::from_static("x-txc-apikey");
        const PAYLOAD: HeaderName = HeaderName::from_static("x-txc-payload");
        const SIGNATURE: HeaderName = HeaderName::from_static("x-txc-signature");
        let mut map = HeaderMap::with_capacity(4);
        map.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        map.insert(KEY, HeaderValue::from_str("bench-key").unwrap());
        map.insert(PAYLOAD, HeaderValue::from_static(""));
        map.insert(SIGNATURE, HeaderValue::from_static(""));
        map
    }

    /// The four-header map built by four inserts (each hashes its name byte by byte).
    #[divan::bench]
    fn header_map_four_inserts(b: Bencher<'_, '_>) {
        b.bench_local(four_headers);
    }

    /// The same map cloned from a prebuilt one (what `headers()` does, before filling in two
    /// values).
    #[divan::bench]
    fn header_map_clone(b: Bencher<'_, '_>) {
        let map = four_headers();
        b.bench_local(|| black_box(black_box(&map).clone()));
    }

    /// A header value made from `text`: checked, copied into its own allocation.
    fn header_value(b: Bencher<'_, '_>, text: &str) {
        b.bench_local(|| black_box(HeaderValue::from_bytes(black_box(text.as_bytes()))));
    }

    /// The payload's header value.
    #[divan::bench]
    fn payload_header_value(b: Bencher<'_, '_>) {
        header_value(b, signed().payload());
    }

    /// The signature's header value.
    #[divan::bench]
    fn signature_header_value(b: Bencher<'_, '_>) {
        header_value(b, signed().signature());
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

    /// A partitioned nonce (worker 1 of 4): the fleet's cost over a plain `next`.
    #[divan::bench]
    fn next_partitioned(b: Bencher<'_, '_>) {
        let seq = NonceSequence::partitioned(txc_sign::nonce::FleetWorker::new(1, 4).unwrap());
        b.bench_local(|| black_box(seq.next(black_box(1_700_000_000_000))));
    }
}
