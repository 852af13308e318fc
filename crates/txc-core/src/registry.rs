//! Shared values looked up by key — per API key in the process, per endpoint in a limiter —
//! made on first use and handed out as clones that share their state.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

/// The value of `key` in `map`, made by `make` the first time; a clone of it.
pub(crate) fn shared<K: Eq + Hash, V: Clone>(
    map: &Mutex<HashMap<K, V>>,
    key: K,
    make: impl FnOnce() -> V,
) -> V {
    // The map is never left half-updated, so a poisoned lock is still consistent.
    let mut map = map.lock().unwrap_or_else(PoisonError::into_inner);
    map.entry(key).or_insert_with(make).clone()
}
