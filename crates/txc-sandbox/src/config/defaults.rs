//! The default accounts, markets, smart plans and flex plans of a sandbox (see
//! [`crate::demo`]).

use super::account::{AccountConfig, PositionMode};
use super::demo;
use super::flex_plan::{FLEX_PAUSED, FlexPlanConfig};
use super::market::MarketConfig;
use super::plan::PlanConfig;

/// The three demo accounts, each with 10 000 USDT of collateral and leverage 10; the partner's
/// main account holds 10 000 USDT and 1 BTC to invest, the regular one's 10 000 USDT (for
/// flexible lending).
pub(crate) fn default_accounts() -> Vec<AccountConfig> {
    vec![
        AccountConfig::new(demo::PARTNER_API_KEY, demo::PARTNER_API_SECRET)
            .partner(true)
            // A B2B partner: its canceled orders never reach the history.
            .canceled_orders_in_history(false)
            .balance("USDT", "10000")
            .main_balance("USDT", "10000")
            .main_balance("BTC", "1"),
        AccountConfig::new(demo::REGULAR_API_KEY, demo::REGULAR_API_SECRET)
            .position_mode(PositionMode::Hedge)
            .balance("USDT", "10000")
            .main_balance("USDT", "10000"),
        AccountConfig::new(demo::DISABLED_API_KEY, demo::DISABLED_API_SECRET)
            .enabled(false)
            .balance("USDT", "10000"),
    ]
}

/// `BTC_USDT`, `ETH_USDT` and `BTC_PERP`: taker fee 0.1 %, maker fee 0.05 %, collateral
/// USDT, orders of at least 5 and at most 10 000 000 000 USDT; prices to 2 decimal places (1
/// on `BTC_PERP`).
pub(crate) fn default_markets() -> Vec<MarketConfig> {
    let market = |name: &str, price: &str, min: &str, step: &str, money_precision: u32| {
        MarketConfig::new(name, price)
            .min_amount(min)
            .amount_step(step)
            .money_precision(money_precision)
            .min_total("5")
            .max_total("10000000000")
    };
    vec![
        market("BTC_USDT", "65000", "0.001", "0.000001", 2),
        market("ETH_USDT", "3500", "0.01", "0.0001", 2),
        market("BTC_PERP", "65000", "0.001", "0.000001", 1),
    ]
}

/// Plans of `USDT` (statuses 1 to 4) and `BTC` (statuses 1 and 4); the first is the docs'
/// example.
pub(crate) fn default_plans() -> Vec<PlanConfig> {
    let plan = |id: &str,
                ticker: &str,
                status: i64,
                percent: &str,
                duration: u64,
                interest: (&str, &str),
                bounds: (&str, &str, &str)| {
        PlanConfig::new(id, ticker)
            .status(status)
            .percent(percent)
            .duration_minutes(duration)
            .interest(interest.0, interest.1)
            .investment(bounds.0, bounds.1, bounds.2)
    };
    vec![
        plan(
            "8e667b4a-0b71-4988-8af5-9474dbfaeb51",
            "USDT",
            1,
            "10",
            14_400,
            ("USDT", "1"),
            ("100", "10000", "3000"),
        ),
        plan(
            "3f1d2c7e-5a8b-4c6d-9e0f-1a2b3c4d5e6f",
            "USDT",
            2,
            "12.5",
            43_200,
            ("USDT", "1"),
            ("500", "50000", "0"),
        ),
        plan(
            "b7c4e9a1-2d3f-4e5a-8b6c-7d8e9f0a1b2c",
            "USDT",
            3,
            "8",
            10_080,
            ("USDT", "1"),
            ("50", "5000", "5000"),
        ),
        plan(
            "d2e5f8a3-6b9c-4d0e-a1f2-3b4c5d6e7f80",
            "USDT",
            4,
            "15",
            129_600,
            ("BTC", "0.0000153846"),
            ("1000", "100000", "25000"),
        ),
        plan(
            "5a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d",
            "BTC",
            1,
            "4.2",
            20_160,
            ("BTC", "1"),
            ("0.001", "2", "0.75"),
        ),
        plan(
            "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
            "BTC",
            4,
            "6",
            86_400,
            ("USDT", "65000"),
            ("0.01", "5", "5"),
        ),
    ]
}

/// The demo flex plans: the spec's two examples (USDT at 15 %, BTC at 12 %), a paused USDT
/// plan, and a USDT plan private to the partner.
pub(crate) fn default_flex_plans() -> Vec<FlexPlanConfig> {
    vec![
        FlexPlanConfig::new(demo::FLEX_USDT_PLAN, "USDT")
            .investment("10.0", "100000.0")
            .max_rate("0.15"),
        FlexPlanConfig::new(demo::FLEX_BTC_PLAN, "BTC")
            .investment("0.001", "10.0")
            .max_rate("0.12"),
        FlexPlanConfig::new(demo::FLEX_PAUSED_PLAN, "USDT")
            .investment("50", "5000")
            .max_rate("0.08")
            .status(FLEX_PAUSED),
        FlexPlanConfig::new(demo::FLEX_PARTNER_PLAN, "USDT")
            .investment("100", "50000")
            .max_rate("0.2")
            .private_to(demo::PARTNER_API_KEY),
    ]
}
