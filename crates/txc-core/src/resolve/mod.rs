//! Placing and investing exactly once, and finding out from proof whether an operation whose
//! outcome is unknown was carried out: an order ([`Resolve`]), a position's close
//! ([`ResolveClose`]), an investment ([`ResolveInvestment`]) — each one [`Resolver`] with its
//! [`Search`], one [`AbsenceRule`] over one [`AcceptanceWindow`], every answer with its
//! [`Evidence`] — and the records kept meanwhile ([`PendingOrder`], [`PendingClose`],
//! [`PendingInvestment`], persisted by a [`Journal`]).

mod bulk;
mod bulk_item;
mod bulk_send;
mod cancel_once;
mod close;
mod close_search;
mod evidence;
mod invest_once;
mod invest_resolution;
mod invest_resolve;
mod invest_search;
mod investment_ledger;
mod ledger;
mod modify;
mod modify_search;
mod oco_search;
mod order_search;
mod outcome;
mod pending;
mod pending_close;
mod pending_investment;
mod pending_modify;
mod pending_record;
mod place;
mod placeable;
mod record_ledger;
mod resolve_stage;
mod resolver;
mod rule;
mod search;

pub use bulk::{PlaceBulk, PlaceBulkOnce};
pub use bulk_item::{BulkItem, BulkPlaced, UnresolvedBulk};
pub use cancel_once::{CancelOnce, CancelOutcome};
pub use close::{Close, CloseResolution};
pub use close_search::{CloseSearch, PositionState, ResolveClose};
pub use evidence::{
    AcceptanceWindow, CREATION_ALLOWANCE, Evidence, Flaw, Look, NONCE_WINDOW, Round, RoundVerdict,
    Sighting, Span,
};
pub use invest_once::{InvestOnce, Invested, Investing};
pub use invest_resolution::{InvestResolution, InvestmentWriters};
pub use invest_resolve::ResolveInvestment;
pub use invest_search::InvestmentSearch;
pub(crate) use investment_ledger::InvestmentLedger;
pub use ledger::Journal;
pub(crate) use ledger::Ledger;
pub use modify::{Modify, ModifyOnce};
pub(crate) use modify_search::ModifyLedger;
pub use modify_search::{ModifyResolution, ModifySearch, ResolveModify, UnresolvedModify};
pub use oco_search::{OcoSearch, PlacedOco, ResolveOco};
pub use order_search::{OrderSearch, Resolve};
pub use outcome::{Found, Placed, PlacedOrder, Resolution};
pub use pending::PendingOrder;
pub use pending_close::{PendingClose, UnresolvedClose};
pub use pending_investment::PendingInvestment;
pub use pending_modify::PendingModify;
pub use pending_record::PendingRecord;
pub use place::{DEFAULT_MAX_PLACEMENTS, Place, PlaceOnce};
pub use placeable::Placeable;
pub use resolve_stage::{ResolveStage, StageKind, StageObserver};
pub use resolver::{DEFAULT_SETTLE_DELAY, Resolver};
pub use rule::{AbsenceRule, Timing};
pub use search::{Candidate, Outcome, Presence, RoundFindings, RoundMachine, Search};
