//! The seal of the traits whose implementations are this crate's own: validation rules and
//! buildable orders. Outside crates can use them as bounds but not implement them.

/// Implemented only inside this crate.
pub trait Sealed {}

impl Sealed for crate::MarketRule {}
impl Sealed for crate::TickerRule {}
impl Sealed for crate::ClientOrderIdRule {}
impl Sealed for crate::AmountRule {}
impl Sealed for crate::PriceRule {}
impl Sealed for crate::CollateralMarketOrder {}
impl Sealed for crate::CollateralTriggerMarketOrder {}
impl Sealed for crate::OpenOrdersQuery {}
impl Sealed for crate::OrderHistoryQuery {}
