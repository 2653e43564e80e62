//! The contract's integrity: test fingerprints a message carries compared with the
//! contract's, or the files as they are now (read from disk).

use super::event::Carried;
use super::{Integrity, IntegrityStatus, PairSession};
use crate::agent_mail::Envelope;
use crate::fingerprint::{verify, Fingerprints, Verification};
use crate::session::violation::{Violation, ViolationCode};
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
    /// fingerprints taken at CONTRACT_FINAL; `None` when the session has no fingerprints.
    #[must_use]
    pub fn verify_contract(
        &mut self,
        current: &Fingerprints,
        at: Option<Timestamp>,
    ) -> Option<IntegrityStatus> {
        let baseline = self.contract.as_ref()?.fingerprints.as_ref()?;
        self.integrity = Integrity::of(verify(baseline, current), at);
        Some(self.integrity.status)
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
