//! The typed content of a valid Pair message, read once from its validated JSON.

use crate::agent_mail::ProtocolMessage;
use crate::fingerprint::{FingerprintError, Fingerprints, CONTRACT_TAMPERED};
use crate::protocol::builders::pair::ContractArtifacts;
use crate::protocol::builders::ArtifactPath;
use crate::protocol::registry::families::pair::{Phase, Role};
use crate::session::fields::{items, text, texts};
use serde_json::Value;

/// A change order's request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Request {
    /// `logic_impossible`, `dependency_missing` or `test_flakiness`.
    pub failure_mode: String,
    /// What failed.
    pub evidence: String,
    /// What the builder tried.
    pub attempted_fixes: Vec<String>,
    /// What the builder asks to change.
    pub requested_changes: String,
}

/// An audit report's verdict.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AuditVerdict {
    /// PASS or FAIL.
    pub status: String,
    /// The worst severity.
    pub severity: String,
    /// Whether gaming patterns were found.
    pub scheming_detected: bool,
    /// How many issues.
    pub issues: usize,
    /// Files its CONTRACT_TAMPERED issues name.
    pub tampered: Vec<String>,
}

impl AuditVerdict {
    /// Whether the audit failed the build: FAIL, scheming detected, or tests tampered.
    #[must_use]
    pub fn failed(&self) -> bool {
        self.status == "FAIL" || self.scheming_detected || !self.tampered.is_empty()
    }

    /// Why it failed, in words.
    #[must_use]
    pub fn why_failed(&self) -> String {
        let mut why = vec![format!("{} / {}", self.status, self.severity)];
        if self.scheming_detected {
            why.push("scheming detected".to_owned());
        }
        if !self.tampered.is_empty() {
            why.push(format!("tests tampered: {}", self.tampered.join(", ")));
        }
        why.join(", ")
    }
}

/// Fingerprints a message carries: absent, readable, or malformed (why).
pub type Carried = Option<Result<Fingerprints, FingerprintError>>;

/// One Pair message, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// PAIR_INIT.
    Init {
        /// The task.
        task: String,
        /// The sender's role.
        my_role: Role,
    },
    /// CLARIFICATION_REQUEST.
    ClarificationRequest,
    /// CLARIFICATION_RESPONSE.
    ClarificationResponse,
    /// CONTRACT_DRAFT.
    ContractDraft {
        /// Its spec and tests.
        artifacts: ContractArtifacts,
        /// Its safety reasoning, when the path has the artifact form.
        safety_reasoning: Option<ArtifactPath>,
        /// Test fingerprints, if carried.
        fingerprints: Carried,
    },
    /// CONTRACT_REVISION_REQUESTED (extension).
    RevisionRequested {
        /// The reviewer's feedback.
        feedback: String,
    },
    /// CONTRACT_FINAL (artifacts absent only in lenient mode).
    ContractFinal {
        /// Its spec and tests.
        artifacts: Option<ContractArtifacts>,
        /// Test fingerprints, if carried.
        fingerprints: Carried,
    },
    /// BUILD_COMPLETE.
    BuildComplete {
        /// The files the builder wrote.
        files: Vec<String>,
        /// The builder's test fingerprints, if carried.
        fingerprints: Carried,
    },
    /// CHANGE_ORDER.
    ChangeOrder(Request),
    /// CHANGE_ORDER_ACCEPTED.
    ChangeOrderAccepted {
        /// The revised contract.
        artifacts: ContractArtifacts,
        /// Why.
        reasoning: String,
        /// The revised test fingerprints, if carried.
        fingerprints: Carried,
    },
    /// CHANGE_ORDER_REJECTED.
    ChangeOrderRejected {
        /// Why.
        reasoning: String,
        /// What to do instead.
        strategy: String,
    },
    /// BUILD_REJECTED (extension).
    BuildRejected {
        /// Why.
        reason: String,
    },
    /// SESSION_COMPLETE.
    SessionComplete,
    /// SESSION_ABORT.
    SessionAbort {
        /// Why.
        reason: String,
        /// The phase it names.
        phase: Option<Phase>,
    },
    /// TIMEOUT_WARNING.
    TimeoutWarning {
        /// The phase it names.
        phase: Option<Phase>,
    },
    /// AUDIT_REPORT.
    AuditReport(AuditVerdict),
}

fn artifacts(v: Option<&Value>) -> Option<ContractArtifacts> {
    let v = v?;
    Some(ContractArtifacts {
        spec: ArtifactPath::new(v.get("spec")?.as_str()?)?,
        tests: ArtifactPath::new(v.get("tests")?.as_str()?)?,
    })
}

fn fingerprints(body: &Value) -> Carried {
    body.get("test_fingerprints").map(Fingerprints::from_value)
}

fn phase(name: &str) -> Option<Phase> {
    Phase::parse(name)
}

impl Event {
    /// Reads a valid Pair message (`{subject, body}`); `None` for another family's message.
    #[must_use]
    pub fn read(m: &ProtocolMessage) -> Option<Event> {
        let v = &m.value;
        let body = v.get("body").unwrap_or(&Value::Null);
        Some(match m.message_type {
            "PAIR_INIT" => Event::Init {
                task: text(body, "task").to_owned(),
                my_role: Role::parse(body.get("my_role")?.as_str()?)?,
            },
            "CLARIFICATION_REQUEST" => Event::ClarificationRequest,
            "CLARIFICATION_RESPONSE" => Event::ClarificationResponse,
            "CONTRACT_DRAFT" => Event::ContractDraft {
                artifacts: artifacts(body.get("artifacts"))?,
                safety_reasoning: body
                    .pointer("/artifacts/safety_reasoning")
                    .and_then(Value::as_str)
                    .and_then(ArtifactPath::new),
                fingerprints: fingerprints(body),
            },
            "CONTRACT_REVISION_REQUESTED" => Event::RevisionRequested {
                feedback: text(body, "feedback").to_owned(),
            },
            "CONTRACT_FINAL" => Event::ContractFinal {
                artifacts: artifacts(body.get("artifacts")),
                fingerprints: fingerprints(body),
            },
            "BUILD_COMPLETE" => Event::BuildComplete {
                files: texts(body, "implementation_files"),
                fingerprints: fingerprints(body),
            },
            "CHANGE_ORDER" => {
                let order = body.get("change_order").unwrap_or(&Value::Null);
                Event::ChangeOrder(Request {
                    failure_mode: text(order, "failure_mode").to_owned(),
                    evidence: text(order, "evidence").to_owned(),
                    attempted_fixes: texts(order, "attempted_fixes"),
                    requested_changes: text(order, "requested_changes").to_owned(),
                })
            }
            "CHANGE_ORDER_ACCEPTED" => Event::ChangeOrderAccepted {
                artifacts: artifacts(body.get("updated_artifacts"))?,
                reasoning: text(body, "reasoning").to_owned(),
                fingerprints: fingerprints(body),
            },
            "CHANGE_ORDER_REJECTED" => Event::ChangeOrderRejected {
                reasoning: text(body, "reasoning").to_owned(),
                strategy: text(body, "suggested_strategy").to_owned(),
            },
            "BUILD_REJECTED" => Event::BuildRejected {
                reason: text(body, "reason").to_owned(),
            },
            "SESSION_COMPLETE" => Event::SessionComplete,
            "SESSION_ABORT" => Event::SessionAbort {
                reason: text(body, "reason").to_owned(),
                phase: body.get("phase").and_then(Value::as_str).and_then(phase),
            },
            "TIMEOUT_WARNING" => Event::TimeoutWarning {
                phase: body.get("phase").and_then(Value::as_str).and_then(phase),
            },
            "AUDIT_REPORT" => {
                let tampered = items(v, "issues")
                    .filter(|i| i.get("code").and_then(Value::as_str) == Some(CONTRACT_TAMPERED))
                    .map(|i| {
                        let location = text(i, "location").to_owned();
                        match location.rsplit_once(':') {
                            Some((file, line)) if line.bytes().all(|b| b.is_ascii_digit()) => {
                                file.to_owned()
                            }
                            _ => location,
                        }
                    })
                    .collect();
                Event::AuditReport(AuditVerdict {
                    status: text(v, "status").to_owned(),
                    severity: text(v, "severity").to_owned(),
                    scheming_detected: v.get("scheming_detected") == Some(&Value::Bool(true)),
                    issues: items(v, "issues").count(),
                    tampered,
                })
            }
            _ => return None,
        })
    }
}
