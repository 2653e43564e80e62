//! Which files a Pair session's review needs from the linked folder, from the paths its
//! messages name: the draft's safety reasoning, spec and tests (checkpoint #1); the contract's
//! spec, tests and every fingerprinted file with its baseline digest, the implementation files
//! of BUILD_COMPLETE, the audit report and the diffs beside it (#2); the files a change order
//! names, the `_vN` artifacts ACCEPT CHANGE would name, and the dependency manifests (#3).
//! A path that leaves the folder is refused, and the message that named it is a violation.
//!
//! Pure: the session, its messages and (for the searches) a directory's names in, paths out.
//! The browser only reads the bytes.

use super::path::{resolve, FolderPath, Refusal};
use crate::agent_mail::Envelope;
use crate::audit::deps::Manifest;
use crate::fingerprint::{ContractPath, Sha256Digest};
use crate::protocol::builders::ArtifactPath;
use crate::session::pair::checkpoint::Checkpoint;
use crate::session::pair::{Event, Outcome, PairSession};
use crate::session::violation::{Violation, ViolationCode};
use serde::{Deserialize, Serialize};

/// What a file is to the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The draft's safety reasoning (Markdown).
    SafetyReasoning,
    /// The specification (Markdown).
    Spec,
    /// The contract's tests (code).
    Tests,
    /// Another file the contract's fingerprints cover.
    Fingerprinted,
    /// A file BUILD_COMPLETE names.
    Implementation,
    /// A file the pending change order's evidence or request names.
    NamedByChangeOrder,
    /// The next version ACCEPT CHANGE would name (`…_v2`); written by the planner after it.
    NextVersion,
    /// The session's `audit_report.json`.
    AuditReport,
    /// A diff beside the session's artifacts (the one an audit read).
    AuditDiff,
    /// A dependency manifest (`requirements*.txt`, `pyproject.toml`, `package.json`,
    /// `Cargo.toml`) at the folder's root.
    Manifest,
}

impl Role {
    /// How the role reads in a sentence.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Role::SafetyReasoning => "safety reasoning",
            Role::Spec => "spec",
            Role::Tests => "tests",
            Role::Fingerprinted => "fingerprinted file",
            Role::Implementation => "implementation",
            Role::NamedByChangeOrder => "named by the change order",
            Role::NextVersion => "next version",
            Role::AuditReport => "audit report",
            Role::AuditDiff => "audited diff",
            Role::Manifest => "dependency manifest",
        }
    }
}

/// One file the review needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// What it is.
    pub role: Role,
    /// The path as the message wrote it.
    pub written: String,
    /// Where it is in the folder, or why it is not read.
    pub path: Result<FolderPath, Refusal>,
    /// The transport id of the message that named it.
    pub message: Option<u64>,
    /// Its absence is worth saying (the audit report, a next version and the files a change
    /// order's prose names may well not exist).
    pub expected: bool,
    /// The digest the contract fingerprinted it with.
    pub baseline: Option<Sha256Digest>,
}

/// A directory whose names select further artifacts (the diffs beside the session's
/// artifacts, the manifests at the root).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Search {
    /// What the names found are.
    pub role: Role,
    /// The directory, from the folder's root (`""` is the root).
    pub dir: String,
    /// A name must start with this.
    pub prefix: String,
    /// A name must end with this (`""` for manifests, which are matched by name).
    pub suffix: String,
}

impl Search {
    /// The artifacts a listing of [`Search::dir`] gives (file names, any order).
    #[must_use]
    pub fn select<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> Vec<Artifact> {
        let mut found: Vec<Artifact> = names
            .into_iter()
            .filter(|name| name.starts_with(&self.prefix) && name.ends_with(&self.suffix))
            .filter_map(|name| {
                let written = if self.dir.is_empty() {
                    name.to_owned()
                } else {
                    format!("{}/{name}", self.dir)
                };
                let path = resolve(&written).ok()?;
                let keep = match self.role {
                    Role::Manifest => {
                        ContractPath::parse(path.as_str()).is_ok_and(|p| Manifest::of(&p).is_some())
                    }
                    _ => path.parent() == self.dir,
                };
                keep.then_some(Artifact {
                    role: self.role,
                    written,
                    path: Ok(path),
                    message: None,
                    expected: false,
                    baseline: None,
                })
            })
            .collect();
        found.sort_by(|a, b| a.written.cmp(&b.written));
        found
    }
}

/// What a session's review needs from the folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Needs {
    /// The session.
    pub session: String,
    /// The checkpoint open now, if any.
    pub checkpoint: Option<Checkpoint>,
    /// The files named by the session's messages, one per path, in review order.
    pub artifacts: Vec<Artifact>,
    /// Directories to list for more.
    pub searches: Vec<Search>,
    /// A message that names a path leaving the folder, per path.
    pub violations: Vec<Violation>,
}

impl Needs {
    /// The artifact at `path`, if the review needs it.
    #[must_use]
    pub fn get(&self, path: &FolderPath) -> Option<&Artifact> {
        self.artifacts
            .iter()
            .find(|a| a.path.as_ref().ok() == Some(path))
    }

    /// Every path to read, once each.
    pub fn paths(&self) -> impl Iterator<Item = &FolderPath> {
        self.artifacts.iter().filter_map(|a| a.path.as_ref().ok())
    }

    /// Adds what listing a [`Search`]'s directory found, but no path twice (what a message
    /// named first keeps its role).
    pub fn found(&mut self, artifacts: impl IntoIterator<Item = Artifact>) {
        for artifact in artifacts {
            let known = artifact.path.as_ref().is_ok_and(|p| self.get(p).is_some());
            if !known {
                self.artifacts.push(artifact);
            }
        }
    }

    /// The dependency manifests to read: every artifact named like one (`requirements*.txt`,
    /// `pyproject.toml`, `package.json`, `Cargo.toml`), whatever named it first — a change
    /// order that mentions `requirements.txt` names the root's manifest before the listing
    /// finds it.
    pub fn manifests(&self) -> impl Iterator<Item = &FolderPath> {
        self.paths()
            .filter(|p| ContractPath::parse(p.as_str()).is_ok_and(|c| Manifest::of(&c).is_some()))
    }

    fn push(&mut self, role: Role, written: &str, message: Option<u64>, expected: bool) {
        let path = resolve(written);
        let same = |a: &Artifact| match (&a.path, &path) {
            (Ok(x), Ok(y)) => x == y,
            _ => a.written == written,
        };
        if let Some(known) = self.artifacts.iter_mut().find(|a| same(a)) {
            known.expected |= expected;
            return;
        }
        self.artifacts.push(Artifact {
            role,
            written: written.to_owned(),
            path,
            message,
            expected,
            baseline: None,
        });
    }
}

/// The files `session`'s review needs; `message` finds the session's envelopes by their log
/// position (the session's timeline entries).
#[must_use]
pub fn needs<'a>(session: &PairSession, message: impl Fn(usize) -> Option<&'a Envelope>) -> Needs {
    let open = session.open_checkpoint();
    let mut needs = Needs {
        session: session.id.clone(),
        checkpoint: open,
        artifacts: Vec::new(),
        searches: Vec::new(),
        violations: Vec::new(),
    };
    let named = named_paths(session, &message);
    for (env, _, written) in &named {
        if let Err(refusal) = resolve(written) {
            if refusal.leaves_folder() {
                needs.violations.push(Violation {
                    file: Some(written.clone()),
                    ..Violation::at(
                        ViolationCode::ArtifactOutsideFolder,
                        env,
                        format!(
                            "{} names an artifact outside the project folder: {refusal}",
                            env.reference()
                        ),
                    )
                });
            }
        }
    }
    let last = |kind: &str| last_applied(session, kind).and_then(&message);
    let id_of = |kind: &str| last(kind).and_then(|env| env.id);
    let in_review = open == Some(Checkpoint::ContractReview) || session.contract.is_none();
    if in_review {
        let draft_id = id_of("CONTRACT_DRAFT");
        let safety = named
            .iter()
            .rev()
            .find(|(_, kind, _)| *kind == "safety_reasoning");
        if let Some((_, _, written)) = safety {
            needs.push(Role::SafetyReasoning, written, draft_id, true);
        }
        if let Some(draft) = &session.draft {
            needs.push(Role::Spec, draft.artifacts.spec.as_str(), draft_id, true);
            needs.push(Role::Tests, draft.artifacts.tests.as_str(), draft_id, true);
        }
    }
    if let Some(contract) = session.contract.as_ref().filter(|_| !in_review) {
        let contract_id = id_of("CHANGE_ORDER_ACCEPTED").or_else(|| id_of("CONTRACT_FINAL"));
        if let Some(artifacts) = &contract.artifacts {
            needs.push(Role::Spec, artifacts.spec.as_str(), contract_id, true);
            needs.push(Role::Tests, artifacts.tests.as_str(), contract_id, true);
        }
        for (path, digest) in contract.fingerprints.iter().flat_map(|f| f.iter()) {
            needs.push(Role::Fingerprinted, path.as_str(), contract_id, true);
            if let Some(a) = needs
                .artifacts
                .iter_mut()
                .find(|a| a.path.as_ref().is_ok_and(|p| p.as_str() == path.as_str()))
            {
                a.baseline = Some(*digest);
            }
        }
        let contract_at = ["CONTRACT_FINAL", "CHANGE_ORDER_ACCEPTED"]
            .into_iter()
            .filter_map(|kind| last_applied(session, kind))
            .max();
        let build = last("BUILD_COMPLETE").filter(|env| Some(env.index) > contract_at);
        for (env, _, written) in named.iter().filter(|(env, kind, _)| {
            *kind == "implementation_files" && Some(env.index) == build.map(|b| b.index)
        }) {
            needs.push(Role::Implementation, written, env.id, true);
        }
        if open == Some(Checkpoint::ChangeOrderReview) {
            change_order_needs(session, artifacts_or_draft(session), &mut needs);
        }
    }
    let stamp = session_stamp(&needs);
    if let Some(stamp) = &stamp {
        needs.push(
            Role::AuditReport,
            &format!("tmp/pair_{stamp}_audit_report.json"),
            None,
            false,
        );
        needs.push(
            Role::AuditReport,
            &format!("tmp/pair_{stamp}_audit/{}", super::AUDIT_REPORT_FILE),
            None,
            false,
        );
        needs.searches.push(Search {
            role: Role::AuditDiff,
            dir: "tmp".into(),
            prefix: format!("pair_{stamp}_"),
            suffix: ".diff".into(),
        });
        needs.searches.push(Search {
            role: Role::AuditDiff,
            dir: format!("tmp/pair_{stamp}_audit"),
            prefix: String::new(),
            suffix: ".diff".into(),
        });
    }
    if !in_review {
        needs.searches.push(Search {
            role: Role::Manifest,
            dir: String::new(),
            prefix: String::new(),
            suffix: String::new(),
        });
    }
    needs
}

/// The contract's artifacts, or the draft's when no contract was finalized.
fn artifacts_or_draft(session: &PairSession) -> Option<(ArtifactPath, ArtifactPath)> {
    session
        .contract
        .as_ref()
        .and_then(|c| c.artifacts.as_ref())
        .or(session.draft.as_ref().map(|d| &d.artifacts))
        .map(|a| (a.spec.clone(), a.tests.clone()))
}

fn change_order_needs(
    session: &PairSession,
    current: Option<(ArtifactPath, ArtifactPath)>,
    needs: &mut Needs,
) {
    let Some(order) = session
        .change_orders
        .iter()
        .rev()
        .find(|o| o.outcome == Outcome::Pending)
    else {
        return;
    };
    for text in [&order.request.evidence, &order.request.requested_changes]
        .into_iter()
        .chain(&order.request.attempted_fixes)
    {
        for mention in super::change_order::mentions(text) {
            needs.push(Role::NamedByChangeOrder, &mention.file, order.id, false);
        }
    }
    if let Some((spec, tests)) = current {
        needs.push(
            Role::NextVersion,
            spec.next_version().as_str(),
            order.id,
            false,
        );
        needs.push(
            Role::NextVersion,
            tests.next_version().as_str(),
            order.id,
            false,
        );
    }
}

/// The log position of the session's last message of type `kind` that the session applied
/// (a message that broke a rule and was not applied moves nothing).
fn last_applied(session: &PairSession, kind: &str) -> Option<usize> {
    session
        .timeline
        .iter()
        .rev()
        .find(|t| {
            t.message_type == Some(kind)
                && t.violation.is_none_or(|code| {
                    matches!(
                        code,
                        ViolationCode::CheckpointSkipped
                            | ViolationCode::ContractTampered
                            | ViolationCode::BadFingerprints
                    )
                })
        })
        .map(|t| t.entry)
}

/// `<ts>` of the session's `tmp/pair_<ts>_…` artifacts, from the first that has the form.
fn session_stamp(needs: &Needs) -> Option<String> {
    needs.paths().find_map(|p| {
        let name = p.as_str().strip_prefix("tmp/pair_")?;
        let digits = name.split('_').next()?;
        (!digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && name.len() > digits.len())
        .then(|| digits.to_owned())
    })
}

/// Every path a valid message of the session names, with the message and the member it came
/// from (`safety_reasoning`, `spec`, `tests`, `implementation_files`).
fn named_paths<'a>(
    session: &PairSession,
    message: &impl Fn(usize) -> Option<&'a Envelope>,
) -> Vec<(&'a Envelope, &'static str, String)> {
    let mut out = Vec::new();
    for entry in &session.timeline {
        let Some(env) = message(entry.entry) else {
            continue;
        };
        let Some(m) = env.message() else { continue };
        match Event::read(m) {
            Some(Event::ContractDraft { artifacts, .. }) => {
                // The draft's safety reasoning is not kept by the session: read from the body.
                let safety = m
                    .value
                    .pointer("/body/artifacts/safety_reasoning")
                    .and_then(serde_json::Value::as_str);
                if let Some(s) = safety {
                    out.push((env, "safety_reasoning", s.to_owned()));
                }
                out.push((env, "spec", artifacts.spec.as_str().to_owned()));
                out.push((env, "tests", artifacts.tests.as_str().to_owned()));
            }
            Some(Event::ContractFinal {
                artifacts: Some(artifacts),
                ..
            })
            | Some(Event::ChangeOrderAccepted { artifacts, .. }) => {
                out.push((env, "spec", artifacts.spec.as_str().to_owned()));
                out.push((env, "tests", artifacts.tests.as_str().to_owned()));
            }
            Some(Event::BuildComplete { files, .. }) => {
                out.extend(files.into_iter().map(|f| (env, "implementation_files", f)));
            }
            _ => {}
        }
    }
    out
}
