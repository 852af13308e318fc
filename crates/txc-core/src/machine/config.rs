//! [`ClientConfig`]: the one configuration of a client, checked before any I/O — what both
//! transports' `ClientBuilder`s wrap, and what an embedder builds a [`ClientCore`] from.
//!
//! Its setters are declared once, in [`client_settings!`](crate::client_settings); the
//! transports' builders hand each of theirs on to it. What to do with the HTTP settings (make
//! a ureq agent, a reqwest client) is the transports'; [`ClientCore`] knows nothing of HTTP.

use std::time::Duration;

use std::sync::Arc;

use crate::pacing::ExchangeClock;
use crate::pacing::RateWaitObserver;
use crate::resolve::AbsenceRule;
use crate::resolve::Ledger;
use crate::resolve::MoveLedger;
use crate::stream::OrderSightings;
use crate::{
    ClientCore, ClockOffset, Credentials, DEFAULT_BASE_URL, DEFAULT_MAX_PLACEMENTS,
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_SETTLE_DELAY, Error, FleetWorker, InvestmentWriters,
    Journal, MarketRulesCheck, ModeCheck, NONCE_WINDOW, NonceMode, NonceSequence, RateLimiter,
    RatePolicy, RetryPolicy, Signer, StageObserver,
};

/// The default connect timeout.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The default overall timeout of one attempt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);
/// The default `User-Agent`.
pub const DEFAULT_USER_AGENT: &str = concat!("txc/", env!("CARGO_PKG_VERSION"));

/// Every setting of a client: the one configuration both transports' `ClientBuilder`s wrap
/// (they have the same setters), and what an embedder driving [`ClientCore`] over its own HTTP
/// client builds the core from. Nothing is checked until [`build`](Self::build) and
/// [`http_settings`](Self::http_settings).
///
#[doc = crate::client_settings!(__settings_defaults)]
///
/// ```
/// use std::time::Duration;
/// use txc_core::ClientConfig;
/// use txc_core::pacing::RetryPolicy;
/// use txc_sign::Credentials;
///
/// let config = ClientConfig::new(Credentials::new("key", "secret")?)
///     .base_url("http://127.0.0.1:8080")
///     .timeout(Duration::from_secs(5))
///     .retry_policy(RetryPolicy::disabled());
/// // An embedder gives its own HTTP client the checked HTTP settings...
/// assert_eq!(config.http_settings()?.timeout, Duration::from_secs(5));
/// // ...and drives the core's machines over it.
/// let core = config.build()?;
/// assert_eq!(core.signer().base_url(), "http://127.0.0.1:8080");
/// # Ok::<(), txc_core::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "a configuration does nothing until a client is built from it"]
pub struct ClientConfig {
    credentials: Credentials,
    base_url: String,
    nonce_mode: NonceMode,
    connect_timeout: Option<Duration>,
    timeout: Option<Duration>,
    user_agent: Option<String>,
    max_response_bytes: usize,
    retry: RetryPolicy,
    nonces: Option<NonceSequence>,
    settle_delay: Duration,
    unproven_settle_delay: Option<Duration>,
    b2b_account: bool,
    resend_when_cancels_are_invisible: bool,
    journal: Option<Arc<dyn Journal>>,
    max_placements: u32,
    rate_limiter: Option<RateLimiter>,
    rate_limited: bool,
    rate_policy: RatePolicy,
    fleet_worker: Option<FleetWorker>,
    clock_offset: Option<ClockOffset>,
    mode_check: ModeCheck,
    rules_check: MarketRulesCheck,
    acceptance_window: Option<Duration>,
    order_sightings: Option<OrderSightings>,
    investment_writers: InvestmentWriters,
    resolve_observer: Option<StageObserver>,
    rate_wait_observer: Option<RateWaitObserver>,
}

impl ClientConfig {
    /// The defaults (the table above), for `credentials`.
    pub fn new(credentials: Credentials) -> Self {
        Self {
            credentials,
            base_url: DEFAULT_BASE_URL.to_owned(),
            nonce_mode: NonceMode::Window,
            connect_timeout: None,
            timeout: None,
            user_agent: None,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            retry: RetryPolicy::default(),
            nonces: None,
            settle_delay: DEFAULT_SETTLE_DELAY,
            unproven_settle_delay: None,
            b2b_account: false,
            resend_when_cancels_are_invisible: false,
            journal: None,
            max_placements: DEFAULT_MAX_PLACEMENTS,
            rate_limiter: None,
            rate_limited: true,
            rate_policy: RatePolicy::default(),
            fleet_worker: None,
            clock_offset: None,
            mode_check: ModeCheck::Learn,
            rules_check: MarketRulesCheck::Learn,
            acceptance_window: None,
            order_sightings: None,
            investment_writers: InvestmentWriters::Shared,
            resolve_observer: None,
            rate_wait_observer: None,
        }
    }

    crate::client_settings!(__define_settings);

    /// Checks the settings and makes the core: fails with [`Error::InvalidConfig`] for a base
    /// URL that is not `http(s)://host[:port]`, a zero size cap, a fleet worker with strict
    /// nonces, a settling delay below the nonce window, or a journal whose records cannot be
    /// read (`"journal"`); the journal's records are held as unresolved. The HTTP settings are
    /// not the core's: see [`http_settings`](Self::http_settings).
    pub fn build(self) -> Result<ClientCore, Error> {
        if self.unproven_settle_delay.is_none() && self.settle_delay < NONCE_WINDOW {
            return Err(Error::invalid_config(
                "settle_delay",
                format!(
                    "{} ms is below the floor of {} ms (the exchange's nonce window, raised by \
                     the measured clock skew when resolving): shorter, resolving could answer \
                     \"not placed\" while an attempt can still be accepted. Only \
                     unproven_settle_delay goes below it, and gives up the guarantee",
                    self.settle_delay.as_millis(),
                    NONCE_WINDOW.as_millis()
                ),
            ));
        }
        if self.max_response_bytes == 0 {
            return Err(Error::invalid_config(
                "max_response_bytes",
                "must be at least 1",
            ));
        }
        if let Some(worker) = self.fleet_worker
            && worker.workers() > 1
            && self.nonce_mode == NonceMode::Strict
        {
            return Err(Error::invalid_config(
                "fleet_worker",
                "strict nonces cannot be shared by several processes: the exchange refuses any \
                 strict nonce that arrives after a greater one, and no lock on this host orders \
                 the requests' arrival; use NonceMode::Window, whose nonces the fleet partitions",
            ));
        }
        let api_key = self.credentials.api_key().to_owned();
        let api_key = api_key.as_str();
        let signer = Signer::new(self.credentials, &self.base_url)?;
        let nonces = match (self.nonces, self.fleet_worker) {
            (Some(nonces), _) => nonces,
            (None, Some(worker)) => NonceSequence::for_worker(api_key, worker),
            (None, None) => NonceSequence::for_key(api_key),
        };
        let rate_limiter = match (self.rate_limited, self.rate_limiter, self.fleet_worker) {
            (false, _, _) => None,
            (true, Some(limiter), _) => Some(limiter),
            (true, None, Some(worker)) => Some(RateLimiter::for_worker(api_key, worker)),
            (true, None, None) => Some(RateLimiter::for_key(api_key)),
        };
        if let Some(offset) = self.clock_offset {
            nonces.set_clock_offset(offset);
        }
        let mode = crate::risk::ModeCache::for_account(signer.base_url(), api_key);
        let rules = crate::risk::RulesCache::for_check(signer.base_url(), &self.rules_check);
        if let ModeCheck::Declared(declared) = self.mode_check {
            mode.set(declared);
        }
        let sightings = self.order_sightings.unwrap_or_default();
        let records = match &self.journal {
            Some(journal) => journal.load().map_err(|e| {
                Error::invalid_config(
                    "journal",
                    format!("its records of earlier orders and investments cannot be read: {e}"),
                )
            })?,
            None => Vec::new(),
        };
        Ok(ClientCore {
            key_seed: super::client_core::key_seed(api_key),
            signer,
            nonces,
            nonce_mode: self.nonce_mode,
            retry: self.retry,
            max_response_bytes: self.max_response_bytes,
            absence_rule: {
                let rule = match self.unproven_settle_delay {
                    Some(delay) => AbsenceRule::unproven(delay),
                    None => AbsenceRule::proven(self.settle_delay),
                };
                match self.acceptance_window {
                    Some(window) => rule.with_acceptance_window(window),
                    None => rule,
                }
            },
            b2b_account: self.b2b_account,
            resend_when_cancels_are_invisible: self.resend_when_cancels_are_invisible,
            max_placements: self.max_placements,
            exchange_clock: ExchangeClock::default(),
            moves: MoveLedger::loaded(self.journal.clone(), &records),
            modifies: crate::resolve::ModifyLedger::loaded(self.journal.clone(), &records),
            ledger: Ledger::loaded(self.journal, sightings.clone(), &records),
            investment_writers: self.investment_writers,
            resolve_observer: self.resolve_observer,
            rate_wait_observer: self.rate_wait_observer,
            rate_limiter,
            rate_policy: self.rate_policy,
            mode_check: self.mode_check,
            mode,
            rules,
            rules_check: self.rules_check,
            sightings,
        })
    }

    /// Checks the configuration and makes the core together with the HTTP client a transport
    /// sends through: `own`, the caller's (checked by `check_own`; no HTTP setting may be given
    /// beside it, [`check_own_http`](Self::check_own_http)), or else one that `make` makes from
    /// the checked [`http_settings`](Self::http_settings). Fails with the first
    /// [`Error::InvalidConfig`] of those checks and of [`build`](Self::build).
    pub fn build_with_http<H>(
        self,
        own: Option<H>,
        check_own: impl FnOnce(&H) -> Result<(), Error>,
        make: impl FnOnce(&HttpSettings) -> Result<H, Error>,
    ) -> Result<(ClientCore, H), Error> {
        let http = match own {
            Some(own) => {
                self.check_own_http()?;
                check_own(&own)?;
                own
            }
            None => make(&self.http_settings()?)?,
        };
        Ok((self.build()?, http))
    }

    /// The HTTP settings with every default filled in, checked for an HTTP client the
    /// transport (or an embedder) makes: timeouts above zero, a `User-Agent` that is a header
    /// value. Fails with [`Error::InvalidConfig`] otherwise.
    pub fn http_settings(&self) -> Result<HttpSettings, Error> {
        let positive = |given: Option<Duration>, default: Duration, what| {
            let value = given.unwrap_or(default);
            if value.is_zero() {
                Err(Error::invalid_config(what, "must be above zero"))
            } else {
                Ok(value)
            }
        };
        let user_agent = self
            .user_agent
            .clone()
            .unwrap_or_else(|| DEFAULT_USER_AGENT.to_owned());
        if http::HeaderValue::from_str(&user_agent).is_err() {
            return Err(Error::invalid_config(
                "user_agent",
                "not a valid header value",
            ));
        }
        Ok(HttpSettings {
            connect_timeout: positive(
                self.connect_timeout,
                DEFAULT_CONNECT_TIMEOUT,
                "connect_timeout",
            )?,
            timeout: positive(self.timeout, DEFAULT_TIMEOUT, "timeout")?,
            user_agent,
        })
    }

    /// Checks that no HTTP setting was given, for a caller who brings their own HTTP client
    /// (whose own timeouts and `User-Agent` apply): fails with [`Error::InvalidConfig`]
    /// (`"http"`) otherwise.
    pub fn check_own_http(&self) -> Result<(), Error> {
        if self.connect_timeout.is_none() && self.timeout.is_none() && self.user_agent.is_none() {
            Ok(())
        } else {
            Err(Error::invalid_config(
                "http",
                "connect_timeout, timeout and user_agent configure the HTTP client the builder \
                 makes; set them on your own client instead",
            ))
        }
    }
}

/// The HTTP settings of a [`ClientConfig`] with every default filled in and checked
/// ([`ClientConfig::http_settings`]): what a transport makes its HTTP client with.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpSettings {
    /// How long connecting may take (above zero).
    pub connect_timeout: Duration,
    /// How long one attempt may take (above zero).
    pub timeout: Duration,
    /// The `User-Agent`, a valid header value.
    pub user_agent: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RateLimits;
    use txc_types::endpoint::{Endpoint, RateLimit};
    use txc_types::orders::CollateralMarketOrder;

    fn config(key: &str) -> ClientConfig {
        let credentials = Credentials::new(key, "secret");
        ClientConfig::new(credentials.unwrap_or_else(|e| unreachable!("{e}")))
    }

    fn core(config: ClientConfig) -> ClientCore {
        config.build().unwrap_or_else(|e| unreachable!("{e}"))
    }

    #[test]
    fn the_last_rate_setting_wins() {
        let limits = RateLimits::documented().with_limit(CollateralMarketOrder::PATH, None);
        let off = core(config("cfg-a").rate_limits(limits.clone()).no_rate_limit());
        assert!(off.rate_limiter().is_none());
        let own = core(config("cfg-a").no_rate_limit().rate_limits(limits.clone()));
        assert_eq!(own.rate_limiter().map(RateLimiter::limits), Some(&limits));
        // The default is the key's process-wide limiter; a fleet worker's is its share.
        let shared = core(config("cfg-a"));
        assert!(
            shared
                .rate_limiter()
                .is_some_and(|l| l.same_as(&RateLimiter::for_key("cfg-a")))
        );
        let worker = FleetWorker::new(1, 4).unwrap_or_else(|e| unreachable!("{e}"));
        let fleet = core(config("cfg-a").fleet_worker(worker));
        assert_eq!(
            fleet
                .rate_limiter()
                .and_then(|l| l.limits().limit_of::<CollateralMarketOrder>()),
            Some(RateLimit::new(2_500, 10))
        );
    }

    #[test]
    fn an_own_nonce_sequence_wins_over_the_key_s_and_the_fleet_s() {
        let own = NonceSequence::new();
        let worker = FleetWorker::new(1, 4).unwrap_or_else(|e| unreachable!("{e}"));
        let core = core(
            config("cfg-b")
                .fleet_worker(worker)
                .nonce_sequence(own.clone()),
        );
        assert!(core.nonces().same_as(&own));
        let fleet = self::core(config("cfg-b").fleet_worker(worker));
        assert!(
            fleet
                .nonces()
                .same_as(&NonceSequence::for_worker("cfg-b", worker))
        );
    }

    #[test]
    fn the_settling_delay_has_a_floor_only_the_unproven_setting_goes_below() {
        let short = config("cfg-c").settle_delay(Duration::from_secs(4)).build();
        assert!(matches!(
            short,
            Err(Error::InvalidConfig {
                what: "settle_delay",
                ..
            })
        ));
        let floor = core(config("cfg-c").settle_delay(NONCE_WINDOW));
        assert!(floor.absence_rule().is_proven());
        let unproven = core(config("cfg-c").unproven_settle_delay(Duration::from_millis(100)));
        assert!(!unproven.absence_rule().is_proven());
        assert_eq!(unproven.settle_delay(), Duration::from_millis(100));
        // The last one set wins.
        let back = config("cfg-c")
            .unproven_settle_delay(Duration::ZERO)
            .settle_delay(Duration::from_secs(1));
        assert!(back.build().is_err());
    }

    #[test]
    fn http_settings_are_checked_and_refused_beside_an_own_client() {
        let settings = config("cfg-d").http_settings();
        assert_eq!(
            settings.map(|s| (s.connect_timeout, s.timeout)).ok(),
            Some((DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT))
        );
        assert!(config("cfg-d").check_own_http().is_ok());
        let timed = config("cfg-d").timeout(Duration::from_secs(1));
        assert!(matches!(
            timed.check_own_http(),
            Err(Error::InvalidConfig { what: "http", .. })
        ));
        let zero = config("cfg-d").timeout(Duration::ZERO).http_settings();
        assert!(matches!(
            zero,
            Err(Error::InvalidConfig {
                what: "timeout",
                ..
            })
        ));
    }
}
