//! Invariants shared by the cargo-fuzz targets in `fuzz/` (which include this file as their
//! library) and their proptest mirrors in `tests/fuzz_mirrors.rs`: one copy, two drivers.
//! Every check panics (a libFuzzer crash, a failed test) when an invariant does not hold.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

use http::{HeaderMap, HeaderValue};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use txc_core::Error;
use txc_core::decode::{ApiError, ApiErrorClass, DecodeErrorKind, Response, api_error, decode};
use txc_sign::Credentials;
use txc_sign::headers::{X_TXC_APIKEY, X_TXC_PAYLOAD, X_TXC_SIGNATURE};
use txc_sign::server::{AuthRejection, KeyStatus, NonceGuard, VerifiedRequest, verify};
use txc_sign::stages::{payload, signature};
use txc_types::endpoint::Endpoint;
use txc_types::investments::SmartPlansQuery;
use txc_types::orders::{CollateralMarketOrder, CollateralTriggerMarketOrder};

/// The one key the fuzz lookup knows.
pub const KEY: &str = "fuzz-key";
/// Its secret.
pub const SECRET: &str = "fuzz-secret";
/// The three endpoint paths.
pub const PATHS: [&str; 3] = [
    CollateralMarketOrder::PATH,
    CollateralTriggerMarketOrder::PATH,
    SmartPlansQuery::PATH,
];

/// The fuzz credentials (built once).
pub fn creds() -> &'static Credentials {
    static CREDS: OnceLock<Credentials> = OnceLock::new();
    CREDS.get_or_init(|| Credentials::new(KEY, SECRET).expect("valid fuzz credentials"))
}

// ---------------------------------------------------------------------------------------------
// A JSON reader by the grammar that keeps duplicate keys.
// ---------------------------------------------------------------------------------------------

/// Whether `body` is JSON by the grammar (RFC 8259): valid UTF-8 and accepted by serde_json's
/// parser without building values (numbers beyond `f64`, such as `1e400`, are valid JSON but
/// `serde_json::Value` refuses them).
pub fn is_json(body: &[u8]) -> bool {
    std::str::from_utf8(body).is_ok_and(|t| serde_json::from_str::<IgnoredAny>(t).is_ok())
}

/// The entries of a JSON object in order, duplicates kept; only the values of the keys asked
/// for are built (others are `null`).
pub struct Entries(pub Vec<(String, Value)>);

struct EntriesSeed<'k>(&'k [&'k str]);

impl<'de> DeserializeSeed<'de> for EntriesSeed<'_> {
    type Value = Entries;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Entries, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed<'_> {
    type Value = Entries;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
        let mut out = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = if self.0.contains(&key.as_str()) {
                map.next_value::<Value>()?
            } else {
                map.next_value::<IgnoredAny>()?;
                Value::Null
            };
            out.push((key, value));
        }
        Ok(Entries(out))
    }
}

/// Reads `body` as a JSON object by the grammar (see [`is_json`]), building the values of
/// `keep`; `None` when it is not one.
pub fn json_object(body: &[u8], keep: &[&str]) -> Option<Entries> {
    let text = std::str::from_utf8(body).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let entries = EntriesSeed(keep).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(entries)
}

const ENVELOPE: [&str; 3] = ["request", "nonce", "nonceWindow"];

impl Entries {
    /// `Err(())` when `name` occurs more than once.
    #[allow(clippy::result_unit_err)]
    pub fn get(&self, name: &str) -> Result<Option<&Value>, ()> {
        let mut it = self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v);
        let first = it.next();
        if it.next().is_some() {
            Err(())
        } else {
            Ok(first)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// decode / api_error
// ---------------------------------------------------------------------------------------------

/// `raw` is the body, or its first `MAX_RAW` bytes and `…` (at most `MAX_RAW + 3` bytes).
pub fn check_raw(status: u16, body: &[u8], e: &ApiError) {
    assert_eq!(e.status, status);
    let bound = ApiError::MAX_RAW + 3;
    assert!(
        e.raw.len() <= bound,
        "ApiError::raw is {} bytes (> {bound}) for a {}-byte body",
        e.raw.len(),
        body.len()
    );
    if body.len() <= ApiError::MAX_RAW {
        assert_eq!(e.raw.as_bytes(), body, "raw differs from a short body");
    } else {
        assert!(e.raw.ends_with('…'), "truncated raw without an ellipsis");
    }
}

fn is_token(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '-' | '_')
}

/// The decode invariants for endpoint `E` and the response `(status, body)`.
pub fn check_decode<E: Endpoint>(status: u16, body: &[u8]) {
    let api = api_error(status, body);
    if let Some(e) = &api {
        check_raw(status, body, e);
        let _ = e.to_string();
    }
    let success = (200..300).contains(&status);
    let result = decode::<E>(&Response::new(status, body));
    if let Err(e) = &result {
        assert!(
            !(e.outcome_unknown() && e.is_retryable()),
            "both unknown and retryable: {e}"
        );
        assert_eq!(
            e.is_retryable(),
            status == 429,
            "retryable for HTTP {status}"
        );
    }
    match result {
        Ok(_) => {
            assert!(success, "decode returned Ok for HTTP {status}");
            assert!(serde_json::from_slice::<E::Response>(body).is_ok());
            assert!(is_json(body), "decode accepted a body that is not JSON");
        }
        Err(Error::Api(e)) => {
            match &api {
                Some(expected) => {
                    // An order endpoint reads its refusal codes into the class (`refusal`);
                    // everything else is `api_error()`'s.
                    let mut read = (*e).clone();
                    if let Some(refusal) = read.refusal.take() {
                        assert_eq!(E::KIND, txc_types::endpoint::EndpointKind::Order);
                        assert!((400..500).contains(&status), "a refusal of HTTP {status}");
                        assert_eq!(read.class, ApiErrorClass::from(refusal));
                        read.class = expected.class;
                    }
                    assert_eq!(&read, expected, "Api error differs from api_error()");
                }
                None => assert_eq!(status, 429, "an Api error from a body that is not one"),
            }
            if status == 429 {
                assert_eq!(e.class, ApiErrorClass::TooManyRequests);
            }
            let _ = Error::Api(e).to_string();
        }
        Err(Error::Decode(d)) => {
            assert_eq!(d.status, status);
            assert_eq!(d.operation, E::OPERATION);
            assert!(
                api.is_none(),
                "error body of HTTP {status} not decoded as Api"
            );
            assert_ne!(status, 429, "a 429 is always the rate limit");
            let first = body.iter().find(|b| !b.is_ascii_whitespace());
            assert_eq!(d.kind == DecodeErrorKind::Empty, first.is_none());
            if d.kind == DecodeErrorKind::Html {
                assert_eq!(first, Some(&b'<'));
            }
            assert!(d.detail.chars().count() <= 200, "detail too long");
            assert!(
                d.snippet.chars().count() <= 97,
                "snippet too long: {:?}",
                d.snippet
            );
            assert!(
                !d.snippet.chars().any(char::is_control),
                "control char in snippet"
            );
            let mut run = 0;
            for c in d.snippet.chars() {
                run = if is_token(c) { run + 1 } else { 0 };
                assert!(run < 24, "unredacted token run in snippet {:?}", d.snippet);
            }
            let _ = d.to_string();
        }
        Err(other) => panic!("unexpected error variant {other:?}"),
    }
}

/// The decode target framing: the first two bytes are the status (big endian), the rest the
/// body.
pub fn split_status(data: &[u8]) -> (u16, &[u8]) {
    match data {
        [a, b, rest @ ..] => (u16::from_be_bytes([*a, *b]), rest),
        [a] => (u16::from(*a), &[]),
        [] => (0, &[]),
    }
}

// ---------------------------------------------------------------------------------------------
// verify and NonceGuard
// ---------------------------------------------------------------------------------------------

/// What `verify` must answer for `body` once the key, payload and signature checks passed,
/// from a strict JSON reading of the body (UTF-8, grammar, duplicate envelope fields refused).
pub fn envelope_model(path: &str, body: &[u8]) -> Result<(u64, bool), AuthRejection> {
    let Some(entries) = json_object(body, &ENVELOPE) else {
        return Err(AuthRejection::INVALID_PAYLOAD);
    };
    let (Ok(request), Ok(nonce), Ok(window)) = (
        entries.get("request"),
        entries.get("nonce"),
        entries.get("nonceWindow"),
    ) else {
        return Err(AuthRejection::INVALID_PAYLOAD);
    };
    match request {
        None | Some(Value::Null) => return Err(AuthRejection::REQUEST_NOT_PROVIDED),
        Some(Value::String(r)) if r == path => {}
        Some(_) => return Err(AuthRejection::UNAUTHORIZED),
    }
    let nonce = match nonce {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
    .ok_or(AuthRejection::NONCE_NOT_PROVIDED)?;
    let window = match window {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(AuthRejection::INVALID_NONCE_WINDOW),
    };
    Ok((nonce, window))
}

/// What `verify` must answer, computed independently: headers as `to_str` reads them, the
/// signature compared case-insensitively with `signature()`, the payload compared with the
/// canonical `payload(body)` (standard base64 with canonical padding is one-to-one), then
/// [`envelope_model`].
pub fn verify_model(
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
    key_status: Option<bool>,
) -> Result<(u64, bool), AuthRejection> {
    let text = |name: http::HeaderName| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let (key, p, s) = (
        text(X_TXC_APIKEY),
        text(X_TXC_PAYLOAD),
        text(X_TXC_SIGNATURE),
    );
    if key.is_empty() {
        return Err(AuthRejection::UNAUTHORIZED);
    }
    if p.is_empty() {
        return Err(AuthRejection::PAYLOAD_NOT_PROVIDED);
    }
    match (key == KEY).then_some(key_status).flatten() {
        None => return Err(AuthRejection::UNAUTHORIZED),
        Some(false) => return Err(AuthRejection::KEY_DISABLED),
        Some(true) => {}
    }
    if !s.eq_ignore_ascii_case(&signature(creds(), p)) {
        return Err(AuthRejection::UNAUTHORIZED);
    }
    if p != payload(body) {
        return Err(AuthRejection::INVALID_PAYLOAD);
    }
    envelope_model(path, body)
}

/// Runs `verify` with a lookup that knows only [`KEY`] (`key_status`: `Some(true)` enabled,
/// `Some(false)` disabled, `None` unknown) and checks it against [`verify_model`] and the
/// invariants of its outcome.
pub fn check_verify(
    path: &str,
    headers: &HeaderMap,
    body: &[u8],
    key_status: Option<bool>,
) -> Result<VerifiedRequest, AuthRejection> {
    let lookup = |k: &str| {
        assert!(!k.is_empty(), "lookup called with an empty key");
        match (k == KEY).then_some(key_status).flatten() {
            Some(true) => Some(KeyStatus::Enabled(creds().clone())),
            Some(false) => Some(KeyStatus::Disabled),
            None => None,
        }
    };
    let result = verify(path, headers, body, lookup);
    match &result {
        Ok(v) => {
            assert_eq!(v.api_key, KEY);
            assert_eq!(
                key_status,
                Some(true),
                "verified under a key that is not enabled"
            );
            let p = headers[X_TXC_PAYLOAD].to_str().unwrap_or_default();
            assert_eq!(
                p,
                payload(body),
                "accepted a payload that is not the body's"
            );
            // A verified body is a JSON object (UTF-8 throughout) whose `request` is the path.
            let obj = json_object(body, &ENVELOPE)
                .unwrap_or_else(|| panic!("verified a body that is not a JSON object: {body:?}"));
            assert_eq!(obj.get("request"), Ok(Some(&Value::from(path))));
        }
        Err(rejection) => {
            // Every rejection body decodes back to the same message and code.
            let e = api_error(rejection.status, rejection.body().as_bytes())
                .expect("rejection body is not an error body");
            assert_eq!(e.message, rejection.message);
            assert_eq!(e.code, Some(rejection.code));
            assert!(matches!(
                e.class,
                ApiErrorClass::Authentication
                    | ApiErrorClass::Permission
                    | ApiErrorClass::Nonce
                    | ApiErrorClass::TooManyRequests
            ));
        }
    }
    let got = result.clone().map(|v| (v.nonce, v.nonce_window));
    let expected = verify_model(path, headers, body, key_status);
    assert_eq!(got, expected, "verify differs from the model");
    result
}

/// The exchange's nonce rules, without pruning (time never goes backwards here).
#[derive(Default)]
pub struct GuardModel {
    last: HashMap<String, u64>,
    used: HashMap<String, HashSet<u64>>,
}

impl GuardModel {
    /// The model's answer, recorded like `NonceGuard::check`.
    pub fn check(
        &mut self,
        key: &str,
        nonce: u64,
        window: bool,
        now: u64,
    ) -> Result<(), AuthRejection> {
        let last = self.last.entry(key.to_owned()).or_default();
        if window {
            if nonce.abs_diff(now) > NonceGuard::WINDOW_MS {
                return Err(AuthRejection::NONCE_OUTSIDE_WINDOW);
            }
            if !self.used.entry(key.to_owned()).or_default().insert(nonce) {
                return Err(AuthRejection::TOO_MANY_REQUESTS);
            }
        } else if nonce <= *last {
            return Err(AuthRejection::TOO_MANY_REQUESTS);
        }
        *last = (*last).max(nonce);
        Ok(())
    }
}

/// Runs a verified nonce through a fresh `NonceGuard` and its model: the nonce, its replay,
/// the next nonce, and the nonce again later; `delta` places server time around the nonce.
pub fn check_nonce_guard(v: &VerifiedRequest, delta: i64) {
    let now = v.nonce.saturating_add_signed(delta);
    let mut guard = NonceGuard::default();
    let mut model = GuardModel::default();
    let ops = [
        (v.nonce, now),
        (v.nonce, now),
        (v.nonce.saturating_add(1), now.saturating_add(1)),
        (v.nonce, now.saturating_add(NonceGuard::WINDOW_MS)),
    ];
    let mut accepted = false;
    for (i, (nonce, now)) in ops.into_iter().enumerate() {
        let got = guard.check(&v.api_key, nonce, v.nonce_window, now);
        let expected = model.check(&v.api_key, nonce, v.nonce_window, now);
        assert_eq!(got, expected, "NonceGuard op {i} ({nonce}, {now})");
        if i == 0 {
            accepted = got.is_ok();
        }
        if i == 1 && accepted {
            assert_eq!(
                got,
                Err(AuthRejection::TOO_MANY_REQUESTS),
                "replay accepted"
            );
        }
    }
}

/// Headers from optional raw values; a value that is not a valid header value is left out.
pub fn headers(key: Option<&[u8]>, payload: Option<&[u8]>, signature: Option<&[u8]>) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (name, value) in [
        (X_TXC_APIKEY, key),
        (X_TXC_PAYLOAD, payload),
        (X_TXC_SIGNATURE, signature),
    ] {
        if let Some(v) = value.and_then(|v| HeaderValue::from_bytes(v).ok()) {
            h.insert(name, v);
        }
    }
    h
}

/// Reads one length-prefixed segment (1 length byte, clipped to what is left).
pub fn segment<'a>(data: &mut &'a [u8]) -> &'a [u8] {
    let Some((&len, rest)) = data.split_first() else {
        return &[];
    };
    let (seg, rest) = rest.split_at(usize::from(len).min(rest.len()));
    *data = rest;
    seg
}

// ---------------------------------------------------------------------------------------------
// verify_request framing
// ---------------------------------------------------------------------------------------------

/// The `verify_request` target on its raw input.
///
/// | bytes | meaning |
/// |---|---|
/// | 0 | flags (below) |
/// | 1 | server-time offset for the nonce guard: `i8 * 50` ms from the nonce |
/// | then 4 segments | api key, payload, signature, path: each 1 length byte + that many bytes |
/// | rest | body |
///
/// Flags: bits 0-1 mode — `0` headers exactly from the segments, `1` the signature computed
/// over the payload segment, `2`/`3` payload and signature computed correctly from the body
/// (gets past the signature to the JSON envelope and nonce parsing); bits 2-3 path — one of
/// the three endpoint paths, `3` the path segment; bits 4-5 key status — `0`/`1` enabled, `2`
/// disabled, `3` unknown; bit 6 — the api key header from its segment instead of the known
/// key; bit 7 — signature upper-cased.
pub fn check_verify_framed(data: &[u8]) {
    let [flags, delta, rest @ ..] = data else {
        return;
    };
    let mut rest = rest;
    let key_seg = segment(&mut rest);
    let payload_seg = segment(&mut rest);
    let signature_seg = segment(&mut rest);
    let path_seg = segment(&mut rest);
    let body = rest;

    let path: Cow<'_, str> = match PATHS.get(usize::from((flags >> 2) & 3)) {
        Some(p) => Cow::Borrowed(p),
        None => String::from_utf8_lossy(path_seg),
    };
    let key_status = match (flags >> 4) & 3 {
        0 | 1 => Some(true),
        2 => Some(false),
        _ => None,
    };
    let key = if flags & 0x40 != 0 {
        key_seg
    } else {
        KEY.as_bytes()
    };
    let (payload, mut signature) = match flags & 3 {
        0 => (payload_seg.to_vec(), signature_seg.to_vec()),
        1 => {
            let p = String::from_utf8_lossy(payload_seg).into_owned();
            let s = signature(creds(), &p);
            (p.into_bytes(), s.into_bytes())
        }
        _ => {
            let p = payload(body);
            let s = signature(creds(), &p);
            (p.into_bytes(), s.into_bytes())
        }
    };
    if flags & 0x80 != 0 {
        signature.make_ascii_uppercase();
    }
    let h = headers(Some(key), Some(&payload), Some(&signature));
    if let Ok(v) = check_verify(&path, &h, body, key_status) {
        check_nonce_guard(&v, i64::from(i8::from_ne_bytes([*delta])) * 50);
    }
}
