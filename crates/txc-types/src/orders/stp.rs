//! [`Stp`]: self-trade prevention mode.

use serde::{Deserialize, Serialize};
use txc_derive::WireEnum;

/// Self-trade prevention. Sent in the short form (`no`, `cb`, `cn`, `co`); the legacy long
/// names `cancel_both`, `cancel_new`, `cancel_old` are parsed too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, WireEnum)]
#[serde(try_from = "std::borrow::Cow<'_, str>")]
#[wire(field = "stp")]
pub enum Stp {
    /// No self-trade prevention (the server default).
    #[default]
    #[serde(rename = "no")]
    No,
    /// Cancel both orders.
    #[serde(rename = "cb")]
    #[wire(alias = "cancel_both")]
    CancelBoth,
    /// Cancel the new (taker) order.
    #[serde(rename = "cn")]
    #[wire(alias = "cancel_new")]
    CancelNew,
    /// Cancel the old (maker) order.
    #[serde(rename = "co")]
    #[wire(alias = "cancel_old")]
    CancelOld,
}
