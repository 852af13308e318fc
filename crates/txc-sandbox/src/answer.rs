//! The answers the sandbox sends: JSON success bodies and the exchange's error bodies.
//!
//! Error bodies have the documented shape `{"code":N,"message":"...","errors":{field:[...]}}`
//! (keys in that order), except the authentication answers, whose bodies come verbatim from
//! [`AuthRejection::body`].

use std::collections::BTreeMap;

use axum::body::Body;
use axum::response::Response;
use http::StatusCode;
use http::header::{CONNECTION, CONTENT_TYPE, HeaderValue};
use serde::Serialize;

use crate::auth::AuthRejection;

/// `application/json`.
pub(crate) const JSON: &str = "application/json";

/// What an answer means, for the statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// An order was accepted (filled, or resting as a trigger order).
    OrderAccepted,
    /// A read was answered (smart plans), or a control call succeeded.
    Served,
    /// A rejection with this code and message.
    Rejected {
        /// The exchange's code.
        code: i64,
        /// The exchange's message.
        message: String,
    },
    /// An answer outside the exchange's protocol (404, 405, 413, fault answers).
    Other,
}

/// A complete answer before it becomes an HTTP response.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) content_type: &'static str,
    pub(crate) body: Vec<u8>,
    pub(crate) outcome: Outcome,
    /// Whether to close the connection after this answer (`Connection: close`).
    pub(crate) close: bool,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: i64,
    message: &'a str,
    errors: &'a BTreeMap<String, Vec<String>>,
}

impl Answer {
    /// HTTP 200 with `value` as JSON; a value that is JSON `null` (the answer of an
    /// operation the docs give no body for) as an empty body.
    pub(crate) fn ok(value: &impl Serialize, outcome: Outcome) -> Self {
        match serde_json::to_vec(value) {
            Ok(body) if body == b"null" => Self {
                status: StatusCode::OK,
                content_type: JSON,
                body: Vec::new(),
                outcome,
                close: false,
            },
            Ok(body) => Self {
                status: StatusCode::OK,
                content_type: JSON,
                body,
                outcome,
                close: false,
            },
            Err(_) => Self::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                0,
                "Internal error.",
                BTreeMap::new(),
            ),
        }
    }

    /// An authentication (or permission, rate-limit) rejection, verbatim.
    pub(crate) fn auth(rejection: AuthRejection) -> Self {
        Self {
            status: rejection.status,
            content_type: JSON,
            body: rejection.body(),
            outcome: Outcome::Rejected {
                code: rejection.code,
                message: rejection.message.to_owned(),
            },
            close: false,
        }
    }

    /// An error response of the documented shape.
    pub(crate) fn error(
        status: StatusCode,
        code: i64,
        message: &str,
        errors: BTreeMap<String, Vec<String>>,
    ) -> Self {
        let body = serde_json::to_vec(&ErrorBody {
            code,
            message,
            errors: &errors,
        })
        .unwrap_or_default();
        Self {
            status,
            content_type: JSON,
            body,
            outcome: Outcome::Rejected {
                code,
                message: message.to_owned(),
            },
            close: false,
        }
    }

    /// An answer that is not part of the exchange protocol (404, 405, 413).
    pub(crate) fn protocol(status: StatusCode, message: &str) -> Self {
        let mut answer = Self::error(status, 0, message, BTreeMap::new());
        answer.outcome = Outcome::Other;
        answer
    }

    /// Converts to an HTTP response.
    pub(crate) fn into_response(self) -> Response {
        let close = self.close;
        let mut response = response(self.status, self.content_type, Body::from(self.body));
        if close {
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

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

    /// The answer.
    pub(crate) fn answer(self) -> Answer {
        Answer::error(self.status, self.code, self.message, self.errors)
    }
}

impl From<Rejection> for Answer {
    fn from(rejection: Rejection) -> Self {
        rejection.answer()
    }
}

/// Builds a response with a status, content type and body.
pub(crate) fn response(status: StatusCode, content_type: &'static str, body: Body) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}
