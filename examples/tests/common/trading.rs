//! Every collateral order type beyond the market and trigger orders, called the same way
//! whatever the transport: [`TradingApi`] (beside [`Api`]), made by a [`TradingDriver`] — the
//! same two drivers, so the `scenarios!` macro runs a scenario `fn(&dyn TradingDriver)` once
//! per transport.

use std::sync::Arc;

use txc_core::resolve::{
    BulkPlaced, CancelOutcome, Found, ModifyResolution, PendingModify, PendingOrder, Placed,
    PlacedOco, Resolution,
};
use txc_core::{ClientConfig, Error};
use txc_types::endpoint::Acknowledged;
use txc_types::lookups::{ConditionalOrders, ConditionalOrdersQuery};
use txc_types::markets::{MarketInfo, MarketRulebook};
use txc_types::orders::{
    BulkOrderResult, CancelConditionalOrder, CancelOcoOrder, CancelOrder, CancelOtoOrder,
    CollateralBulkOrder, CollateralLimitOrder, CollateralOcoOrder, CollateralStopLimitOrder,
    GroupCancellation, Modified, ModifyOrder, OcoCancellation, OcoOrder, OcoOrdersQuery, Order,
};

use super::{Api, AsyncApi, Driver, Make};

/// The collateral order types' operations of a client.
pub trait TradingApi: Api {
    fn limit(&self, order: &CollateralLimitOrder) -> Result<Order, Error>;
    fn stop_limit(&self, order: &CollateralStopLimitOrder) -> Result<Order, Error>;
    fn limit_once(&self, order: &CollateralLimitOrder) -> Result<Placed, Error>;
    fn stop_limit_once(&self, order: &CollateralStopLimitOrder) -> Result<Placed, Error>;
    fn bulk(&self, bulk: &CollateralBulkOrder) -> Result<Vec<BulkOrderResult>, Error>;
    fn bulk_once(&self, bulk: &CollateralBulkOrder) -> Result<BulkPlaced, Error>;
    fn oco(&self, order: &CollateralOcoOrder) -> Result<OcoOrder, Error>;
    fn oco_once(&self, order: &CollateralOcoOrder) -> Result<Found<PlacedOco>, Error>;
    fn resolve_oco(&self, pair: &PendingOrder) -> Result<Resolution<PlacedOco>, Error>;
    fn oco_orders(&self, query: &OcoOrdersQuery) -> Result<Vec<OcoOrder>, Error>;
    fn conditional_orders(
        &self,
        query: &ConditionalOrdersQuery,
    ) -> Result<ConditionalOrders, Error>;
    fn cancel_oco(&self, cancel: &CancelOcoOrder) -> Result<OcoCancellation, Error>;
    fn cancel_conditional(
        &self,
        cancel: &CancelConditionalOrder,
    ) -> Result<GroupCancellation, Error>;
    fn cancel_oto(&self, cancel: &CancelOtoOrder) -> Result<GroupCancellation, Error>;
    fn cancel_order_once(&self, cancel: &CancelOrder) -> Result<CancelOutcome<Order>, Error>;
    fn cancel_oco_once(&self, cancel: &CancelOcoOrder) -> Result<CancelOutcome<OcoOrder>, Error>;
    fn cancel_oto_once(
        &self,
        cancel: &CancelOtoOrder,
    ) -> Result<CancelOutcome<Acknowledged>, Error>;
    fn modify(&self, modify: &ModifyOrder) -> Result<Modified, Error>;
    fn modify_once(&self, modify: &ModifyOrder) -> Result<ModifyResolution, Error>;
    fn resolve_modify(&self, modify: &PendingModify) -> Result<ModifyResolution, Error>;
    fn pending_modifies(&self) -> Vec<PendingModify>;
    fn markets(&self) -> Result<Vec<MarketInfo>, Error>;
    fn market_rules(&self) -> Result<Arc<MarketRulebook>, Error>;
    fn refresh_market_rules(&self) -> Result<Arc<MarketRulebook>, Error>;
}

/// Makes [`TradingApi`] clients of one transport.
pub trait TradingDriver: Driver {
    fn trading(&self, base_url: &str, config: ClientConfig) -> Box<dyn TradingApi>;
}

impl<D: Make> TradingDriver for D
where
    D::Client: TradingApi,
{
    fn trading(&self, base_url: &str, config: ClientConfig) -> Box<dyn TradingApi> {
        Box::new(self.make(base_url, config))
    }
}

impl TradingApi for txc_blocking::Client {
    fn limit(&self, order: &CollateralLimitOrder) -> Result<Order, Error> {
        self.collateral_limit_order(order)
    }
    fn stop_limit(&self, order: &CollateralStopLimitOrder) -> Result<Order, Error> {
        self.collateral_stop_limit_order(order)
    }
    fn limit_once(&self, order: &CollateralLimitOrder) -> Result<Placed, Error> {
        txc_blocking::Client::place_once(self, order)
    }
    fn stop_limit_once(&self, order: &CollateralStopLimitOrder) -> Result<Placed, Error> {
        txc_blocking::Client::place_once(self, order)
    }
    fn bulk(&self, bulk: &CollateralBulkOrder) -> Result<Vec<BulkOrderResult>, Error> {
        self.collateral_bulk_order(bulk)
    }
    fn bulk_once(&self, bulk: &CollateralBulkOrder) -> Result<BulkPlaced, Error> {
        self.place_bulk_once(bulk)
    }
    fn oco(&self, order: &CollateralOcoOrder) -> Result<OcoOrder, Error> {
        self.collateral_oco_order(order)
    }
    fn oco_once(&self, order: &CollateralOcoOrder) -> Result<Found<PlacedOco>, Error> {
        txc_blocking::Client::place_once(self, order)
    }
    fn resolve_oco(&self, pair: &PendingOrder) -> Result<Resolution<PlacedOco>, Error> {
        txc_blocking::Client::resolve_oco(self, pair)
    }
    fn oco_orders(&self, query: &OcoOrdersQuery) -> Result<Vec<OcoOrder>, Error> {
        txc_blocking::Client::oco_orders(self, query)
    }
    fn conditional_orders(
        &self,
        query: &ConditionalOrdersQuery,
    ) -> Result<ConditionalOrders, Error> {
        txc_blocking::Client::conditional_orders(self, query)
    }
    fn cancel_oco(&self, cancel: &CancelOcoOrder) -> Result<OcoCancellation, Error> {
        self.cancel_oco_order(cancel)
    }
    fn cancel_conditional(
        &self,
        cancel: &CancelConditionalOrder,
    ) -> Result<GroupCancellation, Error> {
        self.cancel_conditional_order(cancel)
    }
    fn cancel_oto(&self, cancel: &CancelOtoOrder) -> Result<GroupCancellation, Error> {
        self.cancel_oto_order(cancel)
    }
    fn cancel_order_once(&self, cancel: &CancelOrder) -> Result<CancelOutcome<Order>, Error> {
        self.cancel_once(cancel)
    }
    fn cancel_oco_once(&self, cancel: &CancelOcoOrder) -> Result<CancelOutcome<OcoOrder>, Error> {
        self.cancel_once(cancel)
    }
    fn cancel_oto_once(
        &self,
        cancel: &CancelOtoOrder,
    ) -> Result<CancelOutcome<Acknowledged>, Error> {
        self.cancel_once(cancel)
    }
    fn modify(&self, modify: &ModifyOrder) -> Result<Modified, Error> {
        self.modify_order(modify)
    }
    fn modify_once(&self, modify: &ModifyOrder) -> Result<ModifyResolution, Error> {
        txc_blocking::Client::modify_once(self, modify)
    }
    fn resolve_modify(&self, modify: &PendingModify) -> Result<ModifyResolution, Error> {
        txc_blocking::Client::resolve_modify(self, modify)
    }
    fn pending_modifies(&self) -> Vec<PendingModify> {
        txc_blocking::Client::pending_modifies(self)
    }
    fn markets(&self) -> Result<Vec<MarketInfo>, Error> {
        txc_blocking::Client::markets(self)
    }
    fn market_rules(&self) -> Result<Arc<MarketRulebook>, Error> {
        txc_blocking::Client::market_rules(self)
    }
    fn refresh_market_rules(&self) -> Result<Arc<MarketRulebook>, Error> {
        txc_blocking::Client::refresh_market_rules(self)
    }
}

impl TradingApi for AsyncApi {
    fn limit(&self, order: &CollateralLimitOrder) -> Result<Order, Error> {
        self.runtime
            .block_on(self.client.collateral_limit_order(order))
    }
    fn stop_limit(&self, order: &CollateralStopLimitOrder) -> Result<Order, Error> {
        self.runtime
            .block_on(self.client.collateral_stop_limit_order(order))
    }
    fn limit_once(&self, order: &CollateralLimitOrder) -> Result<Placed, Error> {
        self.runtime.block_on(self.client.place_once(order))
    }
    fn stop_limit_once(&self, order: &CollateralStopLimitOrder) -> Result<Placed, Error> {
        self.runtime.block_on(self.client.place_once(order))
    }
    fn bulk(&self, bulk: &CollateralBulkOrder) -> Result<Vec<BulkOrderResult>, Error> {
        self.runtime
            .block_on(self.client.collateral_bulk_order(bulk))
    }
    fn bulk_once(&self, bulk: &CollateralBulkOrder) -> Result<BulkPlaced, Error> {
        self.runtime.block_on(self.client.place_bulk_once(bulk))
    }
    fn oco(&self, order: &CollateralOcoOrder) -> Result<OcoOrder, Error> {
        self.runtime
            .block_on(self.client.collateral_oco_order(order))
    }
    fn oco_once(&self, order: &CollateralOcoOrder) -> Result<Found<PlacedOco>, Error> {
        self.runtime.block_on(self.client.place_once(order))
    }
    fn resolve_oco(&self, pair: &PendingOrder) -> Result<Resolution<PlacedOco>, Error> {
        self.runtime.block_on(self.client.resolve_oco(pair))
    }
    fn oco_orders(&self, query: &OcoOrdersQuery) -> Result<Vec<OcoOrder>, Error> {
        self.runtime.block_on(self.client.oco_orders(query))
    }
    fn conditional_orders(
        &self,
        query: &ConditionalOrdersQuery,
    ) -> Result<ConditionalOrders, Error> {
        self.runtime.block_on(self.client.conditional_orders(query))
    }
    fn cancel_oco(&self, cancel: &CancelOcoOrder) -> Result<OcoCancellation, Error> {
        self.runtime.block_on(self.client.cancel_oco_order(cancel))
    }
    fn cancel_conditional(
        &self,
        cancel: &CancelConditionalOrder,
    ) -> Result<GroupCancellation, Error> {
        self.runtime
            .block_on(self.client.cancel_conditional_order(cancel))
    }
    fn cancel_oto(&self, cancel: &CancelOtoOrder) -> Result<GroupCancellation, Error> {
        self.runtime.block_on(self.client.cancel_oto_order(cancel))
    }
    fn cancel_order_once(&self, cancel: &CancelOrder) -> Result<CancelOutcome<Order>, Error> {
        self.runtime.block_on(self.client.cancel_once(cancel))
    }
    fn cancel_oco_once(&self, cancel: &CancelOcoOrder) -> Result<CancelOutcome<OcoOrder>, Error> {
        self.runtime.block_on(self.client.cancel_once(cancel))
    }
    fn cancel_oto_once(
        &self,
        cancel: &CancelOtoOrder,
    ) -> Result<CancelOutcome<Acknowledged>, Error> {
        self.runtime.block_on(self.client.cancel_once(cancel))
    }
    fn modify(&self, modify: &ModifyOrder) -> Result<Modified, Error> {
        self.runtime.block_on(self.client.modify_order(modify))
    }
    fn modify_once(&self, modify: &ModifyOrder) -> Result<ModifyResolution, Error> {
        self.runtime.block_on(self.client.modify_once(modify))
    }
    fn resolve_modify(&self, modify: &PendingModify) -> Result<ModifyResolution, Error> {
        self.runtime.block_on(self.client.resolve_modify(modify))
    }
    fn pending_modifies(&self) -> Vec<PendingModify> {
        self.client.pending_modifies()
    }
    fn markets(&self) -> Result<Vec<MarketInfo>, Error> {
        self.runtime.block_on(self.client.markets())
    }
    fn market_rules(&self) -> Result<Arc<MarketRulebook>, Error> {
        self.runtime.block_on(self.client.market_rules())
    }
    fn refresh_market_rules(&self) -> Result<Arc<MarketRulebook>, Error> {
        self.runtime.block_on(self.client.refresh_market_rules())
    }
}
