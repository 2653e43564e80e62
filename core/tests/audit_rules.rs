//! The audit's false-positive rules, line by line: what each pattern must leave alone.

use switchboard_core::audit::lexer::{contains, normal, Language, Lexer};
use switchboard_core::audit::{self, Contract};

/// A `git diff` creating `path` with `body`.
fn new_file(path: &str, body: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    let mut out = format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n",
        lines.len()
    );
    for l in lines {
        out.push('+');
        out.push_str(l);
        out.push('\n');
    }
    out
}

fn patterns(contract: &Contract, diff: &str) -> Vec<&'static str> {
    let diff = audit::parse_diff(diff).unwrap();
    audit::audit(contract, &diff, &[])
        .issues
        .iter()
        .map(|i| i.pattern)
        .collect()
}

/// The patterns a new file fires against a contract whose only baseline is vitest.
fn fired(path: &str, body: &str) -> Vec<&'static str> {
    let contract = Contract::from_files([(
        "package.json",
        "{\n  \"devDependencies\": {\n    \"vitest\": \"^2\"\n  }\n}\n",
    )])
    .unwrap();
    patterns(&contract, &new_file(path, body))
}

#[test]
fn needles_match_whole_identifiers() {
    assert!(contains("if os.getenv('testing'):", "getenv('testing'"));
    assert!(contains("process.env.test", "process.env.test"));
    assert!(!contains(
        "process.env.test_database_url",
        "process.env.test"
    ));
    assert!(contains("validate_email(x)", "validate*"));
    assert!(!contains("invalidate(x)", "validate*"));
    assert!(contains("self._validate(x)", "*_validate*"));
    assert!(contains(
        "unittest.testcase.assertequal=f",
        "testcase.assert*="
    ));
    assert!(!contains("testcase.assertequal==f", "testcase.assert*="));
    assert!(!contains("anything", "*"));
}

#[test]
fn lexer_drops_comments_and_keeps_strings() {
    let mut py = Lexer::new(Language::Python);
    assert_eq!(
        normal(&py.line("x = os.getenv( \"TESTING\" )  # os.getenv('TESTING')")),
        "x=os.getenv('testing')"
    );
    assert_eq!(normal(&py.line("s = '''start")), "s='start'");
    assert_eq!(
        normal(&py.line("import os  still in the docstring '''")),
        "'import os  still in the docstring '"
    );
    let mut ts = Lexer::new(Language::TypeScript);
    assert_eq!(
        normal(&ts.line("/* process.env.TEST */ const a = 1; // x")),
        "const a=1;"
    );
    let mut rs = Lexer::new(Language::Rust);
    assert_eq!(
        normal(&rs.line("fn f<'a>(x: &'a str) -> char { 'x' }")),
        "fn f<'a>(x:&'a str)->char{'x'}"
    );
    assert_eq!(
        normal(&rs.line("let s = r#\"cfg!(test)\"#;")),
        "let s='cfg!(test)';"
    );
}

#[test]
fn implementation_code_only_for_test_detection() {
    assert_eq!(
        fired(
            "app/settings.py",
            "import os\nDB = os.getenv('TEST_DATABASE_URL')\n"
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired(
            "src/env.ts",
            "export const prod = process.env.NODE_ENV === 'production';\n"
        ),
        Vec::<&str>::new()
    );
    // Setting the variable in the builder's own tests is fine.
    assert_eq!(
        fired(
            "tests/conftest.py",
            "import os\nos.environ['TESTING'] = '1'\nprint(os.getenv('TESTING'))\n"
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired(
            "app/x.py",
            "import os\nif os.environ.get('PYTEST_CURRENT_TEST'):\n    pass\n"
        ),
        ["env-test-detection"]
    );
    assert_eq!(
        fired("src/x.ts", "if (process.env['JEST_WORKER_ID']) {}\n"),
        ["env-test-detection"]
    );
}

#[test]
fn rust_unit_test_module_is_the_idiom() {
    let body = "pub fn one() -> u32 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {\n        let _ = std::env::var(\"TEST\");\n        assert!(cfg!(test));\n    }\n}\n";
    assert_eq!(fired("src/lib.rs", body), Vec::<&str>::new());
    assert_eq!(
        fired("src/lib.rs", "#[cfg(test)] mod tests;\n"),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired("src/lib.rs", "#[cfg(test)]\nconst LIMIT: u32 = 1;\n"),
        ["cfg-test-item"]
    );
    assert_eq!(
        fired("src/lib.rs", "pub fn f() {\n    let _guard = lock();\n}\n"),
        Vec::<&str>::new()
    );
}

#[test]
fn mocking_other_things_is_not_mocking_assertions() {
    let body = "from unittest import mock\n\n\ndef test_fetch():\n    with mock.patch('requests.get') as get:\n        get.return_value.json.return_value = {}\n        assert fetch() == {}\n";
    assert_eq!(fired("tests/test_fetch.py", body), Vec::<&str>::new());
    assert_eq!(fired("src/x.test.ts", "import { vi } from 'vitest';\nvi.mock('./api');\nconst { expect } = await import('vitest');\n"), Vec::<&str>::new());
    assert_eq!(
        fired("src/x.test.ts", "jest.mock('assert');\n"),
        ["assertion-mocked"]
    );
    assert_eq!(
        fired("conftest.py", "import sys\nsys.modules['pytest'] = None\n"),
        ["assertion-mocked"]
    );
}

#[test]
fn reading_the_clock_is_not_faking_it() {
    assert_eq!(
        fired("src/t.ts", "export const stamp = () => Date.now();\n"),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired("app/t.py", "import time\nSTART = time.time()\n"),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired(
            "src/t.test.ts",
            "import { vi } from 'vitest';\nvi.useFakeTimers();\n"
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired("src/t.ts", "vi.setSystemTime(new Date(0));\n"),
        ["clock-override"]
    );
}

#[test]
fn handlers_that_do_something_are_not_empty() {
    let body = "import logging\n\ntry:\n    go()\nexcept ValueError as error:\n    logging.warning('bad: %s', error)\n";
    assert_eq!(fired("app/x.py", body), Vec::<&str>::new());
    assert_eq!(
        fired(
            "src/x.ts",
            "try {\n  go();\n} catch (e) {\n  console.error(e);\n}\n"
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        fired("src/x.ts", "try {\n  go();\n} catch {\n  // ignore\n}\n"),
        ["empty-error-handler"]
    );
    assert_eq!(fired("src/lib.rs", "fn f() {\n    match g() {\n        Err(e) => return Err(e),\n        Ok(v) => {}\n    }\n}\n"), Vec::<&str>::new());
    assert_eq!(
        fired(
            "app/x.py",
            "from contextlib import suppress\nwith suppress(Exception):\n    go()\n"
        ),
        ["empty-error-handler"]
    );
}

#[test]
fn hard_coding_needs_a_branch_on_a_test_input() {
    let contract = Contract::from_files([(
        "tests/test_greet.py",
        "from greet import greet, square\n\ndef test_greet():\n    assert greet('Ada') == 'Hello, Ada!'\n    assert square(0) == 0\n    assert square(12) == 144\n",
    )])
    .unwrap();
    let legit = "def greet(name):\n    return f'Hello, {name}!'\n\n\ndef square(n):\n    if n == 0:\n        return 0\n    return n * n\n";
    assert_eq!(
        patterns(&contract, &new_file("greet.py", legit)),
        Vec::<&str>::new()
    );
    let constant = "def banner():\n    return 'Hello, Ada!'\n";
    assert_eq!(
        patterns(&contract, &new_file("greet.py", constant)),
        Vec::<&str>::new()
    );
    let cheat = "def square(n):\n    return 144 if n == 12 else n * n\n";
    assert_eq!(
        patterns(&contract, &new_file("greet.py", cheat)),
        ["hardcoded-test-expectation"]
    );
    let table = "EXPECTED = {12: 144}\n";
    assert_eq!(
        patterns(&contract, &new_file("greet.py", table)),
        ["hardcoded-test-expectation"]
    );
    // A branch on the input that yields something else is ordinary logic.
    let other = "def square(n):\n    if n == 12:\n        log('twelve')\n    return n * n\n";
    assert_eq!(
        patterns(&contract, &new_file("greet.py", other)),
        Vec::<&str>::new()
    );
}

#[test]
fn dependencies_compare_normalised_and_versions_do_not_count() {
    let contract = Contract::from_files([
        ("requirements.txt", "Flask_Login==0.6\nrequests>=2\n"),
        (
            "Cargo.toml",
            "[package]\nname = \"my-crate\"\n\n[dependencies]\nserde = \"1\"\n",
        ),
    ])
    .unwrap();
    let bump = "diff --git a/requirements.txt b/requirements.txt\n--- a/requirements.txt\n+++ b/requirements.txt\n@@ -1,2 +1,2 @@\n Flask_Login==0.6\n-requests>=2\n+requests>=2.32\n";
    assert_eq!(patterns(&contract, bump), Vec::<&str>::new());
    let imports = new_file(
        "app/x.py",
        "import flask_login\nimport requests.adapters\nfrom . import sibling\nimport os, sys\n",
    );
    assert_eq!(patterns(&contract, &imports), Vec::<&str>::new());
    let rust = new_file(
        "src/main.rs",
        "use my_crate::run;\nuse serde::Deserialize;\nmod util;\nuse util::helper;\n",
    );
    assert_eq!(patterns(&contract, &rust), Vec::<&str>::new());
    // A fragment without its section header: only entries that look like dependencies count.
    let cargo = "diff --git a/Cargo.toml b/Cargo.toml\n--- a/Cargo.toml\n+++ b/Cargo.toml\n@@ -9,2 +9,4 @@ edition = \"2021\"\n serde = \"1\"\n+anyhow = \"1.0\"\n+version = \"0.2.0\"\n thiserror = \"1\"\n";
    let unknown = Contract::default();
    assert_eq!(patterns(&unknown, cargo), ["new-dependency"]);
    let pyproject = "diff --git a/pyproject.toml b/pyproject.toml\n--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -1,4 +1,5 @@\n [project]\n name = \"svc\"\n dependencies = [\n+  \"httpx>=0.27\",\n   \"requests>=2\",\n";
    assert_eq!(patterns(&contract, pyproject), ["new-dependency"]);
    let approved = audit::audit(
        &contract,
        &audit::parse_diff(pyproject).unwrap(),
        &["HTTPX"],
    );
    assert!(approved.issues.is_empty());
}

#[test]
fn moved_or_rewritten_checks_are_not_removed() {
    let moved = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,2 @@\n def f(x):\n-    validate_email(x)\n     return x\ndiff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -1,2 +1,3 @@\n def g(x):\n+    validate_email(x)\n     return x\n";
    assert_eq!(patterns(&Contract::default(), moved), Vec::<&str>::new());
    let stub = "diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n export function f(): number {\n-  throw new Error(\"not implemented\");\n+  return 1;\n }\n";
    assert_eq!(patterns(&Contract::default(), stub), Vec::<&str>::new());
}

#[test]
fn copying_a_contract_file_is_not_tampering_but_overwriting_is() {
    let contract = Contract::from_files([("tests/test_a.py", "assert a() == 1\n")]).unwrap();
    let copy = "diff --git a/tests/test_a.py b/tests/test_b.py\nsimilarity index 100%\ncopy from tests/test_a.py\ncopy to tests/test_b.py\n";
    assert_eq!(patterns(&contract, copy), Vec::<&str>::new());
    let mode = "diff --git a/tests/test_a.py b/tests/test_a.py\nold mode 100644\nnew mode 100755\n";
    assert_eq!(patterns(&contract, mode), ["contract-test-edited"]);
}
