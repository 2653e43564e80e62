//! A change order beside the contract it would change: the files and tests its prose names
//! (`tests/test_session.py::test_cookie_is_signed`), the dependency it asks for (`'pyjwt>=2.8.0'`,
//! `No module named 'jwt'`, `the pyjwt dependency`) checked against the dependency manifests
//! in the linked folder, and where a named test is in its file.

use super::path::{resolve, FolderPath};
use crate::audit::deps::{declared, norm, Manifest};
use crate::audit::provided_modules;
use crate::fingerprint::ContractPath;
use serde::{Deserialize, Serialize};

/// A file (and maybe a test in it) that a change order's text names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mention {
    /// The file as written (`tests/test_session.py`).
    pub file: String,
    /// The test named after `::`, if any.
    pub test: Option<String>,
}

/// File extensions that make a word a file name.
const FILE_EXTENSIONS: &[&str] = &[
    "py", "pyi", "ts", "tsx", "js", "jsx", "mjs", "cjs", "rs", "go", "rb", "java", "kt", "md",
    "txt", "toml", "json", "yml", "yaml", "cfg", "ini", "lock",
];

/// The relative file paths a text names, in order, once each (absolute paths, as in a
/// traceback, are left out: they name nothing in the folder).
#[must_use]
pub fn mentions(text: &str) -> Vec<Mention> {
    let mut out: Vec<Mention> = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || "()[]{}<>,;'\"`".contains(c)) {
        let word = word.trim_end_matches(['.', ':', '!', '?']);
        let (file, test) = match word.split_once("::") {
            Some((file, test)) => (file, Some(test.split("::").next().unwrap_or(test))),
            None => (word, None),
        };
        // `file.py:12` names a line: the file is what counts.
        let file = match file.rsplit_once(':') {
            Some((f, line)) if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => f,
            _ => file,
        };
        let has_extension = file
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext));
        let relative = resolve(file).is_ok() && !file.starts_with(['/', '\\', '~', '$']);
        if !has_extension || !relative {
            continue;
        }
        let mention = Mention {
            file: file.to_owned(),
            test: test
                .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .map(str::to_owned),
        };
        if !out.contains(&mention) {
            out.push(mention);
        }
    }
    out
}

/// A dependency a change order asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Requested {
    /// As written (`pyjwt>=2.8.0`, `jwt`).
    pub written: String,
    /// The package or module name, normalised (`pyjwt`).
    pub name: String,
    /// The version constraint, if written (`>=2.8.0`).
    pub constraint: Option<String>,
}

/// Words that name what a dependency is, after or before its name (`the pyjwt dependency`,
/// `library 'requests'`).
const DEPENDENCY_WORDS: &[&str] = &[
    "dependency",
    "dependencies",
    "library",
    "package",
    "crate",
    "module",
    "distribution",
];

/// The dependencies a change order's texts ask for: quoted requirement specs
/// (`'pyjwt>=2.8.0'`, `No module named 'jwt'`), unquoted specs with a version operator
/// (`pyjwt>=2.8`), and a name beside a word like "dependency" or "library".
#[must_use]
pub fn requested<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<Requested> {
    let mut out: Vec<Requested> = Vec::new();
    let add = |out: &mut Vec<Requested>, candidate: &str| {
        if let Some(r) = requirement(candidate) {
            if !out.iter().any(|o| o.name == r.name) {
                out.push(r);
            }
        }
    };
    for text in texts {
        let before = out.len();
        for quoted in quoted(text) {
            add(&mut out, quoted);
        }
        // A quoted name is what the text asks for; the words around "dependency" only count
        // when nothing is quoted.
        let by_quotes = out.len() > before;
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || "(),;'\"`".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        for (i, word) in words.iter().enumerate() {
            let word = word.trim_end_matches(['.', ':']);
            if word.contains(['>', '<', '=', '~', '^']) {
                add(&mut out, word);
            }
            if !by_quotes && DEPENDENCY_WORDS.contains(&word.to_ascii_lowercase().as_str()) {
                // `the pyjwt dependency` / `dependency pyjwt`, skipping articles.
                let before = i.checked_sub(1).map(|j| words[j]);
                let after = words.get(i + 1).copied();
                for neighbour in [before, after].into_iter().flatten() {
                    let n = neighbour.trim_end_matches(['.', ':']);
                    // A word split at an apostrophe (`contract's` → `s`) names nothing.
                    if n.len() > 1 && !STOP_WORDS.contains(&n.to_ascii_lowercase().as_str()) {
                        add(&mut out, n);
                    }
                }
            }
        }
    }
    out
}

/// Words beside "dependency" that are not its name.
const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "new",
    "one",
    "missing",
    "extra",
    "external",
    "jwt's",
    "standard",
    "third-party",
    "python",
    "rust",
    "node",
    "npm",
    "pip",
    "any",
    "no",
    "to",
    "for",
    "of",
    "as",
    "is",
    "add",
    "allow",
    "use",
    "with",
    "on",
    "in",
    "and",
    "or",
    "named",
    // What a dependency has, not what it is called (`the contract's dependency rules`).
    "rules",
    "rule",
    "policy",
    "list",
    "check",
    "checks",
    "version",
    "versions",
    "tree",
    "graph",
    "file",
    "files",
    "manifest",
    "manifests",
    "pinning",
    "update",
    "updates",
    "conflict",
    "conflicts",
    "contract",
];

/// The texts between matching quotes (`'…'`, `"…"`, `` `…` ``).
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        let start = rest.find(['\'', '"', '`'])?;
        let quote = rest[start..].chars().next()?;
        let inner = &rest[start + 1..];
        let Some(end) = inner.find(quote) else {
            rest = inner;
            continue;
        };
        rest = &inner[end + 1..];
        return Some(&inner[..end]);
    })
}

/// A requirement spec: a name starting with a letter (`[A-Za-z0-9._-]`, optional `[extras]`),
/// then an optional version constraint.
fn requirement(text: &str) -> Option<Requested> {
    let text = text.trim();
    let name_end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || "._-".contains(c)))
        .unwrap_or(text.len());
    let name = &text[..name_end];
    if !name.starts_with(|c: char| c.is_ascii_alphabetic())
        || name.ends_with(['.', '-'])
        || FILE_EXTENSIONS
            .iter()
            .any(|e| name.ends_with(&format!(".{e}")))
    {
        return None;
    }
    let mut rest = text[name_end..].trim_start();
    if rest.starts_with('[') {
        rest = rest[rest.find(']')? + 1..].trim_start();
    }
    let constraint = if rest.is_empty() {
        None
    } else {
        let ok = rest.starts_with(['>', '<', '=', '~', '!', '^', '@'])
            && rest.chars().any(|c| c.is_ascii_digit())
            && !rest.contains(char::is_whitespace);
        if !ok {
            return None;
        }
        Some(rest.to_owned())
    };
    Some(Requested {
        written: text.to_owned(),
        name: norm(name),
        constraint,
    })
}

/// Where a manifest of the folder declares a dependency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declared {
    /// The manifest.
    pub manifest: FolderPath,
    /// Its 1-based line.
    pub line: usize,
    /// The entry's name as written.
    pub written: String,
}

/// A requested dependency checked against the folder's manifests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DependencyCheck {
    /// What was asked.
    pub requested: Requested,
    /// Where the manifests already declare it (or a package providing that module).
    pub declared: Vec<Declared>,
}

/// Checks each requested dependency against `manifests` (path and text; files that are not
/// manifests are skipped): declared where the name matches, or where a declared package
/// provides the requested module (`pyjwt` provides `jwt`).
#[must_use]
pub fn check(requested: &[Requested], manifests: &[(FolderPath, &str)]) -> Vec<DependencyCheck> {
    let entries: Vec<(FolderPath, crate::audit::deps::Dep)> = manifests
        .iter()
        .filter_map(|(path, text)| {
            let kind = Manifest::of(&ContractPath::parse(path.as_str()).ok()?)?;
            let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
            Some(
                declared(kind, lines, true)
                    .into_iter()
                    .map(|d| (path.clone(), d))
                    .collect::<Vec<_>>(),
            )
        })
        .flatten()
        .collect();
    requested
        .iter()
        .map(|r| DependencyCheck {
            requested: r.clone(),
            declared: entries
                .iter()
                .filter(|(_, d)| d.name == r.name || provided_modules(&d.name).any(|m| m == r.name))
                .map(|(path, d)| Declared {
                    manifest: path.clone(),
                    line: d.line,
                    written: d.written.clone(),
                })
                .collect(),
        })
        .collect()
}

/// The lines (1-based, inclusive) of the test `name` in a file's text: a Python `def` and its
/// indented body, or a `fn name` / `test("name"` / `it("name"` and its braces.
#[must_use]
pub fn test_lines(text: &str, name: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let is_word = |line: &str| {
        line.match_indices(name).any(|(at, _)| {
            let before = line[..at].chars().next_back();
            let after = line[at + name.len()..].chars().next();
            let boundary = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            boundary(before) && boundary(after)
        })
    };
    let start = lines.iter().position(|l| {
        let t = l.trim_start();
        is_word(l)
            && (t.starts_with("def ")
                || t.starts_with("async def ")
                || t.contains("fn ")
                || t.starts_with("test(")
                || t.starts_with("it(")
                || t.starts_with("test.")
                || t.starts_with("describe("))
    })?;
    let indent = |l: &str| l.len() - l.trim_start().len();
    let head = lines[start];
    let end = if head.trim_end().ends_with(':') {
        // Python: the body is what is indented deeper (blank lines inside belong to it).
        let mut end = start;
        for (i, l) in lines.iter().enumerate().skip(start + 1) {
            if l.trim().is_empty() {
                continue;
            }
            if indent(l) <= indent(head) {
                break;
            }
            end = i;
        }
        end
    } else {
        let mut depth = 0_i64;
        let mut opened = false;
        let mut end = start;
        for (i, l) in lines.iter().enumerate().skip(start) {
            for c in l.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            end = i;
            if opened && depth <= 0 {
                break;
            }
        }
        end
    };
    Some((start + 1, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_a_change_order_names() {
        let m = mentions("ModuleNotFoundError: No module named 'jwt' (tests/test_session.py::test_cookie_is_signed)");
        assert_eq!(
            m,
            vec![Mention {
                file: "tests/test_session.py".into(),
                test: Some("test_cookie_is_signed".into())
            }]
        );
        assert!(mentions("File \"/usr/lib/python3/jwt.py\", line 3").is_empty());
        assert_eq!(
            mentions("see tmp/pair_1_tests.py:12.")[0].file,
            "tmp/pair_1_tests.py"
        );
        assert!(mentions("Add 'pyjwt>=2.8.0' to requirements.txt")
            .iter()
            .any(|m| m.file == "requirements.txt"));
    }

    #[test]
    fn reads_the_dependency_asked_for() {
        let names = |t: &str| {
            requested([t])
                .into_iter()
                .map(|r| r.name)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names("Add 'pyjwt>=2.8.0' to requirements.txt and update contract to allow this dependency"),
            ["pyjwt"]
        );
        assert_eq!(
            requested(["Add 'pyjwt>=2.8.0'"])[0].constraint.as_deref(),
            Some(">=2.8.0")
        );
        assert_eq!(names("No module named 'jwt'"), ["jwt"]);
        assert_eq!(
            names("Allow the pyjwt dependency (>= 2.8), or change the tests"),
            ["pyjwt"]
        );
        assert_eq!(
            names("Expected JWT library 'pyjwt' but not found"),
            ["pyjwt"]
        );
        assert!(names("Sorted by timestamp in the query").is_empty());
        assert!(names("test_prices_are_live requires no cache").is_empty());
        assert!(names(
            "Vendored a minimal JWT decoder: refused by the contract's dependency rules"
        )
        .is_empty());
    }

    #[test]
    fn checks_against_manifests() {
        let req = requested(["No module named 'jwt'", "add 'requests'"]);
        let manifests = [(
            resolve("requirements.txt").unwrap(),
            "flask==3.0\npyjwt>=2.8\n",
        )];
        let checks = check(&req, &manifests);
        assert_eq!(checks[0].declared[0].line, 2);
        assert_eq!(checks[0].declared[0].written, "pyjwt");
        assert!(checks[1].declared.is_empty());
    }

    #[test]
    fn locates_a_test() {
        let py =
            "import x\n\ndef test_a():\n    assert 1\n\n    assert 2\n\ndef test_b():\n    pass\n";
        assert_eq!(test_lines(py, "test_a"), Some((3, 6)));
        assert_eq!(test_lines(py, "test_b"), Some((8, 9)));
        let ts = "test(\"adds\", () => {\n  expect(1).toBe(1);\n});\nit('x', () => {});\n";
        assert_eq!(test_lines(ts, "adds"), Some((1, 3)));
        let rs = "#[test]\nfn works() {\n    assert!(true);\n}\n";
        assert_eq!(test_lines(rs, "works"), Some((2, 4)));
        assert_eq!(test_lines(py, "nope"), None);
    }
}
