//! The one checker of JSON values against the spec's OpenAPI 3.0 schemas, for every
//! conformance test — txc-types' request bodies and the examples' answers (`examples/tests`
//! includes this file): the subset the fixtures keep (`nullable` is not JSON Schema, so a JSON
//! Schema crate would not read them as written) — and txc-types' request schemas it checks
//! bodies against.

// `pub` for the examples, which reach it as `common::openapi`; each test binary uses part of it.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use serde_json::{Map, Value};

/// txc-types' request schemas (`fixtures/request_schemas.json`, the schemas' facts copied from
/// the spec), by path.
pub fn request_schemas() -> Value {
    serde_json::from_str(include_str!("../fixtures/request_schemas.json")).unwrap()
}

/// Whether `value` fits `schema` (OpenAPI 3.0: `type`, `nullable`, `enum`, `minimum`,
/// `maximum`, `properties`, `required`, `additionalProperties`, `items`, `minItems`,
/// `maxItems`, `oneOf`, `allOf`); the first misfit, with where. A property the schema does not
/// name is allowed unless `additionalProperties` says otherwise — an answer may carry more.
pub fn fits(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    check(schema, value, at, Objects::Open)
}

/// Whether the request body `value` conforms to `schema`: as [`fits`], and a property the
/// schema does not name is refused too — a body sends nothing the spec does not name.
pub fn conforms(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    check(schema, value, at, Objects::Closed)
}

/// What an object may hold beyond the schema's properties.
#[derive(Clone, Copy, PartialEq)]
enum Objects {
    /// What `additionalProperties` allows (anything when it is absent).
    Open,
    /// Nothing.
    Closed,
}

fn check(schema: &Value, value: &Value, at: &str, objects: Objects) -> Result<(), String> {
    let fail = |why: String| Err(format!("{at}: {why}"));
    if value.is_null() {
        return if schema["nullable"] == true || schema.get("type").is_none() {
            Ok(())
        } else {
            fail("null where the schema is not nullable".into())
        };
    }
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            check(s, value, at, objects)?;
        }
    }
    if let Some(one) = schema["oneOf"].as_array() {
        let matching = one
            .iter()
            .filter(|s| check(s, value, at, objects).is_ok())
            .count();
        if matching != 1 {
            return fail(format!("{matching} of oneOf's {} schemas fit", one.len()));
        }
    }
    if let Some(kind) = schema["type"].as_str() {
        let ok = match kind {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            other => return fail(format!("unknown schema type {other}")),
        };
        if !ok {
            return fail(format!("{value} is not of type {kind}"));
        }
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.contains(value)
    {
        return fail(format!("{value} is not one of {allowed:?}"));
    }
    if let (Some(min), Some(n)) = (schema["minimum"].as_f64(), value.as_f64())
        && n < min
    {
        return fail(format!("{n} is below {min}"));
    }
    if let (Some(max), Some(n)) = (schema["maximum"].as_f64(), value.as_f64())
        && n > max
    {
        return fail(format!("{n} is above {max}"));
    }
    if let Value::Object(map) = value {
        object(schema, map, at, objects)?;
    }
    if let Value::Array(items) = value {
        let n = items.len() as u64;
        if schema["minItems"].as_u64().is_some_and(|min| n < min)
            || schema["maxItems"].as_u64().is_some_and(|max| n > max)
        {
            return fail(format!("{n} items"));
        }
        if schema.get("items").is_some_and(Value::is_object) {
            for (i, item) in items.iter().enumerate() {
                check(&schema["items"], item, &format!("{at}[{i}]"), objects)?;
            }
        }
    }
    Ok(())
}

fn object(
    schema: &Value,
    map: &Map<String, Value>,
    at: &str,
    objects: Objects,
) -> Result<(), String> {
    for required in schema["required"].as_array().into_iter().flatten() {
        let name = required.as_str().unwrap_or_default();
        if !map.contains_key(name) {
            return Err(format!("{at}: {name} is required"));
        }
    }
    for (key, value) in map {
        let here = format!("{at}.{key}");
        match (
            schema["properties"].get(key),
            schema.get("additionalProperties"),
        ) {
            (Some(property), _) => check(property, value, &here, objects)?,
            (None, _) if objects == Objects::Closed => {
                return Err(format!("{at}: {key} is not a property of the schema"));
            }
            (None, Some(extra)) if extra.is_object() => check(extra, value, &here, objects)?,
            (None, Some(Value::Bool(false))) => return Err(format!("{here}: not allowed")),
            _ => {}
        }
    }
    Ok(())
}
