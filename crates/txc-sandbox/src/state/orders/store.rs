//! [`OrderStore`]: every accepted order, the indexes every look-up goes through ([`Index`],
//! with each market's [`Book`](super::book::Book)), and the conditional groups (OTO, OCO), so
//! that no request walks the whole history.
//!
//! Orders are stored by id (ids are dense, so the id is the position). An order changes only
//! through [`OrderStore::add`], [`OrderStore::update`], [`OrderStore::execute`] and
//! [`OrderStore::activate`], which keep the indexes in step — and hand every change to the
//! state's subscriber ([`crate::state::Changes`]), with the deals it made.

use std::collections::{BTreeSet, HashMap};

use rust_decimal::Decimal;

use super::deals::DealLog;
use super::index::Index;
use super::stored::{Execution, StoredOrder};
use crate::rules::OrderRef;
use crate::state::changes::{Change, Changes, OrderChange};
use crate::wire::Side;

/// The first order id of a fresh sandbox (realistic: ids on the exchange are ~4·10⁹).
pub(crate) const FIRST_ORDER_ID: u64 = 4_180_300_001;
/// The first OTO id of a fresh sandbox.
pub(crate) const FIRST_OTO_ID: u64 = 29_457_301;
/// The first OCO id of a fresh sandbox (the spec's example's; far from the order ids, so that
/// a leg's order id is never an OCO's).
pub(crate) const FIRST_OCO_ID: u64 = 117_703_764_513;
/// The first deal id of a fresh sandbox.
pub(crate) const FIRST_DEAL_ID: u64 = 13_674_500_001;

/// An OCO's two legs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OcoLegs {
    /// The stop-limit leg.
    pub(crate) stop_loss: u64,
    /// The limit leg.
    pub(crate) take_profit: u64,
}

/// Every accepted order, its indexes and its groups.
#[derive(Debug)]
pub(crate) struct OrderStore {
    /// By `id − FIRST_ORDER_ID`.
    orders: Vec<StoredOrder>,
    next_oto_id: u64,
    next_oco_id: u64,
    /// Every deal, under its id.
    deals: DealLog,
    index: Index,
    /// The OTO groups not yet activated or canceled: OTO id → the order that opens it.
    pending_otos: HashMap<u64, u64>,
    /// Every OCO: id → legs.
    ocos: HashMap<u64, OcoLegs>,
    /// The TPSL legs that may still wait (ended ones are dropped as they are met).
    tpsl_legs: BTreeSet<u64>,
    /// Where every change goes.
    changes: Changes,
}

impl Default for OrderStore {
    fn default() -> Self {
        Self::new(Changes::unheard())
    }
}

impl OrderStore {
    /// An empty store whose changes go to `changes`.
    pub(crate) fn new(changes: Changes) -> Self {
        Self {
            orders: Vec::new(),
            next_oto_id: FIRST_OTO_ID,
            next_oco_id: FIRST_OCO_ID,
            deals: DealLog::new(FIRST_DEAL_ID),
            index: Index::default(),
            pending_otos: HashMap::new(),
            ocos: HashMap::new(),
            tpsl_legs: BTreeSet::new(),
            changes,
        }
    }

    /// Stores an accepted order under the next id, having made `deals` as it was placed. An
    /// order with an OTO id opens that group, pending until the order ends
    /// ([`OrderStore::settle_oto`]).
    pub(crate) fn add(
        &mut self,
        mut order: StoredOrder,
        deals: &[Execution],
    ) -> Option<&StoredOrder> {
        order.id = self.next_id();
        if let Some(oto_id) = order.oto_id {
            self.pending_otos.insert(oto_id, order.id);
        }
        if order.tpsl.is_some() {
            self.tpsl_legs.insert(order.id);
        }
        self.index.add(&order);
        let change = if order.is_open() {
            OrderChange::New
        } else {
            OrderChange::Finished
        };
        self.announce(change, &order, deals);
        self.orders.push(order);
        self.orders.last()
    }

    /// The TPSL legs still waiting; the ended ones are forgotten.
    pub(crate) fn waiting_tpsl(&mut self) -> Vec<u64> {
        let orders = &self.orders;
        self.tpsl_legs.retain(|id| {
            let at = id
                .checked_sub(FIRST_ORDER_ID)
                .and_then(|i| usize::try_from(i).ok());
            at.and_then(|i| orders.get(i))
                .is_some_and(StoredOrder::waiting)
        });
        self.tpsl_legs.iter().copied().collect()
    }

    /// The waiting TPSL legs of the position `position_id`: the take-profit's id and trigger,
    /// the stop-loss's.
    pub(crate) fn position_tpsl(&self, position_id: u64) -> [Option<(u64, String)>; 2] {
        let mut legs = [None, None];
        for order in self.tpsl_legs.iter().filter_map(|id| self.get(*id)) {
            if let (Some(leg), Some(trigger)) = (order.tpsl, order.activation())
                && leg.position_id == position_id
                && order.waiting()
            {
                let at = usize::from(!leg.take_profit);
                if let Some(slot) = legs.get_mut(at) {
                    *slot = Some((order.id, trigger.text.clone()));
                }
            }
        }
        legs
    }

    /// The id the next OTO group gets, taken.
    pub(crate) fn new_oto_id(&mut self) -> u64 {
        let id = self.next_oto_id;
        self.next_oto_id = self.next_oto_id.saturating_add(1);
        id
    }

    /// The id the next order added gets.
    pub(crate) fn next_id(&self) -> u64 {
        let count = u64::try_from(self.orders.len()).unwrap_or(u64::MAX);
        FIRST_ORDER_ID.saturating_add(count)
    }

    /// The order `id`.
    pub(crate) fn get(&self, id: u64) -> Option<&StoredOrder> {
        let position = usize::try_from(id.checked_sub(FIRST_ORDER_ID)?).ok()?;
        self.orders.get(position)
    }

    /// Changes the order `id` by `change` (which must not change its id, key, market,
    /// `clientOrderId` or prices), keeping the indexes in step; the order as changed.
    pub(crate) fn update(
        &mut self,
        id: u64,
        change: impl FnOnce(&mut StoredOrder),
    ) -> Option<&StoredOrder> {
        self.change(id, change, None, &[])
    }

    /// Counts `execution` into the open order `id`, announced with its deal; the order as it
    /// now is.
    pub(crate) fn execute(&mut self, id: u64, execution: &Execution) -> Option<&StoredOrder> {
        self.change(
            id,
            |order| order.execute(execution),
            None,
            std::slice::from_ref(execution),
        )
    }

    /// Activates the waiting stop order `id` at `now_us` — announced as a new order, as the
    /// stream does ("an `event_id=1` (New) event for the now-active order").
    pub(crate) fn activate(
        &mut self,
        id: u64,
        now_us: u64,
        armed: Option<StoredOrder>,
    ) -> Option<&StoredOrder> {
        self.change(
            id,
            |order| {
                if let Some(armed) = armed {
                    *order = armed;
                }
                order.activated_us = Some(now_us);
                order.modified_us = now_us;
            },
            Some(OrderChange::New),
            &[],
        )
    }

    /// Applies `change` to the order `id`, refiles it, announces it (as `announced`, else by
    /// whether it is still open) with `deals`.
    fn change(
        &mut self,
        id: u64,
        change: impl FnOnce(&mut StoredOrder),
        announced: Option<OrderChange>,
        deals: &[Execution],
    ) -> Option<&StoredOrder> {
        let position = usize::try_from(id.checked_sub(FIRST_ORDER_ID)?).ok()?;
        let order = self.orders.get_mut(position)?;
        let (was_open, was_at) = (order.is_open(), order.slot());
        change(order);
        self.index.file(order, was_open, was_at);
        let kind = announced.unwrap_or(if order.is_open() {
            OrderChange::Updated
        } else {
            OrderChange::Finished
        });
        let order = self.orders.get(position)?;
        announce(&self.changes, &mut self.deals, kind, order, deals);
        Some(order)
    }

    /// Hands `order`'s change and its deals to the subscriber.
    fn announce(&mut self, change: OrderChange, order: &StoredOrder, deals: &[Execution]) {
        announce(&self.changes, &mut self.deals, change, order, deals);
    }

    /// Every deal.
    pub(crate) fn deals(&self) -> &DealLog {
        &self.deals
    }

    /// Every order, in id order.
    pub(crate) fn all(&self) -> &[StoredOrder] {
        &self.orders
    }

    /// The open order of `api_key` on `market` holding `client_order_id` (the older leg of an
    /// OCO), if any.
    pub(crate) fn open_with_client_id(
        &self,
        api_key: &str,
        market: &str,
        client_order_id: &str,
    ) -> Option<&StoredOrder> {
        let ids = self
            .index
            .open_client_ids(api_key, market, client_order_id)?;
        self.get(*ids.first()?)
    }

    /// `api_key`'s open order on `market` named by `which`.
    pub(crate) fn find_open(
        &self,
        api_key: &str,
        market: &str,
        which: &OrderRef,
    ) -> Option<&StoredOrder> {
        let order = match which {
            OrderRef::Id(id) => self.get(*id),
            OrderRef::ClientId(id) => self.open_with_client_id(api_key, market, id),
        }?;
        (order.is_open() && order.api_key == api_key && order.market() == market).then_some(order)
    }

    /// `api_key`'s open orders, or its finished ones (on `market`, when given), newest
    /// first.
    pub(crate) fn listed<'a>(
        &'a self,
        api_key: &str,
        market: Option<&str>,
        open: bool,
    ) -> impl Iterator<Item = &'a StoredOrder> + 'a {
        self.newest_first(self.index.lists(api_key, market).map(|l| l.get(open)))
    }

    /// Every order of `api_key` that carried `client_order_id`, open or not, newest first.
    pub(crate) fn carrying<'a>(
        &'a self,
        api_key: &str,
        client_order_id: &str,
    ) -> impl Iterator<Item = &'a StoredOrder> + 'a {
        self.newest_first(self.index.client_ids(api_key, client_order_id))
    }

    /// The ids, in id order, of the waiting stop orders on `market` that `price` activates.
    pub(crate) fn reached(&self, market: &str, price: Decimal) -> Vec<u64> {
        self.index
            .book(market)
            .map_or_else(Vec::new, |book| book.reached(price))
    }

    /// The first resting order of `side` on `market` in price-time priority: its price and
    /// id.
    pub(crate) fn best(&self, market: &str, side: Side) -> Option<(Decimal, u64)> {
        self.index.book(market)?.best(side)
    }

    /// The first resting order of `side` on `market` that `price` crosses.
    pub(crate) fn crossed(&self, market: &str, side: Side, price: Decimal) -> Option<u64> {
        self.index.book(market)?.crossed(side, price)
    }

    /// The order that opens the pending OTO group `oto_id`.
    pub(crate) fn pending_oto(&self, oto_id: u64) -> Option<u64> {
        self.pending_otos.get(&oto_id).copied()
    }

    /// Ends the pending OTO group `oto_id` (activated or canceled); the order that opened it.
    pub(crate) fn settle_oto(&mut self, oto_id: u64) -> Option<u64> {
        self.pending_otos.remove(&oto_id)
    }

    /// The id the next OCO gets, taken.
    pub(crate) fn new_oco_id(&mut self) -> u64 {
        let id = self.next_oco_id;
        self.next_oco_id = self.next_oco_id.saturating_add(1);
        id
    }

    /// Links the orders `a` and `b` (each the other's [`StoredOrder::linked`]), telling no
    /// one: nothing a record shows changes.
    pub(crate) fn link(&mut self, a: u64, b: u64) {
        for (one, other) in [(a, b), (b, a)] {
            let position = one
                .checked_sub(FIRST_ORDER_ID)
                .and_then(|p| usize::try_from(p).ok());
            if let Some(order) = position.and_then(|p| self.orders.get_mut(p)) {
                order.linked = Some(other);
            }
        }
    }

    /// Records the OCO `id`'s legs (again, when a leg was replaced).
    pub(crate) fn set_oco(&mut self, id: u64, legs: OcoLegs) {
        self.ocos.insert(id, legs);
    }

    /// The OCO `id`'s legs.
    pub(crate) fn oco(&self, id: u64) -> Option<OcoLegs> {
        self.ocos.get(&id).copied()
    }

    fn newest_first<'a>(
        &'a self,
        ids: Option<&'a BTreeSet<u64>>,
    ) -> impl Iterator<Item = &'a StoredOrder> + 'a {
        ids.into_iter()
            .flat_map(|ids| ids.iter().rev())
            .filter_map(|id| self.get(*id))
    }
}

/// Logs `order`'s `executions` in `deals` (each under the next deal id) and hands the change
/// to `changes` with its deals.
fn announce(
    changes: &Changes,
    deals: &mut DealLog,
    change: OrderChange,
    order: &StoredOrder,
    executions: &[Execution],
) {
    let deals = deals.log(order, executions);
    changes.emit(|| Change::Order {
        change,
        order: Box::new(order.clone()),
        deals,
    });
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use super::*;
    use crate::rules::{OrderRequest, Price};
    use crate::state::orders::stored::reached;
    use crate::wire::{OrderStatus, PositionSide, Side};

    const KEYS: [&str; 2] = ["a", "b"];
    const MARKETS: [&str; 2] = ["BTC_USDT", "ETH_USDT"];
    const CLIENT_IDS: [&str; 3] = ["x", "y", "z"];

    /// A change to the book.
    #[derive(Debug, Clone)]
    enum Step {
        /// Adds an order: key, market, client id, resting trigger or filled, side.
        Add(usize, usize, Option<usize>, bool, bool),
        /// Finishes the n-th order ever added, if it is open.
        Finish(usize),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (
                0..2usize,
                0..2usize,
                prop::option::of(0..3usize),
                any::<bool>(),
                any::<bool>()
            )
                .prop_map(|(k, m, c, open, buy)| Step::Add(k, m, c, open, buy)),
            (0..40usize).prop_map(Step::Finish),
        ]
    }

    fn order(
        key: usize,
        market: usize,
        client_id: Option<usize>,
        open: bool,
        buy: bool,
    ) -> StoredOrder {
        let price = |text: &str| Price {
            value: text.parse().unwrap_or_default(),
            text: text.to_owned(),
        };
        let request = OrderRequest {
            client_order_id: client_id.map(|c| CLIENT_IDS[c].to_owned()),
            activation: open.then(|| price("100")),
            ..OrderRequest::market(
                MARKETS[market],
                if buy { Side::Buy } else { Side::Sell },
                Decimal::ONE,
            )
        };
        let mut order = StoredOrder::new(KEYS[key], request, PositionSide::Both, 0, 0);
        if !open {
            order.status = OrderStatus::Filled;
        }
        order
    }

    fn ids<'a>(orders: impl Iterator<Item = &'a StoredOrder>) -> Vec<u64> {
        orders.map(|o| o.id).collect()
    }

    proptest! {
        /// Every indexed look-up answers what a walk over every order answers.
        #[test]
        fn the_indexes_agree_with_a_walk(steps in prop::collection::vec(step(), 0..60)) {
            let mut book = OrderStore::default();
            for step in steps {
                match step {
                    Step::Add(k, m, c, open, buy) => {
                        // Open orders keep their client ids unique per key and market, as
                        // placement checks.
                        let taken = c.is_some_and(|c| {
                            book.open_with_client_id(KEYS[k], MARKETS[m], CLIENT_IDS[c]).is_some()
                        });
                        let c = if taken { None } else { c };
                        prop_assert!(book.add(order(k, m, c, open, buy), &[]).is_some());
                    }
                    Step::Finish(n) => {
                        let id = FIRST_ORDER_ID + n as u64;
                        if book.get(id).is_some_and(StoredOrder::is_open) {
                            book.update(id, |o| o.status = OrderStatus::Canceled);
                        }
                    }
                }
            }
            let all = book.all();
            for (i, order) in all.iter().enumerate() {
                prop_assert_eq!(book.get(order.id).map(|o| o.id), Some(order.id));
                prop_assert_eq!(order.id, FIRST_ORDER_ID + i as u64);
            }
            let walk = |keep: &dyn Fn(&StoredOrder) -> bool| -> Vec<u64> {
                all.iter().rev().filter(|o| keep(o)).map(|o| o.id).collect()
            };
            for key in KEYS {
                for market in [None, Some(MARKETS[0]), Some(MARKETS[1])] {
                    let here = |o: &StoredOrder| {
                        o.api_key == key && market.is_none_or(|m| o.market() == m)
                    };
                    for open in [true, false] {
                        prop_assert_eq!(
                            ids(book.listed(key, market, open)),
                            walk(&|o| here(o) && o.is_open() == open)
                        );
                    }
                }
                for client_id in CLIENT_IDS {
                    prop_assert_eq!(
                        ids(book.carrying(key, client_id)),
                        walk(&|o| o.api_key == key && o.client_order_id() == Some(client_id))
                    );
                    for market in MARKETS {
                        let open = walk(&|o| {
                            o.api_key == key
                                && o.market() == market
                                && o.is_open()
                                && o.client_order_id() == Some(client_id)
                        });
                        prop_assert!(open.len() <= 1);
                        prop_assert_eq!(
                            book.open_with_client_id(key, market, client_id).map(|o| o.id),
                            open.first().copied()
                        );
                        let which = OrderRef::ClientId(client_id.to_owned());
                        prop_assert_eq!(
                            book.find_open(key, market, &which).map(|o| o.id),
                            open.first().copied()
                        );
                    }
                }
            }
            for market in MARKETS {
                for price in ["99", "100", "101"] {
                    let price: Decimal = price.parse().unwrap_or_default();
                    let mut expected = walk(&|o| {
                        o.is_open()
                            && o.market() == market
                            && o.activation().is_some_and(|a| reached(o.request.trigger_side(), price, a.value))
                    });
                    expected.reverse();
                    prop_assert_eq!(book.reached(market, price), expected);
                }
            }
        }
    }
}
