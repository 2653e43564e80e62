//! Contract fingerprints: path normalisation, the JSON form, verification, and properties.

use proptest::prelude::*;
use switchboard_core::fingerprint::{
    fingerprint, verify, ContractPath, FingerprintError, Fingerprints, Sha256Digest, Tamper,
};

#[test]
fn digest_is_sha256_of_the_bytes() {
    // FIPS 180-2 test vector.
    assert_eq!(
        Sha256Digest::of(b"abc").to_string(),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let fp = fingerprint([("tests/test_auth.py", &b"abc"[..])]).unwrap();
    assert_eq!(
        serde_json::to_string(&fp).unwrap(),
        r#"{"tests/test_auth.py":"sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}"#
    );
}

#[test]
fn paths_normalise_and_bad_paths_are_errors() {
    for (raw, norm) in [
        ("./a", "a"),
        ("a", "a"),
        ("./tests//x.py", "tests/x.py"),
        ("a/./b/", "a/b"),
    ] {
        assert_eq!(ContractPath::parse(raw).unwrap().as_str(), norm);
    }
    assert_eq!(
        ContractPath::parse("/etc/passwd"),
        Err(FingerprintError::AbsolutePath("/etc/passwd".into()))
    );
    assert_eq!(
        ContractPath::parse("C:/x"),
        Err(FingerprintError::AbsolutePath("C:/x".into()))
    );
    assert_eq!(
        ContractPath::parse("a/../../b"),
        Err(FingerprintError::ParentPath("a/../../b".into()))
    );
    assert_eq!(
        ContractPath::parse("./"),
        Err(FingerprintError::EmptyPath("./".into()))
    );
    let dup = fingerprint([("./a", &b"1"[..]), ("a", &b"2"[..])]);
    assert_eq!(dup, Err(FingerprintError::DuplicatePath("a".into())));
    let fp = fingerprint([("./tests/t.py", &b"x"[..])]).unwrap();
    assert_eq!(fp.get("tests/t.py"), fp.get("./tests/t.py"));
    assert!(fp.get("tests/t.py").is_some());
}

#[test]
fn bad_fingerprint_files_give_structured_errors() {
    assert!(matches!(
        Fingerprints::from_json("{nope"),
        Err(FingerprintError::NotJson(_))
    ));
    assert_eq!(
        Fingerprints::from_json("[]"),
        Err(FingerprintError::NotAnObject)
    );
    let short = Fingerprints::from_json(r#"{"a": "sha256:abc"}"#);
    assert!(matches!(short, Err(FingerprintError::BadDigest { ref path, .. }) if path == "a"));
    let no_prefix = Fingerprints::from_json(&format!(r#"{{"a": "{}"}}"#, "0".repeat(64)));
    assert!(matches!(no_prefix, Err(FingerprintError::BadDigest { .. })));
    let abs = Fingerprints::from_json(&format!(r#"{{"/a": "sha256:{}"}}"#, "0".repeat(64)));
    assert!(matches!(abs, Err(FingerprintError::AbsolutePath(_))));
    let upper =
        Fingerprints::from_json(&format!(r#"{{"a": "sha256:{}"}}"#, "AB".repeat(32))).unwrap();
    assert_eq!(upper.get("a").unwrap().to_string(), "ab".repeat(32));
    assert!(FingerprintError::NotAnObject.to_string().contains("sha256"));
}

#[test]
fn verify_names_each_tampered_file() {
    let baseline = fingerprint([
        ("spec.md", &b"spec"[..]),
        ("tests/test_a.py", &b"assert a() == 1\n"[..]),
        ("tests/test_b.py", &b"assert b() == 2\n"[..]),
    ])
    .unwrap();
    assert!(verify(&baseline, &baseline).is_intact());
    let current = fingerprint([
        ("spec.md", &b"spec"[..]),
        ("tests/test_a.py", &b"assert a() == 1 or True\n"[..]),
        ("tests/conftest.py", &b"import pytest\n"[..]),
    ])
    .unwrap();
    let v = verify(&baseline, &current);
    assert!(!v.is_intact());
    let summary: Vec<(&str, &str)> = v
        .tampered
        .iter()
        .map(|t| {
            let kind = match t {
                Tamper::Modified { .. } => "modified",
                Tamper::Missing { .. } => "missing",
                Tamper::Added { .. } => "added",
            };
            (t.path().as_str(), kind)
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("tests/conftest.py", "added"),
            ("tests/test_a.py", "modified"),
            ("tests/test_b.py", "missing")
        ]
    );
    assert!(v.tampered.iter().all(|t| t.code() == "CONTRACT_TAMPERED"));
    assert!(v.tampered[1]
        .to_string()
        .starts_with("CONTRACT_TAMPERED: tests/test_a.py modified"));
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["intact"], false);
    assert_eq!(json["tampered"][1]["code"], "CONTRACT_TAMPERED");
    assert_eq!(json["tampered"][1]["change"], "modified");
    assert!(json["tampered"][2]["found"].is_null());
}

#[test]
fn rebaselining_is_replacing_the_baseline() {
    let v1 = fingerprint([("tests/t.py", &b"v1"[..])]).unwrap();
    let v2 = fingerprint([("tests/t.py", &b"v2"[..])]).unwrap();
    assert!(!verify(&v1, &v2).is_intact());
    let baseline = v2.clone();
    assert!(verify(&baseline, &v2).is_intact());
}

fn arb_files() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    prop::collection::btree_map(
        "(\\./)?[a-z]{1,4}(/[a-z]{1,4}){0,2}\\.(py|ts|rs|md)",
        any::<Vec<u8>>(),
        0..6,
    )
    .prop_map(|m| {
        // Paths that normalise to the same one would be duplicates: keep the first.
        let mut seen = std::collections::BTreeSet::new();
        m.into_iter()
            .filter(|(p, _)| seen.insert(p.trim_start_matches("./").to_owned()))
            .collect()
    })
}

proptest! {
    #[test]
    fn path_parse_never_panics_and_is_idempotent(raw in ".{0,40}") {
        if let Ok(p) = ContractPath::parse(&raw) {
            prop_assert_eq!(ContractPath::parse(p.as_str()), Ok(p.clone()));
            prop_assert!(!p.as_str().split('/').any(|s| s.is_empty() || s == "." || s == ".."));
        }
    }

    #[test]
    fn json_round_trips_and_verify_finds_exactly_the_change(files in arb_files(), pick in any::<prop::sample::Index>()) {
        let fp = fingerprint(files.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
        let text = serde_json::to_string(&fp).unwrap();
        prop_assert_eq!(&Fingerprints::from_json(&text).unwrap(), &fp);
        prop_assert!(verify(&fp, &fp).is_intact());
        if !files.is_empty() {
            let i = pick.index(files.len());
            let mut changed = files.clone();
            changed[i].1.push(0x5a);
            let now = fingerprint(changed.iter().map(|(p, b)| (p.as_str(), b.as_slice()))).unwrap();
            let v = verify(&fp, &now);
            prop_assert_eq!(v.tampered.len(), 1);
            prop_assert_eq!(v.tampered[0].path().as_str(), files[i].0.trim_start_matches("./"));
        }
    }

    #[test]
    fn from_json_never_panics(text in ".{0,200}") {
        let _ = Fingerprints::from_json(&text);
    }
}
