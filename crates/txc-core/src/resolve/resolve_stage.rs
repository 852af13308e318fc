//! [`ResolveStage`]: what resolving an unknown outcome waits for and does, stage by stage, as
//! the client's `on_resolve_stage` observer is told it (the CLI prints one line a stage).

use std::fmt;
use std::time::{Duration, SystemTime};

/// A stage of resolving: what it waits for and how long is left, or the round of look-ups it
/// makes. Its `Display` is one line, e.g. `order cli-1 on BTC_USDT: waiting 19.4 s for the
/// attempts' acceptance window to close and the settling delay (10 s) — round 1 may then
/// prove absence`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolveStage {
    /// What is being resolved (`order <clientOrderId> on <market>`, `investment of <amount> in
    /// plan <plan>`).
    pub subject: String,
    /// The stage.
    pub kind: StageKind,
    /// How long the stage waits (zero for a round or a clock read, which take a round trip).
    pub left: Duration,
    /// The settling delay in use.
    pub settle_delay: Duration,
}

/// What a [`ResolveStage`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StageKind {
    /// Waiting until the exchange's clock is past the end of the attempts' acceptance window
    /// (`window_end`, exchange clock, when known) — no attempt can still be accepted and
    /// create its record — plus the settling delay: the first round that can prove absence
    /// comes then. `uncertainty` is how well the exchange's clock is known (the wait is
    /// judged by its lower bound), when measured.
    AcceptanceWindow {
        /// When the window ends, on the exchange's clock.
        window_end: Option<SystemTime>,
        /// The width of the measured bounds on the exchange's clock.
        uncertainty: Option<Duration>,
    },
    /// Waiting the settling delay after a round that proved absence, before the next.
    SettlingDelay {
        /// The round that follows.
        next_round: usize,
    },
    /// A record seen once: waiting the settling delay to see it again.
    Confirming,
    /// Strict nonces: no look-up accepted yet to fence the attempts; waiting to try again.
    Fence,
    /// A round of look-ups starts (numbered from 1).
    Round(usize),
    /// Reading the exchange's clock.
    Clock,
}

impl fmt::Display for ResolveStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let left = self.left.as_secs_f64();
        let settle = self.settle_delay.as_secs_f64();
        write!(f, "{}: ", self.subject)?;
        match self.kind {
            StageKind::AcceptanceWindow { uncertainty, .. } => {
                write!(
                    f,
                    "waiting {left:.1} s for the attempts' acceptance window to close and the \
                     settling delay ({settle:.1} s) — the first round that can prove absence \
                     comes then"
                )?;
                match uncertainty {
                    Some(u) => write!(
                        f,
                        " (the exchange's clock known to {:.2} s)",
                        u.as_secs_f64()
                    ),
                    None => f.write_str(" (the exchange's clock not measured yet)"),
                }
            }
            StageKind::SettlingDelay { next_round } => write!(
                f,
                "waiting {left:.1} s, the settling delay after a round that proved absence, \
                 before round {next_round}"
            ),
            StageKind::Confirming => write!(
                f,
                "seen once; waiting {left:.1} s, the settling delay, to see it again"
            ),
            StageKind::Fence => write!(
                f,
                "waiting {left:.1} s to look again: no look-up accepted yet bounds the attempts \
                 (strict nonces)"
            ),
            StageKind::Round(n) => write!(f, "round {n} of look-ups"),
            StageKind::Clock => f.write_str("reading the exchange's clock"),
        }
    }
}

/// The client's `on_resolve_stage` observer: a function told each [`ResolveStage`].
pub type StageObserver = crate::Observer<ResolveStage>;
