//! The evidence at a session's checkpoint, laid out from what the page read of the project's
//! folder: which files to read (the core's `evidence::needs`), each file as the core reads
//! its bytes (`evidence::content`), the contract's integrity with the changed lines
//! (`evidence::integrity`), the audit's report beside its diff (`evidence::report`,
//! `evidence::diff_view`; the core's audit when no report exists), the change order's tests
//! and dependency (`evidence::change_order`), and the fingerprints of the tests shown
//! (`evidence::reviewed_fingerprints`). Mapping only.

use super::sessions::violation;
use super::traffic::Traffic;
use crate::ask;
use crate::model::evidence::{
    ArtifactView, AuditEvidence, AuditSource, ChangeOrderEvidence, FileRead, NamedTest, Shown,
};
use crate::model::{EvidencePage, EvidenceView, ReadPlan};
use crate::routes::Source;
use std::borrow::Cow;
use switchboard_core::audit::{self, Contract};
use switchboard_core::evidence::change_order::{self, mentions, requested, test_lines};
use switchboard_core::evidence::content::Content;
use switchboard_core::evidence::diff_view::{annotate, DiffView};
use switchboard_core::evidence::integrity::{self, Integrity};
use switchboard_core::evidence::path::FolderPath;
use switchboard_core::evidence::record::Shown as ShownArtifact;
use switchboard_core::evidence::report::Report;
use switchboard_core::evidence::{needs, reviewed_fingerprints, Artifact, Needs, Role};
use switchboard_core::fingerprint::Sha256Digest;
use switchboard_core::protocol::secrets::redact;
use switchboard_core::session::pair::checkpoint::Checkpoint;
use switchboard_core::session::pair::{Outcome, PairSession};

/// The session, or why there is none.
fn session<'a>(traffic: &'a Traffic, id: &str) -> Result<&'a PairSession, String> {
    traffic
        .book
        .pair
        .get(id)
        .ok_or_else(|| format!("No session {id} in this project."))
}

/// What `session`'s review needs, with the artifacts found in `listings` added.
fn needs_of(session: &PairSession, traffic: &Traffic, listings: &[(String, Vec<String>)]) -> Needs {
    let mut needs = needs(session, |entry| traffic.envelope(entry));
    let found: Vec<Artifact> = needs
        .searches
        .iter()
        .flat_map(|search| {
            listings
                .iter()
                .filter(|(dir, _)| *dir == search.dir)
                .flat_map(|(_, names)| search.select(names.iter().map(String::as_str)))
        })
        .collect();
    needs.found(found);
    needs
}

/// The files and directories the page reads for `session`'s evidence.
///
/// # Errors
/// No such session.
pub fn plan(
    traffic: &Traffic,
    session_id: &str,
    listings: &[(String, Vec<String>)],
) -> Result<ReadPlan, String> {
    let needs = needs_of(session(traffic, session_id)?, traffic, listings);
    let mut paths: Vec<FolderPath> = Vec::new();
    for path in needs.paths() {
        if !paths.contains(path) {
            paths.push(path.clone());
        }
    }
    let mut dirs: Vec<String> = needs.searches.iter().map(|s| s.dir.clone()).collect();
    dirs.dedup();
    Ok(ReadPlan { paths, dirs })
}

/// A file as the core reads it.
fn content(read: &FileRead) -> Content {
    match read {
        FileRead::Bytes(bytes) => Content::of(bytes),
        FileRead::TooLarge { size } => Content::too_large(*size),
        FileRead::Missing => Content::Missing,
        FileRead::Unreadable { reason } => Content::Unreadable {
            reason: reason.clone(),
        },
    }
}

/// The files read, as the core reads them.
struct Read(Vec<(FolderPath, Content)>);

impl Read {
    fn get(&self, path: &FolderPath) -> Option<&Content> {
        self.0.iter().find(|(p, _)| p == path).map(|(_, c)| c)
    }

    fn text(&self, path: &FolderPath) -> Option<&str> {
        self.get(path)?.text().map(|t| t.text.as_str())
    }
}

/// `text` as shown: secrets masked unless revealed.
fn shown_text(text: &str, reveal: bool) -> Cow<'_, str> {
    if reveal {
        Cow::Borrowed(text)
    } else {
        redact(text)
    }
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}

/// One artifact as shown; `None` for one that may well not exist and does not.
fn artifact_view(artifact: &Artifact, read: &Read, reveal: bool) -> Option<ArtifactView> {
    let base = |shown, note, sha256| ArtifactView {
        role: artifact.role,
        written: artifact.written.clone(),
        path: artifact.path.as_ref().ok().cloned(),
        message: artifact.message,
        shown,
        note,
        sha256,
        baseline: artifact.baseline,
    };
    let path = match &artifact.path {
        Ok(path) => path,
        Err(refusal) => {
            return Some(base(
                Shown::Nothing,
                Some(format!("Not read: {refusal}")),
                None,
            ))
        }
    };
    let content = read.get(path);
    let absent = matches!(content, None | Some(Content::Missing));
    if absent && !artifact.expected {
        return None;
    }
    let missing = Content::Missing;
    let content = content.unwrap_or(&missing);
    let note = content.note(path.as_str());
    let shown = match (content.text(), artifact.role) {
        (None, _) => Shown::Nothing,
        (Some(_), Role::AuditReport | Role::AuditDiff) => Shown::InAudit,
        (Some(t), _) if is_markdown(path.as_str()) => {
            Shown::Markdown(crate::markdown::render(&shown_text(&t.text, reveal)))
        }
        (Some(t), _) => Shown::Code(
            shown_text(&t.text, reveal)
                .lines()
                .map(str::to_owned)
                .collect(),
        ),
    };
    Some(base(shown, note, content.sha256()))
}

/// The session's newest `AUDIT_REPORT` in the mail, read as shown.
fn mail_report(traffic: &Traffic, session: &PairSession) -> Option<(Option<u64>, Report)> {
    session.timeline.iter().rev().find_map(|t| {
        let env = traffic.envelope(t.entry)?;
        let m = env.message().filter(|m| m.message_type == "AUDIT_REPORT")?;
        Some((env.id, Report::from_value(&m.value)))
    })
}

/// The session's audit: the report from the mail, else the folder's `audit_report.json`,
/// else the core's audit of the diff against the contract's files; the diff with each
/// finding beside its line.
fn audit_evidence(
    traffic: &Traffic,
    session: &PairSession,
    needs: &Needs,
    read: &Read,
) -> Option<AuditEvidence> {
    let of_role = |role: Role| {
        needs
            .artifacts
            .iter()
            .filter(move |a| a.role == role)
            .filter_map(|a| a.path.as_ref().ok())
    };
    let mut notes: Vec<String> = Vec::new();
    let file_report = of_role(Role::AuditReport).find_map(|path| match read.text(path) {
        Some(text) => match Report::from_json(text) {
            Ok(report) => Some((path.clone(), report)),
            Err(why) => {
                notes.push(format!("{path} is not an audit report: {why}"));
                None
            }
        },
        None => None,
    });
    // The diff beside the folder's report first, else the first diff of the session.
    let beside = file_report.as_ref().map(|(p, _)| p.parent().to_owned());
    let mut diffs: Vec<&FolderPath> = of_role(Role::AuditDiff).collect();
    diffs.sort_by_key(|p| Some(p.parent()) != beside.as_deref());
    let diff = diffs.into_iter().find_map(|path| {
        let text = read.text(path)?;
        match audit::parse_diff(text) {
            Ok(diff) => Some((path.clone(), diff)),
            Err(why) => {
                notes.push(format!("{path} is not a diff: {why}"));
                None
            }
        }
    });
    let (source, report) = if let Some((id, report)) = mail_report(traffic, session) {
        (AuditSource::Mail(id), Some(report))
    } else if let Some((path, report)) = file_report {
        (AuditSource::File(path), Some(report))
    } else if let Some((_, parsed)) = diff.as_ref() {
        let contract_files: Vec<(&str, &str)> = needs
            .artifacts
            .iter()
            .filter(|a| matches!(a.role, Role::Spec | Role::Tests | Role::Fingerprinted))
            .filter_map(|a| {
                let path = a.path.as_ref().ok()?;
                Some((path.as_str(), read.text(path)?))
            })
            .collect();
        if contract_files.is_empty() {
            notes.push(
                "No audit report, and no contract file was read to audit the diff against.".into(),
            );
            (AuditSource::Computed, None)
        } else {
            match Contract::from_files(contract_files) {
                Ok(contract) => (
                    AuditSource::Computed,
                    Some(Report::of(&audit::audit(&contract, parsed, &[]))),
                ),
                Err(why) => {
                    notes.push(format!(
                        "The contract's files could not be audited against: {why}"
                    ));
                    (AuditSource::Computed, None)
                }
            }
        }
    } else if notes.is_empty() {
        // No report and no diff: nothing to show (a build without a diff is said elsewhere).
        return None;
    } else {
        // A diff that does not parse: no audit could be run, and the panel says why.
        notes.push("No audit report either: nothing was audited.".into());
        (AuditSource::Computed, None)
    };
    let findings = report
        .as_ref()
        .map(|r| r.issues.clone())
        .unwrap_or_default();
    let diff = diff.map(|(path, parsed)| (path, annotate(&parsed, findings)));
    if diff.is_none() && report.is_some() {
        notes.push("No diff of the session was found in the folder (a `*.diff` beside its artifacts): the findings are listed without their lines.".into());
    }
    Some(AuditEvidence {
        source,
        report,
        diff,
        note: (!notes.is_empty()).then(|| notes.join(" ")),
    })
}

/// The pending change order's named tests and requested dependency, from the folder.
fn change_order_evidence(
    session: &PairSession,
    needs: &Needs,
    read: &Read,
    reveal: bool,
) -> Option<ChangeOrderEvidence> {
    let order = session
        .change_orders
        .iter()
        .rev()
        .find(|o| o.outcome == Outcome::Pending)?;
    let texts: Vec<&str> = [&order.request.evidence, &order.request.requested_changes]
        .into_iter()
        .chain(&order.request.attempted_fixes)
        .map(String::as_str)
        .collect();
    let tests = texts
        .iter()
        .flat_map(|t| mentions(t))
        .filter(|m| m.test.is_some())
        .map(|m| {
            let path = switchboard_core::evidence::path::resolve(&m.file).ok();
            let content = path.as_ref().and_then(|p| read.get(p));
            let name = m.test.clone().unwrap_or_default();
            let (lines, note) = match content.and_then(Content::text) {
                Some(t) => match test_lines(&t.text, &name) {
                    Some((from, to)) => (
                        t.lines()
                            .filter(|(n, _)| (from..=to).contains(n))
                            .map(|(n, l)| (n, shown_text(l, reveal).into_owned()))
                            .collect(),
                        None,
                    ),
                    None => (Vec::new(), Some(format!("{} holds no test {name}", m.file))),
                },
                None => (
                    Vec::new(),
                    Some(
                        content
                            .and_then(|c| c.note(&m.file))
                            .unwrap_or_else(|| format!("{} is not in the linked folder", m.file)),
                    ),
                ),
            };
            NamedTest {
                file: m.file,
                test: m.test,
                lines,
                note,
            }
        })
        .collect();
    let manifests: Vec<(FolderPath, &str)> = needs
        .manifests()
        .filter_map(|path| Some((path.clone(), read.text(path)?)))
        .collect();
    Some(ChangeOrderEvidence {
        tests,
        dependencies: change_order::check(&requested(texts.iter().copied()), &manifests),
        manifests: manifests.into_iter().map(|(p, _)| p).collect(),
    })
}

/// Masks secrets in a diff's lines.
fn mask_diff(view: &mut DiffView) {
    for row in view
        .files
        .iter_mut()
        .flat_map(|f| &mut f.hunks)
        .flat_map(|h| &mut h.rows)
    {
        if let Cow::Owned(masked) = redact(&row.text) {
            row.text = masked;
        }
    }
}

fn mask_integrity(integrity: &mut Integrity) {
    for file in &mut integrity.files {
        if let Some(changes) = &mut file.changes {
            for row in changes.hunks.iter_mut().flat_map(|h| &mut h.rows) {
                if let Cow::Owned(masked) = redact(&row.text) {
                    row.text = masked;
                }
            }
        }
    }
}

/// A session's evidence as the page shows it.
///
/// # Errors
/// No such session.
pub fn page(traffic: &Traffic, q: &ask::Evidence) -> Result<EvidencePage, String> {
    let view = detail(traffic, q)?;
    let shown = view
        .artifacts
        .iter()
        .filter_map(|a| {
            Some(ShownArtifact {
                path: a.path.clone()?,
                role: a.role,
                sha256: a.sha256,
            })
        })
        .collect();
    Ok(EvidencePage {
        html: super::html::evidence::evidence(&view),
        shown,
        concerns: super::concerns::of_evidence(&view),
        reviewed: view.reviewed,
    })
}

/// A session's evidence from what the page read of its folder, laid out.
///
/// # Errors
/// No such session.
pub fn detail(traffic: &Traffic, q: &ask::Evidence) -> Result<EvidenceView, String> {
    let s = session(traffic, &q.session)?;
    let needs = needs_of(s, traffic, &q.listings);
    let read = Read(
        q.files
            .iter()
            .map(|(path, file)| (path.clone(), content(file)))
            .collect(),
    );
    // The demo's folder is its own, not one the reviewer linked.
    let in_demo = q.key.src == Source::Demo;
    let mut artifacts: Vec<ArtifactView> = needs
        .artifacts
        .iter()
        .filter_map(|a| artifact_view(a, &read, q.reveal))
        .map(|mut a| {
            if in_demo {
                a.note = a
                    .note
                    .map(|n| n.replace("the linked folder", "the demo's folder"));
            }
            a
        })
        .collect();
    // The demo ships the texts its contracts were fingerprinted with.
    let demo = if in_demo {
        crate::api::demo::folder::baselines()
    } else {
        Vec::new()
    };
    let baselines: Vec<(Sha256Digest, &str)> = q
        .baselines
        .iter()
        .chain(&demo)
        .map(|t| (Sha256Digest::of(t.as_bytes()), t.as_str()))
        .collect();
    let reviewing = needs.checkpoint == Some(Checkpoint::ContractReview);
    let mut integrity = s.contract.as_ref().filter(|_| !reviewing).map(|c| {
        integrity::check(
            c.fingerprints.as_ref(),
            |p| read.get(p),
            |d| baselines.iter().find(|(b, _)| b == d).map(|(_, t)| *t),
        )
    });
    let mut audit = (!reviewing)
        .then(|| audit_evidence(traffic, s, &needs, &read))
        .flatten();
    if !q.reveal {
        integrity.iter_mut().for_each(mask_integrity);
        if let Some((_, view)) = audit.as_mut().and_then(|a| a.diff.as_mut()) {
            mask_diff(view);
        }
    }
    let change_order = (needs.checkpoint == Some(Checkpoint::ChangeOrderReview))
        .then(|| change_order_evidence(s, &needs, &read, q.reveal))
        .flatten();
    // A diff the audit section does not show (it does not parse) is shown as it is.
    let audited = audit.as_ref().and_then(|a| a.diff.as_ref()).map(|(p, _)| p);
    for a in &mut artifacts {
        let shown_elsewhere = a.role == Role::AuditDiff && a.path.as_ref() != audited;
        if let (true, Shown::InAudit, Some(text)) = (
            shown_elsewhere,
            &a.shown,
            a.path.as_ref().and_then(|p| read.text(p)),
        ) {
            a.shown = Shown::Code(
                shown_text(text, q.reveal)
                    .lines()
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }
    Ok(EvidenceView {
        session: s.id.clone(),
        checkpoint: needs.checkpoint,
        artifacts,
        violations: needs.violations.iter().map(violation).collect(),
        integrity,
        audit,
        change_order,
        reviewed: reviewed_fingerprints(&needs, |p| read.get(p)),
    })
}
