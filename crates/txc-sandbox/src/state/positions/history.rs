//! The position history: every change a fill makes to a position, recorded per account, and
//! how `positions/history` looks it up (by the account's events, newest first).

use std::collections::HashMap;

use rust_decimal::Decimal;

use super::margin::Fill;
use super::open::{OpenPosition, PositionKey, Trade};
use crate::config::{FEE_PRECISION, PositionMode};
use crate::rules::PositionHistoryQuery;
use crate::state::State;
use crate::wire::{
    LiquidationStage, OrderDetailRecord, PositionEventRecord, PositionSide, decimal,
};

/// One change of a position.
#[derive(Debug, Clone)]
pub(crate) struct PositionEvent {
    pub(crate) market: String,
    pub(crate) side: PositionSide,
    pub(crate) hedge: bool,
    pub(crate) position: OpenPosition,
    pub(crate) order_id: u64,
    pub(crate) trade_amount: Decimal,
    pub(crate) price: Decimal,
    pub(crate) fee: Decimal,
    /// What the change realized; `None` when it only opened or grew the position.
    pub(crate) realized: Option<Decimal>,
    /// The account's liquidation state when it happened.
    pub(crate) stage: Option<LiquidationStage>,
}

/// Every position event, per account, oldest first; and each position's events by id.
#[derive(Debug, Default)]
pub(crate) struct PositionEvents {
    by_account: HashMap<String, Vec<PositionEvent>>,
    /// (API key, position id) → indexes into the account's events.
    by_position: HashMap<(String, u64), Vec<usize>>,
}

impl PositionEvents {
    fn push(&mut self, api_key: &str, event: PositionEvent) {
        let events = self.by_account.entry(api_key.to_owned()).or_default();
        self.by_position
            .entry((api_key.to_owned(), event.position.id))
            .or_default()
            .push(events.len());
        events.push(event);
    }

    /// `api_key`'s events (of position `id`, when given), newest first.
    fn listed<'a>(
        &'a self,
        api_key: &str,
        id: Option<u64>,
    ) -> Box<dyn Iterator<Item = &'a PositionEvent> + 'a> {
        let Some(events) = self.by_account.get(api_key) else {
            return Box::new(std::iter::empty());
        };
        match id {
            Some(id) => {
                let indexes = self.by_position.get(&(api_key.to_owned(), id));
                Box::new(
                    indexes
                        .into_iter()
                        .flat_map(|i| i.iter().rev())
                        .filter_map(|i| events.get(*i)),
                )
            }
            None => Box::new(events.iter().rev()),
        }
    }
}

impl State {
    /// Applies `fill` — `amount` of the order `order_id` at `price` — to the position under
    /// `key`, recording each position it touched in the history, and each it closed among the
    /// closed positions.
    pub(crate) fn record_fill(
        &mut self,
        key: &PositionKey,
        order_id: u64,
        amount: Decimal,
        fill: &Fill,
        price: Decimal,
    ) {
        let now = self.clock.now_us();
        let hedge = self
            .accounts
            .get(&key.0)
            .is_some_and(|a| a.mode() == PositionMode::Hedge);
        // A flip's fee is split between the position it closes and the one it opens.
        let fee_closed = if fill.opened.is_zero() || amount.is_zero() {
            fill.fee
        } else {
            (fill.fee * fill.closed / amount).round_dp(FEE_PRECISION)
        };
        let trade = Trade {
            price,
            closed: fill.closed,
            opened: fill.opened,
            fee_closed,
            fee_opened: fill.fee - fee_closed,
            pnl: fill.pnl,
        };
        let stage = self.liquidation_stage(&key.0);
        let touched = self
            .positions
            .change(key.clone(), fill.position, trade, now);
        for (i, position) in touched.into_iter().enumerate() {
            // A flip closes one position and opens another: the close realizes the profit,
            // the opening only trades.
            let closing = position.state.qty.is_zero();
            let realized = (i == 0 && (closing || !fill.pnl.is_zero())).then_some(fill.pnl);
            if closing {
                self.closed_positions
                    .close(&key.0, &key.1, key.2, hedge, &position, now);
            }
            let event = PositionEvent {
                market: key.1.clone(),
                side: key.2,
                hedge,
                position,
                order_id,
                trade_amount: amount,
                price,
                fee: fill.fee,
                realized,
                stage,
            };
            self.position_events.push(&key.0, event);
        }
    }

    /// `api_key`'s position events matching `query`, newest first, paged.
    pub(crate) fn position_history(
        &self,
        api_key: &str,
        query: &PositionHistoryQuery,
    ) -> Vec<PositionEventRecord> {
        let (from, to) = query.period;
        let events = self
            .position_events
            .listed(api_key, query.position_id)
            .filter(|e| query.market.as_deref().is_none_or(|m| e.market == m))
            .filter(|e| {
                let at = e.position.modified_us / 1_000_000;
                from.is_none_or(|f| at >= f) && to.is_none_or(|t| at <= t)
            });
        query.page.of(events).map(record).collect()
    }
}

/// The record of `event`.
fn record(event: &PositionEvent) -> PositionEventRecord {
    PositionEventRecord {
        head: event.position.head(&event.market),
        realized_funding: decimal::text(event.position.lifetime.funding_paid),
        liquidation_price: None,
        liquidation_state: event.stage.map(LiquidationStage::as_str),
        order_detail: OrderDetailRecord {
            id: event.order_id,
            trade_amount: decimal::text(event.trade_amount),
            price: decimal::text(event.price),
            trade_fee: decimal::text(event.fee),
            funding_fee: None,
            realized_pnl: event.realized.map(decimal::text),
        },
        side: event.side.as_str(),
        is_hedge: event.hedge,
    }
}
