//! `GET /api/v4/public/time`: the exchange's clock (public, unsigned).

use std::time::SystemTime;

use serde::Serializer;
use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use crate::values::Timestamp;

/// Asks for the exchange's time. It has no parameters and no authentication; the exchange
/// computes it per request, in whole seconds.
///
/// ```
/// use txc_types::endpoint::Endpoint;
/// use txc_types::time::ServerTimeQuery;
/// assert_eq!(ServerTimeQuery::PATH, "/api/v4/public/time");
/// assert!(!ServerTimeQuery::SIGNED);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/public/time",
    operation = "server_time",
    kind = Read,
    rate_limit = (2_000, 10),
    signed = false,
    response = ServerTime,
)]
pub struct ServerTimeQuery;

/// The exchange's time, `{"time": 1631451591}`: Unix seconds, computed per request.
///
/// One second is its resolution, so an offset from the local clock measured with it is good
/// to about a second — enough for the ±5 s nonce window.
///
/// ```
/// let t: txc_types::time::ServerTime = serde_json::from_str(r#"{"time":1631451591}"#)?;
/// assert_eq!(t.time.unix_seconds(), 1_631_451_591);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Answer)]
#[answer(expecting = "a server time object")]
#[non_exhaustive]
pub struct ServerTime {
    /// The time (the docs: an integer of Unix seconds; read by the crate's leniency rule),
    /// written back as whole seconds.
    #[serde(serialize_with = "unix_seconds")]
    pub time: Timestamp,
    /// Fields the docs do not list, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn unix_seconds<S: Serializer>(time: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(time.unix_seconds())
}

impl ServerTime {
    /// The time as a [`SystemTime`].
    pub fn to_system_time(&self) -> SystemTime {
        self.time.to_system_time()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_spelling_of_the_time() {
        for body in [
            r#"{"time":1631451591}"#,
            r#"{"time":"1631451591"}"#,
            r#"{"time":1631451591,"zone":"UTC"}"#,
        ] {
            let t: ServerTime = serde_json::from_str(body).unwrap();
            assert_eq!(t.time.unix_seconds(), 1_631_451_591, "{body}");
        }
        assert!(serde_json::from_str::<ServerTime>(r#"{"time":null}"#).is_err());
        assert!(serde_json::from_str::<ServerTime>("[]").is_err());
    }
}
