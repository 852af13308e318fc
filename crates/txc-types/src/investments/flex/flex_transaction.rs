//! [`FlexTransaction`]: the answer to investing, withdrawing and closing.

use serde_json::{Map, Value};
use txc_derive::Answer;

/// The answer to a flex operation that moves money — investing, withdrawing, closing (HTTP
/// 201): `{"data":{"transaction_id":"…"}}`, the id under which the history lists it.
///
/// ```
/// let t: txc_types::investments::flex::FlexTransaction =
///     serde_json::from_str(r#"{"data":{"transaction_id":"tx_9f3e0d4c"}}"#)?;
/// assert_eq!(t.transaction_id(), "tx_9f3e0d4c");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a flex transaction answer")]
#[non_exhaustive]
pub struct FlexTransaction {
    /// The operation's transaction.
    #[answer(with = "crate::lenient::object")]
    pub data: FlexTransactionData,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl FlexTransaction {
    /// The transaction's id.
    pub fn transaction_id(&self) -> &str {
        &self.data.transaction_id
    }
}

/// The `data` of a [`FlexTransaction`].
#[derive(Debug, Clone, PartialEq, Answer)]
#[answer(expecting = "a transaction object")]
#[non_exhaustive]
pub struct FlexTransactionData {
    /// The transaction's id (snake_case on the wire).
    pub transaction_id: String,
    /// Fields this version does not know, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
