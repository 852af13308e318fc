//! `POST /api/v4/main-account/smart/investment/close`: closing an investment.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use txc_derive::Request;

use super::page::check_id;
use crate::endpoint::MAIN_ACCOUNT_SCOPE;
use crate::errors::ValidationError;

/// Closes an active investment: the principal comes back, with the interest the plan pays for
/// closing then. The exchange answers an unknown id `400 Investment not found` and a closed one
/// `422 Investment is already closed`. It changes the account, so it is never resent after an
/// ambiguous answer (an order operation): look the investment up instead, closed or still
/// active.
///
/// ```
/// use txc_types::investments::CloseInvestment;
/// let close = CloseInvestment::new("0d7b66ff-1909-4938-ab7a-d16d9a64dcd5")?;
/// assert_eq!(serde_json::to_string(&close)?, r#"{"id":"0d7b66ff-1909-4938-ab7a-d16d9a64dcd5"}"#);
/// assert!(CloseInvestment::new("").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Request)]
#[request(
    path = "/api/v4/main-account/smart/investment/close",
    operation = "close_investment",
    kind = Order,
    rate_limit = (1_000, 10),
    scope = MAIN_ACCOUNT_SCOPE,
    response = InvestmentClosed,
)]
pub struct CloseInvestment {
    /// The investment's id.
    id: String,
}

impl CloseInvestment {
    /// Closes the investment `id`.
    pub fn new(id: &str) -> Result<Self, ValidationError> {
        Ok(Self {
            id: check_id(id, "id")?,
        })
    }
}

/// The answer to closing an investment: the docs give `{}`. Any object is read (its fields
/// kept in [`extra`](Self::extra)), and PHP's `[]` for an empty one.
///
/// ```
/// use txc_types::investments::InvestmentClosed;
/// assert!(serde_json::from_str::<InvestmentClosed>("{}")?.extra.is_empty());
/// assert!(serde_json::from_str::<InvestmentClosed>("[]").is_ok());
/// assert!(serde_json::from_str::<InvestmentClosed>("[1]").is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct InvestmentClosed {
    /// Whatever the answer held, as sent (nothing, as documented).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<'de> Deserialize<'de> for InvestmentClosed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = InvestmentClosed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object (or an empty array)")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<InvestmentClosed, A::Error> {
                let extra = Map::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(InvestmentClosed { extra })
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<InvestmentClosed, A::Error> {
                match seq.next_element::<Value>()? {
                    None => Ok(InvestmentClosed::default()),
                    Some(_) => Err(de::Error::custom("expected an empty array")),
                }
            }
        }
        d.deserialize_any(V)
    }
}
