//! [`StoredOrder`]: an accepted order and its lifecycle (resting, filled, canceled).

use rust_decimal::Decimal;

use crate::rules::{OrderRef, OrderRequest, Price};
use crate::wire::{OrderStatus, PositionSide, Side};

/// When a trigger order of `side` activates at `price`: buy at ≥, sell at ≤ the activation.
pub(crate) fn reached(side: Side, price: Decimal, activation: Decimal) -> bool {
    match side {
        Side::Buy => price >= activation,
        Side::Sell => price <= activation,
    }
}

/// An accepted order and its state.
#[derive(Debug, Clone)]
pub(crate) struct StoredOrder {
    pub(crate) id: u64,
    pub(crate) api_key: String,
    /// The request as validated (its `amount` is the amount asked for).
    pub(crate) request: OrderRequest,
    /// The position it acts on: `BOTH` in one-way mode.
    pub(crate) position_side: PositionSide,
    /// The order's amount: the request's, or less for a reduce-only order cut to the
    /// position's size.
    pub(crate) amount: Decimal,
    pub(crate) oto_id: Option<u64>,
    pub(crate) status: OrderStatus,
    pub(crate) deal_money: Decimal,
    pub(crate) deal_stock: Decimal,
    pub(crate) deal_fee: Decimal,
    /// Creation time, Unix microseconds.
    pub(crate) created_us: u64,
    /// Activation time of a trigger order, Unix microseconds.
    pub(crate) activated_us: Option<u64>,
    /// When the final status (filled, canceled) was reached, Unix microseconds.
    pub(crate) finished_us: Option<u64>,
    /// From when the look-ups (open orders, history) show it, Unix microseconds: its creation,
    /// or later under [`crate::Fault::VisibleAfter`].
    pub(crate) visible_from_us: u64,
}

impl StoredOrder {
    /// The trigger order's activation price.
    pub(crate) fn activation(&self) -> Option<&Price> {
        self.request.activation.as_ref()
    }

    /// The market.
    pub(crate) fn market(&self) -> &str {
        &self.request.market
    }

    /// The `clientOrderId`, if one was given.
    pub(crate) fn client_order_id(&self) -> Option<&str> {
        self.request.client_order_id.as_deref()
    }

    /// Whether the look-ups show it at `now_us`.
    pub(crate) fn visible(&self, now_us: u64) -> bool {
        now_us >= self.visible_from_us
    }

    /// Whether it rests: an open trigger order.
    pub(crate) fn is_open(&self) -> bool {
        self.status.is_open()
    }

    /// Whether the look-ups show it open as of `at_us` (a lagging look-up asks about the
    /// past): visible by then, and not finished by then.
    pub(crate) fn open_at(&self, at_us: u64) -> bool {
        self.visible(at_us) && (self.is_open() || self.finished_us.is_some_and(|f| f > at_us))
    }

    /// Whether the look-ups show it finished as of `at_us`.
    pub(crate) fn finished_at(&self, at_us: u64) -> bool {
        self.visible(at_us) && !self.is_open() && self.finished_us.is_none_or(|f| f <= at_us)
    }

    /// Whether it is the order `which` names.
    pub(crate) fn is(&self, which: &OrderRef) -> bool {
        match which {
            OrderRef::Id(id) => self.id == *id,
            OrderRef::ClientId(id) => self.client_order_id() == Some(id.as_str()),
        }
    }

    /// The order as it was while it rested (for a look-up answering as of then).
    pub(crate) fn as_resting(&self) -> Self {
        Self {
            status: OrderStatus::Open,
            deal_money: Decimal::ZERO,
            deal_stock: Decimal::ZERO,
            deal_fee: Decimal::ZERO,
            activated_us: None,
            finished_us: None,
            ..self.clone()
        }
    }
}
