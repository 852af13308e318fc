//! Helpers shared by the txc examples, so that each example shows only the SDK calls.
//!
//! **What it is for:** the examples in `examples/examples/`. It chooses the server
//! ([`Target::from_env`]: the embedded [`txc_sandbox::Sandbox`] unless `TXC_BASE_URL`,
//! `TXC_API_KEY` and `TXC_API_SECRET` are all set), refuses to contact anything but loopback
//! without `--live` ([`check_live`]), and formats the short report the examples print
//! ([`line()`], [`order_summary`], [`plan_summary`], [`api_error_summary`]).
//!
//! **What it is not for:** applications. It is not published; copy what you need.
//!
//! The decisions are pure functions, tested below: [`remote_from_env`] (which server, from an
//! environment lookup), [`is_loopback`] and [`check_live`] (may we send), [`parse_args`].
//!
//! ```
//! use txc_examples::{check_live, is_loopback};
//! assert!(is_loopback("http://127.0.0.1:8080"));
//! assert!(check_live("http://localhost:8080", false).is_ok());
//! assert!(check_live("https://whitebit.com", false).is_err()); // needs --live
//! assert!(check_live("https://whitebit.com", true).is_ok());
//! ```

// The report helpers print: that is what the examples are for.
#![allow(clippy::print_stdout)]

use std::fmt;
use std::net::IpAddr;

use txc_sandbox::{Sandbox, SandboxError, demo};
use txc_sign::{ApiError, Credentials};
use txc_types::{ActivationCondition, InvestmentPlan, Order, PlanStatus, ValidationError};

/// Environment variable naming the server, e.g. `https://whitebit.com`.
pub const ENV_BASE_URL: &str = "TXC_BASE_URL";
/// Environment variable holding the public API key.
pub const ENV_API_KEY: &str = "TXC_API_KEY";
/// Environment variable holding the API secret (never printed).
pub const ENV_API_SECRET: &str = "TXC_API_SECRET";
/// The command-line flag that allows contacting a server that is not on loopback.
pub const LIVE_FLAG: &str = "--live";

/// Why an example could not start. Nothing has been sent when this is returned.
///
/// `Debug` prints the same readable message as `Display`, because `main` returning
/// `Err` prints the error with `Debug`.
#[non_exhaustive]
pub enum SetupError {
    /// Some, but not all, of the three environment variables are set.
    PartialEnv {
        /// The variables that are missing or empty.
        missing: Vec<&'static str>,
    },
    /// The server is not on loopback and `--live` was not given.
    LiveRequired {
        /// The server's base URL.
        base_url: String,
    },
    /// A command-line argument the examples do not know.
    UnknownArgument(String),
    /// The credentials are unusable (e.g. an API key with spaces).
    Credentials(txc_sign::Error),
    /// The embedded sandbox could not start.
    Sandbox(SandboxError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PartialEnv { missing } => write!(
                f,
                "{} must be set together to use your own server, but {} {} missing; \
                 unset all three to use the embedded sandbox",
                [ENV_BASE_URL, ENV_API_KEY, ENV_API_SECRET].join(", "),
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" },
            ),
            Self::LiveRequired { base_url } => write!(
                f,
                "refusing to contact {base_url}: it is not a loopback address and these \
                 examples send signed requests and place real orders. Nothing was sent. \
                 Re-run with `{LIVE_FLAG}` if you mean it: \
                 `cargo run -p txc-examples --example NAME -- {LIVE_FLAG}`"
            ),
            Self::UnknownArgument(arg) => write!(
                f,
                "unknown argument {arg:?}; the only option is `{LIVE_FLAG}` \
                 (cargo run -p txc-examples --example NAME [-- {LIVE_FLAG}])"
            ),
            Self::Credentials(e) => write!(f, "unusable credentials: {e}"),
            Self::Sandbox(e) => write!(f, "cannot start the embedded sandbox: {e}"),
        }
    }
}

impl fmt::Debug for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Credentials(e) => Some(e),
            Self::Sandbox(e) => Some(e),
            _ => None,
        }
    }
}

/// The command-line options of every example.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Args {
    /// `--live`: allow a server that is not on loopback.
    pub live: bool,
}

/// Parses the arguments after the program name; only [`LIVE_FLAG`] is known.
pub fn parse_args<I, S>(args: I) -> Result<Args, SetupError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut parsed = Args::default();
    for arg in args {
        let arg = arg.into();
        if arg == LIVE_FLAG {
            parsed.live = true;
        } else {
            return Err(SetupError::UnknownArgument(arg));
        }
    }
    Ok(parsed)
}

/// A server chosen through the environment. `Debug` never shows the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct RemoteConfig {
    /// The base URL, e.g. `https://whitebit.com`.
    pub base_url: String,
    /// The public API key.
    pub api_key: String,
    api_secret: String,
}

impl RemoteConfig {
    /// The API secret. Pass it to [`Credentials::new`]; never print it.
    pub fn api_secret(&self) -> &str {
        &self.api_secret
    }
}

impl fmt::Debug for RemoteConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key)
            .field("api_secret", &"<redacted>")
            .finish()
    }
}

/// Chooses the server from an environment lookup (`lookup(name)` is the variable's value):
/// `Ok(None)` (use the embedded sandbox) when none of [`ENV_BASE_URL`], [`ENV_API_KEY`],
/// [`ENV_API_SECRET`] is set, `Ok(Some(_))` when all three are, and an error naming the
/// missing ones otherwise. Empty values count as unset.
pub fn remote_from_env(
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Option<RemoteConfig>, SetupError> {
    let get = |name| lookup(name).filter(|v| !v.is_empty());
    let (base_url, api_key, api_secret) =
        (get(ENV_BASE_URL), get(ENV_API_KEY), get(ENV_API_SECRET));
    match (base_url, api_key, api_secret) {
        (None, None, None) => Ok(None),
        (Some(base_url), Some(api_key), Some(api_secret)) => Ok(Some(RemoteConfig {
            base_url,
            api_key,
            api_secret,
        })),
        (base_url, api_key, api_secret) => {
            let missing = [
                (ENV_BASE_URL, base_url.is_none()),
                (ENV_API_KEY, api_key.is_none()),
                (ENV_API_SECRET, api_secret.is_none()),
            ]
            .into_iter()
            .filter_map(|(name, missing)| missing.then_some(name))
            .collect();
            Err(SetupError::PartialEnv { missing })
        }
    }
}

/// Whether `base_url`'s host is on loopback: `localhost`, `127.0.0.0/8` or `[::1]`.
/// Anything unparsable counts as not loopback.
pub fn is_loopback(base_url: &str) -> bool {
    let Ok(uri) = base_url.trim().parse::<http::Uri>() else {
        return false;
    };
    let Some(host) = uri.host() else {
        return false;
    };
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let ip = host.trim_start_matches('[').trim_end_matches(']');
    ip.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The `--live` guard: a loopback server is always allowed; any other server only with
/// `live`. Call it before building a client, so a refusal happens before any network I/O.
pub fn check_live(base_url: &str, live: bool) -> Result<(), SetupError> {
    if live || is_loopback(base_url) {
        Ok(())
    } else {
        Err(SetupError::LiveRequired {
            base_url: base_url.to_owned(),
        })
    }
}

/// The server an example talks to, with the credentials to use there.
///
/// On the embedded sandbox it owns the [`Sandbox`]; dropping the target stops it.
pub struct Target {
    base_url: String,
    credentials: Credentials,
    sandbox: Option<Sandbox>,
}

impl Target {
    /// Reads the command line and the environment and prepares the server: the embedded
    /// sandbox (started here, with the demo B2B partner key), or the server named by the
    /// environment — refused without `--live` unless it is on loopback.
    pub fn from_env() -> Result<Self, SetupError> {
        let args = parse_args(std::env::args().skip(1))?;
        let remote = remote_from_env(|name| {
            std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
        })?;
        Self::new(args, remote)
    }

    /// Like [`Target::from_env`] with the decisions already made: `remote` as returned by
    /// [`remote_from_env`], `None` for the embedded sandbox.
    pub fn new(args: Args, remote: Option<RemoteConfig>) -> Result<Self, SetupError> {
        match remote {
            Some(remote) => {
                check_live(&remote.base_url, args.live)?;
                let credentials = Credentials::new(remote.api_key, remote.api_secret.as_bytes())
                    .map_err(SetupError::Credentials)?;
                Ok(Self {
                    base_url: remote.base_url,
                    credentials,
                    sandbox: None,
                })
            }
            None => {
                let sandbox = Sandbox::start().map_err(SetupError::Sandbox)?;
                let credentials = Credentials::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
                    .map_err(SetupError::Credentials)?;
                Ok(Self {
                    base_url: sandbox.base_url().to_owned(),
                    credentials,
                    sandbox: Some(sandbox),
                })
            }
        }
    }

    /// The server's base URL, for the client builders' `.base_url(..)`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The credentials to sign with (cheap to clone).
    pub fn credentials(&self) -> Credentials {
        self.credentials.clone()
    }

    /// The embedded sandbox, or `None` on a server named by the environment.
    pub fn sandbox(&self) -> Option<&Sandbox> {
        self.sandbox.as_ref()
    }

    /// One line saying where requests go and with which key (the key shortened, the secret
    /// never shown).
    pub fn describe(&self) -> String {
        let key = short_key(self.credentials.api_key());
        match &self.sandbox {
            Some(_) => format!(
                "embedded sandbox at {} (demo partner key {key})",
                self.base_url
            ),
            None => format!("{} (key {key}, from {ENV_BASE_URL})", self.base_url),
        }
    }

    /// Prints the title of an example and [`Target::describe`].
    pub fn print_banner(&self, title: &str) {
        println!("{title}: {}", self.describe());
    }

    /// Prints why a sandbox-only step is skipped, when not on the embedded sandbox; returns
    /// the sandbox otherwise.
    pub fn sandbox_or_skip(&self, step: &str) -> Option<&Sandbox> {
        if self.sandbox.is_none() {
            note(step, "skipped: only possible on the embedded sandbox");
        }
        self.sandbox.as_ref()
    }

    /// Moves the embedded sandbox's `market` price to `price`, which fires the trigger orders
    /// it reaches, and prints the trigger order `placed` as the sandbox now lists it (e.g.
    /// `FILLED`, activated). Not on the embedded sandbox, prints that the step is skipped: the
    /// order then rests on the server until the market reaches its activation price. Does
    /// nothing but say so when `placed` was already activated when it was placed.
    pub fn fire_trigger(
        &self,
        market: &str,
        price: &str,
        placed: &Order,
    ) -> Result<(), SandboxError> {
        if placed.activated == Some(true) {
            note(
                "price move",
                "not needed: the order was activated when placed",
            );
            return Ok(());
        }
        let Some(sandbox) = self.sandbox_or_skip("price move") else {
            note(
                "",
                "the trigger order rests on the server until its price is reached",
            );
            return Ok(());
        };
        sandbox.set_price(market, price)?;
        ok(
            "price move",
            &format!("{market} → {price} (sandbox control)"),
        );
        let listed = sandbox
            .orders()
            .into_iter()
            .find(|o| o.order_id.is_some() && o.order_id == placed.order_id);
        match listed {
            Some(order) => ok("sandbox order list", &order_summary(&order)),
            None => rejected("sandbox order list", "the trigger order is not listed"),
        }
        Ok(())
    }

    /// Prints the embedded sandbox's counters (nothing when not on it).
    pub fn print_sandbox_stats(&self) {
        if let Some(sandbox) = &self.sandbox {
            let stats = sandbox.stats();
            heading("sandbox counters");
            note(
                "requests",
                &format!(
                    "{} received · {} orders accepted · {} filled · {} triggers fired · \
                     {} plans answers · {} rejections",
                    stats.requests,
                    stats.accepted_orders,
                    stats.filled_orders,
                    stats.triggers_fired,
                    stats.plans_served,
                    stats.rejections,
                ),
            );
        }
    }
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("base_url", &self.base_url)
            .field("credentials", &self.credentials)
            .field("embedded_sandbox", &self.sandbox.is_some())
            .finish()
    }
}

fn short_key(key: &str) -> String {
    match key.char_indices().nth(12) {
        Some((end, _)) => format!("{}…", key.get(..end).unwrap_or(key)),
        None => key.to_owned(),
    }
}

/// The mark in front of a report line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// `✓`: the step did what it should.
    Ok,
    /// `✗`: a rejection (shown on purpose, or a failure).
    Rejected,
    /// `·`: a note or a detail line.
    Note,
}

/// The width labels are padded to, so that details line up.
pub const LABEL_WIDTH: usize = 19;

/// Formats one aligned report line: `  ✓ label              detail`.
pub fn line(mark: Mark, label: &str, detail: &str) -> String {
    let mark = match mark {
        Mark::Ok => '✓',
        Mark::Rejected => '✗',
        Mark::Note => '·',
    };
    format!("  {mark} {label:<LABEL_WIDTH$} {detail}")
        .trim_end()
        .to_owned()
}

/// Prints a section heading.
pub fn heading(title: &str) {
    println!("\n{title}");
}

/// Prints a `✓` line.
pub fn ok(label: &str, detail: &str) {
    println!("{}", line(Mark::Ok, label, detail));
}

/// Prints a `✗` line.
pub fn rejected(label: &str, detail: &str) {
    println!("{}", line(Mark::Rejected, label, detail));
}

/// Prints a `·` line.
pub fn note(label: &str, detail: &str) {
    println!("{}", line(Mark::Note, label, detail));
}

/// Prints the plans answered for `ticker`: a count line, then one aligned line per plan.
pub fn print_plans(ticker: &str, plans: &[InvestmentPlan]) {
    let noun = if plans.len() == 1 { "plan" } else { "plans" };
    ok(
        "smart plans",
        &format!("{} {noun} with ticker {ticker}", plans.len()),
    );
    for plan in plans {
        note("", &plan_summary(plan));
    }
}

/// One line about an order: id, market, side, amount, status, fill price, trigger and
/// stop-loss/take-profit details, client order id. Missing fields are left out.
pub fn order_summary(order: &Order) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut head = String::new();
    if let Some(id) = order.order_id {
        head.push_str(&format!("#{id} "));
    }
    for text in [order.market.as_deref(), order.side.map(|s| s.as_str())]
        .into_iter()
        .flatten()
    {
        head.push_str(text);
        head.push(' ');
    }
    if let Some(amount) = &order.amount {
        head.push_str(amount);
        head.push(' ');
    }
    if let Some(status) = &order.status {
        head.push_str(status.as_str());
    }
    if let Some(price) = fill_price(order) {
        head.push_str(&format!(" at {price}"));
    }
    parts.push(head.trim_end().to_owned());
    if let Some(activation) = &order.activation_price {
        let when = match order.activation_condition {
            Some(ActivationCondition::Lte) => "price ≤ ",
            Some(ActivationCondition::Gte) => "price ≥ ",
            None => "",
        };
        let state = match order.activated {
            Some(true) => "activated",
            Some(false) => "waiting",
            None => "trigger",
        };
        parts.push(format!("{state} at {when}{activation}"));
    }
    if let Some(oto) = &order.oto {
        if let Some(sl) = &oto.stop_loss {
            parts.push(format!("SL {sl}"));
        }
        if let Some(tp) = &oto.take_profit {
            parts.push(format!("TP {tp}"));
        }
    }
    if let Some(id) = &order.client_order_id {
        parts.push(format!("clientOrderId {id}"));
    }
    parts.join(" · ")
}

/// The average fill price, `dealMoney / dealStock`, when something was executed.
pub fn fill_price(order: &Order) -> Option<String> {
    divide(order.deal_money.as_deref()?, order.deal_stock.as_deref()?)
}

/// Divides two plain decimals exactly enough for display (8 decimal places, rounded down,
/// trailing zeros removed). `None` for a zero divisor, unparsable text or overflow.
pub fn divide(dividend: &str, divisor: &str) -> Option<String> {
    const PLACES: u32 = 8;
    let (a, a_scale) = parse_decimal(dividend)?;
    let (b, b_scale) = parse_decimal(divisor)?;
    if b == 0 {
        return None;
    }
    // a / 10^as ÷ (b / 10^bs) = a · 10^(bs + PLACES) / (b · 10^as) / 10^PLACES
    let numerator = a.checked_mul(10u128.checked_pow(b_scale.checked_add(PLACES)?)?)?;
    let denominator = b.checked_mul(10u128.checked_pow(a_scale)?)?;
    let q = numerator / denominator;
    let scale = 10u128.pow(PLACES);
    let (int, frac) = (q / scale, q % scale);
    if frac == 0 {
        return Some(int.to_string());
    }
    let frac = format!("{frac:0width$}", width = PLACES as usize);
    Some(format!("{int}.{}", frac.trim_end_matches('0')))
}

fn parse_decimal(text: &str) -> Option<(u128, u32)> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: u128 = format!("{int}{frac}").parse().ok()?;
    Some((digits, u32::try_from(frac.len()).ok()?))
}

/// One line about a smart investment plan: source → interest currency, percent, duration,
/// status, investment limits and the start of its id.
pub fn plan_summary(plan: &InvestmentPlan) -> String {
    let mut parts = Vec::new();
    let ticker = plan.ticker.as_deref().unwrap_or("?");
    let interest = plan.interest_ticker.as_deref().unwrap_or(ticker);
    let mut head = format!("{ticker}→{interest}");
    if let Some(percent) = &plan.percent {
        head.push_str(&format!(" {percent}%"));
    }
    if let Some(minutes) = plan.duration_minutes {
        head.push_str(&format!(" for {}", duration_text(minutes)));
    }
    parts.push(head);
    if let Some(status) = plan.status {
        parts.push(plan_status_text(status));
    }
    match (&plan.min_investment, &plan.max_investment) {
        (Some(min), Some(max)) => parts.push(format!("invest {min}–{max}")),
        (Some(min), None) => parts.push(format!("invest ≥ {min}")),
        (None, Some(max)) => parts.push(format!("invest ≤ {max}")),
        (None, None) => {}
    }
    if let Some(id) = &plan.id {
        let short: String = id.chars().take(8).collect();
        parts.push(format!("id {short}…"));
    }
    parts.join(" · ")
}

fn duration_text(minutes: u64) -> String {
    const DAY: u64 = 24 * 60;
    if minutes > 0 && minutes.is_multiple_of(DAY) {
        format!("{}d", minutes / DAY)
    } else if minutes > 0 && minutes.is_multiple_of(60) {
        format!("{}h", minutes / 60)
    } else {
        format!("{minutes}min")
    }
}

fn plan_status_text(status: PlanStatus) -> String {
    match status {
        PlanStatus::Active => "active".to_owned(),
        PlanStatus::NoCoinsLeft => "no coins left".to_owned(),
        PlanStatus::Inactive => "inactive".to_owned(),
        PlanStatus::Pause => "paused".to_owned(),
        other => format!("status {}", other.code()),
    }
}

/// One line about an error answer: HTTP status, code, class, message and field errors.
pub fn api_error_summary(error: &ApiError) -> String {
    let mut text = format!("HTTP {}", error.status);
    if let Some(code) = error.code {
        text.push_str(&format!(" code {code}"));
    }
    text.push_str(&format!(" ({})", error.class));
    if !error.message.is_empty() {
        text.push_str(&format!(": {}", error.message));
    }
    for (field, messages) in &error.errors {
        let messages: Vec<&str> = messages
            .iter()
            .map(String::as_str)
            .filter(|m| !m.is_empty())
            .collect();
        if !messages.is_empty() {
            text.push_str(&format!(" — {field}: {}", messages.join("; ")));
        }
    }
    text
}

/// One line about a request the builder rejected before anything existed to send, e.g.
/// `amount "1e5": contains 'e', which is not allowed · nothing sent`.
pub fn validation_summary(value: &str, error: &ValidationError) -> String {
    let why = match error {
        ValidationError::InvalidField { reason, .. } => reason.to_string(),
        other => other.to_string(),
    };
    format!("{} {value:?}: {why} · nothing sent", error.field())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn no_env_means_embedded_sandbox() {
        assert_eq!(remote_from_env(env(&[])).unwrap(), None);
        assert_eq!(remote_from_env(env(&[("OTHER", "x")])).unwrap(), None);
        // Empty values count as unset.
        let empty = env(&[(ENV_BASE_URL, ""), (ENV_API_KEY, ""), (ENV_API_SECRET, "")]);
        assert_eq!(remote_from_env(empty).unwrap(), None);
    }

    #[test]
    fn full_env_means_that_server() {
        let remote = remote_from_env(env(&[
            (ENV_BASE_URL, "https://whitebit.com"),
            (ENV_API_KEY, "key"),
            (ENV_API_SECRET, "top-secret"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(remote.base_url, "https://whitebit.com");
        assert_eq!(remote.api_key, "key");
        assert_eq!(remote.api_secret(), "top-secret");
        assert!(!format!("{remote:?}").contains("top-secret"));
    }

    #[test]
    fn partial_env_is_an_error_naming_what_is_missing() {
        let err = remote_from_env(env(&[(ENV_BASE_URL, "https://whitebit.com")])).unwrap_err();
        match &err {
            SetupError::PartialEnv { missing } => {
                assert_eq!(missing, &[ENV_API_KEY, ENV_API_SECRET]);
            }
            other => panic!("unexpected {other}"),
        }
        assert!(
            err.to_string()
                .contains("TXC_API_KEY, TXC_API_SECRET are missing")
        );

        let err = remote_from_env(env(&[(ENV_API_KEY, "k"), (ENV_API_SECRET, "s")])).unwrap_err();
        assert!(err.to_string().contains("TXC_BASE_URL is missing"), "{err}");
        assert!(!err.to_string().contains("s\""));
    }

    #[test]
    fn loopback_hosts() {
        for url in [
            "http://127.0.0.1:8080",
            "http://127.0.0.1",
            "http://127.1.2.3:1/",
            "http://localhost:3000",
            "http://LOCALHOST",
            "http://[::1]:8080",
            "https://[::1]",
            "127.0.0.1:8080",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in [
            "https://whitebit.com",
            "https://example.invalid",
            "http://0.0.0.0:8080",
            "http://10.0.0.1",
            "http://[::ffff:127.0.0.1]",
            "http://127.0.0.1.example.com",
            "http://localhost.example.com",
            "http://127.0.0.1@example.com/",
            "http://user:pw@example.com:80",
            "not a url",
            "",
        ] {
            assert!(!is_loopback(url), "{url}");
        }
    }

    #[test]
    fn live_guard() {
        assert!(check_live("http://127.0.0.1:1234", false).is_ok());
        assert!(check_live("http://127.0.0.1:1234", true).is_ok());
        assert!(check_live("https://whitebit.com", true).is_ok());
        let err = check_live("https://example.invalid", false).unwrap_err();
        assert!(
            matches!(&err, SetupError::LiveRequired { base_url } if base_url == "https://example.invalid")
        );
        let text = format!("{err:?}"); // what `main` prints
        assert!(
            text.contains("refusing to contact https://example.invalid"),
            "{text}"
        );
        assert!(text.contains("--live"), "{text}");
        // Unparsable URLs are not loopback: refused without --live.
        assert!(check_live("::::", false).is_err());
    }

    #[test]
    fn target_refuses_remote_without_live_before_anything_else() {
        let remote = RemoteConfig {
            base_url: "https://example.invalid".to_owned(),
            api_key: "k".to_owned(),
            api_secret: "very-secret-value".to_owned(),
        };
        let err = Target::new(Args { live: false }, Some(remote.clone())).unwrap_err();
        assert!(matches!(err, SetupError::LiveRequired { .. }));
        // With --live it is accepted (building a target does no I/O).
        let target = Target::new(Args { live: true }, Some(remote)).unwrap();
        assert!(target.sandbox().is_none());
        assert_eq!(target.base_url(), "https://example.invalid");
        let described = target.describe();
        assert_eq!(
            described,
            "https://example.invalid (key k, from TXC_BASE_URL)"
        );
        assert!(!format!("{target:?}").contains("very-secret-value"));
    }

    #[test]
    fn target_defaults_to_embedded_sandbox() {
        let target = Target::new(Args::default(), None).unwrap();
        assert!(target.sandbox().is_some());
        assert!(is_loopback(target.base_url()));
        assert_eq!(target.credentials().api_key(), demo::PARTNER_API_KEY);
        let described = target.describe();
        assert!(
            described.starts_with("embedded sandbox at http://127.0.0.1:"),
            "{described}"
        );
        assert!(!described.contains(demo::PARTNER_API_SECRET));
    }

    #[test]
    fn args() {
        assert_eq!(
            parse_args(Vec::<String>::new()).unwrap(),
            Args { live: false }
        );
        assert_eq!(parse_args(["--live"]).unwrap(), Args { live: true });
        let err = parse_args(["--lvie"]).unwrap_err();
        assert!(err.to_string().contains("\"--lvie\""), "{err}");
    }

    #[test]
    fn lines_align() {
        assert_eq!(
            line(Mark::Ok, "market order", "#1 BTC_USDT"),
            "  ✓ market order        #1 BTC_USDT"
        );
        assert_eq!(line(Mark::Note, "x", ""), "  · x");
        let a = line(Mark::Rejected, "a", "detail");
        let b = line(Mark::Ok, "longer label", "detail");
        assert_eq!(a.find("detail"), b.find("detail"));
    }

    #[test]
    fn division() {
        assert_eq!(divide("650", "0.01").as_deref(), Some("65000"));
        assert_eq!(divide("650.5", "0.01").as_deref(), Some("65050"));
        assert_eq!(divide("1", "3").as_deref(), Some("0.33333333"));
        assert_eq!(divide("0", "1").as_deref(), Some("0"));
        assert_eq!(divide("1", "0"), None);
        assert_eq!(divide("1", "0.000"), None);
        assert_eq!(divide("x", "1"), None);
        assert_eq!(divide("-1", "1"), None);
        assert_eq!(divide(".5", "1"), None);
    }

    #[test]
    fn order_lines() {
        let order: Order = serde_json_order(
            r#"{"orderId":7,"clientOrderId":"qs-1","market":"BTC_USDT","side":"buy","amount":"0.01",
                "dealMoney":"650","dealStock":"0.01","status":"FILLED",
                "oto":{"otoId":1,"stopLoss":"50000","takeProfit":"80000"}}"#,
        );
        assert_eq!(
            order_summary(&order),
            "#7 BTC_USDT buy 0.01 FILLED at 65000 · SL 50000 · TP 80000 · clientOrderId qs-1"
        );
        let trigger: Order = serde_json_order(
            r#"{"orderId":8,"market":"BTC_PERP","side":"sell","amount":"0.01","status":"OPEN",
                "dealMoney":"0","dealStock":"0","activation_price":"62000","activated":0,
                "activationCondition":"lte","oto":null}"#,
        );
        assert_eq!(
            order_summary(&trigger),
            "#8 BTC_PERP sell 0.01 OPEN · waiting at price ≤ 62000"
        );
        assert_eq!(order_summary(&Order::default()), "");
    }

    fn serde_json_order(json: &str) -> Order {
        txc_sign::decode::<txc_types::CollateralMarketOrder>(200, json.as_bytes()).unwrap()
    }

    #[test]
    fn plan_lines() {
        let plans = txc_sign::decode::<txc_types::SmartPlansQuery>(
            200,
            br#"[{"id":"8e667b4a-0b71-4988-8af5-9474dbfaeb51","ticker":"USDT","status":1,
                "percent":"10","duration":14400,"interestTicker":"USDT","interestRatio":"1",
                "minInvestment":"100","maxInvestment":"10000","maxPossibleInvestment":"3000"}]"#,
        )
        .unwrap();
        let plan = &plans[0];
        assert_eq!(
            plan_summary(plan),
            "USDT→USDT 10% for 10d · active · invest 100–10000 · id 8e667b4a…"
        );
        assert_eq!(duration_text(90), "90min");
        assert_eq!(duration_text(120), "2h");
        assert_eq!(duration_text(0), "0min");
    }

    #[test]
    fn api_error_lines() {
        let err = txc_sign::api_error(
            422,
            br#"{"code":32,"message":"Validation failed","errors":{"amount":["Given amount is less than min amount 0.001","Min amount step = 0.000001"]}}"#,
        )
        .unwrap();
        assert_eq!(
            api_error_summary(&err),
            "HTTP 422 code 32 (validation): Validation failed — amount: Given amount is less \
             than min amount 0.001; Min amount step = 0.000001"
        );
    }

    #[test]
    fn validation_lines() {
        let err =
            txc_types::CollateralMarketOrder::builder("BTC_USDT", txc_types::Side::Buy, "1e5")
                .build()
                .unwrap_err();
        assert_eq!(
            validation_summary("1e5", &err),
            "amount \"1e5\": contains 'e', which is not allowed · nothing sent"
        );
    }
}
