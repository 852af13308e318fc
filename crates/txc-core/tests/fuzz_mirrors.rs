//! Proptest mirrors of the cargo-fuzz targets in `fuzz/`: the same invariants (one copy, in
//! `support/fuzz_invariants.rs`, which the fuzz crate includes as its library) driven by
//! proptest strategies on every `cargo test`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[path = "support/fuzz_invariants.rs"]
pub mod fuzz_invariants;

use fuzz_invariants::{
    GuardModel, KEY, PATHS, check_decode, check_nonce_guard, check_verify, check_verify_framed,
    creds, headers, split_status,
};
use http::HeaderMap;
use proptest::prelude::*;
use serde_json::{Value, json};
use txc_core::decode::{ApiError, api_error};
use txc_sign::server::{AuthRejection, NonceGuard};
use txc_sign::stages::{payload, signature};
use txc_types::endpoint::Endpoint;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder};

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

fn check_decode_all(status: u16, body: &[u8]) {
    check_decode::<CollateralMarketOrder>(status, body);
    check_decode::<CollateralTriggerMarketOrder>(status, body);
    check_decode::<SmartPlansQuery>(status, body);
}

/// Arbitrary JSON values whose keys are the ones the decoders look at.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("code"),
        Just("message"),
        Just("errors"),
        Just("status"),
        Just("success"),
        Just("orderId"),
        Just("market"),
        Just("side"),
        Just("type"),
        Just("amount"),
        Just("id"),
        Just("ticker"),
        Just("oto"),
        Just("x"),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("Too many requests."),
            Just("Not enough balance."),
            Just("nonce"),
            Just("buy"),
            Just("FILLED"),
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

/// Bodies: raw bytes, JSON values (sometimes truncated or padded), long error bodies.
fn answer_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..160),
        (json_value(), any::<prop::sample::Index>(), any::<bool>()).prop_map(|(v, cut, whole)| {
            let text = v.to_string().into_bytes();
            if whole {
                text
            } else {
                let n = cut.index(text.len() + 1);
                text[..n].to_vec()
            }
        }),
        "[ \\t\\r\\n<>{}\\[\\]\":,.0-9a-zA-Z\\\\é€]{0,64}".prop_map(String::into_bytes),
        // Error bodies around ApiError::MAX_RAW, with multi-byte characters.
        (990usize..1060, "[aé€😀]{1,8}", any::<u8>()).prop_map(|(len, tail, code)| {
            let mut msg = "m".repeat(len);
            msg.push_str(&tail);
            json!({ "code": code, "message": msg, "errors": {} })
                .to_string()
                .into_bytes()
        }),
    ]
}

fn status() -> impl Strategy<Value = u16> {
    prop_oneof![
        200u16..300,
        any::<u16>(),
        prop::sample::select(vec![400u16, 401, 403, 422, 429, 453, 500, 503]),
    ]
}

/// Envelope-shaped bodies: every field present, absent or of a wrong type, plus extra fields.
fn envelope_body(path: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let request = prop_oneof![
        6 => Just(Some(Value::from(path))),
        1 => prop::sample::select(PATHS.to_vec()).prop_map(|p| Some(Value::from(p))),
        1 => Just(None),
        1 => Just(Some(Value::Null)),
        1 => "/[a-z/]{0,12}".prop_map(|p| Some(Value::from(p))),
        1 => any::<i64>().prop_map(|n| Some(Value::from(n))),
    ];
    let nonce = prop_oneof![
        4 => any::<u64>().prop_map(|n| Some(Value::from(n))),
        2 => "[0-9]{1,22}".prop_map(|n| Some(Value::from(n))),
        1 => Just(None),
        1 => any::<i64>().prop_map(|n| Some(Value::from(n))),
        1 => any::<f64>().prop_map(|f| {
            Some(serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number))
        }),
        1 => ".{0,6}".prop_map(|s| Some(Value::from(s))),
    ];
    let window = prop_oneof![
        3 => Just(None),
        3 => any::<bool>().prop_map(|b| Some(Value::from(b))),
        1 => Just(Some(Value::Null)),
        1 => "[a-z]{0,5}".prop_map(|s| Some(Value::from(s))),
        1 => any::<u8>().prop_map(|n| Some(Value::from(n))),
    ];
    (
        request,
        nonce,
        window,
        prop::collection::vec(("[a-zA-Z]{1,8}", json_value()), 0..3),
        any::<bool>(),
    )
        .prop_map(|(request, nonce, window, extra, spaced)| {
            let mut obj = serde_json::Map::new();
            for (k, v) in [
                ("request", request),
                ("nonce", nonce),
                ("nonceWindow", window),
            ] {
                if let Some(v) = v {
                    obj.insert(k.to_owned(), v);
                }
            }
            for (k, v) in extra {
                obj.entry(k).or_insert(v);
            }
            let v = Value::Object(obj);
            if spaced {
                serde_json::to_vec_pretty(&v).unwrap()
            } else {
                serde_json::to_vec(&v).unwrap()
            }
        })
}

/// A path and a body to send to it: mostly envelopes naming that path.
fn request_body() -> impl Strategy<Value = (&'static str, Vec<u8>)> {
    prop::sample::select(PATHS.to_vec()).prop_flat_map(|path| (Just(path), any_request_body(path)))
}

fn any_request_body(path: &'static str) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => envelope_body(path),
        // An extra field whose string value holds invalid UTF-8: not JSON, must be refused.
        1 => (envelope_body(path), prop::collection::vec(any::<u8>(), 0..4)).prop_map(
            |(mut body, junk)| {
                body.pop();
                body.extend_from_slice(b",\"zz\":\"\xff");
                body.extend(junk.into_iter().filter(|b| *b != b'"' && *b != b'\\' && *b >= 0x20));
                body.extend_from_slice(b"\"}");
                body
            }
        ),
        1 => prop::collection::vec(any::<u8>(), 0..64),
        1 => answer_body(),
    ]
}

/// Headers of a request to `body` signed with the fuzz credentials under `key`.
fn signed_headers(key: Option<&str>, body: &[u8]) -> (String, String, HeaderMap) {
    let p = payload(body);
    let s = signature(creds(), &p);
    let h = headers(
        key.map(str::as_bytes),
        Some(p.as_bytes()),
        Some(s.as_bytes()),
    );
    (p, s, h)
}

/// Headers from optional text values.
fn text_headers(key: Option<&str>, p: Option<&str>, s: Option<&str>) -> HeaderMap {
    headers(
        key.map(str::as_bytes),
        p.map(str::as_bytes),
        s.map(str::as_bytes),
    )
}

// ---------------------------------------------------------------------------------------------
// The mirrors
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Mirrors `decode_market_order`, `decode_trigger_market_order` and `decode_smart_plans`.
    #[test]
    fn decode_mirror(status in status(), body in answer_body()) {
        check_decode_all(status, &body);
    }

    /// `decode_*` on the raw fuzz framing: the first two bytes are the status.
    #[test]
    fn decode_mirror_framed(data in prop::collection::vec(any::<u8>(), 0..128)) {
        let (status, body) = split_status(&data);
        check_decode_all(status, body);
    }

    /// Mirrors `verify_request` on its raw framing, with bodies that are mostly envelopes.
    #[test]
    fn verify_framed_mirror(
        flags in any::<u8>(),
        delta in any::<u8>(),
        segments in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 4),
        (_, body) in request_body(),
    ) {
        let mut data = vec![flags, delta];
        for seg in &segments {
            data.push(u8::try_from(seg.len()).unwrap());
            data.extend_from_slice(seg);
        }
        data.extend_from_slice(&body);
        check_verify_framed(&data);
    }

    /// Mirrors `verify_request` in its signed mode: a correct signature over any body, under
    /// an enabled, disabled or unknown key; what it accepts goes through the nonce guard.
    #[test]
    fn verify_signed_mirror(
        (path, body) in request_body(),
        key_status in prop::sample::select(vec![Some(true), Some(false), None]),
        now_delta in -6_000i64..6_000,
    ) {
        let (_, _, h) = signed_headers(Some(KEY), &body);
        if let Ok(v) = check_verify(path, &h, &body, key_status) {
            check_nonce_guard(&v, now_delta);
        }
    }

    /// Mirrors `verify_request` with tampering: any change to key, payload, signature or body
    /// of a correctly signed request is refused.
    #[test]
    fn verify_tamper_mirror(
        (path, body) in prop::sample::select(PATHS.to_vec())
            .prop_flat_map(|path| (Just(path), envelope_body(path))),
        what in 0u8..6,
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let (p, s, signed) = signed_headers(Some(KEY), &body);
        let (h, b, expected) = match what {
            0 => {
                // Another valid base64 character in the payload.
                let tampered = replace_at(&p, at, b'A', b'B');
                let h = text_headers(Some(KEY), Some(&tampered), Some(&s));
                (h, body.clone(), AuthRejection::UNAUTHORIZED)
            }
            1 => {
                let tampered = replace_at(&s, at, b'0', b'1');
                let h = text_headers(Some(KEY), Some(&p), Some(&tampered));
                (h, body.clone(), AuthRejection::UNAUTHORIZED)
            }
            2 => {
                let mut tampered = body.clone();
                let i = at.index(tampered.len());
                tampered[i] ^= flip;
                (signed.clone(), tampered, AuthRejection::INVALID_PAYLOAD)
            }
            3 => {
                let h = text_headers(Some("other-key"), Some(&p), Some(&s));
                (h, body.clone(), AuthRejection::UNAUTHORIZED)
            }
            4 => {
                let h = text_headers(Some(KEY), None, Some(&s));
                (h, body.clone(), AuthRejection::PAYLOAD_NOT_PROVIDED)
            }
            _ => {
                let h = text_headers(None, Some(&p), Some(&s));
                (h, body.clone(), AuthRejection::UNAUTHORIZED)
            }
        };
        prop_assert_eq!(check_verify(path, &h, &b, Some(true)), Err(expected));
        // A disabled key is refused before the signature is looked at.
        prop_assert_eq!(
            check_verify(path, &signed, &body, Some(false)),
            Err(AuthRejection::KEY_DISABLED)
        );
    }

    /// Mirrors `verify_request` in its raw mode: arbitrary header strings.
    #[test]
    fn verify_raw_mirror(
        key in prop_oneof![Just(KEY.to_owned()), "[ -~]{0,12}"],
        p in "[A-Za-z0-9+/=]{0,24}|.{0,8}",
        s in "[0-9a-fA-F]{0,130}|.{0,8}",
        (path, body) in request_body(),
    ) {
        let h = text_headers(Some(&key), Some(&p), Some(&s));
        let _ = check_verify(path, &h, &body, Some(true));
    }

    /// NonceGuard against its model over arbitrary sequences (time never goes backwards).
    #[test]
    fn nonce_guard_mirror(
        ops in prop::collection::vec((0u8..3, 0u64..20_000, any::<bool>(), 0u64..3_000), 1..40)
    ) {
        let mut guard = NonceGuard::default();
        let mut model = GuardModel::default();
        let mut now = 10_000u64;
        for (key, nonce, window, advance) in ops {
            now += advance;
            let key = format!("k{key}");
            let expected = model.check(&key, nonce, window, now);
            prop_assert_eq!(guard.check(&key, nonce, window, now), expected);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Seeds and regression tests
// ---------------------------------------------------------------------------------------------

#[test]
fn wire_contract_answers_hold_the_invariants() {
    let bodies: &[(u16, &[u8])] = &[
        (200, br#"{"orderId":4180284841,"clientOrderId":"order1987111","market":"BTC_USDT","side":"sell","type":"market","timestamp":1595792396.165973,"dealMoney":"0","dealStock":"0","amount":"0.001","left":"0.001","dealFee":"0","status":"FILLED","stp":"no","oto":{"otoId":29457221,"stopLoss":"50000","takeProfit":"40000"},"positionSide":"LONG","reduceOnly":false}"#),
        (200, br#"[{"id":"8e667b4a-0b71-4988-8af5-9474dbfaeb51","ticker":"USDT","status":1,"percent":"10","duration":14400,"interestTicker":"USDT","interestRatio":"1","minInvestment":"100","maxInvestment":"10000","maxPossibleInvestment":"3000"}]"#),
        (429, br#"{"code":0,"errors":{},"message":"Too many requests."}"#),
        (200, br#"{"success":false,"message":[["Too many requests."]],"result":[]}"#),
        (503, br#"{"response":null,"status":503,"errors":{"message":[""]},"notification":null,"warning":null,"_token":null}"#),
        (503, b""),
        (502, b"<html><body><h1>502 Bad Gateway</h1></body></html>"),
        (422, br#"{"code":32,"message":"Validation failed","errors":{"amount":["Given amount is less than min amount 0.001","Min amount step = 0.000001"]}}"#),
        (422, br#"{"code":10,"message":"Inner validation failed","errors":{"amount":["Not enough balance."]}}"#),
        (200, br#"{"orderId":41802848"#),
    ];
    for (status, body) in bodies {
        check_decode_all(*status, body);
    }
}

/// Regression (bug 1, fixed in f06d7ce): `ApiError::raw` must stay within `MAX_RAW + 3` bytes (the cut plus
/// `…`), also when byte `MAX_RAW` falls inside a multi-byte character. The fuzzer's minimized
/// input (seed `fuzz/seeds/decode_smart_plans/crash_raw_split_char`) is a 1030-byte 422 body
/// of Cyrillic field messages; this is the same shape in fewer bytes.
#[test]
fn raw_is_cut_on_a_char_boundary() {
    let mut body = br#"{"message":""#.to_vec();
    body.resize(ApiError::MAX_RAW - 1, b'a');
    body.extend_from_slice("é\"}".as_bytes());
    let e = api_error(400, &body).unwrap();
    assert!(
        e.raw.len() <= ApiError::MAX_RAW + 3,
        "raw is {} bytes",
        e.raw.len()
    );
    assert!(!e.raw.contains('\u{fffd}'));
}

/// Regression (bug 2, fixed in f06d7ce): a body that is not valid JSON (invalid UTF-8 inside an ignored
/// string value) must be refused as `Invalid payload.`, whatever else it holds.
#[test]
fn verify_rejects_invalid_utf8() {
    let bodies: [&[u8]; 2] = [
        // Was accepted outright.
        b"{\"request\":\"/api/v4/main-account/smart/plans\",\"nonce\":1,\"x\":\"\xff\"}",
        // Minimized by `cargo fuzz tmin verify_request` (seed
        // `fuzz/seeds/verify_request/crash_invalid_utf8_ignored_value`): was answered
        // `Request not provided.`.
        b"{\"r_\":\"\xffes\"}",
    ];
    for body in bodies {
        let (_, _, h) = signed_headers(Some(KEY), body);
        let result = check_verify(SmartPlansQuery::PATH, &h, body, Some(true));
        assert_eq!(result, Err(AuthRejection::INVALID_PAYLOAD), "{body:?}");
    }
}

/// `text` with its ASCII character at `at` replaced by `with`, or by `instead` where it already
/// is `with`: a different character of the same alphabet.
fn replace_at(text: &str, at: prop::sample::Index, with: u8, instead: u8) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let i = at.index(bytes.len());
    bytes[i] = if bytes[i] == with { instead } else { with };
    String::from_utf8(bytes).unwrap()
}
