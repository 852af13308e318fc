//! Lending the main account's money: smart investments in plans (the docs' "Crypto Lending —
//! Fixed": a term, interest accrued over it, closed by the partner or at its end) and flexible
//! lending (the "Crypto Lending - Flex": topped up, withdrawn from, closed at any time, earning
//! daily), both paid from and back into the main balances.

mod flex;
mod smart;

pub(crate) use flex::FlexLending;
pub(crate) use smart::Investments;

use rust_decimal::Decimal;

use crate::state::Account;
use crate::wire::{Rejection, decimal};

/// Takes `amount` of `ticker` from `account`'s main balance — what both kinds of lending are
/// paid from: HTTP 422, code 4, `Available 9 < 10` when it holds less (the spec's example).
fn take_main(account: &mut Account, ticker: &str, amount: Decimal) -> Result<(), Rejection> {
    let available = account.main.get(ticker).copied().unwrap_or_default();
    if available < amount {
        let message = format!(
            "Available {} < {}",
            decimal::text(available),
            decimal::text(amount)
        );
        return Err(Rejection::inner(4, "amount", &message));
    }
    account.main.insert(ticker.to_owned(), available - amount);
    Ok(())
}
