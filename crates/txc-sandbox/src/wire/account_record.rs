//! The collateral account's records: each asset of the balance summary, the account summary,
//! the leverage and hedge-mode answers.

use serde::Serialize;

/// One asset of `POST /api/v4/collateral-account/balance-summary`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AssetBalanceRecord {
    pub(crate) asset: String,
    pub(crate) balance: String,
    pub(crate) borrow: String,
    pub(crate) available_without_borrow: String,
    pub(crate) available_with_borrow: String,
}

/// `POST /api/v4/collateral-account/summary`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SummaryRecord {
    pub(crate) equity: String,
    pub(crate) margin: String,
    pub(crate) free_margin: String,
    pub(crate) unrealized_funding: String,
    pub(crate) pnl: String,
    pub(crate) leverage: u64,
    pub(crate) margin_fraction: String,
}

/// `POST /api/v4/collateral-account/leverage`'s answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LeverageRecord {
    pub(crate) leverage: u64,
}

/// `POST /api/v4/collateral-account/hedge-mode`'s answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HedgeModeRecord {
    pub(crate) hedge_mode: bool,
}

/// The answer of an operation the docs give no body for: sent as an empty body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NoContent;

impl Serialize for NoContent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}
