//! [`Tokens`]: the WebSocket tokens issued by `POST /api/v4/profile/websocket_token`, each
//! standing for the API key that asked for it, until the sandbox is reset (the docs say nothing
//! of a token's lifetime).

use std::collections::HashMap;

/// The tokens issued: token → API key.
#[derive(Debug, Default)]
pub(crate) struct Tokens {
    issued: HashMap<String, String>,
}

impl Tokens {
    /// Issues a token for `api_key` at `now_us` (the sandbox's time, in Unix microseconds).
    pub(crate) fn issue(&mut self, api_key: &str, now_us: u64) -> String {
        let serial = self.issued.len();
        let token = format!("sbx{now_us:x}{serial:012x}");
        self.issued.insert(token.clone(), api_key.to_owned());
        token
    }

    /// The API key `token` stands for, if it was issued.
    pub(crate) fn api_key(&self, token: &str) -> Option<&str> {
        self.issued.get(token).map(String::as_str)
    }
}
