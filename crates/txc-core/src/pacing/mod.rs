//! Staying within the exchange's limits and on its clock: the [`RateLimiter`] (with the time
//! passed in), the [`RetryPolicy`] that decides whether and when to try again, the exchange's
//! clock as its answers show it ([`ClockBounds`]) and the machine that corrects the nonces'
//! clock by it ([`SyncClock`]) — and what a caller is told while the limiter holds a request
//! back ([`RateWait`], through the client's `on_rate_wait` observer).

mod exchange_clock;
pub(crate) mod limiter;
mod rate_wait;
mod retry;
mod sync_clock;

pub use exchange_clock::ClockBounds;
pub(crate) use exchange_clock::{ExchangeClock, shift};
pub use limiter::{RateLimiter, RateLimits, RatePolicy};
pub use rate_wait::{RateWait, RateWaitObserver};
pub use retry::{Retry, RetryPolicy};
pub use sync_clock::SyncClock;
