//! [`Placeable`]: what placing exactly once needs of a request that places something under the
//! caller's `clientOrderId` — an order of any single type, or an OCO pair.

use std::fmt;

use txc_types::endpoint::Endpoint;
use txc_types::orders::{
    CollateralLimitOrder, CollateralMarketOrder, CollateralOcoOrder, CollateralStopLimitOrder,
    CollateralTriggerMarketOrder, OcoOrder, Order, PositionSide,
};
use txc_types::values::{ClientOrderId, Market};

use super::oco_search::{OcoSearch, PlacedOco, ResolveOco};
use super::order_search::{OrderSearch, Resolve};
use super::outcome::{PlacedOrder, Resolution};
use super::resolver::Resolver;
use super::search::Search;
use crate::{ClientCore, PendingOrder};

mod sealed {
    pub trait Sealed {}
}

/// A request that places something the exchange keeps under the caller's `clientOrderId` on
/// one market: the collateral market, trigger-market, limit and stop-limit orders, and the OCO
/// pair (both of whose legs carry the pair's id). Sealed: what
/// [`Place`](crate::resolve::Place) and [`PlaceOnce`](crate::resolve::PlaceOnce) need of it —
/// its market and id (the ledger's and the journal's key), whether it may rest, its position
/// side (the position-mode check), and how to find it again when its answer is lost.
pub trait Placeable: Endpoint + Clone + Send + Sync + sealed::Sealed {
    /// What resolving finds of it: [`PlacedOrder`] for an order, [`PlacedOco`] for a pair.
    type Placed: fmt::Debug + Clone + PartialEq + Send;
    /// The look-ups that find it again.
    type Search: Search<Record = Self::Placed, Answer = Resolution<Self::Placed>> + Send;

    /// The market.
    fn market(&self) -> &Market;
    /// The `clientOrderId` it is sent with.
    fn client_order_id(&self) -> &ClientOrderId;
    /// The position side it sets, if any.
    fn position_side(&self) -> Option<PositionSide>;
    /// Whether it may rest unexecuted (so that resolving looks among the conditional orders
    /// too): every type but a market order.
    fn may_rest(&self) -> bool;
    /// The placement's own answer, as what resolving would have found.
    fn answered(response: Self::Response) -> Self::Placed;
    /// Resolving a placement of it whose outcome is unknown, `operation`'s.
    fn resolver<'a>(
        core: &'a ClientCore,
        order: PendingOrder,
        operation: &'static str,
    ) -> Resolver<'a, Self::Search>;
}

/// The pending record of `order` before any attempt.
pub(crate) fn pending_of<O: Placeable>(order: &O) -> PendingOrder {
    PendingOrder::new(
        order.market().clone(),
        order.client_order_id().clone(),
        Vec::new(),
    )
    .with_trigger(order.may_rest())
}

/// The single orders: [`NewOrder`](txc_types::orders::NewOrder)s, resolved by their
/// `clientOrderId` ([`Resolve`]).
macro_rules! single_order {
    ($($order:ty),*) => {$(
        impl sealed::Sealed for $order {}

        impl Placeable for $order {
            type Placed = PlacedOrder;
            type Search = OrderSearch;

            fn market(&self) -> &Market {
                self.fields().market()
            }
            fn client_order_id(&self) -> &ClientOrderId {
                self.fields().client_order_id()
            }
            fn position_side(&self) -> Option<PositionSide> {
                self.fields().position_side()
            }
            fn may_rest(&self) -> bool {
                txc_types::orders::NewOrder::is_trigger(self)
            }
            fn answered(response: Order) -> PlacedOrder {
                PlacedOrder::Answered(response)
            }
            fn resolver<'a>(
                core: &'a ClientCore,
                order: PendingOrder,
                operation: &'static str,
            ) -> Resolve<'a> {
                Resolve::of_order(core, order, operation)
            }
        }
    )*};
}

single_order!(
    CollateralMarketOrder,
    CollateralTriggerMarketOrder,
    CollateralLimitOrder,
    CollateralStopLimitOrder
);

impl sealed::Sealed for CollateralOcoOrder {}

impl Placeable for CollateralOcoOrder {
    type Placed = PlacedOco;
    type Search = OcoSearch;

    fn market(&self) -> &Market {
        CollateralOcoOrder::market(self)
    }
    fn client_order_id(&self) -> &ClientOrderId {
        CollateralOcoOrder::client_order_id(self)
    }
    fn position_side(&self) -> Option<PositionSide> {
        CollateralOcoOrder::position_side(self)
    }
    fn may_rest(&self) -> bool {
        true
    }
    fn answered(response: OcoOrder) -> PlacedOco {
        PlacedOco::Answered(response)
    }
    fn resolver<'a>(
        core: &'a ClientCore,
        order: PendingOrder,
        operation: &'static str,
    ) -> ResolveOco<'a> {
        ResolveOco::of_pair(core, order, operation)
    }
}
