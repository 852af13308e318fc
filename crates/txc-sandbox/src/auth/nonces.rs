//! [`Nonces`]: the exchange's nonce rules, per key (exchange-docs-notes §2.3).
//!
//! - Without `nonceWindow` (or with `false`): the nonce must be strictly greater than the
//!   key's previous one, else `Too many requests.` (HTTP 429).
//! - With `nonceWindow: true`: the nonce is a Unix time in milliseconds within ±5 s of server
//!   time, else `Your nonce is more than 5 seconds lesser than the current nonce` (HTTP 401,
//!   whichever side it is on), and each nonce is used once per key — one request per key per
//!   millisecond — else `Too many requests.`.
//!
//! "Previous" is the greatest nonce the key had accepted, by either rule.

use std::collections::{BTreeSet, HashMap};

use super::rejection::AuthRejection;

/// The window on either side of server time, in milliseconds.
pub(crate) const WINDOW_MS: u64 = 5_000;

// Deliberately not `txc_sign::verify::NonceGuard`: the sandbox must not share what it tests.
/// The nonces each key has used.
#[derive(Debug, Default)]
pub(crate) struct Nonces {
    keys: HashMap<String, Used>,
}

/// One key's nonces.
#[derive(Debug, Default)]
struct Used {
    /// The greatest nonce accepted.
    last: u64,
    /// The window nonces accepted that are still within the window.
    recent: BTreeSet<u64>,
}

impl Nonces {
    /// Accepts `nonce` of `api_key` at server time `now_ms` and records it, or answers why
    /// not. `window`: whether the request set `nonceWindow: true`.
    pub(crate) fn admit(
        &mut self,
        api_key: &str,
        nonce: u64,
        window: bool,
        now_ms: u64,
    ) -> Result<(), AuthRejection> {
        let used = match self.keys.get_mut(api_key) {
            Some(used) => used,
            None => self.keys.entry(api_key.to_owned()).or_default(),
        };
        if window {
            if nonce.abs_diff(now_ms) > WINDOW_MS {
                return Err(AuthRejection::NONCE_OUTSIDE_WINDOW);
            }
            // Older nonces fail the window check before they could repeat.
            let oldest = now_ms.saturating_sub(WINDOW_MS);
            while used.recent.first().is_some_and(|&n| n < oldest) {
                used.recent.pop_first();
            }
            if !used.recent.insert(nonce) {
                return Err(AuthRejection::TOO_MANY_REQUESTS);
            }
        } else if nonce <= used.last {
            return Err(AuthRejection::TOO_MANY_REQUESTS);
        }
        used.last = used.last.max(nonce);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_700_000_000_000;

    #[test]
    fn strictly_greater_without_the_window() {
        let mut nonces = Nonces::default();
        assert_eq!(nonces.admit("k", 10, false, NOW), Ok(()));
        assert_eq!(
            nonces.admit("k", 10, false, NOW),
            Err(AuthRejection::TOO_MANY_REQUESTS)
        );
        assert_eq!(
            nonces.admit("k", 9, false, NOW),
            Err(AuthRejection::TOO_MANY_REQUESTS)
        );
        assert_eq!(nonces.admit("k", 11, false, NOW), Ok(()));
        assert_eq!(nonces.admit("other", 1, false, NOW), Ok(()), "per key");
    }

    #[test]
    fn once_each_within_five_seconds_with_the_window() {
        let mut nonces = Nonces::default();
        for nonce in [NOW - WINDOW_MS, NOW + WINDOW_MS, NOW, NOW - 1] {
            assert_eq!(nonces.admit("k", nonce, true, NOW), Ok(()), "{nonce}");
        }
        assert_eq!(
            nonces.admit("k", NOW, true, NOW),
            Err(AuthRejection::TOO_MANY_REQUESTS)
        );
        for nonce in [NOW - WINDOW_MS - 1, NOW + WINDOW_MS + 1, NOW / 1_000] {
            assert_eq!(
                nonces.admit("k", nonce, true, NOW),
                Err(AuthRejection::NONCE_OUTSIDE_WINDOW),
                "{nonce}"
            );
        }
        // A strict nonce must exceed every nonce accepted, window ones included.
        assert_eq!(
            nonces.admit("k", NOW + 1, false, NOW),
            Err(AuthRejection::TOO_MANY_REQUESTS)
        );
        assert_eq!(nonces.admit("k", NOW + WINDOW_MS + 1, false, NOW), Ok(()));
    }

    #[test]
    fn forgotten_only_once_outside_the_window() {
        let mut nonces = Nonces::default();
        assert_eq!(nonces.admit("k", NOW, true, NOW), Ok(()));
        // Ten seconds later the old nonce is outside the window, not a repeat.
        assert_eq!(
            nonces.admit("k", NOW, true, NOW + 2 * WINDOW_MS),
            Err(AuthRejection::NONCE_OUTSIDE_WINDOW)
        );
        assert_eq!(nonces.admit("k", NOW + 1, true, NOW + 1), Ok(()));
        assert_eq!(
            nonces.admit("k", NOW + 1, true, NOW + WINDOW_MS),
            Err(AuthRejection::TOO_MANY_REQUESTS)
        );
    }
}
