//! [`SocketMethod`]: the WebSocket's order methods this crate speaks, and the parameters each
//! takes.

use std::fmt;

/// An order method of the exchange's WebSocket (JSON-RPC on the authorized connection): the
/// nine collateral placements and the four methods of every market.
///
/// ```
/// use txc_types::socket::SocketMethod;
/// assert_eq!(SocketMethod::LimitPlace.name(), "collateral_order_limit_place");
/// assert_eq!(SocketMethod::from_name("order_cancel"), Some(SocketMethod::Cancel));
/// assert!(SocketMethod::OcoPlace.is_placement());
/// assert!(!SocketMethod::Modify.is_placement());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SocketMethod {
    /// `collateral_order_limit_place` (answers type `7`).
    LimitPlace,
    /// `collateral_order_market_place` (type `8`).
    MarketPlace,
    /// `collateral_order_stop_limit_place` (type `9`).
    StopLimitPlace,
    /// `collateral_order_stop_market_place` (type `10`).
    StopMarketPlace,
    /// `collateral_order_bbo_place` (type `7`).
    BboPlace,
    /// `collateral_order_stop_bbo_place` (type `9`).
    StopBboPlace,
    /// `collateral_order_oco_place`: a take-profit and stop-loss pair (a group).
    OcoPlace,
    /// `collateral_order_oto_place`: an entry order arming its own exit (a group).
    OtoPlace,
    /// `collateral_order_tpsl_place`: take-profit and stop-loss on an open position (type
    /// `10` legs, no group id).
    TpslPlace,
    /// `order_modify`: replaces a live order's size, price or trigger.
    Modify,
    /// `order_cancel`: cancels one order.
    Cancel,
    /// `order_cancel_conditional`: cancels an OCO or OTO group.
    CancelConditional,
    /// `order_cancel_all`: cancels every order of the given kinds on one market.
    CancelAll,
}

impl SocketMethod {
    /// Every method, placements first.
    pub const ALL: [Self; 13] = [
        Self::LimitPlace,
        Self::MarketPlace,
        Self::StopLimitPlace,
        Self::StopMarketPlace,
        Self::BboPlace,
        Self::StopBboPlace,
        Self::OcoPlace,
        Self::OtoPlace,
        Self::TpslPlace,
        Self::Modify,
        Self::Cancel,
        Self::CancelConditional,
        Self::CancelAll,
    ];

    /// The method's name on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            Self::LimitPlace => "collateral_order_limit_place",
            Self::MarketPlace => "collateral_order_market_place",
            Self::StopLimitPlace => "collateral_order_stop_limit_place",
            Self::StopMarketPlace => "collateral_order_stop_market_place",
            Self::BboPlace => "collateral_order_bbo_place",
            Self::StopBboPlace => "collateral_order_stop_bbo_place",
            Self::OcoPlace => "collateral_order_oco_place",
            Self::OtoPlace => "collateral_order_oto_place",
            Self::TpslPlace => "collateral_order_tpsl_place",
            Self::Modify => "order_modify",
            Self::Cancel => "order_cancel",
            Self::CancelConditional => "order_cancel_conditional",
            Self::CancelAll => "order_cancel_all",
        }
    }

    /// The method named `name`; `None` for another method.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether it places orders: the `*_place` methods count against the connection's order
    /// budget (10 000 per 10 s), every other request against the other budget (12 000 per
    /// 10 s).
    pub const fn is_placement(self) -> bool {
        !matches!(
            self,
            Self::Modify | Self::Cancel | Self::CancelConditional | Self::CancelAll
        )
    }

    /// Whether it cancels or modifies a named order: code `6` means "order not found" in its
    /// answer (elsewhere "authentication required").
    pub const fn targets_an_order(self) -> bool {
        matches!(self, Self::Modify | Self::Cancel | Self::CancelConditional)
    }

    /// The name `oto`'s `trigger_order_type` gives an entry placed by this method; `None` for
    /// a method that cannot be an OTO's entry.
    pub const fn oto_trigger_type(self) -> Option<&'static str> {
        match self {
            Self::LimitPlace => Some("margin_limit"),
            Self::MarketPlace => Some("margin_market"),
            Self::StopLimitPlace => Some("margin_stop_limit"),
            Self::StopMarketPlace => Some("margin_stop_market"),
            Self::BboPlace => Some("margin_bbo"),
            Self::StopBboPlace => Some("margin_stop_bbo"),
            _ => None,
        }
    }

    /// The parameters the method's page documents, in its order: what a request of it may
    /// carry.
    pub const fn params(self) -> &'static [&'static str] {
        const SHARED: [&str; 4] = ["reduce_only", "position_side", "client_order_id", "stp"];
        match self {
            Self::LimitPlace => &[
                "market",
                "side",
                "amount",
                "price",
                "reduce_only",
                "position_side",
                "post_only",
                "ioc",
                "rpi",
                "client_order_id",
                "stp",
            ],
            Self::MarketPlace => &[
                "market", "side", "amount", SHARED[0], SHARED[1], SHARED[2], SHARED[3],
            ],
            Self::StopLimitPlace => &[
                "market",
                "side",
                "amount",
                "activation_price",
                "price",
                SHARED[0],
                SHARED[1],
                SHARED[2],
                SHARED[3],
            ],
            Self::StopMarketPlace => &[
                "market",
                "side",
                "amount",
                "activation_price",
                SHARED[0],
                SHARED[1],
                SHARED[2],
                SHARED[3],
            ],
            Self::BboPlace => &[
                "market", "side", "amount", "bbo_role", "ioc", SHARED[0], SHARED[1], SHARED[2],
                SHARED[3],
            ],
            Self::StopBboPlace => &[
                "market",
                "side",
                "amount",
                "activation_price",
                "bbo_role",
                SHARED[0],
                SHARED[1],
                SHARED[2],
                SHARED[3],
            ],
            Self::OcoPlace => &[
                "market",
                "side",
                "amount",
                "price",
                "activation_price",
                "stop_limit_price",
                "limit_client_order_id",
                "stop_client_order_id",
                "reduce_only",
                "position_side",
                "stp",
            ],
            Self::OtoPlace => &[
                "trigger_order_type",
                "trigger_order",
                "conditional_order_type",
                "take_profit",
                "stop_loss",
            ],
            Self::TpslPlace => &[
                "market",
                "take_profit_activation_price",
                "stop_loss_activation_price",
                "position_side",
                "stp",
            ],
            Self::Modify => &[
                "market",
                "order_id",
                "client_order_id",
                "amount",
                "total",
                "price",
                "activation_price",
            ],
            Self::Cancel => &["market", "order_id", "client_order_id"],
            Self::CancelConditional => &["market", "order_id"],
            Self::CancelAll => &["market", "type"],
        }
    }
}

impl fmt::Display for SocketMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
