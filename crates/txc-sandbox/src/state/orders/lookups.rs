//! The order look-ups: open orders, the conditional orders and the history — each through the
//! order store's indexes ([`super::store`]), never a walk over every order.
//!
//! The look-ups show an order only once it is visible ([`StoredOrder::visible`], delayed by
//! [`crate::Fault::VisibleAfter`]), and a lagging look-up ([`crate::Fault::Lagging`]) shows the
//! orders as they were then; cancellation ([`super::cancel`]) acts on the order itself,
//! visible or not (the delays model reads lagging behind the engine, not the engine).

use std::collections::BTreeMap;

use super::stored::StoredOrder;
use crate::rules::{
    ConditionalQuery, HistoryQuery, HistoryStatus, OcoOrdersQuery, OpenOrdersQuery, OrderRef,
};
use crate::state::State;
use crate::wire::{
    ActiveOrderRecord, ConditionalPage, ConditionalRecord, HistoryByMarket, HistoryRecord,
    OcoRecord, OrderStatus, OtoGroupRecord, Rejection,
};

/// When a look-up answers as of: now, or earlier when it lags ([`crate::Fault::Lagging`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AsOf {
    /// Unix microseconds.
    pub(crate) at_us: u64,
    /// Whether that is in the past: finished orders may still show open.
    pub(crate) lagging: bool,
}

impl State {
    /// `api_key`'s open orders matching `query` as of `as_of_us` (now, unless the look-up
    /// lags: [`crate::Fault::Lagging`]), newest first, paged.
    pub(crate) fn open_orders(
        &self,
        api_key: &str,
        query: &OpenOrdersQuery,
        as_of: AsOf,
    ) -> Vec<ActiveOrderRecord> {
        let (as_of_us, lagging) = (as_of.at_us, as_of.lagging);
        let market = query.market.as_deref();
        let listed = |o: &StoredOrder| self.settings.oto_in_open_orders || o.oto_id.is_none();
        let matches = |o: &&StoredOrder| {
            o.api_key == api_key
                && o.open_at(as_of_us)
                && listed(o)
                && market.is_none_or(|m| o.market() == m)
                && query.order_id.is_none_or(|id| i128::from(o.id) == id)
                && query
                    .client_order_id
                    .as_deref()
                    .is_none_or(|id| o.client_order_id() == Some(id))
        };
        // The narrowest index the query allows (the rules require `market` with an id); a
        // lagging look-up also sees orders finished since.
        let by_id = query
            .order_id
            .and_then(|id| u64::try_from(id).ok())
            .map(|id| self.orders.get(id));
        // Every order that carried it (an OCO's two legs share one), the filter keeping the
        // open ones.
        let by_client_id = || {
            let id = query.client_order_id.as_deref()?;
            Some(Box::new(self.orders.carrying(api_key, id))
                as Box<dyn Iterator<Item = &StoredOrder>>)
        };
        let candidates: Box<dyn Iterator<Item = &StoredOrder>> = match by_id {
            Some(order) => Box::new(order.into_iter()),
            None if query.order_id.is_some() => Box::new(std::iter::empty()),
            None => match by_client_id() {
                Some(orders) => orders,
                None => self.resting_then(api_key, market, lagging),
            },
        };
        query
            .page
            .of(candidates.filter(matches))
            .map(|o| {
                if o.is_open() {
                    o.active_record()
                } else {
                    o.as_resting().active_record()
                }
            })
            .collect()
    }

    /// `api_key`'s orders (of `market`) that may show open, newest first: the open ones, and
    /// with `lagging` the finished ones too.
    fn resting_then<'a>(
        &'a self,
        api_key: &str,
        market: Option<&str>,
        lagging: bool,
    ) -> Box<dyn Iterator<Item = &'a StoredOrder> + 'a> {
        let open = self.orders.listed(api_key, market, true);
        if !lagging {
            return Box::new(open);
        }
        let mut all: Vec<&StoredOrder> = open
            .chain(self.orders.listed(api_key, market, false))
            .collect();
        all.sort_by_key(|o| std::cmp::Reverse(o.id));
        Box::new(all.into_iter())
    }

    /// `api_key`'s conditional orders of `query`'s market as of `as_of`, newest first: the
    /// page and the total. An OTO group is listed while its order rests (any kind: the group
    /// is pending until the order ends); an OCO while both legs are pending (neither executed
    /// anything, activated or ended), under its take-profit leg's place.
    pub(crate) fn conditional_orders(
        &self,
        api_key: &str,
        query: &ConditionalQuery,
        as_of: AsOf,
    ) -> ConditionalPage {
        let groups: Vec<ConditionalRecord> = self
            .resting_then(api_key, query.market.as_deref(), as_of.lagging)
            .filter_map(|o| self.conditional_as_of(o, as_of))
            .collect();
        ConditionalPage {
            limit: query.page.limit,
            offset: query.page.offset,
            total: groups.len(),
            records: query.page.of(groups.into_iter()).collect(),
        }
    }

    /// `api_key`'s pending OCOs of `query`'s market as of `as_of`, newest first, paged.
    pub(crate) fn oco_orders(
        &self,
        api_key: &str,
        query: &OcoOrdersQuery,
        as_of: AsOf,
    ) -> Vec<OcoRecord> {
        let ocos = self
            .resting_then(api_key, query.market.as_deref(), as_of.lagging)
            .filter_map(|o| {
                let (id, stop_loss, take_profit) = self.oco_as_of(o, as_of)?;
                Some(self.oco_record_of(id, &stop_loss, &take_profit))
            });
        query.page.of(ocos).collect()
    }

    /// The conditional order `order` opens as of `as_of`, as the conditional orders list it:
    /// its OTO group, or the OCO whose take-profit leg it is.
    fn conditional_as_of(&self, order: &StoredOrder, as_of: AsOf) -> Option<ConditionalRecord> {
        if let Some((id, stop_loss, take_profit)) = self.oco_as_of(order, as_of) {
            let record = Self::oco_group_record(id, &stop_loss, &take_profit);
            return Some(ConditionalRecord::Oco(Box::new(record)));
        }
        let oto_id = order.oto_id?;
        if !order.open_at(as_of.at_us) {
            return None;
        }
        Some(ConditionalRecord::Oto(Box::new(OtoGroupRecord {
            id: oto_id,
            kind: "oto",
            stop_loss_price: order.request.stop_loss.as_ref().map(|p| p.text.clone()),
            take_profit_price: order.request.take_profit.as_ref().map(|p| p.text.clone()),
            conditional_order: as_then(order, as_of.at_us).active_record(),
        })))
    }

    /// The OCO whose take-profit leg is `order`, if both legs were pending as of `as_of`: its
    /// id and its legs as they were then.
    fn oco_as_of(
        &self,
        order: &StoredOrder,
        as_of: AsOf,
    ) -> Option<(u64, StoredOrder, StoredOrder)> {
        let id = order.oco_id?;
        let legs = self.orders.oco(id)?;
        if legs.take_profit != order.id {
            return None;
        }
        let stop_loss = self.orders.get(legs.stop_loss)?;
        let pending = |o: &StoredOrder| {
            o.open_at(as_of.at_us)
                && o.activated_us.is_none_or(|at| at > as_of.at_us)
                && (o.deal_stock.is_zero() || o.modified_us > as_of.at_us)
        };
        (pending(stop_loss) && pending(order)).then(|| {
            (
                id,
                as_then(stop_loss, as_of.at_us),
                as_then(order, as_of.at_us),
            )
        })
    }

    /// `api_key`'s finished orders matching `query` as of `now_us` (now, unless the look-up
    /// lags), newest first, paged, keyed by market. A `clientOrderId` look-up that matches nothing is 422 code 30
    /// `{"orderHistory":["OrderHistory was not found."]}`.
    pub(crate) fn history(
        &self,
        api_key: &str,
        query: &HistoryQuery,
        as_of: AsOf,
    ) -> Result<HistoryByMarket, Rejection> {
        let now_us = as_of.at_us;
        let canceled_recorded = self
            .accounts
            .get(api_key)
            .is_none_or(|a| a.spec.terms.canceled_in_history);
        let market = query.market.as_deref();
        let (from, to) = query.period;
        let matches = |o: &&StoredOrder| {
            let created = i64::try_from(o.created_us / 1_000_000).unwrap_or(i64::MAX);
            o.api_key == api_key
                && o.finished_at(now_us)
                && (canceled_recorded || o.status == OrderStatus::Filled)
                && market.is_none_or(|m| o.market() == m)
                && match &query.which {
                    Some(which) => o.is(which),
                    None => (from..=to).contains(&created) && status_matches(query.status, o),
                }
        };
        let candidates: Box<dyn Iterator<Item = &StoredOrder>> = match &query.which {
            Some(OrderRef::Id(id)) => Box::new(self.orders.get(*id).into_iter()),
            Some(OrderRef::ClientId(id)) => Box::new(self.orders.carrying(api_key, id)),
            None => Box::new(self.orders.listed(api_key, market, false)),
        };
        let found: Vec<&StoredOrder> = query.page.of(candidates.filter(matches)).collect();
        if found.is_empty() && matches!(query.which, Some(OrderRef::ClientId(_))) {
            return Err(Rejection::validation(
                30,
                "orderHistory",
                vec!["OrderHistory was not found.".to_owned()],
            ));
        }
        let mut by_market: BTreeMap<String, Vec<HistoryRecord>> = BTreeMap::new();
        for order in found {
            let fee_asset = self
                .markets
                .get(order.market())
                .map_or("", |m| m.collateral.as_str());
            by_market
                .entry(order.market().to_owned())
                .or_default()
                .push(order.history_record(fee_asset));
        }
        Ok(HistoryByMarket(by_market))
    }
}

/// `order` as a look-up as of `at_us` shows it: as it is, unless it changed since (a lagging
/// look-up), then as it was while it rested.
fn as_then(order: &StoredOrder, at_us: u64) -> StoredOrder {
    if order.modified_us <= at_us {
        order.clone()
    } else {
        order.as_resting()
    }
}

/// Whether `order` passes the list mode's `status` filter: `CANCELED` takes every canceled
/// status (sandbox's choice); `PARTIALLY_FILLED` the finished orders that executed in part
/// before they were canceled (the history lists finished orders only).
fn status_matches(status: HistoryStatus, order: &StoredOrder) -> bool {
    match status {
        HistoryStatus::All => true,
        HistoryStatus::Filled => order.status == OrderStatus::Filled,
        HistoryStatus::Canceled => order.status != OrderStatus::Filled,
        HistoryStatus::PartiallyFilled => {
            order.status != OrderStatus::Filled && !order.deal_stock.is_zero()
        }
    }
}
