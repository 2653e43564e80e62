//! The contract's integrity: test fingerprints a message carries compared with the
//! contract's, or the files as they are now (read from disk).

use super::event::Carried;
use super::{Integrity, IntegrityStatus, PairSession};
use crate::agent_mail::Envelope;
use crate::fingerprint::{verify, Fingerprints, Verification};
use crate::session::violation::{Violation, ViolationCode};
use crate::syntax::{SyntaxError, TEST_SYNTAX_ERROR};
use crate::time::Timestamp;

impl Integrity {
    /// The integrity a verification found, checked at `at`.
    fn of(result: Verification, at: Option<Timestamp>) -> Integrity {
        Integrity {
            status: if result.is_intact() {
                IntegrityStatus::Intact
            } else {
                IntegrityStatus::Tampered
            },
            files: result
                .tampered
                .iter()
                .map(|t| t.path().to_string())
                .collect(),
            changes: result.tampered,
            checked_at: at,
        }
    }
}

impl PairSession {
    /// Compares test fingerprints seen now with the contract's; records and reports tampering.
    pub(super) fn check_integrity(
        &mut self,
        env: &Envelope,
        observed: &Fingerprints,
    ) -> Option<Violation> {
        let baseline = self.contract.as_ref()?.fingerprints.as_ref()?;
        self.integrity = Integrity::of(verify(baseline, observed), env.at);
        let first = self.integrity.changes.first()?;
        Some(Violation {
            file: Some(first.path().to_string()),
            ..Violation::at(ViolationCode::ContractTampered, env, first.to_string())
        })
    }

    /// Verifies the contract's test files as they are now (e.g. read from disk) against the
    /// fingerprints taken at CONTRACT_FINAL; `None` when the session has no fingerprints. A
    /// tampered file is the seed's CONTRACT_TAMPERED: a `contract_tampered` violation on the
    /// latest BUILD_COMPLETE (else the message that fixed the contract), blamed on the builder.
    #[must_use]
    pub fn verify_contract(
        &mut self,
        current: &Fingerprints,
        at: Option<Timestamp>,
    ) -> Option<IntegrityStatus> {
        let baseline = self.contract.as_ref()?.fingerprints.as_ref()?;
        self.integrity = Integrity::of(verify(baseline, current), at);
        if let Some(first) = self.integrity.changes.first() {
            let on = self.build.as_ref().map(|b| b.entry).or_else(|| {
                self.timeline
                    .iter()
                    .rev()
                    .find(|t| {
                        matches!(
                            t.message_type,
                            Some("CONTRACT_FINAL" | "CHANGE_ORDER_ACCEPTED")
                        )
                    })
                    .map(|t| t.entry)
            });
            if let Some(t) = on.and_then(|e| self.timeline.iter().find(|t| t.entry == e)) {
                let violation = Violation {
                    file: Some(first.path().to_string()),
                    ..Violation::on(
                        ViolationCode::ContractTampered,
                        t.entry,
                        t.id,
                        t.at,
                        t.message_type,
                        format!("the contract's files as they are now: {first}"),
                    )
                    .by(self.builder.as_deref())
                };
                self.violations.push(violation);
            }
        }
        Some(self.integrity.status)
    }
}

impl PairSession {
    /// Records the contract's test files that do not parse (the syntax check of the files as
    /// they are now, e.g. read from disk): one `test_syntax_error` violation per file the
    /// session names (the contract's or the draft's tests and fingerprinted files), on the
    /// latest message that gave the contract. Returns how many were recorded.
    pub fn check_test_syntax(&mut self, errors: &[SyntaxError]) -> usize {
        let contract = self.contract.as_ref();
        let draft = self.draft.as_ref();
        let named = |path: &str| {
            let tests = contract
                .and_then(|c| c.artifacts.as_ref())
                .map(|a| &a.tests)
                .into_iter()
                .chain(draft.map(|d| &d.artifacts.tests));
            let fingerprinted = contract
                .and_then(|c| c.fingerprints.as_ref())
                .into_iter()
                .chain(draft.and_then(|d| d.fingerprints.as_ref()))
                .flat_map(|f| f.iter().map(|(p, _)| p.as_str()));
            tests
                .map(|t| t.as_str())
                .chain(fingerprinted)
                .any(|p| p == path)
        };
        let Some(giver) = self.timeline.iter().rev().find(|t| {
            matches!(
                t.message_type,
                Some("CONTRACT_FINAL" | "CHANGE_ORDER_ACCEPTED" | "CONTRACT_DRAFT")
            )
        }) else {
            return 0;
        };
        let found: Vec<Violation> = errors
            .iter()
            .filter(|e| named(&e.path))
            .map(|e| Violation {
                code: ViolationCode::TestSyntaxError,
                message: format!("{TEST_SYNTAX_ERROR} {e} (the planner fixes the tests)"),
                entry: giver.entry,
                id: giver.id,
                at: giver.at,
                message_type: giver.message_type,
                file: Some(e.path.clone()),
                by: None,
                expected: None,
                issues: Vec::new(),
            })
            .collect();
        let n = found.len();
        self.violations.extend(found);
        n
    }
}

/// Splits carried fingerprints into the usable set and the violation of a malformed one.
pub(super) fn split(carried: Carried, env: &Envelope) -> (Option<Fingerprints>, Option<Violation>) {
    match carried {
        None => (None, None),
        Some(Ok(f)) => (Some(f), None),
        Some(Err(e)) => (
            None,
            Some(Violation::at(
                ViolationCode::BadFingerprints,
                env,
                format!("test_fingerprints is unusable: {e}"),
            )),
        ),
    }
}
