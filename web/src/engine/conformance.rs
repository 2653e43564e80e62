//! Each agent's conformance, mapped from the core's report (`conformance::check_book`) over
//! the project's traffic as folded (with the registered agents, when known): agents that fail
//! first, and within an agent its failing rules first.

use super::traffic::Traffic;
use crate::model::conformance::{MESSAGES_SHOWN, PASSES_SHOWN};
use crate::model::{AgentConformance, RuleRow};
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
    let mut rules: Vec<RuleRow> = a
        .families
        .into_iter()
        .flat_map(|f| {
            f.rules.into_iter().map(|r| {
                let shown = if r.status == Status::Pass {
                    PASSES_SHOWN
                } else {
                    MESSAGES_SHOWN
                };
                // Messages of the project's traffic all have a transport id.
                let ids: Vec<u64> = r.messages.iter().filter_map(|m| m.id).collect();
                let details = if r.status == Status::NotTested {
                    r.untested
                } else {
                    r.details
                };
                RuleRow {
                    id: r.id.to_owned(),
                    section: format!("{} {}", r.seed.number(), r.section),
                    quote: r.quote.to_owned(),
                    level: r.level,
                    status: r.status,
                    checks: r.checks.iter().map(|c| (*c).to_owned()).collect(),
                    more: ids.len().saturating_sub(shown),
                    messages: ids.into_iter().take(shown).collect(),
                    details: cut(details),
                }
            })
        })
        .collect();
    rules.sort_by_key(|r| Reverse(r.status));
    let count = |s: Status| a.counts.get(&s).copied().unwrap_or(0);
    AgentConformance {
        counts: [
            count(Status::Fail),
            count(Status::Warning),
            count(Status::NotTested),
            count(Status::Pass),
            count(Status::NotApplicable),
        ],
        must_tested: (a.must.tested, a.must.applicable),
        agent: a.agent,
        registered: a.registered,
        level: a.level,
        rules,
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

    /// The ids of an agent's failing rules, in the report's order.
    fn failing(report: &[AgentConformance], name: &str) -> Vec<String> {
        agent(report, name)
            .rules
            .iter()
            .filter(|c| c.status == Status::Fail)
            .map(|c| c.id.clone())
            .collect()
    }

    /// The report of `project` as the engine answers it, masked unless `reveal`.
    fn report(project: &str, reveal: bool) -> Vec<AgentConformance> {
        let (engine, key) = loaded(project);
        of(&engine, &key, reveal)
    }

    fn of(
        engine: &super::super::Engine,
        key: &crate::model::TrafficKey,
        reveal: bool,
    ) -> Vec<AgentConformance> {
        super::super::secrets::shown(super::report(engine.traffic(key).unwrap()), reveal)
    }

    /// An agent's rule.
    fn rule<'a>(report: &'a [AgentConformance], name: &str, id: &str) -> &'a crate::model::RuleRow {
        agent(report, name)
            .rules
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{name} has no rule {id}"))
    }

    #[test]
    fn the_demos_rule_breakers_fail_their_rules_with_the_deciding_messages() {
        let droid = report("droid-fleet", false);
        let olive = agent(&droid, "OliveMarsh");
        assert_eq!(olive.level, Status::Fail);
        assert_eq!(olive.registered, Some(true));
        let olive_fails = failing(&droid, "OliveMarsh");
        for id in ["004.security.secrets", "004.overview.json"] {
            assert!(olive_fails.contains(&id.to_owned()), "{olive_fails:?}");
        }
        // Failing rules come first, then warnings, rules not tested, passes, those that do not
        // apply.
        let statuses: Vec<Status> = olive.rules.iter().map(|c| c.status).collect();
        assert!(statuses.windows(2).all(|w| w[0] >= w[1]), "{statuses:?}");
        let secret = rule(&droid, "OliveMarsh", "004.security.secrets");
        assert_eq!(secret.section, "004 Security Considerations");
        assert!(secret.quote.contains("Never include passwords"));
        assert_eq!(secret.level, switchboard_core::conformance::Level::Must);
        assert_eq!(secret.messages.len(), 1);
        assert!(secret.details[0].contains("AKIA…(20 chars)"));
        assert!(!format!("{droid:?}").contains("AKIAIOSFODNN7EXAMPLE"));
        // TealHarbor also reported on bd-90, OliveMarsh's task.
        let teal = failing(&droid, "TealHarbor");
        for id in ["004.common.sender-id", "004.common.timestamp"] {
            assert!(teal.contains(&id.to_owned()), "{teal:?}");
        }

        let lab = report("pair-lab", false);
        let green = failing(&lab, "GreenCastle");
        for id in ["004.security.secrets", "000.practice.builder-tests"] {
            assert!(green.contains(&id.to_owned()), "{green:?}");
        }
        assert!(failing(&lab, "BlueLake").contains(&"000.pattern-1.contract-review".into()));
        let navy = failing(&lab, "NavyFalcon");
        assert!(navy.contains(&"003.permission.decision".into()), "{navy:?}");
        // A long list of deciding messages is cut, and says how many more there are.
        let decision = rule(&lab, "NavyFalcon", "003.permission.decision");
        assert_eq!(
            decision.messages.len(),
            crate::model::conformance::MESSAGES_SHOWN
        );
        assert!(decision.more > 0);
        assert!(decision.details.last().unwrap().starts_with("… and "));
        // What the console cannot decide is not tested, with why: never a pass.
        let parse = rule(&lab, "BlueLake", "000.error.test-syntax-error");
        assert_eq!(parse.status, Status::NotTested);
        assert!(
            parse.details[0].contains("the contract's files were not read"),
            "{:?}",
            parse.details
        );
        let (tested, applicable) = agent(&lab, "BlueLake").must_tested;
        assert!(tested < applicable && tested > 0);
        // No agent of the demo is unregistered: the server lists them all.
        assert!(lab.iter().all(|a| a.registered == Some(true)));

        let po = report("po-factory", false);
        assert!(failing(&po, "GoldenOwl")
            .iter()
            .any(|r| r.starts_with("002.")));
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
        let report = of(&engine, &key, false);
        let olive = agent(&report, "OliveMarsh");
        assert_eq!(olive.registered, Some(false));
        let registered = rule(&report, "OliveMarsh", "000.error.invalid-agent");
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
        assert!(failing(&report, "CrimsonPeak").contains(&"000.error.invalid-agent".into()));
        assert_eq!(agent(&report, "TealHarbor").registered, Some(true));

        // Without the server's list nothing is loaded.
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
        assert!(of(&engine, &key, false).is_empty());
    }

    #[test]
    fn the_panel_shows_each_rule_with_the_seeds_words_and_links_its_messages() {
        let (mut engine, key) = loaded("pair-lab");
        let html = ask(&mut engine, ask::Conformance { key, reveal: false })
            .unwrap()
            .0;
        assert!(
            html.contains(
                r#"details class="agent-conformance" data-level="fail" data-agent="GreenCastle""#
            ),
            "{html}"
        );
        assert!(
            html.contains(r#"tr class="rule" data-status="fail" data-rule="004.security.secrets""#)
        );
        assert!(html.contains("Never include passwords, API keys, or secrets in messages"));
        assert!(html.contains(r#"data-status="not tested""#));
        assert!(html.contains(r#"href="/demo/p/pair-lab/m/"#));
        assert!(html.contains("MUST rules tested"));
    }
}
