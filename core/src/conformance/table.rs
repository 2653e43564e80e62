//! The report as a readable table: one block per agent, its level, how many of its MUST rules
//! were tested, then each rule that applied (failures, warnings and rules not tested with why,
//! then passes) with the messages that decide it.

use super::junit::refs;
use super::{ConformanceReport, Status};
use std::fmt::Write;

pub(super) fn render(report: &ConformanceReport) -> String {
    let mut out = String::new();
    for a in &report.agents {
        let counts: Vec<String> = Status::SHOWN
            .iter()
            .filter_map(|s| a.counts.get(s).map(|n| format!("{n} {}", s.as_str())))
            .collect();
        let registered = match a.registered {
            Some(false) => " (not registered)",
            _ => "",
        };
        let inferred = match a.attribution {
            super::Attribution::Inferred => " (sender inferred from the messages)",
            super::Attribution::Mixed => " (some senders inferred from the messages)",
            _ => "",
        };
        let _ = writeln!(
            out,
            "{}{registered}{inferred}: {} — MUST rules tested {} of {} ({} failed), SHOULD {} of {} ({})",
            a.agent,
            a.level.as_str().to_uppercase(),
            a.must.tested,
            a.must.applicable,
            a.must.fail,
            a.should.tested,
            a.should.applicable,
            counts.join(", ")
        );
        let mut rules: Vec<_> = a
            .families
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| r.status != Status::NotApplicable)
            .collect();
        rules.sort_by_key(|r| std::cmp::Reverse(r.status));
        let width = rules.iter().map(|r| r.id.len()).max().unwrap_or(0);
        for r in rules {
            let _ = writeln!(
                out,
                "  {:<10} {:<6} {:<width$}  {} {}  [{}]",
                r.status.as_str(),
                r.level.as_str(),
                r.id,
                r.seed.number(),
                r.section,
                refs(&r.messages)
            );
            if matches!(r.status, Status::Fail | Status::Warning) {
                for d in r.details.iter().take(3) {
                    let _ = writeln!(out, "             {d}");
                }
            }
            for why in &r.untested {
                let _ = writeln!(out, "             {why}");
            }
        }
        out.push('\n');
    }
    if let Some(b) = &report.baseline {
        let list = |name: &str, items: &[super::baseline::Expected]| {
            let shown: Vec<String> = items
                .iter()
                .map(|e| format!("{}:{}", e.agent, e.id))
                .collect();
            format!(
                "{name} ({}): {}\n",
                items.len(),
                if shown.is_empty() {
                    "-".into()
                } else {
                    shown.join(", ")
                }
            )
        };
        out.push_str(&list("baseline: expected failures", &b.expected));
        out.push_str(&list("baseline: new failures", &b.new_failures));
        out.push_str(&list("baseline: stale (listed, now passing)", &b.stale));
        out.push_str(&list("baseline: not exercised", &b.unused));
    }
    let t = &report.totals;
    let _ = writeln!(
        out,
        "{} — MUST rules tested {} of {} ({} failed, {} not tested), SHOULD {} of {} ({} warnings); {} rules of the seeds are not observable from mail (docs/conformance.md)",
        if report.conforms {
            "CONFORMS"
        } else {
            "DOES NOT CONFORM"
        },
        t.must.tested,
        t.must.applicable,
        t.must.fail,
        t.must.not_tested,
        t.should.tested,
        t.should.applicable,
        t.should.warning + t.should.fail,
        t.exempt
    );
    out
}
