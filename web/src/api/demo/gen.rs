//! The demo's generator: a fixed-seed random source, the clock and the messages so far, and
//! how a protocol message travels in a demo message's body.

use super::dates::{timestamp, BASE_MS, DEMO_NOW_MS};
use super::world::DemoMessage;
use serde_json::Value;
use switchboard_core::protocol::builders::build::{build, BuildOptions};

/// A fixed-seed linear congruential generator: the same data on every load.
pub struct Lcg(u64);

impl Lcg {
    /// The generator started at `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// The next number.
    pub fn draw(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.draw() % (n.max(1) as u64)).unwrap_or(0)
    }
    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// 16 bytes (a droid message id's randomness).
    pub fn bytes(&mut self) -> [u8; 16] {
        let (a, b) = (self.draw(), self.draw());
        let mut out = [0; 16];
        out[..8].copy_from_slice(&a.to_le_bytes());
        out[8..].copy_from_slice(&b.to_le_bytes());
        out
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.draw() % 100 < percent
    }
}

/// A protocol message as the core's builders write it (valid by construction): `key` is the
/// family and type (`droid/task_assignment`), `fields` its own members; the options fill the
/// discriminator, the constants, times, ids and senders.
///
/// # Panics
/// Fields the registry refuses: the demo's are fixed, and its tests build every one.
#[must_use]
pub fn built(key: &str, fields: Value, options: &BuildOptions) -> Value {
    match build(key, &fields, options) {
        Ok(message) => message.to_value(),
        Err(error) => panic!("the demo's {key} is built from valid fields: {error:?}"),
    }
}

/// A protocol message as Agent Mail carries it: a short note and a fenced JSON block, or
/// (droid formats) the raw JSON as the whole body.
pub fn fenced(note: &str, value: &Value) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    format!("{note}\n\n```json\n{pretty}\n```\n")
}

/// The generator: a fixed-seed random source, the clock (seconds after [`BASE_MS`]) and the
/// messages so far.
pub struct Gen {
    /// The random source.
    pub rng: Lcg,
    /// Seconds after the demo's first date.
    pub clock: u64,
    /// The messages so far.
    pub messages: Vec<DemoMessage>,
}

impl Gen {
    /// Stores a message a little after the previous one (37 s to 7 min later).
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        project: usize,
        from: &str,
        to: &[&str],
        subject: String,
        body_md: String,
        importance: &'static str,
        ack_required: bool,
        thread_id: Option<String>,
    ) -> u64 {
        self.clock += 37 + self.rng.draw() % 400;
        self.store(
            project,
            from,
            to,
            subject,
            body_md,
            importance,
            ack_required,
            thread_id,
        )
    }

    /// Stores a message at the current clock.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        project: usize,
        from: &str,
        to: &[&str],
        subject: String,
        body_md: String,
        importance: &'static str,
        ack_required: bool,
        thread_id: Option<String>,
    ) -> u64 {
        let id = self.messages.len() as u64 + 1;
        self.messages.push(DemoMessage {
            id,
            project,
            from: from.to_string(),
            to: to.iter().map(|s| (*s).to_string()).collect(),
            subject,
            body_md,
            created_ts: timestamp(self.clock),
            importance: importance.to_string(),
            ack_required,
            thread_id,
        });
        id
    }

    /// The clock as a protocol timestamp (`2026-11-10T00:00:00Z`).
    #[must_use]
    pub fn ts(&self) -> String {
        format!("{}Z", &timestamp(self.clock)[..19])
    }

    /// Sets the clock to `seconds` before the demo's now.
    pub fn at(&mut self, seconds: u64) {
        let now = u64::try_from((DEMO_NOW_MS - BASE_MS) / 1000).unwrap_or(0);
        self.clock = now - seconds;
    }
}
