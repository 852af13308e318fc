//! The private [`Channel`]s of the exchange's WebSocket and the [`Subscription`]s a stream
//! keeps: which methods subscribe, unsubscribe and update, and the parameters each takes.

use serde_json::{Value, json};
use txc_types::endpoint::FieldValue;
use txc_types::values::{Market, Ticker};

use super::config_error::StreamConfigError;

/// A private channel of the exchange's WebSocket (`wss://…/ws`). Each has a `_subscribe`,
/// an `_unsubscribe` (parameters `[]`) and an `_update` method of the same stem.
///
/// ```
/// use txc_core::stream::Channel;
/// assert_eq!(Channel::Positions.subscribe_method(), "positionsMargin_subscribe");
/// assert_eq!(Channel::from_update_method("deals_update"), Some(Channel::Deals));
/// assert_eq!(Channel::from_update_method("lastprice_update"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Channel {
    /// `ordersPending_*`: active orders of some markets, as they are placed (event 1),
    /// changed (2) and finished — filled or canceled (3).
    OrdersPending,
    /// `ordersExecuted_*`: orders of some markets as they execute.
    OrdersExecuted,
    /// `deals_*`: the account's trades in some markets.
    Deals,
    /// `balanceMargin_*`: the collateral balance of some assets (about every 1.5 s).
    BalanceMargin,
    /// `positionsMargin_*`: every open position (about every second, the full set).
    Positions,
    /// `positionsAccountMargin_*`: margin calls (event 1) and liquidations (2).
    PositionEvents,
}

impl Channel {
    /// Every channel, in the order the machine subscribes them.
    pub const ALL: [Channel; 6] = [
        Self::OrdersPending,
        Self::OrdersExecuted,
        Self::Deals,
        Self::BalanceMargin,
        Self::Positions,
        Self::PositionEvents,
    ];

    /// The method that subscribes, e.g. `ordersPending_subscribe`.
    pub const fn subscribe_method(self) -> &'static str {
        self.methods().0
    }

    /// The method that unsubscribes, e.g. `ordersPending_unsubscribe` (parameters `[]`).
    pub const fn unsubscribe_method(self) -> &'static str {
        self.methods().1
    }

    /// The method of the server's updates, e.g. `ordersPending_update`.
    pub const fn update_method(self) -> &'static str {
        self.methods().2
    }

    /// The channel whose updates carry `method`; `None` for any other method.
    pub fn from_update_method(method: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.update_method() == method)
    }

    const fn methods(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Self::OrdersPending => (
                "ordersPending_subscribe",
                "ordersPending_unsubscribe",
                "ordersPending_update",
            ),
            Self::OrdersExecuted => (
                "ordersExecuted_subscribe",
                "ordersExecuted_unsubscribe",
                "ordersExecuted_update",
            ),
            Self::Deals => ("deals_subscribe", "deals_unsubscribe", "deals_update"),
            Self::BalanceMargin => (
                "balanceMargin_subscribe",
                "balanceMargin_unsubscribe",
                "balanceMargin_update",
            ),
            Self::Positions => (
                "positionsMargin_subscribe",
                "positionsMargin_unsubscribe",
                "positionsMargin_update",
            ),
            Self::PositionEvents => (
                "positionsAccountMargin_subscribe",
                "positionsAccountMargin_unsubscribe",
                "positionsAccountMargin_update",
            ),
        }
    }
}

impl std::fmt::Display for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let subscribe = self.subscribe_method();
        f.write_str(subscribe.strip_suffix("_subscribe").unwrap_or(subscribe))
    }
}

/// Which executed orders `ordersExecuted_subscribe` reports (its second parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ExecutedFilter {
    /// `0`: limit and market orders.
    #[default]
    LimitAndMarket,
    /// `1`: limit orders only.
    Limit,
    /// `2`: market orders only.
    Market,
}

impl ExecutedFilter {
    /// The number on the wire.
    pub const fn code(self) -> u8 {
        match self {
            Self::LimitAndMarket => 0,
            Self::Limit => 1,
            Self::Market => 2,
        }
    }
}

/// One channel and its parameters: what the stream subscribes after every (re)connection.
///
/// Built from validated markets and tickers; repeated ones are sent once. A market channel
/// needs at least one market and the balance channel at least one asset (the docs do not
/// say what an empty list would mean).
///
/// ```
/// use txc_core::stream::{Channel, ExecutedFilter, Subscription};
/// let executed = Subscription::orders_executed(["BTC_USDT", "ETH_BTC"], ExecutedFilter::LimitAndMarket)?;
/// assert_eq!(executed.channel(), Channel::OrdersExecuted);
/// assert_eq!(executed.params().to_string(), r#"[["BTC_USDT","ETH_BTC"],0]"#);
/// assert!(Subscription::deals(Vec::<&str>::new()).is_err());
/// assert!(Subscription::deals(["btc usdt"]).is_err());
/// # Ok::<(), txc_core::stream::StreamConfigError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    OrdersPending(Vec<Market>),
    OrdersExecuted(Vec<Market>, ExecutedFilter),
    Deals(Vec<Market>),
    BalanceMargin(Vec<Ticker>),
    Positions,
    PositionEvents,
}

impl Subscription {
    /// Active orders of `markets`: `ordersPending_subscribe` with `["BTC_USDT", …]`.
    pub fn orders_pending<M: FieldValue<Market>>(
        markets: impl IntoIterator<Item = M>,
    ) -> Result<Self, StreamConfigError> {
        Ok(Self::of(Kind::OrdersPending(list(markets, "markets")?)))
    }

    /// Executed orders of `markets`: `ordersExecuted_subscribe` with
    /// `[["BTC_USDT", …], filter]`.
    pub fn orders_executed<M: FieldValue<Market>>(
        markets: impl IntoIterator<Item = M>,
        filter: ExecutedFilter,
    ) -> Result<Self, StreamConfigError> {
        Ok(Self::of(Kind::OrdersExecuted(
            list(markets, "markets")?,
            filter,
        )))
    }

    /// The account's trades in `markets`: `deals_subscribe` with `[["BTC_USDT", …]]`.
    pub fn deals<M: FieldValue<Market>>(
        markets: impl IntoIterator<Item = M>,
    ) -> Result<Self, StreamConfigError> {
        Ok(Self::of(Kind::Deals(list(markets, "markets")?)))
    }

    /// The collateral balance of `assets`: `balanceMargin_subscribe` with `["BTC", …]`.
    pub fn balance_margin<T: FieldValue<Ticker>>(
        assets: impl IntoIterator<Item = T>,
    ) -> Result<Self, StreamConfigError> {
        Ok(Self::of(Kind::BalanceMargin(list(assets, "assets")?)))
    }

    /// Every open position: `positionsMargin_subscribe` with `[]`.
    pub fn positions() -> Self {
        Self::of(Kind::Positions)
    }

    /// Margin calls and liquidations: `positionsAccountMargin_subscribe` with `[]`.
    pub fn position_events() -> Self {
        Self::of(Kind::PositionEvents)
    }

    fn of(kind: Kind) -> Self {
        Self { kind }
    }

    /// The channel.
    pub fn channel(&self) -> Channel {
        match self.kind {
            Kind::OrdersPending(_) => Channel::OrdersPending,
            Kind::OrdersExecuted(..) => Channel::OrdersExecuted,
            Kind::Deals(_) => Channel::Deals,
            Kind::BalanceMargin(_) => Channel::BalanceMargin,
            Kind::Positions => Channel::Positions,
            Kind::PositionEvents => Channel::PositionEvents,
        }
    }

    /// The markets of a market channel; empty for the others.
    pub fn markets(&self) -> &[Market] {
        match &self.kind {
            Kind::OrdersPending(m) | Kind::OrdersExecuted(m, _) | Kind::Deals(m) => m,
            _ => &[],
        }
    }

    /// The assets of the balance channel; empty for the others.
    pub fn assets(&self) -> &[Ticker] {
        match &self.kind {
            Kind::BalanceMargin(a) => a,
            _ => &[],
        }
    }

    /// The `params` of the subscribe request, as the AsyncAPI files give their shapes.
    pub fn params(&self) -> Value {
        match &self.kind {
            Kind::OrdersPending(m) => Value::Array(names(m)),
            Kind::OrdersExecuted(m, filter) => json!([names(m), filter.code()]),
            Kind::Deals(m) => json!([names(m)]),
            Kind::BalanceMargin(a) => Value::Array(names(a)),
            Kind::Positions | Kind::PositionEvents => json!([]),
        }
    }
}

/// The texts as JSON strings.
fn names<T: AsRef<str>>(items: &[T]) -> Vec<Value> {
    items.iter().map(|t| Value::from(t.as_ref())).collect()
}

/// The validated items in their order, each once; at least one.
fn list<T: PartialEq, V: FieldValue<T>>(
    items: impl IntoIterator<Item = V>,
    what: &'static str,
) -> Result<Vec<T>, StreamConfigError> {
    let mut out: Vec<T> = Vec::new();
    for item in items {
        let item = item.into_field(what).map_err(StreamConfigError::Invalid)?;
        if !out.contains(&item) {
            out.push(item);
        }
    }
    if out.is_empty() {
        return Err(StreamConfigError::Empty { what });
    }
    Ok(out)
}
