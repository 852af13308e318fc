//! Reading a body's values as the exchange's rules read them: a field that is present (`null`
//! is absent), an integer (a JSON integer or a digit string), and a field's name as the
//! messages spell it.

use serde_json::{Map, Value};

/// The field's value unless absent or `null` (the sandbox reads `null` as absent).
pub(crate) fn present<'a>(map: &'a Map<String, Value>, field: &str) -> Option<&'a Value> {
    map.get(field).filter(|v| !v.is_null())
}

/// A field's name as the exchange's messages start with it: the wire name with its first
/// letter in upper case (`Market`, `ClientOrderId`, as documented; `Activation_price` by the
/// same rule).
pub(crate) fn label(field: &str) -> String {
    let mut chars = field.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// A JSON integer, or a string of digits with an optional sign (Laravel's `integer` rule takes
/// both; the older docs type `orderId` "String/Int").
pub(crate) fn integer(value: &Value) -> Option<i128> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        Value::String(s) => {
            let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
            if digits.is_empty() || digits.len() > 30 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            s.parse().ok()
        }
        _ => None,
    }
}

/// A test body: `value`'s fields (none unless it is an object).
#[cfg(test)]
pub(super) fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}
