//! Issues as validation lists them: three buffers (entries, path segments, and one text holding
//! every member name and message) instead of an [`Issue`] with its own path and message each,
//! so listing an issue allocates nothing once the buffers have grown, and a caller that
//! validates many messages reuses them ([`super::validate_slice_into`]). A [`super::Report`]
//! copies them out into [`Issue`]s.

use super::issue::{
    push_pointer, Issue, IssueCode, LazyPath, Path, PathSegment, SegmentRef, Severity,
};
use std::fmt;
use std::ops::Range;

/// The issues of one validation, in the order they were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IssueLog {
    entries: Vec<Entry>,
    segments: Vec<Segment>,
    /// Member names and messages, in order.
    text: String,
}

/// The most issues [`IssueLog::reorder`] sorts.
const REORDERED: usize = 64;

/// One issue: its code and severity, and where its path and message are.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    code: IssueCode,
    severity: Severity,
    segments: Range<usize>,
    message: Range<usize>,
}

/// One path step, its member name in the log's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Segment {
    Key(usize, usize),
    Index(usize),
}

/// An issue's message, written into the log when the issue is listed (never built for an
/// issue that is only counted).
pub(crate) trait Message {
    /// Appends the message to `out`.
    fn write_to(self, out: &mut String);
}

/// A message built on demand.
impl<F: FnOnce() -> String> Message for F {
    fn write_to(self, out: &mut String) {
        write_pieces(out, &[&self()]);
    }
}

/// A message of fixed pieces, written one after the other.
impl<const N: usize> Message for [&str; N] {
    fn write_to(self, out: &mut String) {
        write_pieces(out, &self);
    }
}

impl Message for &str {
    fn write_to(self, out: &mut String) {
        write_pieces(out, &[self]);
    }
}

/// Appends the pieces to `out`. Out of line, as every step of listing an issue that does not
/// depend on the kind of message: there are dozens of kinds.
#[inline(never)]
pub(crate) fn write_pieces(out: &mut String, pieces: &[&str]) {
    for piece in pieces {
        out.push_str(piece);
    }
}

impl IssueLog {
    /// An empty log.
    pub fn new() -> Self {
        IssueLog::default()
    }

    /// Forgets every issue, keeping the buffers.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.segments.clear();
        self.text.clear();
    }

    /// How many issues are listed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no issue is listed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The issues, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = LoggedIssue<'_>> {
        self.entries
            .iter()
            .map(|entry| LoggedIssue { log: self, entry })
    }

    /// The issues as [`Issue`]s.
    pub fn to_issues(&self) -> Vec<Issue> {
        self.iter().map(|issue| issue.to_issue()).collect()
    }

    /// Lists an issue at `path`.
    pub(crate) fn push(
        &mut self,
        path: LazyPath<'_>,
        code: IssueCode,
        severity: Severity,
        message: impl Message,
    ) {
        let segments = self.push_path(path);
        let start = self.text.len();
        message.write_to(&mut self.text);
        self.push_entry(code, severity, segments, start);
    }

    /// Lists an issue whose segments and message (from `message_start` on) are written.
    #[inline(never)]
    fn push_entry(
        &mut self,
        code: IssueCode,
        severity: Severity,
        segments: Range<usize>,
        message_start: usize,
    ) {
        self.entries.push(Entry {
            code,
            severity,
            segments,
            message: message_start..self.text.len(),
        });
    }

    /// Writes the segments of `path`; where they are.
    #[inline(never)]
    fn push_path(&mut self, path: LazyPath<'_>) -> Range<usize> {
        let first = self.segments.len();
        let mut at = path;
        loop {
            let (step, up) = match at {
                LazyPath::Root => break,
                LazyPath::Key(up, k) => (SegmentRef::Key(k), up),
                LazyPath::Index(up, i) => (SegmentRef::Index(i), up),
            };
            self.push_segment(step);
            at = *up;
        }
        // Found innermost first.
        self.segments[first..].reverse();
        first..self.segments.len()
    }

    /// Lists an issue at the root.
    pub(crate) fn push_root(&mut self, code: IssueCode, severity: Severity, message: impl Message) {
        self.push(LazyPath::Root, code, severity, message);
    }

    /// Writes one path step (a member name into the text).
    fn push_segment(&mut self, step: SegmentRef<'_>) {
        let segment = match step {
            SegmentRef::Key(k) => {
                let start = self.text.len();
                self.text.push_str(k);
                Segment::Key(start, self.text.len())
            }
            SegmentRef::Index(i) => Segment::Index(i),
        };
        self.segments.push(segment);
    }

    /// Lists a copy of `issue`.
    #[inline(never)]
    pub fn push_issue(&mut self, issue: &Issue) {
        let first = self.segments.len();
        for step in issue.path.segment_refs() {
            self.push_segment(step);
        }
        let start = self.text.len();
        self.text.push_str(&issue.message);
        self.push_entry(
            issue.code,
            issue.severity,
            first..self.segments.len(),
            start,
        );
    }

    /// Keeps the first `len` issues; the severities of those dropped.
    pub(crate) fn truncate(&mut self, len: usize) -> impl Iterator<Item = Severity> + '_ {
        self.entries
            .drain(len.min(self.len())..)
            .map(|e| e.severity)
    }

    /// Puts the first `upto` issues in the order of their places (`place` of each issue),
    /// keeping the order they were listed in among equal places; `None` (the issues as they
    /// were) when `place` has no answer for one, or when the first `upto` are out of order
    /// and more than [`REORDERED`] (an insertion sort's time grows with their square).
    pub(crate) fn reorder<K: Ord>(
        &mut self,
        upto: usize,
        mut place: impl FnMut(LoggedIssue<'_>) -> Option<K>,
    ) -> Option<()> {
        let upto = upto.min(self.len());
        if upto < 2 {
            return Some(());
        }
        let mut keys = Vec::with_capacity(upto);
        for issue in self.iter().take(upto) {
            keys.push(place(issue)?);
        }
        if keys.is_sorted() {
            return Some(());
        }
        if upto > REORDERED {
            return None;
        }
        // Insertion sort: a few issues, most of them in place already, and stable.
        for i in 1..keys.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] > keys[j] {
                keys.swap(j - 1, j);
                self.entries.swap(j - 1, j);
                j -= 1;
            }
        }
        Some(())
    }

    /// Replaces `secret` by `mask` in every message that holds it (a message that echoes a
    /// value would repeat a secret in it). The new message goes to the end of the text.
    pub(crate) fn mask(&mut self, secret: &str, mask: &str) {
        for entry in &mut self.entries {
            let message = &self.text[entry.message.clone()];
            if message.contains(secret) {
                let masked = message.replace(secret, mask);
                let start = self.text.len();
                self.text.push_str(&masked);
                entry.message = start..self.text.len();
            }
        }
    }
}

/// One issue of an [`IssueLog`].
#[derive(Clone, Copy)]
pub struct LoggedIssue<'a> {
    log: &'a IssueLog,
    entry: &'a Entry,
}

impl<'a> LoggedIssue<'a> {
    /// What, as a stable code.
    pub fn code(&self) -> IssueCode {
        self.entry.code
    }

    /// Error or (lenient-mode) warning.
    pub fn severity(&self) -> Severity {
        self.entry.severity
    }

    /// A human-readable explanation.
    pub fn message(&self) -> &'a str {
        &self.log.text[self.entry.message.clone()]
    }

    /// The path's steps, outermost first.
    pub fn segments(&self) -> impl ExactSizeIterator<Item = SegmentRef<'a>> + Clone {
        let text = &self.log.text;
        self.log.segments[self.entry.segments.clone()]
            .iter()
            .map(move |s| match *s {
                Segment::Key(start, end) => SegmentRef::Key(&text[start..end]),
                Segment::Index(i) => SegmentRef::Index(i),
            })
    }

    /// Appends the path as a JSON Pointer to `out` (as [`Path::to_pointer`] writes it).
    pub fn write_pointer(&self, out: &mut String) {
        push_pointer(self.segments(), out);
    }

    /// The issue as an [`Issue`].
    pub fn to_issue(&self) -> Issue {
        let path = self.segments().map(|s| match s {
            SegmentRef::Key(k) => PathSegment::Key(k.to_owned()),
            SegmentRef::Index(i) => PathSegment::Index(i),
        });
        Issue {
            path: Path::from_segments(path.collect()),
            code: self.code(),
            message: self.message().to_owned(),
            severity: self.severity(),
        }
    }
}

impl fmt::Debug for LoggedIssue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_issue(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_come_back_as_they_were_listed() {
        let mut log = IssueLog::new();
        let root = LazyPath::Root;
        let a = root.key("a/b");
        let b = a.index(3);
        let c = b.key("é~");
        log.push(c, IssueCode::WrongType, Severity::Error, ["x", "y"]);
        log.push_root(IssueCode::TooManyIssues, Severity::Warning, || {
            format!("{} more", 2)
        });
        log.push(a, IssueCode::NotInEnum, Severity::Error, "secret here");
        log.mask("secret", "s****t");
        let issues = log.to_issues();
        assert_eq!(issues.len(), 3);
        assert_eq!(issues[0].path.to_pointer(), "/a~1b/3/é~0");
        assert_eq!(issues[0].message, "xy");
        assert_eq!(issues[1].path, Path::root());
        assert_eq!(issues[1].message, "2 more");
        assert_eq!(issues[1].severity, Severity::Warning);
        assert_eq!(issues[2].message, "s****t here");
        let mut pointer = String::new();
        log.iter().next().unwrap().write_pointer(&mut pointer);
        assert_eq!(pointer, "/a~1b/3/é~0");
        // A copy of an issue is the issue.
        let mut copy = IssueLog::new();
        for issue in &issues {
            copy.push_issue(issue);
        }
        assert_eq!(copy.to_issues(), issues);
        log.clear();
        assert!(log.is_empty());
    }
}
