//! `POST /api/v4/collateral-account/positions/history`: the events of positions.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Serialize, Serializer};

use super::PositionEvent;
use crate::building::Building;
use crate::endpoint::{Endpoint, EndpointKind, FieldValue, RateLimit, WireValue};
use crate::errors::{Reason, ValidationError};
use crate::values::Market;

/// Lists position events — openings, partial and full closes, liquidations — optionally of
/// one market, of one position, and within a date window.
///
/// The window's rules, as the docs give them: `startDate` and `endDate` (Unix seconds) are
/// optional with no defaults, no longest window and no earliest date; only
/// `startDate ≤ endDate ≤ now + 1 s` is required. [`build`](PositionHistoryQueryBuilder::build)
/// checks the order of the two, and the client checks `≤ now + 1 s` when it signs the
/// request ([`Endpoint::check_at`]), against the exchange's clock as far as it knows it. Pages
/// hold 1 to 100 events (the docs give the bounds of `limit` and `offset` with the error code
/// that refuses others, but no defaults).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_types::endpoint::Endpoint;
/// use txc_types::positions::PositionHistoryQuery;
/// let q = PositionHistoryQuery::builder()
///     .market("BTC_USDT")
///     .position_id(111)
///     .start_date(1_650_400_000)
///     .end_date(1_650_500_000)
///     .build()?;
/// assert_eq!(
///     serde_json::to_string(&q).unwrap(),
///     r#"{"market":"BTC_USDT","positionId":111,"startDate":1650400000,"endDate":1650500000}"#
/// );
/// let backwards = PositionHistoryQuery::builder().start_date(2).end_date(1).build();
/// assert_eq!(backwards.unwrap_err().field(), "endDate");
/// // An end in the future is refused when the request is signed.
/// let late = PositionHistoryQuery::builder().end_date(1_650_500_002).build()?;
/// let signed_at = UNIX_EPOCH + Duration::from_secs(1_650_500_000);
/// assert!(late.check_at(signed_at).is_err());
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionHistoryQuery {
    market: Option<Market>,
    position_id: Option<u64>,
    start_date: Option<u64>,
    end_date: Option<u64>,
    limit: Option<u64>,
    offset: Option<u64>,
}

impl PositionHistoryQuery {
    /// The most events a page holds.
    pub const MAX_LIMIT: u64 = 100;
    /// How far past the exchange's time `endDate` may be, in seconds.
    pub const END_DATE_LEAD_SECS: u64 = 1;

    /// Every position event (the exchange's first page).
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query with filters.
    pub fn builder() -> PositionHistoryQueryBuilder {
        PositionHistoryQueryBuilder(Building::new(Self::default()))
    }

    /// The events of one position of `market`: what resolving a close looks up.
    pub fn of_position(market: Market, position_id: u64) -> Self {
        Self {
            market: Some(market),
            position_id: Some(position_id),
            ..Self::default()
        }
    }

    /// The market filter, if any.
    pub fn market(&self) -> Option<&Market> {
        self.market.as_ref()
    }

    /// The position filter, if any.
    pub fn position_id(&self) -> Option<u64> {
        self.position_id
    }
}

/// Builds a [`PositionHistoryQuery`]; the first invalid value or combination is reported by
/// [`build`](Self::build), naming its wire field.
#[derive(Debug, Clone)]
#[must_use = "call .build() to get the query"]
pub struct PositionHistoryQueryBuilder(Building<PositionHistoryQuery>);

impl PositionHistoryQueryBuilder {
    fn set(
        self,
        apply: impl FnOnce(&mut PositionHistoryQuery) -> Result<(), ValidationError>,
    ) -> Self {
        Self(self.0.set(apply))
    }

    /// Only events of `market`.
    pub fn market(self, market: impl FieldValue<Market>) -> Self {
        self.set(|q| {
            q.market = Some(market.into_field("market")?);
            Ok(())
        })
    }

    /// Only events of the position `id`.
    pub fn position_id(self, id: u64) -> Self {
        self.set(|q| {
            q.position_id = Some(id);
            Ok(())
        })
    }

    /// Only events from this Unix second on.
    pub fn start_date(self, unix_seconds: u64) -> Self {
        self.set(|q| {
            q.start_date = Some(unix_seconds);
            Ok(())
        })
    }

    /// Only events up to this Unix second (at most a second past the exchange's time).
    pub fn end_date(self, unix_seconds: u64) -> Self {
        self.set(|q| {
            q.end_date = Some(unix_seconds);
            Ok(())
        })
    }

    /// At most this many events, 1 to 100.
    pub fn limit(self, limit: u64) -> Self {
        self.set(|q| {
            if !(1..=PositionHistoryQuery::MAX_LIMIT).contains(&limit) {
                return Err(ValidationError::invalid(
                    "limit",
                    Reason::OutOfRange {
                        min: 1,
                        max: PositionHistoryQuery::MAX_LIMIT,
                    },
                ));
            }
            q.limit = Some(limit);
            Ok(())
        })
    }

    /// Skip this many events.
    pub fn offset(self, offset: u64) -> Self {
        self.set(|q| {
            q.offset = Some(offset);
            Ok(())
        })
    }

    /// Checks every rule that needs no clock and returns the query.
    pub fn build(self) -> Result<PositionHistoryQuery, ValidationError> {
        let q = self.0.finish()?;
        if let (Some(start), Some(end)) = (q.start_date, q.end_date)
            && end < start
        {
            return Err(ValidationError::invalid(
                "endDate",
                Reason::Format("must not be before startDate"),
            ));
        }
        Ok(q)
    }
}

impl Endpoint for PositionHistoryQuery {
    const PATH: &'static str = "/api/v4/collateral-account/positions/history";
    const OPERATION: &'static str = "position_history";
    const KIND: EndpointKind = EndpointKind::Read;
    const RATE_LIMIT: Option<RateLimit> = Some(RateLimit::new(12_000, 10));
    type Response = Vec<PositionEvent>;

    /// `endDate` (and, without one, `startDate`) at most a second past `now`.
    fn check_at(&self, now: SystemTime) -> Result<(), ValidationError> {
        let now_s = now
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
            .saturating_add(Self::END_DATE_LEAD_SECS);
        let (field, date) = match (self.end_date, self.start_date) {
            (Some(end), _) => ("endDate", end),
            (None, Some(start)) => ("startDate", start),
            (None, None) => return Ok(()),
        };
        if date > now_s {
            return Err(ValidationError::invalid(
                field,
                Reason::Format("must be at most a second past the exchange's current time"),
            ));
        }
        Ok(())
    }

    fn try_for_each_field<E>(
        &self,
        mut visit: impl FnMut(&'static str, WireValue<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(m) = &self.market {
            visit("market", WireValue::Str(m.as_str()))?;
        }
        for (name, value) in [
            ("positionId", self.position_id),
            ("startDate", self.start_date),
            ("endDate", self.end_date),
            ("limit", self.limit),
            ("offset", self.offset),
        ] {
            if let Some(n) = value {
                visit(name, WireValue::Int(n))?;
            }
        }
        Ok(())
    }
}

impl Serialize for PositionHistoryQuery {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::endpoint::serialize_fields(self, s)
    }
}
