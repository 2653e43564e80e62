//! Every subcommand's output and paths: a closed stdout ends quietly (exit 141), a full one
//! is a one-line error (exit 74), and file names need not be UTF-8.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Every subcommand with arguments that produce output.
fn commands() -> Vec<(&'static str, Vec<PathBuf>)> {
    let smoke = |name: &str| fixture(&format!("pane-smoke/{name}"));
    vec![
        (
            "validate",
            vec![
                "validate".into(),
                fixture("protocol/valid/pair/01_PAIR_INIT.json"),
            ],
        ),
        (
            "validate --jsonl",
            vec![
                "validate".into(),
                "--jsonl".into(),
                fixture("protocol/valid/pair/01_PAIR_INIT.json"),
            ],
        ),
        ("schema", vec!["schema".into()]),
        (
            "pane",
            vec![
                "pane".into(),
                "--inbox".into(),
                smoke("inbox.json"),
                "--outbox".into(),
                smoke("outbox_after_reply.json"),
                "--contacts".into(),
                smoke("contacts.json"),
            ],
        ),
        ("pane-smoke", vec!["pane-smoke".into()]),
        (
            "audit",
            vec![
                "audit".into(),
                "--contract".into(),
                fixture("audit/contracts/typescript"),
                "--diff".into(),
                fixture("audit/cases/ts-hardcoded.diff"),
            ],
        ),
        (
            "fingerprint",
            vec!["fingerprint".into(), fixture("audit/contracts/typescript")],
        ),
        (
            "session",
            vec![
                "session".into(),
                fixture("sessions/pattern1_happy_path.jsonl"),
            ],
        ),
        (
            "tasks",
            vec![
                "tasks".into(),
                fixture("sessions/pattern1_happy_path.jsonl"),
            ],
        ),
    ]
}

fn run_with_stdout(args: &[PathBuf], stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("binary runs")
}

#[test]
fn a_closed_stdout_ends_quietly_with_141() {
    for (name, args) in commands() {
        // The reading end is closed before the command starts: its first write fails with
        // EPIPE (Rust ignores SIGPIPE, so the process is not killed by the signal).
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = run_with_stdout(&args, Stdio::from(writer));
        assert_eq!(
            out.status.code(),
            Some(141),
            "{name}: stderr {:?}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_full_stdout_is_a_one_line_error_with_74() {
    for (name, args) in commands() {
        let full = File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = run_with_stdout(&args, Stdio::from(full));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.starts_with("switchboard ") && stderr.contains("cannot write"),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains("No space left on device"),
            "{name}: {stderr}"
        );
    }
}

#[cfg(unix)]
fn non_utf8_copy(dir: &Path, source: &Path, stem: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let mut name = stem.to_vec();
    name.extend_from_slice(b"-\xff\xfe.json");
    let path = dir.join(std::ffi::OsStr::from_bytes(&name));
    std::fs::copy(source, &path).expect("copy");
    assert!(path.to_str().is_none(), "the name is not UTF-8");
    path
}

#[cfg(unix)]
#[test]
fn file_names_need_not_be_utf8() {
    let dir = std::env::temp_dir().join(format!("switchboard-cli-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let message = non_utf8_copy(
        &dir,
        &fixture("protocol/valid/pair/01_PAIR_INIT.json"),
        b"message",
    );
    let out = run_with_stdout(&["validate".into(), message.clone()], Stdio::piped());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["message_type"], "PAIR_INIT");

    let smoke = |name: &str| fixture(&format!("pane-smoke/{name}"));
    let inbox = non_utf8_copy(&dir, &smoke("inbox.json"), b"inbox");
    let outbox = non_utf8_copy(&dir, &smoke("outbox_after_reply.json"), b"outbox");
    let contacts = non_utf8_copy(&dir, &smoke("contacts.json"), b"contacts");
    let args: Vec<PathBuf> = vec![
        "pane".into(),
        "--inbox".into(),
        inbox,
        "--outbox".into(),
        outbox,
        "--contacts".into(),
        contacts,
    ];
    let out = run_with_stdout(&args, Stdio::piped());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A missing non-UTF-8 file is named (lossily) in the one-line reason.
    std::fs::remove_file(&message).unwrap();
    let out = run_with_stdout(&["validate".into(), message], Stdio::piped());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("message-"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
