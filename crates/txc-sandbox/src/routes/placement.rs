//! The order placement operations (`POST /api/v4/order/collateral/market` and
//! `…/trigger-market`): the body checked by the sandbox's own rules ([`crate::rules`]), then
//! placed against the state. A market order fills at the market's price; a trigger order rests
//! until the price reaches `activation_price` (buy: price ≥ activation, sell: price ≤
//! activation), or fills at once when it already has.

use super::private::{Call, Operation};
use crate::answer::{Answer, Outcome, Rejection};
use crate::app::Shared;
use crate::op::Op;
use crate::rules::{self, OrderKind, OrderRequest};
use crate::state::State;
use crate::wire::OrderRecord;

/// Places an order of this kind: the order record, or the exchange's rejection.
#[derive(Debug, Clone, Copy)]
pub(super) struct Place(pub(super) OrderKind);

impl Operation for Place {
    type Request = OrderRequest;
    type Reply = OrderRecord;

    fn op(self) -> Op {
        match self.0 {
            OrderKind::Market => Op::Market,
            OrderKind::Trigger => Op::Trigger,
        }
    }

    fn served(self) -> Outcome {
        Outcome::OrderAccepted
    }

    fn parse(self, shared: &Shared, call: &Call<'_>) -> Result<OrderRequest, Answer> {
        rules::parse_order(call.fields()?, self.0, shared.markets()).map_err(Rejection::answer)
    }

    fn apply(
        self,
        state: &mut State,
        call: &Call<'_>,
        request: OrderRequest,
    ) -> Result<OrderRecord, Rejection> {
        state.place(call.api_key(), request, call.visible_after)
    }
}
