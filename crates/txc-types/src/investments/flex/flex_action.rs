//! [`FlexAction`]: what a record of the flex investment history did.

use txc_derive::WireEnum;

use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};

/// What a flex history record did (its `actionType`). Unknown codes are kept.
///
/// ```
/// use txc_types::investments::flex::FlexAction;
/// assert_eq!(FlexAction::from_code(4), FlexAction::DailyEarning);
/// assert_eq!(FlexAction::Withdraw.code(), 3);
/// assert_eq!(FlexAction::from_code(9), FlexAction::Other(9));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, WireEnum)]
#[non_exhaustive]
pub enum FlexAction {
    /// `1` (`INVEST`): money invested — the investment's creation, or a top-up.
    #[wire(code = 1)]
    Invest,
    /// `2` (`REINVEST`): an earning added to the investment by auto-reinvestment.
    #[wire(code = 2)]
    Reinvest,
    /// `3` (`WITHDRAW_FROM_INVESTMENT`): a partial withdrawal.
    #[wire(code = 3)]
    Withdraw,
    /// `4` (`DAILY_EARNING`): the day's interest; the payment history lists only these.
    #[wire(code = 4)]
    DailyEarning,
    /// `5` (`CLOSE_INVESTMENT`): the investment closed, everything paid back.
    #[wire(code = 5)]
    Close,
    /// `6` (`OPEN_INVESTMENT`): the investment opened (the spec does not say how this differs
    /// from `1`'s "creation"; see [`flex`](super)'s decisions).
    #[wire(code = 6)]
    Open,
    /// A code this version does not know, kept as sent.
    #[wire(other)]
    Other(u64),
}

impl FlexAction {
    /// Every documented action, by code.
    pub const ALL: [Self; 6] = [
        Self::Invest,
        Self::Reinvest,
        Self::Withdraw,
        Self::DailyEarning,
        Self::Close,
        Self::Open,
    ];
}

impl ToWire for FlexAction {
    /// The code; a request sends only the documented ones (its builder refuses others).
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Int(self.code())
    }
}

/// `actions` without repeats, in the order given, each a documented one; an empty list is
/// refused on `field` (leave the filter out for every action).
pub(crate) fn known_actions(
    actions: impl IntoIterator<Item = FlexAction>,
    field: &'static str,
) -> Result<Vec<FlexAction>, ValidationError> {
    let mut out: Vec<FlexAction> = Vec::new();
    for action in actions {
        if let FlexAction::Other(_) = action {
            return Err(ValidationError::invalid(field, Reason::UnknownVariant));
        }
        if !out.contains(&action) {
            out.push(action);
        }
    }
    if out.is_empty() {
        return Err(ValidationError::invalid(
            field,
            Reason::Format("must list at least one action (leave it out for all)"),
        ));
    }
    Ok(out)
}
