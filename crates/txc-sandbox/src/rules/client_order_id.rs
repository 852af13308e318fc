//! `clientOrderId` (code 36): "Latin letters, numbers, dashes `-`, dots `.`, underscores
//! `_`", "Cannot be an empty string if provided", at most 64 characters
//! (exchange-docs-notes §6). Uniqueness among open orders is checked against the state.

/// The longest `clientOrderId` the docs permit.
pub(crate) const MAX_LEN: usize = 64;

/// The messages for a `clientOrderId` string, in the order the sandbox checks; empty when it
/// is valid.
pub(crate) fn problems(id: &str) -> Vec<String> {
    if id.is_empty() {
        // Not documented: worded like the documented `Market field should not be empty string.`
        return vec!["ClientOrderId field should not be empty string.".to_owned()];
    }
    if !id
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
    {
        // The current spec's text (the older docs had "field field").
        return vec![
            "ClientOrderId field should contain only latin letters, numbers and dashes.".to_owned(),
        ];
    }
    if id.len() > MAX_LEN {
        // Not documented: the length limit is, its message is not.
        return vec![format!(
            "ClientOrderId field should not be longer than {MAX_LEN} characters."
        )];
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        for good in ["a", "order-1.a_B", &"x".repeat(64)] {
            assert!(problems(good).is_empty(), "{good}");
        }
        for bad in ["", " a", "a b", "a/b", "ü", &"x".repeat(65), "a\n"] {
            assert_eq!(problems(bad).len(), 1, "{bad:?}");
        }
    }
}
