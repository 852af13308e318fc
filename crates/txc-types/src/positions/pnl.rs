//! A position's realized profit and loss, as a reference written from the spec: what a
//! [`ClosedPosition`] record's aggregates are made of, for tests and simulators.
//!
//! # What the spec gives, and what is decided here
//!
//! The closed-position PnL record defines its figures (not a formula in one line):
//!
//! - `avgEntryPrice`: the volume-weighted average price of the fills that **increased** the
//!   position; `avgExitPrice`: of the fills that **reduced** it; both "trimmed to the market
//!   money precision";
//! - `closedSize`: the sum of the reducing fills, in base currency;
//! - `totalTradeFee`: every fill's trading fee, opening and closing — "already reflected" in
//!   the PnL, never to be subtracted again;
//! - `grossPnl`: the realized PnL before funding, trading fees already deducted;
//! - `netPnl`: `grossPnl − totalFunding`, `totalFunding` being the funding over the
//!   position's life (positive: paid).
//!
//! From those, for a long (`+1`) or short (`−1`) position:
//!
//! ```text
//! grossPnl = direction × closedSize × (avgExitPrice − avgEntryPrice) − totalTradeFee
//! netPnl   = grossPnl − totalFunding
//! ```
//!
//! which the spec's two examples satisfy exactly (`0.05 × (62000 − 61000) − 6.15 = 43.85`,
//! `43.85 − 1.25 = 42.6`; `1.5 × (2450 − 2500) − 7.425 = −82.425` for the second, a one-way
//! position that was long). Decided here, where the spec is silent: with fills at hand
//! ([`PnlLedger`]) the price PnL is computed from the fills' values, not from the trimmed
//! averages (so it is exact); "trimmed" is read as cut toward zero
//! ([`PnlSummary::trimmed`]); a one-way (`BOTH`) record does not say its direction, so the
//! caller gives it ([`ClosedPosition::direction`] is `None` for it).
//!
//! ```
//! use rust_decimal::Decimal;
//! use txc_types::positions::pnl::{Direction, PnlLedger};
//! let d = |s: &str| s.parse::<Decimal>().unwrap();
//! let mut ledger = PnlLedger::new(Direction::Long);
//! ledger.increase(d("0.05"), d("61000"), d("3.05"))?;
//! ledger.funding(d("-1.25"))?; // a funding record: paid 1.25
//! ledger.reduce(d("0.05"), d("62000"), d("3.1"))?;
//! let closed = ledger.summary()?;
//! assert_eq!((closed.gross_pnl, closed.net_pnl), (d("43.85"), d("42.6")));
//! assert_eq!(closed.total_funding, d("1.25"));
//! # Ok::<(), txc_types::positions::ReferenceError>(())
//! ```

use rust_decimal::{Decimal, RoundingStrategy};

use super::reference_error::figure;
use super::{ClosedPosition, ReferenceError};
use crate::orders::PositionSide;

/// A position's direction: what a price move is worth to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Gains when the price rises.
    Long,
    /// Gains when the price falls.
    Short,
}

impl Direction {
    /// The direction of a position side: `None` for a one-way (`BOTH`) or unknown one.
    pub fn of(side: PositionSide) -> Option<Self> {
        match side {
            PositionSide::Long => Some(Self::Long),
            PositionSide::Short => Some(Self::Short),
            _ => None,
        }
    }

    /// `+1` for a long, `−1` for a short.
    pub fn sign(self) -> Decimal {
        match self {
            Self::Long => Decimal::ONE,
            Self::Short => Decimal::NEGATIVE_ONE,
        }
    }
}

/// `direction × closed_size × (avg_exit − avg_entry) − total_trade_fee`: the realized PnL
/// before funding, fees deducted (`grossPnl`).
///
/// # Errors
/// [`ReferenceError::Overflow`] when a step does not fit.
pub fn gross_pnl(
    direction: Direction,
    closed_size: Decimal,
    avg_entry: Decimal,
    avg_exit: Decimal,
    total_trade_fee: Decimal,
) -> Result<Decimal, ReferenceError> {
    avg_exit
        .checked_sub(avg_entry)
        .and_then(|move_| move_.checked_mul(closed_size))
        .and_then(|value| value.checked_mul(direction.sign()))
        .and_then(|value| value.checked_sub(total_trade_fee))
        .ok_or(ReferenceError::Overflow)
}

/// `gross_pnl − total_funding` (`netPnl`; `total_funding` positive when paid).
///
/// # Errors
/// [`ReferenceError::Overflow`] when it does not fit.
pub fn net_pnl(gross_pnl: Decimal, total_funding: Decimal) -> Result<Decimal, ReferenceError> {
    gross_pnl
        .checked_sub(total_funding)
        .ok_or(ReferenceError::Overflow)
}

/// A position's fills and funding, added up into the closed-position aggregates.
///
/// Fill amounts are positive, in base currency; fees are what the fill cost (positive: paid);
/// funding is taken as the funding history reports it (what the account received, negative
/// when it paid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PnlLedger {
    direction: Direction,
    entry_size: Decimal,
    entry_value: Decimal,
    exit_size: Decimal,
    exit_value: Decimal,
    trade_fee: Decimal,
    funding_paid: Decimal,
}

/// The aggregates of a position's fills so far: those of a [`ClosedPosition`] once it is
/// closed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PnlSummary {
    /// The volume-weighted price of the increasing fills; `None` before the first.
    pub avg_entry_price: Option<Decimal>,
    /// The volume-weighted price of the reducing fills; `None` before the first.
    pub avg_exit_price: Option<Decimal>,
    /// The sum of the reducing fills.
    pub closed_size: Decimal,
    /// Every fill's fee.
    pub total_trade_fee: Decimal,
    /// The funding paid (positive) or received (negative).
    pub total_funding: Decimal,
    /// The realized PnL of the reduced part, before funding, every fee deducted.
    pub gross_pnl: Decimal,
    /// `gross_pnl − total_funding`.
    pub net_pnl: Decimal,
}

impl PnlSummary {
    /// The summary with its average prices cut toward zero to `money_precision` decimal
    /// places, as the exchange writes them ("trimmed to the market money precision").
    pub fn trimmed(mut self, money_precision: u32) -> Self {
        let trim = |price: Decimal| {
            price.round_dp_with_strategy(money_precision, RoundingStrategy::ToZero)
        };
        self.avg_entry_price = self.avg_entry_price.map(trim);
        self.avg_exit_price = self.avg_exit_price.map(trim);
        self
    }
}

impl PnlLedger {
    /// A position of `direction` with no fills yet.
    pub fn new(direction: Direction) -> Self {
        Self {
            direction,
            entry_size: Decimal::ZERO,
            entry_value: Decimal::ZERO,
            exit_size: Decimal::ZERO,
            exit_value: Decimal::ZERO,
            trade_fee: Decimal::ZERO,
            funding_paid: Decimal::ZERO,
        }
    }

    /// A fill that grew the position: `amount` at `price`, costing `fee`.
    ///
    /// # Errors
    /// [`ReferenceError::NotPositive`] for an amount or price not above zero,
    /// [`ReferenceError::Overflow`]; the ledger is unchanged then.
    pub fn increase(
        &mut self,
        amount: Decimal,
        price: Decimal,
        fee: Decimal,
    ) -> Result<(), ReferenceError> {
        let (size, value, fee) =
            self.fill(self.entry_size, self.entry_value, amount, price, fee)?;
        (self.entry_size, self.entry_value, self.trade_fee) = (size, value, fee);
        Ok(())
    }

    /// A fill that reduced the position: `amount` at `price`, costing `fee`.
    ///
    /// # Errors
    /// [`ReferenceError::MoreThanOpen`] for more than is open,
    /// [`ReferenceError::NotPositive`], [`ReferenceError::Overflow`]; the ledger is unchanged
    /// then.
    pub fn reduce(
        &mut self,
        amount: Decimal,
        price: Decimal,
        fee: Decimal,
    ) -> Result<(), ReferenceError> {
        let open = self.open_size();
        if amount > open {
            return Err(ReferenceError::MoreThanOpen {
                open,
                reduce: amount,
            });
        }
        let (size, value, fee) = self.fill(self.exit_size, self.exit_value, amount, price, fee)?;
        (self.exit_size, self.exit_value, self.trade_fee) = (size, value, fee);
        Ok(())
    }

    /// A funding settlement, as the funding history reports it: what the account received
    /// (negative: paid).
    ///
    /// # Errors
    /// [`ReferenceError::Overflow`]; the ledger is unchanged then.
    pub fn funding(&mut self, received: Decimal) -> Result<(), ReferenceError> {
        self.funding_paid = self
            .funding_paid
            .checked_sub(received)
            .ok_or(ReferenceError::Overflow)?;
        Ok(())
    }

    /// The size still open.
    pub fn open_size(&self) -> Decimal {
        self.entry_size - self.exit_size
    }

    /// The aggregates so far. The price PnL of the reduced part is the reducing fills' value
    /// against the same size at the average entry price — exactly the fills' values once the
    /// position is closed.
    ///
    /// # Errors
    /// [`ReferenceError::Overflow`] when a step does not fit.
    pub fn summary(&self) -> Result<PnlSummary, ReferenceError> {
        let average = |value: Decimal, size: Decimal| {
            if size.is_zero() {
                Ok(None)
            } else {
                value
                    .checked_div(size)
                    .map(Some)
                    .ok_or(ReferenceError::Overflow)
            }
        };
        let avg_entry_price = average(self.entry_value, self.entry_size)?;
        let entry_cost = if self.exit_size == self.entry_size {
            self.entry_value
        } else {
            avg_entry_price
                .unwrap_or(Decimal::ZERO)
                .checked_mul(self.exit_size)
                .ok_or(ReferenceError::Overflow)?
        };
        let gross_pnl = self
            .exit_value
            .checked_sub(entry_cost)
            .and_then(|value| value.checked_mul(self.direction.sign()))
            .and_then(|value| value.checked_sub(self.trade_fee))
            .ok_or(ReferenceError::Overflow)?;
        Ok(PnlSummary {
            avg_entry_price,
            avg_exit_price: average(self.exit_value, self.exit_size)?,
            closed_size: self.exit_size,
            total_trade_fee: self.trade_fee,
            total_funding: self.funding_paid,
            gross_pnl,
            net_pnl: net_pnl(gross_pnl, self.funding_paid)?,
        })
    }

    /// A side's size and value, and the fees, after a fill of `amount` at `price`.
    fn fill(
        &self,
        size: Decimal,
        value: Decimal,
        amount: Decimal,
        price: Decimal,
        fee: Decimal,
    ) -> Result<(Decimal, Decimal, Decimal), ReferenceError> {
        if amount <= Decimal::ZERO {
            return Err(ReferenceError::NotPositive("amount"));
        }
        if price <= Decimal::ZERO {
            return Err(ReferenceError::NotPositive("price"));
        }
        let overflow = || ReferenceError::Overflow;
        Ok((
            size.checked_add(amount).ok_or_else(overflow)?,
            amount
                .checked_mul(price)
                .and_then(|filled| value.checked_add(filled))
                .ok_or_else(overflow)?,
            self.trade_fee.checked_add(fee).ok_or_else(overflow)?,
        ))
    }
}

impl ClosedPosition {
    /// The position's direction, from its side: `None` for a one-way (`BOTH`) position,
    /// whose record does not say.
    pub fn direction(&self) -> Option<Direction> {
        self.side.and_then(Direction::of)
    }

    /// `grossPnl` as the record's own averages, closed size and fees make it
    /// ([`gross_pnl`]) for a position of `direction`. The averages are trimmed to the
    /// market's money precision, so this is exact only when they were (as in the spec's
    /// examples).
    ///
    /// # Errors
    /// [`ReferenceError::Missing`] or [`ReferenceError::OutOfRange`] naming a figure the
    /// record lacks or that does not fit, [`ReferenceError::Overflow`].
    pub fn reference_gross_pnl(&self, direction: Direction) -> Result<Decimal, ReferenceError> {
        gross_pnl(
            direction,
            figure(self.closed_size.as_ref(), "closedSize")?,
            figure(self.avg_entry_price.as_ref(), "avgEntryPrice")?,
            figure(self.avg_exit_price.as_ref(), "avgExitPrice")?,
            figure(self.total_trade_fee.as_ref(), "totalTradeFee")?,
        )
    }

    /// `netPnl` as the record's own `grossPnl` and `totalFunding` make it ([`net_pnl`]).
    ///
    /// # Errors
    /// As [`reference_gross_pnl`](Self::reference_gross_pnl).
    pub fn reference_net_pnl(&self) -> Result<Decimal, ReferenceError> {
        net_pnl(
            figure(self.gross_pnl.as_ref(), "grossPnl")?,
            figure(self.total_funding.as_ref(), "totalFunding")?,
        )
    }
}
