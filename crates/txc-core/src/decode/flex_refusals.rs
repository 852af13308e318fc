//! The classes of the flex-lending operations' documented refusals (the examples of the spec's
//! section "Crypto Lending - Flex"): their codes and messages are their own — `Investment does
//! not exist`, `Cannot withdraw from closed investment` — so only the endpoint, which
//! [`decode`](super::decode) knows, reads them.

use std::collections::BTreeMap;

use txc_types::endpoint::Endpoint;
use txc_types::investments::flex::{
    CloseFlexInvestment, FlexInvest, FlexWithdraw, SetFlexAutoInvest,
};

use super::error::ApiErrorClass;
use super::messages::normalized;

/// Each flex operation's refusals (HTTP 422) by message, compared without case and without a
/// final period, whatever the field.
const BY_MESSAGE: &[(&str, &str, ApiErrorClass)] = &[
    (
        FlexInvest::PATH,
        "amount is too small",
        ApiErrorClass::BelowMinimum,
    ),
    (
        FlexInvest::PATH,
        "plan is paused",
        ApiErrorClass::PlanPaused,
    ),
    (
        FlexInvest::PATH,
        "plan is unavailable",
        ApiErrorClass::PlanInactive,
    ),
    (
        FlexInvest::PATH,
        "private plan not available for this user",
        ApiErrorClass::Permission,
    ),
    (
        FlexInvest::PATH,
        "investment limit is exceeded",
        ApiErrorClass::AboveMaximum,
    ),
    (
        FlexWithdraw::PATH,
        "investment does not exist",
        ApiErrorClass::InvestmentNotFound,
    ),
    (
        FlexWithdraw::PATH,
        "cannot withdraw from closed investment",
        ApiErrorClass::InvestmentClosed,
    ),
    (
        FlexWithdraw::PATH,
        "withdraw amount is too small",
        ApiErrorClass::BelowMinimum,
    ),
    (
        FlexWithdraw::PATH,
        "cannot withdraw amount < min possible",
        ApiErrorClass::BelowMinimum,
    ),
    (
        FlexWithdraw::PATH,
        "withdraw amount exceeds total invested",
        ApiErrorClass::AboveMaximum,
    ),
    (
        FlexWithdraw::PATH,
        "amount left < min investment",
        ApiErrorClass::BelowMinimum,
    ),
    (
        CloseFlexInvestment::PATH,
        "investment does not exist",
        ApiErrorClass::InvestmentNotFound,
    ),
    (
        CloseFlexInvestment::PATH,
        "cannot withdraw from closed investment",
        ApiErrorClass::InvestmentClosed,
    ),
    (
        SetFlexAutoInvest::PATH,
        "no existing investments for this plan",
        ApiErrorClass::InvestmentNotFound,
    ),
];

/// The class of a refusal of a flex operation at `path`:
///
/// | endpoint | answer | class |
/// |---|---|---|
/// | invest | 422 code 2 / 3 / 4 | below minimum / above maximum / insufficient balance |
/// | invest | 422 `Amount is too small` / `Plan is paused` / `Plan is unavailable` / `Private plan not available for this user` / `Investment limit is exceeded` | below minimum / plan paused / plan inactive / permission / above maximum |
/// | withdraw | 422 `Investment does not exist` / `Cannot withdraw from closed investment` | investment not found / investment closed |
/// | withdraw | 422 `Withdraw amount is too small`, `Cannot withdraw amount < min possible`, `Amount left < min investment` / `Withdraw amount exceeds total invested` | below minimum / above maximum |
/// | close | 422 `Investment does not exist` / `Cannot withdraw from closed investment` | investment not found / investment closed |
/// | auto-invest | 422 `No existing investments for this plan` | investment not found |
///
/// `None` leaves the class [`classify`](super::classify) gave (validation, permission, …).
pub(super) fn flex_class(
    path: &str,
    status: u16,
    code: Option<i64>,
    errors: &BTreeMap<String, Vec<String>>,
) -> Option<ApiErrorClass> {
    if status != 422 {
        return None;
    }
    if path == FlexInvest::PATH {
        match code {
            Some(2) => return Some(ApiErrorClass::BelowMinimum),
            Some(3) => return Some(ApiErrorClass::AboveMaximum),
            Some(4) => return Some(ApiErrorClass::InsufficientBalance),
            _ => {}
        }
    }
    let said: Vec<String> = errors.values().flatten().map(|m| normalized(m)).collect();
    BY_MESSAGE
        .iter()
        .find(|(at, message, _)| *at == path && said.iter().any(|m| m == message))
        .map(|(_, _, class)| *class)
}
