//! [`RuledOrder`]: what the market rules read of an order, for every order request.

use crate::orders::{
    CollateralBboOrder, CollateralBulkOrder, CollateralLimitOrder, CollateralMarketOrder,
    CollateralOcoOrder, CollateralStopBboOrder, CollateralStopLimitOrder,
    CollateralTriggerMarketOrder, ModifyOrder, OrderFields, Side,
};
use crate::socket::CollateralTpslOrder;
use crate::values::{Amount, Market, Price, Total};

/// What the market rules read of an order, or of one item of a bulk order: its market, side,
/// amount, prices (each with its wire field), the prices a total (amount × price) is taken at,
/// and a total given outright.
///
/// Which prices make a total: the limit prices — a limit or stop-limit order's `price`, both
/// legs of an OCO pair (`price`, `stop_limit_price`), a modify's `price` when it also sets the
/// amount. A market or trigger-market order executes at a price no request names, so its total
/// is not checked (nothing is guessed); its amount and prices are.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OrderPart<'a> {
    /// The item's index in a bulk order; `None` for an order of its own.
    pub item: Option<usize>,
    /// The market.
    pub market: &'a Market,
    /// The side, when the request has one (a modify has none).
    pub side: Option<Side>,
    /// The amount, in the stock currency (a modify may leave it unchanged).
    pub amount: Option<&'a Amount>,
    /// Every price, with its wire field, in wire order.
    pub prices: Vec<(&'static str, &'a Price)>,
    /// The wire fields of the prices a total is taken at.
    pub total_at: Vec<&'static str>,
    /// A total given outright, in the money currency (a modify's `total`).
    pub total: Option<&'a Total>,
}

impl<'a> OrderPart<'a> {
    /// The part of an order with `fields`, its own prices, and the prices its total is taken
    /// at; the stop-loss and take-profit prices come after its own.
    fn of(
        fields: &'a OrderFields,
        own: &[(&'static str, &'a Price)],
        total_at: &[&'static str],
    ) -> Self {
        let mut prices = own.to_vec();
        prices.extend(fields.stop_loss().map(|p| ("stopLoss", p)));
        prices.extend(fields.take_profit().map(|p| ("takeProfit", p)));
        Self {
            item: None,
            market: fields.market(),
            side: Some(fields.side()),
            amount: Some(fields.amount()),
            prices,
            total_at: total_at.to_vec(),
            total: None,
        }
    }

    /// The price of the wire field `field`, if the part has it.
    pub fn price(&self, field: &str) -> Option<&'a Price> {
        self.prices
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, price)| *price)
    }
}

/// An order request the market rules apply to — every order request of this crate (sealed):
/// the market, trigger-market, limit, stop-limit, BBO, stop-BBO, bulk and OCO orders, modify,
/// and the socket's TPSL pair.
pub trait RuledOrder: crate::sealed::Sealed {
    /// What the rules read: one part for an order, one per item for a bulk order.
    fn parts(&self) -> Vec<OrderPart<'_>>;
}

impl RuledOrder for CollateralMarketOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        vec![OrderPart::of(self.fields(), &[], &[])]
    }
}

impl RuledOrder for CollateralTriggerMarketOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        let own = [("activation_price", self.activation_price())];
        vec![OrderPart::of(self.fields(), &own, &[])]
    }
}

impl RuledOrder for CollateralLimitOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        vec![OrderPart::of(
            self.fields(),
            &[("price", self.terms().price())],
            &["price"],
        )]
    }
}

impl RuledOrder for CollateralStopLimitOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        let terms = self.terms();
        let own = [
            ("price", terms.price()),
            ("activation_price", terms.activation_price()),
        ];
        vec![OrderPart::of(self.fields(), &own, &["price"])]
    }
}

impl RuledOrder for CollateralBboOrder {
    /// Priced from the book when it executes: its amount is checked, no total.
    fn parts(&self) -> Vec<OrderPart<'_>> {
        vec![OrderPart::of(self.fields(), &[], &[])]
    }
}

impl RuledOrder for CollateralStopBboOrder {
    /// Priced from the book once triggered: its amount and activation price are checked, no
    /// total.
    fn parts(&self) -> Vec<OrderPart<'_>> {
        let terms = crate::orders::BuildableOrder::parts(self).1;
        let own = [("activation_price", terms.activation_price())];
        vec![OrderPart::of(self.fields(), &own, &[])]
    }
}

impl RuledOrder for CollateralTpslOrder {
    /// Two trigger prices on a position (sized by the position when they trigger): the prices
    /// are checked, no amount, no total.
    fn parts(&self) -> Vec<OrderPart<'_>> {
        let prices = [
            self.take_profit()
                .map(|p| ("take_profit_activation_price", p)),
            self.stop_loss().map(|p| ("stop_loss_activation_price", p)),
        ]
        .into_iter()
        .flatten()
        .collect();
        vec![OrderPart {
            item: None,
            market: self.market(),
            side: None,
            amount: None,
            prices,
            total_at: Vec::new(),
            total: None,
        }]
    }
}

impl RuledOrder for CollateralBulkOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        self.orders()
            .iter()
            .enumerate()
            .flat_map(|(index, order)| {
                order.parts().into_iter().map(move |part| OrderPart {
                    item: Some(index),
                    ..part
                })
            })
            .collect()
    }
}

impl RuledOrder for CollateralOcoOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        vec![OrderPart {
            item: None,
            market: self.market(),
            side: Some(self.side()),
            amount: Some(self.amount()),
            prices: vec![
                ("price", self.price()),
                ("activation_price", self.activation_price()),
                ("stop_limit_price", self.stop_limit_price()),
            ],
            total_at: vec!["price", "stop_limit_price"],
            total: None,
        }]
    }
}

impl RuledOrder for ModifyOrder {
    fn parts(&self) -> Vec<OrderPart<'_>> {
        let prices: Vec<_> = [
            self.price().map(|p| ("price", p)),
            self.activation_price().map(|p| ("activationPrice", p)),
        ]
        .into_iter()
        .flatten()
        .collect();
        let total_at = if self.amount().is_some() && self.price().is_some() {
            vec!["price"]
        } else {
            Vec::new()
        };
        vec![OrderPart {
            item: None,
            market: self.market(),
            side: None,
            amount: self.amount(),
            prices,
            total_at,
            total: self.total(),
        }]
    }
}
