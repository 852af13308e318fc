//! Markets as configured: [`MarketConfig`] (a builder, checked when the sandbox starts) and
//! the checked [`MarketSpec`] — the market's published rules (`GET /api/v4/public/markets`)
//! and its trading terms.

use rust_decimal::Decimal;

use super::error::SandboxError;
use crate::wire::{self, decimal};

/// The number of decimal places fees are calculated to (the published `feePrec`).
pub(crate) const FEE_PRECISION: u32 = 8;

/// A market of the sandbox: its current price, its order rules and fees.
///
/// Its rules are what `GET /api/v4/public/markets` publishes for it and what every order on it
/// is checked against (the spec's "Order validation rules"): the amount's step (its decimal
/// places are the published `stockPrec`), at most `moneyPrec` decimal places in every price,
/// `minAmount`, and `amount × price` between `minTotal` and `maxTotal` (`0`: no maximum).
///
/// Defaults: minimum amount `0.001`, amount step `0.000001` (`stockPrec` 6), money precision 8,
/// minimum total `0`, no maximum total, taker fee `0.001` (0.1 %), maker fee `0.0005`
/// (0.05 %), collateral currency `USDT`, no position limit; on a perpetual (`…_PERP`) market a
/// funding rate of `0.0001` (0.01 %) per funding interval.
///
/// ```
/// use txc_sandbox::MarketConfig;
/// let market = MarketConfig::new("SOL_USDT", "150")
///     .min_amount("0.1")
///     .amount_step("0.01")
///     .money_precision(2)
///     .min_total("5")
///     .max_total("1000000")
///     .taker_fee("0.0005")
///     .maker_fee("0.0002");
/// assert_eq!(market.name(), "SOL_USDT");
/// ```
#[derive(Debug, Clone)]
pub struct MarketConfig {
    name: String,
    price: String,
    min_amount: String,
    amount_step: String,
    money_precision: u32,
    min_total: String,
    max_total: String,
    taker_fee: String,
    maker_fee: String,
    collateral: String,
    max_position: Option<String>,
    funding_rate: Option<String>,
}

/// The funding rate of a perpetual market unless configured: 0.01 % per interval, the common
/// base rate (the spec publishes no default; its example's rate is 0.0045 %).
const DEFAULT_FUNDING_RATE: Decimal = Decimal::from_parts(1, 0, 0, false, 4);

impl MarketConfig {
    /// A market `name` (e.g. `BTC_PERP`) at `price`.
    pub fn new(name: impl Into<String>, price: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            price: price.into(),
            min_amount: "0.001".to_owned(),
            amount_step: "0.000001".to_owned(),
            money_precision: 8,
            min_total: "0".to_owned(),
            max_total: "0".to_owned(),
            taker_fee: "0.001".to_owned(),
            maker_fee: "0.0005".to_owned(),
            collateral: "USDT".to_owned(),
            max_position: None,
            funding_rate: None,
        }
    }

    /// The smallest order amount (code 32 below it): the published `minAmount`.
    #[must_use]
    pub fn min_amount(mut self, min: impl Into<String>) -> Self {
        self.min_amount = min.into();
        self
    }

    /// Every amount must be a multiple of this step (code 32 otherwise); its decimal places
    /// are the published `stockPrec`.
    #[must_use]
    pub fn amount_step(mut self, step: impl Into<String>) -> Self {
        self.amount_step = step.into();
        self
    }

    /// The most decimal places a price may have (code 33 beyond): the published `moneyPrec`.
    /// At most 28.
    #[must_use]
    pub fn money_precision(mut self, places: u32) -> Self {
        self.money_precision = places;
        self
    }

    /// The smallest order total, `amount × price`, in the money currency (code 32 below it):
    /// the published `minTotal`. `0`: no minimum.
    #[must_use]
    pub fn min_total(mut self, min: impl Into<String>) -> Self {
        self.min_total = min.into();
        self
    }

    /// The largest order total, `amount × price` (code 32 above it): the published
    /// `maxTotal`. `0` (the default): no maximum.
    #[must_use]
    pub fn max_total(mut self, max: impl Into<String>) -> Self {
        self.max_total = max.into();
        self
    }

    /// The taker fee rate, e.g. `0.001` for 0.1 %, charged in the collateral currency on what
    /// an order takes: market orders, fired stop-market orders, the part of a limit order
    /// that executes when it is placed. Published as a percentage (`takerFee` `"0.1"`).
    #[must_use]
    pub fn taker_fee(mut self, fee: impl Into<String>) -> Self {
        self.taker_fee = fee.into();
        self
    }

    /// The maker fee rate, e.g. `0.0005` for 0.05 %, charged on what a resting limit order
    /// executes. Published as a percentage (`makerFee` `"0.05"`).
    #[must_use]
    pub fn maker_fee(mut self, fee: impl Into<String>) -> Self {
        self.maker_fee = fee.into();
        self
    }

    /// The collateral (margin) currency whose balance pays margin and fees. Default `USDT`.
    #[must_use]
    pub fn collateral(mut self, ticker: impl Into<String>) -> Self {
        self.collateral = ticker.into();
        self
    }

    /// The largest position an account may hold on the market, in the stock currency: an
    /// order whose execution would make a position larger is refused with code 111
    /// ("resulting position would exceed the market maximum"). Default: no limit.
    #[must_use]
    pub fn max_position(mut self, amount: impl Into<String>) -> Self {
        self.max_position = Some(amount.into());
        self
    }

    /// The funding rate of a perpetual (`…_PERP`) market: a signed plain decimal (`"0.0001"`,
    /// `"-0.00025"`). At each funding time every open position on the market receives
    /// `−(signed amount × price × rate)`: a positive rate makes longs pay shorts, a negative
    /// one the reverse ([`crate::SandboxBuilder::funding_interval`];
    /// [`crate::Sandbox::set_funding_rate`] changes it while the sandbox runs). Default
    /// `0.0001`. Only perpetual markets have one: setting it on another market is a
    /// configuration error.
    #[must_use]
    pub fn funding_rate(mut self, rate: impl Into<String>) -> Self {
        self.funding_rate = Some(rate.into());
        self
    }

    /// The market's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn validate(&self) -> Result<MarketSpec, SandboxError> {
        let bad = |reason: String| SandboxError::Config {
            what: format!("market {}", self.name),
            reason,
        };
        let Some((stock, quote)) = self
            .name
            .split_once('_')
            .filter(|_| wire::is_market_name(&self.name))
        else {
            return Err(bad("the name is not of the form BASE_QUOTE".to_owned()));
        };
        let positive = |field: &str, text: &str| {
            decimal::parse_positive(text)
                .ok_or_else(|| bad(format!("{field} {text:?} is not a positive plain decimal")))
        };
        let plain = |field: &str, text: &str| {
            decimal::parse(text)
                .ok_or_else(|| bad(format!("{field} {text:?} is not a plain decimal")))
        };
        let rate = |field: &str, text: &str| {
            let fee = plain(field, text)?;
            if fee >= Decimal::ONE {
                return Err(bad(format!("{field} must be below 1")));
            }
            Ok(fee)
        };
        if self.collateral.is_empty() {
            return Err(bad("empty collateral ticker".to_owned()));
        }
        if self.money_precision > 28 {
            return Err(bad("money precision must be at most 28".to_owned()));
        }
        let amount_step = positive("amount step", &self.amount_step)?;
        let futures = self.name.ends_with("_PERP");
        let funding_rate = match (&self.funding_rate, futures) {
            (None, true) => DEFAULT_FUNDING_RATE,
            (None, false) => Decimal::ZERO,
            (Some(_), false) => {
                return Err(bad(
                    "a funding rate applies to perpetual (_PERP) markets only".to_owned(),
                ));
            }
            (Some(rate), true) => decimal::parse_signed(rate)
                .ok_or_else(|| bad(format!("funding rate {rate:?} is not a plain decimal")))?,
        };
        Ok(MarketSpec {
            name: self.name.clone(),
            stock: stock.to_owned(),
            // "Perpetual futures markets report `USDT` as the money currency": their
            // collateral.
            money: if futures {
                self.collateral.clone()
            } else {
                quote.to_owned()
            },
            futures,
            price: positive("price", &self.price)?,
            min_amount: positive("min amount", &self.min_amount)?,
            amount_step,
            stock_prec: amount_step.normalize().scale(),
            money_prec: self.money_precision,
            min_total: plain("min total", &self.min_total)?,
            max_total: plain("max total", &self.max_total)?,
            taker_fee: rate("taker fee", &self.taker_fee)?,
            maker_fee: rate("maker fee", &self.maker_fee)?,
            collateral: self.collateral.clone(),
            max_position: self
                .max_position
                .as_deref()
                .map(|max| positive("max position", max))
                .transpose()?,
            funding_rate,
        })
    }
}

/// A validated market.
#[derive(Debug, Clone)]
pub(crate) struct MarketSpec {
    pub(crate) name: String,
    pub(crate) stock: String,
    /// The money currency the public market info names: the quote, or the collateral of a
    /// perpetual market.
    pub(crate) money: String,
    /// Whether it is a perpetual futures market (`…_PERP`).
    pub(crate) futures: bool,
    /// The starting price (the current one is the state's).
    pub(crate) price: Decimal,
    pub(crate) min_amount: Decimal,
    pub(crate) amount_step: Decimal,
    /// The amount step's decimal places: the published `stockPrec`.
    pub(crate) stock_prec: u32,
    /// The most decimal places of a price: the published `moneyPrec`.
    pub(crate) money_prec: u32,
    pub(crate) min_total: Decimal,
    /// Zero: no maximum.
    pub(crate) max_total: Decimal,
    pub(crate) taker_fee: Decimal,
    pub(crate) maker_fee: Decimal,
    pub(crate) collateral: String,
    /// The largest position an account may hold (code 111 beyond).
    pub(crate) max_position: Option<Decimal>,
    /// The funding rate charged at each funding time (zero on a market that is not
    /// perpetual).
    pub(crate) funding_rate: Decimal,
}

impl MarketSpec {
    /// The fee rate of a fill as maker or as taker.
    pub(crate) fn fee_rate(&self, maker: bool) -> Decimal {
        if maker {
            self.maker_fee
        } else {
            self.taker_fee
        }
    }
}
