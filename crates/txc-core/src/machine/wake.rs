//! [`Wake`]: what may end a [`Step::Wait`](super::Step::Wait) early — a [`Signal`] changing past
//! a version — and [`Woken`], its future.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// Something a waiting machine can be woken by: a version that grows with every change. The
/// stream's [`SightingWatch`](crate::stream::SightingWatch) is one (the sightings of an expected
/// order).
pub trait Signal: fmt::Debug + Sync {
    /// Blocks until the version is past `version`, for at most `timeout`; whether it is.
    fn wait_past(&self, version: u64, timeout: Duration) -> bool;

    /// Ready once the version is past `version`; else `cx`'s waker is woken at the next change.
    fn poll_past(&self, version: u64, cx: &mut Context<'_>) -> Poll<()>;
}

/// What can end a [`Step::Wait`](super::Step::Wait) early: a [`Signal`] changing past a version
/// (for an order's events, [`SightingWatch::wake_after`](crate::stream::SightingWatch::wake_after)).
/// A [`Machine`](super::Machine) waiting for something offers one
/// ([`Machine::wake`](super::Machine::wake)); its driver waits on it instead of sleeping —
/// blocking with [`wait`](Self::wait), async with [`woken`](Self::woken) under its runtime's
/// timeout — and asks the machine again as soon as it fires.
#[derive(Debug, Clone, Copy)]
pub struct Wake<'a> {
    signal: &'a dyn Signal,
    after: u64,
}

impl<'a> Wake<'a> {
    /// Fires once `signal` changed past `version`.
    pub fn new(signal: &'a dyn Signal, version: u64) -> Self {
        Self {
            signal,
            after: version,
        }
    }

    /// Blocks until it fires, for at most `timeout`; whether it fired.
    pub fn wait(&self, timeout: Duration) -> bool {
        self.signal.wait_past(self.after, timeout)
    }

    /// A future, on any runtime, ready when it fires.
    pub fn woken(self) -> Woken<'a> {
        Woken { wake: self }
    }
}

/// The future of [`Wake::woken`].
#[derive(Debug)]
#[must_use = "a future does nothing unless awaited"]
pub struct Woken<'a> {
    wake: Wake<'a>,
}

impl Future for Woken<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.wake.signal.poll_past(self.wake.after, cx)
    }
}
