//! The derives behind `txc-types`' requests, answers and wire enums: each record declares each
//! field (each enum each word) once, and these write the code that reads or writes it.
//!
//! **What it is for:** `txc-types` only. The generated code calls that crate's private items
//! (`crate::lenient`, `crate::endpoint`'s walk, `crate::building`), so it compiles nowhere
//! else; this crate has no API of its own and follows `txc-types`' version. **What it is not
//! for:** anything else — other crates use `serde`'s derives.
//!
//! In both, a field's **wire name** comes from `#[serde(rename = "…")]` or the container's
//! `#[serde(rename_all = "camelCase")]`, so one spelling serves both directions; other serde
//! field attributes that would make the derive differ from what they say are refused with a
//! compile error rather than ignored.
//!
//! # `#[derive(Answer)]`: an answer's lenient decoder and its `Serialize`
//!
//! From a struct with named fields it generates the struct's `Deserialize` impl by
//! `txc-types`' leniency rule (see that crate's `lenient` module): a parts struct holding each
//! field as an `Option`, the `ObjectFields` impl (one match arm per wire name, and the step that
//! turns the parts into the record), and `Deserialize`; and its `Serialize`, the text serde's
//! derive wrote for the same declaration. Everything is read from the field list:
//!
//! - a field is **required** unless its type is `Option<…>`: an answer without it is an error
//!   naming it, unless `#[answer(missing = path)]` gives a function that makes the value;
//! - a field is converted by its type's `FromWire` impl, or by `#[answer(with = path)]`, a
//!   function `fn(&mut Option<T>, Field<'_, 'de, A>) -> Result<Set, A::Error>` for the few
//!   fields with a rule of their own (`""` meaning "none", a nested object);
//! - `#[answer(alias = "…")]` (any number of them) names other keys the field is read from —
//!   the same order record arrives with `postOnly` from one endpoint and `post_only` from
//!   another; it is written back under its wire name only;
//! - the one `#[serde(flatten)]` field (a JSON map) is the record's `extra`, which keeps what
//!   the rule does not place;
//! - the container's `#[answer(expecting = "…")]` names the record in error messages;
//! - written back, the fields go in declaration order under their wire names, then `extra`'s
//!   entries; an `Option` is left out when `None` (`#[answer(always)]` writes it, as `null`
//!   or as its `serialize_with` has it), `#[serde(serialize_with = path)]` writes a field by a
//!   function, `#[serde(skip_serializing)]` leaves it out. `skip_serializing_if` is refused:
//!   the rule for `Option`s is the derive's.
//!
//! ```text
//! #[derive(Answer)]
//! #[serde(rename_all = "camelCase")]
//! #[answer(expecting = "an oto object")]
//! pub struct Oto {
//!     pub oto_id: u64,                     // "otoId", required
//!     pub stop_loss: Option<ExactDecimal>, // "stopLoss", optional
//!     #[serde(flatten)]
//!     pub extra: Map<String, Value>,       // everything else
//! }
//! ```
//!
//! # `#[derive(Request)]`: a request's endpoint, body, accessors and builder
//!
//! The container's `#[request(…)]` names the endpoint — `path`, `operation`, `kind` (`Read`,
//! `Order`, `Idempotent`), `response` (a type), and if it has them `rate_limit = (requests,
//! seconds)`, `scope` (the rate limit's, a constant), `signed = false`, and the hooks
//! `error_outcome` / `check_at` (functions with the `Endpoint` methods' arguments; `check_at`
//! takes the request first) — and the derive writes `Endpoint` and `Serialize`. `part` instead
//! marks a group of fields other requests flatten in (no endpoint of its own). Each field goes
//! on the wire in declaration order (`BodyFields`), by its type's `ToWire`: an `Option` only
//! when set, a `Vec` only when not empty, anything else always; `flatten` walks a part in
//! place, `skip` leaves a field off the wire, `with = path` writes it by a function
//! `fn(&T, wire_name, &mut impl Visit<E>) -> Result<(), E>`. `fields = manual` leaves the walk
//! to a hand-written `BodyFields` (the two orders, whose shared fields take the activation
//! price in their middle).
//!
//! The same declaration gives the request's public surface, each item documented by the
//! field's own doc comment:
//!
//! - a getter, for every field but a `page` (`Option<&T>`, `&T`, `&[T]`, `&str` for text);
//!   `get = copy` returns the value, `get = none` leaves the getter out;
//! - `set`: a setter on the builder named by the container's `builder = Name` — the derive
//!   defines that type (wrapping `Building<Self>`), `Self::builder()`, and `build()`, which
//!   runs the container's `check = path` (`fn(&Self) -> Result<(), ValidationError>`, the rules
//!   of a combination) once every value passed;
//! - `of`: a constructor `of_<field>` of the request with only that field set;
//! - what those take: the field's type; with `text`, `impl FieldValue<T>` (a validated value or
//!   its text); with `check = path`, `path(arg, wire_name) -> Result<T, ValidationError>`
//!   makes the value from an argument of the field's type or of `arg = Type`. Every refusal
//!   names the field by the same wire name the body uses.
//! - `page` on a `Page<MAX_LIMIT, MAX_OFFSET>` field (one per request): `limit` and `offset` on
//!   the wire, their getters, their setters checked against the bounds, and — on an endpoint —
//!   `HoldsPage`, through which `txc-types`' paging rules read and move the page.
//!
//! ```text
//! #[derive(Debug, Clone, Default, PartialEq, Eq, Request)]
//! #[serde(rename_all = "camelCase")]
//! #[request(path = "/api/v4/conditional-orders", operation = "conditional_orders",
//!           kind = Read, rate_limit = (12_000, 10), response = ConditionalOrders,
//!           builder = ConditionalOrdersQueryBuilder)]
//! pub struct ConditionalOrdersQuery {
//!     /// The market filter: only records of this market.
//!     #[request(set, text)]
//!     market: Option<Market>,          // "market", sent when set
//!     #[request(page)]
//!     page: Page<100, 4_294_967_295>,  // "limit", "offset"
//! }
//! ```
//!
//! # `#[derive(WireEnum)]`: an enum of wire words or codes
//!
//! For an enum of unit variants (`Side`, `Stp`, …), each variant's **wire word** comes from
//! the same serde attributes its `Serialize` uses — the container's `rename_all`
//! (`lowercase`, `UPPERCASE`, `snake_case`) or the variant's `rename` — and the derive writes
//! `as_str`, `FromStr` (the word, each `#[wire(alias = "…")]`, in any case with the
//! container's `#[wire(ignore_case)]`; anything else is `ValidationError::invalid(field,
//! UnknownVariant)` naming the container's `#[wire(field = "…")]`), `Display`, the answer
//! reader's `Word`, the request writer's `ToWire`, and — when serde reads it with
//! `try_from = "Cow<str>"` — that `TryFrom`.
//!
//! An **open** set keeps what it does not know in its one `#[wire(other)]` variant: with a
//! `String` (`OrderStatus::Unknown`), the words as above (also `SCREAMING_SNAKE_CASE`) and
//! `as_str`, an infallible `FromStr`, `From<String>` / `From<&str>` / `Into<String>` (what
//! serde's `from`/`into` use), `Display` and `Word`; with a `u64` (the stream's codes), each
//! variant's `#[wire(code = N)]`, `code()`, `from_code()`, the reader's `FromWire` and
//! `Serialize` as the number.
//!
//! ```text
//! #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, WireEnum)]
//! #[serde(try_from = "std::borrow::Cow<'_, str>")]
//! #[wire(field = "stp")]
//! pub enum Stp {
//!     #[serde(rename = "no")]
//!     No,
//!     #[serde(rename = "cb")]
//!     #[wire(alias = "cancel_both")]
//!     CancelBoth,
//! }
//! ```
//!
//! Why a derive, for each: the alternatives each keep a second list of the fields (or
//! variants) — a hand-written walk, `Serialize`, setter and getter per field, a `match` per
//! direction per enum, or a declarative table apart from the struct and its doc comments — and
//! a name written twice can differ. The generated
//! code is what was written by hand before (the same calls, inlined), so it runs as fast:
//! `txc-sign`'s signing benchmark and `txc-types`' decode benchmark measure it.

mod answer;
mod names;
mod request;
mod wire_enum;

use proc_macro::TokenStream;
use syn::{Error, parse_macro_input};

/// Derives an answer record's `Deserialize` by `txc-types`' leniency rule, and its
/// `Serialize`; see the crate docs.
#[proc_macro_derive(Answer, attributes(answer, serde))]
pub fn derive_answer(input: TokenStream) -> TokenStream {
    derive(input, answer::expand)
}

/// Derives a request's `Endpoint`, `Serialize`, field walk, accessors and builder; see the
/// crate docs.
#[proc_macro_derive(Request, attributes(request, serde))]
pub fn derive_request(input: TokenStream) -> TokenStream {
    derive(input, request::expand)
}

/// Derives an enum of wire words' or codes' `as_str` / `code`, its parse, `Display` and the
/// crate's reading and writing of it; see the crate docs.
#[proc_macro_derive(WireEnum, attributes(wire, serde))]
pub fn derive_wire_enum(input: TokenStream) -> TokenStream {
    derive(input, wire_enum::expand)
}

/// Runs `expand` on the item `input`; an error becomes a compile error at its span.
fn derive(
    input: TokenStream,
    expand: fn(&syn::DeriveInput) -> Result<proc_macro2::TokenStream, Error>,
) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    expand(&input)
        .unwrap_or_else(Error::into_compile_error)
        .into()
}
