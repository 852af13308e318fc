//! Exit codes and the failures that lead to them.

use std::process::ExitCode;

use txc_blocking::Error;
use txc_blocking::errors::Delivery;

/// What a run ended with; the numbers are documented in `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    /// 0: success.
    Success = 0,
    /// 1: a read failed (the exchange or the network); nothing was changed.
    Failed = 1,
    /// 2: invalid input or configuration; nothing was sent.
    Invalid = 2,
    /// 3: rejected by the exchange.
    Rejected = 3,
    /// 4: the outcome of an order, investment, withdrawal (or cancel, close) is unknown.
    Unknown = 4,
    /// 5: not sent.
    NotSent = 5,
}

impl Exit {
    /// The process exit code.
    pub(crate) fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }

    /// A short name, for `--json`.
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Self::Success => "success",
            Self::Failed => "failed",
            Self::Invalid => "invalid",
            Self::Rejected => "rejected",
            Self::Unknown => "outcome_unknown",
            Self::NotSent => "not_sent",
        }
    }
}

/// Why a command failed.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Bad input or configuration, found before anything was sent.
    Invalid(String),
    /// The client failed; `changes` says whether the command places or cancels (so an
    /// ambiguous failure leaves something unknown).
    Client {
        /// The client's error.
        error: Error,
        /// Whether the command places or cancels an order.
        changes: bool,
        /// How to find out what became of it, when its outcome is unknown.
        check: Option<String>,
    },
    /// The exchange answered, but not what was asked: a cancel found no open order.
    Rejected(String),
    /// What became of something cannot be told (several identical investments in one window);
    /// the message says what was found.
    Unknown(String),
    /// Resolving proved absence but cannot tell it from a canceled order (a B2B account).
    CannotTell(String),
    /// The embedded sandbox could not start or print its address.
    #[cfg(feature = "sandbox")]
    Sandbox(String),
}

impl CliError {
    /// An [`CliError::Invalid`].
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(message.into())
    }

    /// A failure of a command that reads.
    pub(crate) fn read(error: Error) -> Self {
        Self::Client {
            error,
            changes: false,
            check: None,
        }
    }

    /// A failure of a command that changes something (places, cancels, closes, invests):
    /// an ambiguous one leaves its outcome unknown; `check` says how to find out.
    pub(crate) fn changing(error: Error, check: Option<String>) -> Self {
        // The command as it works when printed: with this run's server and options.
        let check = check.map(|command| match crate::origin::origin() {
            Some(origin) => crate::hint::runnable(&command, &origin.base_url),
            None => command,
        });
        Self::Client {
            error,
            changes: true,
            check,
        }
    }

    /// The exit code.
    pub(crate) fn exit(&self) -> Exit {
        match self {
            Self::Invalid(_) => Exit::Invalid,
            Self::Rejected(_) => Exit::Rejected,
            Self::Unknown(_) => Exit::Unknown,
            Self::CannotTell(_) => Exit::Unknown,
            #[cfg(feature = "sandbox")]
            Self::Sandbox(_) => Exit::Failed,
            Self::Client { error, changes, .. } => client_exit(error, *changes),
        }
    }

    /// The message, one paragraph.
    pub(crate) fn message(&self) -> String {
        match self {
            Self::Invalid(m) => flags_for_fields(m),
            Self::Rejected(m) | Self::Unknown(m) | Self::CannotTell(m) => m.clone(),
            #[cfg(feature = "sandbox")]
            Self::Sandbox(m) => m.clone(),
            Self::Client { error, check, .. } => {
                let mut message = match error {
                    // Refused before sending: the user's input, named as they typed it.
                    Error::InvalidRequest(_) | Error::InvalidConfig { .. } => {
                        flags_for_fields(&error.to_string())
                    }
                    _ => error.to_string(),
                };
                if let Some(source) = std::error::Error::source(error) {
                    let source = source.to_string();
                    if !message.contains(&source) {
                        message.push_str(&format!(": {source}"));
                    }
                }
                // Which server, and whose credentials: what a user checks first.
                if let Some(origin) = crate::origin::origin() {
                    message.push_str(&format!(
                        "\nserver: {} (credentials: {})",
                        origin.base_url, origin.credentials
                    ));
                }
                if let Some(check) = check {
                    message.push_str(&format!("\ncheck with: {check}"));
                }
                message
            }
        }
    }
}

impl From<txc_blocking::errors::ValidationError> for CliError {
    fn from(e: txc_blocking::errors::ValidationError) -> Self {
        Self::Invalid(format!("invalid request: {e}"))
    }
}

/// The wire fields a validation message names, and the option a user gives each with.
const FLAGS: [(&str, &str); 12] = [
    ("positionSide", "--position-side long|short"),
    ("stopLoss", "--stop-loss"),
    ("takeProfit", "--take-profit"),
    ("reduceOnly", "--reduce-only"),
    ("clientOrderId", "--client-order-id"),
    // The trigger, stop-limit and OCO orders' field (positional); modify's is camelCase.
    ("activation_price", "ACTIVATION_PRICE"),
    ("activationPrice", "--activation-price"),
    ("orderId", "--order-id"),
    ("positionId", "POSITION_ID"),
    ("planId", "PLAN_ID"),
    ("startDate", "--start-date"),
    ("endDate", "--end-date"),
];

/// `message` with each wire field it names ([`FLAGS`], whole words only) as the command
/// line's option: a user typed `--stop-loss`, not `stopLoss`.
pub(crate) fn flags_for_fields(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match FLAGS.iter().find(|(field, _)| *field == word.as_str()) {
            Some((_, flag)) => out.push_str(flag),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in message.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The exit code of a client error; `changes` for orders and cancels.
fn client_exit(error: &Error, changes: bool) -> Exit {
    match error {
        Error::InvalidRequest(_)
        | Error::InvalidConfig { .. }
        | Error::ClientOrderIdInUse { .. } => Exit::Invalid,
        Error::Throttled(_) => Exit::NotSent,
        Error::OutcomeUnknown(_) | Error::InvestmentUnknown(_) | Error::ResolveFirst(_) => {
            Exit::Unknown
        }
        Error::NotPlaced(_)
        | Error::NotInvested(_)
        | Error::FlexNotInvested(_)
        | Error::FlexNotWithdrawn(_) => Exit::Rejected,
        Error::Transport(t) if t.delivery == Delivery::NotSent => Exit::NotSent,
        // Over the WebSocket: refused by its own numbering (3), not sent (5), unknown (4).
        Error::Socket(e) if e.refusal().is_some() => Exit::Rejected,
        Error::Socket(e) if e.is_retryable() => Exit::NotSent,
        _ if changes && error.outcome_unknown() => Exit::Unknown,
        Error::Api(e) if (400..500).contains(&e.status) => Exit::Rejected,
        _ => Exit::Failed,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use txc_blocking::errors::UnresolvedMove;
    use txc_blocking::investments::flex::{FlexInvest, FlexWithdraw};
    use txc_blocking::outcomes::{MoneyMove, NonceMode, PendingMove};

    use super::*;

    /// The error `wrap` makes of a flex operation of kind `R` whose last attempt was a 503.
    fn of<R: MoneyMove>(request: R, wrap: fn(Box<UnresolvedMove<R>>) -> Error) -> Error {
        let pending = PendingMove::new(request, NonceMode::Window, Vec::new());
        let cause = Error::Unproven {
            reason: "a 503".to_owned(),
        };
        wrap(Box::new(UnresolvedMove::new(pending, cause)))
    }

    /// A flex investment or withdrawal: unknown exits 4, "not done" after every attempt 3 —
    /// as an investment's.
    #[test]
    fn flex_outcomes_exit_as_an_investment_s() {
        let invest = || FlexInvest::new("p", "250").unwrap();
        let withdraw = || FlexWithdraw::new("p", "250").unwrap();
        let cases = [
            (of(invest(), Error::FlexInvestUnknown), Exit::Unknown),
            (of(invest(), Error::FlexNotInvested), Exit::Rejected),
            (of(withdraw(), Error::FlexWithdrawUnknown), Exit::Unknown),
            (of(withdraw(), Error::FlexNotWithdrawn), Exit::Rejected),
        ];
        for (error, exit) in cases {
            let text = error.to_string();
            assert_eq!(CliError::changing(error, None).exit(), exit, "{text}");
        }
    }

    #[test]
    fn wire_fields_are_named_as_the_command_line_options() {
        assert_eq!(
            flags_for_fields("invalid request: reduceOnly cannot be combined with stopLoss"),
            "invalid request: --reduce-only cannot be combined with --stop-loss"
        );
        assert_eq!(
            flags_for_fields("invalid positionSide: required in hedge mode"),
            "invalid --position-side long|short: required in hedge mode"
        );
        // Whole words only; everything else as it was.
        assert_eq!(
            flags_for_fields("stopLossy orderIds: amount"),
            "stopLossy orderIds: amount"
        );
    }
}
