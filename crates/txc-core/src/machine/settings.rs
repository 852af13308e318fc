//! Every setting of a client, declared and documented once: [`client_settings!`] lists each
//! setter (its name, arguments, documentation, default, and what it does to a
//! [`ClientConfig`](crate::ClientConfig)), and hands the list to a macro that writes what a
//! type needs from it:
//!
//! - [`__define_settings!`]: the setters of [`ClientConfig`](crate::ClientConfig), the
//!   one configuration of a client;
//! - [`__forward_settings!`]: the same setters on a transport's `ClientBuilder`, which
//!   holds a `config: ClientConfig` and hands each call on to it;
//! - [`__settings_defaults!`]: the table of settings and defaults in each of their docs.
//!
//! So `txc-blocking`'s and `txc-async`'s builders stay structs of their own crates (whose
//! `http(..)` takes that crate's HTTP client, and whose pages show every setter) without a
//! second copy of any setter. (The event streams' builder is one type for both,
//! [`StreamBuilder`](crate::stream::StreamBuilder).) These macros are for the transports; they
//! are not part of the crate's contract.

/// Hands the list of client settings to `$then` (one of the macros below): each entry is the
/// setter's documentation, `name(arguments)`, its default (a table cell), and `|config| body`,
/// what it does to a [`ClientConfig`](crate::ClientConfig).
#[doc(hidden)]
#[macro_export]
macro_rules! client_settings {
    ($then:ident) => {
        $crate::$then! {
            /// The exchange's address: `http://` or `https://`, host and optional port, no path.
            base_url(url: impl ::std::convert::Into<::std::string::String>)
                default "`https://whitebit.com`"
                |config| { config.base_url = url.into(); }

            /// Whether requests carry `nonceWindow: true`: nonces are Unix milliseconds accepted
            /// within ±5 s of the exchange's clock (its advice for concurrent clients). Off,
            /// nonces must only grow per key.
            nonce_window(on: bool)
                default "on"
                |config| {
                    config.nonce_mode = if on {
                        $crate::txc_sign::nonce::NonceMode::Window
                    } else {
                        $crate::txc_sign::nonce::NonceMode::Strict
                    };
                }

            /// How long connecting (DNS, TCP, TLS) may take.
            connect_timeout(timeout: ::std::time::Duration)
                default "5 s"
                |config| { config.connect_timeout = Some(timeout); }

            /// How long an attempt may take. `txc-async` bounds the whole attempt, from
            /// connecting to the last byte of the response; `txc-blocking` bounds each phase —
            /// sending, waiting for the response, reading it — because ureq's whole-call timer
            /// costs ~90 µs per request. Either way a server that never answers is cut off
            /// after this time.
            timeout(timeout: ::std::time::Duration)
                default "15 s"
                |config| { config.timeout = Some(timeout); }

            /// The `User-Agent` header.
            user_agent(user_agent: impl ::std::convert::Into<::std::string::String>)
                default "`txc/<version>`"
                |config| { config.user_agent = Some(user_agent.into()); }

            /// The largest response body read, in bytes; a larger one fails with
            /// [`TransportErrorKind::ResponseTooLarge`](txc_core::decode::TransportErrorKind::ResponseTooLarge).
            max_response_bytes(max: usize)
                default "1 MiB"
                |config| { config.max_response_bytes = max; }

            /// When failed calls are retried (always signed afresh). Orders are resent only
            /// when they certainly were not executed.
            /// [`RetryPolicy::disabled`](txc_core::pacing::RetryPolicy::disabled) never retries.
            retry_policy(policy: $crate::pacing::RetryPolicy)
                default "[`RetryPolicy::default`](txc_core::pacing::RetryPolicy::default)"
                |config| { config.retry = policy; }

            /// A nonce sequence to use instead of the key's process-wide one.
            nonce_sequence(nonces: $crate::txc_sign::nonce::NonceSequence)
                default "the key's, shared by every client of it in the process"
                |config| { config.nonces = Some(nonces); }

            /// The settling delay resolving an order, a close or an investment whose outcome is
            /// unknown (`resolve`, `place_once`, `resolve_close`, `resolve_investment`,
            /// `invest_once`) spaces its two rounds of look-ups by: the first once the
            /// exchange's clock is past the attempts' acceptance window plus this delay, the
            /// second this delay later. It is the longest lag between a record and the look-ups
            /// that the proof covers. At least the nonce window (5 s): a shorter one is refused by
            /// `build`, and at resolving it is raised to 5 s plus the measured clock skew. Going
            /// below is only possible with
            /// [`unproven_settle_delay`](Self::unproven_settle_delay).
            settle_delay(delay: ::std::time::Duration)
                default "10 s"
                |config| {
                    config.settle_delay = delay;
                    config.unproven_settle_delay = None;
                }

            /// **Gives up the exactly-once guarantee**: spaces resolving's rounds (of an order, a
            /// close, an investment) by `delay`, with no floor — the attempts' acceptance window
            /// is still waited out on the exchange's clock (see
            /// [`unproven_acceptance_window`](Self::unproven_acceptance_window)). For tests
            /// whose look-ups lag less than the exchange's may; every answer's evidence says the
            /// timing was unproven. Replaces [`settle_delay`](Self::settle_delay).
            unproven_settle_delay(delay: ::std::time::Duration)
                default "none: the rule's timing"
                |config| { config.unproven_settle_delay = Some(delay); }

            /// Whether the account is a B2B account, whose canceled orders the exchange does
            /// not record in the order history: an order placed and then canceled is invisible
            /// to every look-up, so resolving answers "cannot tell" instead of "not placed"
            /// when it finds nothing.
            b2b_account(on: bool)
                default "off"
                |config| { config.b2b_account = on; }

            /// Whether `place_once` resends an order that resolving cannot tell from a canceled
            /// one (a B2B account's absence: see [`b2b_account`](Self::b2b_account)). Off, it
            /// ends with the outcome unknown instead; on, it takes the risk of placing a second
            /// order when the first was placed and canceled.
            resend_when_cancels_are_invisible(on: bool)
                default "off"
                |config| { config.resend_when_cancels_are_invisible = on; }

            /// Where each order's and investment's pending record is persisted before it is
            /// sent, and cleared once its outcome is definite
            /// ([`Journal`](txc_core::resolve::Journal)) — and where the client, when built,
            /// reads the unresolved records of earlier processes: it refuses to send blindly what
            /// they may already have done (a plain `place` or `invest` of the same
            /// `clientOrderId`, or plan and amount, fails before any I/O; `place_once` and
            /// `invest_once` resolve them first). A journal that cannot be read fails the build.
            /// The client keeps the records in memory too, whatever this is (`pending_orders`,
            /// `pending_investments`).
            journal(journal: ::std::sync::Arc<dyn $crate::resolve::Journal>)
                default "none: in memory only"
                |config| { config.journal = Some(journal); }

            /// Whether other writers may invest with the key
            /// ([`InvestmentWriters`](txc_core::resolve::InvestmentWriters)): with `Shared`, one
            /// investment of the plan and amount found inside an unknown investment's window
            /// "cannot tell" (it may be someone else's), and `invest_once` ends unknown with
            /// it as the candidate rather than invest again; with `Sole` — this client is the
            /// key's only investor — it is this one.
            investment_writers(writers: $crate::resolve::InvestmentWriters)
                default "`Shared`"
                |config| { config.investment_writers = writers; }

            /// Called with each stage resolving goes through (`resolve`, `place_once`,
            /// `resolve_investment`, `invest_once`, `resolve_close`): what it waits for — the
            /// attempts' acceptance window, the settling delay — and how long is left, and each
            /// round of look-ups ([`ResolveStage`](txc_core::resolve::ResolveStage); its `Display` is
            /// one line). Called on the thread or task that resolves: keep it quick.
            on_resolve_stage(observer: impl ::std::ops::Fn(&$crate::resolve::ResolveStage) + ::std::marker::Send + ::std::marker::Sync + 'static)
                default "none"
                |config| { config.resolve_observer = Some($crate::resolve::StageObserver::new(observer)); }

            /// How many times placing an order exactly once (`place_once`), or investing exactly
            /// once (`invest_once`), may send it in all (at least 1).
            max_placements(max: u32)
                default "3"
                |config| { config.max_placements = max.max(1); }

            /// Limits the client's own rate to `limits` (a limiter of its own; see
            /// [`RateLimits`](txc_core::pacing::RateLimits)) instead of the key's shared limiter with
            /// the documented limits.
            rate_limits(limits: $crate::pacing::RateLimits)
                default "the documented limits"
                |config| {
                    config.rate_limiter = Some($crate::pacing::RateLimiter::new(limits));
                    config.rate_limited = true;
                }

            /// Draws on `limiter`, shared with every client given a clone of it — for example
            /// clients of several keys behind one IP address, which the exchange counts
            /// together.
            rate_limiter(limiter: $crate::pacing::RateLimiter)
                default "the key's limiter, shared by every client of it in the process"
                |config| {
                    config.rate_limiter = Some(limiter);
                    config.rate_limited = true;
                }

            /// No client-side rate limit: every request goes at once, and the exchange's 429s
            /// (and the key restrictions repeated 429s can bring) are yours to avoid.
            no_rate_limit()
                default "limited"
                |config| { config.rate_limited = false; }

            /// What a request does when the rate limiter has no slot yet: wait (up to a bound)
            /// or fail at once with [`Error::Throttled`](txc_core::Error::Throttled), nothing
            /// sent.
            rate_policy(policy: $crate::pacing::RatePolicy)
                default "wait up to 10 s for a slot"
                |config| { config.rate_policy = policy; }

            /// Called with each wait the rate limiter imposes on a request, before the call
            /// sleeps it ([`RateWait`](txc_core::pacing::RateWait): the operation, how long, the
            /// limit; its `Display` is one line) — to tell a user why nothing happens yet. Not
            /// called for retries' backoffs, nor when the policy refuses to wait. Called on the
            /// thread or task that makes the call: keep it quick.
            on_rate_wait(observer: impl ::std::ops::Fn(&$crate::pacing::RateWait) + ::std::marker::Send + ::std::marker::Sync + 'static)
                default "none"
                |config| { config.rate_wait_observer = Some($crate::pacing::RateWaitObserver::new(observer)); }

            /// Makes this client worker `worker` of several processes or hosts that share the
            /// key: its window-mode nonces use only the worker's residue class (no two workers
            /// can collide) and its rate limits are the documented ones divided by the number
            /// of workers. Refused when built with strict nonces (`nonce_window(false)`), which
            /// several processes cannot share.
            fleet_worker(worker: $crate::txc_sign::nonce::FleetWorker)
                default "none: the only process using the key"
                |config| { config.fleet_worker = Some(worker); }

            /// Corrects the local clock by `offset` for window-mode nonces (every client of the
            /// key). A client's `sync_clock` measures and sets it from the exchange's time.
            clock_offset(offset: $crate::txc_sign::nonce::ClockOffset)
                default "none (or what `sync_clock` measured)"
                |config| { config.clock_offset = Some(offset); }

            /// What the client does about the account's position mode before an order, a close
            /// or a mode change: learn it (one `hedge-mode` read per key and exchange, cached,
            /// read again after the exchange answers code 114), start from a declared mode, or
            /// check nothing. See [`ModeCheck`](txc_core::risk::ModeCheck).
            position_mode_check(check: $crate::risk::ModeCheck)
                default "[`ModeCheck::Learn`](txc_core::risk::ModeCheck::Learn)"
                |config| { config.mode_check = check; }

            /// What the client does about the markets' published rules before an order of
            /// any type: read them (one public market-info read per exchange, cached, read
            /// again after a code 31, 32 or 33 refusal) and refuse, before any I/O, an order
            /// that breaks them; check against given rules; or check nothing. See
            /// [`MarketRulesCheck`](txc_core::risk::MarketRulesCheck).
            market_rules_check(check: $crate::risk::MarketRulesCheck)
                default "[`MarketRulesCheck::Learn`](txc_core::risk::MarketRulesCheck::Learn)"
                |config| { config.rules_check = check; }

            /// **Gives up the exactly-once guarantee**: replaces the documented time within
            /// which an attempt (of an order, a close, an investment) may still be accepted and
            /// create its record — the nonce window and the creation allowance, 10 s after the
            /// last attempt's nonce (without `nonceWindow`, 5 s after the key's first later
            /// request; for an order sent over the WebSocket, the socket's processing grace and
            /// the creation allowance, 15 s after its last frame's outcome was settled — the
            /// window then counts from that settling) — which resolving waits out, on the
            /// exchange's clock, before a round
            /// may prove absence ("not placed", "still open", "not invested"). Which record is
            /// the attempts' is still judged by the documented window. For a sandbox whose
            /// requests all arrive at once, never for the exchange; every answer's evidence says
            /// the timing was unproven.
            unproven_acceptance_window(window: ::std::time::Duration)
                default "none: the documented window"
                |config| { config.acceptance_window = Some(window); }

            /// Where the client's event streams publish the orders they see and where resolving
            /// (`resolve`, `place_once`) looks for an order's events
            /// ([`OrderSightings`](txc_core::stream::OrderSightings)): give the same registry to
            /// clients of the key built apart (a blocking stream beside an async client, say) so
            /// that one's stream settles the other's unknown orders. A client's clones share its
            /// registry anyway.
            order_sightings(sightings: $crate::stream::OrderSightings)
                default "the client's own, which the streams it opens publish to"
                |config| { config.order_sightings = Some(sightings); }
        }
    };
}

/// The setters of [`ClientConfig`](crate::ClientConfig), from [`client_settings!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __define_settings {
    ($(
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $ty:ty),*) default $default:literal |$config:ident| $body:block
    )*) => {$(
        $(#[$doc])*
        pub fn $name(mut self, $($arg: $ty),*) -> Self {
            let $config = &mut self;
            $body
            self
        }
    )*};
}

/// The setters of a transport's `ClientBuilder` (which holds a `config: ClientConfig`), from
/// [`client_settings!`]: each hands its arguments on to the setter of the configuration.
#[doc(hidden)]
#[macro_export]
macro_rules! __forward_settings {
    ($(
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $ty:ty),*) default $default:literal |$config:ident| $body:block
    )*) => {$(
        $(#[$doc])*
        pub fn $name(mut self, $($arg: $ty),*) -> Self {
            self.config = self.config.$name($($arg),*);
            self
        }
    )*};
}

/// The table of settings and defaults, for a `#[doc = ..]` of a type that has the setters,
/// from [`client_settings!`]. A transport adds its own rows (its `http`) right after it.
#[doc(hidden)]
#[macro_export]
macro_rules! __settings_defaults {
    ($(
        $(#[$doc:meta])*
        $name:ident($($arg:ident: $ty:ty),*) default $default:literal |$config:ident| $body:block
    )*) => {
        concat!(
            "| setting | default |\n|---|---|\n",
            $("| [`", stringify!($name), "`](Self::", stringify!($name), ") | ", $default, " |\n",)*
        )
    };
}
