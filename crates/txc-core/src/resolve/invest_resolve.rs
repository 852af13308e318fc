//! [`ResolveInvestment`]: finds out from the investments list whether an investment whose
//! outcome is unknown was made — the one [`Resolver`] with the investment's look-ups
//! ([`InvestmentSearch`]) — answering an [`InvestResolution`](super::InvestResolution), with
//! the [`Evidence`](super::Evidence) behind it.

use super::invest_search::InvestmentSearch;
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
/// # What cannot be told apart
///
/// Two investments of the same plan and the same amount created inside one window: one of them
/// may be this one and the other anyone else's (another process of the account, a person on
/// the website). The resolver answers [`InvestResolution::CannotTell`](super::InvestResolution::CannotTell) with both, and
/// `invest_once` ends as unknown without investing again — it may under-invest, it never
/// invests twice. One such record is taken for this one: an investment of the same plan and
/// amount made by someone else inside the window, while this one failed, is indistinguishable.
/// Distinct amounts for concurrent investments in one plan make every one identifiable.
pub type ResolveInvestment<'a> = Resolver<'a, InvestmentSearch>;
