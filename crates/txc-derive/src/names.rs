//! What both derives read the same way: a field's wire name from serde's `rename_all` /
//! `rename`, the `T` of an `Option<T>` or `Vec<T>`, a field's doc comment, and attribute values.

use syn::meta::ParseNestedMeta;
use syn::{
    Attribute, DeriveInput, Error, GenericArgument, Ident, LitStr, Path, PathArguments, Type,
};

/// The container's `rename_all` rule.
#[derive(Clone, Copy)]
pub(crate) enum RenameAll {
    /// Field names as written.
    None,
    /// `snake_case` → `camelCase`.
    CamelCase,
}

impl RenameAll {
    /// The container's `#[serde(rename_all = …)]`; other serde container attributes are
    /// passed over.
    pub(crate) fn of(input: &DeriveInput, who: &str) -> Result<Self, Error> {
        let mut rule = Self::None;
        for attr in input.attrs.iter().filter(|a| a.path().is_ident("serde")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename_all") {
                    let value: LitStr = meta.value()?.parse()?;
                    rule = match value.value().as_str() {
                        "camelCase" => Self::CamelCase,
                        _ => {
                            return Err(
                                meta.error(format!("{who}: only rename_all = \"camelCase\""))
                            );
                        }
                    };
                    Ok(())
                } else {
                    skip_value(&meta)
                }
            })?;
        }
        Ok(rule)
    }

    /// The wire name of the field `ident`, unless it has a `rename` of its own.
    pub(crate) fn wire(self, ident: &Ident, rename: Option<String>) -> String {
        rename.unwrap_or_else(|| self.apply(&ident.to_string()))
    }

    pub(crate) fn apply(self, field: &str) -> String {
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

/// What a field's `#[serde(…)]` says: its `rename`, whether it is `flatten`ed, and how it is
/// written (`serialize_with`, `skip_serializing`). Any key in `refused` is an error naming
/// `who`: the derive would otherwise do `what` differently from what the attribute says.
pub(crate) struct SerdeField {
    pub(crate) rename: Option<String>,
    pub(crate) flatten: bool,
    pub(crate) serialize_with: Option<Path>,
    pub(crate) skip_serializing: bool,
}

impl SerdeField {
    pub(crate) fn of(
        field: &syn::Field,
        refused: &[&str],
        who: &str,
        what: &str,
    ) -> Result<Self, Error> {
        let mut out = Self {
            rename: None,
            flatten: false,
            serialize_with: None,
            skip_serializing: false,
        };
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    let name: LitStr = meta.value()?.parse()?;
                    out.rename = Some(name.value());
                    Ok(())
                } else if refused.iter().any(|r| meta.path.is_ident(r)) {
                    Err(meta.error(format!(
                        "{who}: this serde attribute would change {what}; use #[{}(..)]",
                        who.to_lowercase()
                    )))
                } else if meta.path.is_ident("flatten") {
                    out.flatten = true;
                    Ok(())
                } else if meta.path.is_ident("serialize_with") {
                    out.serialize_with = Some(path_value(&meta)?);
                    Ok(())
                } else if meta.path.is_ident("skip_serializing") {
                    out.skip_serializing = true;
                    Ok(())
                } else {
                    skip_value(&meta)
                }
            })?;
        }
        Ok(out)
    }
}

/// Consumes `= value` of an attribute the derive does not read (`serialize_with`, …).
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> Result<(), Error> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Lit = meta.value()?.parse()?;
    }
    Ok(())
}

/// A path given as `key = path` or `key = "path"`.
pub(crate) fn path_value(meta: &ParseNestedMeta<'_>) -> Result<Path, Error> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse::<LitStr>()?.parse()
    } else {
        value.parse()
    }
}

/// `T` of a field typed `Wrapper<T>` (`Option`, `Vec`).
pub(crate) fn inner<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
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

/// Whether `ty` is the path `name` (`String`, `u64`, …).
pub(crate) fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident(name))
}

/// The `#[doc = …]` attributes of an item, to give a generated item the same docs.
pub(crate) fn docs(attrs: &[Attribute]) -> Vec<&Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("doc")).collect()
}
