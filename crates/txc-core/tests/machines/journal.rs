//! [`MemoryJournal`]: a journal that outlives the clients built with it, as a file does — the
//! memory a restarted process finds.

use std::collections::BTreeMap;
use std::sync::Mutex;

use txc_core::resolve::{Journal, PendingRecord};

/// The records kept, by kind and key (first nonce), as a journal of files keeps them.
#[derive(Debug, Default)]
pub(crate) struct MemoryJournal {
    records: Mutex<BTreeMap<(bool, u64), PendingRecord>>,
}

fn key(record: &PendingRecord) -> (bool, u64) {
    (
        record.order().is_some(),
        record.key().map_or(0, txc_sign::nonce::Nonce::get),
    )
}

impl MemoryJournal {
    /// The records kept.
    pub(crate) fn records(&self) -> Vec<PendingRecord> {
        self.records.lock().unwrap().values().cloned().collect()
    }
}

impl Journal for MemoryJournal {
    fn record(&self, record: &PendingRecord) -> std::io::Result<()> {
        self.records
            .lock()
            .unwrap()
            .insert(key(record), record.clone());
        Ok(())
    }

    fn clear(&self, record: &PendingRecord) -> std::io::Result<()> {
        self.records.lock().unwrap().remove(&key(record));
        Ok(())
    }

    fn load(&self) -> std::io::Result<Vec<PendingRecord>> {
        Ok(self.records())
    }
}
