//! [`SyncClock`]: measuring the local clock against the exchange's.

use std::fmt;
use std::time::SystemTime;

use txc_types::time::{ServerTime, ServerTimeQuery};

use crate::machine::Call;
use crate::{ClockBounds, ClockOffset, Error, Machine, Response, Step, TransportError};

/// Measures the local clock against the exchange's and corrects the key's window-mode
/// nonces by the offset: a [`Machine`] whose output is the measured [`ClockOffset`].
///
/// The exchange's time has a resolution of one second, so the offset is good to about half a
/// second plus half the round trip — well inside the ±5 s nonce window.
///
/// ```
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// use txc_core::{ClientConfig, Machine, Step};
/// use txc_core::decode::Response;
/// use txc_sign::Credentials;
///
/// let core = ClientConfig::new(Credentials::new("sync-doc", "s")?)
///     .base_url("http://127.0.0.1:9")
///     .build()?;
/// let mut sync = core.sync_clock();
/// let now = UNIX_EPOCH + Duration::from_millis(1_700_000_000_200);
/// let Step::Send(request) = sync.next(now) else { panic!() };
/// assert_eq!(request.method(), http::Method::GET);
/// sync.receive(Ok(Response::new(200, br#"{"time":1700000007}"#)));
/// let Step::Done(Ok(offset)) = sync.next(now + Duration::from_millis(100)) else { panic!() };
/// assert_eq!(offset.as_millis(), 7_250); // the local clock is 7.25 s behind
/// assert_eq!(core.nonces().clock_offset(), offset);
/// # Ok::<(), txc_core::Error>(())
/// ```
pub struct SyncClock<'a> {
    call: Call<'a, ServerTimeQuery>,
}

impl<'a> SyncClock<'a> {
    pub(crate) fn new(call: Call<'a, ServerTimeQuery>) -> Self {
        Self { call }
    }
}

impl fmt::Debug for SyncClock<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncClock")
            .field("call", &self.call)
            .finish()
    }
}

impl Machine for SyncClock<'_> {
    type Output = Result<ClockOffset, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match self.call.next(now).forward() {
            Ok(step) => step,
            Err(outcome) => Step::Done(outcome.map(|time: ServerTime| {
                let sent = self.call.attempts().last().map_or(now, |a| a.signed_at);
                let offset = ClockOffset::measure(time.to_system_time(), sent, now);
                let core = self.call.core();
                core.nonces().set_clock_offset(offset);
                let reading = ClockBounds::from_reading(time.to_system_time(), sent, now);
                core.exchange_clock().observe(reading);
                offset
            })),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        self.call.receive(response);
    }
}
