//! [`Index`]: the ids of the orders by what the look-ups and the matching ask, kept in step by
//! the store ([`super::OrderStore`]) on every change.
//!
//! Per API key: its open and its finished orders, by id; the same per market; per market, the
//! open orders holding each `clientOrderId` (one, or an OCO's two legs); every order that ever
//! carried each `clientOrderId`. Per market: the book ([`Book`]) of resting limit orders and
//! waiting stop orders.

use std::collections::{BTreeSet, HashMap};

use super::book::{Book, Slot};
use super::stored::StoredOrder;

/// The ids of the orders, by what the look-ups ask.
#[derive(Debug, Default)]
pub(super) struct Index {
    /// By API key.
    accounts: HashMap<String, AccountOrders>,
    /// Each market's book.
    books: HashMap<String, Book>,
}

/// Ids of open and of finished orders.
#[derive(Debug, Default)]
pub(super) struct Lists {
    open: BTreeSet<u64>,
    finished: BTreeSet<u64>,
}

impl Lists {
    /// The open ids, or the finished ones.
    pub(super) fn get(&self, open: bool) -> &BTreeSet<u64> {
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
    /// The open orders holding each `clientOrderId`: one, or the two legs of an OCO.
    open_client_ids: HashMap<String, BTreeSet<u64>>,
}

impl Index {
    /// The open orders of `api_key` on `market` holding `client_order_id`, oldest first.
    pub(super) fn open_client_ids(
        &self,
        api_key: &str,
        market: &str,
        client_order_id: &str,
    ) -> Option<&BTreeSet<u64>> {
        self.accounts
            .get(api_key)?
            .markets
            .get(market)?
            .open_client_ids
            .get(client_order_id)
    }

    /// Every order of `api_key` that carried `client_order_id`.
    pub(super) fn client_ids(
        &self,
        api_key: &str,
        client_order_id: &str,
    ) -> Option<&BTreeSet<u64>> {
        self.accounts.get(api_key)?.client_ids.get(client_order_id)
    }

    /// `api_key`'s lists, on `market` when given.
    pub(super) fn lists(&self, api_key: &str, market: Option<&str>) -> Option<&Lists> {
        let account = self.accounts.get(api_key)?;
        match market {
            Some(market) => account.markets.get(market).map(|m| &m.lists),
            None => Some(&account.lists),
        }
    }

    /// `market`'s book, if any order ever rested there.
    pub(super) fn book(&self, market: &str) -> Option<&Book> {
        self.books.get(market)
    }

    /// Adds a new order.
    pub(super) fn add(&mut self, order: &StoredOrder) {
        if let Some(client_id) = order.client_order_id() {
            let account = entry(&mut self.accounts, &order.api_key);
            entry(&mut account.client_ids, client_id).insert(order.id);
        }
        self.file_lists(order);
        self.file_slot(order, Slot::Out);
    }

    /// Files `order` as it now is, after a change from `was_open` and `was_at`.
    pub(super) fn file(&mut self, order: &StoredOrder, was_open: bool, was_at: Slot) {
        self.file_slot(order, was_at);
        if order.is_open() != was_open {
            self.file_lists(order);
        }
    }

    /// Moves `order` in its market's book from `was_at` to where it now sits.
    fn file_slot(&mut self, order: &StoredOrder, was_at: Slot) {
        let slot = order.slot();
        if slot != was_at {
            let book = entry(&mut self.books, order.market());
            book.remove(order.id, was_at);
            book.insert(order.id, slot);
        }
    }

    /// Files `order` under open or finished, and its `clientOrderId` among the open ones or
    /// out of them.
    fn file_lists(&mut self, order: &StoredOrder) {
        let (id, open) = (order.id, order.is_open());
        let account = entry(&mut self.accounts, &order.api_key);
        account.lists.file(id, open);
        let market = entry(&mut account.markets, order.market());
        market.lists.file(id, open);
        if let Some(client_id) = order.client_order_id() {
            if open {
                entry(&mut market.open_client_ids, client_id).insert(id);
            } else if let Some(ids) = market.open_client_ids.get_mut(client_id) {
                ids.remove(&id);
                if ids.is_empty() {
                    market.open_client_ids.remove(client_id);
                }
            }
        }
    }
}

/// The value under `key`, created empty if missing.
fn entry<'a, V: Default>(map: &'a mut HashMap<String, V>, key: &str) -> &'a mut V {
    map.entry(key.to_owned()).or_default()
}
