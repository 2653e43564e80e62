//! Throughput of validation from bytes against the tokenizer floor, the `Value` parse floor
//! and the `jsonschema` crate.
//!
//! Run: `cargo bench -p switchboard-core --bench validate` (`-- ROUNDS` for another count).
//! Builds a deterministic corpus of 20,000 inputs from the valid fixtures with an LCG: ids
//! varied; about 30% pretty-printed, the rest compact; 8% carried in Agent Mail rows (the
//! message as JSON text in `body_md`, raw or in a fenced block); 20% broken by one of the
//! mutations the property tests use (a member removed, retyped or repeated, a bad timestamp, a
//! nested member removed, a number the parser rejects, nesting past its depth limit, a cut).
//! Then times each job over the same bytes, interleaved rounds, and prints the median round
//! and the spread (slowest–fastest round) as messages per second; the goals are judged on
//! paired ratios (per round, the two jobs' times; their median over the rounds), which this
//! machine's slower and faster spells move far less than a ratio of two medians:
//! - floors: `serde_json::from_slice::<IgnoredAny>` (the tokenizer skipping, building
//!   nothing; it accepts more than the parser: no depth limit, no number range, no UTF-8 check
//!   inside strings), the exact tokenizer floor (`deserialize_any` into a visitor that builds
//!   nothing: what the parser accepts, nothing built) and `::<Value>`;
//! - `validate_slice` (no `Value` for a clean message), `validate_slice_via_value` (the
//!   reference: parse, then validate), `validate` on parsed values;
//! - `jsonschema` (validators compiled once, format assertion on) with the dispatching schema
//!   (`schema::dispatch_message`: `if`/`then` on each type's discriminator, the competitor
//!   that, like `validate`, finds the type and then validates), per-type schemas told the type
//!   in advance, and the `oneOf` union.
//!
//! `cargo bench -p switchboard-core --bench validate -- --jsonl FILE LINES` instead writes
//! LINES compact lines of the same corpus to FILE, leaving out the inputs that are not JSON
//! (`core/benches/validate-cli.sh` compares the CLI with `jq -c .` on it).

use serde::de::IgnoredAny;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};
use switchboard_core::protocol::{self, export::schema, Options};

const MESSAGES: usize = 20_000;

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
                stack.push(p);
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

/// One corpus input: its bytes and whether it is an Agent Mail row.
struct Input {
    bytes: Vec<u8>,
    row: bool,
}

/// The `i`-th input. `compact` forces one line (for JSON Lines).
fn input(bases: &[Value], rng: &mut Lcg, i: usize, compact: bool) -> Input {
    let mut v = bases[rng.below(bases.len())].clone();
    let row = v.get("body_md").is_some();
    if let Some(obj) = v.as_object_mut() {
        for key in ["task_id", "agent_id", "to", "sender_id"] {
            if let Some(Value::String(s)) = obj.get_mut(key) {
                s.push_str(&format!("{}", i % 97));
            }
        }
    }
    let pretty = !compact && rng.below(10) < 3;
    let r = rng.below(100);
    let mut raw: Option<(String, String)> = None;
    if r < 20 && !row {
        raw = mutate(&mut v, rng);
    }
    let carry = !row && (20..28).contains(&r);
    if carry {
        let text = if rng.below(2) == 0 {
            v.to_string()
        } else {
            format!(
                "Please pick this up.\n```json\n{}\n```\n",
                serde_json::to_string_pretty(&v).expect("serialize")
            )
        };
        v = json!({"id": i, "subject": "handoff", "from": "BlueLake", "importance": "normal",
            "ack_required": false, "body_md": text});
    }
    let mut text = if pretty {
        serde_json::to_string_pretty(&v).expect("serialize")
    } else {
        v.to_string()
    };
    if let Some((name, member)) = raw {
        // A member written as raw text: after the opening brace.
        text.insert_str(1, &format!("\"{name}\":{member},"));
    }
    if r < 20 && !row && rng.below(8) == 0 {
        // Cut short: not JSON.
        text.truncate(text.len() * rng.below(100) / 100);
    }
    Input {
        bytes: text.into_bytes(),
        row: row || carry,
    }
}

/// Breaks a message (as the property tests do); some mutations are raw text, returned as the
/// member to insert.
fn mutate(v: &mut Value, rng: &mut Lcg) -> Option<(String, String)> {
    let obj = v.as_object_mut()?;
    let keys: Vec<String> = obj.keys().cloned().collect();
    let k = keys[rng.below(keys.len())].clone();
    match rng.below(7) {
        0 => {
            obj.shift_remove(&k);
        }
        1 => {
            obj.insert(k, Value::from(12_345));
        }
        2 => {
            obj.insert("timestamp".into(), Value::from("yesterday"));
        }
        3 => {
            // A nested member removed.
            let nested = obj.values_mut().find_map(Value::as_object_mut);
            if let Some(inner) = nested {
                let first = inner.keys().next().cloned();
                if let Some(first) = first {
                    inner.shift_remove(&first);
                }
            }
        }
        4 => return Some((k, "true".into())), // a member written twice, retyped
        5 => return Some(("x_number".into(), "1e400".into())),
        _ => {
            let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
            return Some(("x_deep".into(), deep));
        }
    }
    None
}

fn corpus(bases: &[Value]) -> Vec<Input> {
    let mut rng = Lcg(0x5EED);
    (0..MESSAGES)
        .map(|i| input(bases, &mut rng, i, false))
        .collect()
}

/// Writes the corpus inputs that are JSON (one line each) to `path`, until `lines` lines.
fn write_jsonl(path: &str, lines: usize) {
    let bases = load_bases();
    let mut rng = Lcg(0x5EED);
    let file = std::fs::File::create(path).expect("create the JSON Lines file");
    let mut out = std::io::BufWriter::new(file);
    let mut written = 0;
    for i in 0.. {
        if written == lines {
            break;
        }
        let bytes = input(&bases, &mut rng, i, true).bytes;
        // Only lines that are JSON: jq stops at the first that is not.
        if serde_json::from_slice::<IgnoredAny>(&bytes).is_err() {
            continue;
        }
        out.write_all(&bytes).expect("write");
        out.write_all(b"\n").expect("write");
        written += 1;
    }
    out.flush().expect("write");
}

type Job<'a> = (&'static str, Box<dyn FnMut() -> usize + 'a>);

/// Median and spread of a job's rounds.
struct Timing {
    name: &'static str,
    valid: usize,
    median: Duration,
    fastest: Duration,
    slowest: Duration,
    /// Every round's time, in round order (for paired ratios).
    rounds: Vec<Duration>,
}

/// Runs every job `rounds` times, interleaved (so load from other processes hits all alike).
fn measure(mut jobs: Vec<Job<'_>>, rounds: usize) -> Vec<Timing> {
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); jobs.len()];
    let mut valid = vec![0; jobs.len()];
    for _ in 0..rounds {
        for (i, (_, job)) in jobs.iter_mut().enumerate() {
            let t = Instant::now();
            valid[i] = black_box(job());
            times[i].push(t.elapsed());
        }
    }
    jobs.iter()
        .zip(times)
        .zip(valid)
        .map(|(((name, _), rounds), valid)| {
            let mut t = rounds.clone();
            t.sort();
            Timing {
                name,
                valid,
                median: t[t.len() / 2],
                fastest: t[0],
                slowest: t[t.len() - 1],
                rounds,
            }
        })
        .collect()
}

/// Prints a table; ratios are throughput ratios (higher is faster) against the named rows.
fn table(title: &str, set: &[&[u8]], rows: &[Timing], against: &[&str]) {
    let bytes: usize = set.iter().map(|b| b.len()).sum();
    println!(
        "\n{title}: {} inputs, {:.0} B/input avg\n",
        set.len(),
        bytes as f64 / set.len() as f64
    );
    let heads: Vec<String> = against.iter().map(|a| format!("vs {a}")).collect();
    println!(
        "| measurement | msgs/s (median) | spread (slowest–fastest round) | MB/s | valid | {} |",
        heads.join(" | ")
    );
    println!("|---|---:|---:|---:|---:|{}", "---:|".repeat(against.len()));
    let rate = |d: Duration| set.len() as f64 / d.as_secs_f64();
    for r in rows {
        let ratios: Vec<String> = against
            .iter()
            .map(|a| format!("{:.2}x", ratio(rows, r.name, a)))
            .collect();
        println!(
            "| {} | {:.0} | {:.0}–{:.0} | {:.1} | {} | {} |",
            r.name,
            rate(r.median),
            rate(r.slowest),
            rate(r.fastest),
            bytes as f64 / r.median.as_secs_f64() / 1e6,
            r.valid,
            ratios.join(" | ")
        );
    }
}

fn row<'t>(rows: &'t [Timing], name: &str) -> &'t Timing {
    rows.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

/// Throughput of row `a` over throughput of row `b` (medians).
fn ratio(rows: &[Timing], a: &str, b: &str) -> f64 {
    row(rows, b).median.as_secs_f64() / row(rows, a).median.as_secs_f64()
}

/// Throughput of row `a` over throughput of row `b`, round by round (the two ran back to back
/// in each round, so a slower or faster spell of this machine hits both): the median round's
/// ratio, and the lowest and highest.
fn paired(rows: &[Timing], a: &str, b: &str) -> (f64, f64, f64) {
    let (a, b) = (row(rows, a), row(rows, b));
    let mut r: Vec<f64> = a
        .rounds
        .iter()
        .zip(&b.rounds)
        .map(|(a, b)| b.as_secs_f64() / a.as_secs_f64())
        .collect();
    r.sort_by(f64::total_cmp);
    (r[r.len() / 2], r[0], r[r.len() - 1])
}

const IGNORED: &str = "tokenizer floor: from_slice::<IgnoredAny>";
const VALUE: &str = "Value floor: from_slice::<Value>";
const EXACT: &str = "exact tokenizer floor: from_slice via deserialize_any, building nothing";
const OURS: &str = "switchboard validate_slice";
const DISPATCH: &str = "jsonschema parse + is_valid, dispatching schema";

/// Reads a JSON value through `deserialize_any`, building nothing: the least work
/// `serde_json` does to accept exactly what its parser accepts (`IgnoredAny` skips instead,
/// and accepts `1e400`, invalid UTF-8 in strings and nesting past the depth limit).
struct Exact;

impl<'de> serde::Deserialize<'de> for Exact {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Exact, D::Error> {
        d.deserialize_any(Exact)
    }
}

impl<'de> serde::de::Visitor<'de> for Exact {
    type Value = Exact;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Exact, E> {
        Ok(Exact)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Exact, E> {
        Ok(Exact)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Exact, E> {
        Ok(Exact)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Exact, E> {
        Ok(Exact)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Exact, E> {
        Ok(Exact)
    }
    fn visit_str<E>(self, _: &str) -> Result<Exact, E> {
        Ok(Exact)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Exact, A::Error> {
        while seq.next_element::<Exact>()?.is_some() {}
        Ok(Exact)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Exact, A::Error> {
        while map.next_key::<Exact>()?.is_some() {
            map.next_value::<Exact>()?;
        }
        Ok(Exact)
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let [flag, path, lines] = &args[..] {
        if flag == "--jsonl" {
            return write_jsonl(path, lines.parse().expect("LINES"));
        }
    }
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(15);
    let bases = load_bases();
    let inputs = corpus(&bases);
    let opts = Options::default();

    let compile = |s: &Value| {
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(s)
            .expect("compile")
    };
    let dispatch = compile(&schema::dispatch_message());
    let union = compile(&schema::any_message());
    let per_type: HashMap<String, jsonschema::Validator> = schema::all()
        .as_object()
        .expect("object")
        .iter()
        .map(|(k, s)| (k.clone(), compile(s)))
        .collect();

    let reports: Vec<protocol::Report> = inputs
        .iter()
        .map(|i| protocol::validate_slice(&i.bytes, &opts))
        .collect();
    let pick = |f: &dyn Fn(&Input, &protocol::Report) -> bool| -> Vec<&[u8]> {
        inputs
            .iter()
            .zip(&reports)
            .filter(|(i, r)| f(i, r))
            .map(|(i, _)| i.bytes.as_slice())
            .collect()
    };
    let valid = pick(&|i, r| !i.row && r.valid);
    let messages = pick(&|i, _| !i.row);
    let rows = pick(&|i, _| i.row);
    let not_json = reports
        .iter()
        .filter(|r| {
            r.issues
                .first()
                .is_some_and(|i| i.code.as_str() == "not_json")
        })
        .count();
    println!(
        "corpus: {} inputs ({} valid messages, {} messages valid or not, {} Agent Mail rows, {not_json} not JSON); {rounds} interleaved rounds; ratios are throughput ratios (higher is faster)",
        inputs.len(),
        valid.len(),
        messages.len(),
        rows.len()
    );

    let count = |set: &[&[u8]], f: &dyn Fn(&[u8]) -> bool| set.iter().filter(|b| f(b)).count();
    let byte_jobs = |set: &'static [&'static [u8]], with_schemas: bool| -> Vec<Job<'_>> {
        let mut jobs: Vec<Job<'_>> = vec![
            (
                IGNORED,
                Box::new(move || count(set, &|b| serde_json::from_slice::<IgnoredAny>(b).is_ok())),
            ),
            (
                EXACT,
                Box::new(move || count(set, &|b| serde_json::from_slice::<Exact>(b).is_ok())),
            ),
            (
                VALUE,
                Box::new(move || count(set, &|b| serde_json::from_slice::<Value>(b).is_ok())),
            ),
            (
                OURS,
                Box::new(move || count(set, &|b| protocol::validate_slice(b, &opts).valid)),
            ),
            (
                "switchboard validate_slice_via_value (parse, then validate)",
                Box::new(move || {
                    count(set, &|b| protocol::validate_slice_via_value(b, &opts).valid)
                }),
            ),
        ];
        if with_schemas {
            let dispatch = &dispatch;
            let union = &union;
            jobs.push((
                DISPATCH,
                Box::new(move || {
                    count(set, &|b| {
                        serde_json::from_slice::<Value>(b).is_ok_and(|v| dispatch.is_valid(&v))
                    })
                }),
            ));
            jobs.push((
                "jsonschema parse + is_valid, oneOf union schema",
                Box::new(move || {
                    count(set, &|b| {
                        serde_json::from_slice::<Value>(b).is_ok_and(|v| union.is_valid(&v))
                    })
                }),
            ));
        }
        jobs
    };
    // The sets live as long as the run; leaking them lets the boxed jobs borrow them freely.
    let leak = |v: Vec<&[u8]>| -> &'static [&'static [u8]] {
        Box::leak(
            v.into_iter()
                .map(|b| &*Box::leak(b.to_vec().into_boxed_slice()))
                .collect(),
        )
    };
    let (valid_set, messages_set, rows_set) = (leak(valid), leak(messages), leak(rows));

    // Valid messages: the byte jobs, then the jobs on parsed values.
    let parsed: Vec<Value> = valid_set
        .iter()
        .map(|b| serde_json::from_slice(b).expect("valid JSON"))
        .collect();
    let told: Vec<&jsonschema::Validator> = parsed
        .iter()
        .map(|v| {
            let r = protocol::validate(v, &opts);
            let key = format!(
                "{}/{}",
                r.family_name().expect("family"),
                r.message_type.expect("type")
            );
            &per_type[&key]
        })
        .collect();
    let mut jobs = byte_jobs(valid_set, true);
    jobs.push((
        "switchboard validate (parsed Value)",
        Box::new(|| {
            parsed
                .iter()
                .filter(|v| protocol::validate(v, &opts).valid)
                .count()
        }),
    ));
    jobs.push((
        "jsonschema is_valid, dispatching schema (parsed Value)",
        Box::new(|| parsed.iter().filter(|v| dispatch.is_valid(v)).count()),
    ));
    jobs.push((
        "jsonschema is_valid, per-type schema told the type (parsed Value)",
        Box::new(|| {
            parsed
                .iter()
                .zip(&told)
                .filter(|(v, s)| s.is_valid(v))
                .count()
        }),
    ));
    let against = [IGNORED, EXACT, VALUE, OURS, DISPATCH];
    let valid_rows = measure(jobs, rounds);
    table("Valid messages", valid_set, &valid_rows, &against);
    let all_rows = measure(byte_jobs(messages_set, true), rounds);
    table(
        "Messages, valid and invalid (malformed JSON included)",
        messages_set,
        &all_rows,
        &against,
    );
    let row_rows = measure(byte_jobs(rows_set, false), rounds);
    table(
        "Agent Mail rows carrying a message in body_md (JSON Schema cannot read body_md: no jsonschema rows)",
        rows_set,
        &row_rows,
        &[IGNORED, EXACT, VALUE, OURS],
    );

    println!("\nGoals: the median of the rounds' paired ratios (each round times both jobs back to back), its range over the rounds, and the ratio of the two medians above.\n");
    let goal = |what: &str, rows: &[Timing], against: &str, min: f64| {
        let (median, low, high) = paired(rows, OURS, against);
        let verdict = if median >= min { "met" } else { "missed" };
        println!(
            "- {what}: {median:.2} (rounds {low:.2}–{high:.2}; ratio of medians {:.2}) (goal >= {min:.2}): {verdict}",
            ratio(rows, OURS, against)
        );
    };
    goal(
        "valid messages: validate_slice throughput / tokenizer floor",
        &valid_rows,
        IGNORED,
        0.4,
    );
    let (exact, _, _) = paired(&valid_rows, OURS, EXACT);
    println!(
        "  (against the exact tokenizer floor, which accepts what the Value parser accepts: {exact:.2})"
    );
    goal(
        "valid messages: validate_slice throughput / jsonschema parse + dispatching schema",
        &valid_rows,
        DISPATCH,
        1.5,
    );
    goal(
        "messages valid and invalid: validate_slice throughput / jsonschema parse + dispatching schema",
        &all_rows,
        DISPATCH,
        1.5,
    );
}
