//! [`PositionEvent`]: a `positionsAccountMargin_update` — a margin call or a liquidation.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{
    EventDecodeError, PositionEventKind, StreamPosition,
    positional::{Elements, event_and_record},
};

/// An update of the `positionsAccountMargin` channel: `[event, position]`.
///
/// ```
/// use txc_types::events::{PositionEvent, PositionEventKind};
/// let e = PositionEvent::from_params(
///     r#"[1,{"id":184,"market":"BTC_USDT","amount":"-0.094048","liq_stage":"margin_call"}]"#,
/// )?;
/// assert_eq!(e.kind, PositionEventKind::MarginCall);
/// assert_eq!(e.position.id, 184);
/// # Ok::<(), txc_types::events::EventDecodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PositionEvent {
    /// What happened; a code this version does not know is kept.
    pub kind: PositionEventKind,
    /// The position.
    pub position: StreamPosition,
    /// Elements past the two known ones, by position, as sent.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

/// The update's method, named in errors.
const METHOD: &str = "positionsAccountMargin_update";

impl PositionEvent {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        Self::read(Elements::new(params, METHOD)?)
    }

    /// Reads the update's `params` already read as JSON (e.g. borrowed from the frame): the
    /// same result as [`PositionEvent::from_params`] on its text, without a second parse of
    /// the array.
    pub fn from_raw_params(params: &RawValue) -> Result<Self, EventDecodeError> {
        Self::read(Elements::of(params, METHOD)?)
    }

    fn read(elements: Elements<'_>) -> Result<Self, EventDecodeError> {
        let (kind, position, extra) = event_and_record(elements, "position")?;
        Ok(Self {
            kind,
            position,
            extra,
        })
    }
}
