//! `POST /api/v4/main-account/smart-flex/investments/close`: closing a flex investment.

use txc_derive::Request;

use super::FlexTransaction;
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::errors::ValidationError;
use crate::investments::page::check_id;

/// Closes the account's investment in a flex plan: everything invested comes back to the main
/// balance (HTTP 201, [`FlexTransaction`]). The plan must exist and the investment be active;
/// a closed one is refused with `Cannot withdraw from closed investment`.
///
/// Closing again after a lost answer closes nothing more — but investing in the plan in
/// between would make it close that: an order operation, never resent blindly. The
/// investment's status tells whether it happened.
///
/// ```
/// use txc_types::investments::flex::CloseFlexInvestment;
/// let close = CloseFlexInvestment::new("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f")?;
/// assert_eq!(
///     serde_json::to_string(&close)?,
///     r#"{"plan":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f"}"#
/// );
/// assert!(CloseFlexInvestment::new("").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart-flex/investments/close",
    operation = "close_flex_investment",
    kind = Order,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = FlexTransaction,
)]
pub struct CloseFlexInvestment {
    /// The plan's id.
    plan: String,
}

impl CloseFlexInvestment {
    /// Closes the investment in the plan `plan`.
    pub fn new(plan: &str) -> Result<Self, ValidationError> {
        Ok(Self {
            plan: check_id(plan, "plan")?,
        })
    }
}
