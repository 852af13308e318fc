//! The order look-ups and cancellation: `POST /api/v4/orders`, `POST
//! /api/v4/trade-account/order/history` and `POST /api/v4/order/cancel`, each checked by its
//! own rules ([`crate::rules`]) and answered in its own shape ([`crate::wire`]).

use super::private::{Call, Operation};
use crate::answer::{Answer, Rejection};
use crate::app::Shared;
use crate::op::Op;
use crate::rules::{self, CancelRequest, ConditionalQuery, HistoryQuery, OpenOrdersQuery};
use crate::state::State;
use crate::wire::{ActiveOrderRecord, ConditionalPage, HistoryByMarket};

/// `POST /api/v4/orders`: the account's open orders, an array.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenOrders;

/// `POST /api/v4/trade-account/order/history`: the account's finished orders, by market.
#[derive(Debug, Clone, Copy)]
pub(super) struct History;

/// `POST /api/v4/order/cancel`: the canceled order's final state.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cancel;

/// `POST /api/v4/conditional-orders`: the account's OTO groups, a page with the total.
#[derive(Debug, Clone, Copy)]
pub(super) struct ConditionalOrders;

impl Operation for ConditionalOrders {
    type Request = ConditionalQuery;
    type Reply = ConditionalPage;

    fn op(self) -> Op {
        Op::ConditionalOrders
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<ConditionalQuery, Answer> {
        rules::parse_conditional_orders(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        query: ConditionalQuery,
    ) -> Result<ConditionalPage, Rejection> {
        let page =
            state.conditional_orders(call.api_key(), &query, call.as_of(state.clock.now_us()));
        state.stats.lookups_served += 1;
        Ok(page)
    }
}

impl Operation for OpenOrders {
    type Request = OpenOrdersQuery;
    type Reply = Vec<ActiveOrderRecord>;

    fn op(self) -> Op {
        Op::OpenOrders
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<OpenOrdersQuery, Answer> {
        rules::parse_open_orders(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        query: OpenOrdersQuery,
    ) -> Result<Vec<ActiveOrderRecord>, Rejection> {
        let records = state.open_orders(call.api_key(), &query, call.as_of(state.clock.now_us()));
        state.stats.lookups_served += 1;
        Ok(records)
    }
}

impl Operation for History {
    type Request = HistoryQuery;
    type Reply = HistoryByMarket;

    fn op(self) -> Op {
        Op::History
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<HistoryQuery, Answer> {
        let now_s = i64::try_from(shared.clock().now_ms() / 1_000).unwrap_or(i64::MAX);
        rules::parse_history(call.fields()?, shared.markets(), now_s).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        query: HistoryQuery,
    ) -> Result<HistoryByMarket, Rejection> {
        let records = state.history(call.api_key(), &query, call.as_of(state.clock.now_us()))?;
        state.stats.lookups_served += 1;
        Ok(records)
    }
}

impl Operation for Cancel {
    type Request = CancelRequest;
    type Reply = ActiveOrderRecord;

    fn op(self) -> Op {
        Op::Cancel
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<CancelRequest, Answer> {
        rules::parse_cancel(call.fields()?, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: CancelRequest,
    ) -> Result<ActiveOrderRecord, Rejection> {
        state.cancel(call.api_key(), &request)
    }
}
