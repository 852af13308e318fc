//! Pre-flight checks against the account's position mode, so that the exchange never has to
//! refuse what the client can tell is wrong: [`ModeCheck`] (the setting), the mode known per
//! key and exchange, [`Preflight`] (an order or close checked before it is sent) and
//! [`ModeChange`] (a hedge-mode switch checked against open positions and orders). The rules
//! are [`ModeCheck`]'s.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use txc_types::endpoint::Acknowledged;
use txc_types::errors::{Reason, ValidationError};
use txc_types::lookups::OpenOrdersQuery;
use txc_types::orders::PositionSide;
use txc_types::positions::{HedgeModeQuery, OpenPositionsQuery, PositionMode, SetHedgeMode};

use crate::machine::Call;
use crate::{ClientCore, Error, Machine, Response, Step, TransportError};

/// What the client does about the account's position mode before an order, a close or a
/// mode change, and the rules it checks.
///
/// **The look-up this adds.** With [`ModeCheck::Learn`] (the default) the first order, close
/// or mode change of a key on an exchange first reads the mode
/// (`POST /api/v4/collateral-account/hedge-mode`, one request, rate limit 12 000 / 10 s); every
/// later one uses what was read, shared by every client of the key in the process. It is read
/// again after the exchange refuses an order with code 114 (the mode was changed elsewhere),
/// and set without a read after this client switches the mode. One read at a time: orders
/// made while another reads it (a burst at start-up) go unchecked rather than each reading it
/// too. If the read fails, the order is sent unchecked — the exchange still refuses a wrong
/// side (code 114), and the read's failure never makes an order's outcome look unknown.
/// [`ModeCheck::Declared`] starts from a mode the caller knows (no read); [`ModeCheck::Off`]
/// checks nothing.
///
/// **What is refused** (with [`Error::InvalidRequest`] on `positionSide`, naming the mode and
/// the fix; nothing is sent):
///
/// | mode | `positionSide` | why |
/// |---|---|---|
/// | hedge | none or `BOTH` | the docs: "the field MUST be `LONG` or `SHORT`" (code 114); nothing is guessed |
/// | one-way | `LONG` or `SHORT` | the docs' error list: code 114 for "`LONG`/`SHORT` in one-way mode" |
///
/// The second row follows the spec's error list; its field description says the value "is
/// ignored" in one-way mode. Where the two disagree the stricter reading is taken: leaving the
/// field out is always right in one-way mode.
///
/// **Mode changes.** The docs say a switch "requires no open positions" and code 113 refuses
/// it "while open positions or orders exist", so [`ModeChange`] lists the open positions and
/// open orders first and refuses to send a switch while any exist. Leverage is not checked
/// this way: its page says a change "affects all open positions", contradicting its own code
/// 113; the exchange's answer decides, and 113 is classified
/// ([`ApiErrorClass::PositionsOpen`](crate::ApiErrorClass::PositionsOpen)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ModeCheck {
    /// Read the mode once per key and exchange, lazily, and check against it (the default).
    #[default]
    Learn,
    /// Check against this mode without reading it; a code-114 refusal makes the client read
    /// the real one.
    Declared(PositionMode),
    /// Check nothing: every order goes as given, and the exchange decides.
    Off,
}

/// The account's position mode as the clients of one key on one exchange know it: shared by
/// clones, made once per (base URL, key) in the process.
///
/// An atomic rather than a lock: every order reads it.
#[derive(Debug, Clone, Default)]
pub(crate) struct ModeCache {
    /// `UNKNOWN`, `ONE_WAY` or `HEDGE`.
    mode: Arc<AtomicU8>,
}

const UNKNOWN: u8 = 0;
const ONE_WAY: u8 = 1;
const HEDGE: u8 = 2;
/// Unknown, and one call is reading it.
const READING: u8 = 3;

impl ModeCache {
    /// The cache of `api_key` on the exchange at `base_url`.
    pub(crate) fn for_account(base_url: &str, api_key: &str) -> Self {
        type Caches = HashMap<(String, String), ModeCache>;
        static CACHES: LazyLock<Mutex<Caches>> = LazyLock::new(Mutex::default);
        crate::registry::shared(
            &CACHES,
            (base_url.to_owned(), api_key.to_owned()),
            Self::default,
        )
    }

    /// The mode, if known.
    pub(crate) fn get(&self) -> Option<PositionMode> {
        match self.mode.load(Ordering::Acquire) {
            ONE_WAY => Some(PositionMode::OneWay),
            HEDGE => Some(PositionMode::Hedge),
            _ => None,
        }
    }

    /// The right to read the mode, when it is unknown and no other call is reading it:
    /// held while the read is under way, given back (the mode still unknown) when dropped
    /// before the mode was recorded.
    pub(crate) fn start_reading(&self) -> Option<Reading> {
        self.mode
            .compare_exchange(UNKNOWN, READING, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| Reading(self.mode.clone()))
    }

    /// Records the mode.
    pub(crate) fn set(&self, mode: PositionMode) {
        let code = match mode {
            PositionMode::OneWay => ONE_WAY,
            PositionMode::Hedge => HEDGE,
        };
        self.mode.store(code, Ordering::Release);
    }

    /// Forgets the mode: the next check reads it again.
    pub(crate) fn forget(&self) {
        self.mode.store(UNKNOWN, Ordering::Release);
    }
}

/// A call's right to read the mode ([`ModeCache::start_reading`]).
pub(crate) struct Reading(Arc<AtomicU8>);

impl Drop for Reading {
    fn drop(&mut self) {
        // Read and recorded, or forgotten meanwhile: nothing to give back.
        let _ = self
            .0
            .compare_exchange(READING, UNKNOWN, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// Whether `side` can be right in `mode`: the refusal names the mode and the fix.
pub fn check_position_side(
    mode: PositionMode,
    side: Option<PositionSide>,
) -> Result<(), ValidationError> {
    let reason = match (mode, side) {
        (PositionMode::Hedge, None | Some(PositionSide::Both)) => {
            "does not fit the account's hedge mode: it must be LONG or SHORT (the exchange \
             answers code 114 otherwise); set the position side"
        }
        (PositionMode::OneWay, Some(PositionSide::Long | PositionSide::Short)) => {
            "does not fit the account's one-way mode: LONG and SHORT are for hedge mode (the \
             docs list code 114 for them); leave the position side out"
        }
        _ => return Ok(()),
    };
    Err(ValidationError::InvalidField {
        field: "positionSide",
        reason: Reason::Format(reason),
    })
}

/// Where a [`Preflight`] is; the operation itself stays in place beside it.
enum Stage<'a> {
    /// Check against the known mode, or read it.
    Check,
    /// Reading the mode (the only call of the key doing so); then check and run the operation.
    /// The right to read is held until this stage ends.
    Learning {
        read: Box<Call<'a, HedgeModeQuery>>,
        _reading: Reading,
    },
    /// The checked operation.
    Running,
    Finished,
}

/// An order or close whose `positionSide` is checked against the account's position mode
/// before it is sent (the rules: [`ModeCheck`]); then the operation `M` itself. A code-114
/// refusal of `M` makes the clients of the key read the mode again.
pub struct Preflight<'a, M> {
    core: &'a ClientCore,
    side: Option<PositionSide>,
    /// The operation: never moved, only its stage changes (moving it in and out of the stage
    /// copied the whole order machine several times per order; BENCHMARKS.md, issue 27).
    then: M,
    stage: Stage<'a>,
    /// Whether an unknown mode is read first.
    read: bool,
}

impl<'a, M> Preflight<'a, M> {
    pub(crate) fn new(core: &'a ClientCore, side: Option<PositionSide>, then: M) -> Self {
        Self {
            core,
            side,
            then,
            stage: Stage::Check,
            read: true,
        }
    }

    /// The same, reading no mode (`true`): checked only against a mode already known.
    pub(crate) fn without_read(mut self, skip: bool) -> Self {
        self.read = !skip;
        self
    }

    /// The same checking nothing (`false`): a request the mode does not apply to (a modify).
    pub(crate) fn applied(mut self, applies: bool) -> Self {
        if !applies {
            self.stage = Stage::Running;
        }
        self
    }
}

impl<T, M: Machine<Output = Result<T, Error>>> Machine for Preflight<'_, M> {
    type Output = Result<T, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        loop {
            match &mut self.stage {
                Stage::Running => {
                    let step = self.then.next(now);
                    if let Step::Done(result) = &step {
                        self.stage = Stage::Finished;
                        if let Err(e) = result
                            && e.api().is_some_and(|a| a.code == Some(114))
                        {
                            self.core.mode.forget();
                        }
                    }
                    return step;
                }
                Stage::Check if self.core.mode_check == ModeCheck::Off => {
                    self.stage = Stage::Running;
                }
                Stage::Check => match self.core.mode.get() {
                    Some(mode) => {
                        if let Err(refused) = self.check(mode) {
                            return Step::Done(Err(refused));
                        }
                    }
                    None if !self.read => self.stage = Stage::Running,
                    None => {
                        self.stage = match self.core.mode.start_reading() {
                            Some(reading) => Stage::Learning {
                                read: Box::new(self.core.call_owned(HedgeModeQuery)),
                                _reading: reading,
                            },
                            // Another call is reading it: sent unchecked, as after a failed
                            // read (the exchange refuses a wrong side with 114).
                            None => Stage::Running,
                        };
                    }
                },
                Stage::Learning { read, .. } => match read.next(now).forward() {
                    Ok(step) => return step,
                    Err(Ok(answer)) => {
                        self.core.mode.set(answer.mode());
                        if let Err(refused) = self.check(answer.mode()) {
                            return Step::Done(Err(refused));
                        }
                    }
                    // Unread: sent unchecked; the exchange still refuses a wrong side (114).
                    Err(Err(_)) => self.stage = Stage::Running,
                },
                Stage::Finished => return Step::after_end("preflight", "the operation"),
            }
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            Stage::Learning { read, .. } => read.receive(response),
            Stage::Running => self.then.receive(response),
            Stage::Check | Stage::Finished => {}
        }
    }

    fn wake(&self) -> Option<crate::machine::Wake<'_>> {
        match &self.stage {
            Stage::Running => self.then.wake(),
            _ => None,
        }
    }
}

impl<M> Preflight<'_, M> {
    /// Checks the side against `mode`: on to the operation, or finished with the refusal.
    fn check(&mut self, mode: PositionMode) -> Result<(), Error> {
        let checked = check_position_side(mode, self.side);
        self.stage = match checked {
            Ok(()) => Stage::Running,
            Err(_) => Stage::Finished,
        };
        checked.map_err(Error::from)
    }
}

enum ChangeStage<'a> {
    Positions(Call<'a, OpenPositionsQuery>),
    Orders(Call<'a, OpenOrdersQuery>),
    Switch(Call<'a, SetHedgeMode>),
    Finished,
}

/// Switches hedge mode after checking that no position or order is open (see [`ModeCheck`]);
/// a switch the exchange accepts becomes the key's known mode.
pub struct ModeChange<'a> {
    core: &'a ClientCore,
    change: SetHedgeMode,
    stage: ChangeStage<'a>,
}

impl<'a> ModeChange<'a> {
    pub(crate) fn new(core: &'a ClientCore, change: SetHedgeMode) -> Self {
        let stage = if core.mode_check == ModeCheck::Off {
            ChangeStage::Switch(core.call_owned(change))
        } else {
            ChangeStage::Positions(core.call_owned(OpenPositionsQuery::new()))
        };
        Self {
            core,
            change,
            stage,
        }
    }

    fn refuse(&mut self) -> Step<Result<Acknowledged, Error>> {
        self.stage = ChangeStage::Finished;
        Step::Done(Err(ValidationError::InvalidField {
            field: "hedgeMode",
            reason: Reason::Format(
                "cannot change while positions or orders are open (the exchange refuses it \
                 with code 113): close the positions and cancel the orders first",
            ),
        }
        .into()))
    }

    fn switch(&mut self, now: SystemTime) -> Step<Result<Acknowledged, Error>> {
        self.stage = ChangeStage::Switch(self.core.call_owned(self.change));
        self.next(now)
    }
}

impl Machine for ModeChange<'_> {
    type Output = Result<Acknowledged, Error>;

    fn next(&mut self, now: SystemTime) -> Step<Self::Output> {
        match &mut self.stage {
            ChangeStage::Positions(call) => match call.next(now).forward() {
                Ok(step) => step,
                Err(Ok(positions)) if !positions.is_empty() => self.refuse(),
                Err(Ok(_)) => {
                    let query = OpenOrdersQuery::builder().limit(1).build();
                    match query {
                        Ok(query) => {
                            self.stage = ChangeStage::Orders(self.core.call_owned(query));
                            self.next(now)
                        }
                        Err(_) => self.switch(now),
                    }
                }
                // Unread: sent unchecked; the exchange still refuses it (113).
                Err(Err(_)) => self.switch(now),
            },
            ChangeStage::Orders(call) => match call.next(now).forward() {
                Ok(step) => step,
                Err(Ok(orders)) if !orders.is_empty() => self.refuse(),
                Err(_) => self.switch(now),
            },
            ChangeStage::Switch(call) => match call.next(now).forward() {
                Ok(step) => step,
                Err(result) => {
                    match &result {
                        Ok(_) => self.core.mode.set(self.change.mode()),
                        // Not switched, or not known whether: read it again next time.
                        Err(_) => self.core.mode.forget(),
                    }
                    self.stage = ChangeStage::Finished;
                    Step::Done(result)
                }
            },
            ChangeStage::Finished => Step::after_end("set_hedge_mode", "the change"),
        }
    }

    fn receive(&mut self, response: Result<Response<'_>, TransportError>) {
        match &mut self.stage {
            ChangeStage::Positions(call) => call.receive(response),
            ChangeStage::Orders(call) => call.receive(response),
            ChangeStage::Switch(call) => call.receive(response),
            ChangeStage::Finished => {}
        }
    }
}
