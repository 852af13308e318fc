//! The journal of orders and investments in flight: one file per record in the user's state
//! directory, written (and flushed to disk) before each attempt is sent and removed once the
//! record's outcome is definite — so a crash, a kill or Ctrl-C between sending and the answer
//! leaves what `txc resolve` (or `txc resolve-investment`) needs. Every command that places or
//! resolves builds its client with it, so it is read back first: `txc pending` lists it, a
//! placing command meets an unresolved record of the same order before it sends anything.
//!
//! # The files (format version 3)
//!
//! `<state dir>/pending/order.<market>.<clientOrderId>.<first nonce>.json` for an order,
//! `<state dir>/pending/investment.<plan id>.<amount>.<first nonce>.json` for an investment,
//! `flex-invest.<plan id>.<amount>.<first nonce>.json` and
//! `flex-withdraw.<plan id>.<amount>.<first nonce>.json` for a flex investment and withdrawal
//! (characters other than letters, digits, `-`, `_` and `.` written `_`): one file per
//! placement, known by its first attempt's nonce, so that two placements of one
//! `clientOrderId` never share a file. Each is one JSON object:
//!
//! ```json
//! {
//!   "version": 3,
//!   "base_url": "https://whitebit.com",
//!   "api_key": "<the key it was signed with (public)>",
//!   "kind": "order",
//!   "market": "BTC_USDT", "client_order_id": "txc-…", "trigger": false,
//!   "attempts": [{ "nonce": 1700000000000, "signed_at_ms": 1700000000000 }],
//!   "reason": "<why resolving could not tell, once it was tried>"
//! }
//! ```
//!
//! An investment's has `"kind": "investment"`, `"plan_id"`, `"amount"`, `"ticker"` (when
//! known) and `"strict"` (signed without `nonceWindow`) instead of the order's fields; a flex
//! investment's the same with `"kind": "flex_invest"` and `"with_reinvest"` (when sent), a
//! flex withdrawal's with `"kind": "flex_withdraw"`.
//! `reason` is absent until a resolution could not tell. A file is written to
//! `<name>.json.tmp`, flushed and renamed over the old one.
//!
//! An order placed over the WebSocket (`--via ws`) is written in **version 4**: version 3
//! with `"socket_attempts": [{ "written_at_us": …, "settled_at_us": … }]` (when each frame
//! was handed to the socket, and when its outcome settled — or, while in flight, the answer's
//! time-out), Unix microseconds; its key, and its file name's, is its first frame's
//! `written_at_us` when it has no attempt over REST. Version 3 stays what every other record
//! is written in, so a txc that does not know version 4 refuses only those.
//!
//! **Versions.** Version 1 (txc 0.3 and earlier) wrote orders only, to
//! `<market>.<clientOrderId>.json`, without `version` or `kind`; version 2 (txc 0.4) orders and
//! investments, as version 3 writes them. This txc reads both and rewrites such a file as
//! version 3 when a client of its exchange and key reads the journal. A file of a later version
//! is refused with an error naming it and its version: nothing is sent until it is resolved
//! with the txc that wrote it.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use txc_blocking::errors::ValidationError;
use txc_blocking::investments::Invest;
use txc_blocking::investments::flex::{FlexInvest, FlexWithdraw};
use txc_blocking::outcomes::{
    AttemptRecord, Journal, MoneyMove, Nonce, NonceMode, PendingModify, PendingMove, PendingOrder,
    PendingRecord,
};
use txc_blocking::socket::SocketAttempt;
use txc_blocking::values::Ticker;

use crate::exit::CliError;

/// The format version this txc writes.
pub(crate) const FORMAT_VERSION: u64 = 3;

/// The format version of an order sent over the WebSocket (version 3 with
/// `socket_attempts`): an older txc, which would not see those attempts, refuses it.
pub(crate) const SOCKET_FORMAT_VERSION: u64 = 4;

/// The state directory's journal, `<dir>/pending/`, as one exchange and key see it.
#[derive(Debug, Clone)]
pub(crate) struct FileJournal {
    dir: PathBuf,
    base_url: String,
    api_key: String,
}

/// One record's file (version 3).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// [`FORMAT_VERSION`].
    pub(crate) version: u64,
    /// The exchange it was sent to.
    pub(crate) base_url: String,
    /// The key it was signed with (public).
    pub(crate) api_key: String,
    /// What was sent.
    #[serde(flatten)]
    pub(crate) what: What,
    pub(crate) attempts: Vec<Attempt>,
    /// An order's attempts over the WebSocket (version 4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) socket_attempts: Vec<SocketAttemptEntry>,
    /// Why resolving could not tell, once it was tried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<String>,
}

/// One attempt over the WebSocket: when its frame was handed to the socket and when its
/// outcome settled (as unknown, or not yet: the answer's time-out), Unix microseconds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct SocketAttemptEntry {
    pub(crate) written_at_us: u64,
    pub(crate) settled_at_us: u64,
}

impl SocketAttemptEntry {
    fn of(attempt: &SocketAttempt) -> Self {
        Self {
            written_at_us: unix_us(attempt.written_at),
            settled_at_us: unix_us(attempt.settled_at),
        }
    }

    /// The attempt these times make.
    pub(crate) fn record(self) -> SocketAttempt {
        let at = |us: u64| UNIX_EPOCH + Duration::from_micros(us);
        SocketAttempt {
            written_at: at(self.written_at_us),
            settled_at: at(self.settled_at_us),
        }
    }
}

/// What a record is of.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum What {
    /// An order.
    Order {
        market: String,
        client_order_id: String,
        /// A trigger order (resolving reads the conditional orders too).
        trigger: bool,
    },
    /// An investment in a fixed plan.
    Investment(Moved),
    /// An investment in a flex plan.
    FlexInvest {
        #[serde(flatten)]
        moved: Moved,
        /// `withReinvest`, when it was sent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with_reinvest: Option<bool>,
    },
    /// A withdrawal from a flex plan.
    FlexWithdraw(Moved),
    /// A modify of an order.
    Modify {
        /// The request as sent (its JSON body's fields, without `request` and `nonce`).
        request: serde_json::Map<String, serde_json::Value>,
        /// The order's `orderId` as read before the modify, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        original_order_id: Option<u64>,
        /// The order's `clientOrderId` as read before the modify, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_order_id: Option<String>,
    },
}

/// What the record of an operation that moves money holds: its plan and amount, the plan's
/// currency when known, how its nonces were signed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Moved {
    pub(crate) plan_id: String,
    pub(crate) amount: String,
    /// The plan's currency, when known (it narrows the look-ups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ticker: Option<String>,
    /// Signed without `nonceWindow`.
    pub(crate) strict: bool,
}

impl Moved {
    /// The fields of `pending`, whose plan's currency is `ticker` when known.
    fn of<R: MoneyMove>(pending: &PendingMove<R>, ticker: Option<&Ticker>) -> Self {
        let request = pending.request();
        Self {
            plan_id: request.plan_id().to_owned(),
            amount: request.amount().as_str().to_owned(),
            ticker: ticker.map(|t| t.as_str().to_owned()),
            strict: pending.nonce_mode() == NonceMode::Strict,
        }
    }

    /// The request these fields hold: `new` of the plan and amount, knowing the plan's
    /// currency when the record has it (`with_ticker`); `what` names it in the error.
    fn request<R>(
        &self,
        new: impl FnOnce(&str, &str) -> Result<R, ValidationError>,
        with_ticker: fn(R, Ticker) -> R,
        what: &str,
    ) -> Result<R, String> {
        let request =
            new(&self.plan_id, &self.amount).map_err(|e| format!("invalid {what}: {e}"))?;
        match &self.ticker {
            Some(ticker) => {
                let ticker = ticker.parse().map_err(|e| format!("invalid ticker: {e}"))?;
                Ok(with_ticker(request, ticker))
            }
            None => Ok(request),
        }
    }

    /// The pending operation `request` of these fields, sent in `attempts`, noted with
    /// `reason` when there is one.
    fn pending<R>(
        &self,
        request: R,
        attempts: Vec<AttemptRecord>,
        reason: Option<&str>,
    ) -> PendingMove<R> {
        let mode = if self.strict {
            NonceMode::Strict
        } else {
            NonceMode::Window
        };
        let pending = PendingMove::new(request, mode, attempts);
        match reason {
            Some(reason) => pending.with_reason(reason),
            None => pending,
        }
    }
}

/// A version-1 file: an order, without `version` or `kind`.
#[derive(Debug, Deserialize)]
struct EntryV1 {
    base_url: String,
    api_key: String,
    market: String,
    client_order_id: String,
    trigger: bool,
    attempts: Vec<Attempt>,
}

/// One attempt: its nonce, and when it was signed (Unix milliseconds).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Attempt {
    pub(crate) nonce: u64,
    pub(crate) signed_at_ms: u64,
}

impl Attempt {
    fn of(attempt: &AttemptRecord) -> Self {
        Self {
            nonce: attempt.nonce.get(),
            signed_at_ms: unix_ms(attempt.signed_at),
        }
    }

    fn record(&self) -> AttemptRecord {
        attempt(self.nonce, self.signed_at_ms)
    }
}

/// The record of an attempt with `nonce`, signed at `signed_at_ms` (Unix milliseconds).
pub(crate) fn attempt(nonce: u64, signed_at_ms: u64) -> AttemptRecord {
    AttemptRecord {
        nonce: Nonce(nonce),
        signed_at: UNIX_EPOCH + Duration::from_millis(signed_at_ms),
    }
}

impl Entry {
    /// The file of `record`, sent to `base_url` with `api_key`.
    fn of(record: &PendingRecord, base_url: &str, api_key: &str) -> Option<Self> {
        let socket_attempts: Vec<SocketAttemptEntry> = match record {
            PendingRecord::Order(order) => order
                .socket_attempts()
                .iter()
                .map(SocketAttemptEntry::of)
                .collect(),
            _ => Vec::new(),
        };
        let (what, attempts) = match record {
            PendingRecord::Order(order) => (
                What::Order {
                    market: order.market().as_str().to_owned(),
                    client_order_id: order.client_order_id().as_str().to_owned(),
                    trigger: order.is_trigger(),
                },
                order.attempts(),
            ),
            PendingRecord::Investment(investment) => (
                What::Investment(Moved::of(investment, investment.invest().ticker())),
                investment.attempts(),
            ),
            PendingRecord::FlexInvest(invest) => (
                What::FlexInvest {
                    moved: Moved::of(invest, invest.request().ticker()),
                    with_reinvest: invest.request().reinvest(),
                },
                invest.attempts(),
            ),
            PendingRecord::FlexWithdraw(withdraw) => (
                What::FlexWithdraw(Moved::of(withdraw, withdraw.request().ticker())),
                withdraw.attempts(),
            ),
            PendingRecord::Modify(modify) => {
                let request = match serde_json::to_value(modify.modify()) {
                    Ok(serde_json::Value::Object(request)) => request,
                    _ => return None,
                };
                (
                    What::Modify {
                        request,
                        original_order_id: modify.original_order_id(),
                        client_order_id: modify.client_order_id().map(|id| id.as_str().to_owned()),
                    },
                    modify.attempts(),
                )
            }
            _ => return None,
        };
        Some(Self {
            version: if socket_attempts.is_empty() {
                FORMAT_VERSION
            } else {
                SOCKET_FORMAT_VERSION
            },
            base_url: base_url.to_owned(),
            api_key: api_key.to_owned(),
            what,
            attempts: attempts.iter().map(Attempt::of).collect(),
            socket_attempts,
            reason: record.reason().map(str::to_owned),
        })
    }

    /// The record resolving needs, or why the file does not make one.
    pub(crate) fn record(&self) -> Result<PendingRecord, String> {
        let attempts: Vec<AttemptRecord> = self.attempts.iter().map(Attempt::record).collect();
        let reason = self.reason.as_deref();
        let record = match &self.what {
            What::Order {
                market,
                client_order_id,
                trigger,
            } => {
                let order = pending_order(market, client_order_id, attempts, *trigger)?
                    .with_socket_attempts(self.socket_attempts.iter().map(|a| a.record()));
                PendingRecord::Order(match &self.reason {
                    Some(reason) => order.with_reason(reason.clone()),
                    None => order,
                })
            }
            What::Investment(moved) => {
                let invest =
                    moved.request(|p, a| Invest::new(p, a), Invest::with_ticker, "investment")?;
                PendingRecord::Investment(moved.pending(invest, attempts, reason))
            }
            What::FlexInvest {
                moved,
                with_reinvest,
            } => {
                let mut invest = moved.request(
                    |p, a| FlexInvest::new(p, a),
                    FlexInvest::with_ticker,
                    "flex investment",
                )?;
                if let Some(reinvest) = with_reinvest {
                    invest = invest.with_reinvest(*reinvest);
                }
                PendingRecord::FlexInvest(moved.pending(invest, attempts, reason))
            }
            What::FlexWithdraw(moved) => {
                let withdraw = moved.request(
                    |p, a| FlexWithdraw::new(p, a),
                    FlexWithdraw::with_ticker,
                    "flex withdrawal",
                )?;
                PendingRecord::FlexWithdraw(moved.pending(withdraw, attempts, reason))
            }
            What::Modify {
                request,
                original_order_id,
                client_order_id,
            } => {
                let modify = modify_of(request)?;
                let client_order_id = client_order_id
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|e| format!("invalid clientOrderId: {e}"))?;
                let pending =
                    PendingModify::new(modify, *original_order_id, client_order_id, attempts);
                PendingRecord::Modify(match &self.reason {
                    Some(reason) => pending.with_reason(reason.clone()),
                    None => pending,
                })
            }
        };
        Ok(record)
    }

    /// Whether the record is an operation of kind `R` that resolving cannot tell from
    /// `request` (the same plan and amount).
    pub(crate) fn holds<R: MoneyMove>(&self, request: &R) -> bool {
        let record = self.record().ok();
        record
            .as_ref()
            .and_then(R::unwrap)
            .is_some_and(|pending| pending.request().same(request))
    }

    /// The record's key: its first attempt's nonce — for an order sent over the WebSocket
    /// only, its first frame's time in microseconds (as the client keys it).
    pub(crate) fn key(&self) -> Option<u64> {
        self.attempts
            .first()
            .map(|a| a.nonce)
            .or_else(|| self.socket_attempts.first().map(|a| a.written_at_us))
    }

    /// When it was first sent (Unix milliseconds), over REST or the WebSocket.
    fn first_sent_ms(&self) -> Option<u64> {
        let rest = self.attempts.iter().map(|a| a.signed_at_ms);
        let socket = self.socket_attempts.iter().map(|a| a.written_at_us / 1000);
        rest.chain(socket).min()
    }

    /// Its file name.
    fn file_name(&self) -> String {
        let key = self.key().unwrap_or_default();
        match &self.what {
            What::Order {
                market,
                client_order_id,
                ..
            } => format!(
                "order.{}.{}.{key}.json",
                safe(market),
                safe(client_order_id)
            ),
            What::Investment(moved) => moved.file_name("investment", key),
            What::FlexInvest { moved, .. } => moved.file_name("flex-invest", key),
            What::FlexWithdraw(moved) => moved.file_name("flex-withdraw", key),
            What::Modify { request, .. } => {
                let text = |k: &str| request.get(k).and_then(|v| v.as_str()).unwrap_or("-");
                format!("modify.{}.{key}.json", safe(text("market")))
            }
        }
    }
}

impl What {
    /// The record's `kind`, as the file names it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Order { .. } => "order",
            Self::Investment(_) => "investment",
            Self::FlexInvest { .. } => "flex_invest",
            Self::FlexWithdraw(_) => "flex_withdraw",
            Self::Modify { .. } => "modify",
        }
    }

    /// An operation's plan and amount, if it moves money.
    pub(crate) fn moved(&self) -> Option<&Moved> {
        match self {
            Self::Order { .. } | Self::Modify { .. } => None,
            Self::Investment(moved)
            | Self::FlexInvest { moved, .. }
            | Self::FlexWithdraw(moved) => Some(moved),
        }
    }
}

impl Moved {
    /// The file name of a record of `kind` with these fields and `key`.
    fn file_name(&self, kind: &str, key: u64) -> String {
        format!(
            "{kind}.{}.{}.{key}.json",
            safe(&self.plan_id),
            safe(&self.amount)
        )
    }
}

/// `text` with every character but letters, digits, `-`, `_` and `.` written `_`.
fn safe(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
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

/// Reads a journal file of any version this txc knows, as version 3, with the version it was
/// written in; a later version is refused, naming the file.
fn read_entry(path: &Path) -> Result<(u64, Entry), CliError> {
    let unreadable = |e: String| {
        CliError::invalid(format!(
            "cannot read the journal entry {}: {e}",
            path.display()
        ))
    };
    let bytes = fs::read(path).map_err(|e| unreadable(e.to_string()))?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| unreadable(e.to_string()))?;
    let version = match value.get("version") {
        None => 1,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| unreadable(format!("its version is not a number: {v}")))?,
    };
    match version {
        1 => {
            let old: EntryV1 =
                serde_json::from_value(value).map_err(|e| unreadable(e.to_string()))?;
            let entry = Entry {
                version: FORMAT_VERSION,
                base_url: old.base_url,
                api_key: old.api_key,
                what: What::Order {
                    market: old.market,
                    client_order_id: old.client_order_id,
                    trigger: old.trigger,
                },
                attempts: old.attempts,
                socket_attempts: Vec::new(),
                reason: None,
            };
            Ok((1, entry))
        }
        // Version 2 is version 3 without the flex kinds; version 4 is version 3 with an
        // order's attempts over the WebSocket.
        2 | FORMAT_VERSION => serde_json::from_value(value)
            .map(|entry: Entry| {
                let entry = Entry {
                    version: FORMAT_VERSION,
                    ..entry
                };
                (version, entry)
            })
            .map_err(|e| unreadable(e.to_string())),
        SOCKET_FORMAT_VERSION => serde_json::from_value(value)
            .map(|entry: Entry| (version, entry))
            .map_err(|e| unreadable(e.to_string())),
        newer => Err(CliError::invalid(format!(
            "the journal entry {} is in format version {newer}, written by a newer txc; this \
             txc reads versions 1 to {SOCKET_FORMAT_VERSION}. Nothing was sent: resolve it with the \
             txc that wrote it (or upgrade this one)",
            path.display()
        ))),
    }
}

impl FileJournal {
    /// The journal in `state_dir` of what is sent to `base_url` with `api_key`.
    pub(crate) fn new(state_dir: &Path, base_url: &str, api_key: &str) -> Self {
        Self {
            dir: state_dir.join("pending"),
            base_url: base_url.to_owned(),
            api_key: api_key.to_owned(),
        }
    }

    /// Whether `entry` was sent to this journal's exchange with its key.
    pub(crate) fn owns(&self, entry: &Entry) -> bool {
        entry.base_url == self.base_url && entry.api_key == self.api_key
    }

    /// Every entry of every exchange and key, oldest first attempt first, each with its file
    /// and the version it was written in. A file of a later version fails it.
    fn files(&self) -> Result<Vec<(PathBuf, u64, Entry)>, CliError> {
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
            let (version, entry) = read_entry(&path)?;
            entries.push((path, version, entry));
        }
        entries.sort_by_key(|(_, _, e)| e.first_sent_ms());
        Ok(entries)
    }

    /// Every entry of every exchange and key, oldest first attempt first.
    pub(crate) fn entries(&self) -> Result<Vec<Entry>, CliError> {
        Ok(self.files()?.into_iter().map(|(_, _, e)| e).collect())
    }

    /// Writes `entry` atomically: a temporary file, flushed to disk, renamed over the old one;
    /// the file's path.
    fn write(&self, entry: &Entry) -> std::io::Result<PathBuf> {
        fs::create_dir_all(&self.dir)?;
        let path = self.dir.join(entry.file_name());
        let temporary = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(entry).map_err(std::io::Error::other)?;
        let mut file = fs::File::create(&temporary)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, &path)?;
        Ok(path)
    }
}

impl Journal for FileJournal {
    fn record(&self, record: &PendingRecord) -> std::io::Result<()> {
        match Entry::of(record, &self.base_url, &self.api_key) {
            Some(entry) => self.write(&entry).map(drop),
            None => Err(std::io::Error::other(
                "a record of a kind this txc cannot write",
            )),
        }
    }

    fn clear(&self, record: &PendingRecord) -> std::io::Result<()> {
        let Some(entry) = Entry::of(record, &self.base_url, &self.api_key) else {
            return Ok(());
        };
        match fs::remove_file(self.dir.join(entry.file_name())) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// This exchange's and key's records; a file of an earlier version among them is
    /// rewritten as version 3 first (under its version-3 name).
    fn load(&self) -> std::io::Result<Vec<PendingRecord>> {
        let files = self
            .files()
            .map_err(|e| std::io::Error::other(e.message()))?;
        let mut records = Vec::new();
        for (path, version, entry) in files {
            if !self.owns(&entry) {
                continue;
            }
            let record = entry.record().map_err(|e| {
                std::io::Error::other(format!("the journal entry {}: {e}", path.display()))
            })?;
            if version < FORMAT_VERSION && self.write(&entry)? != path {
                fs::remove_file(&path)?;
            }
            records.push(record);
        }
        Ok(records)
    }
}

/// Unix microseconds of `time`.
fn unix_us(time: SystemTime) -> u64 {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_micros()).unwrap_or(u64::MAX)
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

/// The modify a journal entry's request holds, rebuilt (and so checked) by its builder.
fn modify_of(
    request: &serde_json::Map<String, serde_json::Value>,
) -> Result<txc_blocking::orders::ModifyOrder, String> {
    use txc_blocking::orders::{ModifyOrder, ModifyOrderBuilder, Stp};
    let text = |k: &str| request.get(k).and_then(serde_json::Value::as_str);
    let market = text("market").ok_or("a modify without its market")?;
    let builder = match (
        request.get("orderId").and_then(serde_json::Value::as_u64),
        text("clientOrderId"),
    ) {
        (Some(id), _) => ModifyOrder::by_order_id(market, id),
        (None, Some(id)) => ModifyOrder::by_client_order_id(market, id),
        (None, None) => return Err("a modify naming no order".to_owned()),
    };
    type B = ModifyOrderBuilder;
    let set = |builder: B, value: Option<&str>, with: fn(B, &str) -> B| match value {
        Some(value) => with(builder, value),
        None => builder,
    };
    let builder = set(builder, text("amount"), |b, v| b.amount(v));
    let builder = set(builder, text("total"), |b, v| b.total(v));
    let builder = set(builder, text("price"), |b, v| b.price(v));
    let builder = set(builder, text("activationPrice"), |b, v| {
        b.activation_price(v)
    });
    let stp = request
        .get("stp")
        .map(|v| serde_json::from_value::<Stp>(v.clone()))
        .transpose()
        .map_err(|e| format!("invalid stp: {e}"))?;
    let builder = match stp {
        Some(stp) => builder.stp(stp),
        None => builder,
    };
    builder.build().map_err(|e| format!("invalid modify: {e}"))
}
