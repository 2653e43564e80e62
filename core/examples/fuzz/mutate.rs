//! Inputs for the fuzz run: a seeded RNG, valid messages generated from the protocol
//! registry, and byte-level and JSON-aware mutations of seeds.

use serde_json::{Map, Value};
use switchboard_core::protocol::registry::{ObjectSpec, Presence, Str, Ty};
use switchboard_core::protocol::REGISTRY;

/// A small deterministic generator (SplitMix64): the same seed gives the same run.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability 1/`n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Inputs are kept below this size (growth by duplication stops here).
pub const MAX_INPUT: usize = 1 << 16;

/// Fragments that matter to JSON, to the carried-message extraction and to UTF-8.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    ":",
    " ",
    "\n",
    "\r\n",
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1e999",
    "-1e-999",
    "18446744073709551616",
    "-9223372036854775809",
    "1.5",
    "\"\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"\\uDFFF\"",
    "\u{feff}",
    "\u{2028}",
    "é",
    "😀",
    "```",
    "```json\n",
    "\"body_md\":",
    "\"subject\":",
    "\"type\":",
    "\"message_type\":",
    "\"result\":",
    "\"id\":",
    "\"thread_id\":",
    "\"ack_required\":",
    "[[[[[[[[[[[[[[[[",
    "]]]]]]]]]]]]]]]]",
    "{\"a\":{\"a\":{\"a\":{\"a\":",
    "%2F",
    "~1",
    "/",
    "\u{0}",
    "\u{7f}",
];

/// Strings a generated or mutated value may take.
const STRINGS: &[&str] = &[
    "",
    " ",
    "x",
    "ISO8601",
    "2026-01-15T10:00:00Z",
    "2026-02-30T25:61:61+24:00",
    "bd-42",
    "agent-7f3a",
    "TASK-042",
    "PAIR_INIT",
    "CHANGE_ORDER",
    "task_assignment",
    "ERROR",
    "navigatorApprove",
    "mcp__navigator__navigatorApprove",
    "approved",
    "pending",
    "1.0.0",
    "3.1",
    "9.9.9",
    "a:b,c;d=e",
    "-",
    "tmp/pair_1_x",
    "123e4567-e89b-42d3-a456-426614174000",
];

/// A valid message of a random registry type, serialized.
pub fn message_bytes(rng: &mut Rng) -> Vec<u8> {
    serde_json::to_vec(&message(rng)).unwrap_or_default()
}

/// A few generated messages, one per line, with blank lines between some.
pub fn message_lines(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..=rng.below(4) {
        out.extend(message_bytes(rng));
        out.extend_from_slice(if rng.one_in(3) { b"\n\n" } else { b"\n" });
    }
    out
}

fn message(rng: &mut Rng) -> Value {
    let family = *rng.pick(&REGISTRY);
    let spec = rng.pick(family.types);
    object(rng, &spec.root, 0)
}

fn object(rng: &mut Rng, spec: &ObjectSpec, depth: usize) -> Value {
    let mut members = Map::new();
    for field in spec.fields {
        let keep = match field.presence {
            Presence::Optional => rng.one_in(2),
            _ => !rng.one_in(50),
        };
        if keep {
            members.insert(field.name.to_owned(), value_for(rng, &field.ty, depth + 1));
        }
    }
    Value::Object(members)
}

fn value_for(rng: &mut Rng, ty: &Ty, depth: usize) -> Value {
    match ty {
        Ty::Str(rule) => Value::String(string_for(rng, rule)),
        Ty::Int { min, max } => {
            let lo = min.unwrap_or(-1_000);
            let hi = max.unwrap_or(lo.saturating_add(10_000));
            let span = (hi - lo).unsigned_abs() as usize + 1;
            Value::from(lo + rng.below(span) as i64)
        }
        Ty::Num { min, max } => {
            let lo = min.unwrap_or(-1e6);
            let hi = max.unwrap_or(lo + 1e6);
            Value::from(lo + (hi - lo) * (rng.below(1_000) as f64 / 999.0))
        }
        Ty::Bool => Value::Bool(rng.one_in(2)),
        Ty::BoolConst(b) => Value::Bool(*b),
        Ty::Array { items, min_items } => {
            let n = min_items + rng.below(3);
            Value::Array((0..n).map(|_| value_for(rng, items, depth + 1)).collect())
        }
        Ty::Object(spec) if depth < 8 => object(rng, spec, depth),
        Ty::Object(_) | Ty::AnyObject | Ty::Any => serde_json::json!({"note": "free"}),
    }
}

fn string_for(rng: &mut Rng, rule: &Str) -> String {
    match rule {
        Str::Text { .. } => rng.pick(STRINGS).to_string() + "text",
        Str::Enum { values, .. } => rng.pick(values).to_string(),
        Str::Const(c) => (*c).to_owned(),
        Str::DateTime { .. } => format!(
            "20{:02}-0{}-1{}T0{}:00:00Z",
            rng.below(100),
            1 + rng.below(9),
            rng.below(10),
            rng.below(10)
        ),
        Str::Pattern(p) => p.example.to_owned(),
        Str::Version { major, parts } => {
            format!("{major}{}", ".7".repeat(parts.saturating_sub(1)))
        }
    }
}

/// Applies 1 to 4 random mutations to a copy of `seed`; `other` is a second seed to splice
/// from.
pub fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut input = seed.to_vec();
    for _ in 0..=rng.below(4) {
        if rng.one_in(3) {
            json_mutation(rng, &mut input);
        } else {
            byte_mutation(rng, &mut input, other);
        }
        input.truncate(MAX_INPUT);
    }
    input
}

fn byte_mutation(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    let at = rng.below(input.len() + 1);
    match rng.below(8) {
        0 if !input.is_empty() => {
            let i = rng.below(input.len());
            input[i] ^= 1 << rng.below(8);
        }
        1 | 2 => {
            let token = rng.pick(TOKENS).as_bytes();
            input.splice(at..at, token.iter().copied());
        }
        3 => {
            let end = (at + 1 + rng.below(16)).min(input.len());
            input.drain(at.min(end)..end);
        }
        4 if at < input.len() => {
            // Duplicate a range many times: inputs that grow, for cost per byte.
            let end = (at + 1 + rng.below(32)).min(input.len());
            let piece = input[at..end].to_vec();
            for _ in 0..rng.below(64) {
                input.splice(end..end, piece.iter().copied());
            }
        }
        5 if !other.is_empty() => {
            let from = rng.below(other.len());
            let to = (from + 1 + rng.below(256)).min(other.len());
            input.splice(at..at, other[from..to].iter().copied());
        }
        6 => input.truncate(at),
        _ => input.insert(at, rng.next() as u8),
    }
}

/// Parses the input and changes one node: a new value of another kind, a removed member,
/// a repeated array item, or a wrapper.
fn json_mutation(rng: &mut Rng, input: &mut Vec<u8>) {
    let Ok(mut value) = serde_json::from_slice::<Value>(input) else {
        return;
    };
    let mut nodes = 0;
    count(&value, &mut nodes);
    let target = rng.below(nodes.max(1));
    let mut seen = 0;
    change(rng, &mut value, target, &mut seen);
    if let Ok(bytes) = serde_json::to_vec(&value) {
        *input = bytes;
    }
}

fn count(value: &Value, nodes: &mut usize) {
    *nodes += 1;
    match value {
        Value::Array(items) => items.iter().for_each(|v| count(v, nodes)),
        Value::Object(members) => members.values().for_each(|v| count(v, nodes)),
        _ => {}
    }
}

fn change(rng: &mut Rng, value: &mut Value, target: usize, seen: &mut usize) -> bool {
    if *seen == target {
        *value = match rng.below(7) {
            0 => Value::Null,
            1 => Value::from(rng.next() as i64),
            2 => Value::String(rng.pick(STRINGS).to_string()),
            3 => Value::Array(vec![value.take(); 1 + rng.below(200)]),
            4 => serde_json::json!({ "body_md": value.to_string() }),
            5 => match value.take() {
                Value::Object(mut members) => {
                    let key = members.keys().nth(rng.below(members.len().max(1))).cloned();
                    if let Some(key) = key {
                        members.remove(&key);
                    }
                    Value::Object(members)
                }
                other => Value::Array(vec![other]),
            },
            _ => Value::Bool(rng.one_in(2)),
        };
        return true;
    }
    *seen += 1;
    match value {
        Value::Array(items) => items.iter_mut().any(|v| change(rng, v, target, seen)),
        Value::Object(members) => members.values_mut().any(|v| change(rng, v, target, seen)),
        _ => false,
    }
}
