//! The exchange's messages as [`decode`](super::decode) compares them: normalized, and the
//! one answer that says a window-mode nonce was outside the window.

/// The exchange's answer to a window-mode nonce outside its ±5 s window, normalized.
pub(super) const NONCE_OUTSIDE_WINDOW: &str =
    "your nonce is more than 5 seconds lesser than the current nonce";

/// Whether `message` is the exchange's answer to a window-mode nonce outside its window.
pub(super) fn is_nonce_outside_window(message: &str) -> bool {
    normalized(message) == NONCE_OUTSIDE_WINDOW
}

/// Lower case, trimmed, without a final period: how messages are compared.
pub(super) fn normalized(message: &str) -> String {
    message
        .trim()
        .trim_end_matches('.')
        .trim()
        .to_ascii_lowercase()
}
