//! Response decoding shared by every transport: `(status, body) -> Result<Response, Error>`.
//!
//! Success bodies decode into the endpoint's response type; every error shape the exchange is
//! known to send decodes into [`ApiError`]; anything else (HTML, empty, truncated) is a
//! [`DecodeError`] carrying the status. Nothing here panics, whatever the bytes.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use serde_json::Value;
use txc_types::Endpoint;

use crate::error::{ApiError, ApiErrorClass, DecodeError, DecodeErrorKind, Error};

/// Decodes the answer `(status, body)` to endpoint `E`.
///
/// ```
/// use txc_sign::{decode, ApiErrorClass};
/// use txc_types::SmartPlansQuery;
/// let plans = decode::<SmartPlansQuery>(200, br#"[{"id":"p1","status":1}]"#)?;
/// assert_eq!(plans.len(), 1);
/// let err = decode::<SmartPlansQuery>(429, br#"{"code":0,"errors":{},"message":"Too many requests."}"#)
///     .unwrap_err();
/// assert_eq!(err.api().map(|e| e.class), Some(ApiErrorClass::TooManyRequests));
/// # Ok::<(), txc_sign::Error>(())
/// ```
pub fn decode<E: Endpoint>(status: u16, body: &[u8]) -> Result<E::Response, Error> {
    let success = (200..300).contains(&status);
    let first_failure = if success && !looks_like_error(body) {
        match parse::<E::Response>(body) {
            Ok(response) => return Ok(response),
            Err(e) => Some(e),
        }
    } else {
        None
    };
    if let Some(api) = api_error(status, body) {
        return Err(Error::from(api));
    }
    let detail = match (success, first_failure) {
        (true, Some(e)) => e.to_string(),
        // A 2xx body that only looked like an error answer: it may still be a response.
        (true, None) => match parse::<E::Response>(body) {
            Ok(response) => return Ok(response),
            Err(e) => e.to_string(),
        },
        (false, _) => "not an error body the exchange sends".to_owned(),
    };
    Err(decode_error(E::OPERATION, status, body, &detail))
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

/// A cheap pre-check on success bodies: objects naming a `message` (`"message":` or
/// `"message" `) are error answers that arrived with HTTP 200, not orders.
fn looks_like_error(body: &[u8]) -> bool {
    const KEY: &[u8] = b"\"message\"";
    // Built once: building a searcher costs more than searching an order answer.
    static FINDER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(KEY));
    body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
        && FINDER
            .find_iter(body)
            .any(|at| matches!(body.get(at + KEY.len()), Some(b':' | b' ')))
}

/// Parses an error answer of any known shape; `None` when the body is not one.
pub fn api_error(status: u16, body: &[u8]) -> Option<ApiError> {
    let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(body) else {
        return None;
    };
    let code = obj.get("code").and_then(Value::as_i64);
    let message = obj.get("message").map(flatten_text).unwrap_or_default();
    let errors = obj.get("errors").map(field_errors).unwrap_or_default();
    let known_shape = obj.contains_key("message")
        || obj.contains_key("errors") && (obj.contains_key("code") || obj.contains_key("status"));
    if !known_shape {
        return None;
    }
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
        raw: truncate(body, ApiError::MAX_RAW),
    })
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

/// Says what an error answer means, from its status, code, message and field errors.
pub fn classify(
    status: u16,
    code: Option<i64>,
    message: &str,
    errors: &BTreeMap<String, Vec<String>>,
) -> ApiErrorClass {
    let msg = message.to_ascii_lowercase();
    let any_field = |needle: &str| {
        errors
            .values()
            .flatten()
            .any(|m| m.to_ascii_lowercase().contains(needle))
    };
    if status == 429 || msg.contains("too many requests") {
        ApiErrorClass::TooManyRequests
    } else if msg.contains("nonce") {
        ApiErrorClass::Nonce
    } else if status == 401
        || msg.contains("unauthorized")
        || msg.contains("payload")
        || msg.contains("request not provided")
    {
        ApiErrorClass::Authentication
    } else if status == 403 || msg.contains("permission") {
        ApiErrorClass::Permission
    } else if status == 453 {
        ApiErrorClass::RegionRestricted
    } else if status >= 500 {
        ApiErrorClass::Unavailable
    } else if msg.contains("inner validation failed")
        || any_field("not enough balance")
        || (code == Some(10) && (status == 422 || status == 400))
    {
        ApiErrorClass::InsufficientBalance
    } else if status == 400 || status == 422 || msg.contains("validation") {
        ApiErrorClass::Validation
    } else {
        ApiErrorClass::Other
    }
}

fn decode_error(operation: &'static str, status: u16, body: &[u8], detail: &str) -> Error {
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

    use txc_types::Order;

    use super::{looks_like_error, parse};

    #[test]
    fn error_shapes_are_recognised_by_their_message_key() {
        for body in [
            r#"{"code":0,"message":"Too many requests."}"#,
            r#"  {"message" : "x"}"#,
            r#"{"a":{"message":"nested"}}"#,
            r#"{"success":false,"message":[["Too many requests."]],"result":[]}"#,
        ] {
            assert!(looks_like_error(body.as_bytes()), "{body}");
        }
        for body in [
            r#"{"orderId":1,"type":"message"}"#,
            r#"{"orderId":1,"note":"\"message\""}"#,
            r#"[{"message":"in an array"}]"#,
            r#"{"messages":1}"#,
            "",
            r#"{"message"#,
        ] {
            assert!(!looks_like_error(body.as_bytes()), "{body}");
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
