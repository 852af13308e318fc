//! Validated text newtypes: [`Market`], [`Ticker`] and [`ClientOrderId`].
//!
//! One generic [`Text`] carries the exact wire string; a [`TextRule`] says what is allowed.

use std::borrow::Cow;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Reason, Validated, ValidationError};

/// The validation rule of a [`Text`] newtype: a marker type of this crate (sealed), one per
/// newtype — [`MarketRule`], [`TickerRule`], [`ClientOrderIdRule`], [`AmountRule`](crate::AmountRule),
/// [`PriceRule`](crate::PriceRule). It names the rule; nothing else is meant to use it.
pub trait TextRule:
    crate::sealed::Sealed + Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static
{
    /// The wire field name used when the value is parsed on its own.
    const FIELD: &'static str;
    /// The type's name, shown by `Debug`.
    const NAME: &'static str;
    /// Checks `text`, naming `field` in the error.
    fn check(text: &str, field: &'static str) -> Result<(), ValidationError>;
}

/// A string validated by rule `R`, kept exactly as sent on the wire.
pub struct Text<R: TextRule>(String, PhantomData<R>);

impl<R: TextRule> Text<R> {
    /// Validates `text`.
    pub fn new(text: &str) -> Result<Self, ValidationError> {
        Self::validate(text, R::FIELD)
    }

    /// The value as sent on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<R: TextRule> Validated for Text<R> {
    fn validate(text: &str, field: &'static str) -> Result<Self, ValidationError> {
        R::check(text, field)?;
        Ok(Self(text.to_owned(), PhantomData))
    }
}

impl<R: TextRule> Clone for Text<R> {
    fn clone(&self) -> Self {
        Self(self.0.clone(), PhantomData)
    }
}
impl<R: TextRule> PartialEq for Text<R> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<R: TextRule> Eq for Text<R> {}
impl<R: TextRule> PartialOrd for Text<R> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<R: TextRule> Ord for Text<R> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<R: TextRule> Hash for Text<R> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<R: TextRule> FromStr for Text<R> {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

impl<R: TextRule> fmt::Display for Text<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<R: TextRule> fmt::Debug for Text<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", R::NAME, self.0)
    }
}

impl<R: TextRule> AsRef<str> for Text<R> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<R: TextRule> Serialize for Text<R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de, R: TextRule> Deserialize<'de> for Text<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <Cow<'de, str>>::deserialize(d)?;
        Self::new(&text).map_err(serde::de::Error::custom)
    }
}

/// Checks length bounds and that every byte satisfies `allowed`.
pub(crate) fn check_chars(
    text: &str,
    field: &'static str,
    max: usize,
    allowed: impl Fn(u8) -> bool,
) -> Result<(), ValidationError> {
    if text.is_empty() {
        return Err(ValidationError::invalid(field, Reason::Empty));
    }
    if text.len() > max {
        return Err(ValidationError::invalid(field, Reason::TooLong { max }));
    }
    if let Some(bad) = text.chars().find(|c| !u8::try_from(*c).is_ok_and(&allowed)) {
        return Err(ValidationError::invalid(
            field,
            Reason::InvalidCharacter(bad),
        ));
    }
    Ok(())
}

fn is_upper_alnum(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

/// Tickers and markets are upper case on the wire; say so rather than name a letter.
fn check_upper(text: &str, field: &'static str) -> Result<(), ValidationError> {
    if text.bytes().any(|b| b.is_ascii_lowercase()) {
        return Err(ValidationError::invalid(
            field,
            Reason::Format("must be upper case"),
        ));
    }
    Ok(())
}

/// Rule of [`Market`]: two upper-case tickers joined by one `_`, at most 32 characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MarketRule;

impl TextRule for MarketRule {
    const FIELD: &'static str = "market";
    const NAME: &'static str = "Market";
    fn check(text: &str, field: &'static str) -> Result<(), ValidationError> {
        check_upper(text, field)?;
        check_chars(text, field, 32, |b| is_upper_alnum(b) || b == b'_')?;
        match text.split_once('_') {
            Some((stock, money))
                if !stock.is_empty() && !money.is_empty() && !money.contains('_') =>
            {
                Ok(())
            }
            _ => Err(ValidationError::invalid(
                field,
                Reason::Format("must be two upper-case tickers joined by one '_', e.g. BTC_USDT"),
            )),
        }
    }
}

/// A market name such as `BTC_USDT` (margin) or `BTC_PERP` (perpetual).
///
/// ```
/// use txc_types::Market;
/// let m: Market = "BTC_PERP".parse()?;
/// assert_eq!((m.as_str(), m.stock(), m.money()), ("BTC_PERP", "BTC", "PERP"));
/// assert!("btc usdt".parse::<Market>().is_err());
/// # Ok::<(), txc_types::ValidationError>(())
/// ```
pub type Market = Text<MarketRule>;

impl Text<MarketRule> {
    /// The stock (base) ticker, e.g. `BTC` of `BTC_USDT`.
    pub fn stock(&self) -> &str {
        self.0.split_once('_').map_or(self.0.as_str(), |(s, _)| s)
    }

    /// The money (quote) part, e.g. `USDT` of `BTC_USDT` or `PERP` of `BTC_PERP`.
    pub fn money(&self) -> &str {
        self.0.split_once('_').map_or("", |(_, m)| m)
    }
}

/// Rule of [`Ticker`]: upper-case ASCII letters and digits, 1 to 16 characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TickerRule;

impl TextRule for TickerRule {
    const FIELD: &'static str = "ticker";
    const NAME: &'static str = "Ticker";
    fn check(text: &str, field: &'static str) -> Result<(), ValidationError> {
        check_upper(text, field)?;
        check_chars(text, field, 16, is_upper_alnum)
    }
}

/// A currency ticker such as `USDT`, `BTC` or `1INCH`.
///
/// ```
/// let t: txc_types::Ticker = "USDT".parse()?;
/// assert_eq!(t.as_str(), "USDT");
/// # Ok::<(), txc_types::ValidationError>(())
/// ```
pub type Ticker = Text<TickerRule>;

/// Rule of [`ClientOrderId`]: ASCII letters, digits, `-`, `.`, `_`; 1 to 64 characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClientOrderIdRule;

impl TextRule for ClientOrderIdRule {
    const FIELD: &'static str = "clientOrderId";
    const NAME: &'static str = "ClientOrderId";
    fn check(text: &str, field: &'static str) -> Result<(), ValidationError> {
        check_chars(text, field, 64, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_')
        })
    }
}

/// A caller-chosen order id. The exchange keeps it unique only among the account's *open*
/// orders on one market, so it is no idempotency key for market orders.
///
/// [`ClientOrderId::generated`] makes the ids txc clients give orders that have none.
///
/// ```
/// let id: txc_types::ClientOrderId = "order-42".parse()?;
/// assert_eq!(id.as_str(), "order-42");
/// assert!("a/b".parse::<txc_types::ClientOrderId>().is_err());
/// # Ok::<(), txc_types::ValidationError>(())
/// ```
pub type ClientOrderId = Text<ClientOrderIdRule>;

impl Text<ClientOrderIdRule> {
    /// The generated id `txc-<prefix>-<serial>`: `<prefix>` is `prefix` in 13 base-36 digits
    /// (zero-padded), `<serial>` is `serial` in base 36 — letters, digits and `-`, at most 31
    /// characters, so always within the exchange's rules.
    ///
    /// ```
    /// use txc_types::ClientOrderId;
    /// assert_eq!(ClientOrderId::generated(42, 1).as_str(), "txc-0000000000016-1");
    /// assert_eq!(ClientOrderId::generated(u64::MAX, u64::MAX).as_str(), "txc-3w5e11264sgsf-3w5e11264sgsf");
    /// ```
    pub fn generated(prefix: u64, serial: u64) -> Self {
        Self(
            format!("txc-{:0>13}-{}", base36(prefix), base36(serial)),
            PhantomData,
        )
    }
}

/// `n` in base 36, lower case.
fn base36(mut n: u64) -> String {
    let mut out = Vec::with_capacity(13);
    loop {
        let digit = u8::try_from(n % 36).unwrap_or_default();
        out.push(if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        });
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}
