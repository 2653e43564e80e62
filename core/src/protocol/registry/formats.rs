//! String formats shared by the families: RFC 3339 timestamps, identifiers and patterns, each
//! with its exported regular expression and a hand-written equivalent matcher (no regex engine).

use super::spec::{Deviation, Pattern};
use crate::protocol::issue::IssueCode;

/// Agent-PO examples write the literal `"ISO8601"` where a timestamp belongs.
pub static ISO8601_PLACEHOLDER: Deviation = Deviation {
    id: "iso8601_placeholder",
    description: "Agent-PO examples use the literal \"ISO8601\" instead of a date-time",
};

/// Agent-PO docs use `agent-{uuid}` ids, whose hyphens break `^agent-[a-z0-9]+$`.
pub static AGENT_UUID_ID: Deviation = Deviation {
    id: "agent_uuid_id",
    description: "Agent-PO docs use agent-<uuid> ids (hyphens) that break ^agent-[a-z0-9]+$",
};

/// The seeds' templates write placeholders (`"<message_type>"`, `"message_type"`,
/// `"msg-uuid-v4"`) where a message names its type or id.
pub static SEED_TEMPLATE: Deviation = Deviation {
    id: "seed_template",
    description: "a seed template's placeholder (\"<message_type>\", \"message_type\", \"msg-uuid-v4\") where a type or id belongs",
};

/// The Pair SESSION_COMPLETE example's `commit_sha` is not hexadecimal.
pub static NON_HEX_COMMIT: Deviation = Deviation {
    id: "non_hex_commit_sha",
    description: "the Pair SESSION_COMPLETE example uses a non-hex commit_sha (a1b2…g7h8i9j0)",
};

/// `^agent-[a-z0-9]+$` (upstream Agent-PO schema).
pub static AGENT_ID: Pattern = Pattern {
    name: "agent_id",
    regex: "^agent-[a-z0-9]+$",
    code: IssueCode::BadId,
    check: is_agent_id,
    example: "agent-7f3a",
    lenient: Some((&AGENT_UUID_ID, is_agent_uuid_id)),
};

/// `^TASK-[A-Z0-9-]+$` (upstream Agent-PO schema).
pub static PO_TASK_ID: Pattern = Pattern {
    name: "po_task_id",
    regex: "^TASK-[A-Z0-9-]+$",
    code: IssueCode::BadId,
    check: is_po_task_id,
    example: "TASK-042",
    lenient: None,
};

/// A beads-style task id such as `bd-42` or `asupersync-2b4jj.5.2`.
pub static BEADS_ID: Pattern = Pattern {
    name: "beads_id",
    regex: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
    code: IssueCode::BadId,
    check: is_beads_id,
    example: "bd-42",
    lenient: None,
};

/// A droid message id: a UUID in its canonical textual form (any version), bare or behind
/// the `msg-` prefix every example of the droid seed uses.
pub static MESSAGE_ID: Pattern = Pattern {
    name: "message_id",
    regex: "^(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    code: IssueCode::BadId,
    check: is_message_id,
    example: "msg-123e4567-e89b-12d3-a456-426614174000",
    lenient: Some((&SEED_TEMPLATE, is_placeholder)),
};

/// A git commit id, 7 to 40 lower-case hex digits.
pub static COMMIT_SHA: Pattern = Pattern {
    name: "commit_sha",
    regex: "^[0-9a-f]{7,40}$",
    code: IssueCode::BadPattern,
    check: is_commit_sha,
    example: "a1b2c3d4e5f6",
    lenient: Some((&NON_HEX_COMMIT, is_alnum_sha)),
};

/// A Pair artifact path, `tmp/pair_<timestamp>_<name>`.
pub static PAIR_ARTIFACT: Pattern = Pattern {
    name: "pair_artifact",
    regex: "^tmp/pair_[0-9]+_[^\\n]+$",
    code: IssueCode::BadPattern,
    check: is_pair_artifact,
    example: "tmp/pair_1234567890_spec_final.md",
    lenient: None,
};

/// A machine-readable UPPER_SNAKE error code.
pub static UPPER_SNAKE: Pattern = Pattern {
    name: "upper_snake",
    regex: "^[A-Z][A-Z0-9_]*$",
    code: IssueCode::BadPattern,
    check: is_upper_snake,
    example: "API_CONNECTION_ERROR",
    lenient: None,
};

fn all_bytes(s: &[u8], f: impl Fn(u8) -> bool) -> bool {
    s.iter().all(|&b| f(b))
}

fn is_agent_id(s: &str) -> bool {
    s.strip_prefix("agent-").is_some_and(|r| {
        !r.is_empty()
            && all_bytes(r.as_bytes(), |b| {
                b.is_ascii_lowercase() || b.is_ascii_digit()
            })
    })
}

fn is_agent_uuid_id(s: &str) -> bool {
    s.strip_prefix("agent-").is_some_and(is_uuid)
}

fn is_po_task_id(s: &str) -> bool {
    s.strip_prefix("TASK-").is_some_and(|r| {
        !r.is_empty()
            && all_bytes(r.as_bytes(), |b| {
                b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'
            })
    })
}

fn is_beads_id(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && all_bytes(b, |c| {
            c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'-'
        })
}

/// Canonical textual UUID, any version and case.
pub fn is_uuid(s: &str) -> bool {
    /// Where the dashes go, one bit per position.
    const DASHES: u64 = 1 << 8 | 1 << 13 | 1 << 18 | 1 << 23;
    let b = s.as_bytes();
    // Every byte is looked at, without stopping early: a UUID is short, and a loop with no
    // branch on the bytes costs less than one that may stop.
    b.len() == 36
        && b.iter().enumerate().fold(true, |ok, (i, &c)| {
            let fits = if DASHES >> i & 1 == 1 {
                c == b'-'
            } else {
                c.is_ascii_hexdigit()
            };
            ok & fits
        })
}

fn is_message_id(s: &str) -> bool {
    is_uuid(s.strip_prefix("msg-").unwrap_or(s))
}

/// Whether `s` is one of the seeds' template placeholders: `<anything>`, or the literals the
/// droid seed's common-fields template uses (`message_type`, `msg-uuid-v4`).
pub fn is_placeholder(s: &str) -> bool {
    (s.len() > 2 && s.starts_with('<') && s.ends_with('>'))
        || matches!(s, "message_type" | "msg-uuid-v4")
}

fn is_commit_sha(s: &str) -> bool {
    (7..=40).contains(&s.len())
        && all_bytes(s.as_bytes(), |b| {
            b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
        })
}

fn is_alnum_sha(s: &str) -> bool {
    (7..=40).contains(&s.len())
        && all_bytes(s.as_bytes(), |b| {
            b.is_ascii_digit() || b.is_ascii_lowercase()
        })
}

fn is_pair_artifact(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("tmp/pair_") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let Some(tail) = rest[digits..].strip_prefix('_') else {
        return false;
    };
    digits > 0 && !tail.is_empty() && !tail.contains('\n')
}

fn is_upper_snake(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_uppercase()
        && all_bytes(b, |c| {
            c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_'
        })
}

/// Whether `s` is an RFC 3339 `date-time` (as JSON Schema's `format: date-time`): full date,
/// `T`, time with optional fraction, and `Z` or a `±HH:MM` offset. Leap seconds are rejected.
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(part.iter().fold(0u32, |a, &d| a * 10 + u32::from(d - b'0')))
    };
    let (Some(year), Some(month), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (num(11..13), num(14..16), num(17..19)) else {
        return false;
    };
    if b[13] != b':' || b[16] != b':' {
        return false;
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || h > 23 || m > 59 || sec > 59 {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len()
                && b[i + 3] == b':'
                && matches!((num(i + 1..i + 3), num(i + 4..i + 6)), (Some(oh), Some(om)) if oh <= 23 && om <= 59)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against checking each position in turn: a UUID with every byte replaced by each of a
    /// few characters, and cut or lengthened.
    #[test]
    fn uuid_matches_a_position_by_position_check() {
        let model = |s: &str| {
            s.len() == 36
                && s.bytes().enumerate().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => c == b'-',
                    _ => c.is_ascii_hexdigit(),
                })
        };
        let uuid = "123e4567-E89b-12d3-a456-426614174000";
        let mut cases = vec![uuid.to_owned(), uuid[1..].to_owned(), format!("{uuid}0")];
        for i in 0..uuid.len() {
            for c in [b'0', b'f', b'F', b'g', b'-', b' '] {
                let mut b = uuid.as_bytes().to_vec();
                b[i] = c;
                cases.push(String::from_utf8(b).unwrap());
            }
        }
        for s in &cases {
            assert_eq!(is_uuid(s), model(s), "{s}");
        }
    }

    #[test]
    fn rfc3339_cases() {
        for ok in [
            "2025-12-25T12:00:00Z",
            "2025-12-25t12:00:00.123456z",
            "2024-02-29T00:00:00+05:30",
            "2025-12-31T23:59:59-00:00",
        ] {
            assert!(is_rfc3339(ok), "{ok}");
        }
        for bad in [
            "ISO8601",
            "2025-12-25 12:00:00Z",
            "2025-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-12-25T24:00:00Z",
            "2025-12-25T12:00:00",
            "2025-12-25T12:00:00.Z",
            "2025-12-25T12:00:00+0530",
            "2025-12-25T12:00:00Zjunk",
            "２０２５-12-25T12:00:00Z",
        ] {
            assert!(!is_rfc3339(bad), "{bad}");
        }
    }

    #[test]
    fn ids() {
        assert!(is_agent_id("agent-xxx"));
        assert!(!is_agent_id("agent-123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_agent_uuid_id(
            "agent-123e4567-e89b-12d3-a456-426614174000"
        ));
        assert!(is_po_task_id("TASK-XXX"));
        assert!(!is_po_task_id("task-1"));
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("msg-123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_message_id("msg-123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_message_id("123e4567-e89b-12d3-a456-426614174000"));
        for bad in [
            "msg-uuid-v4",
            "msg_123e4567-e89b-12d3-a456-426614174000",
            "msg-",
            "uuid-123e4567-e89b-12d3-a456-426614174000",
        ] {
            assert!(!is_message_id(bad), "{bad}");
        }
        assert!(is_placeholder("<message_type>") && is_placeholder("msg-uuid-v4"));
        assert!(!is_placeholder("<>") && !is_placeholder("task_assignment"));
        assert!(is_beads_id("asupersync-2b4jj.5.2"));
        assert!(!is_beads_id("-x"));
        assert!(!is_commit_sha("a1b2c3d4e5f6g7h8i9j0"));
        assert!(is_alnum_sha("a1b2c3d4e5f6g7h8i9j0"));
        assert!(is_pair_artifact("tmp/pair_1234567890_tests.py"));
        assert!(!is_pair_artifact("tmp/pair__tests.py"));
        assert!(is_upper_snake("INVALID_MESSAGE"));
    }
}
