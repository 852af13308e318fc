//! `#[derive(Answer)]`: the lenient decoder of a `txc-types` answer record, generated from the
//! struct's one declaration of its fields.
//!
//! **What it is for:** `txc-types` only. The generated code calls that crate's private decoding
//! functions (`crate::lenient`), so it compiles nowhere else; this crate has no API of its own
//! and follows `txc-types`' version. **What it is not for:** anything else — other crates use
//! `serde`'s derives.
//!
//! From a struct with named fields it generates the struct's `Deserialize` impl by
//! `txc-types`' leniency rule (see that crate's `lenient` module): a parts struct holding each
//! field as an `Option`, the `ObjectFields` impl (one match arm per wire name, and the step that
//! turns the parts into the record), and `Deserialize`. Everything is read from the field list:
//!
//! - a field's **wire name** comes from the same `#[serde(rename = "…")]` or container
//!   `#[serde(rename_all = "camelCase")]` that its `Serialize` uses, so a name is written once
//!   for both directions;
//! - a field is **required** unless its type is `Option<…>`: an answer without it is an error
//!   naming it, unless `#[answer(missing = path)]` gives a function that makes the value;
//! - a field is converted by its type's `FromWire` impl, or by `#[answer(with = path)]`, a
//!   function `fn(&mut Option<T>, Field<'_, 'de, A>) -> Result<Set, A::Error>` for the few
//!   fields with a rule of their own (`""` meaning "none", a nested object);
//! - the one `#[serde(flatten)]` field (a JSON map) is the record's `extra`, which keeps what
//!   the rule does not place;
//! - the container's `#[answer(expecting = "…")]` names the record in error messages.
//!
//! ```text
//! #[derive(Serialize, Answer)]
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
//! Serde attributes that would make decoding differ from the declaration (`skip`, `alias`,
//! `default`, `deserialize_with`, …) are refused with a compile error rather than ignored.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::{
    Data, DeriveInput, Error, Fields, GenericArgument, Ident, LitStr, Path, PathArguments, Type,
    parse_macro_input,
};

/// Derives `Deserialize` for an answer record by `txc-types`' leniency rule; see the crate docs.
#[proc_macro_derive(Answer, attributes(answer))]
pub fn derive_answer(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(Error::into_compile_error)
        .into()
}

/// One field as the decoder sees it.
struct FieldSpec {
    ident: Ident,
    /// The key on the wire.
    wire: String,
    /// The type of the parts struct's slot: `Option<T>`.
    slot: Tokens,
    /// Whether the field is an `Option<T>`.
    optional: bool,
    /// The function that stores the value.
    with: Option<Path>,
    /// The function that makes the value when the answer has none.
    missing: Option<Path>,
}

fn expand(input: &DeriveInput) -> Result<Tokens, Error> {
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return Err(Error::new_spanned(
            &input.generics,
            "Answer: generic records are not supported",
        ));
    }
    let Data::Struct(data) = &input.data else {
        return Err(Error::new_spanned(
            name,
            "Answer: only structs with named fields",
        ));
    };
    let Fields::Named(named) = &data.fields else {
        return Err(Error::new_spanned(
            name,
            "Answer: only structs with named fields",
        ));
    };
    let (rename_all, expecting) = container_attrs(input)?;
    let expecting = expecting.ok_or_else(|| {
        Error::new_spanned(name, "Answer: add #[answer(expecting = \"a … object\")]")
    })?;

    let mut fields = Vec::new();
    let mut extra: Option<Ident> = None;
    for field in &named.named {
        let Some(ident) = field.ident.clone() else {
            continue;
        };
        let attrs = field_attrs(field)?;
        if attrs.flatten {
            if extra.replace(ident.clone()).is_some() {
                return Err(Error::new_spanned(
                    &ident,
                    "Answer: one #[serde(flatten)] map only",
                ));
            }
            continue;
        }
        let wire = match attrs.rename {
            Some(wire) => wire,
            None => rename_all.apply(&ident.to_string()),
        };
        let (optional, inner) = match option_inner(&field.ty) {
            Some(inner) => (true, inner),
            None => (false, &field.ty),
        };
        if optional && attrs.missing.is_some() {
            return Err(Error::new_spanned(
                &ident,
                "Answer: `missing` is for required fields",
            ));
        }
        fields.push(FieldSpec {
            ident,
            wire,
            slot: quote!(::core::option::Option<#inner>),
            optional,
            with: attrs.with,
            missing: attrs.missing,
        });
    }
    let extra = extra.ok_or_else(|| {
        Error::new_spanned(
            name,
            "Answer: add the `extra` map, marked #[serde(flatten)]",
        )
    })?;

    let parts = Ident::new(&format!("{name}AnswerParts"), Span::call_site());
    let slots = fields.iter().map(|f| {
        let (ident, slot) = (&f.ident, &f.slot);
        quote!(#ident: #slot)
    });
    let arms = fields.iter().map(|f| {
        let (ident, wire) = (&f.ident, &f.wire);
        match &f.with {
            Some(with) => quote!(#wire => #with(&mut parts.#ident, field)),
            None => quote!(#wire => crate::lenient::put(&mut parts.#ident, field)),
        }
    });
    let finished = fields.iter().map(|f| {
        let (ident, wire) = (&f.ident, &f.wire);
        match (&f.missing, f.optional) {
            (_, true) => quote!(#ident: parts.#ident),
            (Some(missing), false) => quote!(#ident: parts.#ident.unwrap_or_else(#missing)),
            (None, false) => quote!(#ident: parts.#ident.ok_or(#wire)?),
        }
    });

    Ok(quote! {
        #[doc(hidden)]
        #[derive(Default)]
        pub(crate) struct #parts {
            #(#slots,)*
        }

        impl crate::lenient::ObjectFields for #name {
            type Parts = #parts;
            const EXPECTING: &'static str = #expecting;

            fn set<'de, A: ::serde::de::MapAccess<'de>>(
                parts: &mut #parts,
                key: &str,
                field: crate::lenient::Field<'_, 'de, A>,
            ) -> ::core::result::Result<crate::lenient::Set, A::Error> {
                match key {
                    #(#arms,)*
                    _ => ::core::result::Result::Ok(crate::lenient::Set::Unknown),
                }
            }

            fn finish(
                parts: #parts,
                extra: &mut ::serde_json::Map<::std::string::String, ::serde_json::Value>,
            ) -> ::core::result::Result<Self, &'static str> {
                ::core::result::Result::Ok(Self {
                    #(#finished,)*
                    #extra: ::core::mem::take(extra),
                })
            }
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            /// Decodes by the crate's leniency rule (see the type's docs); decode from JSON text.
            fn deserialize<D: ::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                crate::lenient::deserialize_object(d)
            }
        }
    })
}

/// The container's `rename_all` rule.
#[derive(Clone, Copy)]
enum RenameAll {
    /// Field names as written.
    None,
    /// `snake_case` → `camelCase`.
    CamelCase,
}

impl RenameAll {
    fn apply(self, field: &str) -> String {
        match self {
            Self::None => field.to_owned(),
            Self::CamelCase => {
                let mut out = String::with_capacity(field.len());
                let mut upper = false;
                for c in field.chars() {
                    if c == '_' {
                        upper = true;
                    } else if upper {
                        out.extend(c.to_uppercase());
                        upper = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
        }
    }
}

/// `#[serde(rename_all = …)]` and `#[answer(expecting = …)]` of the container.
fn container_attrs(input: &DeriveInput) -> Result<(RenameAll, Option<LitStr>), Error> {
    let mut rename_all = RenameAll::None;
    let mut expecting = None;
    for attr in &input.attrs {
        if attr.path().is_ident("serde") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename_all") {
                    let rule: LitStr = meta.value()?.parse()?;
                    rename_all = match rule.value().as_str() {
                        "camelCase" => RenameAll::CamelCase,
                        _ => return Err(meta.error("Answer: only rename_all = \"camelCase\"")),
                    };
                    Ok(())
                } else {
                    skip_value(&meta)
                }
            })?;
        } else if attr.path().is_ident("answer") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("expecting") {
                    expecting = Some(meta.value()?.parse()?);
                    Ok(())
                } else {
                    Err(meta.error("Answer: unknown container attribute"))
                }
            })?;
        }
    }
    Ok((rename_all, expecting))
}

/// What a field's attributes say about decoding it.
#[derive(Default)]
struct FieldAttrs {
    rename: Option<String>,
    flatten: bool,
    with: Option<Path>,
    missing: Option<Path>,
}

/// Serde field attributes that change how a field is decoded: refused, since this derive would
/// otherwise decode differently from what the attribute says.
const REFUSED: [&str; 7] = [
    "skip",
    "skip_deserializing",
    "alias",
    "default",
    "deserialize_with",
    "with",
    "borrow",
];

fn field_attrs(field: &syn::Field) -> Result<FieldAttrs, Error> {
    let mut out = FieldAttrs::default();
    for attr in &field.attrs {
        if attr.path().is_ident("serde") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let name: LitStr = meta.value()?.parse()?;
                    out.rename = Some(name.value());
                    Ok(())
                } else if meta.path.is_ident("flatten") {
                    out.flatten = true;
                    Ok(())
                } else if REFUSED.iter().any(|r| meta.path.is_ident(r)) {
                    Err(meta.error(
                        "Answer: this serde attribute would change decoding; use #[answer(..)]",
                    ))
                } else {
                    skip_value(&meta)
                }
            })?;
        } else if attr.path().is_ident("answer") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("with") {
                    out.with = Some(meta.value()?.parse::<LitStr>()?.parse()?);
                    Ok(())
                } else if meta.path.is_ident("missing") {
                    out.missing = Some(meta.value()?.parse::<LitStr>()?.parse()?);
                    Ok(())
                } else {
                    Err(meta.error("Answer: expected `with` or `missing`"))
                }
            })?;
        }
    }
    Ok(out)
}

/// Consumes `= value` of an attribute this derive does not read (`serialize_with`, …).
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> Result<(), Error> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Lit = meta.value()?.parse()?;
    }
    Ok(())
}

/// `T` of a field typed `Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::{RenameAll, expand};

    fn expanded(input: syn::DeriveInput) -> Result<String, String> {
        expand(&input)
            .map(|t| t.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn one_arm_per_wire_name_and_required_fields_named() {
        let code = expanded(syn::parse_quote! {
            #[serde(rename_all = "camelCase")]
            #[answer(expecting = "an order object")]
            struct Order {
                order_id: u64,
                #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
                order_type: Option<OrderType>,
                #[answer(with = "crate::lenient::object")]
                oto: Option<Oto>,
                #[answer(missing = "String::new")]
                market: String,
                #[serde(flatten)]
                extra: Map<String, Value>,
            }
        })
        .unwrap();
        for part in [
            r#""orderId" => crate :: lenient :: put (& mut parts . order_id , field)"#,
            r#""type" => crate :: lenient :: put (& mut parts . order_type , field)"#,
            r#""oto" => crate :: lenient :: object (& mut parts . oto , field)"#,
            r#"order_id : parts . order_id . ok_or ("orderId") ?"#,
            "order_type : parts . order_type ,",
            "market : parts . market . unwrap_or_else (String :: new)",
            "extra : :: core :: mem :: take (extra)",
            r#"const EXPECTING : & 'static str = "an order object""#,
        ] {
            assert!(code.contains(part), "{part} not in {code}");
        }
    }

    #[test]
    fn attributes_that_would_change_decoding_are_refused() {
        let refused = expanded(syn::parse_quote! {
            #[answer(expecting = "x")]
            struct X {
                #[serde(default)]
                a: u64,
                #[serde(flatten)]
                extra: Map<String, Value>,
            }
        });
        assert!(refused.unwrap_err().contains("would change decoding"));
        let no_extra = expanded(syn::parse_quote! {
            #[answer(expecting = "x")]
            struct X { a: u64 }
        });
        assert!(no_extra.unwrap_err().contains("extra"));
        let no_expecting = expanded(syn::parse_quote! {
            struct X { #[serde(flatten)] extra: Map<String, Value> }
        });
        assert!(no_expecting.unwrap_err().contains("expecting"));
    }

    #[test]
    fn camel_case_as_serde_writes_it() {
        for (field, wire) in [
            ("order_id", "orderId"),
            ("max_possible_investment", "maxPossibleInvestment"),
            ("ctime", "ctime"),
            ("activation_price", "activationPrice"),
        ] {
            assert_eq!(RenameAll::CamelCase.apply(field), wire);
        }
        assert_eq!(
            RenameAll::None.apply("activation_price"),
            "activation_price"
        );
    }
}
