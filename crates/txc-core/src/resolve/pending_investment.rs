//! [`PendingInvestment`]: what is known of an investment whose outcome is unknown, enough to
//! find out.

use std::time::SystemTime;

use txc_types::investments::Invest;

use crate::{AcceptanceWindow, AttemptRecord, NonceMode};

/// An investment that may or may not have been made: the request (plan and amount), how its
/// nonces were checked (which bounds when the exchange could have accepted an attempt) and
/// every attempt to send it (nonce and signing time). Carried by
/// [`Error::InvestmentUnknown`](crate::Error::InvestmentUnknown); give it to the client's
/// `resolve_investment`.
///
/// Make one yourself for an investment recorded before a crash:
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::PendingInvestment;
/// use txc_sign::nonce::{Nonce, NonceMode};
/// use txc_types::investments::Invest;
///
/// let nonce = 1_700_000_000_000;
/// let pending = PendingInvestment::new(
///     Invest::new("8e667b4a-0b71-4988-8af5-9474dbfaeb51", "250")?,
///     NonceMode::Window,
///     vec![AttemptRecord { nonce: Nonce(nonce), signed_at: UNIX_EPOCH + Duration::from_millis(nonce) }],
/// );
/// assert_eq!(pending.invest().amount().as_str(), "250");
/// # Ok::<(), txc_types::errors::ValidationError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingInvestment {
    invest: Invest,
    nonce_mode: NonceMode,
    attempts: Vec<AttemptRecord>,
    reason: Option<String>,
}

impl PendingInvestment {
    /// `invest`, sent in `attempts` signed in `nonce_mode`.
    pub fn new(invest: Invest, nonce_mode: NonceMode, attempts: Vec<AttemptRecord>) -> Self {
        Self {
            invest,
            nonce_mode,
            attempts,
            reason: None,
        }
    }

    /// The same investment, noted as one resolving could not settle, for `reason` (kept with
    /// its journal record and shown by the client's `pending_investments`).
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Why resolving it could not tell, when it was tried and could not: the record stays
    /// (in the client and its [`Journal`](crate::Journal)) until resolved or discarded.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    /// The investment request: plan and amount.
    pub fn invest(&self) -> &Invest {
        &self.invest
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
