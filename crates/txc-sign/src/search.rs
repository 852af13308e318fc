//! [`Search`]: the look-ups that find one kind of operation again — what a [`Resolver`]
//! needs to know of it — and [`RoundFindings`], what one round of them found.
//!
//! [`Resolver`]: crate::Resolver

use crate::evidence::{AcceptanceWindow, Evidence, Look, Sighting};
use crate::{AttemptRecord, ClientCore, Error, Machine};

/// What a round of look-ups found.
#[derive(Debug)]
#[non_exhaustive]
pub struct RoundFindings<R> {
    /// Each look-up made, in order (a failed one carries its [`Flaw`](crate::Flaw) and ends
    /// the round).
    pub looks: Vec<Look>,
    /// The records carrying the identifier looked for, with the look-up (index into
    /// [`looks`](Self::looks)) that found each.
    pub candidates: Vec<Candidate<R>>,
    /// The error of the look-up that failed, if one did.
    pub failure: Option<Error>,
}

impl<R> Default for RoundFindings<R> {
    fn default() -> Self {
        Self {
            looks: Vec::new(),
            candidates: Vec::new(),
            failure: None,
        }
    }
}

/// A record a look-up found carrying the identifier looked for.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Candidate<R> {
    /// The look-up that found it: an index into [`RoundFindings::looks`].
    pub look: usize,
    /// Its id and creation time.
    pub sighting: Sighting,
    /// The record.
    pub record: R,
}

impl<R> Candidate<R> {
    /// The record `record` seen as `sighting` by look-up `look`.
    pub fn new(look: usize, sighting: Sighting, record: R) -> Self {
        Self {
            look,
            sighting,
            record,
        }
    }
}

/// A round of look-ups: a [`Machine`] a transport drives, finishing with what it found.
pub type RoundMachine<'a, R> = Box<dyn Machine<Output = RoundFindings<R>> + Send + 'a>;

/// The look-ups that find one kind of operation again (an order by its `clientOrderId`; a
/// position's close; an investment), for a [`Resolver`](crate::Resolver), which applies the
/// one proof rule ([`AbsenceRule`](crate::AbsenceRule)) to whatever they find.
pub trait Search {
    /// What a found record is.
    type Record;

    /// Every attempt of the operation, oldest first.
    fn attempts(&self) -> &[AttemptRecord];

    /// A round of look-ups. `window` is the attempts' acceptance window when known (with
    /// strict nonces it is not before the first look-up): a round uses it to decide how far to
    /// look (say, reading a whole list when a filtered answer shows only someone else's
    /// record) and may stop at the first record inside it.
    fn round<'a>(
        &self,
        core: &'a ClientCore,
        window: Option<&AcceptanceWindow>,
    ) -> RoundMachine<'a, Self::Record>;

    /// Why absence, even proven twice, does not tell that the operation was not carried out
    /// (the exchange keeps no trace of some outcomes), if it does not.
    fn absence_caveat(&self, core: &ClientCore) -> Option<String>;

    /// The error an unknown outcome ends with, carrying `cause` and the evidence.
    fn unknown(&self, cause: Error, evidence: Evidence) -> Error;

    /// Called once the outcome is definite (found, or proven absent), e.g. to clear the
    /// operation's journal entry.
    fn settled(&self, core: &ClientCore);
}
