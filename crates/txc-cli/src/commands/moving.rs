//! What the commands that move money share — investing in a fixed plan (`txc invest`,
//! `txc resolve-investment`) and investing in or withdrawing from a flex plan (`txc flex
//! invest|withdraw|resolve`): the journal's check before anything is sent (a plain send
//! refused, an exactly-once send resolving first), and resolving an operation whose outcome is
//! unknown from the journal's records (or `--nonce`), under one rule.

use txc_blocking::outcomes::{MoneyMove, MoveResolution, NonceMode, PendingMove};
use txc_blocking::{Client, Error};

use super::{chosen, sent_elsewhere};
use crate::args::GlobalArgs;
use crate::config;
use crate::exit::CliError;
use crate::journal::Entry;
use crate::run::{credentials, journal, journaled_client, reads_only};

/// What the journal says before `request` is sent: nothing (`None`) when the client holds no
/// unresolved record resolving cannot tell from it (the same kind, plan and amount, the
/// journal's among them). When it holds one, a plain send (`once` false) is refused — nothing
/// is sent: exit 4, naming the record and the command that resolves it — and an exactly-once
/// send resolves the records first, before the plan is even read (the bounds read afterwards
/// would count an earlier operation that was done): done, its record (`Some`); not done,
/// `None` — the records are cleared and `request` may be sent; "cannot tell", exit 4.
pub(crate) fn held_first<R: Resolving>(
    client: &Client,
    request: &R,
    once: bool,
) -> Result<Option<R::Done>, CliError> {
    let held: Vec<PendingMove<R>> = R::held(client)
        .into_iter()
        .filter(|p| p.request().same(request))
        .collect();
    let Some(earlier) = held.first() else {
        return Ok(None);
    };
    if !once {
        let check = R::command(earlier);
        let refused = Error::ResolveFirst(Box::new(R::wrap(earlier.clone())));
        return Err(CliError::changing(refused, Some(check)));
    }
    match resolve_records(client, &held, request)? {
        MoveResolution::Done { record, evidence } => Ok(Some(R::found(record, evidence))),
        _ => Ok(None),
    }
}

/// An operation that moves money whose outcome is unknown, as a resolving command was given it.
pub(crate) struct ToResolve<'a, R> {
    /// The operation (plan and amount).
    pub(crate) request: R,
    /// `--strict`: its attempts were signed without `nonceWindow`.
    pub(crate) strict: bool,
    /// `--nonce`: attempts the journal may not hold.
    pub(crate) nonces: &'a [u64],
    /// The command, for `--dry-run`'s refusal (`resolve-investment`, `flex resolve`).
    pub(crate) command: &'static str,
}

impl<'a, R> ToResolve<'a, R> {
    /// What `command` asks to resolve: `request`, with the attempts `args` name.
    pub(crate) fn of(
        args: &'a crate::shared_args::UnknownMoveArgs,
        request: R,
        command: &'static str,
    ) -> Self {
        ToResolve {
            request,
            strict: args.strict,
            nonces: &args.nonce,
            command,
        }
    }
}

/// How one kind of operation that moves money is resolved with the blocking client.
pub(crate) trait Resolving: MoneyMove {
    /// The client's unresolved records of this kind.
    fn held(client: &Client) -> Vec<PendingMove<Self>>;

    /// The client's resolve call.
    fn resolve(client: &Client, pending: &PendingMove<Self>) -> Result<Self::Resolution, Error>;

    /// The `txc` command that resolves `pending`, with its nonces.
    fn command(pending: &PendingMove<Self>) -> String;
}

/// Resolves the operation `ask` names: its records from the journal (those holding a
/// `--nonce`, and one more of the nonces no record holds; all of them without one), each in
/// turn ([`resolve_records`]).
pub(crate) fn resolve_move<R: Resolving>(
    global: &GlobalArgs,
    ask: ToResolve<'_, R>,
) -> Result<MoveResolution<R::Record>, CliError> {
    let mode = if ask.strict {
        NonceMode::Strict
    } else {
        NonceMode::Window
    };
    reads_only(global, ask.command)?;
    let target = config::target(global)?;
    let credentials = credentials(&target)?;
    let journal = journal(global, &target, &credentials)?;
    let request = ask.request;
    let what = format!(
        "{} of {} (plan {})",
        R::NOUN,
        request.amount().as_str(),
        request.plan_id()
    );
    sent_elsewhere(&journal, |e: &Entry| e.holds(&request), &what)?;
    let client = journaled_client(global, &target, credentials, journal)?;
    let held: Vec<PendingMove<R>> = R::held(&client)
        .into_iter()
        .filter(|p| p.request().same(&request))
        .collect();
    let records = chosen(held, ask.nonces, PendingMove::attempts, |attempts| {
        PendingMove::new(request.clone(), mode, attempts)
    });
    if records.is_empty() {
        return Err(CliError::invalid(format!(
            "the journal holds no {what}, and no --nonce was given: without its attempts' \
             nonces its window is unknown (see `txc pending`, or the failed command's message)"
        )));
    }
    resolve_records(&client, &records, &request)
}

/// Resolves `records` (of `request`) in turn: a definite answer clears a record; done if any
/// was; "cannot tell" is exit 4 with what was found (the record stays: `txc discard` forgets it
/// once settled by hand).
fn resolve_records<R: Resolving>(
    client: &Client,
    records: &[PendingMove<R>],
    request: &R,
) -> Result<MoveResolution<R::Record>, CliError> {
    let mut answer = None;
    for pending in records {
        let resolution = R::resolve(client, pending)
            .map_err(|error| CliError::changing(error, Some(R::command(pending))))?;
        match resolution.into() {
            MoveResolution::CannotTell {
                candidates,
                evidence,
            } => {
                let ids: Vec<&str> = candidates.iter().map(R::record_id).collect();
                return Err(CliError::Unknown(format!(
                    "cannot tell: {} {} record(s) of plan {} and amount {} were made in the \
                     attempts' window ({}), and other writers may use this key: one may be this \
                     one, or none; do not send it again before checking by hand (then `txc \
                     discard {}`) ({evidence})",
                    ids.len(),
                    R::NOUN,
                    request.plan_id(),
                    request.amount().as_str(),
                    ids.join(", "),
                    pending.attempts().first().map_or(0, |a| a.nonce.get()),
                )));
            }
            resolution => {
                let done = matches!(resolution, MoveResolution::Done { .. });
                if done || answer.is_none() {
                    answer = Some(resolution);
                }
            }
        }
    }
    answer.ok_or_else(|| CliError::invalid("nothing to resolve"))
}

/// The nonces of `pending`'s attempts as `--nonce` options, and `--strict` when they were
/// signed so: what a printed resolve command ends with.
pub(crate) fn attempt_options<R>(pending: &PendingMove<R>) -> String {
    let mut options = String::new();
    for attempt in pending.attempts() {
        options.push_str(&format!(" --nonce {}", attempt.nonce));
    }
    if pending.nonce_mode() == NonceMode::Strict {
        options.push_str(" --strict");
    }
    options
}
