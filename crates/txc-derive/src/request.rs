//! `#[derive(Request)]`: a request's endpoint, body, accessors and builder from its one
//! declaration of each field (see the crate docs for the attributes).

use proc_macro2::TokenStream as Tokens;
use quote::{ToTokens, format_ident, quote};
use syn::{
    Attribute, Data, DeriveInput, Error, Fields, GenericArgument, Ident, LitBool, LitInt, LitStr,
    Path, PathArguments, Type,
};

use crate::names::{RenameAll, SerdeField, docs, for_each_meta, inner, is_named, path_value};

/// Serde field attributes other than `rename`: the derive writes the body itself, so each
/// would be ignored; `#[request(..)]` says what they would.
const REFUSED: [&str; 8] = [
    "skip",
    "skip_serializing",
    "skip_serializing_if",
    "flatten",
    "serialize_with",
    "with",
    "default",
    "alias",
];

/// What the container declares.
struct Container {
    /// `None` for a part (`#[request(part)]`).
    endpoint: Option<EndpointSpec>,
    /// The builder type to define.
    builder: Option<Ident>,
    /// The builder's check of the whole request, after its fields.
    check: Option<Path>,
    /// Whether the type walks its fields itself (`fields = manual`).
    manual: bool,
}

/// The endpoint's constants and hooks.
struct EndpointSpec {
    path: LitStr,
    operation: LitStr,
    kind: Ident,
    response: Type,
    rate_limit: Option<(LitInt, LitInt)>,
    scope: Option<Path>,
    signed: Option<LitBool>,
    error_outcome: Option<Path>,
    check_at: Option<Path>,
}

/// How a field goes on the wire.
enum Walk {
    /// Its value ([`ToWire`]): an `Option` only when set, a `Vec` only when not empty.
    Value,
    /// Its own fields, in place.
    Flatten,
    /// A `Page<MAX_LIMIT, MAX_OFFSET>`: `limit` and `offset`, in place.
    Page,
    /// Not at all.
    Skip,
    /// By a function of its own.
    With(Path),
}

/// How a field's getter returns it.
#[derive(PartialEq)]
enum Get {
    None,
    Ref,
    Copy,
}

/// One field as the derive sees it.
struct FieldSpec<'a> {
    ident: &'a Ident,
    ty: &'a Type,
    wire: String,
    walk: Walk,
    get: Get,
    set: bool,
    of: bool,
    text: bool,
    check: Option<Path>,
    arg: Option<Type>,
    docs: Vec<&'a Attribute>,
}

impl FieldSpec<'_> {
    /// `T` of an `Option<T>` field, else the field's type.
    fn value_ty(&self) -> &Type {
        inner(self.ty, "Option").unwrap_or(self.ty)
    }

    /// The argument a setter or `of_` constructor takes.
    fn arg_ty(&self) -> Tokens {
        let value = self.value_ty();
        match (&self.arg, self.text) {
            (Some(arg), _) => arg.to_token_stream(),
            (None, true) => quote!(impl crate::endpoint::FieldValue<#value>),
            (None, false) => value.to_token_stream(),
        }
    }

    /// The checked value of the argument `ident`, or `?` with its error naming the wire field.
    fn checked(&self) -> Tokens {
        let (ident, wire, value) = (self.ident, &self.wire, self.value_ty());
        match (&self.check, self.text) {
            (Some(check), _) => quote!(#check(#ident, #wire)?),
            (None, true) => {
                quote!(<_ as crate::endpoint::FieldValue<#value>>::into_field(#ident, #wire)?)
            }
            (None, false) => quote!(#ident),
        }
    }

    /// The stored form of [`checked`](Self::checked).
    fn stored(&self) -> Tokens {
        let checked = self.checked();
        if inner(self.ty, "Option").is_some() {
            quote!(::core::option::Option::Some(#checked))
        } else {
            checked
        }
    }
}

pub(crate) fn expand(input: &DeriveInput) -> Result<Tokens, Error> {
    let name = &input.ident;
    let Data::Struct(data) = &input.data else {
        return Err(Error::new_spanned(name, "Request: only structs"));
    };
    let container = container(input)?;
    if container.endpoint.is_some() && !input.generics.params.is_empty() {
        return Err(Error::new_spanned(
            &input.generics,
            "Request: an endpoint cannot be generic (a part can)",
        ));
    }
    let rename_all = RenameAll::of(input, "Request")?;
    let fields = match &data.fields {
        Fields::Named(named) => named
            .named
            .iter()
            .map(|f| field(f, rename_all))
            .collect::<Result<Vec<_>, _>>()?,
        Fields::Unit => Vec::new(),
        Fields::Unnamed(_) => {
            return Err(Error::new_spanned(
                name,
                "Request: only structs with named fields, or unit structs",
            ));
        }
    };
    if container.builder.is_none() && fields.iter().any(|f| f.set) {
        return Err(Error::new_spanned(
            name,
            "Request: `set` needs the container's `builder = …`",
        ));
    }
    let mut out = Tokens::new();
    if !container.manual {
        out.extend(walk(input, &fields));
    }
    if let Some(endpoint) = &container.endpoint {
        out.extend(endpoint_impl(name, endpoint));
    }
    out.extend(accessors(input, &fields, data.fields.len()));
    if container.endpoint.is_some() {
        out.extend(holds_page(name, &fields)?);
    }
    if let Some(builder) = &container.builder {
        out.extend(builder_impl(
            input,
            builder,
            container.check.as_ref(),
            &fields,
        ));
    }
    Ok(out)
}

/// The container's `#[request(…)]`.
fn container(input: &DeriveInput) -> Result<Container, Error> {
    let mut part = false;
    let mut manual = false;
    let (mut builder, mut check) = (None, None);
    let (mut path, mut operation, mut kind, mut response) = (None, None, None, None);
    let (mut rate_limit, mut scope, mut signed) = (None, None, None);
    let (mut error_outcome, mut check_at) = (None, None);
    for_each_meta(&input.attrs, "request", |key, meta| {
        match key {
            "part" => part = true,
            "path" => path = Some(meta.value()?.parse()?),
            "operation" => operation = Some(meta.value()?.parse()?),
            "kind" => kind = Some(meta.value()?.parse()?),
            "response" => response = Some(meta.value()?.parse()?),
            "rate_limit" => {
                let value = meta.value()?;
                let pair;
                syn::parenthesized!(pair in value);
                let requests: LitInt = pair.parse()?;
                pair.parse::<syn::Token![,]>()?;
                rate_limit = Some((requests, pair.parse()?));
            }
            "scope" => scope = Some(path_value(meta)?),
            "signed" => signed = Some(meta.value()?.parse()?),
            "error_outcome" => error_outcome = Some(path_value(meta)?),
            "check_at" => check_at = Some(path_value(meta)?),
            "builder" => builder = Some(meta.value()?.parse()?),
            "check" => check = Some(path_value(meta)?),
            "fields" => {
                let how: Ident = meta.value()?.parse()?;
                if how != "manual" {
                    return Err(meta.error("Request: `fields = manual` or nothing"));
                }
                manual = true;
            }
            _ => return Err(meta.error("Request: unknown container attribute")),
        }
        Ok(())
    })?;
    let endpoint = match (part, path, operation, kind, response) {
        (true, None, None, None, None) => None,
        (false, Some(path), Some(operation), Some(kind), Some(response)) => Some(EndpointSpec {
            path,
            operation,
            kind,
            response,
            rate_limit,
            scope,
            signed,
            error_outcome,
            check_at,
        }),
        _ => {
            return Err(Error::new_spanned(
                &input.ident,
                "Request: give `path`, `operation`, `kind` and `response` (an endpoint), or `part`",
            ));
        }
    };
    if check.is_some() && builder.is_none() {
        return Err(Error::new_spanned(
            &input.ident,
            "Request: `check` is the builder's: add `builder = …`",
        ));
    }
    Ok(Container {
        endpoint,
        builder,
        check,
        manual,
    })
}

/// A field's attributes.
fn field(field: &syn::Field, rename_all: RenameAll) -> Result<FieldSpec<'_>, Error> {
    let Some(ident) = field.ident.as_ref() else {
        return Err(Error::new_spanned(field, "Request: named fields only"));
    };
    let serde = SerdeField::of(field, &REFUSED, "Request", "the wire")?;
    let mut spec = FieldSpec {
        ident,
        ty: &field.ty,
        wire: rename_all.wire(ident, serde.rename),
        walk: Walk::Value,
        get: Get::Ref,
        set: false,
        of: false,
        text: false,
        check: None,
        arg: None,
        docs: docs(&field.attrs),
    };
    for_each_meta(&field.attrs, "request", |key, meta| {
        match key {
            "flatten" => spec.walk = Walk::Flatten,
            "page" => spec.walk = Walk::Page,
            "skip" => spec.walk = Walk::Skip,
            "with" => spec.walk = Walk::With(path_value(meta)?),
            "get" => {
                if !meta.input.peek(syn::Token![=]) {
                    return Err(meta.error(
                        "Request: a field has a getter by default; `get = copy` returns \
                             the value, `get = none` leaves it out",
                    ));
                }
                let how: Ident = meta.value()?.parse()?;
                spec.get = if how == "copy" {
                    Get::Copy
                } else if how == "none" {
                    Get::None
                } else {
                    return Err(meta.error("Request: `get = copy` or `get = none`"));
                };
            }
            "set" => spec.set = true,
            "of" => spec.of = true,
            "text" => spec.text = true,
            "check" => spec.check = Some(path_value(meta)?),
            "arg" => spec.arg = Some(meta.value()?.parse()?),
            _ => return Err(meta.error("Request: unknown field attribute")),
        }
        Ok(())
    })?;
    if matches!(spec.walk, Walk::Page) && spec.get == Get::Ref {
        // A page's getters are its own (`limit`, `offset`).
        spec.get = Get::None;
    }
    let public = spec.get != Get::None || spec.set || spec.of;
    if public && spec.docs.is_empty() {
        return Err(Error::new_spanned(
            ident,
            "Request: document the field: its doc is its getter's, setter's and constructor's",
        ));
    }
    if spec.arg.is_some() && spec.check.is_none() {
        return Err(Error::new_spanned(
            ident,
            "Request: `arg = …` needs the `check` that makes the value",
        ));
    }
    if matches!(spec.walk, Walk::Page) && (public || spec.text) {
        return Err(Error::new_spanned(
            ident,
            "Request: a `page` has its own accessors (`limit`, `offset`)",
        ));
    }
    Ok(spec)
}

/// The field walk: `BodyFields`.
fn walk(input: &DeriveInput, fields: &[FieldSpec<'_>]) -> Tokens {
    let name = &input.ident;
    let (generics, args, bounds) = input.generics.split_for_impl();
    let steps = fields.iter().map(|f| {
        let (ident, wire) = (f.ident, &f.wire);
        match &f.walk {
            Walk::Skip => Tokens::new(),
            Walk::Flatten | Walk::Page => quote! {
                crate::endpoint::BodyFields::visit_fields(&self.#ident, visit)?;
            },
            Walk::With(with) => quote! {
                #with(&self.#ident, #wire, visit)?;
            },
            Walk::Value if inner(f.ty, "Option").is_some() => quote! {
                if let ::core::option::Option::Some(value) = &self.#ident {
                    visit(#wire, crate::endpoint::ToWire::to_wire(value))?;
                }
            },
            Walk::Value if inner(f.ty, "Vec").is_some() => quote! {
                if !self.#ident.is_empty() {
                    let items: ::std::vec::Vec<crate::endpoint::WireValue<'_>> =
                        self.#ident.iter().map(crate::endpoint::ToWire::to_wire).collect();
                    visit(#wire, crate::endpoint::WireValue::List(&items))?;
                }
            },
            Walk::Value => quote! {
                visit(#wire, crate::endpoint::ToWire::to_wire(&self.#ident))?;
            },
        }
    });
    quote! {
        impl #generics crate::endpoint::BodyFields for #name #args #bounds {
            #[inline]
            fn visit_fields<E>(
                &self,
                visit: &mut impl crate::endpoint::Visit<E>,
            ) -> ::core::result::Result<(), E> {
                #(#steps)*
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// `Endpoint` and `Serialize`.
fn endpoint_impl(name: &Ident, e: &EndpointSpec) -> Tokens {
    let (path, operation, kind, response) = (&e.path, &e.operation, &e.kind, &e.response);
    let rate_limit = e.rate_limit.as_ref().map(|(requests, secs)| {
        quote! {
            const RATE_LIMIT: ::core::option::Option<crate::endpoint::RateLimit> =
                ::core::option::Option::Some(crate::endpoint::RateLimit::new(#requests, #secs));
        }
    });
    let scope = e
        .scope
        .as_ref()
        .map(|scope| quote!(const RATE_LIMIT_SCOPE: &'static str = #scope;));
    let signed = e
        .signed
        .as_ref()
        .map(|signed| quote!(const SIGNED: bool = #signed;));
    let error_outcome = e.error_outcome.as_ref().map(|hook| {
        quote! {
            fn error_outcome(
                status: u16,
                code: ::core::option::Option<i64>,
                errors: &::std::collections::BTreeMap<::std::string::String, ::std::vec::Vec<::std::string::String>>,
            ) -> ::core::option::Option<Self::Response> {
                #hook(status, code, errors)
            }
        }
    });
    let check_at = e.check_at.as_ref().map(|hook| {
        quote! {
            fn check_at(
                &self,
                now: ::std::time::SystemTime,
            ) -> ::core::result::Result<(), crate::errors::ValidationError> {
                #hook(self, now)
            }
        }
    });
    quote! {
        impl crate::endpoint::Endpoint for #name {
            const PATH: &'static str = #path;
            const OPERATION: &'static str = #operation;
            const KIND: crate::endpoint::EndpointKind = crate::endpoint::EndpointKind::#kind;
            #rate_limit
            #scope
            #signed
            type Response = #response;
            #error_outcome
            #check_at

            #[inline]
            fn try_for_each_field<E>(
                &self,
                mut visit: impl FnMut(&'static str, crate::endpoint::WireValue<'_>) -> ::core::result::Result<(), E>,
            ) -> ::core::result::Result<(), E> {
                crate::endpoint::BodyFields::visit_fields(self, &mut visit)
            }
        }

        impl ::serde::Serialize for #name {
            /// The body fields as one JSON object, in wire order.
            fn serialize<S: ::serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                crate::endpoint::serialize_fields(self, s)
            }
        }
    }
}

/// The getters and `of_` constructors.
fn accessors(input: &DeriveInput, fields: &[FieldSpec<'_>], field_count: usize) -> Tokens {
    let name = &input.ident;
    let (generics, args, bounds) = input.generics.split_for_impl();
    let methods: Vec<Tokens> = fields.iter().map(|f| {
        let (ident, ty, docs) = (f.ident, f.ty, &f.docs);
        let getter = match f.get {
            Get::None if matches!(f.walk, Walk::Page) => Some(quote! {
                /// The page size, if set.
                pub fn limit(&self) -> ::core::option::Option<u64> {
                    self.#ident.limit
                }

                /// The page's offset, if set.
                pub fn offset(&self) -> ::core::option::Option<u64> {
                    self.#ident.offset
                }
            }),
            Get::None => None,
            Get::Copy => Some(quote!(#(#docs)* pub fn #ident(&self) -> #ty { self.#ident })),
            Get::Ref => {
                let (ret, body) = by_ref(ident, ty);
                Some(quote!(#(#docs)* pub fn #ident(&self) -> #ret { #body }))
            }
        };
        let of = f.of.then(|| {
            let of = format_ident!("of_{}", ident);
            let (arg, stored) = (f.arg_ty(), f.stored());
            let lead = format!("The request with only `{}` set.", f.wire);
            let rest = (field_count > 1).then(|| quote!(..<Self as ::core::default::Default>::default()));
            quote! {
                #[doc = #lead]
                #[doc = ""]
                #(#docs)*
                pub fn #of(#ident: #arg) -> ::core::result::Result<Self, crate::errors::ValidationError> {
                    ::core::result::Result::Ok(Self { #ident: #stored, #rest })
                }
            }
        });
        quote!(#getter #of)
    }).filter(|m| !m.is_empty()).collect();
    if methods.is_empty() {
        return Tokens::new();
    }
    quote! {
        impl #generics #name #args #bounds {
            #(#methods)*
        }
    }
}

/// An endpoint's `HoldsPage`, when it has a `page` (at most one).
fn holds_page(name: &Ident, fields: &[FieldSpec<'_>]) -> Result<Tokens, Error> {
    let mut pages = fields.iter().filter(|f| matches!(f.walk, Walk::Page));
    let Some(page) = pages.next() else {
        return Ok(Tokens::new());
    };
    if let Some(second) = pages.next() {
        return Err(Error::new_spanned(
            second.ident,
            "Request: one `page` per request",
        ));
    }
    let (ident, ty) = (page.ident, page.ty);
    Ok(quote! {
        impl crate::page::HoldsPage for #name {
            const MAX_LIMIT: u64 = <#ty>::LIMIT_BOUND;
            const MAX_OFFSET: u64 = <#ty>::OFFSET_BOUND;
            #[inline]
            fn limit_and_offset(&self) -> (::core::option::Option<u64>, ::core::option::Option<u64>) {
                (self.#ident.limit, self.#ident.offset)
            }
            #[inline]
            fn set_limit_and_offset(&mut self, limit: u64, offset: u64) {
                self.#ident.limit = ::core::option::Option::Some(limit);
                self.#ident.offset = ::core::option::Option::Some(offset);
            }
        }
    })
}

/// A by-reference getter's return type and body.
fn by_ref(ident: &Ident, ty: &Type) -> (Tokens, Tokens) {
    if let Some(inner) = inner(ty, "Option") {
        if is_named(inner, "String") {
            (
                quote!(::core::option::Option<&str>),
                quote!(self.#ident.as_deref()),
            )
        } else {
            (
                quote!(::core::option::Option<&#inner>),
                quote!(self.#ident.as_ref()),
            )
        }
    } else if let Some(inner) = inner(ty, "Vec") {
        (quote!(&[#inner]), quote!(&self.#ident))
    } else if is_named(ty, "String") {
        (quote!(&str), quote!(&self.#ident))
    } else {
        (quote!(&#ty), quote!(&self.#ident))
    }
}

/// The builder: its type, `builder()`, a setter per `set` field (and `limit`/`offset` of a
/// `page`), and `build`.
fn builder_impl(
    input: &DeriveInput,
    builder: &Ident,
    check: Option<&Path>,
    fields: &[FieldSpec<'_>],
) -> Tokens {
    let (name, vis) = (&input.ident, &input.vis);
    let setters = fields.iter().map(|f| {
        let ident = f.ident;
        if matches!(f.walk, Walk::Page) {
            let (limit, offset) = page_bounds(f.ty);
            let limit_doc = format!("At most `limit` records a page, from 1 to {limit}.");
            let offset_doc = format!("Skip the first `offset` records (at most {offset}).");
            return quote! {
                #[doc = #limit_doc]
                pub fn limit(self, limit: u64) -> Self {
                    Self(self.0.set(|request| request.#ident.set_limit(limit)))
                }

                #[doc = #offset_doc]
                pub fn offset(self, offset: u64) -> Self {
                    Self(self.0.set(|request| request.#ident.set_offset(offset)))
                }
            };
        }
        if !f.set {
            return Tokens::new();
        }
        let (docs, arg, stored) = (&f.docs, f.arg_ty(), f.stored());
        quote! {
            #(#docs)*
            pub fn #ident(self, #ident: #arg) -> Self {
                Self(self.0.set(|request| {
                    request.#ident = #stored;
                    ::core::result::Result::Ok(())
                }))
            }
        }
    });
    let type_doc = format!(
        "Builds a [`{name}`]: each setter checks its value, and [`build`](Self::build) \
         reports the first value refused, naming its wire field."
    );
    let start_doc = format!("Starts a [`{builder}`], with nothing set.");
    // `Self::…` names the request's own function; in the builder's impl, `Self` is the builder.
    let check = check.map(|check| {
        let mut check = check.clone();
        if let Some(first) = check.segments.first_mut()
            && first.ident == "Self"
        {
            first.ident = name.clone();
        }
        quote!(#check(&request)?;)
    });
    quote! {
        #[doc = #type_doc]
        #[derive(Debug, Clone)]
        #[must_use = "call .build() to get the request"]
        #vis struct #builder(crate::building::Building<#name>);

        impl #name {
            #[doc = #start_doc]
            pub fn builder() -> #builder {
                #builder(crate::building::Building::new(
                    <Self as ::core::default::Default>::default(),
                ))
            }
        }

        impl #builder {
            #(#setters)*

            /// Returns the request, or the first value refused — and, when every value
            /// passed, the first rule their combination breaks — naming its wire field.
            pub fn build(self) -> ::core::result::Result<#name, crate::errors::ValidationError> {
                let request = self.0.finish()?;
                #check
                ::core::result::Result::Ok(request)
            }
        }
    }
}

/// The written bounds of a `Page<MAX_LIMIT, MAX_OFFSET>`, for the setters' docs.
fn page_bounds(ty: &Type) -> (String, String) {
    let mut bounds = Vec::new();
    if let Type::Path(path) = ty
        && let Some(last) = path.path.segments.last()
        && let PathArguments::AngleBracketed(args) = &last.arguments
    {
        for arg in &args.args {
            let text = match arg {
                GenericArgument::Const(expr) => expr.to_token_stream().to_string(),
                other => other.to_token_stream().to_string(),
            };
            let text = text.trim_matches(['{', '}', ' ']).replace(' ', "");
            bounds.push(if text.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
                text.replace('_', " ")
            } else {
                format!("[`{text}`]")
            });
        }
    }
    let mut bounds = bounds.into_iter();
    let limit = bounds.next().unwrap_or_default();
    (limit, bounds.next().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::expand;
    use crate::names::{assert_contains, assert_in_order, expansion};

    #[test]
    fn fields_go_on_the_wire_in_order_under_their_wire_names() {
        let code = expansion(
            expand,
            syn::parse_quote! {
                #[serde(rename_all = "camelCase")]
                #[request(path = "/api/v4/x", operation = "x", kind = Read, response = X,
                          rate_limit = (1_000, 10), builder = XQueryBuilder)]
                pub struct XQuery {
                    /// The market.
                    #[request(set, text)]
                    market: Option<Market>,
                    /// The kinds.
                    #[serde(rename = "type")]
                    types: Vec<OrderClass>,
                    /// The position.
                    #[request(get = copy)]
                    position_id: u64,
                    #[request(skip, get = none)]
                    ticker: Option<Ticker>,
                    #[request(page)]
                    page: Page<100, 10_000>,
                }
            },
        )
        .unwrap();
        assert_in_order(
            &code,
            &[
                r#"visit ("market" , crate :: endpoint :: ToWire :: to_wire (value)) ?"#,
                r#"visit ("type" , crate :: endpoint :: WireValue :: List (& items)) ?"#,
                r#"visit ("positionId" , crate :: endpoint :: ToWire :: to_wire (& self . position_id)) ?"#,
                "crate :: endpoint :: BodyFields :: visit_fields (& self . page , visit) ?",
            ],
        );
        assert!(!code.contains(r#""ticker""#), "skipped: {code}");
        assert!(!code.contains("fn ticker"), "no getter: {code}");
        assert!(
            !code.contains("fn page"),
            "a page's getters are its own: {code}"
        );
        assert_contains(
            &code,
            &[
                r#"const PATH : & 'static str = "/api/v4/x""#,
                "crate :: endpoint :: RateLimit :: new (1_000 , 10)",
                r#"into_field (market , "market") ?"#,
                "pub fn market (& self) -> :: core :: option :: Option < & Market >",
                "pub fn types (& self) -> & [OrderClass]",
                "pub fn position_id (& self) -> u64",
                "At most `limit` records a page, from 1 to 100.",
                "(at most 10 000)",
                "pub struct XQueryBuilder (crate :: building :: Building < XQuery >)",
                "impl crate :: page :: HoldsPage for XQuery",
                "const MAX_LIMIT : u64 = < Page < 100 , 10_000 > > :: LIMIT_BOUND ;",
                "self . page . limit = :: core :: option :: Option :: Some (limit) ;",
            ],
        );
    }

    #[test]
    fn what_cannot_be_honoured_is_refused() {
        let cases: [(syn::DeriveInput, &str); 8] = [
            (
                syn::parse_quote! { #[request(path = "/x", operation = "x", kind = Read, response = X)]
                struct P { #[request(page)] a: Page<1, 1>, #[request(page)] b: Page<1, 1> } },
                "one `page` per request",
            ),
            (
                syn::parse_quote! { #[request(part)] struct P { #[serde(skip_serializing_if = "x")] a: u64 } },
                "would change the wire",
            ),
            (
                syn::parse_quote! { #[request(path = "/x")] struct P { a: u64 } },
                "give `path`, `operation`, `kind` and `response`",
            ),
            (
                syn::parse_quote! { #[request(part)] struct P { a: u64 } },
                "document the field",
            ),
            (
                syn::parse_quote! { #[request(part)] struct P { /// A.
                #[request(get)] a: u64 } },
                "a getter by default",
            ),
            (
                syn::parse_quote! { #[request(part)] struct P { /// A.
                #[request(page, get = copy)] a: Page<1, 1> } },
                "own accessors",
            ),
            (
                syn::parse_quote! { #[request(part)] struct P { /// A.
                #[request(set)] a: u64 } },
                "needs the container's `builder",
            ),
            (
                syn::parse_quote! { #[request(part)] struct P { /// A.
                #[request(arg = u64)] a: u64 } },
                "needs the `check`",
            ),
        ];
        for (input, message) in cases {
            let error = expansion(expand, input).unwrap_err();
            assert!(error.contains(message), "{message}: {error}");
        }
    }
}
