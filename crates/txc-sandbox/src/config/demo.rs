//! Fixed, documented demo credentials of the default accounts.
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

/// API key of the regular (non-partner) account: every smart investment endpoint answers 403,
/// hedge mode,
/// 10 000 USDT, leverage 10.
pub const REGULAR_API_KEY: &str = "sandbox-regular-7b3e0d9a6c2f4b1e";
/// API secret of [`REGULAR_API_KEY`].
pub const REGULAR_API_SECRET: &str = "sandbox-regular-secret-5e2a9c7f1b3d8e4a";

/// API key of a disabled account: every request is answered with code 2, HTTP 403.
pub const DISABLED_API_KEY: &str = "sandbox-disabled-0a8c6e4f2d1b9e7c";
/// API secret of [`DISABLED_API_KEY`].
pub const DISABLED_API_SECRET: &str = "sandbox-disabled-secret-3c5e7a9b1d2f4a6c";
