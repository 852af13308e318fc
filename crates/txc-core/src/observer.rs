//! [`Observer`]: a function a client tells what it is doing while it waits — each stage of
//! resolving ([`StageObserver`](crate::resolve::StageObserver)), each wait for the rate limiter
//! ([`RateWaitObserver`](crate::pacing::RateWaitObserver)) — called on the thread or task that
//! does it.

use std::fmt;
use std::sync::Arc;

/// A function told each `T` — cheap to clone (clones call the same function).
pub struct Observer<T: ?Sized>(Arc<dyn Fn(&T) + Send + Sync>);

impl<T: ?Sized> Observer<T> {
    /// The observer calling `f`.
    pub fn new(f: impl Fn(&T) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    /// Tells it `value`.
    pub(crate) fn tell(&self, value: &T) {
        (self.0)(value);
    }
}

impl<T: ?Sized> Clone for Observer<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T: ?Sized> fmt::Debug for Observer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Observer<{}>(..)", std::any::type_name::<T>())
    }
}
