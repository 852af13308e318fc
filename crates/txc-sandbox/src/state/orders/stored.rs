//! [`StoredOrder`]: an accepted order and its lifecycle (resting, executing, filled,
//! canceled), and [`Execution`]: one fill of it.

use rust_decimal::Decimal;

use super::book::Slot;
use crate::rules::{OrderRef, OrderRequest, Price};
use crate::wire::{OrderStatus, OrderType, PositionSide, Side};

/// When a stop order of `side` activates at `price`: buy at ≥, sell at ≤ the activation.
pub(crate) fn reached(side: Side, price: Decimal, activation: Decimal) -> bool {
    match side {
        Side::Buy => price >= activation,
        Side::Sell => price <= activation,
    }
}

/// One execution of an order: `amount` at `price`, its fee, as maker or as taker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Execution {
    pub(crate) price: Decimal,
    pub(crate) amount: Decimal,
    pub(crate) fee: Decimal,
    /// Whether the order rested (maker) rather than took (taker).
    pub(crate) maker: bool,
    /// When, Unix microseconds.
    pub(crate) at_us: u64,
    /// The sandbox order on the other side, when the deal matched one (not the market).
    pub(crate) counterparty: Option<u64>,
}

/// Who placed an order: a request (`api`, the stream's `source`), or the sandbox liquidating
/// the account's position (`liquidation`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum OrderSource {
    #[default]
    Api,
    Liquidation,
}

impl OrderSource {
    /// The stream's `source`: `api` or `liquidation`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Api => "api",
            Self::Liquidation => "liquidation",
        }
    }
}

/// A take-profit or stop-loss attached to a position (`collateral_order_tpsl_place`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TpslLeg {
    /// The take-profit (else the stop-loss).
    pub(crate) take_profit: bool,
    /// The id of the position it protects: when that position closes, the leg is canceled.
    pub(crate) position_id: u64,
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
    /// The OTO group it opens (it has a stop-loss or a take-profit).
    pub(crate) oto_id: Option<u64>,
    /// The OCO it is a leg of.
    pub(crate) oco_id: Option<u64>,
    /// The OTO group that placed it (a stop-loss or take-profit), when no request did.
    pub(crate) placed_by: Option<u64>,
    /// Who placed it: a request, or a liquidation.
    pub(crate) source: OrderSource,
    /// The TPSL leg it is (`collateral_order_tpsl_place`): sized at activation.
    pub(crate) tpsl: Option<TpslLeg>,
    /// The order it is linked with — the other leg of its OCO, or the other of the stop-loss
    /// and take-profit its OTO group placed: once one executes, activates or ends, the other
    /// is canceled.
    pub(crate) linked: Option<u64>,
    pub(crate) status: OrderStatus,
    pub(crate) deal_money: Decimal,
    pub(crate) deal_stock: Decimal,
    pub(crate) deal_fee: Decimal,
    /// Creation time, Unix microseconds.
    pub(crate) created_us: u64,
    /// Activation time of a stop order, Unix microseconds.
    pub(crate) activated_us: Option<u64>,
    /// When the final status (filled, canceled) was reached, Unix microseconds.
    pub(crate) finished_us: Option<u64>,
    /// When it last changed (created, activated, executed, finished), Unix microseconds.
    pub(crate) modified_us: u64,
    /// From when the look-ups (open orders, history) show it, Unix microseconds: its creation,
    /// or later under [`crate::Fault::VisibleAfter`].
    pub(crate) visible_from_us: u64,
}

impl StoredOrder {
    /// A new order of `api_key` at `now_us`, open and with nothing executed, visible from
    /// `visible_from_us`.
    pub(crate) fn new(
        api_key: &str,
        request: OrderRequest,
        position_side: PositionSide,
        now_us: u64,
        visible_from_us: u64,
    ) -> Self {
        Self {
            id: 0,
            api_key: api_key.to_owned(),
            position_side,
            amount: request.amount,
            oto_id: None,
            oco_id: None,
            placed_by: None,
            source: OrderSource::Api,
            tpsl: None,
            linked: None,
            status: OrderStatus::Open,
            deal_money: Decimal::ZERO,
            deal_stock: Decimal::ZERO,
            deal_fee: Decimal::ZERO,
            created_us: now_us,
            activated_us: None,
            finished_us: None,
            modified_us: now_us,
            visible_from_us,
            request,
        }
    }

    /// A stop order's activation price.
    pub(crate) fn activation(&self) -> Option<&Price> {
        self.request.activation.as_ref()
    }

    /// A limit or stop-limit order's price.
    pub(crate) fn price(&self) -> Option<&Price> {
        self.request.price.as_ref()
    }

    /// What kind of order it is.
    pub(crate) fn order_type(&self) -> OrderType {
        self.request.order_type()
    }

    /// The market.
    pub(crate) fn market(&self) -> &str {
        &self.request.market
    }

    /// The side.
    pub(crate) fn side(&self) -> Side {
        self.request.side
    }

    /// The `clientOrderId`, if one was given.
    pub(crate) fn client_order_id(&self) -> Option<&str> {
        self.request.client_order_id.as_deref()
    }

    /// What is left to execute.
    pub(crate) fn left(&self) -> Decimal {
        self.amount.checked_sub(self.deal_stock).unwrap_or_default()
    }

    /// Whether the look-ups show it at `now_us`.
    pub(crate) fn visible(&self, now_us: u64) -> bool {
        now_us >= self.visible_from_us
    }

    /// Whether it rests: a stop order waiting, or a limit order on the book.
    pub(crate) fn is_open(&self) -> bool {
        self.status.is_open()
    }

    /// Whether it is priced (a stop-BBO order) or sized (a TPSL leg) only as it activates.
    pub(crate) fn needs_arming(&self) -> bool {
        self.request.terms.bbo.is_some() || self.tpsl.is_some()
    }

    /// Whether a stop order is still waiting for its activation price.
    pub(crate) fn waiting(&self) -> bool {
        self.is_open() && self.activation().is_some() && self.activated_us.is_none()
    }

    /// Whether it has executed anything, activated, or ended: what cancels its linked order.
    pub(crate) fn engaged(&self) -> bool {
        !self.deal_stock.is_zero() || self.activated_us.is_some() || !self.is_open()
    }

    /// Where it sits in its market's book.
    pub(crate) fn slot(&self) -> Slot {
        if !self.is_open() {
            return Slot::Out;
        }
        if let Some(activation) = self.activation()
            && self.activated_us.is_none()
        {
            return Slot::Waiting(self.request.trigger_side(), activation.value);
        }
        match self.price() {
            Some(price) => Slot::Resting(self.side(), price.value),
            None => Slot::Out,
        }
    }

    /// Counts `execution` in: the deal's totals, the status (`FILLED` once nothing is left,
    /// else `PARTIALLY_FILLED`), the times.
    pub(crate) fn execute(&mut self, execution: &Execution) {
        let money = execution
            .amount
            .checked_mul(execution.price)
            .unwrap_or_default();
        self.deal_money = self
            .deal_money
            .checked_add(money)
            .unwrap_or(self.deal_money);
        self.deal_stock = self
            .deal_stock
            .checked_add(execution.amount)
            .unwrap_or(self.deal_stock);
        self.deal_fee = self
            .deal_fee
            .checked_add(execution.fee)
            .unwrap_or(self.deal_fee);
        self.modified_us = execution.at_us;
        if self.left().is_zero() {
            self.status = OrderStatus::Filled;
            self.finished_us = Some(execution.at_us);
        } else {
            self.status = OrderStatus::PartiallyFilled;
        }
    }

    /// Ends it with `status` (a canceled one) at `now_us`.
    pub(crate) fn end(&mut self, status: OrderStatus, now_us: u64) {
        self.status = status;
        self.finished_us = Some(now_us);
        self.modified_us = now_us;
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
