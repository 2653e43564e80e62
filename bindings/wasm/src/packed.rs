//! The reports that need more than a result code, packed for the JS layer: one text holding
//! every string in order and one table of numbers saying how to cut it, which the JS layer
//! turns into report objects (`bindings/wasm/js/api.js`, `takeReports`). Reading them costs
//! a tenth of parsing the same reports as JSON, and writing them escapes nothing.
//!
//! Lengths count UTF-16 code units (what a JS string's `slice` counts). Per report:
//! - a head word: bit 0 valid; bits 1–3 the family (its registry position + 1, 0 = none);
//!   bits 4–11 the message type (position + 1, 0 = none); bits 12–13 the version: 0 none,
//!   1 the family's own (the registry's), 2 its text (its length follows);
//! - the number of issues;
//! - the version's length, with bits 12–13 = 2;
//! - per issue: a word with the code (its position in [`IssueCode::ALL`]) in bits 0–4, bit 5
//!   set for a warning, and (with `segments`) the number of path segments from bit 8; the
//!   JSON Pointer's length; the message's length; then (with `segments`) one word per segment:
//!   a member name's length times two, or an index times two plus one.
//!
//! The text holds, per report, its version (form 2), then per issue its pointer, its message
//! and (with `segments`) the names among its segments.

use switchboard_core::protocol::{IssueCode, IssueLog, SegmentRef, Severity, Verdict, REGISTRY};

/// Reports packed as text and table (see the module docs).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Packed {
    /// Every string, in order.
    pub text: String,
    /// How to cut the text into reports.
    pub table: Vec<u32>,
}

impl Packed {
    /// Forgets every report packed, keeping the buffers for the next ones.
    pub fn clear(&mut self) {
        self.text.clear();
        self.table.clear();
    }

    /// Packs a report, its verdict and its issues, after those packed before; with
    /// `segments`, each issue's path segments too.
    pub fn push(&mut self, verdict: &Verdict, issues: &IssueLog, segments: bool) {
        let (family, kind) = positions(verdict);
        let version = match &verdict.version {
            None => 0,
            Some(_) if has_own_version(verdict, family) => 1,
            Some(_) => 2,
        };
        self.table
            .push(u32::from(verdict.valid) | family << 1 | kind << 4 | version << 12);
        self.table.push(len32(issues.len()));
        if version == 2 {
            let text = verdict.version.as_deref().unwrap_or_default();
            let n = self.string(text);
            self.table.push(n);
        }
        for issue in issues.iter() {
            let code = IssueCode::ALL
                .iter()
                .position(|c| *c == issue.code())
                .map_or(0, len32);
            let warning = u32::from(issue.severity() == Severity::Warning) << 5;
            let path = issue.segments();
            let count = if segments { len32(path.len()) << 8 } else { 0 };
            self.table.push(code | warning | count);
            let start = self.text.len();
            issue.write_pointer(&mut self.text);
            let pointer = utf16_len(&self.text[start..]);
            self.table.push(pointer);
            let message = self.string(issue.message());
            self.table.push(message);
            if segments {
                for segment in path {
                    let word = match segment {
                        SegmentRef::Key(k) => self.string(k) << 1,
                        SegmentRef::Index(i) => len32(i) << 1 | 1,
                    };
                    self.table.push(word);
                }
            }
        }
    }

    /// Appends `s` to the text; its length in UTF-16 code units.
    fn string(&mut self, s: &str) -> u32 {
        self.text.push_str(s);
        utf16_len(s)
    }
}

/// The registry positions + 1 of a verdict's family and message type (0 for none): the
/// head word's fields here and the result code's (`crate::report`).
pub fn positions(verdict: &Verdict) -> (u32, u32) {
    let Some(family) = REGISTRY.iter().position(|f| Some(f.id) == verdict.family) else {
        return (0, 0);
    };
    // The name is the registry's own: found by address, without comparing bytes.
    let types = REGISTRY[family].types;
    let kind = verdict.message_type.and_then(|name| {
        types
            .iter()
            .position(|t| std::ptr::eq(t.name, name))
            .or_else(|| types.iter().position(|t| t.name == name))
    });
    (family as u32 + 1, kind.map_or(0, |i| i as u32 + 1))
}

/// Whether a verdict declares the version of its family (`family`: its position + 1, as
/// [`positions`] gives it), which the JS layer knows from the registry tables.
pub fn has_own_version(verdict: &Verdict, family: u32) -> bool {
    family.checked_sub(1).is_some_and(|i| {
        let own = REGISTRY[i as usize].version;
        verdict
            .version
            .as_deref()
            .is_some_and(|v| std::ptr::eq(v, own) || v == own)
    })
}

/// The length of `s` in UTF-16 code units.
fn utf16_len(s: &str) -> u32 {
    if s.is_ascii() {
        len32(s.len())
    } else {
        len32(s.encode_utf16().count())
    }
}

/// A count as a table word (inputs are at most 256 MiB, so every count fits).
fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_core::protocol::{self, Options, PathSegment, Report};

    fn of(reports: &[Report], segments: bool) -> Packed {
        let mut packed = Packed::default();
        for report in reports {
            let mut log = IssueLog::new();
            for issue in &report.issues {
                log.push_issue(issue);
            }
            packed.push(&report.verdict(), &log, segments);
        }
        packed
    }

    #[test]
    fn reports_pack_their_strings_in_order_with_utf16_lengths() {
        let msg = serde_json::json!({"type": "request_review", "context": 5,
            "nested": {"é😀/~": [1]}});
        let report = protocol::validate(&msg, &Options::default());
        assert_eq!(report.issues.len(), 1, "{report:?}");
        let pointer = of(std::slice::from_ref(&report), false);
        assert_eq!(
            pointer.text, "/contextexpected a string, found number",
            "pointer then message"
        );
        let family = 1 + REGISTRY
            .iter()
            .position(|f| Some(f.id) == report.family)
            .unwrap() as u32;
        assert_eq!(
            pointer.table[0] & 0b1111,
            family << 1,
            "invalid, its family"
        );
        assert_eq!(pointer.table[0] >> 12, 1, "the family's own version");
        assert_eq!(pointer.table[1..], [1, 7, 8, 31]);
        let segments = of(std::slice::from_ref(&report), true);
        assert_eq!(segments.text, format!("{}context", pointer.text));
        assert_eq!(segments.table[2..], [7 | 1 << 8, 8, 31, 7 << 1]);
        // Lengths in UTF-16 code units, indexes marked, other versions written out.
        let mut odd = report.clone();
        odd.version = Some("2.5".into());
        odd.issues[0].path = protocol::Path::from_segments(vec![
            PathSegment::Key("é😀/~".into()),
            PathSegment::Index(3),
        ]);
        odd.issues[0].message = "«😀»".into();
        let packed = of(&[odd], true);
        assert_eq!(packed.text, "2.5/é😀~1~0/3«😀»é😀/~");
        assert_eq!(packed.table[0] >> 12, 2);
        assert_eq!(
            packed.table[1..],
            [1, 3, 7 | 2 << 8, 10, 4, 5 << 1, 3 << 1 | 1]
        );
    }
}
