//! [`MarketRulebook`]: the rules of many markets, for orders of any of them.

use std::collections::BTreeMap;

use super::{MarketInfo, MarketRules, RuledOrder};
use crate::errors::ValidationError;
use crate::values::Market;

/// The rules of every market of the public market info, by name: checks an order of any of
/// them (a bulk order's items may be of several).
///
/// Nothing is guessed: an order part whose market has no rules here — not listed, or listed
/// with rules that could not be read ([`unreadable`](Self::unreadable)) — is not checked, and
/// [`check`](Self::check) returns its market, for the caller to say so (a trace event).
///
/// ```
/// use txc_types::markets::{MarketInfo, MarketRulebook};
/// use txc_types::orders::{CollateralLimitOrder, Side};
/// let infos: Vec<MarketInfo> = serde_json::from_str(r#"[{"name":"BTC_USDT","stockPrec":"4",
///     "moneyPrec":"2","minAmount":"0.001","minTotal":"5","maxTotal":"0"}]"#)?;
/// let book = MarketRulebook::from_infos(&infos);
/// let order = CollateralLimitOrder::builder("ETH_USDT", Side::Buy, "0.1", "3000").build()?;
/// let unchecked = book.check(&order)?;
/// assert_eq!(unchecked, ["ETH_USDT"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketRulebook {
    rules: BTreeMap<Market, MarketRules>,
    unreadable: BTreeMap<Market, ValidationError>,
}

impl MarketRulebook {
    /// The rules of each market of `infos`; a market whose rules cannot be read is kept in
    /// [`unreadable`](Self::unreadable) with why.
    pub fn from_infos<'a>(infos: impl IntoIterator<Item = &'a MarketInfo>) -> Self {
        let mut book = Self::default();
        for info in infos {
            match MarketRules::from_info(info) {
                Ok(rules) => {
                    book.unreadable.remove(&info.name);
                    book.rules.insert(info.name.clone(), rules);
                }
                Err(error) => {
                    book.rules.remove(&info.name);
                    book.unreadable.insert(info.name.clone(), error);
                }
            }
        }
        book
    }

    /// A book of the given rules (the last of a market wins): what
    /// `MarketRulesCheck::Given` takes when the rules come from elsewhere than the public
    /// market info.
    ///
    /// ```
    /// use txc_types::markets::{MarketRulebook, MarketRules};
    /// let rules = MarketRules::new(
    ///     "BTC_USDT".parse()?, 6, 2, "0.001".parse()?, "5".parse()?, "0".parse()?,
    /// )?;
    /// let book = MarketRulebook::from_rules([rules]);
    /// assert_eq!(book.get("BTC_USDT").map(|r| r.amount_precision()), Some(6));
    /// assert!(book.get("ETH_USDT").is_none());
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    pub fn from_rules(rules: impl IntoIterator<Item = MarketRules>) -> Self {
        Self {
            rules: rules
                .into_iter()
                .map(|rules| (rules.market().clone(), rules))
                .collect(),
            unreadable: BTreeMap::new(),
        }
    }

    /// The rules of `market`, if the book has them.
    pub fn get(&self, market: &str) -> Option<&MarketRules> {
        self.rules.get(market)
    }

    /// The markets listed with rules that could not be read, and why.
    pub fn unreadable(&self) -> &BTreeMap<Market, ValidationError> {
        &self.unreadable
    }

    /// Checks each part of `order` against its market's rules ([`MarketRules::check`]): the
    /// first rule broken, or the markets of the parts left unchecked for want of rules (empty
    /// when every part was checked).
    pub fn check(
        &self,
        order: &(impl RuledOrder + ?Sized),
    ) -> Result<Vec<Market>, ValidationError> {
        let mut unchecked: Vec<Market> = Vec::new();
        for part in order.parts() {
            match self.rules.get(part.market.as_str()) {
                Some(rules) => rules.check_part(&part)?,
                None if !unchecked.contains(part.market) => unchecked.push(part.market.clone()),
                None => {}
            }
        }
        Ok(unchecked)
    }
}
