//! Each agent's conformance, mapped from the core's report (`conformance::check_book`) over
//! the project's traffic as folded (with the registered agents, when known): agents that fail
//! first, and within an agent its failing checks first.

use super::traffic::Traffic;
use crate::model::conformance::{MESSAGES_SHOWN, PASSES_SHOWN};
use crate::model::{AgentConformance, CheckRow};
use std::cmp::Reverse;
use switchboard_core::conformance::Status;
use switchboard_core::conformance::{self, AgentResult, Options};

/// The report of `traffic`: every sender, failing agents first.
#[must_use]
pub fn report(traffic: &Traffic) -> Vec<AgentConformance> {
    let options = Options {
        agents: traffic.registry().cloned(),
        ..Options::default()
    };
    let core = conformance::check_book(traffic.envelopes(), &traffic.book, &options);
    let mut agents: Vec<AgentConformance> = core.agents.into_iter().map(agent).collect();
    // Stable: names stay in order within a level.
    agents.sort_by_key(|a| Reverse(a.level));
    agents
}

fn agent(a: AgentResult) -> AgentConformance {
    let mut checks: Vec<CheckRow> = a
        .families
        .into_iter()
        .flat_map(|f| {
            f.checks.into_iter().map(|c| {
                let shown = if c.status == Status::Pass {
                    PASSES_SHOWN
                } else {
                    MESSAGES_SHOWN
                };
                // Messages of the project's traffic all have a transport id.
                let ids: Vec<u64> = c.messages.iter().filter_map(|m| m.id).collect();
                CheckRow {
                    id: c.id.to_owned(),
                    seed: c.seed.to_owned(),
                    title: c.title.to_owned(),
                    status: c.status,
                    more: ids.len().saturating_sub(shown),
                    messages: ids.into_iter().take(shown).collect(),
                    details: cut(c.details),
                }
            })
        })
        .collect();
    checks.sort_by_key(|c| Reverse(c.status));
    let count = |s: Status| a.counts.get(&s).copied().unwrap_or(0);
    AgentConformance {
        counts: [
            count(Status::Fail),
            count(Status::Warning),
            count(Status::Pass),
            count(Status::NotApplicable),
        ],
        agent: a.agent,
        registered: a.registered,
        level: a.level,
        checks,
    }
}

/// The first [`MESSAGES_SHOWN`] details, then how many more there are.
fn cut(mut details: Vec<String>) -> Vec<String> {
    let more = details.len().saturating_sub(MESSAGES_SHOWN);
    if more > 0 {
        details.truncate(MESSAGES_SHOWN);
        details.push(format!("… and {more} more"));
    }
    details
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ask, load_with_agents, loaded};
    use crate::ask;
    use crate::model::AgentConformance;
    use switchboard_core::conformance::Status;

    fn agent<'a>(report: &'a [AgentConformance], name: &str) -> &'a AgentConformance {
        report
            .iter()
            .find(|a| a.agent == name)
            .unwrap_or_else(|| panic!("{name} in {report:?}"))
    }

    /// The ids of an agent's failing checks, in the report's order.
    fn failing(report: &[AgentConformance], name: &str) -> Vec<String> {
        agent(report, name)
            .checks
            .iter()
            .filter(|c| c.status == Status::Fail)
            .map(|c| c.id.clone())
            .collect()
    }

    fn report(project: &str, reveal: bool) -> Vec<AgentConformance> {
        let (mut engine, key) = loaded(project);
        ask(&mut engine, ask::Conformance { key, reveal }).unwrap()
    }

    #[test]
    fn the_demos_rule_breakers_fail_their_checks_with_the_deciding_messages() {
        let droid = report("droid-fleet", false);
        let olive = agent(&droid, "OliveMarsh");
        assert_eq!(olive.level, Status::Fail);
        assert_eq!(olive.registered, Some(true));
        assert_eq!(
            failing(&droid, "OliveMarsh"),
            ["any.json", "any.secret-in-message"]
        );
        // Failing checks come first, then passes, then those that do not apply.
        let statuses: Vec<Status> = olive.checks.iter().map(|c| c.status).collect();
        assert!(statuses.windows(2).all(|w| w[0] >= w[1]), "{statuses:?}");
        let secret = olive
            .checks
            .iter()
            .find(|c| c.id == "any.secret-in-message")
            .unwrap();
        assert_eq!(secret.seed, "004 Security Considerations 4");
        assert_eq!(secret.messages.len(), 1);
        assert!(secret.details[0].contains("AKIA…(20 chars)"));
        assert!(!format!("{droid:?}").contains("AKIAIOSFODNN7EXAMPLE"));
        // TealHarbor also reported on bd-90, OliveMarsh's task.
        assert_eq!(
            failing(&droid, "TealHarbor"),
            [
                "any.json",
                "droid.common.timestamp-utc",
                "droid.sender.authorized"
            ]
        );

        let lab = report("pair-lab", false);
        assert_eq!(
            failing(&lab, "GreenCastle"),
            [
                "any.secret-in-message",
                "pair.message.required-fields",
                "pair.contract.immutable-tests"
            ]
        );
        assert!(failing(&lab, "BlueLake").contains(&"pair.checkpoint.contract-before-final".into()));
        let navy = failing(&lab, "NavyFalcon");
        assert!(
            navy.contains(&"pair-claude.permission.in-order".into()),
            "{navy:?}"
        );
        // A long list of deciding messages is cut, and says how many more there are.
        let in_order = agent(&lab, "NavyFalcon")
            .checks
            .iter()
            .find(|c| c.id == "pair-claude.permission.in-order")
            .unwrap();
        assert_eq!(
            in_order.messages.len(),
            crate::model::conformance::MESSAGES_SHOWN
        );
        assert!(in_order.more > 0);
        assert!(in_order.details.last().unwrap().starts_with("… and "));
        // No agent of the demo is unregistered: the server lists them all.
        assert!(lab.iter().all(|a| a.registered == Some(true)));

        let po = report("po-factory", false);
        assert_eq!(failing(&po, "GoldenOwl"), ["agent-po.order.lifecycle"]);
        // The core's report never repeats a secret, revealed or not.
        let revealed = report("droid-fleet", true);
        assert!(!format!("{revealed:?}").contains("AKIAIOSFODNN7EXAMPLE"));
    }

    #[test]
    fn mail_from_or_to_an_agent_the_server_does_not_list_is_invalid_agent() {
        let (mut engine, key) = loaded("droid-fleet");
        // The server's list without OliveMarsh (an agent retired, say).
        let registered = vec!["CrimsonPeak".into(), "TealHarbor".into()];
        load_with_agents(&mut engine, &key, true, registered);
        let report = ask(
            &mut engine,
            ask::Conformance {
                key: key.clone(),
                reveal: false,
            },
        )
        .unwrap();
        let olive = agent(&report, "OliveMarsh");
        assert_eq!(olive.registered, Some(false));
        let registered = olive
            .checks
            .iter()
            .find(|c| c.id == "any.registered-agent")
            .unwrap();
        assert_eq!(registered.status, Status::Fail);
        assert!(
            registered.details[0]
                .contains("sender OliveMarsh is not a registered agent (INVALID_AGENT)"),
            "{:?}",
            registered.details
        );
        // Its correspondent fails too: it wrote to a name the server does not list.
        let crimson = agent(&report, "CrimsonPeak");
        assert_eq!(crimson.registered, Some(true));
        assert!(failing(&report, "CrimsonPeak").contains(&"any.registered-agent".into()));
        assert_eq!(agent(&report, "TealHarbor").registered, Some(true));

        // Without the server's list the check does not apply.
        let load = ask::Load {
            key: key.clone(),
            rows: Vec::new(),
            reset: true,
            coverage: crate::model::Coverage::Whole,
            newer: false,
            pending: None,
            agents: None,
        };
        ask(&mut engine, load).unwrap();
        let unknown = ask(&mut engine, ask::Conformance { key, reveal: false }).unwrap();
        assert!(unknown.is_empty());
    }
}
