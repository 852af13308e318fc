//! [`FlexInvestmentStatus`]: the integer status of a flexible investment.

use txc_derive::WireEnum;

use crate::endpoint::{ToWire, WireValue};

/// A flexible investment's status: `1` active, `0` closed (unlike the fixed plans' `2`).
/// Unknown integers are kept.
///
/// ```
/// use txc_types::investments::flex::FlexInvestmentStatus;
/// assert_eq!(FlexInvestmentStatus::from_code(0), FlexInvestmentStatus::Closed);
/// assert_eq!(FlexInvestmentStatus::Active.code(), 1);
/// assert_eq!(FlexInvestmentStatus::from_code(7), FlexInvestmentStatus::Other(7));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, WireEnum)]
#[non_exhaustive]
pub enum FlexInvestmentStatus {
    /// `1`: the money is invested and accrues.
    #[wire(code = 1)]
    Active,
    /// `0`: closed; everything was paid back. Investing in the plan again reopens it.
    #[wire(code = 0)]
    Closed,
    /// A code this version does not know, kept as sent.
    #[wire(other)]
    Other(u64),
}

impl ToWire for FlexInvestmentStatus {
    /// The code; a request sends only 0 or 1 (its builder refuses others).
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Int(self.code())
    }
}
