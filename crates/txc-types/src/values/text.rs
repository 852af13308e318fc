//! What the validated texts share — [`Market`](super::Market), [`Ticker`](super::Ticker),
//! [`ClientOrderId`](super::ClientOrderId), [`Amount`](super::Amount), [`Price`](super::Price):
//! each is its own type holding the exact wire string, checked by its own rule (a function),
//! with the same constructors and trait impls.
//!
//! Those impls come from one small macro, [`validated_text!`]: the rules differ per type, the
//! rest is identical, and it cannot be a blanket impl over a trait — `Display`, `FromStr`,
//! `AsRef<str>` and serde's traits are foreign, so coherence allows them only on each type —
//! and each type's page must show `new` and `as_str` as its own methods. The checks themselves
//! are shared functions ([`check_chars`]), not macro text.

use crate::errors::{Reason, ValidationError};

/// The value of a validated text newtype as the exchange sent it in an answer, unchecked: the
/// exchange is the authority on what it sends, so answers never fail on a text the
/// request-side rule would refuse.
pub(crate) trait Unchecked {
    /// `text` as the newtype, unchecked.
    fn unchecked(text: String) -> Self;
}

/// Defines the newtype `$name(String)` — its docs, its wire field `$field` and its rule
/// `$check` (`fn(&str, field) -> Result<(), ValidationError>`) are all that differ — with its
/// constructors (`new`, `as_str`, `FromStr`, [`Validated`](crate::endpoint::Validated)), its
/// display (`Display`, `Debug` as `Name(text)`, `Deref`, `AsRef` and `Borrow` to `str`,
/// comparison with `str`), serde (a JSON string; decoding checks the rule), its body value
/// (`ToWire`) and its lenient reading from answers ([`Unchecked`], `FromWire`).
macro_rules! validated_text {
    ($(#[$doc:meta])* $name:ident, field $field:literal, rule $check:path) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(String);

        impl $name {
            /// The wire field named in errors when a value is parsed on its own.
            pub(crate) const FIELD: &'static str = $field;

            /// Checks `text` by the type's rule and keeps it exactly.
            pub fn new(text: &str) -> Result<Self, $crate::errors::ValidationError> {
                <Self as $crate::endpoint::Validated>::validate(text, Self::FIELD)
            }

            /// The value as sent on the wire.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl $crate::endpoint::Validated for $name {
            fn validate(
                text: &str,
                field: &'static str,
            ) -> Result<Self, $crate::errors::ValidationError> {
                $check(text, field)?;
                Ok(Self(text.to_owned()))
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::errors::ValidationError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::new(s)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!(stringify!($name), "({})"), self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl ::std::ops::Deref for $name {
            type Target = str;
            /// The text, read-only: `&*market`, `order.client_order_id.as_deref()`.
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl ::std::borrow::Borrow<str> for $name {
            /// Maps keyed by the type are searched by text: equality, order and hash are the
            /// text's.
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            /// A JSON string, checked by the type's rule (answers are read leniently instead).
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str>>::deserialize(d)?;
                Self::new(&text).map_err(::serde::de::Error::custom)
            }
        }

        impl $crate::endpoint::ToWire for $name {
            #[inline]
            fn to_wire(&self) -> $crate::endpoint::WireValue<'_> {
                $crate::endpoint::WireValue::Str(&self.0)
            }
        }

        impl $crate::values::text::Unchecked for $name {
            fn unchecked(text: String) -> Self {
                Self(text)
            }
        }

        impl $crate::lenient::FromWire for $name {
            /// Strings, and numbers as their text, unchecked (see `Unchecked`).
            #[inline]
            fn from_wire(value: &$crate::lenient::Scalar<'_>) -> Option<Self> {
                value.text().map(|text| Self(text.to_owned()))
            }
        }
    };
}
pub(crate) use validated_text;

/// Checks length bounds and that every byte satisfies `allowed`.
pub(crate) fn check_chars(
    text: &str,
    field: &'static str,
    max: usize,
    allowed: impl Fn(u8) -> bool,
) -> Result<(), ValidationError> {
    if text.is_empty() {
        return Err(ValidationError::invalid(field, Reason::Empty));
    }
    if text.len() > max {
        return Err(ValidationError::invalid(field, Reason::TooLong { max }));
    }
    if let Some(bad) = text.chars().find(|c| !u8::try_from(*c).is_ok_and(&allowed)) {
        return Err(ValidationError::invalid(
            field,
            Reason::InvalidCharacter(bad),
        ));
    }
    Ok(())
}

/// Upper-case ASCII letters and digits: what tickers are made of.
pub(crate) fn is_upper_alnum(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

/// Tickers and markets are upper case on the wire; say so rather than name a letter.
pub(crate) fn check_upper(text: &str, field: &'static str) -> Result<(), ValidationError> {
    if text.bytes().any(|b| b.is_ascii_lowercase()) {
        return Err(ValidationError::invalid(
            field,
            Reason::Format("must be upper case"),
        ));
    }
    Ok(())
}
