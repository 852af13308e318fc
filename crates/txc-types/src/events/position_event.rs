//! [`PositionEvent`]: a `positionsAccountMargin_update` — a margin call or a liquidation.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{EventDecodeError, PositionEventKind, StreamPosition, positional::event_and_record};

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
        let (kind, position, extra) =
            event_and_record(params, "positionsAccountMargin_update", "position")?;
        Ok(Self {
            kind,
            position,
            extra,
        })
    }
}
