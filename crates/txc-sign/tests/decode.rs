//! Decoding answers: success bodies into typed results, every error shape of the wire contract
//! into `ApiError`, anything else into `DecodeError` with its status.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use txc_sign::{ApiErrorClass, DecodeErrorKind, Error, decode};
use txc_types::{CollateralMarketOrder, CollateralTriggerMarketOrder, SmartPlansQuery};

/// (name, status, body, expected class) — the error answers the wire contract documents.
const ERROR_ANSWERS: &[(&str, u16, &str, ApiErrorClass)] = &[
    (
        "amount_validation",
        422,
        r#"{"code":32,"message":"Validation failed","errors":{"amount":["Given amount is less than min amount 0.001","Min amount step = 0.000001"]}}"#,
        ApiErrorClass::Validation,
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
        ApiErrorClass::Validation,
    ),
    (
        "client_order_id_used",
        422,
        r#"{"code":36,"message":"Validation failed","errors":{"clientOrderId":["This client order id is already used by the current account."]}}"#,
        ApiErrorClass::Validation,
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
        ApiErrorClass::Validation,
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
        let err = decode::<CollateralMarketOrder>(*status, body.as_bytes()).unwrap_err();
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
    let err = decode::<CollateralMarketOrder>(422, ERROR_ANSWERS[0].2.as_bytes()).unwrap_err();
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
    let err = decode::<SmartPlansQuery>(400, long.as_bytes()).unwrap_err();
    assert!(err.api().unwrap().raw.len() <= txc_sign::ApiError::MAX_RAW + 3);
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
        let err = decode::<CollateralMarketOrder>(*status, body.as_bytes()).unwrap_err();
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
        decode::<CollateralMarketOrder>(503, b"").unwrap_err(),
        decode::<CollateralMarketOrder>(200, b"{\"orderId\":1,").unwrap_err(),
        decode::<CollateralMarketOrder>(502, b"<html>").unwrap_err(),
        decode::<CollateralMarketOrder>(503, ERROR_ANSWERS[8].2.as_bytes()).unwrap_err(),
    ];
    for err in &ambiguous {
        assert!(err.outcome_unknown(), "{err}");
        assert!(!err.is_retryable(), "{err}");
    }
    for (_, status, body, _) in &ERROR_ANSWERS[..7] {
        let err = decode::<CollateralMarketOrder>(*status, body.as_bytes()).unwrap_err();
        assert!(!err.outcome_unknown(), "{err}");
    }
}

#[test]
fn success_answers_decode() {
    let order = decode::<CollateralTriggerMarketOrder>(
        200,
        br#"{"orderId":7,"type":"stop market","activation_price":"40000","oto":null}"#,
    )
    .unwrap();
    assert_eq!(order.order_id, Some(7));
    let plans =
        decode::<SmartPlansQuery>(200, br#"[{"id":"a","status":2},{"id":"b","status":77}]"#)
            .unwrap();
    assert_eq!(plans.len(), 2);
}

#[test]
fn decode_error_snippet_redacts_token_like_runs() {
    let body = "<html>key=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA== rest</html>";
    let err = decode::<SmartPlansQuery>(502, body.as_bytes()).unwrap_err();
    let Error::Decode(d) = err else { panic!() };
    assert!(d.snippet.contains("<redacted>"), "{}", d.snippet);
    assert!(!d.snippet.contains("Zm9vYmFy"));
}
