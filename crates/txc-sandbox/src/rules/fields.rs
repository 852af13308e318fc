//! [`Fields`]: the field checks the look-up and cancel bodies share — an integer, an integer
//! with bounds, a non-empty string — collecting every problem, worded the way the endpoint's
//! docs word them ([`Wording`]).
//!
//! The order bodies answer one field at a time with a code per field ([`super::parse_order`]);
//! the look-ups and cancel collect every field's problems into one answer, which is what this
//! type is for.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::market_name;
use super::values::{integer, label, present};
use crate::wire::{self, Rejection};

/// How an endpoint's docs word their field messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wording {
    /// The older docs' style (history, cancel): `OrderId field should be an integer.`,
    /// `Limit should be at least 1.`, `ClientOrderId field should be a string.`.
    Field,
    /// Laravel's own (open orders): `The order id must be an integer.`, `The limit must be at
    /// least 1.`, `The client order id must be a string.`.
    Laravel,
}

/// What an empty string is for a text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Empty {
    /// Missing, as Laravel's `required` reads it: `… field is required.`.
    Required,
    /// A problem of its own: `… should not be empty string.` / `… must not be empty.`.
    Rejected,
    /// A value like any other (a later rule judges it).
    Kept,
}

/// A body's fields and the problems found so far.
#[derive(Debug)]
pub(crate) struct Fields<'a> {
    map: &'a Map<String, Value>,
    wording: Wording,
    errors: BTreeMap<String, Vec<String>>,
}

impl<'a> Fields<'a> {
    /// Checks of `map`'s fields, worded by `wording`.
    pub(crate) fn new(map: &'a Map<String, Value>, wording: Wording) -> Self {
        Self {
            map,
            wording,
            errors: BTreeMap::new(),
        }
    }

    /// The field's value unless absent or `null`.
    pub(crate) fn get(&self, field: &str) -> Option<&'a Value> {
        present(self.map, field)
    }

    /// Adds `message` to `field`'s problems.
    pub(crate) fn push(&mut self, field: &str, message: &str) {
        self.errors
            .entry(field.to_owned())
            .or_default()
            .push(message.to_owned());
    }

    /// `field` as an integer (a JSON integer or a digit string) that fits `T`: `None` when
    /// absent, `Some(None)` when it is not one (the problem is recorded).
    pub(crate) fn integer<T: TryFrom<i128>>(&mut self, field: &str) -> Option<Option<T>> {
        let value = self.get(field)?;
        let n = integer(value).and_then(|n| T::try_from(n).ok());
        if n.is_none() {
            let message = self.message(field, Problem::NotInteger);
            self.push(field, &message);
        }
        Some(n)
    }

    /// `field` as an integer from `min` to `max` (no upper bound when `None`), or `default`
    /// when it is absent or breaks a rule (the problem is recorded).
    pub(crate) fn bounded(
        &mut self,
        field: &str,
        default: i128,
        min: i128,
        max: Option<i128>,
    ) -> i128 {
        let problem = match self.integer::<i128>(field) {
            None | Some(None) => return default,
            Some(Some(n)) if n < min => Problem::Below(min),
            Some(Some(n)) if max.is_some_and(|max| n > max) => Problem::Above(max.unwrap_or(n)),
            Some(Some(n)) => return n,
        };
        let message = self.message(field, problem);
        self.push(field, &message);
        default
    }

    /// `field` as a string: `None` when absent, `Some(None)` when it is not a string, or is
    /// empty and `empty` does not keep it (the problem is recorded).
    pub(crate) fn text(&mut self, field: &str, empty: Empty) -> Option<Option<String>> {
        let problem = match self.get(field)? {
            Value::String(s) if s.is_empty() && empty == Empty::Required => Problem::Missing,
            Value::String(s) if s.is_empty() && empty == Empty::Rejected => Problem::EmptyText,
            Value::String(s) => return Some(Some(s.clone())),
            _ => Problem::NotText,
        };
        let message = self.message(field, problem);
        self.push(field, &message);
        Some(None)
    }

    /// `market`, required: `None` (the problem recorded) when missing or empty, not a string
    /// (`… should be a string.` and `… format is invalid.`) or not `BASE_QUOTE` (`Market field
    /// format is invalid.`). Whether it is a market is the caller's check (its code differs).
    pub(crate) fn required_market(&mut self) -> Option<String> {
        match self.text("market", Empty::Required) {
            None => {
                self.required("market");
                None
            }
            Some(Some(name)) if !wire::is_market_name(&name) => {
                self.push("market", market_name::FORMAT_INVALID);
                None
            }
            Some(name) => {
                if self.get("market").is_some_and(|v| !v.is_string()) {
                    self.push("market", market_name::FORMAT_INVALID);
                }
                name
            }
        }
    }

    /// Records that `field` is required.
    pub(crate) fn required(&mut self, field: &str) {
        let message = self.message(field, Problem::Missing);
        self.push(field, &message);
    }

    /// HTTP 422 `Validation failed` with `code` and every problem recorded, if any.
    pub(crate) fn finish(self, code: i64) -> Result<(), Rejection> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(Rejection::fields(code, self.errors))
        }
    }

    /// The message for `problem` with `field`, in this endpoint's wording.
    fn message(&self, field: &str, problem: Problem) -> String {
        match self.wording {
            Wording::Field => {
                let name = label(field);
                match problem {
                    Problem::Missing => format!("{name} field is required."),
                    Problem::NotInteger => format!("{name} field should be an integer."),
                    Problem::Below(min) => format!("{name} should be at least {min}."),
                    Problem::Above(max) => format!("{name} should not be greater than {max}."),
                    Problem::NotText => format!("{name} field should be a string."),
                    Problem::EmptyText => format!("{name} field should not be empty string."),
                }
            }
            Wording::Laravel => {
                let name = words(field);
                match problem {
                    Problem::Missing => format!("The {name} field is required."),
                    Problem::NotInteger => format!("The {name} must be an integer."),
                    Problem::Below(min) => format!("The {name} must be at least {min}."),
                    Problem::Above(max) => format!("The {name} may not be greater than {max}."),
                    Problem::NotText => format!("The {name} must be a string."),
                    Problem::EmptyText => format!("The {name} must not be empty."),
                }
            }
        }
    }
}

/// What is wrong with a field.
#[derive(Debug, Clone, Copy)]
enum Problem {
    Missing,
    NotInteger,
    Below(i128),
    Above(i128),
    NotText,
    EmptyText,
}

/// A wire name as Laravel writes it in messages: `clientOrderId` → `client order id`.
fn words(field: &str) -> String {
    let mut out = String::with_capacity(field.len() + 4);
    for c in field.chars() {
        if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(wording: Wording, body: Value) -> BTreeMap<String, Vec<String>> {
        let Value::Object(map) = body else {
            return BTreeMap::new();
        };
        let mut fields = Fields::new(&map, wording);
        fields.integer::<i128>("orderId");
        fields.bounded("limit", 50, 1, Some(100));
        fields.text("clientOrderId", Empty::Rejected);
        fields.errors
    }

    #[test]
    fn each_wording_names_the_field_its_way() {
        let body = serde_json::json!({"orderId": "x", "limit": 101, "clientOrderId": ""});
        let field = problems(Wording::Field, body.clone());
        assert_eq!(field["orderId"], ["OrderId field should be an integer."]);
        assert_eq!(field["limit"], ["Limit should not be greater than 100."]);
        assert_eq!(
            field["clientOrderId"],
            ["ClientOrderId field should not be empty string."]
        );
        let laravel = problems(Wording::Laravel, body);
        assert_eq!(laravel["orderId"], ["The order id must be an integer."]);
        assert_eq!(laravel["limit"], ["The limit may not be greater than 100."]);
        assert_eq!(
            laravel["clientOrderId"],
            ["The client order id must not be empty."]
        );
    }

    #[test]
    fn good_values_and_absent_fields_are_no_problem() {
        let body = serde_json::json!({"orderId": "12", "limit": 1, "clientOrderId": "a", "x": 1});
        assert!(problems(Wording::Field, body).is_empty());
        assert!(problems(Wording::Laravel, serde_json::json!({"limit": null})).is_empty());
    }
}
