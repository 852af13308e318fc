//! `POST /api/v4/collateral-account/leverage`: sets the account's leverage.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use crate::endpoint::{ToWire, WireValue};
use crate::errors::{Reason, ValidationError};

/// A leverage the exchange accepts: 1, 2, 3, 5, 10, 20, 50 or 100 — what the docs list. The
/// effective maximum is the market's `max_leverage` (margin markets: 10 by the current docs),
/// which the exchange checks (code 30).
///
/// ```
/// use txc_types::positions::Leverage;
/// assert_eq!(Leverage::new(5)?.get(), 5);
/// assert!(Leverage::new(4).is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Leverage(u8);

impl Leverage {
    /// Every accepted value, in order.
    pub const ACCEPTED: [u8; 8] = [1, 2, 3, 5, 10, 20, 50, 100];

    /// `value` if it is one of [`ACCEPTED`](Self::ACCEPTED).
    pub fn new(value: u32) -> Result<Self, ValidationError> {
        Self::ACCEPTED
            .into_iter()
            .find(|&v| u32::from(v) == value)
            .map(Self)
            .ok_or(ValidationError::invalid(
                "leverage",
                Reason::Format("must be one of 1, 2, 3, 5, 10, 20, 50, 100"),
            ))
    }

    /// The value.
    pub fn get(self) -> u32 {
        u32::from(self.0)
    }
}

impl ToWire for Leverage {
    #[inline]
    fn to_wire(&self) -> WireValue<'_> {
        WireValue::Int(u64::from(self.0))
    }
}

impl fmt::Display for Leverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Changes the collateral account's leverage (account-wide: there is none per market).
///
/// The docs contradict themselves on open positions: the endpoint's page says a change
/// "affects all open positions", while its error list has code 113, "leverage cannot be
/// changed while open positions or orders exist". The client therefore does not refuse a
/// change before sending; the exchange's 113 is classified
/// (`ApiErrorClass::PositionsOpen` in `txc-core`). Code 17: the balance cannot support the
/// new level.
///
/// Setting a leverage is idempotent ([`EndpointKind::Idempotent`](crate::endpoint::EndpointKind::Idempotent)): resending it after an
/// ambiguous failure sets the same value.
///
/// ```
/// use txc_types::positions::SetLeverage;
/// let set = SetLeverage::new(10)?;
/// assert_eq!(serde_json::to_string(&set).unwrap(), r#"{"leverage":10}"#);
/// assert_eq!(SetLeverage::new(7).unwrap_err().field(), "leverage");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/collateral-account/leverage",
    operation = "set_leverage",
    kind = Idempotent,
    rate_limit = (1_000, 10),
    response = LeverageSet,
)]
pub struct SetLeverage {
    /// The leverage asked for.
    #[request(get = copy)]
    leverage: Leverage,
}

impl SetLeverage {
    /// Sets the leverage to `value`, one of [`Leverage::ACCEPTED`].
    pub fn new(value: u32) -> Result<Self, ValidationError> {
        Ok(Self {
            leverage: Leverage::new(value)?,
        })
    }
}

impl From<Leverage> for SetLeverage {
    fn from(leverage: Leverage) -> Self {
        Self { leverage }
    }
}

/// The leverage in force after a change: `{"leverage": 5}`.
///
/// ```
/// let set: txc_types::positions::LeverageSet = serde_json::from_str(r#"{"leverage":5}"#)?;
/// assert_eq!(set.leverage, 5);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Answer)]
#[answer(expecting = "a leverage object")]
#[non_exhaustive]
pub struct LeverageSet {
    /// The account's leverage now, as sent (1 to 100).
    pub leverage: u64,
    /// Fields the docs do not list, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
