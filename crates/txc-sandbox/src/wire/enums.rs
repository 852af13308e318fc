//! The enumerations of the wire, each with the exact text the exchange uses.
//!
//! Parsing follows the docs' rules for requests (see [`crate::rules`]); printing gives the
//! form responses carry.

/// An order's side: `buy` or `sell`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Side {
    Buy,
    Sell,
}

impl Side {
    /// `buy` or `sell`, exactly (the docs' enum; no other spelling is documented).
    pub(crate) fn parse(text: &str) -> Option<Self> {
        match text {
            "buy" => Some(Self::Buy),
            "sell" => Some(Self::Sell),
            _ => None,
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Buy => "buy",
            Self::Sell => "sell",
        }
    }
}

/// A position side: `LONG`, `SHORT` or `BOTH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum PositionSide {
    Long,
    Short,
    Both,
}

impl PositionSide {
    /// `LONG`, `SHORT` or `BOTH` in any case: the live server accepts the seed's lower-case
    /// `long`/`short` (wire contract, "Decisions").
    pub(crate) fn parse(text: &str) -> Option<Self> {
        if text.eq_ignore_ascii_case("long") {
            Some(Self::Long)
        } else if text.eq_ignore_ascii_case("short") {
            Some(Self::Short)
        } else if text.eq_ignore_ascii_case("both") {
            Some(Self::Both)
        } else {
            None
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Long => "LONG",
            Self::Short => "SHORT",
            Self::Both => "BOTH",
        }
    }
}

/// Self-trade prevention mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Stp {
    #[default]
    No,
    CancelBoth,
    CancelNew,
    CancelOld,
}

impl Stp {
    /// The short names and the deprecated long ones the exchange still accepts.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        match text {
            "no" => Some(Self::No),
            "cb" | "cancel_both" => Some(Self::CancelBoth),
            "cn" | "cancel_new" => Some(Self::CancelNew),
            "co" | "cancel_old" => Some(Self::CancelOld),
            _ => None,
        }
    }

    /// "Responses always return the abbreviated form."
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::No => "no",
            Self::CancelBoth => "cb",
            Self::CancelNew => "cn",
            Self::CancelOld => "co",
        }
    }
}

/// The status an order record carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrderStatus {
    /// Resting with nothing executed: a limit order on the book, or a stop order waiting for
    /// its activation price. Not a value of the placement answers' enum: see the crate docs
    /// ("Trigger orders") for why the sandbox answers `OPEN`.
    Open,
    /// Resting with part of it executed.
    PartiallyFilled,
    /// Executed in full.
    Filled,
    /// Canceled (by the account, a linked order, `ioc`, a kill switch) or because the margin
    /// no longer covers it; it may have executed in part before.
    Canceled,
    /// A reduce-only order with nothing (left) to reduce.
    AutoCanceledReduceOnly,
    /// Canceled by self-trade prevention.
    CanceledStp,
    /// Canceled because the account's position on the market was being liquidated.
    AutoCanceledLiquidation,
}

impl OrderStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Open => "OPEN",
            Self::PartiallyFilled => "PARTIALLY_FILLED",
            Self::Filled => "FILLED",
            Self::Canceled => "CANCELED",
            Self::AutoCanceledReduceOnly => "AUTO_CANCELED_REDUCE_ONLY",
            Self::CanceledStp => "CANCELED_STP",
            Self::AutoCanceledLiquidation => "AUTO_CANCELED_LIQUIDATION",
        }
    }

    /// Whether the order still rests (its `clientOrderId` is taken, it can be canceled).
    pub(crate) fn is_open(self) -> bool {
        matches!(self, Self::Open | Self::PartiallyFilled)
    }
}

/// A position's liquidation state, as `liquidationState` and the stream's `liq_stage` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LiquidationStage {
    /// The account's margin is below its margin-call level.
    MarginCall,
    /// The position is being liquidated.
    Liquidation,
}

impl LiquidationStage {
    /// `margin_call` or `liquidation`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::MarginCall => "margin_call",
            Self::Liquidation => "liquidation",
        }
    }

    /// The `positionsAccountMargin` event type: `1` margin call, `2` liquidation.
    pub(crate) fn event(self) -> u8 {
        match self {
            Self::MarginCall => 1,
            Self::Liquidation => 2,
        }
    }
}

/// What kind of order it is, as the records' `type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OrderType {
    /// Executes at once at the market.
    Market,
    /// Waits for its activation price, then executes as a market order.
    StopMarket,
    /// Executes at its price or better; what is left rests on the book.
    Limit,
    /// Waits for its activation price, then becomes a limit order.
    StopLimit,
}

impl OrderType {
    /// `market`, `stop market`, `limit`, `stop limit`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Market => "market",
            Self::StopMarket => "stop market",
            Self::Limit => "limit",
            Self::StopLimit => "stop limit",
        }
    }

    /// Whether it carries a limit price.
    pub(crate) fn has_price(self) -> bool {
        matches!(self, Self::Limit | Self::StopLimit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_docs_spellings() {
        assert_eq!(Side::parse("buy"), Some(Side::Buy));
        assert_eq!(Side::parse("BUY"), None);
        assert_eq!(PositionSide::parse("long"), Some(PositionSide::Long));
        assert_eq!(PositionSide::parse("Short"), Some(PositionSide::Short));
        assert_eq!(PositionSide::parse("BOTH"), Some(PositionSide::Both));
        assert_eq!(PositionSide::parse(""), None);
        for (text, short) in [
            ("cancel_both", "cb"),
            ("cancel_new", "cn"),
            ("cancel_old", "co"),
            ("no", "no"),
        ] {
            assert_eq!(Stp::parse(text).map(Stp::as_str), Some(short));
            assert_eq!(Stp::parse(short).map(Stp::as_str), Some(short));
        }
        assert_eq!(Stp::parse("CB"), None);
    }
}

/// The kinds of order cancel-all and the kill switch target: `spot`, `margin` (margin orders
/// on spot markets) and `futures` (orders on perpetual `…_PERP` markets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum OrderClass {
    Spot,
    Margin,
    Futures,
}

impl OrderClass {
    /// `spot`, `margin` or `futures`, exactly.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        match text {
            "spot" => Some(Self::Spot),
            "margin" => Some(Self::Margin),
            "futures" => Some(Self::Futures),
            _ => None,
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Spot => "spot",
            Self::Margin => "margin",
            Self::Futures => "futures",
        }
    }

    /// The kind of the sandbox's (collateral) orders on `market`: `futures` on a perpetual
    /// market, `margin` otherwise; the sandbox has no spot orders.
    pub(crate) fn of_market(market: &str) -> Self {
        if market.ends_with("_PERP") {
            Self::Futures
        } else {
            Self::Margin
        }
    }
}
