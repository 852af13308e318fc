//! JSON-RPC frames: what the server sends, read into [`Incoming`], and what the client sends,
//! written as an [`OutgoingFrame`].

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use zeroize::Zeroizing;

/// A text frame the driver writes to the socket: one JSON-RPC request.
///
/// Its `Debug` shows the id and method only: an `authorize` frame carries the token, and its
/// text is zeroized on drop.
#[derive(Clone, PartialEq, Eq)]
pub struct OutgoingFrame {
    id: u64,
    method: &'static str,
    text: Zeroizing<String>,
}

impl OutgoingFrame {
    /// The request `{"id": id, "method": method, "params": params}`.
    pub(crate) fn new(id: u64, method: &'static str, params: &impl Serialize) -> Self {
        #[derive(Serialize)]
        struct Request<'a, P> {
            id: u64,
            method: &'a str,
            params: &'a P,
        }
        let request = Request { id, method, params };
        // Integers, strings and arrays of them always serialize.
        let text = serde_json::to_string(&request).unwrap_or_default();
        Self {
            id,
            method,
            text: Zeroizing::new(text),
        }
    }

    /// The request id; the answer carries the same.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The method, e.g. `ping` or `ordersPending_subscribe`.
    pub fn method(&self) -> &'static str {
        self.method
    }

    /// The JSON text to send as one text frame.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Debug for OutgoingFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutgoingFrame")
            .field("id", &self.id)
            .field("method", &self.method)
            .finish_non_exhaustive()
    }
}

/// A frame from the server, by its JSON-RPC role, borrowing from the frame's text: the method
/// and the `params` are read in place, not copied (an update is decoded straight from them).
#[derive(Debug)]
pub(crate) enum Incoming<'a> {
    /// An answer to request `id`: its `result` and `error` (`None` for absent or `null`).
    Answer {
        id: u64,
        result: Option<&'a RawValue>,
        error: Option<&'a RawValue>,
    },
    /// A message with a method and no id: a channel update, or another notification.
    Notification {
        method: Cow<'a, str>,
        params: Option<&'a RawValue>,
    },
    /// A JSON-RPC object of neither kind (e.g. a method with an id, or nothing to go by).
    Other { method: Option<Cow<'a, str>> },
}

/// The fields of any JSON-RPC message; unknown fields are ignored. The method borrows from the
/// frame unless it holds an escape.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default, borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    params: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

/// Reads one text frame; `Err` says why it is not a JSON-RPC message.
pub(crate) fn parse(text: &str) -> Result<Incoming<'_>, String> {
    // A derived struct would also read an array by position.
    if !text.trim_start().starts_with('{') {
        return Err("not a JSON object".to_owned());
    }
    let envelope: Envelope<'_> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let id = match envelope.id {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(
            n.as_u64()
                .ok_or_else(|| format!("id {n} is not a non-negative integer"))?,
        ),
        Some(other) => return Err(format!("id {other} is not an integer")),
    };
    Ok(match (id, envelope.method) {
        (Some(id), None) if envelope.result.is_some() || envelope.error.is_some() => {
            Incoming::Answer {
                id,
                result: envelope.result,
                error: envelope.error,
            }
        }
        (None, Some(method)) => Incoming::Notification {
            method,
            params: envelope.params,
        },
        (_, method) => Incoming::Other { method },
    })
}

/// A frame already read as JSON, kept as sent.
pub(crate) fn raw(text: String) -> Box<RawValue> {
    // `parse` accepted the text, so it is JSON; `null` is never needed.
    RawValue::from_string(text).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_answers_notifications_and_refuses_what_is_not_json_rpc() {
        let answer = parse(r#"{"id": 0, "result": "pong", "error": null}"#).unwrap();
        assert!(matches!(
            answer,
            Incoming::Answer {
                id: 0,
                result: Some(_),
                error: None
            }
        ));
        let refused = parse(r#"{"id":3,"result":null,"error":{"code":1,"message":"x"}}"#).unwrap();
        assert!(matches!(
            refused,
            Incoming::Answer {
                id: 3,
                result: None,
                error: Some(_)
            }
        ));
        let update = parse(r#"{"id":null,"method":"deals_update","params":[1]}"#).unwrap();
        assert!(
            matches!(update, Incoming::Notification { ref method, params: Some(_) } if method == "deals_update")
        );
        let no_id = parse(r#"{"method":"x_update"}"#).unwrap();
        assert!(matches!(no_id, Incoming::Notification { params: None, .. }));
        assert!(matches!(
            parse(r#"{"id":5,"method":"m"}"#).unwrap(),
            Incoming::Other { method: Some(_) }
        ));
        assert!(matches!(
            parse(r#"{"id":5}"#).unwrap(),
            Incoming::Other { method: None }
        ));
        for bad in [
            "",
            "not json",
            "[1]",
            "3",
            r#"{"id":"7","result":1}"#,
            r#"{"id":-1,"result":1}"#,
            r#"{"id":1.5,"result":1}"#,
            r#"{"method":5}"#,
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn writes_id_method_params_in_that_order_and_hides_the_text_from_debug() {
        let frame = OutgoingFrame::new(7, "authorize", &("the-token", "public"));
        assert_eq!(
            frame.text(),
            r#"{"id":7,"method":"authorize","params":["the-token","public"]}"#
        );
        assert!(!format!("{frame:?}").contains("the-token"));
    }
}
