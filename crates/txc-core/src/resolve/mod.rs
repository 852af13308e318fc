//! Placing and investing exactly once, and finding out from proof whether an operation whose
//! outcome is unknown was carried out: an order ([`Resolve`]), a position's close
//! ([`ResolveClose`]), an operation that moves money ([`MoneyMove`]: an investment
//! ([`ResolveInvestment`]), a flex investment or withdrawal ([`ResolveFlexInvest`],
//! [`ResolveFlexWithdraw`])) — each one [`Resolver`] with its [`Search`], one [`AbsenceRule`]
//! over one [`AcceptanceWindow`], every answer with its [`Evidence`] — and the records kept
//! meanwhile ([`PendingOrder`], [`PendingClose`], [`PendingMove`], persisted by a
//! [`Journal`]); and the changes of a flex investment resolved by its state
//! ([`StateChanging`]).

mod bulk;
mod bulk_item;
mod bulk_send;
mod cancel_once;
mod close;
mod close_search;
mod evidence;
mod flex_resolve;
mod flex_round;
mod flex_state;
mod invest_resolution;
mod invest_resolve;
mod investment_round;
mod ledger;
mod modify;
mod modify_search;
mod money_move;
mod move_ledger;
mod move_once;
mod move_resolution;
mod move_search;
mod moved;
mod moving;
mod oco_search;
mod order_search;
mod outcome;
mod pending;
mod pending_close;
mod pending_modify;
mod pending_move;
mod pending_record;
mod place;
mod placeable;
mod record_ledger;
mod resolve_stage;
mod resolver;
mod rule;
mod search;
mod unresolved_move;

pub use bulk::{PlaceBulk, PlaceBulkOnce};
pub use bulk_item::{BulkItem, BulkPlaced, UnresolvedBulk};
pub use cancel_once::{CancelOnce, CancelOutcome};
pub use close::{Close, CloseResolution};
pub use close_search::{CloseSearch, PositionState, ResolveClose};
pub use evidence::{
    AcceptanceWindow, CREATION_ALLOWANCE, Evidence, Flaw, Look, NONCE_WINDOW, Round, RoundVerdict,
    SOCKET_PROCESSING_GRACE, Sighting, Span,
};
pub use flex_resolve::{ResolveFlexInvest, ResolveFlexWithdraw};
pub use flex_state::{StateChange, StateChanging, StateReached};
pub use invest_resolution::{InvestResolution, InvestmentWriters};
pub use invest_resolve::ResolveInvestment;
pub use ledger::Journal;
pub(crate) use ledger::{Ledger, NotRecorded, Record};
pub use modify::{Modify, ModifyOnce};
pub(crate) use modify_search::ModifyLedger;
pub use modify_search::{ModifyResolution, ModifySearch, ResolveModify, UnresolvedModify};
pub use money_move::MoneyMove;
pub(crate) use move_ledger::MoveLedger;
pub use move_once::{FlexInvestOnce, FlexWithdrawOnce, InvestOnce, MoveOnce};
pub use move_resolution::{FlexResolution, MoveResolution};
pub use move_search::{InvestmentSearch, MoveSearch};
pub use moved::{FlexDone, Invested};
pub use moving::{Investing, Moving};
pub use oco_search::{OcoSearch, PlacedOco, ResolveOco};
pub(crate) use order_search::absence_caveat;
pub use order_search::{OrderSearch, Resolve};
pub use outcome::{Found, Placed, PlacedOrder, Resolution};
pub use pending::PendingOrder;
pub use pending_close::{PendingClose, UnresolvedClose};
pub use pending_modify::PendingModify;
pub use pending_move::{PendingFlexInvest, PendingFlexWithdraw, PendingInvestment, PendingMove};
pub use pending_record::PendingRecord;
pub(crate) use place::taken_over;
pub use place::{DEFAULT_MAX_PLACEMENTS, Place, PlaceOnce};
pub use placeable::Placeable;
pub use resolve_stage::{ResolveStage, StageKind, StageObserver};
pub use resolver::{DEFAULT_SETTLE_DELAY, Resolver};
pub use rule::{AbsenceRule, Timing};
pub use search::{Candidate, Outcome, Presence, RoundFindings, RoundMachine, Search};
pub use unresolved_move::{UnresolvedInvestment, UnresolvedMove};
