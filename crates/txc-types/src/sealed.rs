//! The seal of the traits whose implementations are this crate's own: buildable orders,
//! the orders the market rules read, and look-up builders. Outside crates can use them as bounds but not implement them.

/// Implemented only inside this crate.
pub trait Sealed {}

impl Sealed for crate::orders::CollateralMarketOrder {}
impl Sealed for crate::orders::CollateralTriggerMarketOrder {}
impl Sealed for crate::orders::CollateralLimitOrder {}
impl Sealed for crate::orders::CollateralStopLimitOrder {}
impl Sealed for crate::orders::CollateralBulkOrder {}
impl Sealed for crate::orders::CollateralBboOrder {}
impl Sealed for crate::orders::CollateralStopBboOrder {}
impl Sealed for crate::orders::CollateralOcoOrder {}
impl Sealed for crate::orders::ModifyOrder {}
impl Sealed for crate::socket::CollateralTpslOrder {}
