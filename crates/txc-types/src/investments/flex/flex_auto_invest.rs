//! `POST /api/v4/main-account/smart-flex/investments/auto-invest`: switching a flex
//! investment's auto-reinvestment on or off.

use txc_derive::Request;

use crate::endpoint::{Acknowledged, MAIN_ACCOUNT_SCOPE};
use crate::errors::ValidationError;
use crate::investments::page::check_id;

/// Sets whether the account's investment in a flex plan adds its earnings to itself
/// (`enabled`; the exchange's default when left out is `false`, so it is always sent). The
/// answer is `{"data":[]}` ([`Acknowledged`]); a plan without an investment is refused with
/// `No existing investments for this plan` (HTTP 422).
///
/// It sets a state the request carries: sending it again sets the same — safe to resend
/// after an ambiguous answer ([`EndpointKind::Idempotent`](crate::endpoint::EndpointKind::Idempotent)),
/// and the investment's `withAutoReinvest` tells whether it took.
///
/// ```
/// use txc_types::investments::flex::SetFlexAutoInvest;
/// let on = SetFlexAutoInvest::new("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f", true)?;
/// assert_eq!(
///     serde_json::to_string(&on)?,
///     r#"{"plan":"8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f","enabled":true}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart-flex/investments/auto-invest",
    operation = "set_flex_auto_invest",
    kind = Idempotent,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = Acknowledged,
)]
pub struct SetFlexAutoInvest {
    /// The plan's id.
    plan: String,
    /// Whether earnings are reinvested.
    #[request(get = copy)]
    enabled: bool,
}

impl SetFlexAutoInvest {
    /// Turns the auto-reinvestment of the investment in the plan `plan` on or off.
    pub fn new(plan: &str, enabled: bool) -> Result<Self, ValidationError> {
        Ok(Self {
            plan: check_id(plan, "plan")?,
            enabled,
        })
    }
}
