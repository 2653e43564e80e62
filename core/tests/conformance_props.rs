//! No pass for what was not checked: on logs drawn from the fixtures with senders, recipients
//! and times stripped at random, no rule passes on a message its checks could not read — a
//! rule whose check of an agent's own messages needs recipients (or a time, or a sender) never
//! passes on a message of the agent's without them. (A message without recipients obliges no
//! one: the checks of duties owed to its recipients do not read it.)

use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;
use switchboard_core::agent_mail::{read_log, Envelope};
use switchboard_core::conformance::{self, checks, rules, Need, Options, Party, Status};
use switchboard_core::protocol;

fn pool() -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut rows = Vec::new();
    for file in [
        "conformance/mixed.jsonl",
        "sessions/pattern1_happy_path.jsonl",
        "sessions/pattern4_abort.jsonl",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        rows.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    rows
}

/// Whether the message knows what `need` asks of it.
fn knows(need: Need, e: &Envelope) -> bool {
    match need {
        Need::Sender => e.from.is_some(),
        Need::Recipients => !e.to.is_empty(),
        Need::Time => e.at.is_some(),
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn no_rule_passes_on_a_message_its_checks_could_not_read(
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..24),
    ) {
        let pool = pool();
        let rows: Vec<Value> = picks
            .iter()
            .map(|(i, strip)| {
                let mut row = pool[i.index(pool.len())].clone();
                let o = row.as_object_mut().unwrap();
                if strip & 1 != 0 {
                    o.remove("from");
                }
                if strip & 2 != 0 {
                    o.remove("to");
                }
                if strip & 4 != 0 {
                    o.remove("created_ts");
                }
                row
            })
            .collect();
        let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
        let mut envelopes = read_log(text.as_bytes(), &protocol::Options::default()).unwrap();
        let report = conformance::check(&envelopes, &Options::default());
        // The senders as the report saw them (inferred where the protocol tells).
        switchboard_core::session::attribute(&mut envelopes);
        for agent in &report.agents {
            for result in agent.families.iter().flat_map(|f| &f.rules) {
                if result.status != Status::Pass {
                    continue;
                }
                let rule = rules::by_id(result.id).unwrap();
                for m in &result.messages {
                    let Some(e) = m.entry.and_then(|i| envelopes.iter().find(|e| e.index == i)) else {
                        continue;
                    };
                    for id in rule.checks() {
                        let check = checks::by_id(id).unwrap();
                        let own = e.from.as_deref() == Some(agent.agent.as_str())
                            || (e.from.is_none() && agent.agent == conformance::UNKNOWN_SENDER);
                        let reads = check.party == Party::Sender
                            && own
                            && check.family.is_none_or(|f| e.family() == Some(f))
                            && check.applies_to(e.message_type());
                        for need in check.needs {
                            prop_assert!(
                                !reads || knows(*need, e),
                                "{} passed for {} on entry {} without what {} needs ({:?})",
                                result.id, agent.agent, e.index, id, need
                            );
                        }
                    }
                }
            }
        }
    }
}
