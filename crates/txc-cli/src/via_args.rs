//! `--via rest|ws`: the one option every placing and canceling command takes (flattened into
//! each), and the `--ws-attempt` value of `txc resolve`. What `--via ws` does is `via.rs`.

use clap::{Args, ValueEnum};

/// How a command's request travels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum Via {
    /// Over REST (signed HTTP)
    #[default]
    Rest,
    /// As an order method on the authorized WebSocket: journaled the same, --once and txc
    /// resolve work the same
    Ws,
}

/// `--via`, flattened into every placing and canceling command.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct ViaArgs {
    /// How to send it: over REST, or as an order method on the exchange's authorized WebSocket
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Via::Rest)]
    pub(crate) via: Via,
}

impl ViaArgs {
    /// Whether `--via ws` was asked for.
    pub(crate) fn ws(self) -> bool {
        self.via == Via::Ws
    }
}

/// The `--ws-attempt` value `WRITTEN:SETTLED` (Unix microseconds).
pub(crate) fn ws_attempt(text: &str) -> Result<(u64, u64), String> {
    let parse = |part: &str| {
        part.trim()
            .parse::<u64>()
            .map_err(|e| format!("{part:?} is not Unix microseconds: {e}"))
    };
    let (written, settled) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not WRITTEN:SETTLED"))?;
    let (written, settled) = (parse(written)?, parse(settled)?);
    if settled < written {
        return Err(format!("{text:?}: settled before it was written"));
    }
    Ok((written, settled))
}
