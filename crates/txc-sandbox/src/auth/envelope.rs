//! The body's part of authentication: the payload is the base64 of the exact body bytes, the
//! body a compact JSON object whose `request` is the path, with a `nonce` and maybe a
//! `nonceWindow` ([`read`]). The body is parsed here once; the operation gets its fields.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::{Map, Value};

use super::rejection::AuthRejection;

/// What authentication read from a body.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Envelope {
    /// The nonce, sent as an integer or a digit string.
    pub(crate) nonce: u64,
    /// Whether `nonceWindow` was `true`.
    pub(crate) window: bool,
    /// Every field of the body, or `None` when a value cannot be read although the envelope
    /// could: a number beyond a double's range (`1e400`) or nesting beyond serde_json's depth
    /// limit. The operation answers those `Invalid payload.` — after the nonce is used.
    pub(crate) fields: Option<Map<String, Value>>,
}

// Deliberately not `txc_sign::verify`: the sandbox must not share the code it tests.
/// Checks that `payload` is the base64 of `body` and reads the body sent to `path`.
///
/// In this order, each failure answering at once: the payload is the standard base64 (with
/// padding) of exactly these bytes, and the body is UTF-8 and a JSON object (one `request`,
/// `nonce` and `nonceWindow` each), else `Invalid payload.`; `request` present (`Request not
/// provided.`) and equal to `path` (`Unauthorized request.`); `nonce` an integer or a digit
/// string (`Nonce not provided.`); `nonceWindow` absent, `null` or a boolean (`Invalid
/// nonceWindow.`); the body compact (`Invalid payload.`).
pub(crate) fn read(path: &str, payload: &str, body: &[u8]) -> Result<Envelope, AuthRejection> {
    // Comparing with the body's own encoding refuses every other spelling of the same bytes
    // (missing padding, line breaks, the URL-safe alphabet).
    if STANDARD.encode(body) != payload {
        return Err(AuthRejection::INVALID_PAYLOAD);
    }
    // UTF-8 throughout (serde_json does not check the strings it skips) and an object.
    let text = std::str::from_utf8(body)
        .ok()
        .filter(|t| t.trim_start().starts_with('{'))
        .ok_or(AuthRejection::INVALID_PAYLOAD)?;
    let (head, fields) = parse(text)?;
    match head.request {
        None | Some(Value::Null) => return Err(AuthRejection::REQUEST_NOT_PROVIDED),
        Some(Value::String(r)) if r == path => {}
        Some(_) => return Err(AuthRejection::UNAUTHORIZED),
    }
    let nonce = match head.nonce {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
    .ok_or(AuthRejection::NONCE_NOT_PROVIDED)?;
    let window = match head.nonce_window {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => b,
        Some(_) => return Err(AuthRejection::INVALID_NONCE_WINDOW),
    };
    if !is_compact(body) {
        return Err(AuthRejection::INVALID_PAYLOAD);
    }
    Ok(Envelope {
        nonce,
        window,
        fields,
    })
}

/// The authentication fields of a body.
#[derive(Debug, Default, Deserialize)]
struct Head {
    #[serde(default)]
    request: Option<Value>,
    #[serde(default)]
    nonce: Option<Value>,
    #[serde(default, rename = "nonceWindow")]
    nonce_window: Option<Value>,
}

/// The envelope and every field, in one parse; when a field's value cannot be read, the
/// envelope alone (values skipped unread), and no fields. A duplicated `request`, `nonce` or
/// `nonceWindow` is `Invalid payload.` (which one counts would be a guess); any other
/// duplicated field keeps its last value, as a JSON object is usually read.
fn parse(text: &str) -> Result<(Head, Option<Map<String, Value>>), AuthRejection> {
    match serde_json::from_str::<Fields>(text) {
        Ok(Fields(Some(map))) => {
            let head = Head {
                request: map.get("request").cloned(),
                nonce: map.get("nonce").cloned(),
                nonce_window: map.get("nonceWindow").cloned(),
            };
            Ok((head, Some(map)))
        }
        Ok(Fields(None)) => Err(AuthRejection::INVALID_PAYLOAD),
        Err(_) => serde_json::from_str::<Head>(text)
            .map(|head| (head, None))
            .map_err(|_| AuthRejection::INVALID_PAYLOAD),
    }
}

/// A JSON object's fields; `None` when an envelope field is duplicated.
struct Fields(Option<Map<String, Value>>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Fields, A::Error> {
        let mut map = Map::new();
        let mut duplicated = false;
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value::<Value>()?;
            let envelope = matches!(key.as_str(), "request" | "nonce" | "nonceWindow");
            if map.insert(key, value).is_some() && envelope {
                duplicated = true;
            }
        }
        Ok(Fields((!duplicated).then_some(map)))
    }
}

/// Whether a JSON body has no whitespace outside its strings. The docs: "the server validates
/// the body against a canonical (no-whitespace) serialization and rejects spaced JSON with
/// HTTP 400 `{"code":9,"message":"Invalid payload."}`" (guides/first-api-call, since
/// 2026-04-23). Older official clients that sent spaced JSON suggest the live rule may once
/// have been looser; the sandbox follows the current docs.
fn is_compact(body: &[u8]) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "/api/v4/orders";

    fn read_body(body: &str) -> Result<Envelope, AuthRejection> {
        read(PATH, &STANDARD.encode(body), body.as_bytes())
    }

    #[test]
    fn whitespace_outside_strings() {
        assert!(is_compact(br#"{"a":"x y","b":"\" ","c":[1,2]}"#));
        assert!(is_compact(br#"{"a":"\\"}"#));
        for spaced in [
            &br#"{"a": 1}"#[..],
            br#"{"a":1} "#,
            b"{\"a\":1,\n\"b\":2}",
            br#"{"a":"\\" ,"b":1}"#,
            b"\t{}",
        ] {
            assert!(!is_compact(spaced), "{}", String::from_utf8_lossy(spaced));
        }
    }

    #[test]
    fn the_envelope_and_the_fields() {
        let read = read_body(r#"{"request":"/api/v4/orders","nonce":"17","market":"X_Y"}"#);
        let envelope = read.unwrap_or_else(|r| panic!("{r:?}"));
        assert_eq!((envelope.nonce, envelope.window), (17, false));
        let fields = envelope.fields.unwrap_or_default();
        assert_eq!(fields.get("market"), Some(&Value::from("X_Y")));
    }

    #[test]
    fn unreadable_values_leave_the_envelope() {
        let deep = format!(
            r#"{{"request":"{PATH}","nonce":1,"nonceWindow":true,"x":{}{}}}"#,
            "[".repeat(500),
            "]".repeat(500)
        );
        for body in [
            format!(r#"{{"request":"{PATH}","nonce":1,"nonceWindow":true,"amount":1e400}}"#),
            deep,
        ] {
            let envelope = read_body(&body).unwrap_or_else(|r| panic!("{r:?}"));
            assert_eq!((envelope.nonce, envelope.window), (1, true));
            assert_eq!(envelope.fields, None);
        }
    }

    #[test]
    fn rejections_in_order() {
        let cases = [
            (r#"["/api/v4/orders",1]"#, AuthRejection::INVALID_PAYLOAD),
            (
                r#"{"request":"/api/v4/orders","nonce":1"#,
                AuthRejection::INVALID_PAYLOAD,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":1,"nonce":2}"#,
                AuthRejection::INVALID_PAYLOAD,
            ),
            (
                r#"{"request":"/api/v4/orders","nonceWindow":true,"nonceWindow":true,"nonce":1}"#,
                AuthRejection::INVALID_PAYLOAD,
            ),
            (r#"{"nonce":1}"#, AuthRejection::REQUEST_NOT_PROVIDED),
            (
                r#"{"request":null,"nonce":1}"#,
                AuthRejection::REQUEST_NOT_PROVIDED,
            ),
            (
                r#"{"request":"/api/v4/orders/","nonce":1}"#,
                AuthRejection::UNAUTHORIZED,
            ),
            (r#"{"request":7,"nonce":1}"#, AuthRejection::UNAUTHORIZED),
            (
                r#"{"request":"/api/v4/orders"}"#,
                AuthRejection::NONCE_NOT_PROVIDED,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":-1}"#,
                AuthRejection::NONCE_NOT_PROVIDED,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":1.0}"#,
                AuthRejection::NONCE_NOT_PROVIDED,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":"+1"}"#,
                AuthRejection::NONCE_NOT_PROVIDED,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":""}"#,
                AuthRejection::NONCE_NOT_PROVIDED,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":1,"nonceWindow":1}"#,
                AuthRejection::INVALID_NONCE_WINDOW,
            ),
            (
                r#"{"request":"/api/v4/orders","nonce":1} "#,
                AuthRejection::INVALID_PAYLOAD,
            ),
            (
                r#"{"request": "/api/v4/orders","nonce":1}"#,
                AuthRejection::INVALID_PAYLOAD,
            ),
        ];
        for (body, rejection) in cases {
            assert_eq!(read_body(body), Err(rejection), "{body}");
        }
    }

    #[test]
    fn the_payload_is_the_exact_base64_of_the_body() {
        let body = br#"{"request":"/api/v4/orders","nonce":1,"x":"??>a"}"#;
        let payload = STANDARD.encode(body);
        assert!(read(PATH, &payload, body).is_ok());
        assert!(payload.ends_with("=="), "{payload}");
        let url_safe = base64::engine::general_purpose::URL_SAFE.encode(body);
        assert_ne!(url_safe, payload);
        for other in [
            url_safe,
            payload.trim_end_matches('=').to_owned(),
            format!("{payload}\n"),
            STANDARD.encode(&body[..body.len() - 1]),
        ] {
            assert_eq!(
                read(PATH, &other, body),
                Err(AuthRejection::INVALID_PAYLOAD),
                "{other}"
            );
        }
    }
}
