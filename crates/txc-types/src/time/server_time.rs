//! `GET /api/v4/public/time`: the exchange's clock (public, unsigned).

use std::time::SystemTime;

use serde::de::{Deserializer, MapAccess};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::endpoint::{Endpoint, EndpointKind, RateLimit, WireValue};
use crate::lenient::{self, Field, ObjectFields, Set, put};
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerTimeQuery;

impl Endpoint for ServerTimeQuery {
    const PATH: &'static str = "/api/v4/public/time";
    const OPERATION: &'static str = "server_time";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(2_000, 10));
    const SIGNED: bool = false;
    type Response = ServerTime;

    fn try_for_each_field<E>(
        &self,
        _visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        Ok(())
    }
}

impl Serialize for ServerTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = s.serialize_map(Some(1 + self.extra.len()))?;
        map.serialize_entry("time", &self.time.unix_seconds())?;
        for (k, v) in &self.extra {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Serialize for ServerTimeQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}

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
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerTime {
    /// The time (the docs: an integer of Unix seconds; read by the crate's leniency rule).
    pub time: Timestamp,
    /// Fields the docs do not list, as sent.
    pub extra: Map<String, Value>,
}

impl ServerTime {
    /// The time as a [`SystemTime`].
    pub fn to_system_time(&self) -> SystemTime {
        self.time.to_system_time()
    }
}

/// The fields of a [`ServerTime`] as they are read.
#[derive(Default)]
pub(crate) struct ServerTimeParts {
    time: Option<Timestamp>,
}

impl ObjectFields for ServerTime {
    type Parts = ServerTimeParts;
    const EXPECTING: &'static str = "a server time object";

    fn set<'de, A: MapAccess<'de>>(
        p: &mut ServerTimeParts,
        key: &str,
        raw: Field<'_, 'de, A>,
    ) -> Result<Set, A::Error> {
        match key {
            "time" => put(&mut p.time, raw),
            _ => Ok(Set::Unknown),
        }
    }

    fn finish(p: ServerTimeParts, extra: &mut Map<String, Value>) -> Result<Self, &'static str> {
        Ok(Self {
            time: p.time.ok_or("time")?,
            extra: std::mem::take(extra),
        })
    }
}

impl<'de> Deserialize<'de> for ServerTime {
    /// Decodes by the crate's leniency rule; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        lenient::deserialize_object(d)
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
