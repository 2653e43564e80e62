//! Throughput of `validate` against the parse floor and the `jsonschema` crate.
//!
//! Run: `cargo bench -p switchboard-core --bench validate`. Builds a deterministic corpus of
//! mixed messages (every family, ~20% invalid) from the valid fixtures with a simple LCG, then
//! times, best of several rounds over the same bytes:
//! - parse floor: `serde_json::from_slice::<Value>`;
//! - `validate_slice` (parse + detect + validate + full report) and `is_valid` / `validate` on
//!   already-parsed values;
//! - `jsonschema` over our exported schemas, validators compiled once: per-type validators with
//!   the type known in advance, and the single union schema (which, like `validate`, has to
//!   find the type itself).

use serde_json::Value;
use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use switchboard_core::protocol::{self, schema, Options};

const MESSAGES: usize = 20_000;
const ROUNDS: usize = 15;

/// Knuth's MMIX LCG.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn load_bases() -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protocol/valid");
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).expect("fixtures") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                if !p.ends_with("carried") {
                    stack.push(p);
                }
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json"))
        .collect()
}

fn mutate(v: &mut Value, rng: &mut Lcg, i: usize) {
    let Some(obj) = v.as_object_mut() else { return };
    for key in ["task_id", "agent_id", "to", "sender_id"] {
        if let Some(Value::String(s)) = obj.get_mut(key) {
            s.push_str(&format!("{}", i % 97));
        }
    }
    if rng.below(5) == 0 {
        let keys: Vec<String> = obj.keys().cloned().collect();
        let k = &keys[rng.below(keys.len())];
        match rng.below(3) {
            0 => {
                obj.remove(k);
            }
            1 => {
                obj.insert(k.clone(), Value::from(12_345));
            }
            _ => {
                obj.insert("timestamp".into(), Value::from("yesterday"));
            }
        }
    }
}

struct Row<'a> {
    name: &'a str,
    time: Duration,
}

fn main() {
    let bases = load_bases();
    let mut rng = Lcg(0x5EED);
    let mut values = Vec::with_capacity(MESSAGES);
    for i in 0..MESSAGES {
        let mut v = bases[rng.below(bases.len())].clone();
        mutate(&mut v, &mut rng, i);
        values.push(v);
    }
    let bytes: Vec<Vec<u8>> = values
        .iter()
        .map(|v| serde_json::to_vec(v).expect("serialize"))
        .collect();
    let total: usize = bytes.iter().map(Vec::len).sum();
    let opts = Options::default();

    // jsonschema: compile once, per type and the union.
    let mut per_type: HashMap<String, jsonschema::Validator> = HashMap::new();
    for (k, s) in schema::all().as_object().expect("object") {
        let v = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(s)
            .expect("compile");
        per_type.insert(k.clone(), v);
    }
    let union = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema::any_message())
        .expect("compile union");
    // The type each message was generated from (jsonschema is told it in advance).
    let known: Vec<Option<&jsonschema::Validator>> = values
        .iter()
        .map(|v| {
            let r = protocol::validate(v, &opts);
            match (r.family, r.message_type) {
                (Some(f), Some(t)) => per_type.get(&format!("{}/{t}", f.as_str())),
                _ => None,
            }
        })
        .collect();

    let valid_ours = values.iter().filter(|v| protocol::is_valid(v)).count();
    let valid_union = values.iter().filter(|v| union.is_valid(v)).count();
    let families: std::collections::BTreeMap<&str, usize> =
        values.iter().fold(Default::default(), |mut m, v| {
            let r = protocol::validate(v, &opts);
            *m.entry(r.family_name().unwrap_or("(none)")).or_default() += 1;
            m
        });

    let hinted: Vec<Options> = values
        .iter()
        .map(|v| Options {
            family: protocol::validate(v, &opts).family,
            lenient: false,
        })
        .collect();
    type Job<'a> = Box<dyn FnMut() -> usize + 'a>;
    let mut jobs: Vec<(&str, Job<'_>)> = vec![
        (
            "parse floor: serde_json::from_slice::<Value>",
            Box::new(|| {
                bytes
                    .iter()
                    .map(|b| black_box(serde_json::from_slice::<Value>(b).is_ok()) as usize)
                    .sum()
            }),
        ),
        (
            "switchboard validate_slice (parse+detect+validate+report)",
            Box::new(|| {
                bytes
                    .iter()
                    .map(|b| black_box(protocol::validate_slice(b, &opts)).valid as usize)
                    .sum()
            }),
        ),
        (
            "switchboard validate (parsed Value, full report)",
            Box::new(|| {
                values
                    .iter()
                    .map(|v| black_box(protocol::validate(v, &opts)).valid as usize)
                    .sum()
            }),
        ),
        (
            "switchboard is_valid (parsed Value)",
            Box::new(|| {
                values
                    .iter()
                    .map(|v| black_box(opts.is_valid(v)) as usize)
                    .sum()
            }),
        ),
        (
            "switchboard is_valid, family hinted (parsed Value)",
            Box::new(|| {
                values
                    .iter()
                    .zip(&hinted)
                    .map(|(v, o)| black_box(o.is_valid(v)) as usize)
                    .sum()
            }),
        ),
        (
            "jsonschema is_valid, type known in advance (parsed Value)",
            Box::new(|| {
                values
                    .iter()
                    .zip(&known)
                    .map(|(v, k)| {
                        black_box(k.map_or_else(|| union.is_valid(v), |k| k.is_valid(v))) as usize
                    })
                    .sum()
            }),
        ),
        (
            "jsonschema iter_errors, type known in advance (parsed Value)",
            Box::new(|| {
                values
                    .iter()
                    .zip(&known)
                    .map(|(v, k)| black_box(k.unwrap_or(&union).iter_errors(v).count()))
                    .sum()
            }),
        ),
        (
            "jsonschema is_valid, union schema (parsed Value)",
            Box::new(|| {
                values
                    .iter()
                    .map(|v| black_box(union.is_valid(v)) as usize)
                    .sum()
            }),
        ),
        (
            "jsonschema parse+is_valid, union schema",
            Box::new(|| {
                bytes
                    .iter()
                    .map(|b| {
                        serde_json::from_slice::<Value>(b)
                            .map_or(0, |v| black_box(union.is_valid(&v)) as usize)
                    })
                    .sum()
            }),
        ),
    ];
    // Rounds are interleaved (every job once per round) so that load from other processes
    // hits all jobs alike; each job keeps its best round.
    let mut times = vec![Duration::MAX; jobs.len()];
    for _ in 0..ROUNDS {
        for (i, (_, job)) in jobs.iter_mut().enumerate() {
            let t = Instant::now();
            black_box(job());
            times[i] = times[i].min(t.elapsed());
        }
    }
    let rows: Vec<Row> = jobs
        .iter()
        .zip(&times)
        .map(|((name, _), &time)| Row { name, time })
        .collect();

    println!(
        "corpus: {MESSAGES} messages, {total} bytes ({:.0} B/msg avg), {valid_ours} valid (union schema: {valid_union}); families {families:?}; best of {ROUNDS} rounds",
        total as f64 / MESSAGES as f64
    );
    println!();
    println!("| measurement | msgs/s | MB/s | vs parse floor | vs validate_slice |");
    println!("|---|---:|---:|---:|---:|");
    let floor = rows[0].time.as_secs_f64();
    let ours = rows[1].time.as_secs_f64();
    for r in &rows {
        let s = r.time.as_secs_f64();
        println!(
            "| {} | {:.0} | {:.1} | {:.2}x | {:.2}x |",
            r.name,
            MESSAGES as f64 / s,
            total as f64 / s / 1e6,
            floor / s,
            ours / s
        );
    }
    println!();
    let js_known = rows[5].time.as_secs_f64();
    let js_union = rows[7].time.as_secs_f64();
    let val = rows[2].time.as_secs_f64();
    println!(
        "goal 1: validate_slice throughput / parse floor throughput = {:.2} (goal >= 0.50)",
        floor / ours
    );
    let is_valid = rows[3].time.as_secs_f64();
    println!(
        "goal 2: switchboard validate (parsed, detection + full report) vs jsonschema is_valid: {:.2}x the speed of the union schema (which also has to find the type), {:.2}x the speed of per-type validators told the type in advance",
        js_union / val,
        js_known / val
    );
    println!(
        "        switchboard is_valid (parsed) vs jsonschema is_valid: {:.2}x (union), {:.2}x (type known)",
        js_union / is_valid,
        js_known / is_valid
    );
}
