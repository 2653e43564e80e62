//! The scan against a model that looks everywhere (no run cut, no anchor table), on generated
//! strings built from the detectors' own pieces: the shortcuts lose nothing.

use super::*;
use proptest::prelude::*;

/// Every detector at every place.
fn model(text: &str) -> Vec<Finding> {
    let b = text.as_bytes();
    let mut hits = Vec::new();
    for i in 0..b.len() {
        for (idx, d) in TABLE.iter().enumerate() {
            let hit = match d.rule {
                Rule::Prefixed(forms) => forms.iter().find_map(|f| rules::prefixed(b, i, f)),
                Rule::Jwt => rules::jwt(b, i),
                Rule::PrivateKey => rules::private_key(text, i),
                Rule::UrlCredentials if b[i..].starts_with(b"://") => {
                    rules::url_credentials(text, i)
                }
                Rule::Assignment if b[i] == b'=' => rules::assignment(text, i),
                Rule::AuthorizationHeader if text.is_char_boundary(i) => {
                    rules::authorization(text, i)
                }
                _ => None,
            };
            if let Some(hit) = hit {
                hits.push((idx, hit));
            }
        }
    }
    findings(text, hits)
}

/// The places [`candidates::each`] reports: a superset of the anchor pairs, in order.
fn places(b: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    candidates::each(b, |i| {
        out.push(i);
        true
    });
    out
}

const PIECES: &[&str] = &[
    "AKIA",
    "ASIA",
    "A3T",
    "ghp_",
    "gho_",
    "github_pat_",
    "glpat-",
    "GR1348941",
    "xoxb-",
    "xapp-",
    "hooks.slack.com/services/",
    "sk_live_",
    "rk_live_",
    "npm_",
    "AIza",
    "sk-",
    "sk-proj-",
    "sk-ant-api03-",
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9",
    ".",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----",
    "-----END RSA PRIVATE KEY-----",
    "://",
    "https://",
    "postgres://",
    "@",
    ":",
    "=",
    "==",
    "password",
    "DB_PASSWORD",
    "api_key",
    "accessToken",
    "Bearer ",
    "bearer ",
    "Basic ",
    "dXNlcjpwYXNzd29yZDk5",
    "YWRtaW46Y2hhbmdlbWU=",
    " ",
    "\n",
    "\t",
    "_",
    "-",
    "'",
    "\"",
    "$",
    "<",
    "é",
    "****",
    "${X}",
    "&",
    ";",
];

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(PIECES).prop_map(str::to_owned),
        1 => "[A-Z2-7]{0,24}",
        1 => "[a-z0-9]{0,40}",
        1 => "[A-Za-z0-9]{0,48}",
        1 => "[A-Za-z0-9+/]{0,70}",
        1 => "[A-Za-z0-9_-]{0,40}",
    ]
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(piece(), 1..14).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn scan_agrees_with_looking_everywhere(s in text()) {
        let got: Vec<(&str, Range<usize>)> =
            scan_text(&s).iter().map(|f| (f.detector.id, f.span.clone())).collect();
        let want: Vec<(&str, Range<usize>)> =
            model(&s).iter().map(|f| (f.detector.id, f.span.clone())).collect();
        prop_assert_eq!(got, want, "{:?}", s);
    }

    #[test]
    fn findings_never_repeat_the_secret(s in text(), name in "(password|api_key|token|note|x)") {
        for f in scan_member(&name, &s) {
            let secret = &s[f.span.clone()];
            prop_assert!(secret.chars().count() >= 4 || f.masked.starts_with('…'));
            if secret.chars().count() >= 4 {
                prop_assert!(!f.quoted.contains(secret), "{:?} in {:?}", secret, f.quoted);
                prop_assert!(!f.masked.contains(secret));
            }
        }
        prop_assert_eq!(holds_secret(Some(&name), &s), !scan_member(&name, &s).is_empty());
        prop_assert_eq!(holds_secret(None, &s), !scan_text(&s).is_empty());
    }
}

#[test]
fn the_anchor_table_holds_every_prefix() {
    for d in DETECTORS {
        if let Rule::Prefixed(forms) = d.rule {
            for f in forms {
                let p = f.prefix.as_bytes();
                assert!(anchored(p, 0), "{}", f.prefix);
                assert!(p.len() + f.min >= MIN_TEXT, "{}", f.prefix);
            }
        }
    }
}

#[test]
fn ids_are_unique_kebab_case() {
    let mut seen = std::collections::BTreeSet::new();
    for d in DETECTORS {
        assert!(seen.insert(d.id), "{}", d.id);
        assert!(
            d.id.bytes().all(|c| c.is_ascii_lowercase() || c == b'-'),
            "{}",
            d.id
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every path (scalar, and the vector paths this CPU runs) finds every anchor pair the
    /// pair table knows that is not inside a word, in order; the vector paths give the same
    /// places (the scalar path gives every place).
    #[test]
    fn candidates_hold_every_anchor_pair(s in text(), tail in "[A-Za-z0-9=:/ -]{0,40}") {
        let s = format!("{s}{tail}");
        let b = s.as_bytes();
        let mut vector: Option<Vec<usize>> = None;
        for (name, path) in candidates::paths() {
            let mut found = Vec::new();
            path(b, &mut |i| {
                found.push(i);
                true
            });
            prop_assert!(found.windows(2).all(|w| w[0] < w[1]), "{name}");
            for i in 0..b.len() {
                let inside_word = i > 0 && rules::is_word(b[i]) && rules::is_word(b[i - 1]);
                if anchored(b, i) && !inside_word {
                    prop_assert!(found.contains(&i), "{name}: {} at {} of {:?}", char::from(b[i]), i, s);
                }
            }
            if name != "scalar" {
                if let Some(other) = &vector {
                    prop_assert_eq!(other, &found, "{} on {:?}", name, s);
                }
                vector = Some(found);
            }
        }
        if cfg!(target_arch = "x86_64") {
            prop_assert_eq!(vector, Some(places(b)), "each takes a vector path");
        }
    }
}

/// Every length up to a few rounds of each vector path, an anchor at every place: each path
/// reports it (the rounds' and lanes' seams included) and the vector paths agree.
#[test]
fn candidates_at_every_place_of_every_length() {
    for len in 1..=100 {
        for at in 0..len {
            for anchor in ["=", "ey", "--", ":/"] {
                let mut s = "q ".repeat(len).into_bytes();
                s.truncate(len);
                let end = (at + anchor.len()).min(len);
                s[at..end].copy_from_slice(&anchor.as_bytes()[..end - at]);
                let mut vector: Option<Vec<usize>> = None;
                for (name, path) in candidates::paths() {
                    let mut found = Vec::new();
                    path(&s, &mut |i| {
                        found.push(i);
                        true
                    });
                    let inside_word = at > 0 && rules::is_word(s[at]) && rules::is_word(s[at - 1]);
                    let want = anchored(&s, at) && !inside_word;
                    assert!(
                        !want || found.contains(&at),
                        "{name}: {anchor} at {at} of {len}"
                    );
                    if name != "scalar" {
                        if let Some(other) = &vector {
                            assert_eq!(other, &found, "{name}: {anchor} at {at} of {len}");
                        }
                        vector = Some(found);
                    }
                }
            }
        }
    }
}

#[test]
fn the_generated_strings_hold_secrets_often() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = text();
    let (mut with, mut kinds) = (0, std::collections::BTreeSet::new());
    for _ in 0..2000 {
        let s = strategy.new_tree(&mut runner).unwrap().current();
        let found = scan_text(&s);
        with += usize::from(!found.is_empty());
        kinds.extend(found.iter().map(|f| f.detector.id));
    }
    assert!(with > 200, "{with} of 2000 hold a secret");
    assert!(kinds.len() >= 10, "{kinds:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Strings of the patterns the validator does not scan hold no secret.
    #[test]
    fn secret_free_patterns_hold_none(
        agent in "agent-[a-z0-9]{1,60}",
        uuid in "(msg-)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        sha in "[0-9a-f]{7,40}",
    ) {
        for (pattern, s) in [("agent_id", &agent), ("message_id", &uuid), ("commit_sha", &sha)] {
            prop_assert!(!pattern_may_hold_secret(pattern));
            prop_assert!(!holds_secret(None, s), "{}", s);
        }
    }
}
