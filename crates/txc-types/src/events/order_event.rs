//! [`OrderEvent`]: an `ordersPending_update` — an order placed, changed or finished.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{
    EventDecodeError, OrderEventKind, StreamOrder,
    positional::{Elements, event_and_record},
};

/// An update of the `ordersPending` channel: `[event, order]`.
///
/// Track orders by id and **upsert**: a stop order that activates sends a second
/// [`New`](OrderEventKind::New) with the same id, a modified order finishes (`3`) and comes back
/// with a new id (`1`), and an order that fills at once sends only
/// [`Finished`](OrderEventKind::Finished).
///
/// ```
/// use txc_types::events::{OrderEvent, OrderEventKind};
/// let event = OrderEvent::from_params(
///     r#"[1,{"id":7,"market":"BTC_USDT","type":1,"side":1,"ctime":1738250982.28914,
///        "amount":"1","left":"1","deal_stock":"0","deal_money":"0","status":"OPEN"}]"#,
/// )?;
/// assert_eq!(event.kind, OrderEventKind::New);
/// assert_eq!(event.order.id, 7);
/// assert!(OrderEvent::from_params("[1]").is_err());
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OrderEvent {
    /// What happened; a code this version does not know is kept ([`OrderEventKind::Other`]).
    pub kind: OrderEventKind,
    /// The order as it now is.
    pub order: StreamOrder,
    /// Elements past the two known ones, by position, as sent.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

/// The update's method, named in errors.
const METHOD: &str = "ordersPending_update";

impl OrderEvent {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        Self::read(Elements::new(params, METHOD)?)
    }

    /// Reads the update's `params` already read as JSON (e.g. borrowed from the frame): the
    /// same result as [`OrderEvent::from_params`] on its text, without a second parse of the
    /// array.
    pub fn from_raw_params(params: &RawValue) -> Result<Self, EventDecodeError> {
        Self::read(Elements::of(params, METHOD)?)
    }

    fn read(elements: Elements<'_>) -> Result<Self, EventDecodeError> {
        let (kind, order, extra) = event_and_record(elements, "order")?;
        Ok(Self { kind, order, extra })
    }
}
