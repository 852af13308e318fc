//! [`Error`]: the one error type of the SDK, shared by every transport.
//!
//! Variants hold context structs; transport-library errors appear only as `source()`.

use std::collections::BTreeMap;
use std::error::Error as StdError;
use std::fmt;

use txc_types::ValidationError;

/// Everything that can go wrong calling the exchange.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A request value broke a rule; nothing was sent.
    #[error("invalid request: {0}")]
    InvalidRequest(#[from] ValidationError),
    /// Client configuration is unusable (base URL, credentials); nothing was sent.
    #[error("invalid configuration of {what}: {reason}")]
    InvalidConfig {
        /// What is misconfigured.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// The request could not be carried to or from the server.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The exchange answered with an error.
    #[error(transparent)]
    Api(#[from] Box<ApiError>),
    /// The exchange's answer could not be understood.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

impl Error {
    /// An [`Error::InvalidConfig`] of `what` for `reason`; transports use it too.
    pub fn invalid_config(what: &'static str, reason: impl Into<String>) -> Self {
        Self::InvalidConfig {
            what,
            reason: reason.into(),
        }
    }

    /// The exchange's error answer, if this is one.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Self::Api(e) => Some(e),
            _ => None,
        }
    }

    /// The HTTP status the server answered with, if it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Api(e) => Some(e.status),
            Self::Decode(e) => Some(e.status),
            _ => None,
        }
    }

    /// Whether an order may have been executed although this error was returned: the request
    /// may have reached the server (timeout or reset after sending, 5xx, an answer that could
    /// not be read). Such an order must not be resent before checking whether it was placed.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            Self::Transport(e) => e.delivery == Delivery::MaybeSent,
            Self::Api(e) => e.status >= 500,
            Self::Decode(e) => e.status >= 500 || (200..300).contains(&e.status),
            Self::InvalidRequest(_) | Self::InvalidConfig { .. } => false,
        }
    }

    /// Whether resending (re-signed, with a fresh nonce) is safe for any operation, orders
    /// included: the server certainly did not act (`Too many requests.`, or a connection that
    /// failed before the request was sent).
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport(e) => e.delivery == Delivery::NotSent,
            Self::Api(e) => e.class == ApiErrorClass::TooManyRequests,
            _ => false,
        }
    }
}

impl From<ApiError> for Error {
    fn from(e: ApiError) -> Self {
        Self::Api(Box::new(e))
    }
}

/// How far a failed request got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Delivery {
    /// The request certainly did not reach the server (e.g. connection refused).
    NotSent,
    /// The request may have reached the server (e.g. timeout or reset after sending).
    MaybeSent,
}

/// What kind of transport failure happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// Could not connect (DNS, refused, unreachable).
    Connect,
    /// A connect or overall timeout elapsed.
    Timeout,
    /// The connection failed while sending or receiving.
    Io,
    /// TLS failed.
    Tls,
    /// The answer was larger than the configured size cap; it was not read to the end.
    ResponseTooLarge,
    /// Anything else the HTTP library reported.
    Other,
}

impl fmt::Display for TransportErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Connect => "connect",
            Self::Timeout => "timeout",
            Self::Io => "i/o",
            Self::Tls => "tls",
            Self::ResponseTooLarge => "response too large",
            Self::Other => "other",
        })
    }
}

/// A transport failure; any transport can build one. The HTTP library's error is only the
/// [`source`](StdError::source).
#[derive(Debug)]
pub struct TransportError {
    /// What failed.
    pub kind: TransportErrorKind,
    /// Whether the request may have reached the server.
    pub delivery: Delivery,
    source: Option<Box<dyn StdError + Send + Sync>>,
}

impl TransportError {
    /// A transport error of `kind`, with the library's error as its source.
    pub fn new(
        kind: TransportErrorKind,
        delivery: Delivery,
        source: Option<Box<dyn StdError + Send + Sync>>,
    ) -> Self {
        Self {
            kind,
            delivery,
            source,
        }
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reach = match self.delivery {
            Delivery::NotSent => "the request was not sent",
            Delivery::MaybeSent => "the request may have reached the server",
        };
        write!(f, "transport error ({}); {reach}", self.kind)
    }
}

impl StdError for TransportError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn StdError + 'static))
    }
}

/// What an API error means for the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ApiErrorClass {
    /// Key, payload or signature rejected.
    Authentication,
    /// The key may not use this endpoint (e.g. smart plans without B2B partner permission).
    Permission,
    /// The nonce was missing, malformed or outside the time window.
    Nonce,
    /// `Too many requests.`: the rate limit, or a nonce not greater than the previous one.
    TooManyRequests,
    /// A field failed validation.
    Validation,
    /// Not enough balance.
    InsufficientBalance,
    /// The order type is not available in the caller's region (HTTP 453).
    RegionRestricted,
    /// The service is unavailable (5xx).
    Unavailable,
    /// Anything else.
    Other,
}

impl fmt::Display for ApiErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Authentication => "authentication",
            Self::Permission => "permission",
            Self::Nonce => "nonce",
            Self::TooManyRequests => "too many requests",
            Self::Validation => "validation",
            Self::InsufficientBalance => "insufficient balance",
            Self::RegionRestricted => "region restricted",
            Self::Unavailable => "unavailable",
            Self::Other => "other",
        })
    }
}

/// An error answer of the exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// The exchange's error code, when it sent one (codes are per endpoint).
    pub code: Option<i64>,
    /// The exchange's message (messages of nested shapes joined with `; `).
    pub message: String,
    /// Messages per field, e.g. `amount: ["Not enough balance."]`.
    pub errors: BTreeMap<String, Vec<String>>,
    /// What the error means.
    pub class: ApiErrorClass,
    /// The raw body, truncated to [`ApiError::MAX_RAW`] bytes.
    pub raw: String,
}

impl ApiError {
    /// The most raw body kept, in bytes.
    pub const MAX_RAW: usize = 1024;

    /// The messages of one field.
    pub fn field_errors(&self, field: &str) -> &[String] {
        self.errors.get(field).map_or(&[], Vec::as_slice)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exchange answered HTTP {} ({})", self.status, self.class)?;
        if let Some(code) = self.code {
            write!(f, " code {code}")?;
        }
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        for (field, messages) in &self.errors {
            if messages.iter().any(|m| !m.is_empty()) {
                write!(f, "; {field}: {}", messages.join(" "))?;
            }
        }
        Ok(())
    }
}

impl StdError for ApiError {}

/// Why an answer could not be understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The body was empty.
    Empty,
    /// The body was an HTML page (typically from a proxy).
    Html,
    /// The body was not JSON, or was truncated.
    NotJson,
    /// The body was JSON of an unexpected shape.
    Shape,
}

/// An answer that could not be decoded, with the status and a short redacted snippet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot decode the answer to {operation} (HTTP {status}, {kind:?}): {detail}; body starts {snippet:?}"
)]
#[non_exhaustive]
pub struct DecodeError {
    /// The operation whose answer it was.
    pub operation: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// What was wrong.
    pub kind: DecodeErrorKind,
    /// The parser's explanation.
    pub detail: String,
    /// The start of the body, with long token-like runs redacted.
    pub snippet: String,
}
