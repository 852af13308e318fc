//! `#[derive(WireEnum)]`: an enum of wire words or codes — `as_str` / `code`, the parse, and
//! the crate's reading and writing of it — from its variants (see the crate docs).

use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{Attribute, Data, DeriveInput, Error, Fields, Ident, LitInt, LitStr, Type};

use crate::names::{for_each_meta, is_named, skip_value};

/// How the variants' names become their wire words (serde's `rename_all`).
#[derive(Clone, Copy)]
enum Case {
    Lower,
    Upper,
    Snake,
    ScreamingSnake,
}

impl Case {
    fn apply(self, variant: &str) -> String {
        let snake = || {
            let mut out = String::new();
            for (i, c) in variant.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    out.push('_');
                }
                out.extend(c.to_lowercase());
            }
            out
        };
        match self {
            Self::Lower => variant.to_lowercase(),
            Self::Upper => variant.to_uppercase(),
            Self::Snake => snake(),
            Self::ScreamingSnake => snake().to_uppercase(),
        }
    }
}

/// One known variant: its wire word (or code) and the other spellings the parse accepts.
struct Variant<'a> {
    ident: &'a Ident,
    wire: Option<String>,
    aliases: Vec<LitStr>,
    code: Option<LitInt>,
}

/// The `#[wire(other)]` variant that keeps a value this version does not know.
struct Other<'a> {
    ident: &'a Ident,
    /// `String` (a word) or `u64` (a code).
    ty: &'a Type,
}

pub(crate) fn expand(input: &DeriveInput) -> Result<Tokens, Error> {
    let name = &input.ident;
    let Data::Enum(data) = &input.data else {
        return Err(Error::new_spanned(name, "WireEnum: only enums"));
    };
    let (case, try_from) = serde_container(&input.attrs)?;
    let (field, ignore_case) = wire_container(input)?;
    let mut variants = Vec::new();
    let mut other = None;
    for v in &data.variants {
        let attrs = variant_attrs(&v.attrs)?;
        match &v.fields {
            Fields::Unit if !attrs.other => {}
            Fields::Unnamed(one) if attrs.other && one.unnamed.len() == 1 => {
                let Some(kept) = one.unnamed.first() else {
                    continue;
                };
                let ty = &kept.ty;
                if !is_named(ty, "String") && !is_named(ty, "u64") {
                    return Err(Error::new_spanned(
                        ty,
                        "WireEnum: the `other` variant keeps a `String` or a `u64`",
                    ));
                }
                if other
                    .replace(Other {
                        ident: &v.ident,
                        ty,
                    })
                    .is_some()
                {
                    return Err(Error::new_spanned(v, "WireEnum: one `other` variant only"));
                }
                continue;
            }
            _ => {
                return Err(Error::new_spanned(
                    v,
                    "WireEnum: unit variants, and one `#[wire(other)]` variant of one field",
                ));
            }
        }
        let wire = attrs
            .rename
            .or_else(|| case.map(|c| c.apply(&v.ident.to_string())));
        variants.push(Variant {
            ident: &v.ident,
            wire,
            aliases: attrs.aliases,
            code: attrs.code,
        });
    }
    match other {
        Some(other) if is_named(other.ty, "u64") => codes(name, &variants, &other),
        Some(other) => open_words(name, &variants, &words(&variants)?, &other),
        None => {
            let field = field.ok_or_else(|| {
                Error::new_spanned(
                    name,
                    "WireEnum: add #[wire(field = \"…\")], the wire field an unknown word's \
                     error names",
                )
            })?;
            Ok(closed(
                name,
                &variants,
                &words(&variants)?,
                &field,
                ignore_case,
                try_from,
            ))
        }
    }
}

/// Each variant's wire word.
fn words(variants: &[Variant<'_>]) -> Result<Vec<String>, Error> {
    variants
        .iter()
        .map(|v| {
            v.wire.clone().ok_or_else(|| {
                Error::new_spanned(
                    v.ident,
                    "WireEnum: give the container's #[serde(rename_all = …)] or the variant's \
                     #[serde(rename = …)]",
                )
            })
        })
        .collect()
}

/// A closed set of words: an unknown one is an error naming `field`.
fn closed(
    name: &Ident,
    variants: &[Variant<'_>],
    words: &[String],
    field: &LitStr,
    ignore_case: bool,
    try_from: bool,
) -> Tokens {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    let as_str_doc = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("The wire form: {} or {last}.", rest.join(", "))
        }
        _ => format!("The wire form: {}.", quoted.join("")),
    };
    let idents: Vec<&Ident> = variants.iter().map(|v| v.ident).collect();
    let aliases: Vec<&Vec<LitStr>> = variants.iter().map(|v| &v.aliases).collect();
    let unknown = quote! {
        ::core::result::Result::Err(crate::errors::ValidationError::invalid(
            #field,
            crate::errors::Reason::UnknownVariant,
        ))
    };
    let parse = if ignore_case {
        quote! {
            #(
                if s.eq_ignore_ascii_case(#words) #(|| s.eq_ignore_ascii_case(#aliases))* {
                    return ::core::result::Result::Ok(Self::#idents);
                }
            )*
            #unknown
        }
    } else {
        quote! {
            match s {
                #(#words #(| #aliases)* => ::core::result::Result::Ok(Self::#idents),)*
                _ => #unknown,
            }
        }
    };
    let try_from = try_from.then(|| {
        quote! {
            impl ::core::convert::TryFrom<::std::borrow::Cow<'_, str>> for #name {
                type Error = crate::errors::ValidationError;
                fn try_from(
                    s: ::std::borrow::Cow<'_, str>,
                ) -> ::core::result::Result<Self, Self::Error> {
                    s.parse()
                }
            }
        }
    });
    quote! {
        impl #name {
            #[doc = #as_str_doc]
            pub fn as_str(self) -> &'static str {
                match self {
                    #(Self::#idents => #words,)*
                }
            }
        }

        impl ::core::str::FromStr for #name {
            type Err = crate::errors::ValidationError;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                #parse
            }
        }

        #try_from

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl crate::lenient::Word for #name {}

        impl crate::endpoint::ToWire for #name {
            #[inline]
            fn to_wire(&self) -> crate::endpoint::WireValue<'_> {
                crate::endpoint::WireValue::Str(self.as_str())
            }
        }
    }
}

/// An open set of words: an unknown one is kept as sent in the `other` variant.
fn open_words(
    name: &Ident,
    variants: &[Variant<'_>],
    words: &[String],
    other: &Other<'_>,
) -> Result<Tokens, Error> {
    if let Some(v) = variants.iter().find(|v| !v.aliases.is_empty()) {
        return Err(Error::new_spanned(
            v.ident,
            "WireEnum: aliases are for closed sets",
        ));
    }
    let idents: Vec<&Ident> = variants.iter().map(|v| v.ident).collect();
    let keep = other.ident;
    Ok(quote! {
        impl #name {
            /// The wire form.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#idents => #words,)*
                    Self::#keep(s) => s,
                }
            }

            /// The known value `s` names, if any.
            fn known(s: &str) -> ::core::option::Option<Self> {
                ::core::option::Option::Some(match s {
                    #(#words => Self::#idents,)*
                    _ => return ::core::option::Option::None,
                })
            }
        }

        impl ::core::convert::From<::std::string::String> for #name {
            fn from(s: ::std::string::String) -> Self {
                Self::known(&s).unwrap_or(Self::#keep(s))
            }
        }

        impl ::core::convert::From<&str> for #name {
            /// Copies the text only when it is not a known value.
            fn from(s: &str) -> Self {
                Self::known(s).unwrap_or_else(|| Self::#keep(::std::borrow::ToOwned::to_owned(s)))
            }
        }

        impl ::core::str::FromStr for #name {
            type Err = ::core::convert::Infallible;
            /// Every text is a value: a known one, or the one kept as sent.
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                ::core::result::Result::Ok(Self::from(s))
            }
        }

        impl crate::lenient::Word for #name {}

        impl ::core::convert::From<#name> for ::std::string::String {
            fn from(value: #name) -> Self {
                match value {
                    #name::#keep(s) => s,
                    known => ::std::borrow::ToOwned::to_owned(known.as_str()),
                }
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    })
}

/// An open set of numeric codes (`#[wire(code = N)]`): an unknown one is kept as its number.
fn codes(name: &Ident, variants: &[Variant<'_>], other: &Other<'_>) -> Result<Tokens, Error> {
    let codes = variants
        .iter()
        .map(|v| {
            v.code
                .clone()
                .ok_or_else(|| Error::new_spanned(v.ident, "WireEnum: give #[wire(code = N)]"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let idents: Vec<&Ident> = variants.iter().map(|v| v.ident).collect();
    let keep = other.ident;
    Ok(quote! {
        impl #name {
            /// The code on the wire.
            pub fn code(self) -> u64 {
                match self {
                    #(Self::#idents => #codes,)*
                    Self::#keep(code) => code,
                }
            }

            /// The value of `code`.
            pub fn from_code(code: u64) -> Self {
                match code {
                    #(#codes => Self::#idents,)*
                    other => Self::#keep(other),
                }
            }
        }

        impl crate::lenient::FromWire for #name {
            /// A number, as a number or a digit string.
            fn from_wire(value: &crate::lenient::Scalar<'_>) -> ::core::option::Option<Self> {
                crate::lenient::code(value).map(Self::from_code)
            }
        }

        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_u64(self.code())
            }
        }
    })
}

/// The container's `#[serde(rename_all = …)]`, and whether it has `try_from`.
fn serde_container(attrs: &[Attribute]) -> Result<(Option<Case>, bool), Error> {
    let (mut case, mut try_from) = (None, false);
    for_each_meta(attrs, "serde", |key, meta| {
        try_from |= key == "try_from";
        if key != "rename_all" {
            return skip_value(meta);
        }
        let value: LitStr = meta.value()?.parse()?;
        case = Some(match value.value().as_str() {
            "lowercase" => Case::Lower,
            "UPPERCASE" => Case::Upper,
            "snake_case" => Case::Snake,
            "SCREAMING_SNAKE_CASE" => Case::ScreamingSnake,
            _ => {
                return Err(meta.error(
                    "WireEnum: rename_all = \"lowercase\", \"UPPERCASE\", \"snake_case\" or \
                     \"SCREAMING_SNAKE_CASE\"",
                ));
            }
        });
        Ok(())
    })?;
    Ok((case, try_from))
}

/// The container's `#[wire(field = "…", ignore_case)]`.
fn wire_container(input: &DeriveInput) -> Result<(Option<LitStr>, bool), Error> {
    let (mut field, mut ignore_case) = (None, false);
    for_each_meta(&input.attrs, "wire", |key, meta| {
        match key {
            "field" => field = Some(meta.value()?.parse()?),
            "ignore_case" => ignore_case = true,
            _ => return Err(meta.error("WireEnum: expected `field = \"…\"` or `ignore_case`")),
        }
        Ok(())
    })?;
    Ok((field, ignore_case))
}

/// A variant's `#[serde(rename = …)]` and `#[wire(alias = …, code = …, other)]`.
#[derive(Default)]
struct VariantAttrs {
    rename: Option<String>,
    aliases: Vec<LitStr>,
    code: Option<LitInt>,
    other: bool,
}

fn variant_attrs(attrs: &[Attribute]) -> Result<VariantAttrs, Error> {
    let mut out = VariantAttrs::default();
    for_each_meta(attrs, "serde", |key, meta| {
        if key != "rename" {
            return skip_value(meta);
        }
        out.rename = Some(meta.value()?.parse::<LitStr>()?.value());
        Ok(())
    })?;
    for_each_meta(attrs, "wire", |key, meta| {
        match key {
            "alias" => out.aliases.push(meta.value()?.parse()?),
            "code" => out.code = Some(meta.value()?.parse()?),
            "other" => out.other = true,
            _ => {
                return Err(meta.error("WireEnum: expected `alias = \"…\"`, `code = N` or `other`"));
            }
        }
        Ok(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::{Case, expand};
    use crate::names::{assert_contains, expansion};

    #[test]
    fn words_from_serde_names_aliases_and_the_field_of_the_error() {
        let code = expansion(
            expand,
            syn::parse_quote! {
                #[serde(try_from = "std::borrow::Cow<'_, str>")]
                #[wire(field = "stp")]
                enum Stp {
                    #[serde(rename = "no")]
                    No,
                    #[serde(rename = "cb")]
                    #[wire(alias = "cancel_both")]
                    CancelBoth,
                }
            },
        )
        .unwrap();
        assert_contains(
            &code,
            &[
                r#"Self :: No => "no""#,
                r#""cb" | "cancel_both" => :: core :: result :: Result :: Ok (Self :: CancelBoth)"#,
                r#"ValidationError :: invalid ("stp" , crate :: errors :: Reason :: UnknownVariant"#,
                "The wire form: `no` or `cb`.",
                "for Stp",
                "fn try_from (s : :: std :: borrow :: Cow < '_ , str > ,)",
                "impl crate :: lenient :: Word for Stp",
            ],
        );
    }

    #[test]
    fn any_case_when_asked_and_no_try_from_unless_serde_uses_it() {
        let code = expansion(
            expand,
            syn::parse_quote! {
                #[serde(rename_all = "UPPERCASE")]
                #[wire(field = "positionSide", ignore_case)]
                enum PositionSide { Long, Short }
            },
        )
        .unwrap();
        assert!(
            code.contains(r#"if s . eq_ignore_ascii_case ("LONG")"#),
            "{code}"
        );
        assert!(!code.contains("TryFrom"), "{code}");
    }

    #[test]
    fn what_it_cannot_name_is_refused() {
        let cases: [(syn::DeriveInput, &str); 5] = [
            (
                syn::parse_quote! { enum X { #[wire(code = 1)] A, #[wire(other)] Other(u64), B } },
                "give #[wire(code = N)]",
            ),
            (
                syn::parse_quote! { enum X { #[serde(rename = "a")] A, #[wire(other)] Other(i64) } },
                "a `String` or a `u64`",
            ),
            (
                syn::parse_quote! { #[wire(field = "x")] enum X { A } },
                "rename_all",
            ),
            (
                syn::parse_quote! { #[serde(rename_all = "lowercase")] enum X { A } },
                "field",
            ),
            (
                syn::parse_quote! { #[serde(rename_all = "lowercase")] #[wire(field = "x")] enum X { A(u8) } },
                "unit variants, and one",
            ),
        ];
        for (input, message) in cases {
            let error = expansion(expand, input).unwrap_err();
            assert!(error.contains(message), "{message}: {error}");
        }
    }

    #[test]
    fn an_open_set_keeps_what_it_does_not_know() {
        let words = expansion(
            expand,
            syn::parse_quote! {
                #[serde(rename_all = "SCREAMING_SNAKE_CASE", from = "String", into = "String")]
                enum Status { PartiallyFilled, #[wire(other)] Unknown(String) }
            },
        )
        .unwrap();
        assert_contains(
            &words,
            &[
                r#"Self :: PartiallyFilled => "PARTIALLY_FILLED""#,
                "Self :: Unknown (s) => s",
                r#""PARTIALLY_FILLED" => Self :: PartiallyFilled"#,
                "type Err = :: core :: convert :: Infallible",
                "for :: std :: string :: String",
            ],
        );
        let codes = expansion(expand, syn::parse_quote! {
            enum Kind { #[wire(code = 1)] New, #[wire(code = 3)] Finished, #[wire(other)] Other(u64) }
        })
        .unwrap();
        assert_contains(
            &codes,
            &[
                "Self :: Finished => 3",
                "3 => Self :: Finished",
                "other => Self :: Other (other)",
                "s . serialize_u64 (self . code ())",
            ],
        );
    }

    #[test]
    fn cases_as_serde_writes_them() {
        assert_eq!(
            Case::ScreamingSnake.apply("PartiallyFilled"),
            "PARTIALLY_FILLED"
        );
        assert_eq!(Case::Lower.apply("CancelBoth"), "cancelboth");
        assert_eq!(Case::Upper.apply("Long"), "LONG");
        assert_eq!(Case::Snake.apply("MarginCall"), "margin_call");
    }
}
