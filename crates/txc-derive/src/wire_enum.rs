//! `#[derive(WireEnum)]`: a closed enum of wire words — `as_str`, `FromStr`, `Display` and the
//! crate's reading and writing of it — from its variants (see the crate docs).

use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{Attribute, Data, DeriveInput, Error, Fields, Ident, LitStr};

use crate::names::skip_value;

/// How the variants' names become their wire words (serde's `rename_all`).
#[derive(Clone, Copy)]
enum Case {
    Lower,
    Upper,
    Snake,
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
        }
    }
}

/// One variant: its wire word and the other spellings `FromStr` accepts.
struct Variant<'a> {
    ident: &'a Ident,
    wire: String,
    aliases: Vec<LitStr>,
}

pub(crate) fn expand(input: &DeriveInput) -> Result<Tokens, Error> {
    let name = &input.ident;
    let Data::Enum(data) = &input.data else {
        return Err(Error::new_spanned(name, "WireEnum: only enums"));
    };
    let (case, try_from) = serde_container(&input.attrs)?;
    let (field, ignore_case) = wire_container(input)?;
    let mut variants = Vec::new();
    for v in &data.variants {
        if !matches!(v.fields, Fields::Unit) {
            return Err(Error::new_spanned(v, "WireEnum: unit variants only"));
        }
        let (rename, aliases) = variant_attrs(&v.attrs)?;
        let wire = match (rename, case) {
            (Some(rename), _) => rename,
            (None, Some(case)) => case.apply(&v.ident.to_string()),
            (None, None) => {
                return Err(Error::new_spanned(
                    v,
                    "WireEnum: give the container's #[serde(rename_all = …)] or the variant's \
                     #[serde(rename = …)]",
                ));
            }
        };
        variants.push(Variant {
            ident: &v.ident,
            wire,
            aliases,
        });
    }

    let words: Vec<String> = variants.iter().map(|v| format!("`{}`", v.wire)).collect();
    let as_str_doc = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("The wire form: {} or {last}.", rest.join(", "))
        }
        _ => format!("The wire form: {}.", words.join("")),
    };
    let arms = variants.iter().map(|v| {
        let (ident, wire) = (v.ident, &v.wire);
        quote!(Self::#ident => #wire)
    });
    let parse = if ignore_case {
        let checks = variants.iter().map(|v| {
            let (ident, wire, aliases) = (v.ident, &v.wire, &v.aliases);
            quote! {
                if s.eq_ignore_ascii_case(#wire) #(|| s.eq_ignore_ascii_case(#aliases))* {
                    return ::core::result::Result::Ok(Self::#ident);
                }
            }
        });
        quote! {
            #(#checks)*
            ::core::result::Result::Err(crate::errors::ValidationError::invalid(
                #field,
                crate::errors::Reason::UnknownVariant,
            ))
        }
    } else {
        let arms = variants.iter().map(|v| {
            let (ident, wire, aliases) = (v.ident, &v.wire, &v.aliases);
            quote!(#wire #(| #aliases)* => ::core::result::Result::Ok(Self::#ident))
        });
        quote! {
            match s {
                #(#arms,)*
                _ => ::core::result::Result::Err(crate::errors::ValidationError::invalid(
                    #field,
                    crate::errors::Reason::UnknownVariant,
                )),
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
    Ok(quote! {
        impl #name {
            #[doc = #as_str_doc]
            pub fn as_str(self) -> &'static str {
                match self {
                    #(#arms,)*
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
    })
}

/// The container's `#[serde(rename_all = …)]`, and whether it has `try_from`.
fn serde_container(attrs: &[Attribute]) -> Result<(Option<Case>, bool), Error> {
    let (mut case, mut try_from) = (None, false);
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                let value: LitStr = meta.value()?.parse()?;
                case = Some(match value.value().as_str() {
                    "lowercase" => Case::Lower,
                    "UPPERCASE" => Case::Upper,
                    "snake_case" => Case::Snake,
                    _ => {
                        return Err(meta.error(
                            "WireEnum: rename_all = \"lowercase\", \"UPPERCASE\" or \"snake_case\"",
                        ));
                    }
                });
                Ok(())
            } else {
                try_from |= meta.path.is_ident("try_from");
                skip_value(&meta)
            }
        })?;
    }
    Ok((case, try_from))
}

/// The container's `#[wire(field = "…", ignore_case)]`.
fn wire_container(input: &DeriveInput) -> Result<(LitStr, bool), Error> {
    let (mut field, mut ignore_case) = (None, false);
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("wire")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("field") {
                field = Some(meta.value()?.parse()?);
                Ok(())
            } else if meta.path.is_ident("ignore_case") {
                ignore_case = true;
                Ok(())
            } else {
                Err(meta.error("WireEnum: expected `field = \"…\"` or `ignore_case`"))
            }
        })?;
    }
    let field = field.ok_or_else(|| {
        Error::new_spanned(
            &input.ident,
            "WireEnum: add #[wire(field = \"…\")], the wire field an unknown word's error names",
        )
    })?;
    Ok((field, ignore_case))
}

/// A variant's `#[serde(rename = …)]` and `#[wire(alias = …)]`s.
fn variant_attrs(attrs: &[Attribute]) -> Result<(Option<String>, Vec<LitStr>), Error> {
    let (mut rename, mut aliases) = (None, Vec::new());
    for attr in attrs {
        if attr.path().is_ident("serde") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let value: LitStr = meta.value()?.parse()?;
                    rename = Some(value.value());
                    Ok(())
                } else {
                    skip_value(&meta)
                }
            })?;
        } else if attr.path().is_ident("wire") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("alias") {
                    aliases.push(meta.value()?.parse()?);
                    Ok(())
                } else {
                    Err(meta.error("WireEnum: expected `alias = \"…\"`"))
                }
            })?;
        }
    }
    Ok((rename, aliases))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::{Case, expand};

    fn expanded(input: syn::DeriveInput) -> Result<String, String> {
        expand(&input)
            .map(|t| t.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn words_from_serde_names_aliases_and_the_field_of_the_error() {
        let code = expanded(syn::parse_quote! {
            #[serde(try_from = "std::borrow::Cow<'_, str>")]
            #[wire(field = "stp")]
            enum Stp {
                #[serde(rename = "no")]
                No,
                #[serde(rename = "cb")]
                #[wire(alias = "cancel_both")]
                CancelBoth,
            }
        })
        .unwrap();
        for part in [
            r#"Self :: No => "no""#,
            r#""cb" | "cancel_both" => :: core :: result :: Result :: Ok (Self :: CancelBoth)"#,
            r#"ValidationError :: invalid ("stp" , crate :: errors :: Reason :: UnknownVariant"#,
            "The wire form: `no` or `cb`.",
            "for Stp",
            "fn try_from (s : :: std :: borrow :: Cow < '_ , str > ,)",
            "impl crate :: lenient :: Word for Stp",
        ] {
            assert!(code.contains(part), "{part} not in {code}");
        }
    }

    #[test]
    fn any_case_when_asked_and_no_try_from_unless_serde_uses_it() {
        let code = expanded(syn::parse_quote! {
            #[serde(rename_all = "UPPERCASE")]
            #[wire(field = "positionSide", ignore_case)]
            enum PositionSide { Long, Short }
        })
        .unwrap();
        assert!(
            code.contains(r#"if s . eq_ignore_ascii_case ("LONG")"#),
            "{code}"
        );
        assert!(!code.contains("TryFrom"), "{code}");
    }

    #[test]
    fn what_it_cannot_name_is_refused() {
        let cases: [(syn::DeriveInput, &str); 3] = [
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
                "unit variants only",
            ),
        ];
        for (input, message) in cases {
            let error = expanded(input).unwrap_err();
            assert!(error.contains(message), "{message}: {error}");
        }
    }

    #[test]
    fn cases_as_serde_writes_them() {
        assert_eq!(Case::Lower.apply("CancelBoth"), "cancelboth");
        assert_eq!(Case::Upper.apply("Long"), "LONG");
        assert_eq!(Case::Snake.apply("MarginCall"), "margin_call");
    }
}
