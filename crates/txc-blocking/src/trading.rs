//! The client's methods for every collateral order type beyond the market and trigger orders —
//! limit, stop-limit, bulk, OCO, modify — the OCO, OTO and conditional cancels, every cancel
//! settled exactly once, and the markets' public rules. Each is a driver of a `txc-core`
//! machine; txc-async has the same methods, `async`.

use std::sync::Arc;

use txc_core::Error;
use txc_core::resolve::{
    BulkPlaced, CancelOutcome, ModifyResolution, PendingModify, PendingOrder, PlacedOco, Resolution,
};
use txc_types::endpoint::Endpoint;
use txc_types::markets::{
    CollateralMarkets, CollateralMarketsQuery, FuturesMarkets, FuturesMarketsQuery, MarketInfo,
    MarketRulebook, MarketsQuery,
};
use txc_types::orders::{
    BulkOrderResult, CancelConditionalOrder, CancelOcoOrder, CancelOtoOrder, Cancellation,
    CollateralBulkOrder, CollateralLimitOrder, CollateralOcoOrder, CollateralStopLimitOrder,
    GroupCancellation, Modified, ModifyOrder, OcoCancellation, OcoOrder, OcoOrdersQuery, Order,
};

use crate::Client;

impl Client {
    /// Places a collateral limit order (`POST /api/v4/order/collateral/limit`) with the
    /// `clientOrderId` it was built with, checked first against its market's published rules
    /// ([`MarketRulesCheck`](crate::settings::MarketRulesCheck)) and its position side against
    /// the account's mode. A resting order answers `status` `OPEN`.
    ///
    /// Never resent after a failure that leaves its outcome unknown: that failure is
    /// [`Error::OutcomeUnknown`]; [`Client::resolve`] it, or use [`Client::place_once`].
    pub fn collateral_limit_order(&self, order: &CollateralLimitOrder) -> Result<Order, Error> {
        self.drive(self.core().place_checked(order))
    }

    /// Places a collateral stop-limit order (`POST /api/v4/order/collateral/stop-limit`): a
    /// limit order at its `price` once the market reaches its activation price (a buy when the
    /// price rises to it or above, a sell when it falls to it or below). Checked and recorded
    /// as [`Client::collateral_limit_order`]; never resent after an unknown outcome.
    pub fn collateral_stop_limit_order(
        &self,
        order: &CollateralStopLimitOrder,
    ) -> Result<Order, Error> {
        self.drive(self.core().place_checked(order))
    }

    /// Places up to 20 collateral limit orders at once (`POST /api/v4/order/collateral/bulk`),
    /// one answer item per order, in order: placed, refused (its own error), or — with
    /// `stopOnFail`, after a failure — no item. Every item is checked against its market's
    /// rules first (one item breaking one: nothing is sent), and every item's record is kept
    /// before the first byte.
    ///
    /// Never resent after a failure that leaves the answer unknown: that failure is
    /// [`Error::BulkUnknown`], with each item's record ([`Error::pending_bulk`]):
    /// [`Client::resolve`] each, or use [`Client::place_bulk_once`].
    pub fn collateral_bulk_order(
        &self,
        bulk: &CollateralBulkOrder,
    ) -> Result<Vec<BulkOrderResult>, Error> {
        self.drive(self.core().place_bulk(bulk))
    }

    /// Places a bulk order exactly once, item by item: a lost answer is resolved item by item
    /// (each by its `clientOrderId`), and only the items proven not placed are sent again —
    /// never one that may be resting. Each item's outcome is in the answer
    /// ([`BulkItem`](crate::outcomes::BulkItem)); see
    /// [`PlaceBulkOnce`](txc_core::resolve::PlaceBulkOnce) for the rule.
    pub fn place_bulk_once(&self, bulk: &CollateralBulkOrder) -> Result<BulkPlaced, Error> {
        self.drive(self.core().place_bulk_once(bulk))
    }

    /// Places an OCO pair (`POST /api/v4/order/collateral/oco`): a take-profit limit order and
    /// a stop-limit stop-loss, linked — one executes, the other is canceled. Checked and
    /// recorded (under the pair's `clientOrderId`) as an order is; never resent after an
    /// unknown outcome: [`Client::resolve_oco`] it, or use [`Client::place_once`].
    pub fn collateral_oco_order(&self, order: &CollateralOcoOrder) -> Result<OcoOrder, Error> {
        self.drive(self.core().place_checked(order))
    }

    /// Finds out whether an OCO pair whose outcome is unknown was placed, by the rule
    /// [`Resolve`](crate::outcomes::Resolve) states: the active pairs (`/oco-orders`) first,
    /// then its legs among the open orders and in the history (a leg that executed).
    pub fn resolve_oco(&self, pair: &PendingOrder) -> Result<Resolution<PlacedOco>, Error> {
        self.drive(self.core().resolve_oco(pair.clone()))
    }

    /// A page of the active OCO pairs (`POST /api/v4/oco-orders`).
    pub fn oco_orders(&self, query: &OcoOrdersQuery) -> Result<Vec<OcoOrder>, Error> {
        self.send(query)
    }

    /// Cancels an OCO pair, both legs (`POST /api/v4/order/oco-cancel`); a pair that is not
    /// active is [`Cancellation::NotFound`]. Never resent after an unknown outcome: use
    /// [`Client::cancel_once`] for that.
    pub fn cancel_oco_order(&self, cancel: &CancelOcoOrder) -> Result<OcoCancellation, Error> {
        self.send(cancel)
    }

    /// Cancels a conditional order — an OCO pair's legs, or an OTO group whole
    /// (`POST /api/v4/order/conditional-cancel`); one not active is
    /// [`Cancellation::NotFound`]. Never resent after an unknown outcome.
    pub fn cancel_conditional_order(
        &self,
        cancel: &CancelConditionalOrder,
    ) -> Result<GroupCancellation, Error> {
        self.send(cancel)
    }

    /// Cancels an OTO group — its order while still open, and the stop-loss and take-profit
    /// its fill would activate (`POST /api/v4/order/oto-cancel`); one not active is
    /// [`Cancellation::NotFound`]. Never resent after an unknown outcome.
    pub fn cancel_oto_order(&self, cancel: &CancelOtoOrder) -> Result<GroupCancellation, Error> {
        self.send(cancel)
    }

    /// Cancels exactly once — an order, an OCO pair, an OTO group or a conditional order — and
    /// settles a lost answer by asking again: "not found" after a lost answer is
    /// [`CancelOutcome::Gone`] (nothing of it is active any more). See
    /// [`CancelOnce`](txc_core::resolve::CancelOnce).
    pub fn cancel_once<E, T>(&self, cancel: &E) -> Result<CancelOutcome<T>, Error>
    where
        E: Endpoint<Response = Cancellation<T>> + Clone,
    {
        self.drive(self.core().cancel_once(cancel))
    }

    /// Modifies a resting order (`POST /api/v4/order/modify`): the exchange replaces it with a
    /// new order — a **new `orderId`** ([`Modified::new_order_id`]), the `clientOrderId`
    /// carried over. Reads the order first (one look-up), checks the new values against the
    /// market's rules, and keeps the modify's record before the first byte.
    ///
    /// Not idempotent, never resent: a failure that leaves its outcome unknown is
    /// [`Error::ModifyUnknown`]; [`Client::resolve_modify`] it, or use [`Client::modify_once`].
    /// A modify of an order with an unresolved modify is refused before any I/O.
    pub fn modify_order(&self, modify: &ModifyOrder) -> Result<Modified, Error> {
        self.drive(self.core().modify(modify))
    }

    /// Modifies an order exactly once: a lost answer is resolved by reading the order by its
    /// `clientOrderId` and comparing it with the request — replaced, unchanged (sent again
    /// only then), or gone ([`ModifyResolution`]). See
    /// [`ModifyOnce`](txc_core::resolve::ModifyOnce).
    pub fn modify_once(&self, modify: &ModifyOrder) -> Result<ModifyResolution, Error> {
        self.drive(self.core().modify_once(modify))
    }

    /// Finds out what a modify whose outcome is unknown did, by the rule
    /// [`ResolveModify`](txc_core::resolve::ResolveModify) states.
    pub fn resolve_modify(&self, modify: &PendingModify) -> Result<ModifyResolution, Error> {
        self.drive(self.core().resolve_modify(modify.clone()))
    }

    /// The modifies this client (and its clones) sent whose outcome is not definite yet, and
    /// those of earlier processes read from the journal — oldest first.
    pub fn pending_modifies(&self) -> Vec<PendingModify> {
        self.core().pending_modifies()
    }

    /// Every market's trading rules (`GET /api/v4/public/markets`, public: no key, no nonce).
    pub fn markets(&self) -> Result<Vec<MarketInfo>, Error> {
        self.send(&MarketsQuery)
    }

    /// The markets open to collateral trading (`GET /api/v4/public/collateral/markets`).
    pub fn collateral_markets(&self) -> Result<CollateralMarkets, Error> {
        self.send(&CollateralMarketsQuery)
    }

    /// The futures markets: prices, funding, leverage brackets (`GET /api/v4/public/futures`).
    pub fn futures_markets(&self) -> Result<FuturesMarkets, Error> {
        self.send(&FuturesMarketsQuery)
    }

    /// The markets' rules the client checks orders against — read once per exchange and
    /// cached (read now if not known yet) — for explicit rounding:
    /// [`MarketRules::round_amount`](crate::markets::MarketRules::round_amount) and
    /// [`round_price`](crate::markets::MarketRules::round_price).
    pub fn market_rules(&self) -> Result<Arc<MarketRulebook>, Error> {
        self.drive(self.core().learn_market_rules(false))
    }

    /// Reads the markets' rules again, replacing the cached ones.
    pub fn refresh_market_rules(&self) -> Result<Arc<MarketRulebook>, Error> {
        self.drive(self.core().learn_market_rules(true))
    }
}
