//! Pane scale benchmark (prints a table; not a timed test).
//!
//! For 10k, 100k and 1M inbox rows with a matching outbox and 1k contacts:
//! wall time and peak heap of `build_snapshot`, against the parse floor (the same three
//! payloads parsed into `serde_json::Value`) measured in the same run, plus the
//! incremental path (`PaneState`: a 100-row batch, one ack, one reply, then a snapshot).
//!
//! Run: `cargo bench -p switchboard-core --bench pane` (sizes: `-- 10000 100000`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use switchboard_core::pane::{self, FilterMode, PaneState};

/// Counts live heap bytes and their high-water mark.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grow(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f` `runs` times; returns the fastest wall time and the largest heap growth
/// above the live bytes at the start (the memory the step itself needed).
fn measure<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut peak = 0;
    for _ in 0..runs {
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let start = Instant::now();
        let out = f();
        best = best.min(start.elapsed());
        peak = peak.max(PEAK.load(Ordering::Relaxed) - base);
        drop(black_box(out));
    }
    (best, peak)
}

/// One message row as real servers send it (extra fields included).
fn message(out: &mut String, id: usize, from: &str, ack: &str) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        r#"{{"id":{id},"project_id":1,"sender_id":{},"thread_id":"thread-{:04}","subject":"[coord] status update {id} for the review pane","importance":"{}","ack_required":{ack},"created_ts":"2026-11-{:02}T{:02}:{:02}:{:02}.{:06}+00:00","attachments":[],"from":"{from}","kind":"to"}}"#,
        id % 97,
        id % 1000,
        if id.is_multiple_of(5) {
            "high"
        } else {
            "normal"
        },
        1 + id % 28,
        id % 24,
        (id / 24) % 60,
        (id / 1440) % 60,
        (id * 7919) % 1_000_000,
    );
}

fn payloads(rows: usize, contacts: usize) -> (String, String, String) {
    let mut inbox = String::from(r#"{"result":["#);
    let mut outbox = String::from("[");
    for i in 0..rows {
        if i > 0 {
            inbox.push(',');
            outbox.push(',');
        }
        // Ids in a scrambled order, as real rows arrive newest first.
        let id = (i * 7_368_787) % rows + 1;
        message(
            &mut inbox,
            id,
            "BlueLake",
            if id.is_multiple_of(3) {
                "true"
            } else {
                "false"
            },
        );
        message(
            &mut outbox,
            rows + id,
            "GreenCastle",
            if id.is_multiple_of(4) { "1" } else { "0" },
        );
    }
    inbox.push_str("]}");
    outbox.push(']');
    let mut list = String::from(r#"{"result":["#);
    for i in 0..contacts {
        if i > 0 {
            list.push(',');
        }
        let status = ["approved", "pending", "approved", "denied"][i % 4];
        list.push_str(&format!(
            r#"{{"to":"Agent{i:04}","status":"{status}","reason":"coordinate thread handoffs","updated_ts":"2026-11-20T10:00:00+00:00","expires_ts":"2026-12-20T10:00:00+00:00"}}"#
        ));
    }
    list.push_str("]}");
    (inbox, outbox, list)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![10_000, 100_000, 1_000_000]
    } else {
        sizes
    };
    let contract = pane::contract();
    println!("pane benchmark (native, release): inbox rows N, outbox rows N, 1000 contacts, mode all, N/10 acked ids");
    println!();
    println!("| N | payload MiB | Value parse floor ms | build_snapshot ms | ratio | ns/row | floor peak MiB | build peak MiB | mem ratio | PaneState update µs | PaneState snapshot ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for &rows in &sizes {
        let (inbox, outbox, contacts) = payloads(rows, 1000);
        let acked: Vec<u64> = (1..=rows as u64).step_by(10).collect();
        let runs = if rows >= 1_000_000 { 3 } else { 5 };
        let (floor, floor_peak) = measure(runs, || {
            (
                serde_json::from_str::<serde_json::Value>(&inbox).ok(),
                serde_json::from_str::<serde_json::Value>(&outbox).ok(),
                serde_json::from_str::<serde_json::Value>(&contacts).ok(),
            )
        });
        let (build, build_peak) = measure(runs, || {
            pane::build_snapshot(
                &contract,
                &inbox,
                &outbox,
                &contacts,
                None,
                FilterMode::All,
                &acked,
            )
        });
        let snapshot = pane::build_snapshot(
            &contract,
            &inbox,
            &outbox,
            &contacts,
            None,
            FilterMode::All,
            &acked,
        );
        let state = PaneState::new(
            contract.clone(),
            &inbox,
            &outbox,
            &contacts,
            None,
            FilterMode::All,
            &acked,
        );
        let mut batch = String::from("[");
        for i in 0..100 {
            if i > 0 {
                batch.push(',');
            }
            message(&mut batch, 3 * rows + i, "BlueLake", "true");
        }
        batch.push(']');
        let mut reply = String::from("[");
        message(&mut reply, 4 * rows, "GreenCastle", "false");
        reply.push(']');
        let (mut update, mut derive) = (Duration::MAX, Duration::MAX);
        for _ in 0..runs {
            let Ok(mut state) = state.clone() else { break };
            let start = Instant::now();
            let added = (state.add_inbox(&batch), state.add_outbox(&reply));
            state.acknowledge(3 * rows as u64);
            update = update.min(start.elapsed());
            let start = Instant::now();
            let snap = state.snapshot();
            derive = derive.min(start.elapsed());
            let _ = black_box((added, snap));
        }
        let check = snapshot
            .as_ref()
            .map(|s| (s.inbox.len(), s.outbox.len(), s.parse_errors.len()));
        assert_eq!(check, Ok((rows, rows, 0)), "benchmark payloads must parse");
        let payload_mib = mib(inbox.len() + outbox.len() + contacts.len());
        println!(
            "| {rows} | {payload_mib:.1} | {:.1} | {:.1} | {:.2} | {:.0} | {:.1} | {:.1} | {:.2} | {:.0} | {:.1} |",
            ms(floor),
            ms(build),
            build.as_secs_f64() / floor.as_secs_f64(),
            build.as_secs_f64() * 1e9 / (2 * rows) as f64,
            mib(floor_peak),
            mib(build_peak),
            build_peak as f64 / floor_peak as f64,
            update.as_secs_f64() * 1e6,
            ms(derive),
        );
    }
}
