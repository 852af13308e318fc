//! The journal of orders in flight: one file per order in the user's state directory, written
//! (and flushed to disk) before each attempt is sent and removed once the order's outcome is
//! definite — so a crash, a kill or Ctrl-C between sending and the answer leaves what `txc
//! resolve` needs. `txc pending` lists it.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use txc_blocking::outcomes::{AttemptRecord, Journal, PendingOrder};

use crate::exit::CliError;

/// The state directory's journal: `<dir>/pending/<market>.<clientOrderId>.json`.
#[derive(Debug, Clone)]
pub(crate) struct FileJournal {
    dir: PathBuf,
    base_url: String,
    api_key: String,
}

/// One order's file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// The exchange it was sent to.
    pub(crate) base_url: String,
    /// The key it was signed with (public).
    pub(crate) api_key: String,
    pub(crate) market: String,
    pub(crate) client_order_id: String,
    /// A trigger order (resolving reads the conditional orders too).
    pub(crate) trigger: bool,
    pub(crate) attempts: Vec<Attempt>,
}

/// One attempt: its nonce, and when it was signed (Unix milliseconds).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Attempt {
    pub(crate) nonce: u64,
    pub(crate) signed_at_ms: u64,
}

impl Entry {
    /// The pending record resolving needs.
    pub(crate) fn pending(&self) -> Result<PendingOrder, CliError> {
        let attempts = self
            .attempts
            .iter()
            .map(|a| crate::commands::attempt(a.nonce, a.signed_at_ms))
            .collect();
        pending_order(&self.market, &self.client_order_id, attempts, self.trigger)
            .map_err(|e| CliError::invalid(format!("journal: {e}")))
    }
}

/// The pending record of `market`'s order `client_order_id`, or which of the two is invalid.
pub(crate) fn pending_order(
    market: &str,
    client_order_id: &str,
    attempts: Vec<AttemptRecord>,
    trigger: bool,
) -> Result<PendingOrder, String> {
    let market = market.parse().map_err(|e| format!("invalid market: {e}"))?;
    let id = client_order_id
        .parse()
        .map_err(|e| format!("invalid clientOrderId: {e}"))?;
    Ok(PendingOrder::new(market, id, attempts).with_trigger(trigger))
}

impl FileJournal {
    /// The journal in `state_dir` of orders sent to `base_url` with `api_key`.
    pub(crate) fn new(state_dir: &Path, base_url: &str, api_key: &str) -> Self {
        Self {
            dir: state_dir.join("pending"),
            base_url: base_url.to_owned(),
            api_key: api_key.to_owned(),
        }
    }

    /// The file of an order.
    fn file(&self, market: &str, client_order_id: &str) -> PathBuf {
        // Markets and ids are letters, digits, `-`, `.` and `_`: safe in a file name.
        self.dir.join(format!("{market}.{client_order_id}.json"))
    }

    /// The entry of an order, if the journal has one.
    pub(crate) fn read(
        &self,
        market: &str,
        client_order_id: &str,
    ) -> Result<Option<Entry>, CliError> {
        let path = self.file(market, client_order_id);
        match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| {
                CliError::invalid(format!(
                    "cannot read the journal entry {}: {e}",
                    path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(CliError::invalid(format!(
                "cannot read the journal entry {}: {e}",
                path.display()
            ))),
        }
    }

    /// Every entry, oldest first attempt first.
    pub(crate) fn entries(&self) -> Result<Vec<(PathBuf, Entry)>, CliError> {
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(CliError::invalid(format!(
                    "cannot read the journal {}: {e}",
                    self.dir.display()
                )));
            }
        };
        let mut entries = Vec::new();
        for item in listing.flatten() {
            let path = item.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let entry: Entry = fs::read(&path)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .ok_or_else(|| {
                    CliError::invalid(format!("unreadable journal entry {}", path.display()))
                })?;
            entries.push((path, entry));
        }
        entries.sort_by_key(|(_, e)| e.attempts.iter().map(|a| a.signed_at_ms).min());
        Ok(entries)
    }

    /// Writes `entry` atomically: a temporary file, flushed to disk, renamed over the old one.
    fn write(&self, entry: &Entry) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let path = self.file(&entry.market, &entry.client_order_id);
        let temporary = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(entry).map_err(std::io::Error::other)?;
        let mut file = fs::File::create(&temporary)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, &path)
    }
}

impl Journal for FileJournal {
    fn record(&self, order: &PendingOrder) -> std::io::Result<()> {
        let attempts = order
            .attempts()
            .iter()
            .map(|a| Attempt {
                nonce: a.nonce.get(),
                signed_at_ms: unix_ms(a.signed_at),
            })
            .collect();
        self.write(&Entry {
            base_url: self.base_url.clone(),
            api_key: self.api_key.clone(),
            market: order.market().as_str().to_owned(),
            client_order_id: order.client_order_id().as_str().to_owned(),
            trigger: order.is_trigger(),
            attempts,
        })
    }

    fn clear(&self, order: &PendingOrder) -> std::io::Result<()> {
        let path = self.file(order.market().as_str(), order.client_order_id().as_str());
        match fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Unix milliseconds of `time`.
pub(crate) fn unix_ms(time: SystemTime) -> u64 {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// The state directory: `--state-dir`/`TXC_STATE_DIR`, else `<state dir>/txc` (on systems
/// without one, the local data directory).
pub(crate) fn state_dir(given: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(dir) = given {
        return Ok(dir.to_owned());
    }
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|dir| dir.join("txc"))
        .ok_or_else(|| {
            CliError::invalid(
                "no state directory on this system for the journal of orders in flight; pass \
                 --state-dir PATH (or TXC_STATE_DIR)",
            )
        })
}
