//! The long fuzz run (not part of CI; `scripts/fuzz.sh` runs it in release mode).
//!
//! Feeds generated and mutated inputs to every target of [`targets::TARGETS`] (validation
//! of bytes, objects, text and JSON Lines, messages carried in Agent Mail rows, the pane's
//! build and incremental state, the server-reply decoders feeding the pane), counts panics (a
//! broken invariant asserted by a target is one too) and times every input. Prints, per target:
//! inputs tried, panics, the median cost per byte and the slowest input per byte, re-timed
//! (best of 7) and as a ratio to the median. Cost per byte is nanoseconds over
//! max(length, 64 B), so tiny inputs are not judged by their fixed cost.
//!
//! ```text
//! cargo run --release -p switchboard-core --example fuzz -- \
//!     [--inputs 10000000] [--seed 1] [--target NAME] [--out DIR]
//! ```
//!
//! Exit status 0 when the goal holds (no panic, no input slower than 10× the median per
//! byte), 1 otherwise. Panicking and slowest inputs are written to `--out`
//! (default `$TMPDIR/switchboard-fuzz`) to replay.

mod mutate;
mod targets;

use mutate::Rng;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;
use targets::{Target, TARGETS};

/// Inputs shorter than this are costed as this long.
const FLOOR_BYTES: usize = 64;
/// The goal: no input slower per byte than this many times the median.
const GOAL_RATIO: f64 = 10.0;
/// Slowest candidates kept per target for re-timing.
const CANDIDATES: usize = 16;

struct Args {
    inputs: u64,
    seed: u64,
    only: Option<String>,
    out: PathBuf,
}

fn args() -> Result<Args, String> {
    let mut args = Args {
        inputs: 10_000_000,
        seed: 1,
        only: None,
        out: std::env::temp_dir().join("switchboard-fuzz"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--inputs" => args.inputs = value()?.parse().map_err(|e| format!("--inputs: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--target" => args.only = Some(value()?),
            "--out" => args.out = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

/// Every file under the target's seed folders (paths relative to `core/`).
fn seeds(target: &Target) -> Vec<Vec<u8>> {
    fn walk(dir: &Path, out: &mut Vec<Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                walk(&path, out);
            } else if let Ok(bytes) = std::fs::read(&path) {
                out.push(bytes);
            }
        }
    }
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in target.seed_dirs {
        walk(&core.join(dir), &mut out);
    }
    out
}

/// One target's run.
struct Outcome {
    inputs: u64,
    panics: u64,
    first_panic: Option<String>,
    median: f64,
    slowest: f64,
    slowest_len: usize,
    bytes: u64,
}

fn cost(nanos: f64, len: usize) -> f64 {
    nanos / len.max(FLOOR_BYTES) as f64
}

fn save(out: &Path, name: &str, what: &str, input: &[u8]) -> PathBuf {
    let file = out.join(format!("{}-{what}.bin", name.replace([' ', '/'], "_")));
    let _ = std::fs::create_dir_all(out);
    let _ = std::fs::write(&file, input);
    file
}

fn fuzz(target: &Target, inputs: u64, rng: &mut Rng, out: &Path) -> Outcome {
    let corpus = seeds(target);
    let mut costs: Vec<f32> = Vec::with_capacity(inputs as usize);
    let mut slow: Vec<(f64, Vec<u8>)> = Vec::new();
    let (mut panics, mut first_panic, mut bytes) = (0, None, 0);
    for _ in 0..inputs {
        let base = match target.generate {
            Some(generate) if corpus.is_empty() || rng.one_in(2) => generate(rng),
            _ => rng.pick(&corpus).clone(),
        };
        let other = if corpus.is_empty() {
            &base
        } else {
            rng.pick(&corpus)
        };
        let input = if rng.one_in(8) {
            base
        } else {
            mutate::mutate(rng, &base, other)
        };
        let start = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        let nanos = start.elapsed().as_nanos() as f64;
        bytes += input.len() as u64;
        if let Err(payload) = result {
            panics += 1;
            if first_panic.is_none() {
                let text = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let file = save(out, target.name, "panic", &input);
                first_panic = Some(format!("{text} (input: {})", file.display()));
            }
            continue;
        }
        let c = cost(nanos, input.len());
        costs.push(c as f32);
        if slow.len() < CANDIDATES || c > slow[slow.len() - 1].0 {
            slow.push((c, input));
            slow.sort_by(|a, b| b.0.total_cmp(&a.0));
            slow.truncate(CANDIDATES);
        }
    }
    let median = if costs.is_empty() {
        0.0
    } else {
        let mid = costs.len() / 2;
        f64::from(*costs.select_nth_unstable_by(mid, f32::total_cmp).1)
    };
    // Re-time the slowest candidates (best of 7), so a descheduled run is not the answer.
    let mut slowest = (0.0, Vec::new());
    for (_, input) in slow {
        let best = (0..7)
            .map(|_| {
                let start = Instant::now();
                let _ = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
                start.elapsed().as_nanos() as f64
            })
            .fold(f64::INFINITY, f64::min);
        let c = cost(best, input.len());
        if c > slowest.0 {
            slowest = (c, input);
        }
    }
    save(out, target.name, "slowest", &slowest.1);
    Outcome {
        inputs,
        panics,
        first_panic,
        median,
        slowest: slowest.0,
        slowest_len: slowest.1.len(),
        bytes,
    }
}

fn main() -> std::process::ExitCode {
    let args = match args() {
        Ok(args) => args,
        Err(text) => {
            eprintln!("fuzz: {text}");
            return std::process::ExitCode::from(2);
        }
    };
    let chosen: Vec<&Target> = TARGETS
        .iter()
        .filter(|t| args.only.as_deref().is_none_or(|name| name == t.name))
        .collect();
    if chosen.is_empty() {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        eprintln!("fuzz: no target named that (targets: {})", names.join(", "));
        return std::process::ExitCode::from(2);
    }
    // Panics are counted, not printed (the first of each target is reported below).
    panic::set_hook(Box::new(|_| {}));
    let per_target = args.inputs.div_ceil(chosen.len() as u64);
    println!(
        "switchboard fuzz: seed {}, {} inputs over {} targets; cost per byte = ns / max(len, {FLOOR_BYTES} B)\n",
        args.seed,
        per_target * chosen.len() as u64,
        chosen.len()
    );
    println!("| target | inputs | MB fed | panics | median ns/B | slowest ns/B (best of 7) | ratio | slowest input |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let started = Instant::now();
    let (mut total, mut panics, mut worst) = (0, 0, 0.0_f64);
    let mut notes = Vec::new();
    for (index, target) in chosen.iter().enumerate() {
        let mut rng = Rng::new(args.seed.wrapping_mul(1_000_003).wrapping_add(index as u64));
        let o = fuzz(target, per_target, &mut rng, &args.out);
        let ratio = if o.median > 0.0 {
            o.slowest / o.median
        } else {
            0.0
        };
        println!(
            "| {} | {} | {:.1} | {} | {:.2} | {:.2} | {:.1} | {} B |",
            target.name,
            o.inputs,
            o.bytes as f64 / 1e6,
            o.panics,
            o.median,
            o.slowest,
            ratio,
            o.slowest_len
        );
        total += o.inputs;
        panics += o.panics;
        worst = worst.max(ratio);
        if let Some(text) = o.first_panic {
            notes.push(format!("{}: first panic: {text}", target.name));
        }
    }
    println!(
        "\ntotal: {total} inputs in {:.0} s, {panics} panics, slowest input per byte {worst:.1}× the median of its target (goal: 0 panics, < {GOAL_RATIO}×); inputs in {}",
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    for note in &notes {
        println!("{note}");
    }
    if panics == 0 && worst < GOAL_RATIO {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
