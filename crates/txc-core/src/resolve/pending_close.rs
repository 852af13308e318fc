//! [`PendingClose`]: a close of a position whose outcome is unknown, and
//! [`UnresolvedClose`], the context of the error that carries it.

use txc_types::orders::PositionSide;
use txc_types::values::Market;

use crate::{AttemptRecord, Error, Evidence};

/// A close whose outcome is unknown: the position (market, id, side sent) and every attempt to
/// close it. Carried by [`Error::CloseUnknown`]; give it to the client's `resolve_close`.
/// Without attempts, every attempt is taken to have been sent before the resolver's first
/// look-up.
///
/// ```
/// use std::time::SystemTime;
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::PendingClose;
/// use txc_sign::nonce::Nonce;
/// let pending = PendingClose::new(
///     "BTC_USDT".parse()?,
///     527,
///     None,
///     vec![AttemptRecord { nonce: Nonce(1_700_000_000_000), signed_at: SystemTime::now() }],
/// );
/// assert_eq!(pending.position_id(), 527);
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingClose {
    market: Market,
    position_id: u64,
    position_side: Option<PositionSide>,
    attempts: Vec<AttemptRecord>,
}

impl PendingClose {
    /// A close of the position `position_id` of `market` (sent with `position_side`), in
    /// `attempts`. Without attempts, every attempt is taken to have been sent before the
    /// resolver's first look-up.
    pub fn new(
        market: Market,
        position_id: u64,
        position_side: Option<PositionSide>,
        attempts: Vec<AttemptRecord>,
    ) -> Self {
        Self {
            market,
            position_id,
            position_side,
            attempts,
        }
    }

    /// The market.
    pub fn market(&self) -> &Market {
        &self.market
    }

    /// The position's id.
    pub fn position_id(&self) -> u64 {
        self.position_id
    }

    /// The side the close was sent with.
    pub fn position_side(&self) -> Option<PositionSide> {
        self.position_side
    }

    /// Every attempt, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }
}

/// A close and the failure that ended it: the context of [`Error::CloseUnknown`]. As an error
/// it reads as its cause.
#[derive(Debug)]
#[non_exhaustive]
pub struct UnresolvedClose {
    /// The operation: `close_position`, or `resolve_close` when resolving could not tell.
    pub operation: &'static str,
    /// The close.
    pub close: PendingClose,
    /// Why it is unknown.
    pub cause: Error,
    /// The look-ups resolving made, if it ran.
    pub evidence: Option<Evidence>,
}

impl UnresolvedClose {
    /// The context of a close of `operation` whose outcome `cause` left unknown.
    pub fn new(operation: &'static str, close: PendingClose, cause: Error) -> Self {
        Self {
            operation,
            close,
            cause,
            evidence: None,
        }
    }

    /// The same, with the evidence resolving gathered.
    pub fn with_evidence(mut self, evidence: Evidence) -> Self {
        self.evidence = Some(evidence);
        self
    }
}

impl std::fmt::Display for UnresolvedClose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.cause.fmt(f)
    }
}

impl std::error::Error for UnresolvedClose {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.source()
    }
}
