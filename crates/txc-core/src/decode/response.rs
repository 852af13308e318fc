//! Response decoding shared by every transport: a [`Response`] → `Result<E::Response, Error>`.
//!
//! The status decides first. A 2xx response is read as the endpoint's response type (an order
//! response must carry an order id); if it cannot be, it is an error whose order outcome is
//! unknown — never a definite failure. Any other status is read as one of the exchange's error
//! shapes ([`ApiError`]); a 429 whose body is not one (a CDN's page) is still the rate limit;
//! anything else unreadable (HTML, empty, truncated) is a [`DecodeError`] carrying the status.
//! Nothing here panics, whatever the bytes.

use std::collections::BTreeMap;

use http::HeaderMap;
use serde_json::Value;
use txc_types::endpoint::{Endpoint, EndpointKind};
use txc_types::orders::OrderRefusal;

use super::error::{ApiError, ApiErrorClass, DecodeError, DecodeErrorKind, Error, RetryAfter};
use super::flex_refusals::flex_class;
use super::messages::{NONCE_OUTSIDE_WINDOW, normalized};

/// A response as the core reads it: status, headers and body. "Response" is what the server
/// sends back; the transport builds one from its HTTP library's response.
#[derive(Debug, Clone, Copy)]
pub struct Response<'a> {
    status: u16,
    headers: Option<&'a HeaderMap>,
    body: &'a [u8],
}

impl<'a> Response<'a> {
    /// A response with `status` and `body` and no headers.
    pub fn new(status: u16, body: &'a [u8]) -> Self {
        Self {
            status,
            headers: None,
            body,
        }
    }

    /// The same response with its headers (the core reads `Retry-After`).
    pub fn with_headers(self, headers: &'a HeaderMap) -> Self {
        Self {
            headers: Some(headers),
            ..self
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The body.
    pub fn body(&self) -> &'a [u8] {
        self.body
    }

    /// The `Retry-After` header, if present and well-formed.
    pub fn retry_after(&self) -> Option<RetryAfter> {
        let value = self
            .headers?
            .get(http::header::RETRY_AFTER)?
            .to_str()
            .ok()?;
        RetryAfter::parse(value)
    }

    /// The `Date` header (the server's clock, to the second), if present and well-formed.
    pub fn date(&self) -> Option<std::time::SystemTime> {
        let value = self.headers?.get(http::header::DATE)?.to_str().ok()?;
        http_date(value)
    }
}

/// `value` read as an HTTP date, the thread's last reading reused when the text is the same
/// (answers within one second carry the same `Date`). The parse was about 700 instructions
/// and 60 instruction-cache misses of every answer (BENCHMARKS.md, issue 27); the comparison
/// is of the whole text, so a reuse is exact.
fn http_date(value: &str) -> Option<std::time::SystemTime> {
    /// Longer than any HTTP date form (29 to 30 bytes); a longer text is parsed each time.
    const KEPT: usize = 32;
    type Last = Option<([u8; KEPT], usize, Option<std::time::SystemTime>)>;
    thread_local! {
        static LAST: std::cell::Cell<Last> = const { std::cell::Cell::new(None) };
    }
    let bytes = value.as_bytes();
    let known = LAST.get();
    if let Some((text, len, parsed)) = known
        && text.get(..len) == Some(bytes)
    {
        return parsed;
    }
    let parsed = httpdate::parse_http_date(value).ok();
    let mut text = [0; KEPT];
    if let Some(kept) = text.get_mut(..bytes.len()) {
        kept.copy_from_slice(bytes);
        LAST.set(Some((text, bytes.len(), parsed)));
    }
    parsed
}

/// Decodes `response` as the response to endpoint `E`.
///
/// ```
/// use txc_core::decode::{ApiErrorClass, Response, decode};
/// use txc_types::investments::SmartPlansQuery;
/// let plan = br#"[{"id":"p1","ticker":"USDT","status":1,"percent":"10","duration":14400,
///     "interestTicker":"USDT","interestRatio":"1","minInvestment":"100",
///     "maxInvestment":"10000","maxPossibleInvestment":"3000"}]"#;
/// let plans = decode::<SmartPlansQuery>(&Response::new(200, plan))?;
/// assert_eq!(plans.len(), 1);
/// let err = decode::<SmartPlansQuery>(&Response::new(
///     429,
///     br#"{"code":0,"errors":{},"message":"Too many requests."}"#,
/// ))
/// .unwrap_err();
/// assert_eq!(err.api().map(|e| e.class), Some(ApiErrorClass::TooManyRequests));
/// assert!(err.is_retryable() && !err.outcome_unknown());
/// # Ok::<(), txc_core::Error>(())
/// ```
pub fn decode<E: Endpoint>(response: &Response<'_>) -> Result<E::Response, Error> {
    let status = response.status;
    let body = response.body;
    let detail = if (200..300).contains(&status) {
        match parse::<E::Response>(body) {
            Ok(decoded) => return Ok(decoded),
            Err(e) => {
                // An empty body reads as `null`, which only the answers documented without a
                // body accept (closing a position, switching hedge mode).
                if body.iter().all(u8::is_ascii_whitespace)
                    && let Ok(decoded) = parse::<E::Response>(b"null")
                {
                    return Ok(decoded);
                }
                e.to_string()
            }
        }
    } else {
        "not an error body the exchange sends".to_owned()
    };
    if let Some(mut api) = api_error(status, body) {
        // A refusal the endpoint documents as an outcome ("not found"), never a 2xx or 5xx.
        if (400..500).contains(&status)
            && let Some(outcome) = E::error_outcome(status, api.code, &api.errors)
        {
            return Ok(outcome);
        }
        if let Some(class) = investment_class(E::PATH, status, api.code, &api.errors)
            .or_else(|| flex_class(E::PATH, status, api.code, &api.errors))
        {
            api.class = class;
        }
        if let Some(refusal) = order_refusal(E::KIND, status, api.code, api.class) {
            api.refusal = Some(refusal);
            api.class = ApiErrorClass::from(refusal);
        }
        api.retry_after = response.retry_after();
        api.server_date = response.date();
        return Err(Error::from(api));
    }
    if status == 429 {
        // A rate limit answered by a CDN or firewall: the exchange did not act.
        return Err(Error::from(ApiError {
            status,
            code: None,
            message: String::new(),
            errors: BTreeMap::new(),
            class: ApiErrorClass::TooManyRequests,
            refusal: None,
            raw: truncate(body, ApiError::MAX_RAW),
            retry_after: response.retry_after(),
            server_date: response.date(),
            clock_skew: None,
        }));
    }
    Err(decode_error(E::OPERATION, response, &detail))
}

/// Parses JSON, checking UTF-8 once for the whole body rather than once per string (what
/// `serde_json::from_slice` does); a body that is not UTF-8 throughout goes to `from_slice`,
/// which accepts such bytes in values it skips, so the outcome is the same either way.
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> serde_json::Result<T> {
    match std::str::from_utf8(body) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(body),
    }
}

/// Parses an error body of any known shape with `status`; `None` when the body is not one.
/// Every field is read leniently: `code` as a number or a string, `message` as a string or
/// nested arrays of them, `errors` as an object of arrays or strings (or PHP's `[]`).
pub fn api_error(status: u16, body: &[u8]) -> Option<ApiError> {
    let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(body) else {
        return None;
    };
    let known_shape = obj.contains_key("message")
        || obj.contains_key("errors") && (obj.contains_key("code") || obj.contains_key("status"));
    if !known_shape {
        return None;
    }
    let code = obj.get("code").and_then(lenient_int);
    let message = obj.get("message").map(flatten_text).unwrap_or_default();
    let errors = obj.get("errors").map(field_errors).unwrap_or_default();
    let message = if message.is_empty() {
        errors
            .get("message")
            .map(|m| m.join("; "))
            .unwrap_or_default()
    } else {
        message
    };
    let class = classify(status, code, &message, &errors);
    Some(ApiError {
        status,
        code,
        message,
        errors,
        class,
        refusal: None,
        raw: truncate(body, ApiError::MAX_RAW),
        retry_after: None,
        server_date: None,
        clock_skew: None,
    })
}

/// An integer given as a number or a string.
fn lenient_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Joins every string in a value, however nested (`[["Too many requests."]]`).
fn flatten_text(v: &Value) -> String {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) if !s.is_empty() => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(map) => map.values().for_each(|i| walk(i, out)),
            Value::Number(n) => out.push(n.to_string()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut out);
    out.join("; ")
}

fn field_errors(v: &Value) -> BTreeMap<String, Vec<String>> {
    let Value::Object(map) = v else {
        return BTreeMap::new();
    };
    map.iter()
        .map(|(field, messages)| {
            let list = match messages {
                Value::Array(items) => items
                    .iter()
                    .map(|m| m.as_str().map_or_else(|| m.to_string(), str::to_owned))
                    .collect(),
                Value::String(s) => vec![s.clone()],
                other => vec![other.to_string()],
            };
            (field.clone(), list)
        })
        .collect()
}

/// Says what an error response means, status first, then by code and field (the
/// smart-investment endpoints' own codes, and the order pages' refusal codes 30–43 and 10 —
/// [`OrderRefusal`], one class each, set in [`ApiError::refusal`] — are read by [`decode`],
/// which knows the endpoint):
///
/// | rule (first that applies) | class |
/// |---|---|
/// | HTTP 429 | [`TooManyRequests`](ApiErrorClass::TooManyRequests) |
/// | HTTP 5xx | [`Unavailable`](ApiErrorClass::Unavailable) |
/// | HTTP 453 | [`RegionRestricted`](ApiErrorClass::RegionRestricted) |
/// | no field errors, and one of the exchange's documented authentication messages | by that message: nonce, too many requests, authentication or permission |
/// | HTTP 401 | [`Authentication`](ApiErrorClass::Authentication) |
/// | HTTP 403 | [`Permission`](ApiErrorClass::Permission) |
/// | a position or order code (4xx): 104 or 404 | [`NotFound`](ApiErrorClass::NotFound) |
/// | 111–116, by their [`OrderRefusal`] | [`PositionLimit`](ApiErrorClass::PositionLimit), [`PendingOrdersLimit`](ApiErrorClass::PendingOrdersLimit), [`PositionsOpen`](ApiErrorClass::PositionsOpen), [`PositionSideMismatch`](ApiErrorClass::PositionSideMismatch), [`OppositePosition`](ApiErrorClass::OppositePosition), [`ReduceOnly`](ApiErrorClass::ReduceOnly) |
/// | 17 | [`InsufficientBalance`](ApiErrorClass::InsufficientBalance) |
/// | 500 (a bulk cancel's item) | [`Unavailable`](ApiErrorClass::Unavailable) |
/// | code 10 with field errors, or a field error `Not enough balance.` | [`InsufficientBalance`](ApiErrorClass::InsufficientBalance) |
/// | HTTP 400 or 422, or any field errors | [`Validation`](ApiErrorClass::Validation) |
/// | anything else | [`Other`](ApiErrorClass::Other) |
///
/// Authentication responses carry no distinguishing code (most are code 0) and no field
/// errors, so for them — and only for them — the documented message is the class; it is
/// compared without case and without a final period. A generic message such as `Inner
/// validation failed` (used with several codes) never decides a class.
pub fn classify(
    status: u16,
    code: Option<i64>,
    message: &str,
    errors: &BTreeMap<String, Vec<String>>,
) -> ApiErrorClass {
    let field_errors = errors
        .iter()
        .any(|(field, messages)| field != "message" && messages.iter().any(|m| !m.is_empty()));
    let balance = errors
        .values()
        .flatten()
        .any(|m| normalized(m) == "not enough balance");
    let by_code = code.and_then(position_code_class);
    match status {
        429 => ApiErrorClass::TooManyRequests,
        500..=599 => ApiErrorClass::Unavailable,
        453 => ApiErrorClass::RegionRestricted,
        _ => match auth_message(message).filter(|_| !field_errors) {
            Some(class) => class,
            None if status == 401 => ApiErrorClass::Authentication,
            None if status == 403 => ApiErrorClass::Permission,
            None if by_code.is_some() => by_code.unwrap_or(ApiErrorClass::Other),
            None if balance || (code == Some(10) && field_errors) => {
                ApiErrorClass::InsufficientBalance
            }
            None if status == 400 || status == 422 || field_errors => ApiErrorClass::Validation,
            None => ApiErrorClass::Other,
        },
    }
}

/// The class of the codes the position and order endpoints document, each with one meaning
/// wherever it appears: 104 (close: position not found), 404 (bulk cancel's item: order not
/// found; 500: the trade service unavailable), 111–116 (collateral orders, leverage, hedge
/// mode: their [`OrderRefusal`] classes), 17 (leverage: balance).
fn position_code_class(code: i64) -> Option<ApiErrorClass> {
    Some(match code {
        104 | 404 => ApiErrorClass::NotFound,
        111..=116 => ApiErrorClass::from(OrderRefusal::from_code(code)?),
        17 => ApiErrorClass::InsufficientBalance,
        500 => ApiErrorClass::Unavailable,
        _ => return None,
    })
}

/// The refusal an order operation's 4xx answer with `code` states ([`OrderRefusal`]): the
/// order pages' codes mean what they say only there (code 10 is "insufficient balance" on an
/// order, something else elsewhere), so only an [`EndpointKind::Order`] endpoint's answer is
/// read by them — and never one [`classify`] read as the authentication layer's (`code 10
/// Unauthorized request.` is a signature refused, not a balance).
fn order_refusal(
    kind: EndpointKind,
    status: u16,
    code: Option<i64>,
    class: ApiErrorClass,
) -> Option<OrderRefusal> {
    let refusable = matches!(
        class,
        ApiErrorClass::Validation
            | ApiErrorClass::InsufficientBalance
            | ApiErrorClass::Other
            | ApiErrorClass::PositionLimit
            | ApiErrorClass::PendingOrdersLimit
            | ApiErrorClass::PositionsOpen
            | ApiErrorClass::PositionSideMismatch
            | ApiErrorClass::OppositePosition
            | ApiErrorClass::ReduceOnly
    );
    if kind != EndpointKind::Order || !(400..500).contains(&status) || !refusable {
        return None;
    }
    if class == ApiErrorClass::InsufficientBalance {
        // Read from the field's `Not enough balance.` whatever the code: what it says wins.
        return Some(OrderRefusal::InsufficientBalance);
    }
    OrderRefusal::from_code(code?)
}

/// The class of a refusal (HTTP 400 or 422) of the smart-investment endpoints, whose codes and
/// messages are their own — code 1 is "investment already exists" there and "invalid argument"
/// on the order endpoints, so [`classify`] alone cannot read them:
///
/// | endpoint | answer | class |
/// |---|---|---|
/// | invest | 422 code 1 / 2 / 3 / 4 / 5 | investment exists / below minimum / above maximum / insufficient balance / no funds in plan |
/// | invest | 400, `planId`: `Plan is inactive` or `Plan is disabled` / `Plan is paused` / `There are no coins left in the plan` | plan inactive / plan paused / no coins left |
/// | invest | 400, `amount`: `The amount must be at least …` / `… bigger than the amount left in this SMART plan …` | below minimum / above maximum |
/// | close | 400, `id`: `Investment not found` / 422 `Investment is already closed` | investment not found / investment closed |
///
/// `None` leaves the class [`classify`] gave (validation, permission, …).
fn investment_class(
    path: &str,
    status: u16,
    code: Option<i64>,
    errors: &BTreeMap<String, Vec<String>>,
) -> Option<ApiErrorClass> {
    use txc_types::investments::{CloseInvestment, Invest};
    let says = |field: &str, test: &dyn Fn(&str) -> bool| {
        errors
            .iter()
            .filter(|(f, _)| field.is_empty() || f.as_str() == field)
            .flat_map(|(_, messages)| messages)
            .any(|m| test(&normalized(m)))
    };
    match (path, status) {
        (Invest::PATH, 422) => Some(match code? {
            1 => ApiErrorClass::InvestmentExists,
            2 => ApiErrorClass::BelowMinimum,
            3 => ApiErrorClass::AboveMaximum,
            4 => ApiErrorClass::InsufficientBalance,
            5 => ApiErrorClass::NoFundsInPlan,
            _ => return None,
        }),
        (Invest::PATH, 400) => [
            ("planId", "plan is inactive", ApiErrorClass::PlanInactive),
            ("planId", "plan is disabled", ApiErrorClass::PlanInactive),
            ("planId", "plan is paused", ApiErrorClass::PlanPaused),
            (
                "planId",
                "there are no coins left in the plan",
                ApiErrorClass::NoCoinsLeft,
            ),
            (
                "amount",
                "the amount must be at least",
                ApiErrorClass::BelowMinimum,
            ),
            (
                "amount",
                "bigger than the amount left",
                ApiErrorClass::AboveMaximum,
            ),
        ]
        .into_iter()
        .find(|(field, text, _)| says(field, &|m: &str| m.contains(text)))
        .map(|(_, _, class)| class),
        (CloseInvestment::PATH, 400) if says("id", &|m| m == "investment not found") => {
            Some(ApiErrorClass::InvestmentNotFound)
        }
        (CloseInvestment::PATH, 422) if says("", &|m| m == "investment is already closed") => {
            Some(ApiErrorClass::InvestmentClosed)
        }
        _ => None,
    }
}

/// The class of one of the exchange's documented authentication messages.
fn auth_message(message: &str) -> Option<ApiErrorClass> {
    let m = normalized(message);
    Some(match m.as_str() {
        "too many requests" => ApiErrorClass::TooManyRequests,
        "nonce not provided" | "invalid noncewindow" | NONCE_OUTSIDE_WINDOW => ApiErrorClass::Nonce,
        "payload not provided"
        | "invalid payload"
        | "unauthorized request"
        | "request not provided"
        | "this action is unauthorized"
        | "this action is unauthorized. enable your key in api settings"
        | "this api key is not authorized to perform this action"
        | "invalid api key, signature, or nonce" => ApiErrorClass::Authentication,
        _ if m.starts_with("you don't have permission to use this endpoint") => {
            ApiErrorClass::Permission
        }
        _ => return None,
    })
}

fn decode_error(operation: &'static str, response: &Response<'_>, detail: &str) -> Error {
    let (status, body) = (response.status, response.body);
    let trimmed = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map_or(&[][..], |i| body.get(i..).unwrap_or_default());
    let kind = if trimmed.is_empty() {
        DecodeErrorKind::Empty
    } else if trimmed.first() == Some(&b'<') {
        DecodeErrorKind::Html
    } else if serde_json::from_slice::<serde::de::IgnoredAny>(trimmed).is_ok() {
        DecodeErrorKind::Shape
    } else {
        DecodeErrorKind::NotJson
    };
    Error::Decode(DecodeError {
        operation,
        status,
        kind,
        detail: detail.chars().take(200).collect(),
        snippet: snippet(body),
        retry_after: response.retry_after(),
    })
}

/// The first bytes of a body as text, truncated.
fn truncate(body: &[u8], max: usize) -> String {
    let mut end = max.min(body.len());
    // Never cut inside a UTF-8 character: back off over continuation bytes (at most 3).
    for _ in 0..3 {
        match body.get(end) {
            Some(b) if end > 0 && b & 0xC0 == 0x80 => end -= 1,
            _ => break,
        }
    }
    let head = body.get(..end).unwrap_or_default();
    let mut text = String::from_utf8_lossy(head).into_owned();
    if body.len() > max {
        text.push('…');
    }
    text
}

/// The start of a body for an error message: at most 96 characters, control characters
/// replaced, and runs of 24 or more token-like characters (keys, signatures, payloads)
/// redacted.
pub(crate) fn snippet(body: &[u8]) -> String {
    const MAX: usize = 96;
    const TOKEN_RUN: usize = 24;
    let text = truncate(body, MAX);
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.chars().count() >= TOKEN_RUN {
            out.push_str("<redacted>");
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '-' | '_') {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(if c.is_control() { ' ' } else { c });
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::time::{Duration, UNIX_EPOCH};

    use proptest::prelude::*;
    use txc_types::orders::Order;

    use super::{http_date, parse};

    /// A `Date` text: well-formed at a second near now, or one of the other forms, or not a
    /// date at all, or longer than the kept text.
    fn date_text() -> impl Strategy<Value = String> {
        prop_oneof![
            (1_700_000_000u64..1_700_000_004)
                .prop_map(|s| httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_secs(s))),
            Just("Sunday, 06-Nov-94 08:49:37 GMT".to_owned()),
            Just("Sun Nov  6 08:49:37 1994".to_owned()),
            "[ -~]{0,40}",
        ]
    }

    proptest! {
        /// Reusing the thread's last reading never changes a reading: in any sequence of
        /// texts, each reads as httpdate reads it alone.
        #[test]
        fn a_reused_date_reads_as_a_fresh_parse(
            texts in proptest::collection::vec(date_text(), 1..40)
        ) {
            for text in texts {
                let alone = httpdate::parse_http_date(&text).ok();
                prop_assert_eq!(http_date(&text), alone, "{}", text);
            }
        }
    }

    #[test]
    fn parsing_gives_what_from_slice_gives() {
        let bodies: [&[u8]; 6] = [
            br#"{"orderId":7,"market":"BTC_USDT","junk":{"a":[1,"\u00e9"]}}"#,
            "{\"orderId\":7,\"note\":\"caf\u{e9}\"}".as_bytes(),
            b"{\"orderId\":7,\"junk\":\"\xff\xfe\"}",
            b"{\"market\":\"\xff\"}",
            b"{\"orderId\":7}\xff",
            b"\xef\xbb\xbf{}",
        ];
        for body in bodies {
            let fast = parse::<Order>(body).map_err(|e| e.to_string());
            let slow = serde_json::from_slice::<Order>(body).map_err(|e| e.to_string());
            assert_eq!(fast, slow, "{}", String::from_utf8_lossy(body));
        }
    }
}
