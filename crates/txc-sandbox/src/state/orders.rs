//! Orders: every accepted order, resting trigger orders, and order ids.

use rust_decimal::Decimal;
use txc_types::{ActivationCondition, Order, OrderStatus, PositionSide, Side, Stp};

/// The first order id of a fresh sandbox (realistic: ids on the exchange are ~4·10⁹).
pub(crate) const FIRST_ORDER_ID: u64 = 4_180_300_001;
/// The first OTO id of a fresh sandbox.
pub(crate) const FIRST_OTO_ID: u64 = 29_457_301;

/// An order request after its fields were validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OrderRequest {
    pub(crate) market: String,
    pub(crate) side: Side,
    pub(crate) amount: Decimal,
    pub(crate) client_order_id: Option<String>,
    pub(crate) stop_loss: Option<String>,
    pub(crate) take_profit: Option<String>,
    pub(crate) position_side: Option<PositionSide>,
    pub(crate) reduce_only: bool,
    pub(crate) stp: Stp,
    /// The trigger order's activation price, as a number and as sent.
    pub(crate) activation: Option<(Decimal, String)>,
}

impl OrderRequest {
    /// The signed quantity: positive for buys.
    pub(crate) fn delta(&self) -> Decimal {
        match self.side {
            Side::Buy => self.amount,
            Side::Sell => -self.amount,
        }
    }
}

/// When a trigger order of `side` activates at `price`: buy at ≥, sell at ≤ the activation.
pub(crate) fn reached(side: Side, price: Decimal, activation: Decimal) -> bool {
    match side {
        Side::Buy => price >= activation,
        Side::Sell => price <= activation,
    }
}

/// The activation condition answered for a trigger order of `side`.
pub(crate) fn condition(side: Side) -> ActivationCondition {
    match side {
        Side::Buy => ActivationCondition::Gte,
        Side::Sell => ActivationCondition::Lte,
    }
}

/// An accepted order, with what the sandbox needs to fire it later.
#[derive(Debug, Clone)]
pub(crate) struct StoredOrder {
    pub(crate) order: Order,
    pub(crate) api_key: String,
    pub(crate) request: OrderRequest,
    pub(crate) position_side: PositionSide,
}

impl StoredOrder {
    /// Whether the order rests (a trigger order not yet activated).
    pub(crate) fn is_open(&self) -> bool {
        self.order.status == Some(OrderStatus::Open)
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
    /// The id the next accepted order gets (not yet taken).
    pub(crate) fn peek_id(&self) -> u64 {
        self.next_id
    }

    /// The id the next OTO group gets (not yet taken).
    pub(crate) fn peek_oto_id(&self) -> u64 {
        self.next_oto_id
    }

    /// Stores an accepted order, taking its ids.
    pub(crate) fn push(&mut self, stored: StoredOrder) {
        self.next_id = self.next_id.saturating_add(1);
        if stored.order.oto.is_some() {
            self.next_oto_id = self.next_oto_id.saturating_add(1);
        }
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
            o.is_open()
                && o.api_key == api_key
                && o.request.market == market
                && o.request.client_order_id.as_deref() == Some(client_order_id)
        })
    }

    /// Positions (in id order) of the open trigger orders on `market` that `price` activates.
    pub(crate) fn reached(&self, market: &str, price: Decimal) -> Vec<usize> {
        self.orders
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.is_open()
                    && o.request.market == market
                    && o.request
                        .activation
                        .as_ref()
                        .is_some_and(|(act, _)| reached(o.request.side, price, *act))
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

    /// Every order as sent on the wire, in id order.
    pub(crate) fn wire_records(&self) -> Vec<Order> {
        self.orders.iter().map(|o| o.order.clone()).collect()
    }

    /// Every order as a client decodes the answer (`clientOrderId: ""` is none, `oto: null`
    /// absent), in id order, so tests can compare both directly.
    pub(crate) fn records(&self) -> Vec<Order> {
        self.orders
            .iter()
            .map(|o| {
                serde_json::to_vec(&o.order)
                    .and_then(|json| serde_json::from_slice(&json))
                    .unwrap_or_else(|_| o.order.clone())
            })
            .collect()
    }
}
