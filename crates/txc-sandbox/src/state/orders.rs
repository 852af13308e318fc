//! Orders: every accepted order with its lifecycle (resting, filled, canceled), and the ids.

use rust_decimal::Decimal;

use crate::rules::{OrderRequest, Price};
use crate::wire::{OrderStatus, PositionSide, Side};

/// The first order id of a fresh sandbox (realistic: ids on the exchange are ~4·10⁹).
pub(crate) const FIRST_ORDER_ID: u64 = 4_180_300_001;
/// The first OTO id of a fresh sandbox.
pub(crate) const FIRST_OTO_ID: u64 = 29_457_301;

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
}

/// How a request names one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OrderRef {
    /// By `orderId`.
    Id(u64),
    /// By `clientOrderId`.
    ClientId(String),
}

impl OrderRef {
    /// Whether `order` is the one named.
    pub(crate) fn matches(&self, order: &StoredOrder) -> bool {
        match self {
            Self::Id(id) => order.id == *id,
            Self::ClientId(id) => order.client_order_id() == Some(id.as_str()),
        }
    }
}

/// Every accepted order in id order, and the id counters.
#[derive(Debug)]
pub(crate) struct OrderBook {
    orders: Vec<StoredOrder>,
    next_id: u64,
    next_oto_id: u64,
}

impl Default for OrderBook {
    fn default() -> Self {
        Self {
            orders: Vec::new(),
            next_id: FIRST_ORDER_ID,
            next_oto_id: FIRST_OTO_ID,
        }
    }
}

impl OrderBook {
    /// Takes the next order id and, when `oto`, the next OTO id.
    pub(crate) fn take_ids(&mut self, oto: bool) -> (u64, Option<u64>) {
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        let oto_id = oto.then(|| {
            let id = self.next_oto_id;
            self.next_oto_id = self.next_oto_id.saturating_add(1);
            id
        });
        (id, oto_id)
    }

    /// Stores an accepted order.
    pub(crate) fn push(&mut self, stored: StoredOrder) {
        self.orders.push(stored);
    }

    /// Whether `api_key` has an open order with `client_order_id` on `market`.
    pub(crate) fn client_id_open(
        &self,
        api_key: &str,
        market: &str,
        client_order_id: &str,
    ) -> bool {
        self.orders.iter().any(|o| {
            o.status.is_open()
                && o.api_key == api_key
                && o.market() == market
                && o.client_order_id() == Some(client_order_id)
        })
    }

    /// Positions (in id order) of the open trigger orders on `market` that `price` activates.
    pub(crate) fn reached(&self, market: &str, price: Decimal) -> Vec<usize> {
        self.orders
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.status.is_open()
                    && o.market() == market
                    && o.activation()
                        .is_some_and(|a| reached(o.request.side, price, a.value))
            })
            .map(|(i, _)| i)
            .collect()
    }

    pub(crate) fn get(&self, index: usize) -> Option<&StoredOrder> {
        self.orders.get(index)
    }

    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut StoredOrder> {
        self.orders.get_mut(index)
    }

    /// Every order, in id order.
    pub(crate) fn all(&self) -> &[StoredOrder] {
        &self.orders
    }

    /// The position of `api_key`'s open order on `market` named by `which`.
    pub(crate) fn find_open(&self, api_key: &str, market: &str, which: &OrderRef) -> Option<usize> {
        self.orders.iter().position(|o| {
            o.status.is_open() && o.api_key == api_key && o.market() == market && which.matches(o)
        })
    }
}
