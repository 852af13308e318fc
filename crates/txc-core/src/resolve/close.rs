//! Closing a position — a trade —: [`Close`], which ends a close whose outcome is unknown with
//! its [`PendingClose`]; and what resolving it answers ([`CloseResolution`], with the
//! [`Evidence`] behind it; see [`ResolveClose`](super::ResolveClose)).

use std::time::SystemTime;

use txc_types::endpoint::Acknowledged;
use txc_types::positions::{ClosePosition, Position, PositionEvent};

use super::pending_close::{PendingClose, UnresolvedClose};
use crate::machine::Call;
use crate::{Error, Evidence, Machine, Response, Step, TransportError};

/// Closes a position: a [`Call`] whose failures that leave the outcome unknown come out as
/// [`Error::CloseUnknown`], carrying the [`PendingClose`] resolving needs. Never resent after
/// such a failure.
pub struct Close<'a> {
    call: Call<'a, ClosePosition>,
}

impl<'a> Close<'a> {
    pub(crate) fn new(call: Call<'a, ClosePosition>) -> Self {
        Self { call }
    }

    fn pending(&self) -> PendingClose {
        let close = self.call.endpoint();
        PendingClose::new(
            close.market().clone(),
            close.position_id(),
            close.side(),
            self.call.attempts().to_vec(),
        )
    }
}

impl Machine for Close<'_> {
    type Output = Result<Acknowledged, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now) {
            Step::Done(Err(cause)) if cause.outcome_unknown() => {
                let unresolved = UnresolvedClose::new("close_position", self.pending(), cause);
                Step::Done(Err(Error::CloseUnknown(Box::new(unresolved))))
            }
            step => step,
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}

/// What resolving a close found, and what proved it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CloseResolution {
    /// The position is not open: it was closed (by this close or anything else — a stop-loss,
    /// a liquidation). Nothing more to do. Its latest event in the position history.
    Closed(Box<PositionEvent>, Evidence),
    /// The position is still open, and no attempt of the close can take effect any more:
    /// closing it again is safe. Its latest state.
    StillOpen(Box<Position>, Evidence),
}

impl CloseResolution {
    /// What proved it.
    pub fn evidence(&self) -> &Evidence {
        match self {
            Self::Closed(_, evidence) | Self::StillOpen(_, evidence) => evidence,
        }
    }
}
