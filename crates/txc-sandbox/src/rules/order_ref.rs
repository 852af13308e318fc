//! [`OrderRef`]: how a request names one order — by `orderId` or by `clientOrderId` (the
//! cancels and the history's look-up by id take either, never both).

/// How a request names one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OrderRef {
    /// By `orderId`.
    Id(u64),
    /// By `clientOrderId`.
    ClientId(String),
}
