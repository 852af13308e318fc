//! What resolving rests on and what it saw: the [`AcceptanceWindow`] of an operation's
//! attempts, each look-up ([`Look`]) and round of look-ups ([`Round`]), and the [`Evidence`]
//! every answer carries — the same for every operation found again by look-ups: an order, a
//! position's close, an investment.

use std::fmt;
use std::time::{Duration, SystemTime};

use crate::pacing::shift;
use crate::{AttemptRecord, ClockBounds, NonceMode};

/// The exchange's nonce window: with `nonceWindow`, a nonce (Unix milliseconds) is accepted
/// only within ±5 s of the exchange's clock (documented).
pub const NONCE_WINDOW: Duration = Duration::from_secs(5);

/// How long after accepting a request the exchange may take to create what it asked for — the
/// order's creation time (`timestamp`, `ctime`) is at most this much after the request passed
/// the nonce check. **Not documented**: an assumption of the rule, stated in `resolve`'s docs.
pub const CREATION_ALLOWANCE: Duration = Duration::from_secs(5);

/// How long after the client settled a socket frame's outcome as unknown (its answer
/// time-out, or the connection lost) the exchange may still process the frame — a frame read
/// before the close is processed after it. **Not documented**: an assumption, like
/// [`CREATION_ALLOWANCE`], that the engine's own time-out (its code `5`) is shorter.
pub const SOCKET_PROCESSING_GRACE: Duration = Duration::from_secs(10);

/// When, on the exchange's clock, one of an operation's attempts could have been accepted and
/// what it asked for created: one [`Span`] per attempt.
///
/// With `nonceWindow` an attempt with nonce `n` (Unix milliseconds) can only be accepted while
/// the exchange's clock reads `n ± 5 s`, and not before it was sent; its creation then follows
/// within the [`CREATION_ALLOWANCE`]: the span is `[max(n − 5 s, sent), n + 5 s + allowance]`
/// (empty when it was sent after `n + 5 s` by the exchange's clock). With strict nonces an attempt cannot be accepted before it was
/// sent (its signing time, moved to the exchange's clock by the measured [`ClockBounds`]) nor
/// after the exchange accepted a later request of the key (the *fence*: the first look-up the
/// resolver made), so its span is `[sent, fence + allowance]`.
///
/// A record created inside the window is the attempt's; one created outside it is someone
/// else's (an earlier order that reused the `clientOrderId`, a later one, an identical
/// investment of another day), which neither proves nor disproves anything.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use txc_core::machine::AttemptRecord;
/// use txc_core::resolve::AcceptanceWindow;
/// use txc_sign::nonce::Nonce;
/// let attempt = AttemptRecord { nonce: Nonce(1_700_000_000_000), signed_at: UNIX_EPOCH };
/// let window = AcceptanceWindow::of_nonces(&[attempt], None);
/// let at = |ms| UNIX_EPOCH + Duration::from_millis(ms);
/// assert!(window.contains(at(1_699_999_995_000)));
/// assert!(window.contains(at(1_700_000_010_000)));
/// assert!(!window.contains(at(1_700_000_010_001)));
/// assert_eq!(window.end(), Some(at(1_700_000_010_000)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptanceWindow {
    spans: Vec<Span>,
    /// What the attempts' acceptance is counted from: the latest nonce time (`nonceWindow`),
    /// the fence, or when the last socket frame's outcome was settled.
    anchor: Option<SystemTime>,
    /// The fence, when the window has one.
    fence: Option<SystemTime>,
}

/// One attempt's part of an [`AcceptanceWindow`], on the exchange's clock, bounds included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// The earliest creation time.
    pub from: SystemTime,
    /// The latest creation time.
    pub to: SystemTime,
}

impl AcceptanceWindow {
    /// The window of `attempts` sent with `nonceWindow`: each attempt's nonce ± 5 s plus the
    /// creation allowance — and, when `clock` is known, not before the attempt was sent (its
    /// signing time on the exchange's clock), so that a nonce the exchange's clock had already
    /// passed when it was sent (a host clock behind, uncorrected) claims no earlier record.
    pub fn of_nonces(attempts: &[AttemptRecord], clock: Option<&ClockBounds>) -> Self {
        let window = ms(NONCE_WINDOW);
        let allowance = ms(CREATION_ALLOWANCE);
        let anchor = attempts
            .iter()
            .map(|a| std::time::UNIX_EPOCH + Duration::from_millis(a.nonce.get()))
            .max();
        let spans = attempts
            .iter()
            .map(|a| {
                let nonce = std::time::UNIX_EPOCH + Duration::from_millis(a.nonce.get());
                let earliest = shift(nonce, -window);
                let sent = clock.map_or(earliest, |c| c.earliest(a.signed_at));
                let latest = shift(nonce, window);
                Span {
                    // Never accepted if sent after its nonce's window: an empty span.
                    from: earliest.max(sent).min(shift(latest, 1)),
                    to: if sent > latest {
                        latest
                    } else {
                        shift(latest, allowance)
                    },
                }
            })
            .collect();
        Self {
            spans,
            anchor,
            fence: None,
        }
    }

    /// The window of socket frames (no nonce): each frame may have been processed from when it
    /// was handed to the socket until [`SOCKET_PROCESSING_GRACE`] after its outcome was
    /// settled (time-out, connection lost), its creation within the [`CREATION_ALLOWANCE`]
    /// after — moved to the exchange's clock by `clock` when it is known (the earliest reading
    /// for the start, the latest for the end).
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use txc_core::resolve::AcceptanceWindow;
    /// use txc_core::socket::SocketAttempt;
    /// let at = |s| UNIX_EPOCH + Duration::from_secs(s);
    /// let window = AcceptanceWindow::of_socket(&[SocketAttempt { written_at: at(100), settled_at: at(110) }], None);
    /// assert!(!window.contains(at(99)));
    /// assert!(window.contains(at(100)) && window.contains(at(125)));
    /// assert!(!window.contains(at(126)));
    /// ```
    pub fn of_socket(
        attempts: &[crate::socket::SocketAttempt],
        clock: Option<&ClockBounds>,
    ) -> Self {
        let after = ms(SOCKET_PROCESSING_GRACE) + ms(CREATION_ALLOWANCE);
        let settled = |a: &crate::socket::SocketAttempt| match clock {
            Some(c) => c.latest(a.settled_at),
            None => a.settled_at,
        };
        let spans = attempts
            .iter()
            .map(|a| {
                let from = clock.map_or(a.written_at, |c| c.earliest(a.written_at));
                Span {
                    from,
                    to: shift(settled(a), after).max(from),
                }
            })
            .collect::<Vec<_>>();
        // Counted from the last outcome's settling: a caller's acceptance window
        // (`unproven_acceptance_window`) replaces the grace and the allowance after it.
        let anchor = attempts.iter().map(settled).max();
        Self {
            spans,
            anchor,
            fence: None,
        }
    }

    /// The window of both `self`'s attempts and `other`'s (a REST attempt and a socket one of
    /// the same order): every span, the later anchor, `self`'s fence.
    pub(crate) fn joined(mut self, other: Self) -> Self {
        self.spans.extend(other.spans);
        self.anchor = self.anchor.max(other.anchor);
        self
    }

    /// The window of `attempts` sent with strict nonces, which the exchange stopped accepting
    /// once it accepted a request it says it processed before `fence` (its clock), as far as
    /// `clock` tells where the signing times fall on the exchange's clock.
    pub fn of_strict(attempts: &[AttemptRecord], clock: &ClockBounds, fence: SystemTime) -> Self {
        let to = shift(fence, ms(CREATION_ALLOWANCE));
        let spans = attempts
            .iter()
            .map(|a| Span {
                from: clock.earliest(a.signed_at).min(to),
                to,
            })
            .collect();
        Self {
            spans,
            anchor: Some(fence),
            fence: Some(fence),
        }
    }

    /// The window of attempts not known one by one, all sent (signed in `mode`) before a
    /// look-up the exchange accepted by `fence` (its clock): with strict nonces none can be
    /// accepted after it; with `nonceWindow` the look-up's nonce was within 5 s of `fence`,
    /// the attempts' nonces were no later, and each was accepted within 5 s of its nonce. Any
    /// record created before then (plus the creation allowance) may be theirs.
    pub fn before_look_up(fence: SystemTime, mode: NonceMode) -> Self {
        let anchor = match mode {
            NonceMode::Window => shift(fence, ms(NONCE_WINDOW)),
            NonceMode::Strict => fence,
        };
        let accepted_until = match mode {
            NonceMode::Window => shift(anchor, ms(NONCE_WINDOW)),
            NonceMode::Strict => anchor,
        };
        Self {
            spans: vec![Span {
                from: std::time::UNIX_EPOCH,
                to: shift(accepted_until, ms(CREATION_ALLOWANCE)),
            }],
            anchor: Some(anchor),
            fence: Some(fence),
        }
    }

    /// Whether something created at `created` (the exchange's clock) may be an attempt's.
    pub fn contains(&self, created: SystemTime) -> bool {
        self.spans
            .iter()
            .any(|s| s.from <= created && created <= s.to)
    }

    /// Whether the record `seen` may be an attempt's: created, as far as its time's precision
    /// tells, inside a span.
    pub fn admits(&self, seen: &Sighting) -> bool {
        let latest = seen
            .created
            .checked_add(seen.precision)
            .unwrap_or(seen.created);
        self.spans
            .iter()
            .any(|s| s.from <= latest && seen.created <= s.to)
    }

    /// The exchange's time after which no attempt could be accepted any more, with strict
    /// nonces or attempts not known one by one: the exchange accepted a later request of the
    /// key by then (resolving's first look-up). `None` with `nonceWindow` and known attempts.
    pub fn fence(&self) -> Option<SystemTime> {
        self.fence
    }

    /// What the attempts' acceptance is counted from: with `nonceWindow` the latest nonce
    /// time, else the fence; for socket frames, the latest settling of their outcome.
    pub(crate) fn anchor(&self) -> Option<SystemTime> {
        self.anchor
    }

    /// The spans, one per attempt.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// The earliest creation time of any attempt; `None` without attempts.
    pub fn start(&self) -> Option<SystemTime> {
        self.spans.iter().map(|s| s.from).min()
    }

    /// The latest creation time of any attempt: once the exchange's clock is past it, nothing
    /// of the attempts can appear any more but late; `None` without attempts.
    pub fn end(&self) -> Option<SystemTime> {
        self.spans.iter().map(|s| s.to).max()
    }
}

/// A record a look-up found carrying the identifier looked for: an order with the
/// `clientOrderId`, a position (open, or its latest event), an investment of the plan and
/// amount.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Sighting {
    /// The exchange's id of the record (an order id, a position id, an investment id).
    pub id: String,
    /// When it was created (or, for a position, last changed), on the exchange's clock.
    pub created: SystemTime,
    /// How finely the record's time is known: it was created in `[created, created +
    /// precision]` (an investment's time is whole seconds).
    pub precision: Duration,
    /// Whether it is the attempts' own: created inside the [`AcceptanceWindow`] (or, for a
    /// close, the position's closing, by the attempts or anything else). `false`: someone
    /// else's, which proves nothing — or, for a close, the position still open.
    pub ours: bool,
}

impl Sighting {
    /// A record `id` created at `created` (not yet placed in a window).
    pub fn new(id: impl fmt::Display, created: SystemTime) -> Self {
        Self {
            id: id.to_string(),
            created,
            precision: Duration::ZERO,
            ours: false,
        }
    }

    /// The same, its time known only to `precision` (whole seconds: one second).
    pub fn with_precision(mut self, precision: Duration) -> Self {
        self.precision = precision;
        self
    }
}

/// Why a look-up's answer proves nothing about absence.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Flaw {
    /// The look-up failed (after the client's retries): the error, as text.
    Failed(String),
    /// An answer filtered by the identifier listed a record with another one (this id): the
    /// filter was ignored, so a miss would mean nothing.
    FilterIgnored {
        /// The exchange's id of the record that did not match.
        id: u64,
    },
    /// The list could not be read to its end: why.
    Incomplete(String),
    /// Records the rule cannot place (why): someone else's record might hide ours.
    Unclassified(String),
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Failed(e) => write!(f, "failed: {e}"),
            Self::FilterIgnored { id } => write!(
                f,
                "listed record {id}, which does not carry the id looked for: the filter was ignored"
            ),
            Self::Incomplete(why) => write!(f, "incomplete: {why}"),
            Self::Unclassified(why) => write!(f, "inconclusive: {why}"),
        }
    }
}

/// One look-up of a round: which, when, and what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Look {
    /// The operation, e.g. `open_orders` (`order_history_scan` for the history read page by
    /// page), `open_positions`, `investments`; for an event of the private stream that showed
    /// the record, `event` and its method (`event ordersPending_update`,
    /// `event ordersExecuted_update`, `event resync`), with no request.
    pub operation: &'static str,
    /// When the earliest request of it (of its pages) was signed, local clock: the exchange
    /// processed it no earlier.
    pub sent_at: SystemTime,
    /// When its first answer came back, local clock: the exchange processed that request no
    /// later.
    pub answered_at: SystemTime,
    /// How many requests (pages) it took.
    pub requests: u32,
    /// The records carrying the identifier.
    pub seen: Vec<Sighting>,
    /// Why it proves nothing, if it does not.
    pub flaw: Option<Flaw>,
}

impl Look {
    /// A look-up of `operation` made from `sent_at` to `answered_at`, nothing seen yet.
    pub fn new(operation: &'static str, sent_at: SystemTime, answered_at: SystemTime) -> Self {
        Self {
            operation,
            sent_at,
            answered_at,
            requests: 1,
            seen: Vec::new(),
            flaw: None,
        }
    }
}

/// What a round of look-ups counted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RoundVerdict {
    /// It found the attempts' own record.
    Found,
    /// It proved absence: the first or second of the two the rule needs.
    Absent,
    /// An early look for the record only: absence could not be proved yet (nor, for an
    /// operation whose records are told apart only once the window is over, presence).
    Probe,
    /// Too early to prove absence: a look-up may have been processed before the time the rule
    /// needs (the exchange's clock past the window plus the settling delay, or the settling
    /// delay after the previous proof).
    TooEarly,
    /// A look-up's [`Flaw`] leaves the round proving nothing.
    ProvesNothing,
}

impl fmt::Display for RoundVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Found => "found",
            Self::Absent => "absent",
            Self::Probe => "probe",
            Self::TooEarly => "too early",
            Self::ProvesNothing => "proves nothing",
        })
    }
}

/// A round of look-ups and what it counted for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Round {
    /// Each look-up, in order.
    pub looks: Vec<Look>,
    /// What the round counted for.
    pub verdict: RoundVerdict,
    /// The earliest the exchange's clock can have read when the round's first look-up was
    /// sent (its signing time moved by the measured clock's lower bound): the round was
    /// processed no earlier. `None` before the exchange's clock was measured.
    pub exchange_sent_at: Option<SystemTime>,
}

impl Round {
    /// When its earliest look-up was sent.
    pub fn sent_at(&self) -> Option<SystemTime> {
        self.looks.iter().map(|l| l.sent_at).min()
    }

    /// When its latest look-up was sent.
    pub fn last_sent_at(&self) -> Option<SystemTime> {
        self.looks.iter().map(|l| l.sent_at).max()
    }
}

/// What an answer of resolving rests on: the window the attempts could have been accepted in,
/// the exchange's clock as measured, the settling delay used, and every round of look-ups —
/// whatever the operation (an order, a position's close, an investment). Its `Display` says
/// what proved the answer in one paragraph.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Evidence {
    /// The attempts' acceptance window (none for an answered placement: its answer is proof).
    pub window: Option<AcceptanceWindow>,
    /// The exchange's clock as measured.
    pub clock: Option<ClockBounds>,
    /// The exchange's time after which no attempt could still be accepted and create its
    /// record — the window's end, or the last nonce (the fence with strict nonces) plus the
    /// caller's `unproven_acceptance_window` — from which rounds may prove absence; `None`
    /// while unknown.
    pub attempts_settled_at: Option<SystemTime>,
    /// The settling delay the rounds were spaced by.
    pub settle_delay: Duration,
    /// `false` when the timing was the caller's (`unproven_settle_delay`,
    /// `unproven_acceptance_window`), not the rule's: the answer then rests on the caller's
    /// word that nothing could still appear.
    pub guaranteed: bool,
    /// Every round, in order.
    pub rounds: Vec<Round>,
}

impl Evidence {
    /// The evidence of a placement the exchange answered: its answer.
    pub fn answered() -> Self {
        Self {
            guaranteed: true,
            ..Self::default()
        }
    }

    /// The sighting that proved the record was the attempts', if one did.
    pub fn found(&self) -> Option<(&Look, &Sighting)> {
        self.rounds
            .iter()
            .flat_map(|r| &r.looks)
            .find_map(|l| l.seen.iter().find(|s| s.ours).map(|s| (l, s)))
    }

    /// Whether an event of the private stream proved the record the attempts' (its look-up is
    /// written `event <method>`, with no request), not a look-up.
    pub fn by_event(&self) -> bool {
        self.found()
            .is_some_and(|(look, _)| look.operation.starts_with("event"))
    }

    /// How many rounds proved absence.
    pub fn absences(&self) -> usize {
        self.rounds
            .iter()
            .filter(|r| r.verdict == RoundVerdict::Absent)
            .count()
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rounds.is_empty() && self.window.is_none() {
            return f.write_str("the exchange's answer to the placement");
        }
        if let Some((look, seen)) = self.found() {
            write!(
                f,
                "{} found record {} created at {} (exchange clock)",
                look.operation,
                seen.id,
                unix(seen.created)
            )?;
            if self.window.as_ref().is_some_and(|w| w.admits(seen)) {
                f.write_str(", inside the attempts' acceptance window")?;
            }
        } else {
            write!(
                f,
                "{} of {} round(s) of look-ups proved absence",
                self.absences(),
                self.rounds.len()
            )?;
            if let Some(flaw) = self
                .rounds
                .iter()
                .flat_map(|r| &r.looks)
                .find_map(|l| l.flaw.as_ref().map(|fl| (l.operation, fl)))
            {
                write!(f, "; {} {}", flaw.0, flaw.1)?;
            }
        }
        if let Some(window) = &self.window
            && let (Some(start), Some(end)) = (window.start(), window.end())
        {
            write!(f, "; window {}–{}", unix(start), unix(end))?;
        }
        if let Some(clock) = &self.clock {
            write!(
                f,
                "; exchange clock − local clock in [{}, {}] ms",
                clock.lo().as_millis(),
                clock.hi().as_millis()
            )?;
        }
        if !self.rounds.is_empty() {
            write!(f, "; settling delay {} ms", self.settle_delay.as_millis())?;
            for (n, round) in self.rounds.iter().enumerate() {
                let sep = if n == 0 { "; " } else { ", " };
                write!(f, "{sep}round {} {}", n + 1, round.verdict)?;
            }
        }
        if !self.guaranteed {
            f.write_str(" (unproven timing: the caller's settling delay)")?;
        }
        Ok(())
    }
}

/// A time as Unix seconds with milliseconds.
fn unix(time: SystemTime) -> String {
    let ms = crate::unix_millis(time);
    format!("{}.{:03}", ms / 1_000, ms % 1_000)
}

/// A duration in whole milliseconds, as a signed shift.
fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}
