//! Per-key, per-endpoint sliding-window rate limits (10 000 / 10 s for orders and 1 000 / 10 s
//! for plans by default).
//!
//! Only admitted requests are counted; a rejected one does not extend the wait.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use crate::config::Route;

/// The window of every limit.
pub(crate) const WINDOW: Duration = Duration::from_secs(10);

/// Admission times per (key, the route whose count a request adds to).
#[derive(Debug, Default)]
pub(crate) struct RateLimiter {
    hits: HashMap<(String, Route), VecDeque<Instant>>,
}

impl RateLimiter {
    /// Admits one request of `api_key` counted as `route` at `now` if fewer than `limit` were
    /// admitted in the last [`WINDOW`], and records it.
    pub(crate) fn admit(&mut self, api_key: &str, route: Route, limit: u32, now: Instant) -> bool {
        let key = (api_key.to_owned(), route);
        let hits = self.hits.entry(key).or_default();
        while hits
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW)
        {
            hits.pop_front();
        }
        if hits.len() >= usize::try_from(limit).unwrap_or(usize::MAX) {
            return false;
        }
        hits.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliding_window() {
        let mut limiter = RateLimiter::default();
        let t0 = Instant::now();
        assert!(limiter.admit("k", Route::CollateralMarket, 2, t0));
        assert!(limiter.admit("k", Route::CollateralMarket, 2, t0));
        assert!(!limiter.admit("k", Route::CollateralMarket, 2, t0));
        assert!(limiter.admit("k", Route::SmartPlans, 2, t0), "per endpoint");
        assert!(
            limiter.admit("other", Route::CollateralMarket, 2, t0),
            "per key"
        );
        assert!(limiter.admit("k", Route::CollateralMarket, 2, t0 + WINDOW));
    }
}
