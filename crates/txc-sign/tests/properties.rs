//! Properties of signing, verification, decoding and nonces.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::HashSet;
use std::sync::Arc;

use base64::Engine as _;
use proptest::prelude::*;
use txc_sign::nonce::NonceMode;
use txc_sign::nonce::{Nonce, NonceSequence};
use txc_sign::server::{KeyStatus, verify};
use txc_sign::{Credentials, Signer};
use txc_types::endpoint::Endpoint;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{
    BuildableOrder, CollateralMarketOrder, CollateralTriggerMarketOrder, OrderBuilder,
    PositionSide, Side, Stp,
};

fn order_strategy() -> impl Strategy<Value = CollateralMarketOrder> {
    (
        "[A-Z]{2,5}_[A-Z]{3,5}",
        any::<bool>(),
        "[1-9][0-9]{0,5}(\\.[0-9]{1,6})?",
        proptest::option::of("[A-Za-z0-9._-]{1,64}"),
        proptest::option::of("[1-9][0-9]{0,6}"),
    )
        .prop_map(|(market, buy, amount, id, sl)| {
            let side = if buy { Side::Buy } else { Side::Sell };
            let mut b = CollateralMarketOrder::builder(market, side, amount);
            if let Some(id) = id {
                b = b.client_order_id(id);
            }
            if let Some(sl) = sl {
                b = b.stop_loss(sl);
            }
            b.build().unwrap()
        })
}

/// Every optional field, set or not, on either order type (as a trigger order when
/// `activation` is set).
#[derive(Debug, Clone)]
struct AnyOrder {
    market: String,
    buy: bool,
    amount: String,
    activation: Option<String>,
    id: Option<String>,
    sl: Option<String>,
    tp: Option<String>,
    position_side: Option<PositionSide>,
    reduce_only: Option<bool>,
    stp: Option<Stp>,
}

fn any_order_strategy() -> impl Strategy<Value = AnyOrder> {
    let price = || proptest::option::of("[1-9][0-9]{0,6}(\\.[0-9]{1,4})?");
    (
        (
            "[A-Z0-9]{1,8}_[A-Z0-9]{1,8}",
            any::<bool>(),
            "[1-9][0-9]{0,5}(\\.[0-9]{1,6})?",
        ),
        (
            price(),
            proptest::option::of("[A-Za-z0-9._-]{1,64}"),
            price(),
            price(),
        ),
        (
            proptest::option::of(prop_oneof![
                Just(PositionSide::Long),
                Just(PositionSide::Short),
                Just(PositionSide::Both)
            ]),
            proptest::option::of(any::<bool>()),
            proptest::option::of(prop_oneof![
                Just(Stp::No),
                Just(Stp::CancelBoth),
                Just(Stp::CancelNew),
                Just(Stp::CancelOld)
            ]),
        ),
    )
        .prop_map(
            |(
                (market, buy, amount),
                (activation, id, sl, tp),
                (position_side, reduce_only, stp),
            )| {
                // reduceOnly may not be combined with a stop-loss or take-profit.
                let reduce_only = reduce_only.filter(|r| !r || (sl.is_none() && tp.is_none()));
                AnyOrder {
                    market,
                    buy,
                    amount,
                    activation,
                    id,
                    sl,
                    tp,
                    position_side,
                    reduce_only,
                    stp,
                }
            },
        )
}

/// Applies the optional fields of `o` to a builder of either order type.
fn with_options<O: BuildableOrder>(mut b: OrderBuilder<O>, o: &AnyOrder) -> O {
    if let Some(v) = &o.id {
        b = b.client_order_id(v.as_str());
    }
    if let Some(v) = &o.sl {
        b = b.stop_loss(v.as_str());
    }
    if let Some(v) = &o.tp {
        b = b.take_profit(v.as_str());
    }
    if let Some(v) = o.position_side {
        b = b.position_side(v);
    }
    if let Some(v) = o.reduce_only {
        b = b.reduce_only(v);
    }
    if let Some(v) = o.stp {
        b = b.stp(v);
    }
    b.build().unwrap()
}

/// What the signer's body must be: the three signing fields, then the endpoint's own
/// fields exactly as `serde_json` serializes the request.
fn serde_reference<E: Endpoint>(endpoint: &E, nonce: u64, window: bool) -> Vec<u8> {
    let own = serde_json::to_string(endpoint).unwrap();
    let rest = match own.as_str() {
        "{}" => "}".to_owned(),
        _ => format!(",{}", &own[1..]),
    };
    format!(
        "{{\"request\":{},\"nonce\":{nonce},\"nonceWindow\":{window}{rest}",
        serde_json::to_string(E::PATH).unwrap()
    )
    .into_bytes()
}

fn secret_strategy() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]{16,64}"
}

proptest! {
    #[test]
    fn body_is_what_serde_json_writes_for_the_same_fields(
        o in any_order_strategy(),
        ticker in proptest::option::of("[A-Z0-9]{1,16}"),
        nonce in any::<u64>(),
        window in any::<bool>(),
    ) {
        let side = if o.buy { Side::Buy } else { Side::Sell };
        let market = with_options(
            CollateralMarketOrder::builder(o.market.as_str(), side, o.amount.as_str()),
            &o,
        );
        prop_assert_eq!(
            txc_sign::stages::body_bytes(&market, Nonce(nonce), if window { NonceMode::Window } else { NonceMode::Strict }),
            serde_reference(&market, nonce, window)
        );
        let trigger = with_options(
            CollateralTriggerMarketOrder::builder(
                o.market.as_str(),
                side,
                o.amount.as_str(),
                o.activation.as_deref().unwrap_or("1"),
            ),
            &o,
        );
        prop_assert_eq!(
            txc_sign::stages::body_bytes(&trigger, Nonce(nonce), if window { NonceMode::Window } else { NonceMode::Strict }),
            serde_reference(&trigger, nonce, window)
        );
        let mut query = SmartPlansQuery::builder();
        if let Some(t) = &ticker {
            query = query.ticker(t.as_str());
        }
        let query = query.build().unwrap();
        prop_assert_eq!(
            txc_sign::stages::body_bytes(&query, Nonce(nonce), if window { NonceMode::Window } else { NonceMode::Strict }),
            serde_reference(&query, nonce, window)
        );
    }

    #[test]
    fn payload_decodes_to_the_exact_body(order in order_strategy(), nonce in any::<u64>(), window in any::<bool>()) {
        let signer = Signer::new(Credentials::new("k", "s").unwrap(), "https://whitebit.com").unwrap();
        let signed = signer.sign(&order, Nonce(nonce), if window { NonceMode::Window } else { NonceMode::Strict }).unwrap();
        let decoded = base64::engine::general_purpose::STANDARD.decode(signed.payload()).unwrap();
        prop_assert_eq!(decoded.as_slice(), signed.body());
        let v: serde_json::Value = serde_json::from_slice(signed.body()).unwrap();
        prop_assert_eq!(v["nonce"].as_u64(), Some(nonce));
        prop_assert_eq!(v["request"].as_str(), Some(CollateralMarketOrder::PATH));
        prop_assert_eq!(v["nonceWindow"].as_bool(), Some(window));
    }

    #[test]
    fn signature_verifies_and_any_tampering_fails(
        order in order_strategy(),
        secret in secret_strategy(),
        nonce in any::<u64>(),
        which in 0usize..3,
        index in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let creds = Credentials::new("k", secret.as_bytes()).unwrap();
        let signed = Signer::new(creds.clone(), "https://whitebit.com").unwrap()
            .sign(&order, Nonce(nonce), NonceMode::Window).unwrap();
        let lookup = |_: &str| Some(KeyStatus::Enabled(creds.clone()));
        let ok = verify(CollateralMarketOrder::PATH, &signed.headers(), signed.body(), lookup).unwrap();
        prop_assert_eq!(ok.nonce, nonce);

        let mut headers = signed.headers();
        let mut body = signed.body().to_vec();
        let tamper = |bytes: &mut Vec<u8>| {
            let i = index.index(bytes.len());
            bytes[i] ^= flip;
        };
        match which {
            0 => tamper(&mut body),
            1 => {
                let mut p = signed.payload().as_bytes().to_vec();
                tamper(&mut p);
                match http::HeaderValue::from_bytes(&p) {
                    Ok(v) => { headers.insert("x-txc-payload", v); }
                    Err(_) => { headers.remove("x-txc-payload"); }
                }
            }
            _ => {
                let mut s = signed.signature().as_bytes().to_vec();
                tamper(&mut s);
                match http::HeaderValue::from_bytes(&s) {
                    Ok(v) => { headers.insert("x-txc-signature", v); }
                    Err(_) => { headers.remove("x-txc-signature"); }
                }
            }
        }
        // Flipping case in hex (e.g. 'a' -> 'A') is the one edit that keeps the same signature.
        let same_hex = which == 2 && headers.get("x-txc-signature")
            .map(|v| v.as_bytes().eq_ignore_ascii_case(signed.signature().as_bytes()))
            .unwrap_or(false);
        let result = verify(CollateralMarketOrder::PATH, &headers, &body, lookup);
        prop_assert!(result.is_err() || same_hex, "tampered request verified: which={which}");
    }

    #[test]
    fn debug_never_shows_the_secret(secret in secret_strategy(), order in order_strategy()) {
        let creds = Credentials::new("public-key", secret.as_bytes()).unwrap();
        let signer = Signer::new(creds.clone(), "https://whitebit.com").unwrap();
        let signed = signer.sign(&order, Nonce(1), NonceMode::Window).unwrap();
        for text in [format!("{creds:?}"), format!("{signer:?}"), format!("{signed:?}"), format!("{:?}", creds.secret())] {
            prop_assert!(!text.contains(&secret), "{text}");
        }
    }
}

#[test]
fn nonce_sequence_is_strictly_increasing_across_eight_threads() {
    let seq = NonceSequence::new();
    let per_thread = 20_000;
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let seq = seq.clone();
            std::thread::spawn(move || {
                let mut mine = Vec::with_capacity(per_thread);
                for i in 0..per_thread {
                    // Threads disagree about the time, and time sometimes goes backwards.
                    let now = 1_700_000_000_000 + (i as u64 / 7) + t;
                    mine.push(seq.next(now).get());
                }
                mine
            })
        })
        .collect();
    let mut all = HashSet::new();
    for h in handles {
        let mine = h.join().unwrap();
        assert!(
            mine.windows(2).all(|w| w[0] < w[1]),
            "each thread sees increasing nonces"
        );
        for n in mine {
            assert!(all.insert(n), "nonce {n} issued twice");
        }
    }
    assert_eq!(all.len(), 8 * per_thread);
    assert_eq!(seq.last(), *all.iter().max().unwrap());
}

#[test]
fn nonce_follows_the_clock_when_it_is_ahead() {
    let seq = Arc::new(NonceSequence::new());
    assert_eq!(seq.next(100).get(), 100);
    assert_eq!(seq.next(100).get(), 101);
    assert_eq!(seq.next(50).get(), 102);
    assert_eq!(seq.next(1_000).get(), 1_000);
}
