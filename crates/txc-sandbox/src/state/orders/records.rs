//! A stored order written as the wire's records: the placement answer ([`OrderRecord`]), the
//! `OrderResponse` shape of the open orders, cancel and modify ([`ActiveOrderRecord`]), the
//! history's ([`HistoryRecord`]) and an OCO leg's three shapes — each field's form is the
//! record's own (see `crate::wire`).

use serde_json::Number;

use super::store::OcoLegs;
use super::stored::StoredOrder;
use crate::config::MarketSpec;
use crate::state::State;
use crate::wire::{
    ActiveOrderRecord, CamelTrigger, ConditionalLeg, HistoryRecord, LegState, OcoCreatedLeg,
    OcoCreatedRecord, OcoGroupRecord, OcoLeg, OcoRecord, OrderHead, OrderRecord, OrderType,
    OtoField, OtoRecord, Side, SnakeTrigger, decimal, time,
};

impl StoredOrder {
    /// Its record as the placement endpoints answer it, in its current state.
    pub(crate) fn record(&self) -> OrderRecord {
        let request = &self.request;
        let (activated, activation_condition) = self.trigger_state();
        let limit = self.order_type() == OrderType::Limit;
        OrderRecord {
            head: self.head(),
            price: self.price_text(),
            post_only: limit.then_some(request.flags.post_only),
            ioc: limit.then_some(request.flags.ioc),
            activation_price: self.activation().map(|p| p.text.clone()),
            status: self.status.as_str(),
            stp: request.stp.as_str(),
            oto: self.oto().map_or(OtoField::Null, OtoField::Group),
            position_side: self.position_side.as_str(),
            rpi: limit.then_some(request.flags.rpi),
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
            ioc: request.flags.ioc,
            status: self.status.as_str(),
            stp: request.stp.as_str(),
            position_side: self.position_side.as_str(),
            oto: self.oto(),
            rpi: request.flags.rpi,
            reduce_only: request.reduce_only,
            price: self.price_text(),
            post_only: self
                .order_type()
                .has_price()
                .then_some(request.flags.post_only),
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
            price: self.price_text().unwrap_or_else(|| "0".to_owned()),
            order_type: self.order_type().as_str(),
            id: self.id,
            client_order_id: request.client_order_id.clone().unwrap_or_default(),
            side: request.side.as_str(),
            ctime: time::seconds(self.created_us),
            ftime: time::seconds(self.finished_us.unwrap_or(self.created_us)),
            deal_fee: decimal::text(self.deal_fee),
            deal_stock: decimal::text(self.deal_stock),
            deal_money: decimal::text(self.deal_money),
            post_only: request.flags.post_only,
            ioc: request.flags.ioc,
            status: self.status.as_str(),
            fee_asset: fee_asset.to_owned(),
            position_side: self.position_side.as_str(),
            rpi: request.flags.rpi,
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

    /// Its record as an OCO's leg when the OCO is created; `market` gives the fees.
    pub(crate) fn oco_created_leg(&self, market: &MarketSpec) -> OcoCreatedLeg {
        let (activated, activation_condition) = self.trigger_state();
        OcoCreatedLeg {
            order_id: self.id,
            client_order_id: self.client_order_id().unwrap_or_default().to_owned(),
            market: self.market().to_owned(),
            side: self.side().as_str(),
            order_type: self.order_type().as_str(),
            timestamp: time::seconds(self.created_us),
            deal_money: decimal::text(self.deal_money),
            deal_stock: decimal::text(self.deal_stock),
            amount: decimal::text(self.amount),
            taker_fee: decimal::text(market.taker_fee),
            maker_fee: decimal::text(market.maker_fee),
            left: decimal::text(self.left()),
            deal_fee: decimal::text(self.deal_fee),
            post_only: self.request.flags.post_only,
            mtime: time::seconds(self.modified_us),
            price: self.price_text().unwrap_or_default(),
            activation_price: self.activation().map(|p| p.text.clone()),
            activation_condition,
            activated,
            status: self.status.as_str(),
            stp: self.request.stp.as_str(),
            position_side: self.position_side.as_str(),
        }
    }

    /// Its record as an OCO's leg in the OCO listing and the OCO cancel: `type` `margin …`, as
    /// the spec's examples; `positionSide` on futures markets only, as its schema says.
    pub(crate) fn oco_leg(&self, futures: bool) -> OcoLeg {
        OcoLeg {
            head: self.leg_head(),
            post_only: self.request.flags.post_only,
            state: self.leg_state(futures.then(|| self.position_side.as_str())),
            trigger: self.leg_trigger(),
        }
    }

    /// Its record as an OCO's leg among the conditional orders.
    pub(crate) fn conditional_leg(&self) -> ConditionalLeg {
        ConditionalLeg {
            head: self.leg_head(),
            post_only: self.request.flags.post_only,
            state: self.leg_state(Some(self.position_side.as_str())),
            trigger: self.leg_trigger().map(CamelTrigger::from),
        }
    }

    /// A listed leg's head: the order's, its type `margin …`.
    fn leg_head(&self) -> OrderHead {
        OrderHead {
            order_type: self.margin_type(),
            ..self.head()
        }
    }

    /// A listed leg's state, showing `position_side`.
    fn leg_state(&self, position_side: Option<&'static str>) -> LegState {
        LegState {
            status: self.status.as_str(),
            stp: self.request.stp.as_str(),
            position_side,
            reduce_only: self.request.reduce_only,
            mtime: time::seconds(self.modified_us),
            price: self.price_text().unwrap_or_default(),
        }
    }

    /// A stop-loss leg's trigger fields.
    fn leg_trigger(&self) -> Option<SnakeTrigger> {
        let (Some(activated), Some(condition)) = self.trigger_state() else {
            return None;
        };
        Some(SnakeTrigger {
            activation_price: self.activation()?.text.clone(),
            activation_condition: condition,
            activated,
        })
    }

    /// `margin limit` or `margin stop limit`: an OCO leg's type in the listings' examples.
    fn margin_type(&self) -> &'static str {
        if self.activation().is_some() {
            "margin stop limit"
        } else {
            "margin limit"
        }
    }

    /// A limit or stop-limit order's price, as sent.
    fn price_text(&self) -> Option<String> {
        self.price().map(|p| p.text.clone())
    }

    /// The head of both order records, in its current state.
    fn head(&self) -> OrderHead {
        let request = &self.request;
        OrderHead {
            order_id: self.id,
            client_order_id: request.client_order_id.clone().unwrap_or_default(),
            market: request.market.clone(),
            side: request.side.as_str(),
            order_type: self.order_type().as_str(),
            timestamp: time::seconds(self.created_us),
            deal_money: decimal::text(self.deal_money),
            deal_stock: decimal::text(self.deal_stock),
            amount: decimal::text(self.amount),
            left: decimal::text(self.left()),
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

    /// A stop order's `activated` (`1` once activated, else `0`) and `activationCondition`
    /// (`gte` for a buy, `lte` for a sell); neither for other orders.
    pub(crate) fn trigger_state(&self) -> (Option<u8>, Option<&'static str>) {
        let Some(_) = self.activation() else {
            return (None, None);
        };
        let condition = match self.request.trigger_side() {
            Side::Buy => "gte",
            Side::Sell => "lte",
        };
        (Some(u8::from(self.activated_us.is_some())), Some(condition))
    }
}

impl State {
    /// The OCO `id` as created.
    pub(crate) fn oco_created(&self, id: u64, legs: OcoLegs) -> Option<OcoCreatedRecord> {
        let stop_loss = self.orders.get(legs.stop_loss)?;
        let take_profit = self.orders.get(legs.take_profit)?;
        let market = self.markets.get(stop_loss.market())?;
        Some(OcoCreatedRecord {
            id,
            reduce_only: stop_loss.request.reduce_only,
            stop_loss: stop_loss.oco_created_leg(market),
            take_profit: take_profit.oco_created_leg(market),
        })
    }

    /// The OCO `id` as the listing and the cancel show it.
    pub(crate) fn oco_record(&self, id: u64, legs: OcoLegs) -> Option<OcoRecord> {
        let stop_loss = self.orders.get(legs.stop_loss)?;
        let take_profit = self.orders.get(legs.take_profit)?;
        Some(self.oco_record_of(id, stop_loss, take_profit))
    }

    /// The OCO `id` of the legs `stop_loss` and `take_profit`, as given, as the listing and
    /// the cancel show it.
    pub(crate) fn oco_record_of(
        &self,
        id: u64,
        stop_loss: &StoredOrder,
        take_profit: &StoredOrder,
    ) -> OcoRecord {
        let futures = self
            .markets
            .get(stop_loss.market())
            .is_some_and(|m| m.futures);
        OcoRecord {
            id,
            stop_loss: stop_loss.oco_leg(futures),
            take_profit: take_profit.oco_leg(futures),
        }
    }

    /// The OCO `id` as the conditional orders show it, with its legs `stop_loss` and
    /// `take_profit` as given.
    pub(crate) fn oco_group_record(
        id: u64,
        stop_loss: &StoredOrder,
        take_profit: &StoredOrder,
    ) -> OcoGroupRecord {
        OcoGroupRecord {
            id,
            kind: "oco",
            stop_loss: stop_loss.conditional_leg(),
            take_profit: take_profit.conditional_leg(),
        }
    }
}
