//! [`check`] against the docs' recipe, written out with the primitives in the tests'
//! `recipe` module (base64 of the body; lowercase hex of HMAC-SHA512 keyed with the secret
//! over the base64 text): the known-answer vectors, and for arbitrary bodies, acceptance of the signed request and
//! refusal of any one byte changed in the body, the payload or the signature.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use http::{HeaderMap, HeaderValue};
use proptest::prelude::*;
use serde_json::{Map, Value};

use super::check::*;
use super::keys::{Key, Keys};
use super::*;
use crate::config::AccountConfig;

#[path = "../../tests/common/recipe.rs"]
#[allow(dead_code, unreachable_pub)]
mod recipe;

use recipe::sign;

const KEY: &str = "vector-key";
const SECRET: &str = "test-secret";

fn keys(secret: &str) -> Keys {
    let spec = AccountConfig::new(KEY, secret).validate().unwrap();
    Keys::new(&[spec], Key::of)
}

fn headers(payload: &[u8], signature: &[u8]) -> Option<HeaderMap> {
    let mut headers = HeaderMap::new();
    headers.insert(APIKEY, HeaderValue::from_static(KEY));
    headers.insert(PAYLOAD, HeaderValue::from_bytes(payload).ok()?);
    headers.insert(SIGNATURE, HeaderValue::from_bytes(signature).ok()?);
    Some(headers)
}

#[test]
fn the_known_answer_vectors_are_accepted() {
    let vectors = recipe::vectors();
    assert_eq!(vectors.len(), 4);
    for v in vectors {
        // The recipe gives the vectors' headers...
        assert_eq!(
            sign(&v.api_secret, v.body.as_bytes()),
            (v.x_txc_payload.clone(), v.x_txc_signature.clone()),
            "{}",
            v.name
        );
        // ...the sandbox accepts them, and refuses them with another secret or in upper case.
        let upper = v.x_txc_signature.to_uppercase();
        for (secret, signature, accepted) in [
            (v.api_secret.as_str(), v.x_txc_signature.as_str(), true),
            ("another-secret", v.x_txc_signature.as_str(), false),
            (v.api_secret.as_str(), upper.as_str(), false),
        ] {
            let headers = headers(v.x_txc_payload.as_bytes(), signature.as_bytes()).unwrap();
            let verdict = check(&keys(secret), &v.path(), &headers, v.body.as_bytes());
            let expected = if accepted {
                Ok(KEY.to_owned())
            } else {
                Err(AuthRejection::UNAUTHORIZED)
            };
            assert_eq!(
                verdict.map(|s| s.api_key),
                expected,
                "{} with {secret}, {signature}",
                v.name
            );
        }
    }
}

/// A case: its name, how it changes the headers, the answer.
type Case = (&'static str, fn(&mut HeaderMap), AuthRejection);

#[test]
fn key_and_header_rejections() {
    let body = br#"{"request":"/api/v4/orders","nonce":1}"#;
    let (payload, signature) = sign(SECRET, body);
    let keys = {
        let enabled = AccountConfig::new(KEY, SECRET).validate().unwrap();
        let disabled = AccountConfig::new("off", SECRET)
            .enabled(false)
            .validate()
            .unwrap();
        Keys::new(&[enabled, disabled], Key::of)
    };
    let good = headers(payload.as_bytes(), signature.as_bytes()).unwrap();
    assert!(check(&keys, "/api/v4/orders", &good, body).is_ok());
    let cases: [Case; 6] = [
        (
            "no key",
            |h| {
                h.remove(APIKEY);
            },
            AuthRejection::UNAUTHORIZED,
        ),
        (
            "no payload",
            |h| {
                h.remove(PAYLOAD);
            },
            AuthRejection::PAYLOAD_NOT_PROVIDED,
        ),
        (
            "unknown key",
            |h| {
                h.insert(APIKEY, HeaderValue::from_static("nobody"));
            },
            AuthRejection::UNAUTHORIZED,
        ),
        (
            "disabled key",
            |h| {
                h.insert(APIKEY, HeaderValue::from_static("off"));
            },
            AuthRejection::KEY_DISABLED,
        ),
        (
            "no signature",
            |h| {
                h.remove(SIGNATURE);
            },
            AuthRejection::UNAUTHORIZED,
        ),
        (
            "the key sent twice",
            |h| {
                h.append(APIKEY, HeaderValue::from_static(KEY));
            },
            AuthRejection::UNAUTHORIZED,
        ),
    ];
    for (case, change, rejection) in cases {
        let mut headers = good.clone();
        change(&mut headers);
        assert_eq!(
            check(&keys, "/api/v4/orders", &headers, body),
            Err(rejection),
            "{case}"
        );
    }
}

/// A JSON value without floats (their text would not survive a parse and a write).
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-zA-Z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A compact body for `path` with a nonce, maybe `nonceWindow`, and arbitrary other fields.
fn body(path: &'static str) -> impl Strategy<Value = (Vec<u8>, u64, bool)> {
    (
        any::<u64>(),
        any::<Option<bool>>(),
        prop::collection::btree_map("[a-zA-Z_]{1,12}", value(), 0..6),
    )
        .prop_map(move |(nonce, window, extra)| {
            let mut map = Map::new();
            map.insert("request".to_owned(), Value::from(path));
            map.insert("nonce".to_owned(), Value::from(nonce));
            if let Some(window) = window {
                map.insert("nonceWindow".to_owned(), Value::from(window));
            }
            for (key, value) in extra {
                map.entry(key).or_insert(value);
            }
            let body = serde_json::to_vec(&Value::Object(map)).unwrap();
            (body, nonce, window.unwrap_or(false))
        })
}

/// Which part of a request a change hits.
#[derive(Debug, Clone, Copy)]
enum Part {
    Body,
    Payload,
    Signature,
}

proptest! {
    #[test]
    fn signed_by_the_recipe_is_accepted((body, nonce, window) in body("/api/v4/orders")) {
        let (payload, signature) = sign(SECRET, &body);
        let headers = headers(payload.as_bytes(), signature.as_bytes()).unwrap();
        let signed = check(&keys(SECRET), "/api/v4/orders", &headers, &body);
        let signed = signed.map_err(|r| TestCaseError::fail(format!("{r:?}")))?;
        prop_assert_eq!(signed.envelope.nonce, nonce);
        prop_assert_eq!(signed.envelope.window, window);
        let fields: Map<String, Value> = serde_json::from_slice(&body).unwrap();
        prop_assert_eq!(signed.envelope.fields, Some(fields));
    }

    #[test]
    fn any_single_byte_changed_is_refused(
        (body, _, _) in body("/api/v4/orders"),
        part in prop_oneof![Just(Part::Body), Just(Part::Payload), Just(Part::Signature)],
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let (payload, signature) = sign(SECRET, &body);
        let (mut body, mut payload, mut signature) =
            (body, payload.into_bytes(), signature.into_bytes());
        let target = match part {
            Part::Body => &mut body,
            Part::Payload => &mut payload,
            Part::Signature => &mut signature,
        };
        let i = at.index(target.len());
        // Header values are visible ASCII; a body byte may be anything.
        let byte = match part {
            Part::Body => byte,
            Part::Payload | Part::Signature => 0x21 + byte % 0x5e,
        };
        prop_assume!(target[i] != byte);
        target[i] = byte;
        let headers = headers(&payload, &signature).unwrap();
        let verdict = check(&keys(SECRET), "/api/v4/orders", &headers, &body);
        prop_assert!(verdict.is_err(), "{part:?} byte {i} -> {byte}: accepted");
    }
}
