//! Fixed, documented demo credentials of the default accounts, and the ids of the demo flex
//! plans.
//!
//! They are public on purpose: the sandbox is a test double on loopback, not an exchange.
//! Each default account starts with `10000` USDT of collateral and leverage 10.
//!
//! | account | kind | partner (smart investments) | canceled orders in the history | position mode | enabled |
//! |---|---|---|---|---|---|
//! | [`PARTNER_API_KEY`] | **B2B** | yes | **no** (the docs' B2B gap) | one-way | yes |
//! | [`REGULAR_API_KEY`] | regular | no (smart investments → 403) | yes | hedge | yes |
//! | [`DISABLED_API_KEY`] | regular | no | yes | one-way | no (code 2) |
//!
//! The partner is a B2B account, as the exchange's smart-investment partners are: like theirs,
//! its canceled orders are not recorded in the order history, so an order placed and then
//! canceled is invisible to every look-up. A client resolving its orders should say so
//! (`b2b_account(true)`).

/// API key of the B2B partner account: may use the smart investment endpoints (10 000 USDT and
/// 1 BTC in its main account to invest), one-way mode, 10 000 USDT of collateral, leverage 10;
/// its canceled orders are not recorded in the history.
pub const PARTNER_API_KEY: &str = "sandbox-partner-4f1c9b2e7a5d4e8c";
/// API secret of [`PARTNER_API_KEY`].
pub const PARTNER_API_SECRET: &str = "sandbox-partner-secret-d8a1c3f5e7b9a0c2";

/// API key of the regular (non-partner) account: every smart investment endpoint answers 403
/// (flexible lending is open to it, with 10 000 USDT in its main account), hedge mode, 10 000
/// USDT, leverage 10.
pub const REGULAR_API_KEY: &str = "sandbox-regular-7b3e0d9a6c2f4b1e";
/// API secret of [`REGULAR_API_KEY`].
pub const REGULAR_API_SECRET: &str = "sandbox-regular-secret-5e2a9c7f1b3d8e4a";

/// API key of a disabled account: every request is answered with code 2, HTTP 403.
pub const DISABLED_API_KEY: &str = "sandbox-disabled-0a8c6e4f2d1b9e7c";
/// API secret of [`DISABLED_API_KEY`].
pub const DISABLED_API_SECRET: &str = "sandbox-disabled-secret-3c5e7a9b1d2f4a6c";

/// The demo flex plan of USDT (the spec's example): 10 to 100 000, 15 % a year, public.
pub const FLEX_USDT_PLAN: &str = "8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f";
/// The demo flex plan of BTC (the spec's example): 0.001 to 10, 12 % a year, public.
pub const FLEX_BTC_PLAN: &str = "7e1d8c2b-9a3b-3b1c-8d4e-5a6b7c8d9e0f";
/// A paused demo flex plan of USDT (50 to 5 000, 8 %): not listed; investing answers `Plan is
/// paused`.
pub const FLEX_PAUSED_PLAN: &str = "c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f";
/// A demo flex plan of USDT private to [`PARTNER_API_KEY`] (100 to 50 000, 20 %): others
/// neither see nor invest in it.
pub const FLEX_PARTNER_PLAN: &str = "a7b8c9d0-e1f2-4a3b-9c4d-5e6f7a8b9c0d";
