//! The docs' signing recipe written out with the primitives — the payload is the standard
//! base64 of the body's bytes, the signature the lowercase hex of HMAC-SHA512 of the payload's
//! text keyed with the secret — and the known-answer vectors (copied from the spec's
//! `signing-vectors.json`). Shared by the crate's unit tests (`src/auth/tests.rs`) and the
//! integration tests.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{KeyInit, Mac};
use serde::Deserialize;

/// `(X-TXC-PAYLOAD, X-TXC-SIGNATURE)` of `body` signed with `secret`.
pub fn sign(secret: &str, body: &[u8]) -> (String, String) {
    let payload = STANDARD.encode(body);
    let signature = signature(secret, &payload);
    (payload, signature)
}

/// The lowercase hex of HMAC-SHA512 over `payload`'s text, keyed with `secret`.
pub fn signature(secret: &str, payload: &str) -> String {
    let mut mac = <hmac::Hmac<sha2::Sha512> as KeyInit>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    mac.update(payload.as_bytes());
    const_hex::encode(mac.finalize().into_bytes())
}

/// A known-answer vector.
#[derive(Debug, Deserialize)]
pub struct Vector {
    pub name: String,
    pub api_secret: String,
    pub body: String,
    pub x_txc_payload: String,
    pub x_txc_signature: String,
}

impl Vector {
    /// The path in the vector's body (its `request`).
    pub fn path(&self) -> String {
        let body: serde_json::Value =
            serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}"));
        body["request"].as_str().unwrap_or_default().to_owned()
    }
}

#[derive(Deserialize)]
struct Vectors {
    vectors: Vec<Vector>,
}

/// Every vector.
pub fn vectors() -> Vec<Vector> {
    let text = include_str!("../fixtures/signing-vectors.json");
    serde_json::from_str::<Vectors>(text)
        .unwrap_or_else(|e| panic!("{e}"))
        .vectors
}
