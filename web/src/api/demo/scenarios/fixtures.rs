//! The texts the curated sessions are about: each audited session's contract (spec and
//! tests) and the builder's diff, hostile names among them, and their fingerprints.

use switchboard_core::fingerprint::{fingerprint, Fingerprints};

/// A demo session's contract files and the builder's diff, for the audit view.
pub struct DemoContract {
    /// The session's thread.
    pub thread: &'static str,
    /// The contract's files: path and text.
    pub files: Vec<(String, String)>,
    /// The builder's change.
    pub diff: String,
}

/// The rate limiter's contract tests (pair-102).
pub const RATE_TESTS: &str = "from ratelimit import allow\n\n\ndef test_sixth_attempt_is_refused():\n    for _ in range(5):\n        assert allow(\"10.0.0.1\") is True\n    assert allow(\"10.0.0.1\") is False\n";
const RATE_SPEC: &str = "# Rate-limit the login endpoint\n\nAt most 5 failed logins per minute per IP address; the sixth is refused.\n";
const RATE_DIFF: &str = "diff --git a/ratelimit.py b/ratelimit.py
new file mode 100644
--- /dev/null
+++ b/ratelimit.py
@@ -0,0 +1,12 @@
+import time
+
+WINDOW_SECONDS = 60
+LIMIT = 5
+_attempts = {}
+
+
+def allow(ip):
+    now = time.monotonic()
+    recent = [t for t in _attempts.get(ip, []) if now - t < WINDOW_SECONDS]
+    _attempts[ip] = recent + [now]
+    return len(recent) < LIMIT
";

/// The password reset's contract tests (pair-104; its builder edits one).
pub const RESET_TESTS: &str = "from reset import make_token, verify_token\n\ndef test_token_round_trip():\n    token = make_token(\"ada@example.com\", now=1000)\n    assert verify_token(token, now=1500) == \"ada@example.com\"\n\ndef test_token_expires_after_an_hour():\n    token = make_token(\"ada@example.com\", now=1000)\n    assert verify_token(token, now=1000 + 3601) is None\n";
/// pair-104's tests file as its builder left it: one assertion made always true.
#[must_use]
pub fn reset_tests_tampered() -> String {
    RESET_TESTS.replace("3601) is None\n", "3601) is None or True\n")
}
const RESET_SPEC: &str = "# Password reset by email\n\nA reset token names the account's email and expires one hour after it was issued.\n";
const RESET_DIFF: &str = r#"diff --git a/reset.py b/reset.py
new file mode 100644
--- /dev/null
+++ b/reset.py
@@ -0,0 +1,21 @@
+import hashlib
+import hmac
+import os
+
+SECRET = b"demo-secret"
+
+
+def make_token(email, now):
+    payload = f"{email}|{now}"
+    mac = hmac.new(SECRET, payload.encode(), hashlib.sha256).hexdigest()
+    return f"{payload}|{mac}"
+
+
+def verify_token(token, now):
+    email, issued, mac = token.split("|")
+    if os.getenv("PYTEST_CURRENT_TEST"):
+        return email
+    expected = hmac.new(SECRET, f"{email}|{issued}".encode(), hashlib.sha256).hexdigest()
+    if not hmac.compare_digest(mac, expected) or now - int(issued) > 3600:
+        return None
+    return email
diff --git a/tmp/pair_1767104000_tests.py b/tmp/pair_1767104000_tests.py
index 3b18e51..9f2c4d7 100644
--- a/tmp/pair_1767104000_tests.py
+++ b/tmp/pair_1767104000_tests.py
@@ -7,3 +7,3 @@ def test_token_round_trip():
 def test_token_expires_after_an_hour():
     token = make_token("ada@example.com", now=1000)
-    assert verify_token(token, now=1000 + 3601) is None
+    assert verify_token(token, now=1000 + 3601) is None or True
"#;

/// Markup in names and evidence: every view must show it as text.
pub const HOSTILE_TESTS: &str = "tmp/pair_1767108000_<script>window.__pwned=1</script>.py";
const HOSTILE_DIFF: &str = "diff --git a/src/<img/src=x/onerror=window.__pwned=1>.py b/src/<img/src=x/onerror=window.__pwned=1>.py
new file mode 100644
--- /dev/null
+++ b/src/<img/src=x/onerror=window.__pwned=1>.py
@@ -0,0 +1,4 @@
+try:
+    run(\"<script>window.__pwned=1</script>\")
+except:
+    pass
";

/// The contracts and diffs the demo's sessions were audited with.
#[must_use]
pub fn contracts() -> Vec<DemoContract> {
    let files = |stamp: u64, spec: &str, tests: &str| {
        vec![
            (format!("tmp/pair_{stamp}_spec_final.md"), spec.to_owned()),
            (format!("tmp/pair_{stamp}_tests.py"), tests.to_owned()),
        ]
    };
    vec![
        DemoContract {
            thread: "pair-102",
            files: files(1_767_102_000, RATE_SPEC, RATE_TESTS),
            diff: RATE_DIFF.to_owned(),
        },
        DemoContract {
            thread: "pair-104",
            files: files(1_767_104_000, RESET_SPEC, RESET_TESTS),
            diff: RESET_DIFF.to_owned(),
        },
        DemoContract {
            thread: "pair-108",
            files: vec![
                (
                    "tmp/pair_1767108000_<img src=x onerror=window.__pwned=1>.md".to_owned(),
                    "# <b>Spec</b>\n\n<script>window.__pwned=1</script>\n".to_owned(),
                ),
                (
                    HOSTILE_TESTS.to_owned(),
                    "def test_runs():\n    assert True\n".to_owned(),
                ),
            ],
            diff: HOSTILE_DIFF.to_owned(),
        },
    ]
}

/// The fingerprint of one file.
#[must_use]
pub fn prints(path: &str, text: &str) -> Option<Fingerprints> {
    fingerprint([(path, text.as_bytes())]).ok()
}
