//! `#[derive(Answer)]`: an answer record's lenient decoder and its `Serialize` (see the crate
//! docs).

use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::{Data, DeriveInput, Error, Fields, Ident, LitStr, Path, Type};

use crate::names::{RenameAll, SerdeField, for_each_meta, inner, path_value};

/// One field as the decoder and the writer see it.
struct FieldSpec {
    ident: Ident,
    ty: Type,
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
    /// Other keys it is read from (`#[answer(alias = "…")]`); written under `wire` only.
    aliases: Vec<LitStr>,
    /// How `Serialize` writes it.
    write: Write,
}

/// How `Serialize` writes a field.
enum Write {
    /// Its value; an `Option` only when `Some`, unless `#[answer(always)]`.
    Value { always: bool },
    /// By `#[serde(serialize_with = path)]`; an `Option` only when `Some`, unless `always`.
    With { path: Path, always: bool },
    /// Not at all (`#[serde(skip_serializing)]`).
    Skip,
}

/// Serde field attributes that change how a field is read or written: refused, since this
/// derive would otherwise do differently from what the attribute says (`skip_serializing_if`:
/// an `Option` is left out when `None` unless `#[answer(always)]`).
const REFUSED: [&str; 8] = [
    "skip",
    "skip_serializing_if",
    "skip_deserializing",
    "alias",
    "default",
    "deserialize_with",
    "with",
    "borrow",
];

pub(crate) fn expand(input: &DeriveInput) -> Result<Tokens, Error> {
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
    let rename_all = RenameAll::of(input, "Answer")?;
    let expecting = expecting(input)?.ok_or_else(|| {
        Error::new_spanned(name, "Answer: add #[answer(expecting = \"a … object\")]")
    })?;

    let mut fields = Vec::new();
    let mut extra: Option<Ident> = None;
    for field in &named.named {
        let Some(ident) = field.ident.clone() else {
            continue;
        };
        let serde = SerdeField::of(field, &REFUSED, "Answer", "reading or writing")?;
        if serde.flatten {
            if extra.replace(ident.clone()).is_some() {
                return Err(Error::new_spanned(
                    &ident,
                    "Answer: one #[serde(flatten)] map only",
                ));
            }
            continue;
        }
        let attrs = answer_attrs(field)?;
        let wire = rename_all.wire(&ident, serde.rename);
        let (optional, inner) = match inner(&field.ty, "Option") {
            Some(inner) => (true, inner),
            None => (false, &field.ty),
        };
        if optional && attrs.missing.is_some() {
            return Err(Error::new_spanned(
                &ident,
                "Answer: `missing` is for required fields",
            ));
        }
        if attrs.always && !optional {
            return Err(Error::new_spanned(
                &ident,
                "Answer: `always` is for `Option` fields (others are always written)",
            ));
        }
        let write = match (serde.skip_serializing, serde.serialize_with) {
            (true, _) => Write::Skip,
            (false, Some(path)) => Write::With {
                path,
                always: attrs.always || !optional,
            },
            (false, None) => Write::Value {
                always: attrs.always || !optional,
            },
        };
        fields.push(FieldSpec {
            ident,
            ty: field.ty.clone(),
            wire,
            slot: quote!(::core::option::Option<#inner>),
            optional,
            with: attrs.with,
            missing: attrs.missing,
            aliases: attrs.aliases,
            write,
        });
    }
    let extra = extra.ok_or_else(|| {
        Error::new_spanned(
            name,
            "Answer: add the `extra` map, marked #[serde(flatten)]",
        )
    })?;

    let written = serialize(name, &fields, &extra);
    let parts = Ident::new(&format!("{name}AnswerParts"), Span::call_site());
    let slots = fields.iter().map(|f| {
        let (ident, slot) = (&f.ident, &f.slot);
        quote!(#ident: #slot)
    });
    let arms = fields.iter().map(|f| {
        let (ident, wire, aliases) = (&f.ident, &f.wire, &f.aliases);
        match &f.with {
            Some(with) => quote!(#wire #(| #aliases)* => #with(&mut parts.#ident, field)),
            None => quote!(#wire #(| #aliases)* => crate::lenient::put(&mut parts.#ident, field)),
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

        #written
    })
}

/// The record's `Serialize`: one JSON object, as serde's derive would write the same
/// declaration — each field in declaration order under its wire name (an `Option` only when
/// `Some`, unless `always`), then the `extra` map's entries.
fn serialize(name: &Ident, fields: &[FieldSpec], extra: &Ident) -> Tokens {
    let entries = fields.iter().map(|f| {
        let (ident, ty, wire) = (&f.ident, &f.ty, &f.wire);
        let (entry, always) = match &f.write {
            Write::Skip => return Tokens::new(),
            Write::Value { always } => (
                quote!(::serde::ser::SerializeMap::serialize_entry(&mut map, #wire, &self.#ident)?;),
                *always,
            ),
            Write::With { path, always } => (
                quote! {
                    struct With<'a>(&'a #ty);
                    impl ::serde::Serialize for With<'_> {
                        fn serialize<S: ::serde::Serializer>(
                            &self,
                            s: S,
                        ) -> ::core::result::Result<S::Ok, S::Error> {
                            #path(self.0, s)
                        }
                    }
                    ::serde::ser::SerializeMap::serialize_entry(&mut map, #wire, &With(&self.#ident))?;
                },
                *always,
            ),
        };
        if always {
            quote!({ #entry })
        } else {
            quote! {
                if ::core::option::Option::is_some(&self.#ident) {
                    #entry
                }
            }
        }
    });
    quote! {
        impl ::serde::Serialize for #name {
            /// The record as one JSON object: each field under its wire name (an absent
            /// `Option` left out), then the `extra` map's entries.
            fn serialize<S: ::serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                let mut map = ::serde::Serializer::serialize_map(s, ::core::option::Option::None)?;
                #(#entries)*
                for (key, value) in &self.#extra {
                    ::serde::ser::SerializeMap::serialize_entry(&mut map, key, value)?;
                }
                ::serde::ser::SerializeMap::end(map)
            }
        }
    }
}

/// The container's `#[answer(expecting = …)]`.
fn expecting(input: &DeriveInput) -> Result<Option<LitStr>, Error> {
    let mut expecting = None;
    for_each_meta(&input.attrs, "answer", |key, meta| {
        if key != "expecting" {
            return Err(meta.error("Answer: unknown container attribute"));
        }
        expecting = Some(meta.value()?.parse()?);
        Ok(())
    })?;
    Ok(expecting)
}

/// A field's `#[answer(…)]`.
#[derive(Default)]
struct AnswerAttrs {
    /// `with = path`: the function that stores the value.
    with: Option<Path>,
    /// `missing = path`: the function that makes an absent required value.
    missing: Option<Path>,
    /// `always`: an `Option` written when `None` too.
    always: bool,
    /// `alias = "…"` (any number): other keys the field is read from.
    aliases: Vec<LitStr>,
}

fn answer_attrs(field: &syn::Field) -> Result<AnswerAttrs, Error> {
    let mut out = AnswerAttrs::default();
    for_each_meta(&field.attrs, "answer", |key, meta| {
        match key {
            "with" => out.with = Some(path_value(meta)?),
            "missing" => out.missing = Some(path_value(meta)?),
            "always" => out.always = true,
            "alias" => out.aliases.push(meta.value()?.parse()?),
            _ => {
                return Err(meta.error("Answer: expected `with`, `missing`, `always` or `alias`"));
            }
        }
        Ok(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::expand;
    use crate::names::RenameAll;
    use crate::names::{assert_contains, assert_in_order, expansion};

    #[test]
    fn one_arm_per_wire_name_and_required_fields_named() {
        let code = expansion(
            expand,
            syn::parse_quote! {
                #[serde(rename_all = "camelCase")]
                #[answer(expecting = "an order object")]
                struct Order {
                    order_id: u64,
                    #[serde(rename = "type")]
                    order_type: Option<OrderType>,
                    #[answer(with = "crate::lenient::object")]
                    oto: Option<Oto>,
                    #[answer(alias = "post_only", alias = "postonly")]
                    post_only: Option<bool>,
                    #[serde(skip_serializing)]
                    #[answer(missing = "String::new")]
                    market: String,
                    #[serde(serialize_with = "empty_when_none")]
                    #[answer(always)]
                    client_order_id: Option<ClientOrderId>,
                    #[serde(flatten)]
                    extra: Map<String, Value>,
                }
            },
        )
        .unwrap();
        assert_contains(
            &code,
            &[
                r#""orderId" => crate :: lenient :: put (& mut parts . order_id , field)"#,
                r#""type" => crate :: lenient :: put (& mut parts . order_type , field)"#,
                r#""oto" => crate :: lenient :: object (& mut parts . oto , field)"#,
                r#""postOnly" | "post_only" | "postonly" => crate :: lenient :: put (& mut parts . post_only , field)"#,
                r#"order_id : parts . order_id . ok_or ("orderId") ?"#,
                "order_type : parts . order_type ,",
                "market : parts . market . unwrap_or_else (String :: new)",
                "extra : :: core :: mem :: take (extra)",
                r#"const EXPECTING : & 'static str = "an order object""#,
            ],
        );
        // Written in declaration order: a required field always, an `Option` when `Some`
        // (or always), a `serialize_with` through its function, a skipped one not at all.
        let written = &code[code.find("impl :: serde :: Serialize").unwrap()..];
        assert_in_order(
            written,
            &[
                r#"serialize_entry (& mut map , "orderId" , & self . order_id) ?"#,
                r#"if :: core :: option :: Option :: is_some (& self . order_type) { :: serde :: ser :: SerializeMap :: serialize_entry (& mut map , "type" , & self . order_type) ? ; }"#,
                r#"serialize_entry (& mut map , "oto" , & self . oto)"#,
                "empty_when_none (self . 0 , s)",
                r#"serialize_entry (& mut map , "clientOrderId" , & With (& self . client_order_id)) ?"#,
                "for (key , value) in & self . extra",
            ],
        );
        assert!(!written.contains(r#""market""#), "skipped: {written}");
        assert!(
            !written.contains("is_some (& self . client_order_id)"),
            "always: {written}"
        );
    }

    #[test]
    fn attributes_that_would_change_decoding_are_refused() {
        let refused = expansion(
            expand,
            syn::parse_quote! {
                #[answer(expecting = "x")]
                struct X {
                    #[serde(default)]
                    a: u64,
                    #[serde(flatten)]
                    extra: Map<String, Value>,
                }
            },
        );
        assert!(
            refused
                .unwrap_err()
                .contains("would change reading or writing")
        );
        let no_extra = expansion(
            expand,
            syn::parse_quote! {
                #[answer(expecting = "x")]
                struct X { a: u64 }
            },
        );
        assert!(no_extra.unwrap_err().contains("extra"));
        let no_expecting = expansion(
            expand,
            syn::parse_quote! {
                struct X { #[serde(flatten)] extra: Map<String, Value> }
            },
        );
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
