//! The evidence answers over the demo's traffic and its virtual folder, read as the page
//! reads it (plan, list, plan again, read, lay out), every question crossing as bytes.

use super::tests::{ask, call, loaded, reload};
use super::Engine;
use crate::api::demo::call as demo;
use crate::api::demo::dates::DEMO_NOW_MS;
use crate::api::CheckpointDecision;
use crate::ask;
use crate::model::evidence::{AuditSource, FileRead, Shown};
use crate::model::{EvidenceView, TrafficKey};
use switchboard_core::audit::diff::LineKind;
use switchboard_core::evidence::integrity::{FileState, Verdict};
use switchboard_core::evidence::path::{resolve, FolderPath};
use switchboard_core::evidence::Role;
use switchboard_core::fingerprint::Sha256Digest;
use switchboard_core::session::pair::checkpoint::{Checkpoint, Decision};
use switchboard_core::session::violation::ViolationCode;

/// What the page reads of the demo's folder for a session: the files and listings.
pub(super) type Reads = (Vec<(FolderPath, FileRead)>, Vec<(String, Vec<String>)>);

pub(super) fn read_folder(engine: &mut Engine, key: &TrafficKey, session: &str) -> Reads {
    let needs = |listings| ask::EvidenceNeeds {
        key: key.clone(),
        session: session.into(),
        listings,
    };
    let first = ask(engine, needs(Vec::new())).unwrap();
    let listings: Vec<(String, Vec<String>)> = first
        .dirs
        .iter()
        .filter_map(|dir| {
            let list = demo::ListDir {
                project: key.project.clone(),
                dir: dir.clone(),
            };
            Some((dir.clone(), call(engine, list).unwrap().ok()?))
        })
        .collect();
    let plan = ask(engine, needs(listings.clone())).unwrap();
    let files = plan
        .paths
        .iter()
        .map(|path| {
            let read = demo::ReadFile {
                project: key.project.clone(),
                path: path.clone(),
            };
            (path.clone(), call(engine, read).unwrap())
        })
        .collect();
    (files, listings)
}

fn evidence_of(engine: &mut Engine, key: &TrafficKey, session: &str, reads: Reads) -> EvidenceView {
    let (files, listings) = reads;
    let asked = ask::Evidence {
        key: key.clone(),
        session: session.into(),
        files,
        listings,
        baselines: Vec::new(),
        reveal: false,
    };
    let page = ask(engine, asked.clone()).unwrap();
    let view = super::evidence::detail(engine.traffic(key).unwrap(), &asked).unwrap();
    // What crosses to the page: the panels as HTML, what was shown, what APPROVED sends.
    assert_eq!(page.html, super::html::evidence::evidence(&view));
    assert_eq!(page.reviewed, view.reviewed);
    assert_eq!(
        page.shown.len(),
        view.artifacts.iter().filter(|a| a.path.is_some()).count()
    );
    view
}

fn evidence(engine: &mut Engine, key: &TrafficKey, session: &str) -> EvidenceView {
    let reads = read_folder(engine, key, session);
    evidence_of(engine, key, session, reads)
}

fn path(p: &str) -> FolderPath {
    resolve(p).unwrap()
}

#[test]
fn contract_review_shows_the_draft_and_approves_what_was_read() {
    let (mut engine, key) = loaded("pair-lab");
    let view = evidence(&mut engine, &key, "pair-101");
    assert_eq!(view.checkpoint, Some(Checkpoint::ContractReview));
    let roles: Vec<Role> = view.artifacts.iter().map(|a| a.role).collect();
    assert_eq!(roles, [Role::SafetyReasoning, Role::Spec, Role::Tests]);
    let spec = &view.artifacts[1];
    assert!(
        matches!(&spec.shown, Shown::Markdown(html) if html.contains("<h1>Export invoices as CSV</h1>"))
    );
    let tests = &view.artifacts[2];
    let Shown::Code(lines) = &tests.shown else {
        panic!("{:?}", tests.shown)
    };
    assert_eq!(lines[0], "from invoices import export_csv");
    let FileRead::Bytes(bytes) = call(
        &mut engine,
        demo::ReadFile {
            project: key.project.clone(),
            path: path("tmp/pair_1767101000_tests.py"),
        },
    )
    .unwrap() else {
        panic!()
    };
    let digest = Sha256Digest::of(&bytes);
    assert_eq!(tests.sha256, Some(digest));
    // Exactly the tests shown are what APPROVED fingerprints.
    assert_eq!(view.reviewed.len(), 1);
    assert_eq!(
        view.reviewed.get("tmp/pair_1767101000_tests.py"),
        Some(digest)
    );
    assert!(view.integrity.is_none() && view.audit.is_none());

    let cards = ask(
        &mut engine,
        ask::Checkpoints {
            key: key.clone(),
            now_ms: DEMO_NOW_MS,
            reveal: true,
        },
    )
    .unwrap();
    let at = cards
        .into_iter()
        .find(|c| c.at.session == "pair-101")
        .unwrap()
        .at;
    let approve = Decision::parse(at.checkpoint, "APPROVED").unwrap();
    let decision = CheckpointDecision::at(&at, &approve).with_reviewed(Some(view.reviewed.clone()));
    let drafts = ask(
        &mut engine,
        ask::Drafts {
            key: key.clone(),
            decision: decision.clone(),
        },
    )
    .unwrap();
    assert_eq!(drafts[0].subject, "CONTRACT_FINAL");
    assert!(drafts[0].body_md.contains(&format!("sha256:{digest}")));
    // The demo sends the same, and its traffic then holds a contract fingerprinted so.
    let decide = demo::Decide {
        project: key.project.clone(),
        decision,
        now_ms: DEMO_NOW_MS + 1000,
    };
    call(&mut engine, decide).unwrap();
    reload(&mut engine, &key, false);
    let traffic = engine.traffic(&key).unwrap();
    let session = super::sessions::detail(traffic, "pair-101", DEMO_NOW_MS + 2000).unwrap();
    let contract = session.contract.unwrap();
    assert_eq!(
        contract.fingerprints,
        vec![(
            "tmp/pair_1767101000_tests.py".to_owned(),
            format!("sha256:{digest}")
        )]
    );
}

#[test]
fn an_intact_contract_and_its_audit_beside_the_diff() {
    let (mut engine, key) = loaded("pair-lab");
    let view = evidence(&mut engine, &key, "pair-102");
    let integrity = view.integrity.unwrap();
    assert_eq!(integrity.verdict, Verdict::Intact);
    assert!(view.artifacts.iter().any(|a| a.role == Role::Implementation
        && matches!(&a.shown, Shown::Code(l) if l[0] == "import time")));
    let audit = view.audit.unwrap();
    assert!(matches!(audit.source, AuditSource::Mail(Some(_))));
    let (diff_path, diff) = audit.diff.unwrap();
    assert_eq!(diff_path.as_str(), "tmp/pair_1767102000_audit.diff");
    assert_eq!(diff.files[0].path, "ratelimit.py");
}

#[test]
fn a_tampered_contract_names_the_file_and_its_changed_lines() {
    let (mut engine, key) = loaded("pair-lab");
    let view = evidence(&mut engine, &key, "pair-104");
    let integrity = view.integrity.unwrap();
    assert_eq!(integrity.verdict, Verdict::Tampered);
    let tampered: Vec<_> = integrity.tampered().collect();
    assert_eq!(tampered.len(), 1);
    assert_eq!(tampered[0].path.as_str(), "tmp/pair_1767104000_tests.py");
    assert_eq!(tampered[0].state, FileState::Modified);
    let changes = tampered[0]
        .changes
        .as_ref()
        .expect("the demo ships the baseline text");
    let added: Vec<_> = changes
        .hunks
        .iter()
        .flat_map(|h| &h.rows)
        .filter(|r| r.kind == LineKind::Added)
        .collect();
    assert_eq!(added.len(), 1);
    assert!(added[0].text.ends_with("is None or True"));
    assert_eq!(added[0].new, Some(9));
    // The audit's finding sits at its line of the diff.
    let (_, diff) = view.audit.unwrap().diff.unwrap();
    let tests_file = diff
        .files
        .iter()
        .find(|f| f.path == "tmp/pair_1767104000_tests.py")
        .unwrap();
    // The edited assertion counts on the old side: the line the builder removed.
    let row = tests_file
        .hunks
        .iter()
        .flat_map(|h| &h.rows)
        .find(|r| r.old == Some(9) && r.kind == LineKind::Removed)
        .unwrap();
    assert_eq!(row.findings.len(), 1);
    assert_eq!(
        diff.findings[row.findings[0]].location.as_deref(),
        Some("tmp/pair_1767104000_tests.py:9")
    );
    assert!(diff.unplaced.is_empty());
}

#[test]
fn a_change_order_beside_its_tests_and_manifests() {
    let (mut engine, key) = loaded("pair-lab");
    let view = evidence(&mut engine, &key, "pair-103");
    assert_eq!(view.checkpoint, Some(Checkpoint::ChangeOrderReview));
    let order = view.change_order.unwrap();
    let test = &order.tests[0];
    assert_eq!(
        (test.file.as_str(), test.test.as_deref()),
        ("tests/test_session.py", Some("test_cookie_is_signed"))
    );
    assert_eq!(
        test.lines[0],
        (7, "def test_cookie_is_signed():".to_owned())
    );
    assert_eq!(order.manifests, vec![path("requirements.txt")]);
    let jwt = order
        .dependencies
        .iter()
        .find(|d| d.requested.name == "pyjwt" || d.requested.name == "jwt")
        .unwrap();
    assert!(jwt.declared.is_empty(), "{jwt:?}");
}

#[test]
fn files_not_shown_are_named_with_the_reason() {
    let (mut engine, key) = loaded("pair-lab");
    let (mut files, listings) = read_folder(&mut engine, &key, "pair-101");
    for (p, read) in &mut files {
        *read = match p.file_name() {
            n if n.ends_with("safety_reasoning.md") => FileRead::Missing,
            n if n.ends_with("spec_draft.md") => FileRead::Bytes(b"\x89PNG\r\n\x1a\nxx".to_vec()),
            n if n.ends_with("tests.py") => FileRead::TooLarge {
                size: 50 * 1024 * 1024,
            },
            _ => continue,
        };
    }
    let view = evidence_of(&mut engine, &key, "pair-101", (files, listings));
    let notes: Vec<&str> = view
        .artifacts
        .iter()
        .map(|a| a.note.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        notes,
        [
            "tmp/pair_1767101000_safety_reasoning.md is not in the demo's folder",
            "tmp/pair_1767101000_spec_draft.md is not shown: PNG image, 10 bytes (not text)",
            "tmp/pair_1767101000_tests.py is not shown: 50.0 MB is over the 4.0 MB limit",
        ]
    );
    assert!(view.artifacts.iter().all(|a| a.shown == Shown::Nothing));
    // No test file read: APPROVED keeps the draft's fingerprints.
    assert!(view.reviewed.is_empty());
    let lossy = evidence_of(
        &mut engine,
        &key,
        "pair-101",
        (
            vec![(
                path("tmp/pair_1767101000_tests.py"),
                FileRead::Bytes(b"caf\xe9\n".to_vec()),
            )],
            Vec::new(),
        ),
    );
    let tests = lossy
        .artifacts
        .iter()
        .find(|a| a.role == Role::Tests)
        .unwrap();
    assert!(tests.note.as_deref().unwrap().contains("not valid UTF-8"));
    assert!(matches!(&tests.shown, Shown::Code(l) if l[0] == "caf\u{fffd}"));
}

#[test]
fn a_path_leaving_the_folder_is_refused_and_a_violation() {
    use switchboard_core::protocol::builders::pair::build_complete;
    use switchboard_core::protocol::builders::Text;
    use switchboard_core::session::pair::decide::draft;
    let (mut engine, key) = loaded("pair-lab");
    let t = |s: &str| Text::new(s).unwrap();
    let built = build_complete(
        &t("GreenCastle"),
        &t("BlueLake"),
        &t("../../etc/passwd"),
        &[],
        None,
    );
    let send = demo::Send {
        project: key.project.clone(),
        draft: draft(&built, Some("pair-107")),
        now_ms: DEMO_NOW_MS + 1000,
    };
    call(&mut engine, send).unwrap();
    reload(&mut engine, &key, false);
    let plan = ask(
        &mut engine,
        ask::EvidenceNeeds {
            key: key.clone(),
            session: "pair-107".into(),
            listings: Vec::new(),
        },
    )
    .unwrap();
    assert!(plan.paths.iter().all(|p| !p.as_str().contains("passwd")));
    let view = evidence(&mut engine, &key, "pair-107");
    assert_eq!(view.violations.len(), 1);
    assert_eq!(
        view.violations[0].code,
        ViolationCode::ArtifactOutsideFolder
    );
    let refused = view
        .artifacts
        .iter()
        .find(|a| a.written == "../../etc/passwd")
        .unwrap();
    assert_eq!(refused.path, None);
    assert!(refused
        .note
        .as_deref()
        .unwrap()
        .contains("climbs out of the demo's folder"));
}

#[test]
fn hostile_names_and_contents_are_written_as_text() {
    let (mut engine, key) = loaded("pair-lab");
    let (files, listings) = read_folder(&mut engine, &key, "pair-108");
    assert!(files
        .iter()
        .any(|(_, read)| matches!(read, FileRead::Bytes(_))));
    let asked = ask::Evidence {
        key: key.clone(),
        session: "pair-108".into(),
        files,
        listings,
        baselines: Vec::new(),
        reveal: true,
    };
    let page = ask(&mut engine, asked).unwrap();
    assert!(page
        .html
        .contains("&lt;script&gt;window.__pwned=1&lt;/script&gt;"));
    for markup in ["<script", "<img", "<svg", "<iframe", "<b>", "onerror=\""] {
        assert!(!page.html.contains(markup), "{markup} in {}", page.html);
    }
}
