//! [`Side`]: buy or sell.

use serde::{Deserialize, Serialize};
use txc_derive::WireEnum;

/// The order side; `buy` or `sell` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, WireEnum)]
#[serde(rename_all = "lowercase")]
#[wire(field = "side")]
pub enum Side {
    /// Buy the market's stock currency.
    Buy,
    /// Sell the market's stock currency.
    Sell,
}

impl Side {
    /// The other side.
    pub fn opposite(self) -> Self {
        match self {
            Self::Buy => Self::Sell,
            Self::Sell => Self::Buy,
        }
    }
}
