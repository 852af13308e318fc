//! [`PendingRecord`]: an order, an investment, a flex investment or a flex withdrawal whose
//! outcome is not definite yet, as the client keeps it and its [`Journal`](crate::Journal)
//! persists it — one record per placement, known by its first attempt's nonce.

use std::fmt;
use std::time::SystemTime;

use crate::{
    AttemptRecord, Nonce, PendingFlexInvest, PendingFlexWithdraw, PendingInvestment, PendingModify,
    PendingOrder,
};

/// An operation whose outcome is not definite yet: what a [`Journal`](crate::Journal) persists
/// before each attempt and hands back when a client is built, and what
/// [`Error::ResolveFirst`](crate::Error::ResolveFirst) names.
///
/// A record is one placement of an order (or one investment, flex investment or flex
/// withdrawal), with every attempt to send it;
/// it is known by its first attempt's nonce ([`key`](Self::key)), so the records of two
/// placements of one `clientOrderId` — one per process, say — are two records, each cleared
/// only by its own definite answer.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::{PendingOrder, PendingRecord};
/// use txc_core::txc_sign::nonce::Nonce;
///
/// let attempt = AttemptRecord {
///     nonce: Nonce(1_700_000_000_000),
///     signed_at: UNIX_EPOCH + Duration::from_millis(1_700_000_000_000),
/// };
/// let order = PendingOrder::new("BTC_USDT".parse()?, "txc-1".parse()?, vec![attempt]);
/// let record = PendingRecord::from(order);
/// assert_eq!(record.key(), Some(Nonce(1_700_000_000_000)));
/// assert_eq!(record.to_string(), "order txc-1 on BTC_USDT (nonces 1700000000000)");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PendingRecord {
    /// An order: market, `clientOrderId`, attempts.
    Order(PendingOrder),
    /// An investment in a fixed plan: plan, amount, attempts.
    Investment(PendingInvestment),
    /// An investment in a flex plan: plan, amount, attempts.
    FlexInvest(PendingFlexInvest),
    /// A withdrawal from a flex plan: plan, amount, attempts.
    FlexWithdraw(PendingFlexWithdraw),
    /// A modify: the request, the order it replaces, attempts.
    Modify(PendingModify),
}

impl PendingRecord {
    /// What the record is known by: its first attempt's nonce — for an order sent over the
    /// WebSocket only, its first frame's time in microseconds ([`PendingOrder::key`]) —
    /// (`None` without attempts — such a record is never journaled: nothing of it was sent).
    pub fn key(&self) -> Option<Nonce> {
        match self {
            Self::Order(order) => order.key(),
            _ => self.attempts().first().map(|a| a.nonce),
        }
    }

    /// Every attempt, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        match self {
            Self::Order(order) => order.attempts(),
            Self::Investment(investment) => investment.attempts(),
            Self::FlexInvest(invest) => invest.attempts(),
            Self::FlexWithdraw(withdraw) => withdraw.attempts(),
            Self::Modify(modify) => modify.attempts(),
        }
    }

    /// Why resolving it could not tell, if it was tried and could not.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Self::Order(order) => order.reason(),
            Self::Investment(investment) => investment.reason(),
            Self::FlexInvest(invest) => invest.reason(),
            Self::FlexWithdraw(withdraw) => withdraw.reason(),
            Self::Modify(modify) => modify.reason(),
        }
    }

    /// When its first attempt was signed.
    pub fn first_signed_at(&self) -> Option<SystemTime> {
        self.attempts().iter().map(|a| a.signed_at).min()
    }

    /// The order, if it is one.
    pub fn order(&self) -> Option<&PendingOrder> {
        match self {
            Self::Order(order) => Some(order),
            _ => None,
        }
    }

    /// The investment, if it is one.
    pub fn investment(&self) -> Option<&PendingInvestment> {
        match self {
            Self::Investment(investment) => Some(investment),
            _ => None,
        }
    }

    /// The flex investment, if it is one.
    pub fn flex_invest(&self) -> Option<&PendingFlexInvest> {
        match self {
            Self::FlexInvest(invest) => Some(invest),
            _ => None,
        }
    }

    /// The flex withdrawal, if it is one.
    pub fn flex_withdraw(&self) -> Option<&PendingFlexWithdraw> {
        match self {
            Self::FlexWithdraw(withdraw) => Some(withdraw),
            _ => None,
        }
    }

    /// The modify, if it is one.
    pub fn modify(&self) -> Option<&PendingModify> {
        match self {
            Self::Modify(modify) => Some(modify),
            _ => None,
        }
    }

    /// What it is, in a few words: `order <clientOrderId> on <market>`, `investment of
    /// <amount> in plan <plan>`, `flex investment of <amount> in plan <plan>`, `flex withdrawal
    /// of <amount> from plan <plan>`, `modify of order <id> on <market>`.
    pub fn subject(&self) -> String {
        match self {
            Self::Order(order) => format!(
                "order {} on {}",
                order.client_order_id().as_str(),
                order.market().as_str()
            ),
            Self::Investment(investment) => format!(
                "investment of {} in plan {}",
                investment.invest().amount().as_str(),
                investment.invest().plan_id()
            ),
            Self::FlexInvest(invest) => format!(
                "flex investment of {} in plan {}",
                invest.request().amount().as_str(),
                invest.request().plan()
            ),
            Self::FlexWithdraw(withdraw) => format!(
                "flex withdrawal of {} from plan {}",
                withdraw.request().amount().as_str(),
                withdraw.request().plan()
            ),
            Self::Modify(modify) => modify.subject(),
        }
    }

    /// The client's call that resolves it (`resolve`, `resolve_investment`,
    /// `resolve_flex_invest`, `resolve_flex_withdraw`, `resolve_modify`).
    pub fn resolve_call(&self) -> &'static str {
        match self {
            Self::Order(_) => "resolve",
            Self::Investment(_) => "resolve_investment",
            Self::FlexInvest(_) => "resolve_flex_invest",
            Self::FlexWithdraw(_) => "resolve_flex_withdraw",
            Self::Modify(_) => "resolve_modify",
        }
    }

    /// The client's call that resolves it before sending again, when there is one
    /// (`place_once`, `invest_once`, `flex_invest_once`, `flex_withdraw_once`; a modify has
    /// none: resolve it first).
    pub fn once_call(&self) -> Option<&'static str> {
        match self {
            Self::Order(_) => Some("place_once"),
            Self::Investment(_) => Some("invest_once"),
            Self::FlexInvest(_) => Some("flex_invest_once"),
            Self::FlexWithdraw(_) => Some("flex_withdraw_once"),
            Self::Modify(_) => None,
        }
    }
}

impl From<PendingOrder> for PendingRecord {
    fn from(order: PendingOrder) -> Self {
        Self::Order(order)
    }
}

impl From<PendingInvestment> for PendingRecord {
    fn from(investment: PendingInvestment) -> Self {
        Self::Investment(investment)
    }
}

impl From<PendingFlexInvest> for PendingRecord {
    fn from(invest: PendingFlexInvest) -> Self {
        Self::FlexInvest(invest)
    }
}

impl From<PendingFlexWithdraw> for PendingRecord {
    fn from(withdraw: PendingFlexWithdraw) -> Self {
        Self::FlexWithdraw(withdraw)
    }
}

impl From<PendingModify> for PendingRecord {
    fn from(modify: PendingModify) -> Self {
        Self::Modify(modify)
    }
}

impl fmt::Display for PendingRecord {
    /// One line: what it is, its nonces (and its WebSocket frames' times, Unix ms), and the
    /// reason it is unresolved, if one is known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.subject())?;
        let sockets = self.order().map_or(&[][..], PendingOrder::socket_attempts);
        if !self.attempts().is_empty() || sockets.is_empty() {
            f.write_str(" (nonces")?;
            for (n, attempt) in self.attempts().iter().enumerate() {
                let sep = if n == 0 { " " } else { ", " };
                write!(f, "{sep}{}", attempt.nonce)?;
            }
            f.write_str(")")?;
        }
        if !sockets.is_empty() {
            f.write_str(" (WebSocket frames written at")?;
            for (n, attempt) in sockets.iter().enumerate() {
                let sep = if n == 0 { " " } else { ", " };
                write!(f, "{sep}{} ms", crate::unix_millis(attempt.written_at))?;
            }
            f.write_str(")")?;
        }
        if let Some(reason) = self.reason() {
            write!(f, "; unresolved: {reason}")?;
        }
        Ok(())
    }
}
