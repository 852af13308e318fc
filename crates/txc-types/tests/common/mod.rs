//! What the test files share: the spec's request schemas (`fixtures/request_schemas.json`,
//! the schemas' facts copied from the spec) and the check that a body conforms to one (the
//! one schema checker, [`schema`], which the examples' conformance tests use too).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use txc_types::endpoint::Endpoint;

pub(crate) mod flex_requests;
mod schema;

pub(crate) use schema::{conforms, request_schemas as schemas};

/// `request`'s body conforms to its endpoint's schema.
pub(crate) fn assert_conforms<E: Endpoint>(request: &E) {
    let schema = &schemas()[E::PATH];
    assert!(schema.is_object(), "no schema for {}", E::PATH);
    let body = serde_json::to_value(request).unwrap();
    if let Err(e) = conforms(schema, &body, E::PATH) {
        panic!("{e}\n{body}");
    }
}
