//! [`Answer`]: what the sandbox sends over HTTP — JSON success bodies and the exchange's
//! error bodies, each counted as an [`Outcome`].
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
use crate::state::Outcome;
use crate::wire::Rejection;

/// `application/json`.
pub(crate) const JSON: &str = "application/json";

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

impl From<Rejection> for Answer {
    fn from(rejection: Rejection) -> Self {
        Self::error(
            rejection.status,
            rejection.code,
            rejection.message,
            rejection.errors,
        )
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
