//! [`Op`]: what the sandbox knows of an exchange operation besides its rules — its path, its
//! fault route and its rate limit. Each operation's row is written once, beside its rules and
//! its answer (`routes/`).

use super::route::Route;

/// An exchange operation: its path, its fault route and its rate limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Op {
    /// The request path, also the body's `request` field.
    pub(crate) path: &'static str,
    /// The fault-injection route.
    pub(crate) route: Route,
    /// Where its rate limit per key per 10 s comes from.
    pub(crate) limit: Limit,
}

/// Where an operation's rate limit per key per 10 s comes from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Limit {
    /// The orders' setting ([`crate::SandboxBuilder::rate_limits`]).
    Orders,
    /// The plans' setting, counted together for every `/api/v4/main-account/*` operation (the
    /// docs' table of limits counts them together, 1 000 per 10 s).
    MainAccount,
    /// The look-ups' setting ([`crate::SandboxBuilder::lookup_rate_limits`]).
    Lookups,
    /// The cancellations' setting ([`crate::SandboxBuilder::lookup_rate_limits`]).
    Cancels,
    /// A figure of the sandbox's, no setting changes it.
    Fixed(u32),
    /// The docs' figure, unless [`crate::SandboxBuilder::rate_limit`] set the route's own.
    Documented(u32),
}

impl Op {
    /// The operation at `path`, faulted as `route`, limited by `limit`.
    pub(crate) const fn new(path: &'static str, route: Route, limit: Limit) -> Self {
        Self { path, route, limit }
    }

    /// Whose count the operation's requests add to: the plans' for every main-account
    /// operation ([`Limit::MainAccount`]), else the operation's own.
    pub(crate) fn counted_as(self) -> Route {
        match self.limit {
            Limit::MainAccount => Route::SmartPlans,
            _ => self.route,
        }
    }
}
