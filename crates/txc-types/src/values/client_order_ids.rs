//! [`ClientOrderIds`]: the `clientOrderId`s order builders give orders that have none.

use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use super::ClientOrderId;

/// Makes `clientOrderId`s [`ClientOrderId::generated`]: `txc-<prefix>-<serial>`, where the
/// serial counts from 1. Every order a builder builds without an id of its own gets one from
/// the process-wide generator, so the caller holds the id before anything is sent.
///
/// Within one generator every id differs (the serial). The process-wide generator
/// ([`ClientOrderIds::process`], what order builders use) takes its 64-bit prefix from the standard
/// library's per-process random hash keys, so two processes — on one host or many — can only
/// collide if their prefixes do (one chance in 2⁶⁴ per pair): no coordination needed. A
/// fixed prefix ([`ClientOrderIds::with_prefix`]) gives repeatable ids, for tests.
///
/// ```
/// use txc_types::values::ClientOrderIds;
/// let ids = ClientOrderIds::with_prefix(42);
/// assert_eq!(ids.next().as_str(), "txc-0000000000016-1");
/// assert_eq!(ids.next().as_str(), "txc-0000000000016-2");
/// assert_ne!(ClientOrderIds::process().next(), ClientOrderIds::process().next());
/// ```
#[derive(Clone)]
pub struct ClientOrderIds {
    prefix: u64,
    serial: Arc<AtomicU64>,
}

impl ClientOrderIds {
    /// The process-wide generator, with a random prefix chosen once per process.
    pub fn process() -> Self {
        static PROCESS: LazyLock<ClientOrderIds> = LazyLock::new(|| {
            ClientOrderIds::with_prefix(RandomState::new().hash_one("txc client order ids"))
        });
        PROCESS.clone()
    }

    /// A generator with a fixed prefix.
    pub fn with_prefix(prefix: u64) -> Self {
        Self {
            prefix,
            serial: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The next id.
    pub fn next(&self) -> ClientOrderId {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        ClientOrderId::generated(self.prefix, serial)
    }
}

impl fmt::Debug for ClientOrderIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientOrderIds")
            .field("prefix", &self.prefix)
            .field("issued", &self.serial.load(Ordering::Relaxed))
            .finish()
    }
}
