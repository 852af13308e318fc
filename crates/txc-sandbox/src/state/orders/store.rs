//! [`OrderStore`]: every accepted order, and the indexes every look-up goes through, so that
//! no request walks the whole history. (The store of record, not a matching book: a market's
//! book of resting limit orders in price-time priority would stand beside it, in `book.rs`.)
//!
//! Orders are stored by id (ids are dense, so the id is the position). The indexes, per API
//! key: its open and its finished orders, by id; the same per market; per market, the open
//! order holding each `clientOrderId` (unique among open orders); every order that ever
//! carried each `clientOrderId`. Per market: the open trigger orders, which a price move
//! checks. An order changes only through [`OrderStore::add`] and [`OrderStore::update`], which
//! keep the indexes in step — and hand every change to the state's subscriber
//! ([`crate::state::Changes`]) — the one place to hang a new index (conditional orders, a kill
//! switch's "every open order of the account") on.

use std::collections::{BTreeSet, HashMap};

use rust_decimal::Decimal;

use super::stored::{StoredOrder, reached};
use crate::rules::OrderRef;
use crate::state::changes::{Change, Changes, OrderChange};
use crate::wire::OrderStatus;

/// The first order id of a fresh sandbox (realistic: ids on the exchange are ~4·10⁹).
pub(crate) const FIRST_ORDER_ID: u64 = 4_180_300_001;
/// The first OTO id of a fresh sandbox.
pub(crate) const FIRST_OTO_ID: u64 = 29_457_301;
/// The first deal id of a fresh sandbox.
pub(crate) const FIRST_DEAL_ID: u64 = 13_674_500_001;

/// Every accepted order and its indexes.
#[derive(Debug)]
pub(crate) struct OrderStore {
    /// By `id − FIRST_ORDER_ID`.
    orders: Vec<StoredOrder>,
    next_oto_id: u64,
    next_deal_id: u64,
    index: Index,
    /// Where every change goes.
    changes: Changes,
}

/// The ids of the orders, by what the look-ups ask.
#[derive(Debug, Default)]
struct Index {
    /// By API key.
    accounts: HashMap<String, AccountOrders>,
    /// The open trigger orders of each market.
    triggers: HashMap<String, BTreeSet<u64>>,
}

/// Ids of open and of finished orders.
#[derive(Debug, Default)]
struct Lists {
    open: BTreeSet<u64>,
    finished: BTreeSet<u64>,
}

impl Lists {
    /// The open ids, or the finished ones.
    fn get(&self, open: bool) -> &BTreeSet<u64> {
        if open { &self.open } else { &self.finished }
    }

    /// Files `id` under open or finished, and out of the other.
    fn file(&mut self, id: u64, open: bool) {
        let (to, from) = if open {
            (&mut self.open, &mut self.finished)
        } else {
            (&mut self.finished, &mut self.open)
        };
        from.remove(&id);
        to.insert(id);
    }
}

/// One API key's orders.
#[derive(Debug, Default)]
struct AccountOrders {
    lists: Lists,
    /// By market.
    markets: HashMap<String, MarketOrders>,
    /// Every order that carried each `clientOrderId`, on any market.
    client_ids: HashMap<String, BTreeSet<u64>>,
}

/// One API key's orders on one market.
#[derive(Debug, Default)]
struct MarketOrders {
    lists: Lists,
    /// The open order holding each `clientOrderId`.
    open_client_ids: HashMap<String, u64>,
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
            next_deal_id: FIRST_DEAL_ID,
            index: Index::default(),
            changes,
        }
    }

    /// Stores an accepted order under the next id, and the next OTO id when `oto`.
    pub(crate) fn add(&mut self, mut order: StoredOrder, oto: bool) -> Option<&StoredOrder> {
        let count = u64::try_from(self.orders.len()).unwrap_or(u64::MAX);
        order.id = FIRST_ORDER_ID.saturating_add(count);
        order.oto_id = oto.then(|| {
            let id = self.next_oto_id;
            self.next_oto_id = self.next_oto_id.saturating_add(1);
            id
        });
        self.index.add(&order);
        let change = if order.is_open() {
            OrderChange::New
        } else {
            OrderChange::Finished
        };
        announce(&self.changes, &mut self.next_deal_id, change, &order);
        self.orders.push(order);
        self.orders.last()
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

    /// Changes the order `id` by `change` (which must not change its id, key, market or
    /// `clientOrderId`), keeping the indexes in step; the order as changed.
    pub(crate) fn update(
        &mut self,
        id: u64,
        change: impl FnOnce(&mut StoredOrder),
    ) -> Option<&StoredOrder> {
        let position = usize::try_from(id.checked_sub(FIRST_ORDER_ID)?).ok()?;
        let order = self.orders.get_mut(position)?;
        let was_open = order.is_open();
        change(order);
        if order.is_open() != was_open {
            self.index.file(order);
        }
        let kind = if order.is_open() {
            OrderChange::Updated
        } else {
            OrderChange::Finished
        };
        announce(&self.changes, &mut self.next_deal_id, kind, order);
        self.orders.get(position)
    }

    /// Every order, in id order.
    pub(crate) fn all(&self) -> &[StoredOrder] {
        &self.orders
    }

    /// The open order of `api_key` on `market` holding `client_order_id`, if any.
    pub(crate) fn open_with_client_id(
        &self,
        api_key: &str,
        market: &str,
        client_order_id: &str,
    ) -> Option<&StoredOrder> {
        let id = self
            .index
            .market(api_key, market)?
            .open_client_ids
            .get(client_order_id)?;
        self.get(*id)
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
        let ids = self
            .index
            .accounts
            .get(api_key)
            .and_then(|a| a.client_ids.get(client_order_id));
        self.newest_first(ids)
    }

    /// The ids, in id order, of the open trigger orders on `market` that `price` activates.
    pub(crate) fn reached(&self, market: &str, price: Decimal) -> Vec<u64> {
        let Some(ids) = self.index.triggers.get(market) else {
            return Vec::new();
        };
        ids.iter()
            .filter(|id| {
                self.get(**id).is_some_and(|o| {
                    o.activation()
                        .is_some_and(|a| reached(o.request.side, price, a.value))
                })
            })
            .copied()
            .collect()
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

impl Index {
    fn market(&self, api_key: &str, market: &str) -> Option<&MarketOrders> {
        self.accounts.get(api_key)?.markets.get(market)
    }

    /// `api_key`'s lists, on `market` when given.
    fn lists(&self, api_key: &str, market: Option<&str>) -> Option<&Lists> {
        match market {
            Some(market) => self.market(api_key, market).map(|m| &m.lists),
            None => self.accounts.get(api_key).map(|a| &a.lists),
        }
    }

    /// Adds a new order.
    fn add(&mut self, order: &StoredOrder) {
        if let Some(client_id) = order.client_order_id() {
            let account = entry(&mut self.accounts, &order.api_key);
            entry(&mut account.client_ids, client_id).insert(order.id);
        }
        self.file(order);
    }

    /// Files `order` under open or finished, as it now is.
    fn file(&mut self, order: &StoredOrder) {
        let (id, open) = (order.id, order.is_open());
        let account = entry(&mut self.accounts, &order.api_key);
        account.lists.file(id, open);
        let market = entry(&mut account.markets, order.market());
        market.lists.file(id, open);
        if let Some(client_id) = order.client_order_id() {
            if open {
                market.open_client_ids.insert(client_id.to_owned(), id);
            } else if market.open_client_ids.get(client_id) == Some(&id) {
                market.open_client_ids.remove(client_id);
            }
        }
        if order.activation().is_some() {
            let triggers = entry(&mut self.triggers, order.market());
            if open {
                triggers.insert(id);
            } else {
                triggers.remove(&id);
            }
        }
    }
}

/// Hands `order`'s change to `changes`, with the next deal id of `next_deal_id` when it just
/// filled (deal ids are counted whether anyone listens or not).
fn announce(changes: &Changes, next_deal_id: &mut u64, change: OrderChange, order: &StoredOrder) {
    let deal_id = (change == OrderChange::Finished
        && order.status == OrderStatus::Filled
        && !order.deal_stock.is_zero())
    .then(|| {
        let id = *next_deal_id;
        *next_deal_id = next_deal_id.saturating_add(1);
        id
    });
    changes.emit(|| Change::Order {
        change,
        order: Box::new(order.clone()),
        deal_id,
    });
}

/// The value under `key`, created empty if missing.
fn entry<'a, V: Default>(map: &'a mut HashMap<String, V>, key: &str) -> &'a mut V {
    map.entry(key.to_owned()).or_default()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use super::*;
    use crate::rules::{OrderRequest, Price};
    use crate::wire::{OrderStatus, PositionSide, Side, Stp};

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
        StoredOrder {
            id: 0,
            api_key: KEYS[key].to_owned(),
            request: OrderRequest {
                market: MARKETS[market].to_owned(),
                side: if buy { Side::Buy } else { Side::Sell },
                amount: Decimal::ONE,
                client_order_id: client_id.map(|c| CLIENT_IDS[c].to_owned()),
                stop_loss: None,
                take_profit: None,
                position_side: None,
                reduce_only: false,
                stp: Stp::default(),
                activation: open.then(|| price("100")),
            },
            position_side: PositionSide::Both,
            amount: Decimal::ONE,
            oto_id: None,
            status: if open {
                OrderStatus::Open
            } else {
                OrderStatus::Filled
            },
            deal_money: Decimal::ZERO,
            deal_stock: Decimal::ZERO,
            deal_fee: Decimal::ZERO,
            created_us: 0,
            activated_us: None,
            finished_us: None,
            visible_from_us: 0,
        }
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
                        prop_assert!(book.add(order(k, m, c, open, buy), false).is_some());
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
                            && o.activation().is_some_and(|a| reached(o.request.side, price, a.value))
                    });
                    expected.reverse();
                    prop_assert_eq!(book.reached(market, price), expected);
                }
            }
        }
    }
}
