//! A checker of JSON values against the spec's OpenAPI 3.0 schemas, for the conformance
//! tests: the subset the fixtures keep (`nullable` is not JSON Schema, so a JSON Schema crate
//! would not read them as written).

use serde_json::{Map, Value};

/// Whether `value` fits `schema` (OpenAPI 3.0: `type`, `nullable`, `enum`, `properties`,
/// `required`, `additionalProperties`, `items`, `minItems`, `maxItems`, `oneOf`, `allOf`);
/// the first misfit, with where.
pub fn fits(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
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
            fits(s, value, at)?;
        }
    }
    if let Some(one) = schema["oneOf"].as_array() {
        let matching = one.iter().filter(|s| fits(s, value, at).is_ok()).count();
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
            other => return fail(format!("unknown type {other}")),
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
    if let Value::Object(map) = value {
        object(schema, map, at)?;
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
                fits(&schema["items"], item, &format!("{at}[{i}]"))?;
            }
        }
    }
    Ok(())
}

fn object(schema: &Value, map: &Map<String, Value>, at: &str) -> Result<(), String> {
    for required in schema["required"].as_array().into_iter().flatten() {
        let name = required.as_str().unwrap_or_default();
        if !map.contains_key(name) {
            return Err(format!("{at}: `{name}` is required"));
        }
    }
    for (key, value) in map {
        let here = format!("{at}.{key}");
        match (
            schema["properties"].get(key),
            schema.get("additionalProperties"),
        ) {
            (Some(property), _) => fits(property, value, &here)?,
            (None, Some(extra)) if extra.is_object() => fits(extra, value, &here)?,
            (None, Some(Value::Bool(false))) => return Err(format!("{here}: not allowed")),
            _ => {}
        }
    }
    Ok(())
}
