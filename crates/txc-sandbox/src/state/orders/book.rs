//! [`Book`]: one market's order book — its resting limit orders in price-time priority, and
//! its stop orders waiting for their activation price — as ordered sets of `(price, id)`, so
//! that the best order, the orders a price crosses and the stops a price reaches are found in
//! `O(log n)` plus what is found, whatever the book's depth. Ids grow with time, so within a
//! price the lower id came first.
//!
//! The book holds ids only; the orders are the store's ([`super::OrderStore`]), which files an
//! order here (and out) whenever it changes what it is: resting, waiting, or neither
//! ([`Slot`]).

use std::cmp::Reverse;
use std::collections::BTreeSet;

use rust_decimal::Decimal;

use crate::wire::Side;

/// Where an order sits in its market's book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Nowhere: executed, canceled, or a market order.
    Out,
    /// Resting: a limit order (or an activated stop-limit order) of this side at this price.
    Resting(Side, Decimal),
    /// Waiting: a stop order of this side activating at this price.
    Waiting(Side, Decimal),
}

/// One market's book.
#[derive(Debug, Default)]
pub(crate) struct Book {
    /// Best (highest) first, then oldest.
    bids: BTreeSet<(Reverse<Decimal>, u64)>,
    /// Best (lowest) first, then oldest.
    asks: BTreeSet<(Decimal, u64)>,
    /// Buy stops: activated by a price at or above theirs.
    buy_stops: BTreeSet<(Decimal, u64)>,
    /// Sell stops: activated by a price at or below theirs; highest first.
    sell_stops: BTreeSet<(Reverse<Decimal>, u64)>,
}

impl Book {
    /// Files `id` at `slot`.
    pub(crate) fn insert(&mut self, id: u64, slot: Slot) {
        match slot {
            Slot::Out => {}
            Slot::Resting(Side::Buy, price) => {
                self.bids.insert((Reverse(price), id));
            }
            Slot::Resting(Side::Sell, price) => {
                self.asks.insert((price, id));
            }
            Slot::Waiting(Side::Buy, price) => {
                self.buy_stops.insert((price, id));
            }
            Slot::Waiting(Side::Sell, price) => {
                self.sell_stops.insert((Reverse(price), id));
            }
        }
    }

    /// Takes `id` out of `slot`.
    pub(crate) fn remove(&mut self, id: u64, slot: Slot) {
        match slot {
            Slot::Out => {}
            Slot::Resting(Side::Buy, price) => {
                self.bids.remove(&(Reverse(price), id));
            }
            Slot::Resting(Side::Sell, price) => {
                self.asks.remove(&(price, id));
            }
            Slot::Waiting(Side::Buy, price) => {
                self.buy_stops.remove(&(price, id));
            }
            Slot::Waiting(Side::Sell, price) => {
                self.sell_stops.remove(&(Reverse(price), id));
            }
        }
    }

    /// The first resting order of `side` in price-time priority: its price and id.
    pub(crate) fn best(&self, side: Side) -> Option<(Decimal, u64)> {
        match side {
            Side::Buy => self.bids.first().map(|(Reverse(p), id)| (*p, *id)),
            Side::Sell => self.asks.first().map(|(p, id)| (*p, *id)),
        }
    }

    /// The first resting order of `side` that `price` crosses — a bid at or above it, an ask at
    /// or below it — in price-time priority.
    pub(crate) fn crossed(&self, side: Side, price: Decimal) -> Option<u64> {
        self.best(side)
            .filter(|(at, _)| crosses(side, *at, price))
            .map(|(_, id)| id)
    }

    /// The ids of the stops `price` activates (buy at or above, sell at or below), in id
    /// order.
    pub(crate) fn reached(&self, price: Decimal) -> Vec<u64> {
        let buys = self
            .buy_stops
            .range(..=(price, u64::MAX))
            .map(|(_, id)| *id);
        let sells = self
            .sell_stops
            .range(..=(Reverse(price), u64::MAX))
            .map(|(_, id)| *id);
        let mut ids: Vec<u64> = buys.chain(sells).collect();
        ids.sort_unstable();
        ids
    }
}

/// Whether a resting order of `side` at `at` is crossed by `price`: a bid at or above it, an
/// ask at or below it.
pub(crate) fn crosses(side: Side, at: Decimal, price: Decimal) -> bool {
    match side {
        Side::Buy => at >= price,
        Side::Sell => at <= price,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn d(n: i64) -> Decimal {
        Decimal::from(n)
    }

    #[test]
    fn price_then_time() {
        let mut book = Book::default();
        book.insert(3, Slot::Resting(Side::Buy, d(100)));
        book.insert(1, Slot::Resting(Side::Buy, d(99)));
        book.insert(2, Slot::Resting(Side::Buy, d(100)));
        book.insert(4, Slot::Resting(Side::Sell, d(101)));
        book.insert(5, Slot::Resting(Side::Sell, d(102)));
        assert_eq!(
            book.best(Side::Buy),
            Some((d(100), 2)),
            "the older at the best price"
        );
        assert_eq!(book.best(Side::Sell), Some((d(101), 4)));
        assert_eq!(book.crossed(Side::Buy, d(100)), Some(2));
        assert_eq!(book.crossed(Side::Buy, d(101)), None);
        assert_eq!(book.crossed(Side::Sell, d(101)), Some(4));
        book.remove(2, Slot::Resting(Side::Buy, d(100)));
        assert_eq!(book.best(Side::Buy), Some((d(100), 3)));
    }

    #[test]
    fn stops_by_their_price() {
        let mut book = Book::default();
        book.insert(7, Slot::Waiting(Side::Buy, d(110)));
        book.insert(6, Slot::Waiting(Side::Buy, d(105)));
        book.insert(8, Slot::Waiting(Side::Sell, d(90)));
        book.insert(9, Slot::Waiting(Side::Sell, d(95)));
        assert_eq!(book.reached(d(100)), Vec::<u64>::new());
        assert_eq!(book.reached(d(105)), vec![6]);
        assert_eq!(book.reached(d(120)), vec![6, 7]);
        assert_eq!(book.reached(d(95)), vec![9]);
        assert_eq!(book.reached(d(80)), vec![8, 9]);
    }
}
