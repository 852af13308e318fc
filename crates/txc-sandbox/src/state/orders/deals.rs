//! [`DealLog`]: every deal (one execution of one order) under its id, indexed by account and
//! by order — and the two reads it answers: the account's executed history (`POST
//! /api/v4/trade-account/executed-history`) and one order's deals (`POST
//! /api/v4/trade-account/order`).
//!
//! Deal ids are given here, as each execution is announced ([`super::OrderStore`]): the ids
//! the stream's `deals` channel shows are the ids these reads answer.

use std::collections::{BTreeMap, HashMap};

use super::stored::{Execution, StoredOrder};
use crate::rules::{ExecutedHistoryQuery, OrderDealsQuery};
use crate::state::State;
use crate::state::changes::Deal;
use crate::wire::{
    DealsPage, ExecutedDealRecord, ExecutedDeals, OrderDealRecord, Rejection, Side, decimal, time,
};

/// One deal, with what the reads show of its order.
#[derive(Debug, Clone)]
pub(crate) struct DealEntry {
    pub(crate) id: u64,
    pub(crate) order_id: u64,
    pub(crate) api_key: String,
    pub(crate) market: String,
    pub(crate) side: Side,
    pub(crate) client_order_id: Option<String>,
    pub(crate) rpi: bool,
    pub(crate) execution: Execution,
}

/// Every deal, oldest first, indexed by account and by order; and the next deal id.
#[derive(Debug)]
pub(crate) struct DealLog {
    next_id: u64,
    entries: Vec<DealEntry>,
    by_account: HashMap<String, Vec<usize>>,
    by_order: HashMap<u64, Vec<usize>>,
}

impl DealLog {
    /// An empty log whose first deal gets `first_id`.
    pub(crate) fn new(first_id: u64) -> Self {
        Self {
            next_id: first_id,
            entries: Vec::new(),
            by_account: HashMap::new(),
            by_order: HashMap::new(),
        }
    }

    /// Logs `executions` of `order`, each under the next id; the deals as announced.
    pub(crate) fn log(&mut self, order: &StoredOrder, executions: &[Execution]) -> Vec<Deal> {
        executions
            .iter()
            .map(|execution| {
                let id = self.next_id;
                self.next_id = self.next_id.saturating_add(1);
                let index = self.entries.len();
                self.by_account
                    .entry(order.api_key.clone())
                    .or_default()
                    .push(index);
                self.by_order.entry(order.id).or_default().push(index);
                self.entries.push(DealEntry {
                    id,
                    order_id: order.id,
                    api_key: order.api_key.clone(),
                    market: order.market().to_owned(),
                    side: order.side(),
                    client_order_id: order.client_order_id().map(str::to_owned),
                    rpi: order.request.flags.rpi,
                    execution: *execution,
                });
                Deal {
                    id,
                    execution: *execution,
                }
            })
            .collect()
    }

    /// `api_key`'s deals, newest first.
    pub(crate) fn of_account<'a>(&'a self, api_key: &str) -> impl Iterator<Item = &'a DealEntry> {
        self.by_account
            .get(api_key)
            .into_iter()
            .flat_map(|indexes| indexes.iter().rev())
            .filter_map(|i| self.entries.get(*i))
    }

    /// The deals of the order `order_id`, newest first.
    fn of_order(&self, order_id: u64) -> impl Iterator<Item = &DealEntry> {
        self.by_order
            .get(&order_id)
            .into_iter()
            .flat_map(|indexes| indexes.iter().rev())
            .filter_map(|i| self.entries.get(*i))
    }
}

impl DealEntry {
    /// `1` maker, `2` taker.
    fn role(&self) -> u8 {
        if self.execution.maker { 1 } else { 2 }
    }

    /// `amount × price`.
    fn value(&self) -> String {
        let execution = &self.execution;
        decimal::text(
            execution
                .amount
                .checked_mul(execution.price)
                .unwrap_or_default(),
        )
    }
}

impl State {
    /// `api_key`'s deals matching `query` as of `as_of_us` (later deals are not there yet, for
    /// a lagging read), newest first, paged across markets: a flat list when the query named
    /// a market, else grouped by market. A `clientOrderId` no order of the account carried is
    /// 422 code 30 `OrderHistory was not found.`, as the spec's example.
    pub(crate) fn executed_history(
        &self,
        api_key: &str,
        query: &ExecutedHistoryQuery,
        as_of_us: u64,
    ) -> Result<ExecutedDeals, Rejection> {
        if let Some(id) = &query.client_order_id
            && self.orders.carrying(api_key, id).next().is_none()
        {
            return Err(Rejection::validation(
                30,
                "orderHistory",
                vec!["OrderHistory was not found.".to_owned()],
            ));
        }
        let (from, to) = query.period;
        let deals = self
            .orders
            .deals()
            .of_account(api_key)
            .filter(|d| d.execution.at_us <= as_of_us)
            .filter(|d| query.market.as_deref().is_none_or(|m| d.market == m))
            .filter(|d| match &query.client_order_id {
                Some(id) => d.client_order_id.as_deref() == Some(id.as_str()),
                None => {
                    let at = d.execution.at_us / 1_000_000;
                    from.is_none_or(|f| at >= f) && to.is_none_or(|t| at <= t)
                }
            });
        let page = query
            .page
            .of(deals)
            .map(|d| (d.market.clone(), self.executed_record(d)));
        Ok(if query.market.is_some() {
            ExecutedDeals::Flat(page.map(|(_, record)| record).collect())
        } else {
            let mut grouped: BTreeMap<String, Vec<ExecutedDealRecord>> = BTreeMap::new();
            for (market, record) in page {
                grouped.entry(market).or_default().push(record);
            }
            ExecutedDeals::ByMarket(grouped)
        })
    }

    /// The deals of `api_key`'s order named by `query` as of `as_of_us`, newest first, paged:
    /// none for an order that is unknown or another account's (HTTP 200, as the spec says).
    pub(crate) fn order_deals(
        &self,
        api_key: &str,
        query: &OrderDealsQuery,
        as_of_us: u64,
    ) -> DealsPage {
        let deals = query
            .order_id
            .into_iter()
            .flat_map(|id| self.orders.deals().of_order(id))
            .filter(|d| d.api_key == api_key && d.execution.at_us <= as_of_us);
        DealsPage {
            records: query
                .page
                .of(deals)
                .map(|d| OrderDealRecord {
                    time: time::seconds(d.execution.at_us),
                    fee: decimal::text(d.execution.fee),
                    price: decimal::text(d.execution.price),
                    amount: decimal::text(d.execution.amount),
                    id: d.id,
                    // The spec example's counterparty is the queried order itself: what the
                    // sandbox writes for a deal against the market, which has no order.
                    deal_order_id: d.execution.counterparty.unwrap_or(d.order_id),
                    client_order_id: d.client_order_id.clone().unwrap_or_default(),
                    role: d.role(),
                    deal: d.value(),
                    fee_asset: self.fee_asset(&d.market),
                    rpi: d.rpi,
                })
                .collect(),
            offset: query.page.offset,
            limit: query.page.limit,
        }
    }

    /// `deal` as the executed history lists it.
    fn executed_record(&self, deal: &DealEntry) -> ExecutedDealRecord {
        ExecutedDealRecord {
            id: deal.id,
            client_order_id: deal.client_order_id.clone().unwrap_or_default(),
            time: time::seconds(deal.execution.at_us),
            side: deal.side.as_str(),
            role: deal.role(),
            amount: decimal::text(deal.execution.amount),
            price: decimal::text(deal.execution.price),
            deal: deal.value(),
            fee: decimal::text(deal.execution.fee),
            order_id: deal.order_id,
            fee_asset: self.fee_asset(&deal.market),
        }
    }

    /// The currency fees on `market` are paid in: its collateral.
    fn fee_asset(&self, market: &str) -> String {
        self.markets
            .get(market)
            .map_or_else(String::new, |m| m.collateral.clone())
    }
}
