//! [`ClientOrderId`]: the caller's order id.

use super::text::{check_chars, validated_text};
use crate::errors::ValidationError;

validated_text! {
    /// A caller-chosen order id: ASCII letters, digits, `-`, `.`, `_`; 1 to 64 characters. The
    /// exchange keeps it unique only among the account's *open* orders on one market, so it is
    /// no idempotency key for market orders.
    ///
    /// [`ClientOrderId::generated`] makes the ids txc clients give orders that have none.
    ///
    /// ```
    /// use txc_types::values::ClientOrderId;
    /// let id: ClientOrderId = "order-42".parse()?;
    /// assert_eq!(id.as_str(), "order-42");
    /// assert!("a/b".parse::<ClientOrderId>().is_err());
    /// # Ok::<(), txc_types::errors::ValidationError>(())
    /// ```
    ClientOrderId, field "clientOrderId", rule check_client_order_id
}

fn check_client_order_id(text: &str, field: &'static str) -> Result<(), ValidationError> {
    check_chars(text, field, 64, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_')
    })
}

impl ClientOrderId {
    /// The generated id `txc-<prefix>-<serial>`: `<prefix>` is `prefix` in 13 base-36 digits
    /// (zero-padded), `<serial>` is `serial` in base 36 — letters, digits and `-`, at most 31
    /// characters, so always within the exchange's rules.
    ///
    /// ```
    /// use txc_types::values::ClientOrderId;
    /// assert_eq!(ClientOrderId::generated(42, 1).as_str(), "txc-0000000000016-1");
    /// assert_eq!(ClientOrderId::generated(u64::MAX, u64::MAX).as_str(), "txc-3w5e11264sgsf-3w5e11264sgsf");
    /// ```
    pub fn generated(prefix: u64, serial: u64) -> Self {
        Self(format!("txc-{:0>13}-{}", base36(prefix), base36(serial)))
    }
}

/// `n` in base 36, lower case.
fn base36(mut n: u64) -> String {
    let mut out = Vec::with_capacity(13);
    loop {
        let digit = u8::try_from(n % 36).unwrap_or_default();
        out.push(if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        });
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}
