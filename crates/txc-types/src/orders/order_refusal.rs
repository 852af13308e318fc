//! [`OrderRefusal`]: what the exchange's refusal codes of the collateral order endpoints mean.

use std::fmt;

/// Why the exchange refused a collateral order: one class per code the order pages document
/// (limit, stop-limit, bulk items, OCO, market and trigger-market orders).
///
/// The codes are the order endpoints' own — code 10 means "insufficient balance" there, while
/// the docs' general table gives it another meaning — so read a code with
/// [`OrderRefusal::from_code`] only in the answer of an order endpoint or of a bulk order's
/// item. A code the pages do not list is `None`: the HTTP status says the rest (a 4xx is a
/// refusal, a 5xx never means "not executed").
///
/// Several refusals are checked before anything is sent: [`IocWithPostOnly`](Self::IocWithPostOnly),
/// [`RpiWithIoc`](Self::RpiWithIoc) and `reduceOnly` with a stop-loss or take-profit
/// ([`Validation`](Self::Validation)) by the builders, what [`Amount`](Self::Amount) and
/// [`Price`](Self::Price) refuse of a market's precisions and bounds by its rules
/// ([`MarketRules::check`](crate::markets::MarketRules::check)).
///
/// ```
/// use txc_types::orders::OrderRefusal;
/// assert_eq!(OrderRefusal::from_code(37), Some(OrderRefusal::IocWithPostOnly));
/// assert_eq!(OrderRefusal::from_code(116), Some(OrderRefusal::ReduceOnly));
/// assert_eq!(OrderRefusal::ReduceOnly.code(), 116);
/// assert_eq!(OrderRefusal::from_code(999), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OrderRefusal {
    /// `30`: the default validation code — also `reduceOnly` with a stop-loss or take-profit.
    Validation,
    /// `31`: the market failed validation (unknown, or not available for collateral trading).
    Market,
    /// `32`: the amount failed validation (its precision, or below the market's minimum).
    Amount,
    /// `33`: the price failed validation (its precision, or a total outside the market's
    /// bounds).
    Price,
    /// `36`: the `clientOrderId` failed validation — among others, an id one of the account's
    /// open orders on the market already has.
    ClientOrderId,
    /// `37`: `ioc` with `postOnly` (a bulk order's item: with `postOnly` or `rpi`).
    IocWithPostOnly,
    /// `40`: `rpi` with `ioc`.
    RpiWithIoc,
    /// `43`: the account may not place RPI orders.
    RpiNotAllowed,
    /// `10`: not enough balance to place the order.
    InsufficientBalance,
    /// `111`: the resulting position would exceed the market's maximum.
    PositionLimit,
    /// `112`: the value of pending orders would exceed the allowed maximum.
    PendingOrdersLimit,
    /// `113`: the position side cannot change while positions or orders are open.
    PositionsOpen,
    /// `114`: the `positionSide` does not fit the account's position mode (hedge mode needs
    /// `LONG` or `SHORT`; one-way mode refuses them).
    PositionSideMismatch,
    /// `115`: the order would open a position in the opposite direction (one-way mode).
    OppositePosition,
    /// `116`: a reduce-only order has no position to reduce, or its side does not reduce it.
    ReduceOnly,
}

impl OrderRefusal {
    /// Every class, in the order the limit order's page lists their codes.
    pub const ALL: [Self; 15] = [
        Self::Validation,
        Self::Market,
        Self::Amount,
        Self::Price,
        Self::ClientOrderId,
        Self::IocWithPostOnly,
        Self::RpiWithIoc,
        Self::RpiNotAllowed,
        Self::InsufficientBalance,
        Self::PositionLimit,
        Self::PendingOrdersLimit,
        Self::PositionsOpen,
        Self::PositionSideMismatch,
        Self::OppositePosition,
        Self::ReduceOnly,
    ];

    /// The exchange's code.
    pub const fn code(self) -> i64 {
        match self {
            Self::Validation => 30,
            Self::Market => 31,
            Self::Amount => 32,
            Self::Price => 33,
            Self::ClientOrderId => 36,
            Self::IocWithPostOnly => 37,
            Self::RpiWithIoc => 40,
            Self::RpiNotAllowed => 43,
            Self::InsufficientBalance => 10,
            Self::PositionLimit => 111,
            Self::PendingOrdersLimit => 112,
            Self::PositionsOpen => 113,
            Self::PositionSideMismatch => 114,
            Self::OppositePosition => 115,
            Self::ReduceOnly => 116,
        }
    }

    /// The class of an order endpoint's `code`; `None` for a code the order pages do not list.
    pub fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|class| class.code() == code)
    }

    /// A short description, e.g. `reduce-only`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Validation => "validation",
            Self::Market => "market",
            Self::Amount => "amount",
            Self::Price => "price",
            Self::ClientOrderId => "clientOrderId",
            Self::IocWithPostOnly => "ioc with postOnly",
            Self::RpiWithIoc => "rpi with ioc",
            Self::RpiNotAllowed => "rpi not allowed",
            Self::InsufficientBalance => "insufficient balance",
            Self::PositionLimit => "position limit",
            Self::PendingOrdersLimit => "pending orders limit",
            Self::PositionsOpen => "positions or orders open",
            Self::PositionSideMismatch => "position side does not fit the mode",
            Self::OppositePosition => "opposite position",
            Self::ReduceOnly => "reduce-only",
        }
    }
}

impl fmt::Display for OrderRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (code {})", self.as_str(), self.code())
    }
}
