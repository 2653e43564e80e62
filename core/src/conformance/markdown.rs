//! Markdown: the report (for a CI job's summary) and the rule matrix with its coverage (what
//! `docs/conformance.md` holds).

use super::checks;
use super::junit::refs;
use super::rules::{self, Coverage, Decided, Seed};
use super::{ConformanceReport, Status};
use std::fmt::Write;

/// Text for a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Text shown as code in a table cell: backticks long enough for the backticks it holds.
fn code(s: &str) -> String {
    let ticks = s.split(|c| c != '`').map(str::len).max().unwrap_or(0) + 1;
    let fence = "`".repeat(ticks);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    cell(&format!("{fence}{pad}{s}{pad}{fence}"))
}

pub(super) fn render(report: &ConformanceReport) -> String {
    let mut out = String::new();
    let t = &report.totals;
    let _ = writeln!(
        out,
        "## Conformance: {}\n\nMUST rules tested: {} of {} ({} failed, {} not tested). SHOULD rules tested: {} of {} ({} warnings).\n",
        if report.conforms { "conforms" } else { "does not conform" },
        t.must.tested,
        t.must.applicable,
        t.must.fail,
        t.must.not_tested,
        t.should.tested,
        t.should.applicable,
        t.should.warning + t.should.fail,
    );
    out.push_str("| agent | level | MUST tested | failed | warnings | not tested |\n|---|---|---:|---:|---:|---:|\n");
    for a in &report.agents {
        let _ = writeln!(
            out,
            "| {} | {} | {} of {} | {} | {} | {} |",
            cell(&a.agent),
            a.level.as_str(),
            a.must.tested,
            a.must.applicable,
            a.must.fail + a.should.fail,
            a.must.warning + a.should.warning,
            a.must.not_tested + a.should.not_tested
        );
    }
    for a in &report.agents {
        let rules: Vec<_> = a
            .families
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| matches!(r.status, Status::Fail | Status::Warning | Status::NotTested))
            .collect();
        if rules.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n### {}\n\n| status | level | rule | seed | messages | why |\n|---|---|---|---|---|---|", cell(&a.agent));
        let mut rules = rules;
        rules.sort_by_key(|r| std::cmp::Reverse(r.status));
        for r in rules {
            let why = if r.status == Status::NotTested {
                r.untested.join("; ")
            } else {
                r.details.first().cloned().unwrap_or_default()
            };
            let _ = writeln!(
                out,
                "| {} | {} | `{}` | {} {} | {} | {} |",
                r.status.as_str(),
                r.level.as_str(),
                r.id,
                r.seed.number(),
                cell(r.section),
                cell(&refs(&r.messages)),
                cell(&why)
            );
        }
    }
    out
}

/// The coverage per seed, then every rule with how it is decided.
pub(super) fn coverage() -> String {
    let mut out = String::new();
    out.push_str(
        "| seed | rules | MUST | SHOULD | checked | exempt |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for seed in Seed::ALL {
        let c = Coverage::of(seed.rules());
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {} | {} | {} |",
            seed.number(),
            seed.title(),
            c.rules,
            c.must,
            c.should,
            c.checked,
            c.exempt
        );
    }
    let c = Coverage::of(rules::all());
    let _ = writeln!(
        out,
        "| all | {} | {} | {} | {} | {} |",
        c.rules, c.must, c.should, c.checked, c.exempt
    );
    for seed in Seed::ALL {
        let _ = writeln!(
            out,
            "\n### {} {}\n\n| rule | section | level | the seed's words | decided by |\n|---|---|---|---|---|",
            seed.number(),
            seed.title()
        );
        for r in seed.rules() {
            let decided = match r.decided {
                Decided::By(ids) => ids
                    .iter()
                    .map(|id| format!("`{id}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                Decided::Exempt(why) => format!("exempt: {}", cell(why)),
            };
            let note = if r.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", cell(r.note))
            };
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {decided}{note} |",
                r.id,
                cell(r.section),
                r.level.as_str(),
                code(r.quote)
            );
        }
    }
    out.push_str("\n### The checks\n\n| check | asks | decides |\n|---|---|---|\n");
    for c in checks::CHECKS {
        let rules: Vec<String> = rules::all()
            .filter(|r| r.checks().contains(&c.id))
            .map(|r| format!("`{}`", r.id))
            .collect();
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            c.id,
            cell(c.title),
            rules.join(", ")
        );
    }
    out
}
