//! The records of the risk controls: a kill-switch timer, and one item of a bulk answer (bulk
//! cancel, bulk limit orders).

use std::collections::BTreeMap;

use serde::Serialize;

use super::rejection::Rejection;

/// A kill-switch timer (`POST /api/v4/order/kill-switch` and its status): `types` `null` when
/// the timer was set without them.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TimerRecord {
    pub(crate) market: String,
    pub(crate) start_time: u64,
    pub(crate) cancellation_time: u64,
    pub(crate) types: Option<Vec<&'static str>>,
}

/// What setting a timer answers: the timer, or `[]` for a deletion.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum TimerAnswer {
    Timer(TimerRecord),
    Deleted([(); 0]),
}

/// The identifiers a bulk cancel echoes for an order it canceled.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CanceledRecord {
    pub(crate) order_id: u64,
    pub(crate) client_order_id: String,
    pub(crate) market: String,
}

/// An error inside a bulk answer: the documented error shape.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ItemErrorRecord {
    pub(crate) code: i64,
    pub(crate) message: &'static str,
    pub(crate) errors: BTreeMap<String, Vec<String>>,
}

/// One item of a bulk answer (bulk cancel, bulk limit orders): a result or an error, the
/// other `null`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ItemRecord<T> {
    pub(crate) result: Option<T>,
    pub(crate) error: Option<ItemErrorRecord>,
}

/// One item of a bulk cancel's answer.
pub(crate) type BulkItemRecord = ItemRecord<CanceledRecord>;

impl<T> ItemRecord<T> {
    /// A successful item.
    pub(crate) fn ok(result: T) -> Self {
        Self {
            result: Some(result),
            error: None,
        }
    }

    /// A failed item: `code`, `message`, and `messages` on `field`.
    pub(crate) fn failed(code: i64, message: &'static str, field: &str, messages: &[&str]) -> Self {
        let mut errors = BTreeMap::new();
        errors.insert(
            field.to_owned(),
            messages.iter().map(|m| (*m).to_owned()).collect(),
        );
        Self {
            result: None,
            error: Some(ItemErrorRecord {
                code,
                message,
                errors,
            }),
        }
    }

    /// An item refused as `rejection` refuses a request (its status left out).
    pub(crate) fn rejected(rejection: Rejection) -> Self {
        Self {
            result: None,
            error: Some(ItemErrorRecord {
                code: rejection.code,
                message: rejection.message,
                errors: rejection.errors,
            }),
        }
    }
}
