//! The report as a readable table: one block per agent, its level and counts, then each check
//! that applied (passes, warnings, failures with the messages that decide them).

use super::{ConformanceReport, MessageRef, Status};
use std::fmt::Write;

fn refs(messages: &[MessageRef]) -> String {
    let shown: Vec<String> = messages
        .iter()
        .take(6)
        .map(|m| match (&m.path, m.id, m.entry) {
            (Some(p), _, _) => p.clone(),
            (None, Some(id), _) => format!("#{id}"),
            (None, None, Some(e)) => format!("entry {}", e + 1),
            (None, None, None) => "?".into(),
        })
        .collect();
    let more = messages.len().saturating_sub(6);
    if more > 0 {
        format!("{} (+{more})", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

pub(super) fn render(report: &ConformanceReport) -> String {
    let mut out = String::new();
    for a in &report.agents {
        let counts: Vec<String> = [
            Status::Fail,
            Status::Warning,
            Status::Pass,
            Status::NotApplicable,
        ]
        .iter()
        .filter_map(|s| a.counts.get(s).map(|n| format!("{n} {}", s.as_str())))
        .collect();
        let registered = match a.registered {
            Some(false) => " (not registered)",
            _ => "",
        };
        let _ = writeln!(
            out,
            "{}{registered}: {} ({})",
            a.agent,
            a.level.as_str().to_uppercase(),
            counts.join(", ")
        );
        let width = a
            .families
            .iter()
            .flat_map(|f| &f.checks)
            .map(|c| c.id.len())
            .max()
            .unwrap_or(0);
        for c in a.families.iter().flat_map(|f| &f.checks) {
            if c.status == Status::NotApplicable {
                continue;
            }
            let _ = writeln!(
                out,
                "  {:<7} {:<width$}  {}  [{}]",
                c.status.as_str(),
                c.id,
                c.seed,
                refs(&c.messages)
            );
            if c.status != Status::Pass {
                for d in c.details.iter().take(3) {
                    let _ = writeln!(out, "          {d}");
                }
            }
        }
        out.push('\n');
    }
    if let Some(b) = &report.baseline {
        let list = |name: &str, items: &[super::baseline::Expected]| {
            let shown: Vec<String> = items
                .iter()
                .map(|e| format!("{}:{}", e.agent, e.check))
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
    let _ = writeln!(
        out,
        "{}",
        if report.conforms {
            "CONFORMS"
        } else {
            "DOES NOT CONFORM"
        }
    );
    out
}
