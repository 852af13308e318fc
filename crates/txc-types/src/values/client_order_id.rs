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
        // One allocation: every order placed makes one, and `format!` with two temporary
        // strings made three.
        let mut id = String::with_capacity(4 + 13 + 1 + 13);
        id.push_str("txc-");
        let prefix = Base36::of(prefix);
        for _ in prefix.digits().len()..13 {
            id.push('0');
        }
        id.push_str(prefix.digits());
        id.push('-');
        id.push_str(Base36::of(serial).digits());
        Self(id)
    }
}

/// A number in base 36, lower case, written into a buffer on the stack (`u64::MAX` has 13
/// digits).
struct Base36 {
    buf: [u8; 13],
    start: usize,
}

impl Base36 {
    fn of(mut n: u64) -> Self {
        let mut buf = [b'0'; 13];
        let mut start = buf.len();
        for slot in buf.iter_mut().rev() {
            let digit = u8::try_from(n % 36).unwrap_or_default();
            *slot = if digit < 10 {
                b'0' + digit
            } else {
                b'a' + digit - 10
            };
            start -= 1;
            n /= 36;
            if n == 0 {
                break;
            }
        }
        Self { buf, start }
    }

    fn digits(&self) -> &str {
        // Only ASCII digits and letters are written.
        std::str::from_utf8(self.buf.get(self.start..).unwrap_or_default()).unwrap_or_default()
    }
}
