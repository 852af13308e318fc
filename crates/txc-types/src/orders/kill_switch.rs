//! `POST /api/v4/order/kill-switch`: arms, re-arms or deletes a market's kill-switch timer.

use std::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use txc_derive::{Answer, Request};

use super::order_class::{OrderClass, distinct};
use crate::endpoint::{FieldValue, Visit, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::values::{Market, Timestamp};

/// Sets a market's kill-switch timer: unless it is set again before `timeout` seconds pass,
/// the exchange cancels the account's open orders of that market (of the kinds in `types`, or
/// of every kind). [`SetKillSwitch::disarm`] deletes the timer.
///
/// `timeout` is sent as a string of 5 to 600 seconds, or `null` to delete; the key is always
/// present (the docs: "omitting it fails validation"). Setting a timer is idempotent (sending
/// it again only restarts it), so it is resent after an ambiguous failure like a read.
///
/// ```
/// use txc_types::orders::{OrderClass, SetKillSwitch};
/// let arm = SetKillSwitch::arm("BTC_USDT", 60)?.types([OrderClass::Margin])?;
/// assert_eq!(
///     serde_json::to_string(&arm).unwrap(),
///     r#"{"market":"BTC_USDT","timeout":"60","types":["margin"]}"#
/// );
/// let off = SetKillSwitch::disarm("BTC_USDT")?;
/// assert_eq!(serde_json::to_string(&off).unwrap(), r#"{"market":"BTC_USDT","timeout":null}"#);
/// assert_eq!(SetKillSwitch::arm("BTC_USDT", 4).unwrap_err().field(), "timeout");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/order/kill-switch",
    operation = "kill_switch",
    kind = Idempotent,
    rate_limit = (10_000, 10),
    response = KillSwitchAnswer,
)]
pub struct SetKillSwitch {
    /// The market.
    market: Market,
    /// The timeout in seconds and its wire text; `None` deletes the timer (`null`).
    #[request(with = text_or_null, get = none)]
    timeout: Option<(u32, String)>,
    #[request(get = none)]
    types: Vec<OrderClass>,
}

impl SetKillSwitch {
    /// The shortest timeout, in seconds.
    pub const MIN_TIMEOUT_SECS: u32 = 5;
    /// The longest timeout, in seconds.
    pub const MAX_TIMEOUT_SECS: u32 = 600;

    /// Arms (or re-arms) `market`'s timer for `timeout_secs` seconds, 5 to 600.
    pub fn arm(
        market: impl FieldValue<Market>,
        timeout_secs: u32,
    ) -> Result<Self, ValidationError> {
        let market = market.into_field("market")?;
        if !(Self::MIN_TIMEOUT_SECS..=Self::MAX_TIMEOUT_SECS).contains(&timeout_secs) {
            return Err(ValidationError::invalid(
                "timeout",
                Reason::OutOfRange {
                    min: u64::from(Self::MIN_TIMEOUT_SECS),
                    max: u64::from(Self::MAX_TIMEOUT_SECS),
                },
            ));
        }
        Ok(Self {
            market,
            timeout: Some((timeout_secs, timeout_secs.to_string())),
            types: Vec::new(),
        })
    }

    /// Deletes `market`'s timer (`timeout: null`).
    pub fn disarm(market: impl FieldValue<Market>) -> Result<Self, ValidationError> {
        Ok(Self {
            market: market.into_field("market")?,
            timeout: None,
            types: Vec::new(),
        })
    }

    /// Targets only orders of these kinds (at least one; repeats are dropped). Without it
    /// the timer targets every kind.
    pub fn types(
        mut self,
        types: impl IntoIterator<Item = OrderClass>,
    ) -> Result<Self, ValidationError> {
        self.types = distinct(types, "types")?;
        Ok(self)
    }

    /// The timeout, or `None` for a deletion.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
            .as_ref()
            .map(|(secs, _)| Duration::from_secs(u64::from(*secs)))
    }

    /// The kinds targeted (empty: every kind).
    pub fn targeted(&self) -> &[OrderClass] {
        &self.types
    }

    /// The same timer's deletion.
    pub fn to_disarm(&self) -> Self {
        Self {
            market: self.market.clone(),
            timeout: None,
            types: Vec::new(),
        }
    }
}

/// The timeout's text, or `null`: the key is always sent.
fn text_or_null<E>(
    timeout: &Option<(u32, String)>,
    name: &'static str,
    visit: &mut impl Visit<E>,
) -> Result<(), E> {
    match timeout {
        Some((_, text)) => visit(name, WireValue::Str(text)),
        None => visit(name, WireValue::Null),
    }
}

/// What setting a kill-switch timer did: the timer, or (for `timeout: null`) its deletion,
/// which the exchange answers with a literal `[]`.
///
/// ```
/// use txc_types::orders::KillSwitchAnswer;
/// let armed: KillSwitchAnswer = serde_json::from_str(
///     r#"{"market":"BTC_USDT","startTime":1662478154,"cancellationTime":1662478214,"types":["spot","margin"]}"#,
/// )?;
/// let KillSwitchAnswer::Armed(timer) = armed else { panic!() };
/// assert_eq!(timer.timeout().as_secs(), 60);
/// assert_eq!(serde_json::from_str::<KillSwitchAnswer>("[]")?, KillSwitchAnswer::Deleted);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum KillSwitchAnswer {
    /// The timer as set.
    Armed(KillSwitchTimer),
    /// The timer was deleted.
    Deleted,
}

impl Serialize for KillSwitchAnswer {
    /// As the exchange writes it: the timer object, or `[]`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Armed(timer) => timer.serialize(s),
            Self::Deleted => s.collect_seq(std::iter::empty::<()>()),
        }
    }
}

impl<'de> Deserialize<'de> for KillSwitchAnswer {
    /// The timer object, or `[]`; decode from JSON text.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw: &'de RawValue = Deserialize::deserialize(d)?;
        let text = raw.get().trim();
        if crate::lenient::is_empty_array(text)? {
            return Ok(Self::Deleted);
        }
        serde_json::from_str(text)
            .map(Self::Armed)
            .map_err(D::Error::custom)
    }
}

/// A kill-switch timer, as setting it and the status list answer it.
#[derive(Debug, Clone, PartialEq, Answer)]
#[serde(rename_all = "camelCase")]
#[answer(expecting = "a kill-switch timer object")]
#[non_exhaustive]
pub struct KillSwitchTimer {
    /// The market, as sent.
    pub market: Market,
    /// When the timer was set or last reset (Unix seconds).
    pub start_time: Timestamp,
    /// When it cancels orders unless reset: `startTime + timeout`.
    pub cancellation_time: Timestamp,
    /// The kinds targeted; `None` when set without `types` (every kind).
    #[answer(with = "crate::lenient::list")]
    pub types: Option<Vec<OrderClass>>,
    /// Fields this version does not know, and values of an unexpected type, as sent.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl KillSwitchTimer {
    /// `cancellationTime − startTime` (zero if the exchange sent them the other way round).
    pub fn timeout(&self) -> Duration {
        self.cancellation_time
            .since_epoch()
            .saturating_sub(self.start_time.since_epoch())
    }
}
