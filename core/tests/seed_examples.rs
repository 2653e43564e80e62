//! Every ```json example block of the five seeds, straight from the documents
//! (`tests/fixtures/seeds/`): valid in strict mode, except the blocks that are templates,
//! placeholders or abbreviations, which are valid in lenient mode with warnings.

use std::path::Path;
use switchboard_core::protocol::{self, Options, Severity};

/// The blocks that are not strictly valid, by (seed file prefix, block index), and why.
const LENIENT_ONLY: &[(&str, usize, &str)] = &[
    ("000", 0, "template: subject \"<message_type>\""),
    ("000", 8, "placeholder: commit_sha a1b2…g7h8i9j0 is not hex"),
    ("002", 0, "placeholder: \"ISO8601\" timestamps"),
    ("002", 1, "placeholder: \"ISO8601\" timestamps"),
    ("002", 2, "placeholder: \"ISO8601\" timestamps"),
    ("002", 3, "placeholder: \"ISO8601\" timestamps"),
    ("002", 4, "placeholder: \"ISO8601\" timestamp"),
    ("002", 5, "placeholder: \"ISO8601\" timestamp"),
    ("002", 6, "placeholder: \"ISO8601\" timestamp"),
    ("002", 7, "placeholder: \"ISO8601\" timestamp"),
    ("002", 8, "placeholder: \"ISO8601\" timestamp"),
    (
        "004",
        0,
        "template: type \"message_type\", message_id \"msg-uuid-v4\"",
    ),
    (
        "004",
        7,
        "abbreviated: \"Examples by Use Case\" omit the common fields",
    ),
    (
        "004",
        8,
        "abbreviated: \"Examples by Use Case\" omit the common fields",
    ),
    (
        "004",
        9,
        "abbreviated: \"Examples by Use Case\" omit the common fields",
    ),
    (
        "004",
        10,
        "abbreviated: \"Examples by Use Case\" omit the common fields",
    ),
];

/// The ```json blocks of a document, in order.
fn json_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match current.as_mut() {
            None if line.trim_start() == "```json" => current = Some(String::new()),
            None => {}
            Some(_) if line.trim_start() == "```" => blocks.extend(current.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    blocks
}

#[test]
fn every_seed_json_block_validates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seeds");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 5, "the five seeds");
    let mut seen = 0;
    let mut lenient_seen = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        for (index, block) in json_blocks(&text).iter().enumerate() {
            seen += 1;
            let at = format!("{name} block {index}");
            let value: serde_json::Value =
                serde_json::from_str(block).unwrap_or_else(|e| panic!("{at}: {e}"));
            let strict = protocol::validate(&value, &Options::strict());
            let lenient_only = LENIENT_ONLY
                .iter()
                .find(|(seed, i, _)| name.starts_with(seed) && *i == index);
            match lenient_only {
                None => assert!(
                    strict.valid,
                    "{at} must be valid in strict mode: {strict:?}"
                ),
                Some((_, _, why)) => {
                    lenient_seen += 1;
                    assert!(
                        !strict.valid,
                        "{at} ({why}) is strictly valid: drop it from the list"
                    );
                    let lenient = protocol::validate(&value, &Options::lenient());
                    assert!(
                        lenient.valid,
                        "{at} ({why}) must be valid in lenient mode: {lenient:?}"
                    );
                    assert!(
                        lenient
                            .issues
                            .iter()
                            .any(|i| i.severity == Severity::Warning),
                        "{at} ({why}) must carry a warning"
                    );
                }
            }
        }
    }
    assert_eq!(seen, 32, "JSON blocks found in the seeds");
    assert_eq!(
        lenient_seen,
        LENIENT_ONLY.len(),
        "every listed block exists"
    );
}
