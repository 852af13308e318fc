//! The smart-investment answers, in the field order of the docs' examples (main_api_v4.yaml,
//! "Crypto Lending - Fixed"): the new investment's id, a page of the list (`offset`, `limit`,
//! `records`), an investment record with its plan's record, an interest payment record, and
//! closing's empty object.

use std::collections::BTreeMap;

use serde::Serialize;

use super::plan_record::PlanRecord;

/// The answer to investing (HTTP 201): `{"id": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct NewInvestmentRecord {
    pub(crate) id: String,
}

/// The answer to closing an investment: `{}`.
pub(crate) type ClosedRecord = BTreeMap<String, String>;

/// A page of a list: `{"offset", "limit", "records"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct PageRecord<T> {
    pub(crate) offset: u64,
    pub(crate) limit: u64,
    pub(crate) records: Vec<T>,
}

impl<T> PageRecord<T> {
    /// `records`, the page from the `offset`-th item of at most `limit`.
    pub(crate) fn new(offset: usize, limit: usize, records: Vec<T>) -> Self {
        Self {
            offset: u64::try_from(offset).unwrap_or(u64::MAX),
            limit: u64::try_from(limit).unwrap_or(u64::MAX),
            records,
        }
    }
}

/// An investment: amounts as strings, times as integer Unix seconds, the plan as the plans
/// list gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InvestmentRecord {
    pub(crate) id: String,
    pub(crate) plan: PlanRecord,
    pub(crate) status: i64,
    pub(crate) created: u64,
    pub(crate) updated: u64,
    pub(crate) payment_time: u64,
    pub(crate) amount: String,
    pub(crate) interest_paid: String,
}

/// An interest payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InterestPaymentRecord {
    pub(crate) plan_id: String,
    pub(crate) investment_id: String,
    pub(crate) amount: String,
    pub(crate) ticker: String,
    pub(crate) timestamp: u64,
}
