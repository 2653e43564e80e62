//! The findings only a whole log shows ([`Computed`]): a contract finalized without
//! fingerprints in mail, Pair artifacts outside their session's own directory, mail that asked
//! for an acknowledgement and got none, mail between the Pair Claude navigator and driver.

use super::checks::{Check, Computed, Source, CHECKS};
use super::evaluate::Hit;
use crate::agent_mail::Envelope;
use crate::protocol::{FamilyId, Severity};
use crate::session::pair_claude::Agent;
use crate::session::Book;
use serde_json::Value;
use std::collections::BTreeMap;

fn check_of(kind: Computed) -> Option<&'static Check> {
    CHECKS
        .iter()
        .find(|c| c.sources.contains(&Source::Computed(kind)))
}

fn hit(check: &'static Check, env: &Envelope, agent: String, detail: String) -> Hit {
    Hit {
        check,
        entry: Some(env.index),
        agent,
        severity: Severity::Error,
        detail: format!("{}: {detail}", env.reference()),
        path: None,
    }
}

fn sender(env: &Envelope) -> String {
    env.from
        .clone()
        .unwrap_or_else(|| super::UNKNOWN_SENDER.to_owned())
}

/// Every computed finding of the log.
pub(super) fn findings(envelopes: &[Envelope], book: &Book) -> Vec<Hit> {
    let by_index: BTreeMap<usize, &Envelope> = envelopes.iter().map(|e| (e.index, e)).collect();
    let mut hits = Vec::new();
    if let Some(check) = check_of(Computed::NoFingerprints) {
        hits.extend(no_fingerprints(check, book, &by_index));
    }
    if let Some(check) = check_of(Computed::SharedArtifacts) {
        hits.extend(shared_artifacts(check, book, &by_index));
    }
    for family in [FamilyId::AgentPo, FamilyId::Droid] {
        if let Some(check) = check_of(Computed::Unacknowledged(family)) {
            hits.extend(unacknowledged(check, family, envelopes));
        }
    }
    if let Some(check) = check_of(Computed::DirectMessages) {
        let pc = &book.pair_claude;
        if let (Some(navigator), Some(driver)) =
            (pc.player(Agent::Navigator), pc.player(Agent::Driver))
        {
            hits.extend(direct_messages(check, envelopes, navigator, driver));
        }
    }
    hits
}

/// A Pair contract finalized (CONTRACT_FINAL) with no test fingerprints, its own or its
/// approved draft's: nothing in mail can show the tests kept.
fn no_fingerprints(
    check: &'static Check,
    book: &Book,
    by_index: &BTreeMap<usize, &Envelope>,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    for s in book.pair.sessions() {
        let Some(contract) = &s.contract else {
            continue;
        };
        if contract.fingerprints.is_some() || contract.revision != 1 {
            continue;
        }
        let mut finals = s
            .timeline
            .iter()
            .filter(|t| t.message_type == Some("CONTRACT_FINAL") && t.violation.is_none());
        if let Some(env) = finals.next_back().and_then(|t| by_index.get(&t.entry)) {
            hits.push(hit(
                check,
                env,
                sender(env),
                "CONTRACT_FINAL carries no test_fingerprints (nor did its draft): tampering with the tests cannot be seen from the mail".into(),
            ));
        }
    }
    hits
}

/// The `tmp/pair_<timestamp>_` directory of an artifact path, if it has that form.
fn directory(path: &str) -> Option<&str> {
    let start = path.find("tmp/pair_")?;
    let rest = &path[start + "tmp/pair_".len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && rest.as_bytes().get(digits) == Some(&b'_'))
        .then(|| &path[start..start + "tmp/pair_".len() + digits + 1])
}

/// Every artifact path a Pair message names.
fn artifact_paths(env: &Envelope) -> Vec<&str> {
    let body = env.value().and_then(|v| v.get("body"));
    ["artifacts", "updated_artifacts"]
        .into_iter()
        .filter_map(|k| body.and_then(|b| b.get(k)).and_then(Value::as_object))
        .flat_map(|o| o.values().filter_map(Value::as_str))
        .collect()
}

/// Artifacts of one session in more than one `tmp/pair_<timestamp>_` directory, or in a
/// directory another session used first.
fn shared_artifacts(
    check: &'static Check,
    book: &Book,
    by_index: &BTreeMap<usize, &Envelope>,
) -> Vec<Hit> {
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    let mut hits = Vec::new();
    for s in book.pair.sessions() {
        let mut own: Option<String> = None;
        for t in &s.timeline {
            let Some(env) = by_index.get(&t.entry) else {
                continue;
            };
            for path in artifact_paths(env) {
                let Some(dir) = directory(path) else {
                    continue;
                };
                let problem = match (&own, owner.get(dir)) {
                    (_, Some(other)) if *other != s.id => Some(format!(
                        "{path} is in {dir}, the directory of session {other}: each session uses its own"
                    )),
                    (Some(mine), _) if mine != dir => Some(format!(
                        "{path} is in {dir}, but the session's artifacts are in {mine}"
                    )),
                    _ => None,
                };
                if let Some(problem) = problem {
                    hits.push(hit(check, env, sender(env), problem));
                    break;
                }
                own.get_or_insert_with(|| dir.to_owned());
                owner.entry(dir.to_owned()).or_insert_with(|| s.id.clone());
            }
        }
    }
    hits
}

/// Mail of `family` that asked for an acknowledgement and has none: each recipient owes one.
fn unacknowledged(check: &'static Check, family: FamilyId, envelopes: &[Envelope]) -> Vec<Hit> {
    envelopes
        .iter()
        .filter(|e| e.family() == Some(family) && e.ack_required && !e.acknowledged)
        .filter(|e| check.applies_to(e.message_type()))
        .flat_map(|e| {
            e.to.iter().map(move |r| {
                hit(
                    check,
                    e,
                    r.clone(),
                    format!("{r} has not acknowledged it (ack_required)"),
                )
            })
        })
        .collect()
}

/// Mail between the agent playing the Pair Claude navigator and the one playing the driver.
fn direct_messages(
    check: &'static Check,
    envelopes: &[Envelope],
    navigator: &str,
    driver: &str,
) -> Vec<Hit> {
    envelopes
        .iter()
        .filter(|e| !e.sender_inferred)
        .filter_map(|e| {
            let from = e.from.as_deref()?;
            let other = if from == navigator {
                driver
            } else if from == driver {
                navigator
            } else {
                return None;
            };
            e.to.iter().any(|t| t == other).then(|| {
                hit(
                    check,
                    e,
                    from.to_owned(),
                    format!("{from} mailed {other} directly: the navigator and the driver talk only through the orchestrator"),
                )
            })
        })
        .collect()
}
