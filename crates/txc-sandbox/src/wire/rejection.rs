//! [`Rejection`]: the exchange's refusal of a request by an operation's rules or against the
//! account's state — HTTP status, `code`, `message` and field errors, as the docs' error bodies
//! carry them (`{"code":N,"message":"…","errors":{field:[…]}}`). Plain data: the routes write
//! it as an HTTP answer; the state and the rules only say which.

use std::collections::BTreeMap;

use http::StatusCode;

/// A rejection by an operation's rules: HTTP status, code, message and field errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rejection {
    pub(crate) status: StatusCode,
    pub(crate) code: i64,
    pub(crate) message: &'static str,
    pub(crate) errors: BTreeMap<String, Vec<String>>,
}

impl Rejection {
    /// HTTP 422 `Validation failed` with `code` and one field's messages.
    pub(crate) fn validation(code: i64, field: &str, messages: Vec<String>) -> Self {
        let mut errors = BTreeMap::new();
        errors.insert(field.to_owned(), messages);
        Self::fields(code, errors)
    }

    /// HTTP 422 `Validation failed` with `code` and several fields' messages.
    pub(crate) fn fields(code: i64, errors: BTreeMap<String, Vec<String>>) -> Self {
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code,
            message: "Validation failed",
            errors,
        }
    }

    /// HTTP 422 `Inner validation failed` with `code` and one message on `field`.
    pub(crate) fn inner(code: i64, field: &str, message: &str) -> Self {
        let mut rejection = Self::validation(code, field, vec![message.to_owned()]);
        rejection.message = "Inner validation failed";
        rejection
    }

    /// The same rejection with another HTTP status.
    pub(crate) fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    /// HTTP 500 `Internal error.`: what cannot happen (a stored order that cannot be read
    /// back).
    pub(crate) fn internal() -> Self {
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            code: 0,
            message: "Internal error.",
            errors: BTreeMap::new(),
        }
    }

    /// HTTP 422 code 10 `Inner validation failed`: `{"amount":["Not enough balance."]}`.
    pub(crate) fn not_enough_balance() -> Self {
        Self::inner(10, "amount", "Not enough balance.")
    }

    /// HTTP 422 code 116: reduce-only order without a position it reduces.
    pub(crate) fn reduce_only() -> Self {
        Self::validation(
            116,
            "reduceOnly",
            vec!["Reduce-only: Position doesn't exist or wrong side".to_owned()],
        )
    }
}
