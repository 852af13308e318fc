//! [`ResolveInvestment`]: finds out from the investments list whether an investment whose
//! outcome is unknown was made — the one [`Resolver`] with the investment's look-ups
//! ([`InvestmentSearch`]) — answering an [`InvestResolution`](super::InvestResolution), with
//! the [`Evidence`](super::Evidence) behind it.

use super::move_search::InvestmentSearch;
use super::resolver::Resolver;

/// Resolves a [`PendingInvestment`](crate::PendingInvestment): a [`Resolver`] with the
/// investment's look-ups ([`InvestmentSearch`]), whose output is an [`InvestResolution`](super::InvestResolution), or
/// [`Error::InvestmentUnknown`](crate::Error::InvestmentUnknown) when it cannot tell.
///
/// # The rule
///
/// An investment request carries no id of the caller's, so the only trace of an attempt is a
/// record of the same plan and amount in the investments list, created while the attempt could
/// have been accepted. The acceptance window, the exchange's clock, the settling delay and the
/// proof of absence are [`Resolve`](crate::Resolve)'s:
///
/// 1. **Acceptance window** ([`AcceptanceWindow`](crate::AcceptanceWindow)), on the
///    exchange's clock: with `nonceWindow` an attempt with nonce `n` was accepted, if at all,
///    within `n ± 5 s` (and not before it was sent); with strict nonces, after it was sent and
///    before the exchange accepted the resolver's first look-up (a later nonce of the key: the
///    fence). Its record was created within the
///    [`CREATION_ALLOWANCE`](crate::CREATION_ALLOWANCE) after; `created` is whole seconds.
/// 2. **Only settled rounds count**: a round counts, for either answer, only when every
///    look-up of it was processed after the exchange's clock passed the window's end plus the
///    settling delay — every attempt that will ever be accepted has been, and its record
///    shows, so several identical ones are seen together. Before then the resolver makes no
///    round (with strict nonces, one, to learn the fence).
/// 3. A round reads every page of the list. One record of the plan and amount inside the
///    window → **invested**; several → **cannot tell**; none in two rounds the settling delay
///    apart → **not invested**. A failed look-up or a list longer than the exchange lets a
///    client read (offset 10 000) → the outcome stays unknown
///    ([`Error::InvestmentUnknown`](crate::Error::InvestmentUnknown)).
///
/// # Attribution: whose investment it is
///
/// A record of the plan and amount inside the window is this investment's only if nobody else
/// invested the same amount in the same plan with the key inside that window — the list cannot
/// say who made a record. So the answer rests on the client's
/// [`InvestmentWriters`](super::InvestmentWriters) setting: with
/// [`Shared`](super::InvestmentWriters::Shared) (the default: another process of the account, a
/// person on the website may invest with the key) a single such record answers
/// [`InvestResolution::CannotTell`](super::InvestResolution::CannotTell) with it as the candidate, since someone else's identical
/// investment made while this one failed would look the same; with
/// [`Sole`](super::InvestmentWriters::Sole) (the caller's word that this client is the key's only
/// investor, its own identical investments less than the window apart included) it answers
/// [`InvestResolution::Invested`](super::InvestResolution::Invested). Several such records answer "cannot tell" either way. On
/// "cannot tell" `invest_once` ends as unknown with the candidates, without investing again —
/// it may under-invest, it never invests twice and never reports someone else's investment as
/// this one; the record stays in the journal until resolved or discarded. Distinct amounts for
/// concurrent investments in one plan make every one identifiable.
pub type ResolveInvestment<'a> = Resolver<'a, InvestmentSearch>;
