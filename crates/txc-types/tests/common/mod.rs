//! What the test files share: the spec's request schemas (`fixtures/request_schemas.json`,
//! the schemas' facts copied from the spec) and the check that a body conforms to one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;
use txc_types::endpoint::Endpoint;

/// The request schemas, by path.
pub(crate) fn schemas() -> Value {
    serde_json::from_str(include_str!("../fixtures/request_schemas.json")).unwrap()
}

/// Whether `value` conforms to the schema fragment `schema` (type, enum, bounds, required
/// properties, items); a property the schema does not list is refused too — a body sends
/// nothing the spec does not name. The error says where.
pub(crate) fn conforms(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let kind_ok = match schema["type"].as_str() {
        Some("string") => value.is_string(),
        Some("boolean") => value.is_boolean(),
        Some("integer") => value.is_u64() || value.is_i64(),
        Some("number") => value.is_number(),
        Some("array") => value.is_array(),
        Some("object") => value.is_object(),
        None => true,
        Some(other) => return Err(format!("{at}: unknown schema type {other}")),
    };
    if !kind_ok {
        return Err(format!("{at}: {value} is not of type {}", schema["type"]));
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.contains(value)
    {
        return Err(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let (Some(min), Some(n)) = (schema["minimum"].as_f64(), value.as_f64())
        && n < min
    {
        return Err(format!("{at}: {n} is below {min}"));
    }
    if let (Some(max), Some(n)) = (schema["maximum"].as_f64(), value.as_f64())
        && n > max
    {
        return Err(format!("{at}: {n} is above {max}"));
    }
    if let Some(object) = value.as_object() {
        for required in schema["required"].as_array().into_iter().flatten() {
            let name = required.as_str().unwrap();
            if !object.contains_key(name) {
                return Err(format!("{at}: {name} is required"));
            }
        }
        for (name, field) in object {
            let Some(property) = schema["properties"].get(name) else {
                return Err(format!("{at}: {name} is not a property of the schema"));
            };
            conforms(property, field, &format!("{at}.{name}"))?;
        }
    }
    if let Some(items) = value.as_array() {
        for (i, item) in items.iter().enumerate() {
            conforms(&schema["items"], item, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

/// `request`'s body conforms to its endpoint's schema.
pub(crate) fn assert_conforms<E: Endpoint>(request: &E) {
    let schema = &schemas()[E::PATH];
    assert!(schema.is_object(), "no schema for {}", E::PATH);
    let body = serde_json::to_value(request).unwrap();
    if let Err(e) = conforms(schema, &body, E::PATH) {
        panic!("{e}\n{body}");
    }
}
