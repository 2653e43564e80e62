//! The demo's virtual project folder: the files its curated Pair sessions name (drafts,
//! contracts, implementations, the diffs their audits read, a manifest), as a linked folder
//! would hold them, so the checkpoints view shows its evidence with no setup. The contracts'
//! texts are the ones their messages fingerprint ([`super::scenarios::fixtures`]), so the
//! digests can never drift: pair-102's tests are intact, pair-104's were edited by its
//! builder after CONTRACT_FINAL.

use super::scenarios::fixtures::{contracts, reset_tests_tampered, RESET_TESTS};
use crate::model::evidence::FileRead;
use switchboard_core::audit::diff::LineKind;
use switchboard_core::audit::parse_diff;
use switchboard_core::evidence::path::FolderPath;

/// The project whose sessions have files.
const PROJECT: &str = "pair-lab";

const DRAFT_SAFETY: &str = "# Safety reasoning: export invoices as CSV\n\n\
- The export reads invoices the user may already see; it adds **no** new permission.\n\
- Cells starting with `=`, `+`, `-` or `@` are prefixed with `'` so a spreadsheet never runs \
them as formulas (CSV injection).\n\
- The tests pin the header row and the escaping; the implementation may not edit them.\n";
const DRAFT_SPEC: &str = "# Export invoices as CSV\n\n\
`GET /invoices.csv` answers the signed-in user's invoices, newest first:\n\n\
| column | from |\n|---|---|\n| `number` | the invoice number |\n| `date` | ISO 8601 date |\n\
| `total` | cents, as an integer |\n\n\
A cell that starts with `=`, `+`, `-` or `@` is written with a leading `'`.\n";
const DRAFT_TESTS: &str = r#"from invoices import export_csv


def test_header_row():
    assert export_csv([]).splitlines()[0] == "number,date,total"


def test_formula_cells_are_escaped():
    rows = [{"number": "=1+1", "date": "2026-01-02", "total": 100}]
    assert export_csv(rows).splitlines()[1] == "'=1+1,2026-01-02,100"
"#;
const DRAFT_TESTS_V2: &str = r#"from invoices import export_csv


def test_header_row():
    assert export_csv([]).splitlines()[0] == "number,date,total"


def test_formula_cells_are_escaped():
    rows = [{"number": "=1+1", "date": "2026-01-02", "total": 100}]
    assert export_csv(rows).splitlines()[1] == "'=1+1,2026-01-02,100"


def test_newest_first():
    rows = [{"number": "A", "date": "2026-01-01", "total": 1},
            {"number": "B", "date": "2026-02-01", "total": 2}]
    assert [l.split(",")[0] for l in export_csv(rows).splitlines()[1:]] == ["B", "A"]
"#;
const JWT_SPEC: &str = "# Sign session cookies with JWT\n\n\
The session cookie is a JWT signed with HS256; a cookie whose signature does not verify \
is refused.\n";
const JWT_TESTS: &str = r#"import jwt

from session import make_cookie


def test_cookie_is_signed():
    cookie = make_cookie(user_id=7)
    assert jwt.decode(cookie, "secret", algorithms=["HS256"])["sub"] == "7"
"#;
const SESSION_TESTS: &str = r#"import jwt
import pytest

from session import make_cookie, read_cookie


def test_cookie_is_signed():
    cookie = make_cookie(user_id=7)
    assert jwt.decode(cookie, "secret", algorithms=["HS256"])["sub"] == "7"


def test_tampered_cookie_is_refused():
    cookie = make_cookie(user_id=7)[:-2] + "xx"
    with pytest.raises(ValueError):
        read_cookie(cookie)
"#;
const REQUIREMENTS: &str = "flask==3.0.3\nrequests>=2.31\n";
const EVERYDAY_SAFETY: &str =
    "# Safety reasoning\n\nThe change stays inside `auth/`; the tests pin \
the token's expiry and signature, and the implementation may not edit them.\n";
const EVERYDAY_SPEC: &str =
    "# Session tokens\n\nTokens are signed JWTs that expire after 15 minutes; \
an expired or re-signed token is refused with 401.\n";
const EVERYDAY_TESTS: &str = r#"from auth.jwt_handler import issue, verify


def test_token_round_trip():
    assert verify(issue("ada", now=0), now=60) == "ada"


def test_token_expires_after_15_minutes():
    assert verify(issue("ada", now=0), now=15 * 60 + 1) is None
"#;
const JWT_HANDLER: &str = r#"import hashlib
import hmac

SECRET = b"demo-secret"
TTL = 15 * 60


def issue(user, now):
    payload = f"{user}|{now}"
    mac = hmac.new(SECRET, payload.encode(), hashlib.sha256).hexdigest()
    return f"{payload}|{mac}"


def verify(token, now):
    user, issued, mac = token.split("|")
    expected = hmac.new(SECRET, f"{user}|{issued}".encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(mac, expected) or now - int(issued) > TTL:
        return None
    return user
"#;
const MIDDLEWARE: &str = r#"from auth.jwt_handler import verify


def require_token(request, now):
    user = verify(request.headers.get("Authorization", ""), now)
    if user is None:
        return 401
    request.user = user
    return None
"#;

/// The files the everyday Pair sessions name (`api::demo::traffic`: `tmp/pair_<ts>_…` with
/// `<ts>` = 1767000000 + 1000·n for n below 24, and the builder's `auth/` files), one shared
/// text each.
fn everyday() -> Vec<(String, String)> {
    let mut out = vec![
        ("auth/jwt_handler.py".to_owned(), JWT_HANDLER.to_owned()),
        ("auth/middleware.py".to_owned(), MIDDLEWARE.to_owned()),
    ];
    for n in 0..24_u64 {
        let stamp = 1_767_000_000 + n * 1000;
        for (name, text) in [
            ("safety_reasoning.md", EVERYDAY_SAFETY),
            ("spec_draft.md", EVERYDAY_SPEC),
            ("spec_final.md", EVERYDAY_SPEC),
            ("tests.py", EVERYDAY_TESTS),
        ] {
            out.push((format!("tmp/pair_{stamp}_{name}"), text.to_owned()));
        }
    }
    out
}

/// Every file of `project`'s folder, path and bytes (none for other projects).
fn files(project: &str) -> Vec<(String, Vec<u8>)> {
    if project != PROJECT {
        return Vec::new();
    }
    let mut out: Vec<(String, String)> = vec![
        (
            "tmp/pair_1767101000_safety_reasoning.md".into(),
            DRAFT_SAFETY.into(),
        ),
        (
            "tmp/pair_1767101000_spec_draft.md".into(),
            DRAFT_SPEC.into(),
        ),
        ("tmp/pair_1767101000_tests.py".into(), DRAFT_TESTS.into()),
        (
            "tmp/pair_1767101000_spec_draft_v2.md".into(),
            DRAFT_SPEC.into(),
        ),
        (
            "tmp/pair_1767101000_tests_v2.py".into(),
            DRAFT_TESTS_V2.into(),
        ),
        ("tmp/pair_1767103000_spec_final.md".into(), JWT_SPEC.into()),
        ("tmp/pair_1767103000_tests.py".into(), JWT_TESTS.into()),
        ("tests/test_session.py".into(), SESSION_TESTS.into()),
        ("requirements.txt".into(), REQUIREMENTS.into()),
    ];
    out.extend(everyday());
    for contract in contracts() {
        let stamp = contract.thread.trim_start_matches("pair-");
        for (path, text) in contract.files {
            // pair-104's builder edited its tests after the contract was fingerprinted.
            let text = if contract.thread == "pair-104" && text == RESET_TESTS {
                reset_tests_tampered()
            } else {
                text
            };
            out.push((path, text));
        }
        out.extend(new_files(&contract.diff));
        out.push((
            format!("tmp/pair_1767{stamp}000_audit.diff"),
            contract.diff.clone(),
        ));
    }
    out.into_iter().map(|(p, t)| (p, t.into_bytes())).collect()
}

/// The files a diff adds, with their text (the implementation as the builder wrote it).
fn new_files(diff: &str) -> Vec<(String, String)> {
    let Ok(diff) = parse_diff(diff) else {
        return Vec::new();
    };
    diff.files
        .iter()
        .filter(|f| f.hunks.iter().all(|h| h.old_start == 0))
        .map(|f| {
            let text = f
                .hunks
                .iter()
                .flat_map(|h| &h.lines)
                .filter(|l| l.kind == LineKind::Added)
                .fold(String::new(), |mut out, l| {
                    out.push_str(&l.text);
                    out.push('\n');
                    out
                });
            (f.new_path.to_string(), text)
        })
        .collect()
}

/// One file of the demo's folder.
#[must_use]
pub fn read(project: &str, path: &FolderPath) -> FileRead {
    files(project)
        .into_iter()
        .find(|(p, _)| p == path.as_str())
        .map_or(FileRead::Missing, |(_, bytes)| FileRead::Bytes(bytes))
}

/// The names in a directory of the demo's folder (`""`: its root), files and directories.
///
/// # Errors
/// No such directory.
pub fn list(project: &str, dir: &str) -> Result<Vec<String>, String> {
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let mut names: Vec<String> = files(project)
        .iter()
        .filter_map(|(p, _)| p.strip_prefix(&prefix))
        .map(|rest| rest.split('/').next().unwrap_or(rest).to_owned())
        .collect();
    names.sort();
    names.dedup();
    if names.is_empty() && !dir.is_empty() {
        return Err(format!("{dir} is not a directory of the demo's folder"));
    }
    Ok(names)
}

/// Texts the demo's contracts were fingerprinted with, as a reviewer's earlier read keeps
/// them: what lets a tampered file show the lines that changed.
#[must_use]
pub fn baselines() -> Vec<String> {
    contracts()
        .into_iter()
        .flat_map(|c| c.files.into_iter().map(|(_, text)| text))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_core::evidence::path::resolve;

    #[test]
    fn holds_the_sessions_files() {
        let read = |p: &str| read(PROJECT, &resolve(p).unwrap());
        assert!(
            matches!(read("ratelimit.py"), FileRead::Bytes(b) if b.starts_with(b"import time\n"))
        );
        assert!(
            matches!(read("tmp/pair_1767104000_tests.py"), FileRead::Bytes(b) if String::from_utf8_lossy(&b).contains("or True"))
        );
        assert_eq!(read("nope.py"), FileRead::Missing);
        let tmp = list(PROJECT, "tmp").unwrap();
        assert!(tmp.contains(&"pair_1767104000_audit.diff".to_owned()));
        assert!(list(PROJECT, "")
            .unwrap()
            .contains(&"requirements.txt".to_owned()));
        assert!(list(PROJECT, "tmp")
            .unwrap()
            .iter()
            .all(|n| !n.contains('/')));
        assert!(list(PROJECT, "nowhere").is_err());
        assert!(list("po-factory", "").unwrap().is_empty());
    }
}
