//! What the derives read the same way: the keys of an attribute, a field's wire name from
//! serde's `rename_all` / `rename`, the `T` of an `Option<T>` or `Vec<T>`, a field's doc
//! comment, and attribute values.

use syn::meta::ParseNestedMeta;
use syn::{
    Attribute, DeriveInput, Error, GenericArgument, Ident, LitStr, Path, PathArguments, Type,
};

/// Calls `each(key, meta)` for every `key` or `key = value` of the `#[name(…)]` attributes in
/// `attrs`; `key` is empty for a path of more than one segment.
pub(crate) fn for_each_meta(
    attrs: &[Attribute],
    name: &str,
    mut each: impl FnMut(&str, &ParseNestedMeta<'_>) -> Result<(), Error>,
) -> Result<(), Error> {
    for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
        attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(Ident::to_string)
                .unwrap_or_default();
            each(&key, &meta)
        })?;
    }
    Ok(())
}

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
        for_each_meta(&input.attrs, "serde", |key, meta| {
            if key != "rename_all" {
                return skip_value(meta);
            }
            let value: LitStr = meta.value()?.parse()?;
            if value.value() != "camelCase" {
                return Err(meta.error(format!("{who}: only rename_all = \"camelCase\"")));
            }
            rule = Self::CamelCase;
            Ok(())
        })?;
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
        for_each_meta(&field.attrs, "serde", |key, meta| {
            if refused.contains(&key) {
                return Err(meta.error(format!(
                    "{who}: this serde attribute would change {what}; use #[{}(..)]",
                    who.to_lowercase()
                )));
            }
            match key {
                "rename" => out.rename = Some(meta.value()?.parse::<LitStr>()?.value()),
                "flatten" => out.flatten = true,
                "serialize_with" => out.serialize_with = Some(path_value(meta)?),
                "skip_serializing" => out.skip_serializing = true,
                _ => return skip_value(meta),
            }
            Ok(())
        })?;
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

/// A derive's expansion of `input` as text, or its error's: what the derives' tests read.
#[cfg(test)]
pub(crate) fn expansion(
    expand: fn(&DeriveInput) -> Result<proc_macro2::TokenStream, Error>,
    input: DeriveInput,
) -> Result<String, String> {
    expand(&input)
        .map(|t| t.to_string())
        .map_err(|e| e.to_string())
}

/// Asserts that each of `parts` stands in `code`: what the derives' tests check of generated
/// code.
#[cfg(test)]
pub(crate) fn assert_contains(code: &str, parts: &[&str]) {
    for part in parts {
        assert!(code.contains(part), "{part} not in {code}");
    }
}

/// Asserts that each of `parts` stands in `code`, in this order: what the derives' tests check
/// of the order of generated steps.
#[cfg(test)]
#[allow(clippy::panic, reason = "a test's assertion")]
pub(crate) fn assert_in_order(code: &str, parts: &[&str]) {
    let at: Vec<usize> = parts
        .iter()
        .map(|part| {
            code.find(part)
                .unwrap_or_else(|| panic!("{part} not in {code}"))
        })
        .collect();
    assert!(at.is_sorted(), "{code}");
}

/// The `#[doc = …]` attributes of an item, to give a generated item the same docs.
pub(crate) fn docs(attrs: &[Attribute]) -> Vec<&Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("doc")).collect()
}
