//! JSON Schema export and the registry tables the JS layer builds results and schema objects from.

use serde_json::{json, Value};
use switchboard_core::protocol::{export::schema, FamilyId, IssueCode, REGISTRY};
use wasm_bindgen::prelude::*;

/// The schema for a key: `""` the union of every type (detection), a family name that
/// family's union, `family/TYPE` one type; `None` for an unknown key.
pub fn schema_for(key: &str) -> Option<Value> {
    if key.is_empty() {
        return Some(schema::any_message());
    }
    if let Some(family) = FamilyId::parse(key) {
        return Some(schema::family_message(family));
    }
    schema::by_key(key)
}

/// The JSON Schema (draft 2020-12) for a key (see [`schema_for`]) as JSON text, or
/// `undefined` for an unknown key.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = jsonSchema)]
pub fn json_schema(key: &str) -> Option<String> {
    schema_for(key).map(|s| s.to_string())
}

/// The registry as the JS layer needs it: families in registry order with their title,
/// modeled version and type names, and the issue codes.
pub fn registry() -> Value {
    let families: Vec<Value> = REGISTRY
        .iter()
        .map(|f| {
            let types: Vec<&str> = f.types.iter().map(|t| t.name).collect();
            json!({"name": f.id.as_str(), "title": f.title, "version": f.version, "types": types})
        })
        .collect();
    let codes: Vec<&str> = IssueCode::ALL.iter().map(|c| c.as_str()).collect();
    json!({"families": families, "issueCodes": codes})
}

/// [`registry`] as JSON text.
#[wasm_bindgen(js_name = registry)]
pub fn registry_json() -> String {
    registry().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_select_union_family_and_type_schemas() {
        assert!(schema_for("").unwrap()["oneOf"].is_array());
        assert_eq!(
            schema_for("droid").unwrap(),
            schema::family_message(FamilyId::Droid)
        );
        assert_eq!(
            schema_for("pair/PAIR_INIT").unwrap()["title"],
            "pair/PAIR_INIT"
        );
        assert!(schema_for("pair/NOPE").is_none());
        assert!(schema_for("nope").is_none());
    }

    #[test]
    fn registry_tables_follow_the_registry_order() {
        let r = registry();
        assert_eq!(r["families"][1]["name"], "agent-po");
        assert_eq!(r["families"][0]["types"][0], REGISTRY[0].types[0].name);
        assert_eq!(r["issueCodes"][0], "not_json");
    }
}
