//! [`MemoryJournal`]: a journal that outlives the clients built with it, as the CLI's files
//! do — what a restarted process finds. A client is "restarted" by building a new one (with a
//! nonce sequence of its own) on the same journal.

use std::collections::BTreeMap;
use std::sync::Mutex;

use txc_core::resolve::{Journal, PendingRecord};

/// The records kept, by kind and key (first nonce).
#[derive(Debug, Default)]
pub struct MemoryJournal {
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
    pub fn records(&self) -> Vec<PendingRecord> {
        self.records.lock().unwrap().values().cloned().collect()
    }
}

impl Journal for MemoryJournal {
    fn record(&self, record: &PendingRecord) -> std::io::Result<()> {
        let mut records = self.records.lock().unwrap();
        records.insert(key(record), record.clone());
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
