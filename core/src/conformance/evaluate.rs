//! The report's computation: gather every finding (validator issues, engine violations while
//! folding and at the time the log is judged, the findings only the whole log shows, problems
//! of a messages directory), give each to the check that claims it and to the agent that broke
//! the rule, then decide each rule of the matrix for each agent from its checks.

use super::checks::{self, Check, Need, Party, Source};
use super::rules::{self, Rule, Scope};
use super::{
    computed, AgentResult, Attribution, ConformanceReport, FamilyResult, MessageRef, Options,
    RuleResult, RuleTotal, Status, Tally, Totals, UNKNOWN_SENDER,
};
use crate::agent_mail::{Carried, Envelope};
use crate::factory::Problem;
use crate::protocol::{FamilyId, Severity};
use crate::session::pair::IntegrityStatus;
use crate::session::pair_claude::Agent;
use crate::session::violation::Violation;
use crate::session::Book;
use crate::time::Timestamp;
use std::collections::{BTreeMap, BTreeSet};

/// One finding, given to a check and to the agent that broke the rule.
pub(super) struct Hit {
    pub check: &'static Check,
    /// The message it is about (none for a directory's problem).
    pub entry: Option<usize>,
    pub agent: String,
    pub severity: Severity,
    pub detail: String,
    /// The file of a directory's problem.
    pub path: Option<String>,
}

/// An agent's entries by message type (the base of a registry name; `None`: no type, plain
/// mail), so a rule about one type reads only those.
#[derive(Default)]
struct Pool {
    by_type: BTreeMap<Option<&'static str>, Vec<usize>>,
    all: Vec<usize>,
}

impl Pool {
    fn add(&mut self, e: &Envelope) {
        let kind = e.message_type().map(base);
        self.by_type.entry(kind).or_default().push(e.index);
        self.all.push(e.index);
    }

    /// The entries `check` may read for `rule`: of the types the rule is about (those the
    /// check reads among them), else of the check's types, else all.
    fn candidates<'p>(
        &'p self,
        check: &Check,
        rule: &Rule,
    ) -> Box<dyn Iterator<Item = usize> + 'p> {
        let types: &[&str] = if rule.about.is_empty() {
            check.types
        } else {
            rule.about
        };
        if types.is_empty() {
            return Box::new(self.all.iter().copied());
        }
        let mut picked: Vec<usize> = types
            .iter()
            .filter(|t| check.types.is_empty() || check.types.contains(t))
            .filter_map(|t| self.by_type.get(&Some(*t)))
            .flatten()
            .copied()
            .collect();
        picked.sort_unstable();
        Box::new(picked.into_iter())
    }
}

/// The log as the rules read it: envelopes by position, who sent and who owes what.
struct Log<'a> {
    by_index: BTreeMap<usize, &'a Envelope>,
    /// Per agent, the entries it sent.
    sent: BTreeMap<String, Pool>,
    /// Per agent, the entries that oblige it.
    obliged: BTreeMap<String, Pool>,
    /// Entries of the Pair sessions whose contract was compared with fingerprints.
    integrity_checked: BTreeSet<usize>,
    options: &'a Options,
}

fn sender(e: &Envelope) -> String {
    e.from.clone().unwrap_or_else(|| UNKNOWN_SENDER.to_owned())
}

fn base(message_type: &str) -> &str {
    message_type.split('@').next().unwrap_or(message_type)
}

/// The time the log is judged at: the options' `now`, else its last message's time.
fn judged_at(envelopes: &[Envelope], options: &Options) -> Option<Timestamp> {
    options
        .now
        .or_else(|| envelopes.iter().filter_map(|e| e.at).max())
}

pub(super) fn report(envelopes: &[Envelope], book: &Book, options: &Options) -> ConformanceReport {
    let now = judged_at(envelopes, options);
    let navigator = book.pair_claude.player(Agent::Navigator);
    let mut log = Log {
        by_index: envelopes.iter().map(|e| (e.index, e)).collect(),
        sent: BTreeMap::new(),
        obliged: BTreeMap::new(),
        integrity_checked: book
            .pair
            .sessions()
            .iter()
            .filter(|s| {
                s.integrity.checked_at.is_some() || s.integrity.status != IntegrityStatus::Unknown
            })
            .flat_map(|s| s.timeline.iter().map(|t| t.entry))
            .collect(),
        options,
    };
    for e in envelopes {
        log.sent.entry(sender(e)).or_default().add(e);
        for a in obliged(e, book, navigator) {
            log.obliged.entry(a).or_default().add(e);
        }
    }
    let mut hits = issue_hits(envelopes);
    hits.extend(violation_hits(&log, book, now));
    hits.extend(computed::findings(envelopes, book));
    let problems = problem_hits(options);
    hits.extend(problems);

    let mut agents: BTreeSet<String> = envelopes
        .iter()
        .filter(|e| !matches!(e.carried, Carried::Plain { .. }))
        .map(sender)
        .collect();
    agents.extend(hits.iter().map(|h| h.agent.clone()));
    let mut by_agent: BTreeMap<String, Vec<Hit>> = BTreeMap::new();
    for h in hits {
        by_agent.entry(h.agent.clone()).or_default().push(h);
    }
    let agents: Vec<AgentResult> = agents
        .into_iter()
        .map(|agent| {
            let mine = by_agent.remove(&agent).unwrap_or_default();
            agent_result(&log, agent, &mine)
        })
        .collect();
    let mut totals = Totals {
        exempt: rules::all().filter(|r| !r.observable()).count(),
        ..Totals::default()
    };
    for a in &agents {
        totals.must.merge(a.must);
        totals.should.merge(a.should);
    }
    let rules = rule_totals(&agents);
    let baseline = options.baseline.as_ref().map(|b| b.compare(&agents));
    let conforms = match &baseline {
        Some(b) => b.new_failures.is_empty() && b.stale.is_empty(),
        None => agents.iter().all(|a| a.level != Status::Fail),
    };
    ConformanceReport {
        judged_at: now,
        agents,
        totals,
        rules,
        baseline,
        conforms,
    }
}

/// Per rule that applied to some agent, in the matrix's order: how its agents came out.
fn rule_totals(agents: &[AgentResult]) -> Vec<RuleTotal> {
    let mut by_id: BTreeMap<&'static str, RuleTotal> = BTreeMap::new();
    for r in agents
        .iter()
        .flat_map(|a| a.families.iter().flat_map(|f| &f.rules))
        .filter(|r| r.status != Status::NotApplicable)
    {
        let t = by_id.entry(r.id).or_insert(RuleTotal {
            id: r.id,
            level: r.level,
            pass: 0,
            warning: 0,
            fail: 0,
            not_tested: 0,
        });
        match r.status {
            Status::Pass => t.pass += 1,
            Status::Warning => t.warning += 1,
            Status::Fail => t.fail += 1,
            Status::NotTested => t.not_tested += 1,
            Status::NotApplicable => {}
        }
    }
    rules::all().filter_map(|r| by_id.remove(r.id)).collect()
}

/// The agents a message obliges to act: the awaited agent of a Pair wait, the builder an audit
/// judges, the navigator a Pair Claude request waits on, the task agent of a GO or FIX, else
/// its recipients (the PO for a bare Agent-PO report).
fn obliged(e: &Envelope, book: &Book, navigator: Option<&str>) -> Vec<String> {
    let Some(kind) = e.message_type() else {
        return e.to.clone();
    };
    match (e.family(), base(kind)) {
        (Some(FamilyId::Pair), "AUDIT_REPORT") => book
            .pair
            .sessions()
            .iter()
            .find(|s| s.timeline.iter().any(|t| t.entry == e.index))
            .and_then(|s| s.builder.clone())
            .into_iter()
            .collect(),
        (
            Some(FamilyId::PairClaude),
            "PermissionRequest" | "driverRequestReview" | "DriverCommand",
        ) => navigator.map(str::to_owned).into_iter().collect(),
        (Some(FamilyId::AgentPo), _) if e.to.is_empty() => {
            let task = book
                .agent_po
                .tasks()
                .iter()
                .find(|t| t.entries.contains(&e.index));
            let agent_side = crate::session::agent_po::from_agent(kind);
            task.map(|t| {
                if agent_side {
                    t.po_name
                        .clone()
                        .unwrap_or_else(|| crate::session::attribution::PO.to_owned())
                } else {
                    t.agent_name.clone().unwrap_or_else(|| t.agent_id.clone())
                }
            })
            .into_iter()
            .collect()
        }
        _ => e.to.clone(),
    }
}

fn issue_hits(envelopes: &[Envelope]) -> Vec<Hit> {
    let mut hits = Vec::new();
    for env in envelopes {
        let issues = match &env.carried {
            Carried::Message(m) => &m.warnings,
            Carried::Invalid(inv) => &inv.report.issues,
            Carried::Plain { secrets } => secrets,
        };
        for issue in issues {
            let pointer = issue.path.to_pointer();
            if let Some(check) = checks::for_issue(env.family(), issue.code, &pointer) {
                hits.push(Hit {
                    check,
                    entry: Some(env.index),
                    agent: sender(env),
                    severity: issue.severity,
                    detail: format!("{}: {}", env.reference(), issue),
                    path: None,
                });
            }
        }
    }
    hits
}

/// Every violation the engine found, once (a sender violation is shown on its session too),
/// and what is late or missing at `now`.
fn violation_hits(log: &Log<'_>, book: &Book, now: Option<Timestamp>) -> Vec<Hit> {
    let mut seen = BTreeSet::new();
    let folded = book
        .pair
        .sessions()
        .iter()
        .flat_map(|s| &s.violations)
        .chain(book.agent_po.tasks().iter().flat_map(|t| &t.violations))
        .chain(&book.agent_po.violations)
        .chain(book.tasks.tasks().iter().flat_map(|t| &t.violations))
        .chain(&book.pair_claude.violations)
        .chain(&book.agents.violations)
        .cloned();
    let at_now = now.map(|n| book.findings_at(n)).unwrap_or_default();
    let mut hits = Vec::new();
    for v in folded.chain(at_now) {
        if !seen.insert((v.entry, v.code.as_str(), v.message.clone())) {
            continue;
        }
        let Some(env) = log.by_index.get(&v.entry) else {
            continue;
        };
        if let Some(hit) = violation_hit(env, v) {
            hits.push(hit);
        }
    }
    hits
}

fn violation_hit(env: &Envelope, v: Violation) -> Option<Hit> {
    let check = checks::for_violation(env.family(), v.message_type, v.code, v.expected)?;
    Some(Hit {
        check,
        entry: Some(v.entry),
        agent: v.by.clone().unwrap_or_else(|| sender(env)),
        severity: Severity::Error,
        detail: format!("{}: {}", env.reference(), v.message),
        path: None,
    })
}

fn problem_hits(options: &Options) -> Vec<Hit> {
    let Some(factory) = &options.factory else {
        return Vec::new();
    };
    let Some(check) = checks::CHECKS
        .iter()
        .find(|c| c.sources.contains(&Source::Persistence))
    else {
        return Vec::new();
    };
    factory
        .problems
        .iter()
        .map(|p: &Problem| Hit {
            check,
            entry: None,
            agent: p.path.split('/').next().unwrap_or_default().to_owned(),
            severity: Severity::Error,
            detail: format!("{}: {}", p.path, p.message),
            path: Some(p.path.clone()),
        })
        .collect()
}

fn agent_result(log: &Log<'_>, agent: String, hits: &[Hit]) -> AgentResult {
    let sent = log
        .sent
        .get(&agent)
        .map(|p| p.all.as_slice())
        .unwrap_or_default();
    let mut families: BTreeSet<FamilyId> = sent
        .iter()
        .filter_map(|i| log.by_index.get(i).and_then(|e| e.family()))
        .collect();
    families.extend(hits.iter().filter_map(|h| h.check.family));
    let mut scopes: Vec<Option<FamilyId>> = vec![None];
    scopes.extend(families.iter().copied().map(Some));
    let mut counts = BTreeMap::new();
    let (mut must, mut should) = (Tally::default(), Tally::default());
    let families: Vec<FamilyResult> = scopes
        .into_iter()
        .map(|scope| {
            let results: Vec<RuleResult> = rules_of(scope)
                .map(|r| decide(log, &agent, r, hits))
                .collect();
            for r in &results {
                *counts.entry(r.status).or_insert(0) += 1;
                match r.level {
                    rules::Level::Must => must.add(r.status),
                    rules::Level::Should => should.add(r.status),
                }
            }
            FamilyResult {
                family: scope.map_or("any", FamilyId::as_str),
                level: level(results.iter().map(|r| r.status)),
                rules: results,
            }
        })
        .collect();
    let inferred = sent
        .iter()
        .filter_map(|i| log.by_index.get(i))
        .map(|e| e.sender_inferred)
        .collect::<BTreeSet<bool>>();
    let attribution = if agent == UNKNOWN_SENDER {
        Attribution::Unknown
    } else {
        match (inferred.contains(&true), inferred.contains(&false)) {
            (true, true) => Attribution::Mixed,
            (true, false) => Attribution::Inferred,
            _ => Attribution::Mail,
        }
    };
    AgentResult {
        registered: log.options.agents.as_ref().map(|r| r.contains(&agent)),
        attribution,
        agent,
        level: level(families.iter().map(|f| f.level)),
        counts,
        must,
        should,
        families,
    }
}

/// The rules a scope holds: `any`, the rules held to all mail; a family, its seed's others.
fn rules_of(scope: Option<FamilyId>) -> impl Iterator<Item = &'static Rule> {
    rules::all().filter(move |r| {
        r.observable()
            && match scope {
                None => r.scope == Scope::AllMail,
                Some(f) => r.scope == Scope::Family && r.seed.family() == f,
            }
    })
}

/// The greatest status; not applicable when there is none.
fn level(statuses: impl Iterator<Item = Status>) -> Status {
    statuses.max().unwrap_or(Status::NotApplicable)
}

/// Whether `check` reads `e` for `rule`.
fn reads(check: &Check, rule: &Rule, e: &Envelope) -> bool {
    if matches!(e.carried, Carried::Plain { .. }) {
        return check.reads_plain_mail();
    }
    let family_ok = match check.family {
        None => true,
        Some(f) => e.family() == Some(f),
    };
    family_ok
        && check.applies_to(e.message_type())
        && e.message_type()
            .map_or(rule.about.is_empty(), |t| rule.is_about(t))
}

/// Whether what `need` asks is known for `e`.
fn known(log: &Log<'_>, need: Need, e: &Envelope) -> bool {
    match need {
        Need::Sender => e.from.is_some(),
        Need::Recipients => !e.to.is_empty(),
        Need::Time => e.at.is_some(),
        Need::Registry => log.options.agents.is_some(),
        Need::Contract => log.options.contract_checked,
        Need::Factory => log.options.factory.is_some(),
        Need::Integrity => log.integrity_checked.contains(&e.index),
        Need::Acknowledgement => e.ack_required,
    }
}

fn message_ref(log: &Log<'_>, e: &Envelope) -> MessageRef {
    MessageRef {
        entry: Some(e.index),
        id: e.id,
        message_id: e
            .value()
            .and_then(|v| v.get("message_id"))
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        path: log
            .options
            .factory
            .as_ref()
            .and_then(|f| f.paths.get(e.index).cloned()),
    }
}

/// How many of the messages a rule applied to a pass (or a rule not tested) lists.
const LISTED: usize = 20;

/// One rule for one agent.
fn decide(log: &Log<'_>, agent: &str, rule: &'static Rule, hits: &[Hit]) -> RuleResult {
    let checks: Vec<&'static Check> = rule
        .checks()
        .iter()
        .filter_map(|id| checks::by_id(id))
        .collect();
    let findings: Vec<&Hit> = hits
        .iter()
        .filter(|h| checks.iter().any(|c| std::ptr::eq(*c, h.check)))
        .filter(|h| {
            h.entry
                .and_then(|i| log.by_index.get(&i))
                .and_then(|e| e.message_type())
                .is_none_or(|t| rule.is_about(t))
        })
        .collect();
    let mut relevant: BTreeSet<usize> = BTreeSet::new();
    let mut untested: BTreeMap<(&'static str, Need), usize> = BTreeMap::new();
    for check in &checks {
        let Some(pool) = (match check.party {
            Party::Sender => log.sent.get(agent),
            Party::Obliged => log.obliged.get(agent),
        }) else {
            continue;
        };
        let mine = pool
            .candidates(check, rule)
            .filter_map(|i| log.by_index.get(&i))
            .filter(|e| reads(check, rule, e));
        for e in mine {
            relevant.insert(e.index);
            for need in check.needs {
                if !known(log, *need, e) {
                    *untested.entry((check.id, *need)).or_insert(0) += 1;
                }
            }
        }
    }
    let status = if findings.iter().any(|h| h.severity == Severity::Error) {
        match rule.level {
            rules::Level::Must => Status::Fail,
            rules::Level::Should => Status::Warning,
        }
    } else if !findings.is_empty() {
        Status::Warning
    } else if relevant.is_empty() {
        Status::NotApplicable
    } else if !untested.is_empty() {
        Status::NotTested
    } else {
        Status::Pass
    };
    let messages: Vec<MessageRef> = if findings.is_empty() {
        if status == Status::NotApplicable {
            Vec::new()
        } else {
            relevant
                .iter()
                .take(LISTED)
                .filter_map(|i| log.by_index.get(i))
                .map(|e| message_ref(log, e))
                .collect()
        }
    } else {
        let mut refs: BTreeSet<MessageRef> = BTreeSet::new();
        for h in &findings {
            match (h.entry.and_then(|i| log.by_index.get(&i)), &h.path) {
                (Some(e), _) => {
                    refs.insert(message_ref(log, e));
                }
                (None, path) => {
                    refs.insert(MessageRef {
                        entry: None,
                        id: None,
                        message_id: None,
                        path: path.clone(),
                    });
                }
            }
        }
        refs.into_iter().collect()
    };
    RuleResult {
        id: rule.id,
        seed: rule.seed,
        section: rule.section,
        level: rule.level,
        quote: rule.quote,
        status,
        checks: rule.checks(),
        broken_by: {
            let mut ids: Vec<&'static str> = findings.iter().map(|h| h.check.id).collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        },
        messages,
        details: findings.iter().map(|h| h.detail.clone()).collect(),
        applied: relevant.len(),
        untested: if status == Status::NotTested {
            untested
                .into_iter()
                .map(|((check, need), n)| {
                    format!(
                        "{check}: {} ({n} message{})",
                        need.missing(),
                        if n == 1 { "" } else { "s" }
                    )
                })
                .collect()
        } else {
            Vec::new()
        },
    }
}
