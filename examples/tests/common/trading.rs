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

forward! {
    impl TradingApi {
        call limit(&self, order: &CollateralLimitOrder) -> Result<Order, Error> => collateral_limit_order;
        call stop_limit(&self, order: &CollateralStopLimitOrder) -> Result<Order, Error> => collateral_stop_limit_order;
        call limit_once(&self, order: &CollateralLimitOrder) -> Result<Placed, Error> => place_once;
        call stop_limit_once(&self, order: &CollateralStopLimitOrder) -> Result<Placed, Error> => place_once;
        call bulk(&self, bulk: &CollateralBulkOrder) -> Result<Vec<BulkOrderResult>, Error> => collateral_bulk_order;
        call bulk_once(&self, bulk: &CollateralBulkOrder) -> Result<BulkPlaced, Error> => place_bulk_once;
        call oco(&self, order: &CollateralOcoOrder) -> Result<OcoOrder, Error> => collateral_oco_order;
        call oco_once(&self, order: &CollateralOcoOrder) -> Result<Found<PlacedOco>, Error> => place_once;
        call resolve_oco(&self, pair: &PendingOrder) -> Result<Resolution<PlacedOco>, Error> => resolve_oco;
        call oco_orders(&self, query: &OcoOrdersQuery) -> Result<Vec<OcoOrder>, Error> => oco_orders;
        call conditional_orders(&self, query: &ConditionalOrdersQuery) -> Result<ConditionalOrders, Error> => conditional_orders;
        call cancel_oco(&self, cancel: &CancelOcoOrder) -> Result<OcoCancellation, Error> => cancel_oco_order;
        call cancel_conditional(&self, cancel: &CancelConditionalOrder) -> Result<GroupCancellation, Error> => cancel_conditional_order;
        call cancel_oto(&self, cancel: &CancelOtoOrder) -> Result<GroupCancellation, Error> => cancel_oto_order;
        call cancel_order_once(&self, cancel: &CancelOrder) -> Result<CancelOutcome<Order>, Error> => cancel_once;
        call cancel_oco_once(&self, cancel: &CancelOcoOrder) -> Result<CancelOutcome<OcoOrder>, Error> => cancel_once;
        call cancel_oto_once(&self, cancel: &CancelOtoOrder) -> Result<CancelOutcome<Acknowledged>, Error> => cancel_once;
        call modify(&self, modify: &ModifyOrder) -> Result<Modified, Error> => modify_order;
        call modify_once(&self, modify: &ModifyOrder) -> Result<ModifyResolution, Error> => modify_once;
        call resolve_modify(&self, modify: &PendingModify) -> Result<ModifyResolution, Error> => resolve_modify;
        call markets(&self) -> Result<Vec<MarketInfo>, Error> => markets;
        call market_rules(&self) -> Result<Arc<MarketRulebook>, Error> => market_rules;
        call refresh_market_rules(&self) -> Result<Arc<MarketRulebook>, Error> => refresh_market_rules;
        now pending_modifies(&self) -> Vec<PendingModify>;
    }
}
