//! [`Cleared`]: the operation behind the checks when the checks are all there is to run — an
//! order about to go over the WebSocket, whose frame its session writes once they pass.

use std::time::SystemTime;

use crate::{Error, Machine, Response, Step, TransportError};

/// A machine that ends at once with `Ok(())`: what the checks before an order
/// ([`RulesCheck`](super::RulesCheck), [`Preflight`](super::Preflight)) run when they pass,
/// for an order another channel sends ([`ClientCore::socket_checks`](crate::ClientCore::socket_checks)).
#[derive(Debug, Default)]
pub struct Cleared {
    finished: bool,
}

impl Machine for Cleared {
    type Output = Result<(), Error>;

    fn next(&mut self, _now: SystemTime) -> Step<Self::Output> {
        if std::mem::replace(&mut self.finished, true) {
            return Step::after_end("socket_checks", "the checks");
        }
        Step::Done(Ok(()))
    }

    fn receive(&mut self, _response: Result<Response<'_>, TransportError>) {}
}
