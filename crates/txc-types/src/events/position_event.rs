//! [`PositionEvent`]: a `positionsAccountMargin_update` — a margin call or a liquidation.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{EventDecodeError, PositionEventKind, StreamPosition, positional::Elements};

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

impl PositionEvent {
    /// Reads the update's `params`.
    pub fn from_params(params: &str) -> Result<Self, EventDecodeError> {
        const WHAT: &str = "positionsAccountMargin_update";
        let mut elements = Elements::new(params, WHAT)?;
        let kind = elements.require(0, "event")?;
        let position = elements
            .raw(1)
            .ok_or_else(|| EventDecodeError::new(WHAT, "element 1 (position) is required"))?;
        let position = serde_json::from_str(position.get())
            .map_err(|e| EventDecodeError::new(WHAT, format!("the position: {e}")))?;
        Ok(Self {
            kind,
            position,
            extra: elements.finish(2),
        })
    }
}
