//! TypeScript declarations, generated from the registry: one interface per message type, the
//! per-family and `family/TYPE` maps, and the `Family`, `IssueCode` and `Severity` unions.
//!
//! The declarations express strict mode, like the JSON Schema export: lenient-mode values are
//! not in the enum unions. Undeclared members, which validation allows, are not declared
//! (TypeScript's structural typing accepts them on values that are not object literals).
//! Interface names are the family and type names in PascalCase (`pair/PAIR_INIT` →
//! `PairPairInit`, `agent-po/BLOCKED_NOTIFICATION@po` → `AgentPoBlockedNotificationPo`).

use crate::protocol::issue::IssueCode;
use crate::protocol::registry::{
    FamilySpec, FieldSpec, MessageTypeSpec, ObjectSpec, Presence, Str, Ty,
};
use crate::protocol::REGISTRY;
use std::fmt::Write;

/// The whole declaration text (an ES module of types only), in registry order.
pub fn declarations() -> String {
    let mut out = String::new();
    out.push_str("/** A protocol family name. */\n");
    let families: Vec<String> = REGISTRY.iter().map(|f| quote(f.id.as_str())).collect();
    let _ = writeln!(out, "export type Family = {};\n", families.join(" | "));
    out.push_str(
        "/** A stable issue code; `docs/protocol.md` (\"Issue codes\") says what each means. */\n",
    );
    let codes: Vec<String> = IssueCode::ALL.iter().map(|c| quote(c.as_str())).collect();
    let _ = writeln!(
        out,
        "export type IssueCode =\n  | {};\n",
        codes.join("\n  | ")
    );
    out.push_str(
        "/** How bad an issue is: errors make a message invalid, warnings (lenient-mode \
         deviations) do not. */\nexport type Severity = \"error\" | \"warning\";\n",
    );
    for fam in REGISTRY {
        family(&mut out, fam);
    }
    maps(&mut out);
    out
}

/// The interface name of a message type (`PairPairInit`).
pub fn interface_name(family: &FamilySpec, spec: &MessageTypeSpec) -> String {
    pascal(family.id.as_str()) + &pascal(spec.name)
}

fn family(out: &mut String, fam: &FamilySpec) {
    let prefix = pascal(fam.id.as_str());
    let _ = writeln!(
        out,
        "\n// ---- {} ({} {}) ----",
        fam.id.as_str(),
        fam.title,
        fam.version
    );
    for t in fam.types {
        let _ = writeln!(
            out,
            "\n/**\n * {}\n *\n * `{}/{}` ({} {}).\n */",
            doc_text(t.doc),
            fam.id.as_str(),
            t.name,
            fam.title,
            fam.version
        );
        let _ = write!(out, "export interface {} ", interface_name(fam, t));
        object(out, &t.root, 0);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\n/** The message types of the `{}` family, by registry name. */",
        fam.id.as_str()
    );
    let _ = writeln!(out, "export interface {prefix}Types {{");
    for t in fam.types {
        let _ = writeln!(out, "  {}: {};", prop_name(t.name), interface_name(fam, t));
    }
    out.push_str("}\n");
    let _ = writeln!(
        out,
        "\n/** Any message of the `{}` family. */\nexport type {prefix}Message = {prefix}Types[keyof {prefix}Types];",
        fam.id.as_str()
    );
}

fn maps(out: &mut String) {
    out.push_str("\n// ---- all families ----\n\n/** The message types of each family, by registry name. */\nexport interface FamilyTypes {\n");
    for fam in REGISTRY {
        let _ = writeln!(
            out,
            "  {}: {}Types;",
            prop_name(fam.id.as_str()),
            pascal(fam.id.as_str())
        );
    }
    out.push_str(
        "}\n\n/** Every message type, keyed `family/TYPE`. */\nexport interface MessageTypes {\n",
    );
    for fam in REGISTRY {
        for t in fam.types {
            let key = format!("{}/{}", fam.id.as_str(), t.name);
            let _ = writeln!(out, "  {}: {};", quote(&key), interface_name(fam, t));
        }
    }
    out.push_str(
        "}\n\n/** A `family/TYPE` key, as `jsonSchema` and `switchboard schema` take. */\n\
         export type MessageKey = keyof MessageTypes;\n\n\
         /** A message type's registry name (`PAIR_INIT`, `BLOCKED_NOTIFICATION@po`, `task_assignment`). */\n\
         export type MessageTypeName = { [F in Family]: keyof FamilyTypes[F] }[Family];\n\n\
         /** Any message of family `F`. */\n\
         export type FamilyMessage<F extends Family> = FamilyTypes[F][keyof FamilyTypes[F]];\n\n\
         /** Any protocol message. */\nexport type Message = MessageTypes[MessageKey];\n",
    );
}

fn object(out: &mut String, spec: &ObjectSpec, depth: usize) {
    let pad = "  ".repeat(depth + 1);
    out.push_str("{\n");
    for f in spec.fields {
        field(out, f, &pad, depth);
    }
    out.push_str(&"  ".repeat(depth));
    out.push('}');
}

fn field(out: &mut String, f: &FieldSpec, pad: &str, depth: usize) {
    let mut notes = Vec::new();
    if let Some(rule) = describe(&f.ty) {
        notes.push(rule);
    }
    if let Presence::RequiredStrict(dev) = f.presence {
        notes.push(format!(
            "Required in strict mode; lenient mode accepts its absence (`{}`).",
            dev.id
        ));
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "{pad}/** {} */", doc_text(&notes.join(" ")));
    }
    let optional = if matches!(f.presence, Presence::Optional) {
        "?"
    } else {
        ""
    };
    let _ = write!(out, "{pad}{}{optional}: ", prop_name(f.name));
    ty(out, &f.ty, depth + 1);
    out.push_str(";\n");
}

fn ty(out: &mut String, t: &Ty, depth: usize) {
    match t {
        Ty::Str(Str::Enum { values, .. }) => {
            let v: Vec<String> = values.iter().map(|v| quote(v)).collect();
            out.push_str(&v.join(" | "));
        }
        Ty::Str(Str::Const(c)) => out.push_str(&quote(c)),
        Ty::Str(_) => out.push_str("string"),
        Ty::Int { .. } | Ty::Num { .. } => out.push_str("number"),
        Ty::Bool => out.push_str("boolean"),
        Ty::BoolConst(b) => {
            let _ = write!(out, "{b}");
        }
        Ty::Array { items, .. } => {
            let simple = !matches!(items, Ty::Object(_))
                && !matches!(items, Ty::Str(Str::Enum { values, .. }) if values.len() > 1);
            if simple {
                ty(out, items, depth);
                out.push_str("[]");
            } else {
                out.push_str("Array<");
                ty(out, items, depth);
                out.push('>');
            }
        }
        Ty::Object(spec) => object(out, spec, depth),
        Ty::AnyObject => out.push_str("Record<string, unknown>"),
        Ty::Any => out.push_str("unknown"),
    }
}

/// The rule of a member in words, when its TypeScript type does not already say it all.
fn describe(t: &Ty) -> Option<String> {
    match t {
        Ty::Str(Str::Text { non_empty: true }) => Some("Non-empty.".into()),
        Ty::Str(Str::DateTime { .. }) => Some("An RFC 3339 date-time.".into()),
        Ty::Str(Str::Pattern(p)) => Some(format!("A {}: `{}`.", p.name, p.regex)),
        Ty::Str(Str::Version { major, parts }) => Some(format!(
            "A {parts}-part dotted version with major version {major}."
        )),
        Ty::Int { min, max } => Some(range("An integer", *min, *max)),
        Ty::Num { min, max } => Some(range("A number", *min, *max)),
        Ty::Array { items, min_items } => {
            let inner = describe(items).map(|d| format!(" Each item: {d}"));
            match (*min_items, inner) {
                (0, None) => None,
                (0, Some(i)) => Some(i.trim_start().to_owned()),
                (n, i) => Some(format!("At least {n} item(s).{}", i.unwrap_or_default())),
            }
        }
        _ => None,
    }
}

fn range<T: std::fmt::Display>(what: &str, min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!("{what} from {lo} to {hi}."),
        (Some(lo), None) => format!("{what}, at least {lo}."),
        (None, Some(hi)) => format!("{what}, at most {hi}."),
        (None, None) => format!("{what}."),
    }
}

/// `PAIR_INIT` → `PairInit`, `navigatorApprove` → `NavigatorApprove`, `agent-po` → `AgentPo`,
/// `BLOCKED_NOTIFICATION@po` → `BlockedNotificationPo`.
fn pascal(name: &str) -> String {
    let mut out = String::new();
    for part in name.split(['_', '-', '@']).filter(|p| !p.is_empty()) {
        let upper = part.chars().all(|c| !c.is_ascii_lowercase());
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            for c in chars {
                out.push(if upper { c.to_ascii_lowercase() } else { c });
            }
        }
    }
    out
}

/// A property name, quoted unless it is a plain identifier.
fn prop_name(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident {
        name.to_owned()
    } else {
        quote(name)
    }
}

/// A TypeScript string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text safe inside a `/** */` comment.
fn doc_text(s: &str) -> String {
    s.replace("*/", "*\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_pascal_case() {
        assert_eq!(pascal("PAIR_INIT"), "PairInit");
        assert_eq!(pascal("navigatorApprove"), "NavigatorApprove");
        assert_eq!(pascal("agent-po"), "AgentPo");
        assert_eq!(pascal("BLOCKED_NOTIFICATION@po"), "BlockedNotificationPo");
        assert_eq!(
            pascal("PermissionResult@allowed"),
            "PermissionResultAllowed"
        );
        assert_eq!(pascal("task_assignment"), "TaskAssignment");
    }

    #[test]
    fn interface_names_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for fam in REGISTRY {
            for t in fam.types {
                assert!(seen.insert(interface_name(fam, t)), "{}", t.name);
            }
        }
    }

    #[test]
    fn every_type_and_code_is_declared() {
        let text = declarations();
        for fam in REGISTRY {
            for t in fam.types {
                let key = format!(
                    "\"{}/{}\": {};",
                    fam.id.as_str(),
                    t.name,
                    interface_name(fam, t)
                );
                assert!(text.contains(&key), "{key}");
            }
        }
        for c in IssueCode::ALL {
            assert!(text.contains(&quote(c.as_str())));
        }
        for any in [": any", "any[]", "<any", "| any", "any>"] {
            assert!(!text.contains(any), "no `any` type in the declarations");
        }
    }

    #[test]
    fn property_names_are_quoted_only_when_needed() {
        assert_eq!(prop_name("driverTranscript"), "driverTranscript");
        assert_eq!(prop_name("agent-po"), "\"agent-po\"");
        assert_eq!(
            prop_name("PermissionResult@allowed"),
            "\"PermissionResult@allowed\""
        );
    }
}
