//! The same-work baseline: a client written without txc, with the crates a user would pick
//! (serde, `hmac`, `sha2`, `base64`, `const-hex`), doing what txc does for an order — a fresh
//! nonce, a `clientOrderId`, the body, base64, HMAC-SHA512 (the MAC keyed once, as txc does),
//! lowercase hex — and decoding the answer into a typed value.
//!
//! It repeats what txc-sign and txc-core do on purpose: it is what txc is measured against.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use txc_sign::nonce::unix_millis;
use txc_types::endpoint::Endpoint;
use txc_types::orders::CollateralMarketOrder;

use super::SECRET;
use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha512;

/// The order's body, as serde writes it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    request: &'static str,
    nonce: u64,
    nonce_window: bool,
    market: &'a str,
    side: &'a str,
    amount: &'a str,
    client_order_id: &'a str,
}

/// The answer, decoded into a typed value (text kept as `String`, the usual way).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
// Read by the decoder (its work is the point); the benchmark only keeps the value.
#[allow(dead_code)]
pub struct Placed {
    pub order_id: u64,
    pub client_order_id: String,
    pub market: String,
    pub side: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub timestamp: f64,
    pub deal_money: String,
    pub deal_stock: String,
    pub amount: String,
    pub left: String,
    pub deal_fee: String,
    pub status: String,
}

/// A signed request: the body and the three authentication header values.
pub struct Signed {
    pub body: Vec<u8>,
    pub payload: String,
    pub signature: String,
}

/// A hand-written signer: key, pre-keyed MAC, nonces, `clientOrderId`s.
pub struct Client {
    pub api_key: String,
    mac: Hmac<Sha512>,
    window: bool,
    last_nonce: AtomicU64,
    serial: AtomicU64,
}

impl Client {
    pub fn new(api_key: &str, window: bool) -> Self {
        Self {
            api_key: api_key.to_owned(),
            mac: <Hmac<Sha512> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap(),
            window,
            last_nonce: AtomicU64::new(0),
            serial: AtomicU64::new(0),
        }
    }

    /// Unix milliseconds, one above the last nonce if the clock has not moved on.
    fn nonce(&self) -> u64 {
        let now = unix_millis(SystemTime::now());
        let last = self
            .last_nonce
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
                Some(now.max(last + 1))
            })
            .unwrap();
        now.max(last + 1)
    }

    /// Signs a market order of `side` with a fresh nonce and a new `clientOrderId`.
    pub fn sign(&self, side: &str) -> Signed {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed) + 1;
        let client_order_id = format!("raw-0000000000001-{serial}");
        let body = serde_json::to_vec(&Body {
            request: CollateralMarketOrder::PATH,
            nonce: self.nonce(),
            nonce_window: self.window,
            market: "BTC_USDT",
            side,
            amount: "0.001",
            client_order_id: &client_order_id,
        })
        .unwrap();
        let payload = base64::engine::general_purpose::STANDARD.encode(&body);
        let mut mac = self.mac.clone();
        mac.update(payload.as_bytes());
        let signature = const_hex::encode(mac.finalize().into_bytes());
        Signed {
            body,
            payload,
            signature,
        }
    }
}

/// Checks the status and decodes the answer.
pub fn decode(status: u16, body: &[u8]) -> Placed {
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(body));
    serde_json::from_slice(body).unwrap()
}

pub const SIDES: [&str; 2] = ["buy", "sell"];
