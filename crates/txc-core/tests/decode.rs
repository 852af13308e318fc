//! Decoding answers: success bodies into typed results, every error shape of the wire contract
//! into `ApiError`, anything else into `DecodeError` with its status.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use txc_core::Error;
use txc_core::decode::{ApiErrorClass, DecodeErrorKind, Response, decode};
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder};

/// (name, status, body, expected class) — the error answers the wire contract documents.
const ERROR_ANSWERS: &[(&str, u16, &str, ApiErrorClass)] = &[
    (
        "amount_validation",
        422,
        r#"{"code":32,"message":"Validation failed","errors":{"amount":["Given amount is less than min amount 0.001","Min amount step = 0.000001"]}}"#,
        ApiErrorClass::Amount,
    ),
    (
        "insufficient_balance",
        422,
        r#"{"code":10,"message":"Inner validation failed","errors":{"amount":["Not enough balance."]}}"#,
        ApiErrorClass::InsufficientBalance,
    ),
    (
        "reduce_only",
        422,
        r#"{"code":116,"message":"Validation failed","errors":{"reduceOnly":["Reduce-only: Position doesn't exist or wrong side"]}}"#,
        ApiErrorClass::ReduceOnly,
    ),
    (
        "client_order_id_used",
        422,
        r#"{"code":36,"message":"Validation failed","errors":{"clientOrderId":["This client order id is already used by the current account."]}}"#,
        ApiErrorClass::ClientOrderId,
    ),
    (
        "plans_not_partner",
        403,
        r#"{"code":0,"message":"You don't have permission to use this endpoint. Please contact support for more details"}"#,
        ApiErrorClass::Permission,
    ),
    (
        "plans_unknown_ticker",
        400,
        r#"{"code":0,"message":"Validation failed","errors":{"ticker":["The selected ticker is invalid."]}}"#,
        ApiErrorClass::Validation,
    ),
    (
        "too_many_requests",
        429,
        r#"{"code":0,"errors":{},"message":"Too many requests."}"#,
        ApiErrorClass::TooManyRequests,
    ),
    (
        "too_many_nested",
        429,
        r#"{"success":false,"message":[["Too many requests."]],"result":[]}"#,
        ApiErrorClass::TooManyRequests,
    ),
    (
        "unavailable_envelope",
        503,
        r#"{"response":null,"status":503,"errors":{"message":[""]},"notification":null,"warning":null,"_token":null}"#,
        ApiErrorClass::Unavailable,
    ),
    (
        "invalid_payload",
        400,
        r#"{"code":9,"message":"Invalid payload."}"#,
        ApiErrorClass::Authentication,
    ),
    (
        "unauthorized",
        401,
        r#"{"code":10,"message":"Unauthorized request."}"#,
        ApiErrorClass::Authentication,
    ),
    (
        "key_disabled",
        403,
        r#"{"code":2,"message":"This action is unauthorized. Enable your key in API settings"}"#,
        ApiErrorClass::Authentication,
    ),
    (
        "payload_not_provided",
        400,
        r#"{"code":0,"message":"Payload not provided."}"#,
        ApiErrorClass::Authentication,
    ),
    (
        "nonce_not_provided",
        400,
        r#"{"code":0,"message":"Nonce not provided."}"#,
        ApiErrorClass::Nonce,
    ),
    (
        "nonce_window",
        400,
        r#"{"code":0,"message":"Your nonce is more than 5 seconds lesser than the current nonce."}"#,
        ApiErrorClass::Nonce,
    ),
    (
        "invalid_nonce_window",
        400,
        r#"{"code":0,"message":"Invalid nonceWindow."}"#,
        ApiErrorClass::Nonce,
    ),
    (
        "region",
        453,
        r#"{"code":0,"message":"This order type is not available in your region"}"#,
        ApiErrorClass::RegionRestricted,
    ),
    (
        "position_above_max",
        422,
        r#"{"code":111,"message":"Validation failed","errors":{"amount":["Position amount exceeds market maximum"]}}"#,
        ApiErrorClass::PositionLimit,
    ),
    (
        "errors_as_empty_list",
        422,
        r#"{"code":30,"message":"Validation failed","errors":[]}"#,
        ApiErrorClass::Validation,
    ),
    (
        "error_with_http_200",
        200,
        r#"{"code":31,"message":"Validation failed","errors":{"market":["Market is not available"]}}"#,
        ApiErrorClass::Validation,
    ),
];

#[test]
fn every_documented_error_answer_decodes_to_api_error() {
    let mut rendered = Vec::new();
    for (name, status, body, class) in ERROR_ANSWERS {
        let err =
            decode::<CollateralMarketOrder>(&Response::new(*status, body.as_bytes())).unwrap_err();
        let api = err.api().unwrap_or_else(|| panic!("{name}: {err:?}"));
        assert_eq!(api.class, *class, "{name}");
        assert_eq!(api.status, *status, "{name}");
        assert_eq!(err.status(), Some(*status));
        rendered.push(format!("{name}: {err}"));
    }
    insta::assert_snapshot!(rendered.join("\n"));
}

#[test]
fn api_error_keeps_code_message_and_field_errors() {
    let err = decode::<CollateralMarketOrder>(&Response::new(422, ERROR_ANSWERS[0].2.as_bytes()))
        .unwrap_err();
    let api = err.api().unwrap();
    assert_eq!(api.code, Some(32));
    assert_eq!(api.message, "Validation failed");
    assert_eq!(api.field_errors("amount").len(), 2);
    assert!(api.field_errors("market").is_empty());
    assert_eq!(api.raw, ERROR_ANSWERS[0].2);
    insta::assert_debug_snapshot!(api);
}

#[test]
fn raw_body_is_truncated() {
    let long = format!(r#"{{"code":1,"message":"{}"}}"#, "x".repeat(5000));
    let err = decode::<SmartPlansQuery>(&Response::new(400, long.as_bytes())).unwrap_err();
    assert!(err.api().unwrap().raw.len() <= txc_core::decode::ApiError::MAX_RAW + 3);
}

#[test]
fn undecodable_answers_are_decode_errors_with_status() {
    let html = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    let cases: &[(u16, &str, DecodeErrorKind)] = &[
        (503, "", DecodeErrorKind::Empty),
        (200, "", DecodeErrorKind::Empty),
        (502, html, DecodeErrorKind::Html),
        (
            200,
            r#"{"orderId":4180284841,"market":"BTC_"#,
            DecodeErrorKind::NotJson,
        ),
        (200, "[1,2,3]", DecodeErrorKind::Shape),
        (500, "Internal Server Error", DecodeErrorKind::NotJson),
        (404, r#"{"unexpected":true}"#, DecodeErrorKind::Shape),
    ];
    let mut rendered = Vec::new();
    for (status, body, kind) in cases {
        let err =
            decode::<CollateralMarketOrder>(&Response::new(*status, body.as_bytes())).unwrap_err();
        let Error::Decode(d) = &err else {
            panic!("{status} {body:?}: {err:?}")
        };
        assert_eq!(d.kind, *kind, "{body:?}");
        assert_eq!(d.status, *status);
        assert_eq!(d.operation, "collateral_market_order");
        rendered.push(err.to_string());
    }
    insta::assert_snapshot!(rendered.join("\n"));
}

#[test]
fn outcome_is_unknown_for_ambiguous_answers_only() {
    let ambiguous = [
        decode::<CollateralMarketOrder>(&Response::new(503, b"")).unwrap_err(),
        decode::<CollateralMarketOrder>(&Response::new(200, b"{\"orderId\":1,")).unwrap_err(),
        decode::<CollateralMarketOrder>(&Response::new(502, b"<html>")).unwrap_err(),
        decode::<CollateralMarketOrder>(&Response::new(503, ERROR_ANSWERS[8].2.as_bytes()))
            .unwrap_err(),
    ];
    for err in &ambiguous {
        assert!(err.outcome_unknown(), "{err}");
        assert!(!err.is_retryable(), "{err}");
    }
    for (_, status, body, _) in &ERROR_ANSWERS[..7] {
        let err =
            decode::<CollateralMarketOrder>(&Response::new(*status, body.as_bytes())).unwrap_err();
        assert!(!err.outcome_unknown(), "{err}");
    }
}

#[test]
fn success_answers_decode() {
    let order = decode::<CollateralTriggerMarketOrder>(&Response::new(
        200,
        br#"{"orderId":7,"clientOrderId":"","market":"BTC_USDT","side":"buy","type":"stop market","timestamp":1595792396,"dealMoney":"0","dealStock":"0","amount":"1","left":"1","activation_price":"40000","oto":null}"#,
    ))
    .unwrap();
    assert_eq!(order.order_id, 7);
    let plan = |id: &str, status: u8| {
        format!(
            r#"{{"id":"{id}","ticker":"USDT","status":{status},"percent":"1","duration":1,"interestTicker":"USDT","interestRatio":"1","minInvestment":"1","maxInvestment":"2","maxPossibleInvestment":"2"}}"#
        )
    };
    let body = format!("[{},{}]", plan("a", 2), plan("b", 77));
    let plans = decode::<SmartPlansQuery>(&Response::new(200, body.as_bytes())).unwrap();
    assert_eq!(plans.len(), 2);
}

#[test]
fn a_rate_limit_page_from_a_cdn_is_the_rate_limit() {
    for body in [
        "",
        "<html><body>Too many requests</body></html>",
        "Slow down",
    ] {
        let err =
            decode::<CollateralMarketOrder>(&Response::new(429, body.as_bytes())).unwrap_err();
        let api = err.api().unwrap();
        assert_eq!(
            (api.status, api.class),
            (429, ApiErrorClass::TooManyRequests)
        );
        assert_eq!(api.raw, body);
        assert!(err.is_retryable() && !err.outcome_unknown());
    }
}

/// Every refusal code the order pages document is its own class on an order endpoint — and
/// only there: codes are per endpoint (code 32 of a look-up is plain validation, code 10 of
/// the authentication layer a signature refused).
#[test]
fn the_order_pages_refusal_codes_are_classes_of_their_own_on_order_endpoints_only() {
    use txc_types::orders::{CollateralLimitOrder, ModifyOrder, OrderRefusal};
    for refusal in OrderRefusal::ALL {
        let body = format!(
            r#"{{"code":{},"message":"Validation failed","errors":{{"field":["refused"]}}}}"#,
            refusal.code()
        );
        for status in [400, 422] {
            let api = |error: Error| error.api().cloned().unwrap_or_else(|| panic!("{error:?}"));
            let limit = api(decode::<CollateralLimitOrder>(&Response::new(
                status,
                body.as_bytes(),
            ))
            .unwrap_err());
            assert_eq!(limit.refusal, Some(refusal), "{refusal}");
            assert_eq!(limit.class, ApiErrorClass::from(refusal), "{refusal}");
            let modify =
                api(decode::<ModifyOrder>(&Response::new(status, body.as_bytes())).unwrap_err());
            assert_eq!(modify.refusal, Some(refusal), "{refusal}");
            let read = api(
                decode::<SmartPlansQuery>(&Response::new(status, body.as_bytes())).unwrap_err(),
            );
            assert_eq!(read.refusal, None, "{refusal}");
            assert!(
                matches!(
                    read.class,
                    ApiErrorClass::Validation
                        | ApiErrorClass::InsufficientBalance
                        | ApiErrorClass::PositionLimit
                        | ApiErrorClass::PendingOrdersLimit
                        | ApiErrorClass::PositionsOpen
                        | ApiErrorClass::PositionSideMismatch
                        | ApiErrorClass::OppositePosition
                        | ApiErrorClass::ReduceOnly
                ),
                "{refusal}: {:?}",
                read.class
            );
        }
    }
    // The authentication layer's code 10, a 5xx and a 429 are never refusals.
    for (status, body) in [
        (401, r#"{"code":10,"message":"Unauthorized request."}"#),
        (503, r#"{"code":32,"message":"Validation failed"}"#),
        (
            429,
            r#"{"code":0,"errors":{},"message":"Too many requests."}"#,
        ),
    ] {
        let err =
            decode::<CollateralLimitOrder>(&Response::new(status, body.as_bytes())).unwrap_err();
        assert_eq!(err.api().and_then(|a| a.refusal), None, "{body}");
    }
}

#[test]
fn classes_come_from_status_code_and_field_not_generic_messages() {
    let class = |status, body: &str| {
        decode::<CollateralMarketOrder>(&Response::new(status, body.as_bytes()))
            .unwrap_err()
            .api()
            .unwrap()
            .class
    };
    // "Inner validation failed" with a code that is not about balance is validation.
    assert_eq!(
        class(
            422,
            r#"{"code":1,"message":"Inner validation failed","errors":{"amount":["Invalid argument."]}}"#
        ),
        ApiErrorClass::Validation
    );
    // Insufficient balance: code 10 with field errors, or the balance field message.
    assert_eq!(
        class(
            400,
            r#"{"code":"10","message":"anything","errors":{"amount":["x"]}}"#
        ),
        ApiErrorClass::InsufficientBalance
    );
    assert_eq!(
        class(
            422,
            r#"{"code":32,"message":"Validation failed","errors":{"amount":["Not enough balance."]}}"#
        ),
        ApiErrorClass::InsufficientBalance
    );
    // Code 10 without field errors is the authentication code of `Unauthorized request.`.
    assert_eq!(
        class(401, r#"{"code":10,"message":"Unauthorized request."}"#),
        ApiErrorClass::Authentication
    );
    // A gateway's 503 saying "Too many requests." is unavailability, not the rate limit.
    assert_eq!(
        class(503, r#"{"code":0,"message":"Too many requests."}"#),
        ApiErrorClass::Unavailable
    );
    // Codes may arrive as strings; the raw code and messages stay available.
    let err = decode::<CollateralMarketOrder>(&Response::new(
        422,
        br#"{"code":"36","message":"Validation failed","errors":{"clientOrderId":["x","y"]}}"#,
    ))
    .unwrap_err();
    let api = err.api().unwrap();
    assert_eq!(api.code, Some(36));
    assert_eq!(api.field_errors("clientOrderId"), ["x", "y"]);
}

#[test]
fn decode_error_snippet_redacts_token_like_runs() {
    let body = "<html>key=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA== rest</html>";
    let err = decode::<SmartPlansQuery>(&Response::new(502, body.as_bytes())).unwrap_err();
    let Error::Decode(d) = err else { panic!() };
    assert!(d.snippet.contains("<redacted>"), "{}", d.snippet);
    assert!(!d.snippet.contains("Zm9vYmFy"));
}

proptest! {
    #[test]
    fn decoding_arbitrary_answers_never_panics(status in any::<u16>(), body in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = decode::<CollateralMarketOrder>(&Response::new(status, &body));
        let _ = decode::<CollateralTriggerMarketOrder>(&Response::new(status, &body));
        let _ = decode::<SmartPlansQuery>(&Response::new(status, &body));
    }

    #[test]
    fn decoding_json_like_answers_never_panics(status in 100u16..600, body in r#"[\[\]{}":,0-9a-zA-Z. ]{0,200}"#) {
        let _ = decode::<CollateralMarketOrder>(&Response::new(status, body.as_bytes()));
        let _ = decode::<SmartPlansQuery>(&Response::new(status, body.as_bytes()));
    }
}

/// The SDK's errors from a client's refused configuration, the exchange's answers and a
/// refused request value: none shows the secret.
#[test]
fn no_error_shows_the_secret() {
    const SECRET: &str = "s3cr3t-DO-NOT-PRINT-4f9a";
    let credentials = txc_sign::Credentials::new("key", SECRET).unwrap();
    let errors: Vec<Error> = vec![
        txc_sign::Signer::new(credentials, "nope")
            .unwrap_err()
            .into(),
        decode::<CollateralMarketOrder>(&Response::new(
            401,
            br#"{"code":10,"message":"Unauthorized request."}"#,
        ))
        .unwrap_err(),
        decode::<CollateralMarketOrder>(&Response::new(502, b"<html>bad gateway</html>"))
            .unwrap_err(),
        CollateralMarketOrder::builder("BTC_USDT", txc_types::orders::Side::Buy, SECRET)
            .build()
            .unwrap_err()
            .into(),
    ];
    for e in &errors {
        for text in [format!("{e}"), format!("{e:?}")] {
            assert!(!text.contains(SECRET), "secret leaked in: {text}");
        }
    }
}
