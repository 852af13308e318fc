//! [`Acknowledged`]: the answer of an operation whose docs describe no content.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// A success answer whose docs describe no content — closing a position ("Position closed"),
/// switching hedge mode ("hedge mode updated"), canceling all orders (a literal `[]`): an
/// HTTP 2xx with an empty body, `[]`, `{}`, or any other value, which is kept.
///
/// One value is refused: an object carrying `message` or `errors`, the shapes of the
/// exchange's error answers. Behind a 2xx status such a body does not say that the operation
/// was done, so for an operation that changes something its outcome stays unknown.
///
/// ```
/// use txc_types::endpoint::Acknowledged;
/// let empty: Acknowledged = serde_json::from_str("null")?; // an empty body
/// assert_eq!(empty.body, None);
/// let listed: Acknowledged = serde_json::from_str("[]")?;
/// assert_eq!(listed.body, Some(serde_json::json!([])));
/// assert!(serde_json::from_str::<Acknowledged>(r#"{"code":1,"message":"Inner validation failed"}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Acknowledged {
    /// What the body held, if anything (`None`: empty).
    pub body: Option<Value>,
}

impl<'de> Deserialize<'de> for Acknowledged {
    /// Any JSON value (`null` standing for an empty body) but an error-shaped object.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let body = Option::<Value>::deserialize(d)?;
        if let Some(Value::Object(map)) = &body
            && (map.contains_key("message") || map.contains_key("errors"))
        {
            return Err(D::Error::custom(
                "an error-shaped object is not an acknowledgement",
            ));
        }
        Ok(Self { body })
    }
}
