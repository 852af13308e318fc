//! Lending the main account's money: smart investments in plans (the docs' "Crypto Lending —
//! Fixed": a term, interest accrued over it, closed by the partner or at its end).
//!
//! Flexible lending belongs here beside it, paid from and back into the same main balances.

mod smart;

pub(crate) use smart::Investments;
