//! The [`Machine`] protocol: what a transport does with any sans-IO state machine of this
//! crate — ask [`Machine::next`] with the time; wait, send, or finish as told ([`Step`]); hand
//! each response (or transport failure) to [`Machine::receive`]. Every decision (pacing, what
//! to sign, how to decode, whether and when to retry) lives in the machines, so the blocking
//! and async clients cannot drift apart.

use std::time::{Duration, SystemTime};

use super::Wake;
use crate::{Response, SignedRequest, TransportError};

/// What a transport does next for a [`Machine`].
#[derive(Debug)]
#[must_use = "a step tells the transport what to do"]
pub enum Step<T> {
    /// Sleep this long, then ask again.
    Wait(Duration),
    /// Send this request, then hand its response or failure to [`Machine::receive`].
    Send(SignedRequest),
    /// Finished: return this.
    Done(T),
}

impl<T> Step<Result<T, crate::Error>> {
    /// What a machine answers when asked for a step after it ended: an
    /// [`Error::InvalidConfig`](crate::Error::InvalidConfig) of `operation`, saying that `what`
    /// has already finished.
    pub(crate) fn after_end(operation: &'static str, what: &str) -> Self {
        Step::Done(Err(crate::Error::invalid_config(
            operation,
            format!("{what} has already finished"),
        )))
    }
}

impl<T> Step<T> {
    /// The output, when done; else the same wait or request, as a step of a machine that
    /// runs this one inside it.
    pub(crate) fn forward<U>(self) -> Result<Step<U>, T> {
        match self {
            Self::Wait(delay) => Ok(Step::Wait(delay)),
            Self::Send(request) => Ok(Step::Send(request)),
            Self::Done(output) => Err(output),
        }
    }
}

/// A sans-IO state machine a transport drives: a [`Call`](crate::Call) of one endpoint, or anything built
/// from calls. The transport's whole job:
///
/// ```
/// use std::time::SystemTime;
/// use txc_core::{Machine, Step};
/// use txc_core::decode::{Response, TransportError};
/// use txc_sign::SignedRequest;
///
/// /// One round trip with your HTTP client: the status, headers and body, or a failure that
/// /// says whether the request may have been written.
/// fn round_trip(request: SignedRequest) -> Result<(u16, http::HeaderMap, Vec<u8>), TransportError> {
///     # let _ = request;
///     # Ok((200, http::HeaderMap::new(), br#"[]"#.to_vec()))
/// }
///
/// fn drive<M: Machine>(mut machine: M) -> M::Output {
///     loop {
///         match machine.next(SystemTime::now()) {
///             Step::Wait(delay) => std::thread::sleep(delay),
///             Step::Send(request) => match round_trip(request) {
///                 Ok((status, headers, body)) => {
///                     machine.receive(Ok(Response::new(status, &body).with_headers(&headers)))
///                 }
///                 Err(failure) => machine.receive(Err(failure)),
///             },
///             Step::Done(output) => return output,
///         }
///     }
/// }
///
/// let core = txc_core::ClientConfig::new(txc_sign::Credentials::new("key", "secret")?)
///     .base_url("http://127.0.0.1:9")
///     .build()?;
/// let plans = drive(core.call(&txc_types::investments::SmartPlansQuery::new()))?;
/// assert!(plans.is_empty());
/// # Ok::<(), txc_core::Error>(())
/// ```
pub trait Machine {
    /// What the machine finishes with.
    type Output;

    /// What to do at `now`. Call it again after every wait and every
    /// [`receive`](Machine::receive) until it says [`Step::Done`].
    fn next(&mut self, now: SystemTime) -> Step<Self::Output>;

    /// The response to the last [`Step::Send`], or why there is none. A
    /// [`TransportError`] must say honestly whether the request may have been written
    /// ([`TransportError::not_sent`] only when it certainly was not).
    fn receive(&mut self, response: Result<Response<'_>, TransportError>);

    /// What may end the current [`Step::Wait`] early, asked right after it: a [`Wake`] that
    /// fires when an event the machine waits for arrives (resolving an order waits for the
    /// order's event on the client's stream). A driver that can wait on it (blocking:
    /// [`Wake::wait`]; async: [`Wake::woken`] under the runtime's timeout) asks
    /// [`next`](Machine::next) again as soon as it fires; one that sleeps the whole delay is
    /// still correct, only slower. None by default.
    fn wake(&self) -> Option<Wake<'_>> {
        None
    }
}
