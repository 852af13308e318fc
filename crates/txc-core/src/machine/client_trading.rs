//! Where the machines of every order type start — checked against the markets' rules first —
//! beside the ones of [`ClientCore`]'s own file: limit, stop-limit, bulk and OCO orders,
//! modify, the cancels settled exactly once, the markets' rules.

use std::sync::Arc;

use txc_types::endpoint::Endpoint;
use txc_types::markets::{MarketRulebook, RuledOrder};
use txc_types::orders::{Cancellation, CollateralBulkOrder, ModifyOrder};
use txc_types::socket::{PreSend, SocketRequest};
use txc_types::values::Market;

use super::client_core::ClientCore;
use crate::PendingOrder;
use crate::resolve::{
    CancelOnce, Modify, ModifyOnce, PendingModify, Place, PlaceBulk, PlaceBulkOnce, PlaceOnce,
    Placeable, ResolveModify, ResolveOco,
};
use crate::risk::{Cleared, LearnRules, MarketRulesCheck, Preflight, RulesCheck};

impl ClientCore {
    /// `then` — sending `order`, say — after checking `order` against its market's published
    /// rules, read first if not yet known: a [`RulesCheck`] machine (see
    /// [`MarketRulesCheck`] for the rules, the look-up it adds and what is left unchecked).
    pub fn rules_check<'a, M>(
        &'a self,
        order: &'a (dyn RuledOrder + Sync),
        operation: &'static str,
        then: M,
    ) -> RulesCheck<'a, M> {
        RulesCheck::new(self, order, operation, then)
    }

    /// Starts placing `order` — a market, trigger-market, limit, stop-limit or OCO order —
    /// checked first against its market's rules ([`RulesCheck`]) and its position side against
    /// the account's mode ([`Preflight`]): the machine both transports' order methods drive.
    /// When the client holds an unresolved record of the order's `clientOrderId`, neither the
    /// rules nor the mode are read (the placement refuses it before any I/O): it is checked
    /// only against what is known.
    pub fn place_checked<'a, O: Placeable + RuledOrder>(
        &'a self,
        order: &'a O,
    ) -> RulesCheck<'a, Preflight<'a, Place<'a, O>>> {
        self.checked(order, self.place(order))
    }

    /// Starts placing `order` exactly once ([`PlaceOnce`]), checked first as
    /// [`place_checked`](Self::place_checked) checks it.
    pub fn place_once_checked<'a, O: Placeable + RuledOrder>(
        &'a self,
        order: &'a O,
    ) -> RulesCheck<'a, Preflight<'a, PlaceOnce<'a, O>>> {
        self.checked(order, self.place_once(order))
    }

    /// `then`, placing `order`, after the rules check and the position-mode check — neither
    /// reading anything for an order the placement will refuse before any I/O.
    fn checked<'a, O: Placeable + RuledOrder, M>(
        &'a self,
        order: &'a O,
        then: M,
    ) -> RulesCheck<'a, Preflight<'a, M>> {
        let unresolved = self
            .ledger
            .holds_unresolved(order.market(), order.client_order_id());
        let checks = PreSend::order(order, order.position_side());
        self.checked_as(checks, O::OPERATION, unresolved, then)
    }

    /// `then` after `checks` — the rules check, and the position-mode check where it applies —
    /// neither reading anything when `unresolved` (the call will be refused, or resolved,
    /// before any I/O): the one pair of checks before an order, over REST or the socket.
    fn checked_as<'a, M>(
        &'a self,
        checks: PreSend<'a>,
        operation: &'static str,
        unresolved: bool,
        then: M,
    ) -> RulesCheck<'a, Preflight<'a, M>> {
        let preflight = Preflight::new(self, checks.position_side, then)
            .without_read(unresolved)
            .applied(checks.mode_checked);
        RulesCheck::new(self, checks.rules, operation, preflight).without_read(unresolved)
    }

    /// The checks REST makes before sending an order — its market's published rules
    /// ([`MarketRulesCheck`]) and its position side against the account's position mode
    /// ([`ModeCheck`](crate::ModeCheck)), each read first if not yet known — for `request`, an
    /// order method's call about to go over the WebSocket: a machine that ends `Ok(())` when
    /// the frame may be written, or with the same typed error as REST (nothing sent). A call
    /// without checks (`checks` `None`: a cancel) clears at once. When the client holds an
    /// unresolved record of the call's `client_order_id`, nothing is read: it is checked only
    /// against what is known.
    pub fn socket_checks<'a>(
        &'a self,
        checks: Option<PreSend<'a>>,
        request: &SocketRequest,
    ) -> Option<RulesCheck<'a, Preflight<'a, Cleared>>> {
        let checks = checks?;
        let market = request.market().and_then(|m| m.parse::<Market>().ok());
        let unresolved = match (market, request.client_order_id()) {
            (Some(market), Some(id)) => self.ledger.holds_unresolved(&market, id),
            _ => false,
        };
        let operation = request.method().name();
        Some(self.checked_as(checks, operation, unresolved, Cleared::default()))
    }

    /// Starts placing a bulk order, every item checked against its market's rules first:
    /// a [`PlaceBulk`] (every item's record kept before the first byte) inside a
    /// [`RulesCheck`]. The items' position sides are the exchange's to judge.
    pub fn place_bulk<'a>(
        &'a self,
        bulk: &'a CollateralBulkOrder,
    ) -> RulesCheck<'a, PlaceBulk<'a>> {
        RulesCheck::new(
            self,
            bulk,
            CollateralBulkOrder::OPERATION,
            PlaceBulk::new(self, bulk.clone()),
        )
        .without_read(self.holds_unresolved_item(bulk))
    }

    /// Whether the client holds an unresolved record of one of `bulk`'s items: a plain
    /// placement refuses it before any I/O, so no rules are read for it.
    fn holds_unresolved_item(&self, bulk: &CollateralBulkOrder) -> bool {
        bulk.orders().iter().any(|item| {
            let fields = item.fields();
            self.ledger
                .holds_unresolved(fields.market(), fields.client_order_id())
        })
    }

    /// Starts placing a bulk order exactly once, item by item: a [`PlaceBulkOnce`] inside a
    /// [`RulesCheck`].
    pub fn place_bulk_once<'a>(
        &'a self,
        bulk: &'a CollateralBulkOrder,
    ) -> RulesCheck<'a, PlaceBulkOnce<'a>> {
        RulesCheck::new(
            self,
            bulk,
            CollateralBulkOrder::OPERATION,
            PlaceBulkOnce::new(self, bulk),
        )
    }

    /// Starts modifying an order, the new values checked against its market's rules first: a
    /// [`Modify`] inside a [`RulesCheck`]. An order with an unresolved modify is refused
    /// before any I/O.
    pub fn modify<'a>(&'a self, modify: &'a ModifyOrder) -> RulesCheck<'a, Modify<'a>> {
        let pending = PendingModify::new(modify.clone(), None, None, Vec::new());
        let unresolved = self.modifies.unresolved_like(&pending).is_some();
        RulesCheck::new(
            self,
            modify,
            ModifyOrder::OPERATION,
            Modify::new(self, modify),
        )
        .without_read(unresolved)
    }

    /// Starts modifying an order exactly once: a [`ModifyOnce`] inside a [`RulesCheck`].
    pub fn modify_once<'a>(&'a self, modify: &'a ModifyOrder) -> RulesCheck<'a, ModifyOnce<'a>> {
        RulesCheck::new(
            self,
            modify,
            ModifyOrder::OPERATION,
            ModifyOnce::new(self, modify),
        )
    }

    /// Starts resolving a modify whose outcome is unknown: a [`ResolveModify`] machine.
    pub fn resolve_modify(&self, modify: PendingModify) -> ResolveModify<'_> {
        ResolveModify::of_modify(self, modify)
    }

    /// Starts resolving an OCO pair whose outcome is unknown (its record: market,
    /// `clientOrderId`, attempts): a [`ResolveOco`] machine, which reads the active pairs
    /// first.
    pub fn resolve_oco(&self, order: PendingOrder) -> ResolveOco<'_> {
        ResolveOco::of_pair(self, order, "collateral_oco_order")
    }

    /// Starts a cancel of any kind settled exactly once: a [`CancelOnce`] machine.
    pub fn cancel_once<E, T>(&self, cancel: &E) -> CancelOnce<'_, E, T>
    where
        E: Endpoint<Response = Cancellation<T>> + Clone,
    {
        CancelOnce::new(self, cancel)
    }

    /// The modifies this client (and its clones) sent whose outcome is not definite yet — in
    /// flight, unknown or unresolved, and those of earlier processes read from the journal —
    /// oldest first: [`resolve_modify`](Self::resolve_modify) each, or
    /// [`discard_pending`](Self::discard_pending) one settled by hand. While one is
    /// unresolved, a modify of the same order is refused before any I/O.
    pub fn pending_modifies(&self) -> Vec<PendingModify> {
        self.modifies.pending()
    }

    /// The markets' rules as the clients of this exchange know them, without a request
    /// (`None` until read or given).
    pub fn market_rules(&self) -> Option<Arc<MarketRulebook>> {
        self.rules.get()
    }

    /// The markets' rules as known, or — not known yet, or `refresh` — read
    /// (`GET /api/v4/public/markets`) and recorded as the exchange's: a [`LearnRules`] machine.
    pub fn learn_market_rules(&self, refresh: bool) -> LearnRules<'_> {
        LearnRules::new(self, refresh)
    }

    /// How orders are checked against the markets' rules.
    pub fn market_rules_check(&self) -> &MarketRulesCheck {
        &self.rules_check
    }
}
