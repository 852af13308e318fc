//! [`SocketLimits`]: the WebSocket's documented limits, and the pacer that keeps a client
//! inside them.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use txc_types::endpoint::RateLimit;

use crate::pacing::limiter::{Bucket, nanos};

/// The WebSocket's limits a client keeps to, by the docs' rate-limit page: per connection,
/// 10 000 order placements (the `*_place` methods) and 12 000 other requests per 10 s; 1 000
/// new connections per minute. (An older copy of the docs says 200 requests per minute per
/// connection: set [`requests`](Self::requests) to that to be stricter.) Each budget is kept
/// with the same GCRA as REST's limiter: no window of the documented length ever holds more
/// than the documented number.
///
/// ```
/// use txc_core::socket::SocketLimits;
/// use txc_types::endpoint::RateLimit;
/// let limits = SocketLimits::documented().with_requests(RateLimit::new(200, 60));
/// assert_eq!(limits.placements, RateLimit::new(10_000, 10));
/// assert_eq!(limits.requests, RateLimit::new(200, 60));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SocketLimits {
    /// Order placements per connection (10 000 per 10 s).
    pub placements: RateLimit,
    /// Other requests per connection: modify, the cancels (12 000 per 10 s).
    pub requests: RateLimit,
    /// New connections (1 000 per minute).
    pub connections: RateLimit,
}

impl SocketLimits {
    /// The documented limits.
    pub const fn documented() -> Self {
        Self {
            placements: RateLimit::new(10_000, 10),
            requests: RateLimit::new(12_000, 10),
            connections: RateLimit::new(1_000, 60),
        }
    }

    /// The same with `limit` for order placements.
    pub fn with_placements(mut self, limit: RateLimit) -> Self {
        self.placements = limit;
        self
    }

    /// The same with `limit` for the other requests.
    pub fn with_requests(mut self, limit: RateLimit) -> Self {
        self.requests = limit;
        self
    }

    /// The same with `limit` for new connections.
    pub fn with_connections(mut self, limit: RateLimit) -> Self {
        self.connections = limit;
        self
    }
}

impl Default for SocketLimits {
    fn default() -> Self {
        Self::documented()
    }
}

/// The budgets in force: the connections' (for the client's life) and the current
/// connection's two (fresh on each connection).
#[derive(Debug)]
pub(crate) struct SocketPacer {
    limits: SocketLimits,
    connections: Bucket,
    placements: Bucket,
    requests: Bucket,
    /// The latest time passed in (nanoseconds): never judged backwards.
    latest: u64,
}

impl SocketPacer {
    pub(crate) fn new(limits: SocketLimits) -> Self {
        Self {
            limits,
            connections: Bucket::new(limits.connections),
            placements: Bucket::new(limits.placements),
            requests: Bucket::new(limits.requests),
            latest: 0,
        }
    }

    pub(crate) fn limits(&self) -> SocketLimits {
        self.limits
    }

    fn at(&mut self, now: SystemTime) -> u64 {
        let now = nanos(now.duration_since(UNIX_EPOCH).unwrap_or_default());
        self.latest = self.latest.max(now);
        self.latest
    }

    /// Takes a connection slot, or says how long until one is free; a new connection starts
    /// with fresh per-connection budgets.
    pub(crate) fn connect(&mut self, now: SystemTime) -> Result<(), Duration> {
        let t0 = self.at(now);
        self.connections.check(t0)?;
        self.placements = Bucket::new(self.limits.placements);
        self.requests = Bucket::new(self.limits.requests);
        Ok(())
    }

    /// Takes a slot for one call (a placement or another request), or says how long until
    /// one is free (and takes nothing).
    pub(crate) fn call(&mut self, placement: bool, now: SystemTime) -> Result<(), Duration> {
        let t0 = self.at(now);
        if placement {
            self.placements.check(t0)
        } else {
            self.requests.check(t0)
        }
    }
}
