//! The flexible lending answers, in the field order of the spec's examples
//! (main_api_v4.yaml, "Crypto Lending - Flex"): a plan, an investment, a history record, a
//! page of a list (`data`, `limit`, `offset`), a transaction (`{"data":{"transaction_id"}}`)
//! and auto-invest's `{"data":[]}`.

use serde::Serialize;

/// A flex plan: `id`, `ticker` and the figures as strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FlexPlanRecord {
    pub(crate) id: String,
    pub(crate) ticker: String,
    pub(crate) min_investment: String,
    pub(crate) max_investment: String,
    pub(crate) max_rate: String,
}

/// A flex investment: the amount as a string, the status `1` active or `0` closed, times as
/// integer Unix seconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FlexInvestmentRecord {
    pub(crate) id: String,
    pub(crate) plan_id: String,
    pub(crate) currency: String,
    pub(crate) invested: String,
    pub(crate) with_auto_reinvest: bool,
    pub(crate) status: i64,
    pub(crate) created_at: u64,
    pub(crate) updated_at: u64,
}

/// A record of the flex history: `transaction_id` in snake_case, as the spec writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FlexHistoryRecord {
    pub(crate) created_at: u64,
    pub(crate) plan_id: String,
    pub(crate) investment_id: String,
    pub(crate) currency: String,
    pub(crate) amount: String,
    #[serde(rename = "transaction_id")]
    pub(crate) transaction_id: String,
    pub(crate) action_type: i64,
}

/// A page of a flex list: `{"data", "limit", "offset"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct DataPage<T> {
    pub(crate) data: Vec<T>,
    pub(crate) limit: u64,
    pub(crate) offset: u64,
}

impl<T> DataPage<T> {
    /// `data`, the page from the `offset`-th item of at most `limit`.
    pub(crate) fn new(offset: usize, limit: usize, data: Vec<T>) -> Self {
        Self {
            data,
            limit: u64::try_from(limit).unwrap_or(u64::MAX),
            offset: u64::try_from(offset).unwrap_or(u64::MAX),
        }
    }
}

/// The answer to investing, withdrawing and closing: `{"data":{"transaction_id":"…"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct TransactionRecord {
    pub(crate) data: TransactionId,
}

/// A transaction's id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct TransactionId {
    pub(crate) transaction_id: String,
}

impl TransactionRecord {
    /// The answer carrying `transaction_id`.
    pub(crate) fn new(transaction_id: String) -> Self {
        Self {
            data: TransactionId { transaction_id },
        }
    }
}

/// The answer to auto-invest: `{"data":[]}` (an empty list, always).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct EmptyData {
    data: [(); 0],
}
