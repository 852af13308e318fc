//! [`PositionSide`]: which position an order acts on.

use serde::{Deserialize, Serialize};
use txc_derive::WireEnum;

/// The position side. Sent upper case (`LONG`, `SHORT`, `BOTH`); parsed in any case, so the
/// seed's `long`/`short` work too. In hedge mode it must be `LONG` or `SHORT`; in one-way mode
/// the exchange ignores it and answers `BOTH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, WireEnum)]
#[serde(rename_all = "UPPERCASE", try_from = "std::borrow::Cow<'_, str>")]
#[wire(field = "positionSide", ignore_case)]
pub enum PositionSide {
    /// The long position (hedge mode).
    Long,
    /// The short position (hedge mode).
    Short,
    /// The single position of one-way mode.
    Both,
}
