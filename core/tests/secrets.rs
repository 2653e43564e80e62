//! The secrets corpus (`tests/fixtures/secrets/`): every true secret is found once, by its
//! detector, and never repeated by the finding; no near miss is found.

use switchboard_core::protocol::secrets::{
    holds_secret, redact, redact_member, scan_member, scan_text, Finding, DETECTORS,
};

/// A fixed pseudo-random sequence (so the corpus is the same on every run).
struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, set: &[u8]) -> char {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        char::from(set[(self.0 >> 33) as usize % set.len()])
    }
}

const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789";
const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const WORD: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const HEX: &[u8] = b"0123456789abcdef";

fn base64(bytes: &[u8], url: bool) -> String {
    let set: &[u8] = if url {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    } else {
        B64
    };
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..=chunk.len() {
            out.push(char::from(set[(n >> (18 - 6 * k) & 63) as usize]));
        }
    }
    if !url {
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
    }
    out
}

/// Expands a corpus template (see the corpus README); other braces stay as written.
fn expand(template: &str, rng: &mut Lcg) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find('}').expect("closed");
        let spec = &rest[open + 1..close];
        rest = &rest[close + 1..];
        let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
        let run = |set: &[u8], rng: &mut Lcg| -> String {
            (0..arg.parse::<usize>().unwrap())
                .map(|_| rng.pick(set))
                .collect()
        };
        let piece = match kind {
            "upper" => run(UPPER, rng),
            "lower" => run(LOWER, rng),
            "alnum" => run(ALNUM, rng),
            "word" => run(WORD, rng),
            "b64" => run(B64, rng),
            "hex" => run(HEX, rng),
            "jwt" => {
                let header = base64(br#"{"alg":"HS256","typ":"JWT"}"#, true);
                let sub: String = (0..12).map(|_| rng.pick(LOWER)).collect();
                let payload = base64(
                    format!(r#"{{"sub":"{sub}","iat":1767225600}}"#).as_bytes(),
                    true,
                );
                let sig: String = (0..43).map(|_| rng.pick(WORD)).collect();
                format!("{header}.{payload}.{sig}")
            }
            "pem" => {
                let lines: Vec<String> = (0..12)
                    .map(|_| (0..64).map(|_| rng.pick(B64)).collect())
                    .collect();
                format!(
                    "-----BEGIN {arg}-----\n{}\n-----END {arg}-----",
                    lines.join("\n")
                )
            }
            "basic" => base64(arg.as_bytes(), false),
            // Anything else is literal text (`${DB_PASSWORD}`, `{{ var }}`).
            _ => format!("{{{spec}}}"),
        };
        out.push_str(&piece);
    }
    out.push_str(rest);
    out.replace("\\n", "\n")
}

fn corpus(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/secrets/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Scans a corpus text: `member NAME=VALUE` as a member, anything else as a string.
fn scan(text: &str) -> (Vec<Finding>, String) {
    match text.strip_prefix("member ") {
        Some(member) => {
            let (name, value) = member.split_once('=').expect("member NAME=VALUE");
            let found = scan_member(name, value);
            assert_eq!(holds_secret(Some(name), value), !found.is_empty(), "{text}");
            (found, redact_member(name, value).into_owned())
        }
        None => {
            let found = scan_text(text);
            assert_eq!(holds_secret(None, text), !found.is_empty(), "{text}");
            (found, redact(text).into_owned())
        }
    }
}

#[test]
fn every_true_secret_is_found_once_by_its_detector_and_masked() {
    let mut rng = Lcg(7);
    let mut seen = std::collections::BTreeSet::new();
    let mut lines = 0;
    for line in corpus("secrets.tsv").lines().filter(|l| !l.is_empty()) {
        let (id, template) = line.split_once('\t').expect("id<TAB>text");
        let text = expand(template, &mut rng);
        let (found, redacted) = scan(&text);
        assert_eq!(found.len(), 1, "{id}: {text:?} → {found:#?}");
        let f = &found[0];
        assert_eq!(f.detector.id, id, "{text:?}");
        let value = text
            .strip_prefix("member ")
            .map_or(text.as_str(), |m| m.split_once('=').map_or(m, |(_, v)| v));
        let secret = &value[f.span.clone()];
        assert!(secret.chars().count() >= 4, "{text:?}");
        for shown in [&f.masked, &f.quoted, &f.message(), &redacted] {
            assert!(
                !shown.contains(secret),
                "{id}: {shown:?} repeats {secret:?}"
            );
        }
        assert!(
            f.masked
                .ends_with(&format!("…({} chars)", secret.chars().count())),
            "{}",
            f.masked
        );
        seen.insert(id.to_owned());
        lines += 1;
    }
    assert!(lines >= 60, "{lines}");
    for d in DETECTORS {
        assert!(seen.contains(d.id), "no true secret for {}", d.id);
    }
}

#[test]
fn no_near_miss_is_found() {
    let mut rng = Lcg(11);
    let mut lines = 0;
    for template in corpus("near_misses.txt").lines().filter(|l| !l.is_empty()) {
        let text = expand(template, &mut rng);
        let (found, redacted) = scan(&text);
        assert!(found.is_empty(), "{text:?} → {found:#?}");
        let plain = text
            .strip_prefix("member ")
            .map_or(text.as_str(), |m| m.split_once('=').map_or(m, |(_, v)| v));
        assert_eq!(redacted, plain);
        lines += 1;
    }
    assert!(lines >= 60, "{lines}");
}

#[test]
fn the_mask_keeps_the_public_prefix_only() {
    let key = format!("AKIA{}", "Q2X7".repeat(4));
    let found = scan_text(&format!("key {key} leaked"));
    assert_eq!(found[0].masked, "AKIA…(20 chars)");
    let url = format!("postgres://admin:{}@db.internal/app", "pw9".repeat(4));
    let found = scan_text(&url);
    assert_eq!(found[0].masked, "…(12 chars)");
    assert_eq!(found[0].quoted, "postgres://admin:…(12 chars)@db.internal");
}

/// The documentation's table row of a detector (what it finds, the rule, what it follows,
/// what it does not report).
fn doc_row(d: &switchboard_core::protocol::secrets::Detector) -> String {
    use switchboard_core::protocol::secrets::Rule;
    let rule = match d.rule {
        Rule::Prefixed(forms) => forms
            .iter()
            .map(|f| {
                let n = if f.min == f.max {
                    format!("{{{}}}", f.min)
                } else {
                    format!("{{{},{}}}", f.min, f.max)
                };
                let digit = if f.digit { " (a digit)" } else { "" };
                format!("`{}`{}{n}{digit}", f.prefix, f.body.regex())
            })
            .collect::<Vec<_>>()
            .join(", "),
        Rule::Jwt => "`eyJ…` `.` `eyJ…` `.` signature".into(),
        Rule::PrivateKey => "`-----BEGIN … PRIVATE KEY-----` + key material".into(),
        Rule::UrlCredentials => "`scheme://user:password@host`".into(),
        Rule::AuthorizationHeader => "`Bearer <token>`, `Basic <base64 user:password>`".into(),
        Rule::Assignment => "`NAME=value`, NAME a secret's name".into(),
        Rule::SecretName => "a member named like a secret".into(),
    };
    format!(
        "| `{}` | {} | {rule} | {} | {} |",
        d.id,
        d.title,
        d.anchored_on,
        d.false_positives
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    )
}

#[test]
fn the_documentation_prints_the_table() {
    let docs = std::fs::read_to_string(format!(
        "{}/../docs/protocol.md",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let rows: Vec<String> = DETECTORS.iter().map(doc_row).collect();
    let missing: Vec<&String> = rows.iter().filter(|r| !docs.contains(r.as_str())).collect();
    assert!(
        missing.is_empty(),
        "docs/protocol.md (\"Secrets in messages\") should hold these rows:\n{}",
        rows.join("\n")
    );
}
