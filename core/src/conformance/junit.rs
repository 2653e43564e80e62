//! The report as JUnit XML, for any CI system's test report: a test suite per agent, a test
//! case per rule that applied to it (`[MUST] <rule id>`, the seed's section, with the rule's
//! seed, section, level, words and checks as properties). A failing rule is a `<failure>` naming
//! the deciding messages; a rule not tested is `<skipped>` with why; a warning passes with the
//! findings in `<system-out>`.

use super::{ConformanceReport, MessageRef, RuleResult, Status};
use std::fmt::Write;

/// Text escaped for XML attributes and content; characters XML 1.0 cannot hold are dropped.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {}
            c => out.push(c),
        }
    }
    out
}

pub(super) fn refs(messages: &[MessageRef]) -> String {
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

fn case(out: &mut String, agent: &str, family: &str, r: &RuleResult) {
    let _ = writeln!(
        out,
        "    <testcase classname=\"{}\" name=\"{}\">",
        esc(&format!("{agent}.{family}")),
        esc(&format!(
            "[{}] {} ({} {})",
            r.level.as_str(),
            r.id,
            r.seed.number(),
            r.section
        ))
    );
    out.push_str("      <properties>\n");
    for (name, value) in [
        ("rule", r.id.to_owned()),
        ("seed", r.seed.number().to_owned()),
        ("section", r.section.to_owned()),
        ("level", r.level.as_str().to_owned()),
        ("quote", r.quote.to_owned()),
        ("checks", r.checks.join(" ")),
        ("status", r.status.as_str().to_owned()),
    ] {
        let _ = writeln!(
            out,
            "        <property name=\"{name}\" value=\"{}\"/>",
            esc(&value)
        );
    }
    out.push_str("      </properties>\n");
    let text = || {
        let mut t = format!("messages: {}\n", refs(&r.messages));
        for d in &r.details {
            t.push_str(d);
            t.push('\n');
        }
        t
    };
    match r.status {
        Status::Fail => {
            let first = r.details.first().map_or("", String::as_str);
            let _ = writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                r.level.as_str(),
                esc(first),
                esc(&text())
            );
        }
        Status::NotTested => {
            let _ = writeln!(
                out,
                "      <skipped message=\"{}\"/>",
                esc(&format!("not tested: {}", r.untested.join("; ")))
            );
        }
        Status::Warning => {
            let _ = writeln!(
                out,
                "      <system-out>{}</system-out>",
                esc(&format!("warning\n{}", text()))
            );
        }
        Status::Pass | Status::NotApplicable => {}
    }
    out.push_str("    </testcase>\n");
}

pub(super) fn render(report: &ConformanceReport) -> String {
    let mut suites = String::new();
    let (mut all, mut failed, mut skipped) = (0, 0, 0);
    for a in &report.agents {
        let applied: Vec<(&str, &RuleResult)> = a
            .families
            .iter()
            .flat_map(|f| f.rules.iter().map(move |r| (f.family, r)))
            .filter(|(_, r)| r.status != Status::NotApplicable)
            .collect();
        let fails = applied
            .iter()
            .filter(|(_, r)| r.status == Status::Fail)
            .count();
        let skips = applied
            .iter()
            .filter(|(_, r)| r.status == Status::NotTested)
            .count();
        all += applied.len();
        failed += fails;
        skipped += skips;
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{fails}\" errors=\"0\" skipped=\"{skips}\">",
            esc(&a.agent),
            applied.len()
        );
        suites.push_str("    <properties>\n");
        for (name, value) in [
            ("attribution", format!("{:?}", a.attribution).to_lowercase()),
            ("level", a.level.as_str().to_owned()),
            (
                "must_tested",
                format!("{} of {}", a.must.tested, a.must.applicable),
            ),
            (
                "should_tested",
                format!("{} of {}", a.should.tested, a.should.applicable),
            ),
        ] {
            let _ = writeln!(
                suites,
                "      <property name=\"{name}\" value=\"{}\"/>",
                esc(&value)
            );
        }
        suites.push_str("    </properties>\n");
        for (family, r) in applied {
            case(&mut suites, &a.agent, family, r);
        }
        suites.push_str("  </testsuite>\n");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"switchboard conformance\" tests=\"{all}\" failures=\"{failed}\" errors=\"0\" skipped=\"{skipped}\">\n{suites}</testsuites>\n"
    )
}
