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
    /// `ADLQuantile_*`: the ADL quantiles of the account's perpetual positions (at once, then
    /// every 30 s).
    AdlQuantile,
    /// `premiumIndex_*` (public: needs no authorization): mark price, index price and funding
    /// of perpetual markets, every 0.5 s.
    PremiumIndex,
}

impl Channel {
    /// Every channel, in the order the machine subscribes them.
    pub const ALL: [Channel; 8] = [
        Self::OrdersPending,
        Self::OrdersExecuted,
        Self::Deals,
        Self::BalanceMargin,
        Self::Positions,
        Self::PositionEvents,
        Self::AdlQuantile,
        Self::PremiumIndex,
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
            Self::AdlQuantile => (
                "ADLQuantile_subscribe",
                "ADLQuantile_unsubscribe",
                "ADLQuantile_update",
            ),
            Self::PremiumIndex => (
                "premiumIndex_subscribe",
                "premiumIndex_unsubscribe",
                "premiumIndex_update",
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
    AdlQuantile(Option<Market>),
    PremiumIndex(Vec<Market>),
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

    /// `ADLQuantile_subscribe`: the ADL quantiles of every perpetual market the account holds
    /// a position in (parameters `[]`), or of one perpetual market (`…_PERP`).
    ///
    /// ```
    /// use txc_core::stream::Subscription;
    /// assert_eq!(Subscription::adl_quantile(None::<&str>)?.params(), serde_json::json!([]));
    /// assert_eq!(Subscription::adl_quantile(Some("BTC_PERP"))?.params(), serde_json::json!(["BTC_PERP"]));
    /// assert!(Subscription::adl_quantile(Some("BTC_USDT")).is_err());
    /// # Ok::<(), txc_core::stream::StreamConfigError>(())
    /// ```
    pub fn adl_quantile<M: FieldValue<Market>>(
        market: Option<M>,
    ) -> Result<Self, StreamConfigError> {
        let market = market.map(|m| perpetual(m, "market")).transpose()?;
        Ok(Self::of(Kind::AdlQuantile(market)))
    }

    /// `premiumIndex_subscribe` (public): every perpetual market's premium index in one push
    /// (no markets given), or each named perpetual market's in its own push.
    ///
    /// ```
    /// use txc_core::stream::Subscription;
    /// let all = Subscription::premium_index(Vec::<&str>::new())?;
    /// assert_eq!(all.params(), serde_json::json!([]));
    /// let some = Subscription::premium_index(["BTC_PERP", "ADA_PERP"])?;
    /// assert_eq!(some.params(), serde_json::json!(["BTC_PERP", "ADA_PERP"]));
    /// # Ok::<(), txc_core::stream::StreamConfigError>(())
    /// ```
    pub fn premium_index<M: FieldValue<Market>>(
        markets: impl IntoIterator<Item = M>,
    ) -> Result<Self, StreamConfigError> {
        let mut out: Vec<Market> = Vec::new();
        for market in markets {
            let market = perpetual(market, "markets")?;
            if !out.contains(&market) {
                out.push(market);
            }
        }
        Ok(Self::of(Kind::PremiumIndex(out)))
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
            Kind::AdlQuantile(_) => Channel::AdlQuantile,
            Kind::PremiumIndex(_) => Channel::PremiumIndex,
        }
    }

    /// The markets of a market channel; empty for the others.
    pub fn markets(&self) -> &[Market] {
        match &self.kind {
            Kind::OrdersPending(m)
            | Kind::OrdersExecuted(m, _)
            | Kind::Deals(m)
            | Kind::PremiumIndex(m) => m,
            Kind::AdlQuantile(m) => m.as_slice(),
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
            Kind::AdlQuantile(m) => {
                Value::Array(m.iter().map(|m| Value::from(m.as_str())).collect())
            }
            Kind::PremiumIndex(m) => Value::Array(names(m)),
        }
    }
}

/// The texts as JSON strings.
/// A perpetual market (`…_PERP`): the only markets the ADL and premium-index channels take.
fn perpetual<M: FieldValue<Market>>(
    market: M,
    what: &'static str,
) -> Result<Market, StreamConfigError> {
    let market = market
        .into_field(what)
        .map_err(StreamConfigError::Invalid)?;
    if !market.as_str().ends_with("_PERP") {
        return Err(StreamConfigError::Invalid(
            txc_types::errors::ValidationError::InvalidField {
                field: what,
                reason: txc_types::errors::Reason::Format("must be a perpetual market (…_PERP)"),
            },
        ));
    }
    Ok(market)
}

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
