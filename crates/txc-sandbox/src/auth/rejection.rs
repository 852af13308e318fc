//! [`AuthRejection`]: the answers of the exchange's authentication, its nonce rules, its rate
//! limit and its endpoint permissions — status, code and message as the docs give them.
//!
//! Messages: `error-codes.yaml` `authErrors` (exchange-docs-notes §7.4). Codes and statuses:
//! the bodies observed in the wild that §7.4 lists (`{"code":10,"message":"Unauthorized
//! request."}`, `{"code":9,"message":"Invalid payload."}` with HTTP 400, `{"code":2,…}` for a
//! disabled key, the 429 body), and the docs' status table (§7.2: 401 for missing or invalid
//! authentication, 403 for permissions). Each constant says which part is not documented.

use http::StatusCode;
use serde::Serialize;

// Deliberately not `txc_sign::verify::AuthRejection`: the sandbox must not share what it tests.
/// A rejection with the exchange's HTTP status, code and message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AuthRejection {
    /// HTTP status.
    pub(crate) status: StatusCode,
    /// The exchange's code.
    pub(crate) code: i64,
    /// The exchange's message, verbatim.
    pub(crate) message: &'static str,
}

/// The body of every authentication answer but the 429: `code` then `message` (§7.4's
/// observed bodies carry no `errors`).
#[derive(Serialize)]
struct Body {
    code: i64,
    message: &'static str,
}

impl AuthRejection {
    const fn new(status: StatusCode, code: i64, message: &'static str) -> Self {
        Self {
            status,
            code,
            message,
        }
    }

    /// `X-TXC-PAYLOAD` missing or empty. Message documented; status and code are those of
    /// `Invalid payload.` (not documented).
    pub(crate) const PAYLOAD_NOT_PROVIDED: Self =
        Self::new(StatusCode::BAD_REQUEST, 9, "Payload not provided.");
    /// The payload is not the base64 of the body, or the body is not a compact JSON object.
    /// HTTP 400 code 9 with the final period: `guides/first-api-call` (the error table writes
    /// the message without the period).
    pub(crate) const INVALID_PAYLOAD: Self =
        Self::new(StatusCode::BAD_REQUEST, 9, "Invalid payload.");
    /// Signature wrong, key unknown, or `request` not the path: code 10 as observed; 401 from
    /// the status table.
    pub(crate) const UNAUTHORIZED: Self =
        Self::new(StatusCode::UNAUTHORIZED, 10, "Unauthorized request.");
    /// The key is disabled: code 2 as observed; 403 from the status table.
    pub(crate) const KEY_DISABLED: Self = Self::new(
        StatusCode::FORBIDDEN,
        2,
        "This action is unauthorized. Enable your key in API settings",
    );
    /// The key may not use this endpoint (smart plans for a non-partner key): the smart-plans
    /// page's 403 example, verbatim.
    pub(crate) const PERMISSION_DENIED: Self = Self::new(
        StatusCode::FORBIDDEN,
        0,
        "You don't have permission to use this endpoint. Please contact support for more details",
    );
    /// `nonce` missing, or neither an integer nor a digit string. Status and code not
    /// documented.
    pub(crate) const NONCE_NOT_PROVIDED: Self =
        Self::new(StatusCode::BAD_REQUEST, 0, "Nonce not provided.");
    /// `request` missing. Status and code not documented.
    pub(crate) const REQUEST_NOT_PROVIDED: Self =
        Self::new(StatusCode::BAD_REQUEST, 0, "Request not provided.");
    /// A nonce not greater than the key's previous one (or reused within the window), and the
    /// rate limit: HTTP 429 with the body `{"code":0,"errors":{},"message":"Too many
    /// requests."}`.
    pub(crate) const TOO_MANY_REQUESTS: Self =
        Self::new(StatusCode::TOO_MANY_REQUESTS, 0, "Too many requests.");
    /// With `nonceWindow`, a nonce more than 5 s from server time (either way). The message is
    /// the error table's, without the final period one user saw live; the status is not
    /// documented: 401, the status table's "invalid authentication", which the docs' JWT
    /// endpoint also answers for a bad nonce.
    pub(crate) const NONCE_OUTSIDE_WINDOW: Self = Self::new(
        StatusCode::UNAUTHORIZED,
        0,
        "Your nonce is more than 5 seconds lesser than the current nonce",
    );
    /// `nonceWindow` present but not a boolean. Status and code not documented.
    pub(crate) const INVALID_NONCE_WINDOW: Self =
        Self::new(StatusCode::BAD_REQUEST, 0, "Invalid nonceWindow.");

    /// The JSON body the exchange sends with this rejection.
    pub(crate) fn body(&self) -> Vec<u8> {
        if *self == Self::TOO_MANY_REQUESTS {
            return br#"{"code":0,"errors":{},"message":"Too many requests."}"#.to_vec();
        }
        serde_json::to_vec(&Body {
            code: self.code,
            message: self.message,
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_have_the_observed_shapes() {
        assert_eq!(
            AuthRejection::UNAUTHORIZED.body(),
            br#"{"code":10,"message":"Unauthorized request."}"#
        );
        assert_eq!(
            AuthRejection::INVALID_PAYLOAD.body(),
            br#"{"code":9,"message":"Invalid payload."}"#
        );
        assert_eq!(
            AuthRejection::TOO_MANY_REQUESTS.body(),
            br#"{"code":0,"errors":{},"message":"Too many requests."}"#
        );
    }
}
