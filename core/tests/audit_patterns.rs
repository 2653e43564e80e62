//! The audit against real-looking `git diff` fixtures in Python, TypeScript and Rust
//! (`tests/fixtures/audit/`): every pattern fires where it should and nowhere else, clean
//! changes pass, every report validates strictly as `pair/AUDIT_REPORT`, and the patterns
//! table in `docs/protocol.md` is the table in the code.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use switchboard_core::audit::diff::LineKind;
use switchboard_core::audit::patterns::{Rule, PATTERNS};
use switchboard_core::audit::{self, Contract, Side, Status};
use switchboard_core::protocol::{self, FamilyId, Options};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

fn read_contract(dir: &Path) -> Contract {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    Contract::from_files(files.iter().map(|(p, t)| (p.as_str(), t.as_str()))).unwrap()
}

struct Case {
    name: String,
    report: audit::AuditReport,
    diff: audit::Diff,
    meta: Value,
}

fn cases() -> Vec<Case> {
    let dir = fixtures().join("cases");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let meta: Value = serde_json::from_str(
                &std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap(),
            )
            .unwrap();
            let contract = read_contract(
                &fixtures()
                    .join("contracts")
                    .join(meta["contract"].as_str().unwrap()),
            );
            let text = std::fs::read_to_string(dir.join(format!("{name}.diff"))).unwrap();
            let diff = audit::parse_diff(&text).unwrap();
            let approved: Vec<&str> = meta["approved"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            let report = audit::audit(&contract, &diff, &approved);
            Case {
                name,
                report,
                diff,
                meta,
            }
        })
        .collect()
}

#[test]
fn every_fixture_gives_its_expected_findings() {
    let cases = cases();
    assert!(cases.len() >= 30);
    for case in &cases {
        let found: Vec<String> = case
            .report
            .issues
            .iter()
            .map(|i| format!("{} {}", i.pattern, i.location))
            .collect();
        let expected: Vec<String> = case.meta["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(found, expected, "{}: {:#?}", case.name, case.report.issues);
        let status = if case.meta["status"] == "PASS" {
            Status::Pass
        } else {
            Status::Fail
        };
        assert_eq!(case.report.status, status, "{}", case.name);
    }
}

#[test]
fn clean_changes_pass_with_no_finding_in_all_three_languages() {
    let cases = cases();
    for lang in ["py", "ts", "rs"] {
        let clean = cases
            .iter()
            .find(|c| c.name == format!("{lang}-clean"))
            .unwrap();
        assert_eq!(clean.report.status, Status::Pass);
        assert!(
            clean.report.issues.is_empty(),
            "{}: {:#?}",
            clean.name,
            clean.report.issues
        );
        assert!(!clean.report.scheming_detected);
        // Many added lines: the clean changes are real implementations, not empty diffs.
        let added = clean
            .diff
            .files
            .iter()
            .flat_map(|f| f.lines())
            .filter(|l| l.kind == LineKind::Added)
            .count();
        assert!(added >= 10, "{}", clean.name);
    }
}

#[test]
fn each_pattern_fires_in_each_of_its_languages() {
    let cases = cases();
    for spec in PATTERNS {
        // Its findings come from the syntax check of the contract, not from a diff: its
        // corpora are tests/fixtures/syntax (tests/syntax.rs, tests/syntax_cli.rs).
        if matches!(spec.rule, Rule::ContractSyntax) {
            continue;
        }
        let langs: Vec<&str> = if spec.languages.is_empty() {
            vec!["py", "ts", "rs"]
        } else {
            spec.languages
                .iter()
                .map(|l| match l.as_str() {
                    "python" => "py",
                    "typescript" => "ts",
                    _ => "rs",
                })
                .collect()
        };
        for lang in langs {
            let fired = cases
                .iter()
                .filter(|c| c.name.starts_with(lang))
                .any(|c| c.report.issues.iter().any(|i| i.pattern == spec.id));
            assert!(fired, "pattern {} has no {lang} fixture", spec.id);
        }
    }
}

#[test]
fn every_finding_points_at_a_line_of_the_diff() {
    for case in cases() {
        for issue in &case.report.issues {
            let loc = &issue.location;
            let on_line = case.diff.files.iter().any(|f| {
                f.lines().any(|l| match issue.side {
                    Side::New => {
                        l.kind == LineKind::Added
                            && l.new_line == Some(loc.line)
                            && f.new_path.as_str() == loc.path
                    }
                    Side::Old => {
                        l.kind == LineKind::Removed
                            && l.old_line == Some(loc.line)
                            && f.old_path.as_str() == loc.path
                    }
                })
            });
            let header_only = case
                .diff
                .files
                .iter()
                .any(|f| f.hunks.is_empty() && loc.line == 1);
            assert!(
                on_line || header_only,
                "{}: {} points at no changed line",
                case.name,
                loc
            );
        }
    }
}

#[test]
fn reports_validate_strictly_as_pair_audit_report() {
    let strict = Options::strict().with_family(FamilyId::Pair);
    for case in cases() {
        let value = serde_json::to_value(&case.report).unwrap();
        let report = protocol::validate(&value, &strict);
        assert!(report.valid, "{}: {:?}", case.name, report.issues);
        assert_eq!(report.message_type, Some("AUDIT_REPORT"));
        // Detected without a hint, too.
        assert_eq!(
            protocol::validate(&value, &Options::strict()).message_type,
            Some("AUDIT_REPORT")
        );
        let r = &case.report;
        assert_eq!(
            r.status == Status::Fail,
            r.issues
                .iter()
                .any(|i| i.severity >= audit::Severity::Major)
        );
        assert_eq!(
            r.severity,
            r.issues
                .iter()
                .map(|i| i.severity)
                .max()
                .unwrap_or(audit::Severity::Minor)
        );
        for issue in value["issues"].as_array().unwrap() {
            for member in [
                "type",
                "severity",
                "description",
                "location",
                "code",
                "pattern",
                "side",
            ] {
                assert!(issue.get(member).is_some(), "{}: {member}", case.name);
            }
        }
    }
}

#[test]
fn seed_codes_are_the_registry_codes() {
    let seed: BTreeSet<&str> = FamilyId::Pair
        .spec()
        .error_codes
        .iter()
        .map(|c| c.code)
        .collect();
    for code in [
        audit::Code::ContractTampered,
        audit::Code::SchemingDetected,
        audit::Code::DependencyViolation,
    ] {
        assert!(seed.contains(code.as_str()), "{}", code.as_str());
    }
    let ids: BTreeSet<&str> = PATTERNS.iter().map(|p| p.id).collect();
    assert_eq!(ids.len(), PATTERNS.len(), "pattern ids are unique");
}

/// The patterns table as `docs/protocol.md` must hold it.
fn table() -> String {
    let mut out = String::from(
        "| pattern | languages | matches | type | severity | code | false-positive rules |\n|---|---|---|---|---|---|---|\n",
    );
    for p in PATTERNS {
        let langs: Vec<&str> = p.languages.iter().map(|l| l.as_str()).collect();
        let langs = if langs.is_empty() {
            "any".to_owned()
        } else {
            langs.join(", ")
        };
        let cell = |s: &str| s.replace('|', "\\|");
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            p.id,
            langs,
            cell(p.matches),
            p.kind.as_str(),
            p.severity.as_str(),
            p.code.as_str(),
            cell(p.false_positives)
        ));
    }
    out
}

#[test]
fn docs_table_is_the_pattern_table() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md"))
            .unwrap();
    let table = table();
    assert!(
        docs.contains(&table),
        "docs/protocol.md must contain this table:\n{table}"
    );
}
