//! Checking every order against its market's published rules before it is sent:
//! [`MarketRulesCheck`] (the setting), the rules known per exchange, [`RulesCheck`] (an order
//! checked, then the operation itself) and [`LearnRules`] (reading them into the cache).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError, RwLock};
use std::time::SystemTime;

use txc_types::markets::{MarketInfo, MarketRulebook, MarketsQuery, RuledOrder};
use txc_types::orders::OrderRefusal;

use crate::machine::Call;
use crate::{ClientCore, Error, Machine, Response, Step, TransportError};

/// What the client does about the markets' published rules before an order of any type —
/// market, trigger-market, limit, stop-limit, bulk, OCO, modify — is sent.
///
/// **The look-up this adds.** With [`MarketRulesCheck::Learn`] (the default) the first order
/// sent to an exchange first reads the public market info (`GET /api/v4/public/markets`, one
/// unsigned request, rate limit 2 000 / 10 s); every later order uses what was read, shared by
/// every client of the exchange in the process. It is read again after the exchange refuses an
/// order with code 31, 32 or 33 (the market, its amount or its price: the rules may have
/// changed). Orders made while the first read is under way read it too. If the read fails, the
/// order is sent unchecked (a `tracing` event says so, with the `tracing` feature) — the
/// exchange still refuses what breaks its rules, and the read's failure never makes an order's
/// outcome look unknown.
///
/// **What is refused** ([`Error::InvalidRequest`] with
/// [`ValidationError::MarketRule`](txc_types::errors::ValidationError::MarketRule): the field,
/// the rule, the market's value and the nearest valid value; nothing is sent): an amount with
/// more decimal places than `stockPrec` or below `minAmount`, a price (limit, activation,
/// stop-loss, take-profit) with more than `moneyPrec`, a total (amount × a limit price) outside
/// `minTotal`–`maxTotal` — see [`MarketRules`](txc_types::markets::MarketRules), which says
/// which prices make a total. A market order's total is not checked: it executes at a price no
/// request names. **Nothing is guessed**: an order of a market the info does not list (or lists
/// with rules that cannot be read) is sent unchecked, and a `tracing` event says so.
///
/// **Rounding is the caller's**, explicit: [`MarketRules::round_amount`] and
/// [`MarketRules::round_price`](txc_types::markets::MarketRules::round_price) on the rules the
/// client read (its `market_rules`).
///
/// [`MarketRules::round_amount`]: txc_types::markets::MarketRules::round_amount
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MarketRulesCheck {
    /// Read the rules once per exchange, lazily, and check against them (the default).
    #[default]
    Learn,
    /// Check against these rules without reading them (tests, a host without access to the
    /// public endpoints); a code 31, 32 or 33 refusal makes the client read the real ones.
    Given(MarketRulebook),
    /// Check nothing: every order goes as given, and the exchange decides.
    Off,
}

/// The markets' rules as the clients of one exchange know them: shared by every client of
/// the exchange in the process (the public market info is the same for every key).
#[derive(Debug, Clone, Default)]
pub(crate) struct RulesCache {
    book: Arc<RwLock<Option<Arc<MarketRulebook>>>>,
}

impl RulesCache {
    /// The cache of the exchange at `base_url`, or — rules given — one of its own, holding them.
    pub(crate) fn for_check(base_url: &str, check: &MarketRulesCheck) -> Self {
        if let MarketRulesCheck::Given(book) = check {
            let cache = Self::default();
            cache.set(book.clone());
            return cache;
        }
        static CACHES: LazyLock<Mutex<HashMap<String, RulesCache>>> = LazyLock::new(Mutex::default);
        crate::registry::shared(&CACHES, base_url.to_owned(), Self::default)
    }

    /// The rules, if known.
    pub(crate) fn get(&self) -> Option<Arc<MarketRulebook>> {
        self.book
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Records the rules.
    pub(crate) fn set(&self, book: MarketRulebook) -> Arc<MarketRulebook> {
        let book = Arc::new(book);
        *self.book.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&book));
        book
    }

    /// Forgets the rules: the next order reads them again.
    pub(crate) fn forget(&self) {
        *self.book.write().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// Whether `error` is a refusal that says the rules may have changed: code 31, 32 or 33 on an
/// order endpoint ([`OrderRefusal::Market`], [`OrderRefusal::Amount`], [`OrderRefusal::Price`]).
pub(crate) fn rules_refusal(error: &Error) -> bool {
    error.api().and_then(|api| api.refusal).is_some_and(|r| {
        matches!(
            r,
            OrderRefusal::Market | OrderRefusal::Amount | OrderRefusal::Price
        )
    })
}

/// The markets' rules as the client knows them, or — unknown, or `refresh` — read from the
/// public market info and recorded as the exchange's: a [`Machine`] whose output is the rules.
pub struct LearnRules<'a> {
    core: &'a ClientCore,
    read: Option<Call<'a, MarketsQuery>>,
}

impl<'a> LearnRules<'a> {
    pub(crate) fn new(core: &'a ClientCore, refresh: bool) -> Self {
        let known = core.rules.get().is_some() && !refresh;
        Self {
            core,
            read: (!known).then(|| core.call_owned(MarketsQuery)),
        }
    }
}

impl Machine for LearnRules<'_> {
    type Output = Result<Arc<MarketRulebook>, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        let Some(read) = &mut self.read else {
            return match self.core.rules.get() {
                Some(book) => Step::Done(Ok(book)),
                None => {
                    // Forgotten meanwhile (a refusal elsewhere): read after all.
                    self.read = Some(self.core.call_owned(MarketsQuery));
                    self.next(now)
                }
            };
        };
        match read.next(now).forward() {
            Ok(step) => step,
            Err(answer) => Step::Done(answer.map(|infos| learned(self.core, &infos))),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        if let Some(read) = &mut self.read {
            read.receive(response);
        }
    }
}

/// Records the rules of `infos` as the exchange's.
fn learned(core: &ClientCore, infos: &[MarketInfo]) -> Arc<MarketRulebook> {
    core.rules.set(MarketRulebook::from_infos(infos))
}

/// Where a [`RulesCheck`] is; the operation stays in place beside it.
enum Stage<'a> {
    /// Check against the known rules, or read them.
    Check,
    /// Reading the rules; then check and run the operation.
    Reading(Box<Call<'a, MarketsQuery>>),
    /// The checked operation.
    Running,
    Finished,
}

/// An order checked against its market's published rules before it is sent (the rules:
/// [`MarketRulesCheck`]); then the operation `M` itself. A refusal of `M` with code 31, 32 or
/// 33 makes the clients of the exchange read the rules again.
pub struct RulesCheck<'a, M> {
    core: &'a ClientCore,
    order: &'a (dyn RuledOrder + Sync),
    operation: &'static str,
    then: M,
    stage: Stage<'a>,
    /// Whether unknown rules are read first.
    read: bool,
}

impl<'a, M> RulesCheck<'a, M> {
    pub(crate) fn new(
        core: &'a ClientCore,
        order: &'a (dyn RuledOrder + Sync),
        operation: &'static str,
        then: M,
    ) -> Self {
        Self {
            core,
            order,
            operation,
            then,
            stage: Stage::Check,
            read: true,
        }
    }

    /// The same, reading no rules (`true`): checked only against rules already known (an
    /// order the client will refuse before any I/O anyway, say).
    pub(crate) fn without_read(mut self, skip: bool) -> Self {
        self.read = !skip;
        self
    }

    /// Checks the order against `book`: on to the operation, or finished with the refusal.
    fn check(&mut self, book: &MarketRulebook) -> Result<(), Error> {
        match book.check(self.order) {
            Ok(unchecked) => {
                for market in &unchecked {
                    crate::machine::trace::rules_unchecked(
                        self.operation,
                        market.as_str(),
                        "the public market info does not list the market (or its rules \
                         cannot be read)",
                    );
                }
                self.stage = Stage::Running;
                Ok(())
            }
            Err(refused) => {
                self.stage = Stage::Finished;
                Err(refused.into())
            }
        }
    }

    /// On to the operation unchecked, saying why.
    fn unchecked(&mut self, why: &str) {
        for part in self.order.parts() {
            crate::machine::trace::rules_unchecked(self.operation, part.market.as_str(), why);
        }
        self.stage = Stage::Running;
    }
}

impl<T, M: Machine<Output = Result<T, Error>>> Machine for RulesCheck<'_, M> {
    type Output = Result<T, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        loop {
            match &mut self.stage {
                Stage::Running => {
                    let step = self.then.next(now);
                    if let Step::Done(Err(error)) = &step
                        && rules_refusal(error)
                    {
                        self.core.rules.forget();
                    }
                    if matches!(step, Step::Done(_)) {
                        self.stage = Stage::Finished;
                    }
                    return step;
                }
                Stage::Check if self.core.rules_check == MarketRulesCheck::Off => {
                    self.stage = Stage::Running;
                }
                Stage::Check => match self.core.rules.get() {
                    Some(book) => {
                        if let Err(refused) = self.check(&book) {
                            return Step::Done(Err(refused));
                        }
                    }
                    None if !self.read => self.unchecked("the markets' rules are not known yet"),
                    None => {
                        self.stage = Stage::Reading(Box::new(self.core.call_owned(MarketsQuery)));
                    }
                },
                Stage::Reading(read) => match read.next(now).forward() {
                    Ok(step) => return step,
                    Err(Ok(infos)) => {
                        let book = learned(self.core, &infos);
                        if let Err(refused) = self.check(&book) {
                            return Step::Done(Err(refused));
                        }
                    }
                    // Unread: sent unchecked; the exchange still refuses what breaks its rules.
                    Err(Err(_)) => self.unchecked("the public market info could not be read"),
                },
                Stage::Finished => return Step::after_end(self.operation, "the order"),
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Reading(read) => read.receive(response),
            Stage::Running => self.then.receive(response),
            Stage::Check | Stage::Finished => {}
        }
    }

    fn wake(&self) -> Option<crate::machine::Wake<'_>> {
        match &self.stage {
            Stage::Running => self.then.wake(),
            _ => None,
        }
    }
}
