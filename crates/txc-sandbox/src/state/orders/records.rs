//! A stored order written as the wire's records: the placement answer ([`OrderRecord`]), the
//! `OrderResponse` shape of the open orders and cancel ([`ActiveOrderRecord`]) and the
//! history's ([`HistoryRecord`]) — each field's form is the record's own (see `crate::wire`).

use serde_json::Number;

use super::stored::StoredOrder;
use crate::wire::{
    ActiveOrderRecord, HistoryRecord, OrderHead, OrderRecord, OtoRecord, Side, decimal, time,
};

impl StoredOrder {
    /// Its record as the placement endpoints answer it, in its current state.
    pub(crate) fn record(&self) -> OrderRecord {
        let request = &self.request;
        let (activated, activation_condition) = self.trigger_state();
        OrderRecord {
            head: self.head(),
            activation_price: self.activation().map(|p| p.text.clone()),
            status: self.status.as_str(),
            stp: request.stp.as_str(),
            oto: self.oto(),
            position_side: self.position_side.as_str(),
            reduce_only: request.reduce_only,
            activated,
            activation_condition,
        }
    }

    /// Its record in the `OrderResponse` shape, in its current state.
    pub(crate) fn active_record(&self) -> ActiveOrderRecord {
        let request = &self.request;
        let (activated, activation_condition) = self.trigger_state();
        ActiveOrderRecord {
            head: self.head(),
            ioc: false,
            status: self.status.as_str(),
            stp: request.stp.as_str(),
            position_side: self.position_side.as_str(),
            oto: self.oto(),
            rpi: false,
            reduce_only: request.reduce_only,
            activated,
            activation_condition,
            activation_price: self.activation().map(|p| p.text.clone()),
        }
    }

    /// Its record as the history lists a finished order; `fee_asset` is its market's
    /// collateral currency.
    pub(crate) fn history_record(&self, fee_asset: &str) -> HistoryRecord {
        let request = &self.request;
        let trigger = self.activation();
        HistoryRecord {
            amount: decimal::text(self.amount),
            price: "0",
            order_type: self.order_type(),
            id: self.id,
            client_order_id: request.client_order_id.clone().unwrap_or_default(),
            side: request.side.as_str(),
            ctime: time::seconds(self.created_us),
            ftime: time::seconds(self.finished_us.unwrap_or(self.created_us)),
            deal_fee: decimal::text(self.deal_fee),
            deal_stock: decimal::text(self.deal_stock),
            deal_money: decimal::text(self.deal_money),
            post_only: false,
            ioc: false,
            status: self.status.as_str(),
            fee_asset: fee_asset.to_owned(),
            position_side: self.position_side.as_str(),
            rpi: false,
            reduce_only: request.reduce_only,
            activation_price: trigger.map(|p| p.text.clone()),
            activated: trigger.map(|_| {
                self.activated_us
                    .and_then(|us| Number::from_f64(time::seconds(us)))
                    .unwrap_or_else(|| Number::from(0))
            }),
            activation_condition: trigger.map(|_| match request.side {
                Side::Buy => ">=",
                Side::Sell => "<=",
            }),
        }
    }

    /// `stop market` for a trigger order, else `market`.
    fn order_type(&self) -> &'static str {
        if self.activation().is_some() {
            "stop market"
        } else {
            "market"
        }
    }

    /// The head of both order records, in its current state.
    fn head(&self) -> OrderHead {
        let request = &self.request;
        OrderHead {
            order_id: self.id,
            client_order_id: request.client_order_id.clone().unwrap_or_default(),
            market: request.market.clone(),
            side: request.side.as_str(),
            order_type: self.order_type(),
            timestamp: time::seconds(self.created_us),
            deal_money: decimal::text(self.deal_money),
            deal_stock: decimal::text(self.deal_stock),
            amount: decimal::text(self.amount),
            left: decimal::text(self.amount.checked_sub(self.deal_stock).unwrap_or_default()),
            deal_fee: decimal::text(self.deal_fee),
        }
    }

    /// Its OTO group, if it has one.
    fn oto(&self) -> Option<OtoRecord> {
        self.oto_id.map(|oto_id| OtoRecord {
            oto_id,
            stop_loss: self.request.stop_loss.as_ref().map(|p| p.text.clone()),
            take_profit: self.request.take_profit.as_ref().map(|p| p.text.clone()),
        })
    }

    /// A trigger order's `activated` (`1` once activated, else `0`) and `activationCondition`
    /// (`gte` for a buy, `lte` for a sell); neither for other orders.
    fn trigger_state(&self) -> (Option<u8>, Option<&'static str>) {
        let Some(_) = self.activation() else {
            return (None, None);
        };
        let condition = match self.request.side {
            Side::Buy => "gte",
            Side::Sell => "lte",
        };
        (Some(u8::from(self.activated_us.is_some())), Some(condition))
    }
}
