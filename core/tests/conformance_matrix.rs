//! The seed rule matrix against the seeds' own texts: every quote is found verbatim in its
//! seed, every rule has checks or an exemption, every check decides some rule, ids are unique
//! and stable in form, and `docs/conformance.md` prints the matrix as the code holds it.

use std::collections::BTreeSet;
use std::path::Path;
use switchboard_core::conformance::rules::{self, Decided, Level, Seed};
use switchboard_core::conformance::{coverage_markdown, CHECKS};

fn seed_text(seed: Seed) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seeds");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(seed.number()))
        })
        .unwrap_or_else(|| panic!("no seed {} in {}", seed.number(), dir.display()));
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn every_quote_is_in_its_seed_verbatim() {
    for seed in Seed::ALL {
        let text = seed_text(seed);
        for r in seed.rules() {
            assert!(
                text.contains(r.quote),
                "{}: the quote {:?} is not in seed {}",
                r.id,
                r.quote,
                seed.number()
            );
            assert_eq!(r.seed, seed, "{}", r.id);
        }
    }
}

#[test]
fn every_rule_is_decided_by_checks_or_exempt_with_a_reason() {
    for r in rules::all() {
        match r.decided {
            Decided::By(ids) => {
                assert!(!ids.is_empty(), "{}: no check", r.id);
                for id in ids {
                    let check = CHECKS
                        .iter()
                        .find(|c| c.id == *id)
                        .unwrap_or_else(|| panic!("{}: no check {id}", r.id));
                    // The check must be able to read a message the rule is about.
                    if !check.types.is_empty() && !r.about.is_empty() {
                        assert!(
                            check.types.iter().any(|t| r.about.contains(t)),
                            "{}: {id} reads {:?}, the rule is about {:?}",
                            r.id,
                            check.types,
                            r.about
                        );
                    }
                }
            }
            Decided::Exempt(why) => assert!(why.len() > 20, "{}: exempt without a reason", r.id),
        }
    }
}

#[test]
fn every_check_decides_a_rule() {
    let named: BTreeSet<&str> = rules::all()
        .flat_map(|r| r.checks().iter().copied())
        .collect();
    for c in CHECKS {
        assert!(named.contains(c.id), "check {} decides no rule", c.id);
    }
}

#[test]
fn ids_are_unique_and_name_their_seed() {
    let mut seen = BTreeSet::new();
    for r in rules::all() {
        assert!(seen.insert(r.id), "{} twice", r.id);
        assert!(
            r.id.starts_with(&format!("{}.", r.seed.number())),
            "{} does not start with its seed",
            r.id
        );
        assert!(
            r.id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-'),
            "{}",
            r.id
        );
    }
    let mut checks = BTreeSet::new();
    for c in CHECKS {
        assert!(checks.insert(c.id), "{} twice", c.id);
    }
}

#[test]
fn the_matrix_covers_each_seed() {
    for seed in Seed::ALL {
        let rules = seed.rules();
        let must = rules.iter().filter(|r| r.level == Level::Must).count();
        let exempt = rules.iter().filter(|r| !r.observable()).count();
        assert!(
            rules.len() >= 25,
            "seed {} has {} rules",
            seed.number(),
            rules.len()
        );
        assert!(must > 0);
        assert!(
            exempt * 2 < rules.len(),
            "seed {}: {exempt} of {} exempt",
            seed.number(),
            rules.len()
        );
    }
    assert!(rules::all().count() >= 190);
}

#[test]
fn the_documentation_prints_the_matrix() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/conformance.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let table = coverage_markdown();
    const START: &str = "<!-- matrix: generated from core/src/conformance/rules; UPDATE_DOCS=1 cargo test -p switchboard-core --test conformance_matrix -->\n";
    const END: &str = "<!-- end of matrix -->\n";
    let generated = format!("{START}{table}{END}");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let (head, tail) = match (doc.find(START), doc.find(END)) {
            (Some(a), Some(b)) => (doc[..a].to_owned(), doc[b + END.len()..].to_owned()),
            _ => (doc.clone(), String::new()),
        };
        std::fs::write(&path, format!("{head}{generated}{tail}")).unwrap();
        return;
    }
    assert!(
        doc.contains(&generated),
        "docs/conformance.md does not print the matrix as the code holds it: run UPDATE_DOCS=1 cargo test -p switchboard-core --test conformance_matrix"
    );
}
