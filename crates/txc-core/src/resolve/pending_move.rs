//! [`PendingMove`]: what is known of an operation that moves money whose outcome is unknown —
//! an investment in a fixed plan ([`PendingInvestment`]), an investment in or a withdrawal from
//! a flex plan ([`PendingFlexInvest`], [`PendingFlexWithdraw`]) — enough to find out.

use std::time::SystemTime;

use txc_types::investments::Invest;
use txc_types::investments::flex::{FlexInvest, FlexWithdraw};

use crate::{AcceptanceWindow, AttemptRecord, NonceMode};

/// An operation that moves money ([`MoneyMove`](crate::MoneyMove)) and may or may not have
/// been carried out: the request (plan and amount), how its nonces were checked (which bounds
/// when the exchange could have accepted an attempt) and every attempt to send it (nonce and
/// signing time). Carried by the errors of an unknown outcome
/// ([`Error::InvestmentUnknown`](crate::Error::InvestmentUnknown),
/// [`Error::FlexInvestUnknown`](crate::Error::FlexInvestUnknown),
/// [`Error::FlexWithdrawUnknown`](crate::Error::FlexWithdrawUnknown)); give it to the client's
/// resolve call (`resolve_investment`, `resolve_flex_invest`, `resolve_flex_withdraw`).
///
/// Make one yourself for an operation recorded before a crash:
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::{PendingFlexWithdraw, PendingInvestment};
/// use txc_sign::nonce::{Nonce, NonceMode};
/// use txc_types::investments::Invest;
/// use txc_types::investments::flex::FlexWithdraw;
///
/// let nonce = 1_700_000_000_000;
/// let attempts = vec![AttemptRecord {
///     nonce: Nonce(nonce),
///     signed_at: UNIX_EPOCH + Duration::from_millis(nonce),
/// }];
/// let pending = PendingInvestment::new(
///     Invest::new("8e667b4a-0b71-4988-8af5-9474dbfaeb51", "250")?,
///     NonceMode::Window,
///     attempts.clone(),
/// );
/// assert_eq!(pending.invest().amount().as_str(), "250");
/// let withdrawal = PendingFlexWithdraw::new(
///     FlexWithdraw::new("8f2e9d3c-1a4b-4c2d-9e5f-6a7b8c9d0e1f", "100")?,
///     NonceMode::Window,
///     attempts,
/// );
/// assert_eq!(withdrawal.request().amount().as_str(), "100");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingMove<R> {
    request: R,
    nonce_mode: NonceMode,
    attempts: Vec<AttemptRecord>,
    reason: Option<String>,
}

/// An investment in a fixed plan whose outcome is unknown.
pub type PendingInvestment = PendingMove<Invest>;

/// An investment in a flex plan whose outcome is unknown.
pub type PendingFlexInvest = PendingMove<FlexInvest>;

/// A withdrawal from a flex plan whose outcome is unknown.
pub type PendingFlexWithdraw = PendingMove<FlexWithdraw>;

impl<R> PendingMove<R> {
    /// `request`, sent in `attempts` signed in `nonce_mode`.
    pub fn new(request: R, nonce_mode: NonceMode, attempts: Vec<AttemptRecord>) -> Self {
        Self {
            request,
            nonce_mode,
            attempts,
            reason: None,
        }
    }

    /// The same operation, noted as one resolving could not settle, for `reason` (kept with
    /// its journal record and shown by the client's list of pending records).
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Why resolving it could not tell, when it was tried and could not: the record stays
    /// (in the client and its [`Journal`](crate::Journal)) until resolved or discarded.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The request: plan and amount.
    pub fn request(&self) -> &R {
        &self.request
    }

    /// How the exchange checked the attempts' nonces.
    pub fn nonce_mode(&self) -> NonceMode {
        self.nonce_mode
    }

    /// Every attempt to send it, oldest first.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }

    /// When, on the exchange's clock, an attempt can have been accepted and its record
    /// created: with `nonceWindow`, each attempt's nonce ± 5 s plus the creation allowance
    /// (resolving narrows it by the measured clock); `None` with strict nonces, whose window
    /// only closes once a later request of the key is accepted (resolving measures it), or
    /// without attempts.
    pub fn acceptance_window(&self) -> Option<AcceptanceWindow> {
        match self.nonce_mode {
            NonceMode::Window if !self.attempts.is_empty() => {
                Some(AcceptanceWindow::of_nonces(&self.attempts, None))
            }
            _ => None,
        }
    }

    /// When the first attempt was signed.
    pub fn first_signed_at(&self) -> Option<SystemTime> {
        self.attempts.iter().map(|a| a.signed_at).min()
    }
}

impl PendingMove<Invest> {
    /// The investment request: plan and amount.
    pub fn invest(&self) -> &Invest {
        &self.request
    }
}
