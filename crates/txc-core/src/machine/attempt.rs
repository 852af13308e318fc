//! [`AttemptRecord`]: one attempt of a call — what every pending record keeps of it.

use std::time::SystemTime;

use txc_sign::nonce::Nonce;

/// One attempt of a [`Call`](super::Call): the nonce it was signed with and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptRecord {
    /// The attempt's nonce.
    pub nonce: Nonce,
    /// When it was signed (the time passed to [`Machine::next`](super::Machine::next)).
    pub signed_at: SystemTime,
}
