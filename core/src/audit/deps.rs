//! Dependency manifests: the entries of requirements*.txt, pyproject.toml, package.json and
//! Cargo.toml.
//!
//! Manifests are read line by line (TOML and requirements with the Python lexer, JSON with the
//! TypeScript lexer) so every entry keeps its line number. A fragment that does not start at
//! the top of the file (a hunk without its section header) is read in an "unknown section"
//! state with stricter rules, documented in the patterns table.

use super::lexer::{Language, Lexer, Token};
use crate::fingerprint::ContractPath;

/// A dependency manifest the audit reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manifest {
    /// `requirements*.txt`.
    Requirements,
    /// `pyproject.toml`.
    Pyproject,
    /// `package.json`.
    PackageJson,
    /// `Cargo.toml`.
    CargoToml,
}

impl Manifest {
    /// The manifest kind of a path, by file name.
    pub fn of(path: &ContractPath) -> Option<Manifest> {
        let name = path.file_name();
        match name {
            "pyproject.toml" => Some(Manifest::Pyproject),
            "package.json" => Some(Manifest::PackageJson),
            "Cargo.toml" => Some(Manifest::CargoToml),
            _ if name.starts_with("requirements") && name.ends_with(".txt") => {
                Some(Manifest::Requirements)
            }
            _ => None,
        }
    }
}

/// A declared dependency: its normalised name and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dep {
    /// Normalised name ([`norm`]).
    pub name: String,
    /// The name as written.
    pub written: String,
    /// 1-based line in the lines read.
    pub line: usize,
}

/// Normalises a package, module or crate name: ASCII lower case, `-` and `.` as `_`.
pub fn norm(name: &str) -> String {
    name.to_ascii_lowercase().replace(['-', '.'], "_")
}

/// The entries declared in `lines` (numbered `(line, text)`); `from_top` says the lines start
/// at the top of the file, so sections are known.
pub fn declared<'a>(
    manifest: Manifest,
    lines: impl IntoIterator<Item = (usize, &'a str)>,
    from_top: bool,
) -> Vec<Dep> {
    let mut reader = Reader::new(manifest, from_top);
    let mut out = Vec::new();
    for (line, text) in lines {
        for name in reader.line(text) {
            out.push(Dep {
                name: norm(&name),
                written: name,
                line,
            });
        }
    }
    out
}

/// The section a TOML or JSON reader is in.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Section {
    /// Not known (a fragment).
    Unknown,
    /// Known: the header (TOML) or `""` outside any dependency object (JSON).
    Known(String),
}

struct Reader {
    manifest: Manifest,
    lexer: Lexer,
    section: Section,
    /// Inside a multi-line dependency array (pyproject).
    in_array: bool,
    /// JSON: current brace depth relative to the start, and the depth of an open
    /// dependency object.
    depth: i64,
    dep_object: Option<i64>,
}

const JSON_SECTIONS: &[&str] = &[
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "bundledDependencies",
];
const JSON_NOT_DEPS: &[&str] = &[
    "name",
    "version",
    "node",
    "npm",
    "yarn",
    "pnpm",
    "packageManager",
    "types",
    "typescript",
];
const CARGO_NOT_DEPS: &[&str] = &[
    "name",
    "version",
    "edition",
    "rust-version",
    "authors",
    "description",
    "license",
    "readme",
    "homepage",
    "repository",
    "documentation",
    "keywords",
    "categories",
    "publish",
    "resolver",
    "members",
    "exclude",
    "include",
    "build",
    "links",
    "default-run",
    "opt-level",
    "lto",
    "codegen-units",
    "debug",
    "panic",
    "strip",
    "incremental",
    "default",
    "path",
    "harness",
    "required-features",
    "crate-type",
];

impl Reader {
    fn new(manifest: Manifest, from_top: bool) -> Reader {
        let lang = if manifest == Manifest::PackageJson {
            Language::TypeScript
        } else {
            Language::Python
        };
        Reader {
            manifest,
            lexer: Lexer::new(lang),
            section: if from_top {
                Section::Known(String::new())
            } else {
                Section::Unknown
            },
            in_array: false,
            depth: 0,
            dep_object: None,
        }
    }

    fn line(&mut self, text: &str) -> Vec<String> {
        match self.manifest {
            Manifest::Requirements => requirement(text).into_iter().collect(),
            Manifest::PackageJson => {
                let tokens = self.lexer.line(text);
                self.json(&tokens)
            }
            Manifest::CargoToml | Manifest::Pyproject => {
                let tokens = self.lexer.line(text);
                self.toml(text.trim(), &tokens)
            }
        }
    }

    fn json(&mut self, t: &[Token]) -> Vec<String> {
        let mut out = Vec::new();
        if let [Token::Str(key), colon, rest @ ..] = t {
            if colon.is(':') {
                let opens_object = rest.first().is_some_and(|r| r.is('{'));
                if opens_object && JSON_SECTIONS.contains(&key.as_str()) {
                    self.dep_object = Some(self.depth + 1);
                    self.section = Section::Known(String::new());
                } else if self.dep_object == Some(self.depth) {
                    out.push(key.clone());
                } else if self.section == Section::Unknown && self.dep_object.is_none() {
                    let versioned =
                        matches!(rest.first(), Some(Token::Str(v)) if looks_like_version(v));
                    if versioned && !JSON_NOT_DEPS.contains(&key.as_str()) {
                        out.push(key.clone());
                    }
                }
            }
        }
        for token in t {
            if token.is('{') {
                self.depth += 1;
            } else if token.is('}') {
                if self.dep_object == Some(self.depth) {
                    self.dep_object = None;
                }
                self.depth -= 1;
                if self.depth < 0 {
                    // Closed an object the fragment started inside: now somewhere known.
                    self.depth = 0;
                    self.section = Section::Known(String::new());
                }
            }
        }
        out
    }

    fn toml(&mut self, text: &str, t: &[Token]) -> Vec<String> {
        if self.in_array {
            if t.iter().any(|x| x.is(']')) {
                self.in_array = false;
            }
            return array_requirements(t);
        }
        if text.starts_with('[') {
            let header = text
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .to_owned();
            let header = header.replace(['"', '\''], "");
            self.section = Section::Known(header.clone());
            if self.manifest == Manifest::CargoToml {
                if let Some((_, name)) = header.rsplit_once("dependencies.") {
                    return vec![name.to_owned()];
                }
            }
            return Vec::new();
        }
        let Some((key, value)) = text.split_once('=') else {
            if self.section == Section::Unknown && self.manifest == Manifest::Pyproject {
                // A bare array item of an unseen array: only clear requirements count.
                return array_requirements(t)
                    .into_iter()
                    .filter(|_| strict_requirement(text))
                    .collect();
            }
            return Vec::new();
        };
        let key = key.trim().trim_matches(['"', '\'']);
        let value = value.trim();
        let base = key.split('.').next().unwrap_or(key);
        match self.manifest {
            Manifest::CargoToml => self.cargo_key(base, key, value),
            _ => self.pyproject_key(base, value, t),
        }
    }

    fn cargo_key(&self, base: &str, key: &str, value: &str) -> Vec<String> {
        let known_dep_section = |s: &str| {
            s == "dependencies"
                || s.ends_with(".dependencies")
                || s.ends_with("dev-dependencies")
                || s.ends_with("build-dependencies")
        };
        let is_dep = match &self.section {
            Section::Known(s) => known_dep_section(s),
            Section::Unknown => {
                let versioned = value.starts_with('{')
                    && ["version", "path", "git", "workspace"]
                        .iter()
                        .any(|k| value.contains(k));
                let quoted = value.strip_prefix('"').is_some_and(looks_like_version);
                (versioned || quoted || key.ends_with(".workspace"))
                    && !CARGO_NOT_DEPS.contains(&base)
            }
        };
        if is_dep {
            vec![base.to_owned()]
        } else {
            Vec::new()
        }
    }

    fn pyproject_key(&mut self, base: &str, value: &str, t: &[Token]) -> Vec<String> {
        let section = match &self.section {
            Section::Known(s) => s.as_str(),
            Section::Unknown => "",
        };
        let array_key = matches!(
            (section, base),
            ("project", "dependencies")
                | ("build-system", "requires")
                | ("project.optional-dependencies", _)
                | ("dependency-groups", _)
        ) || (self.section == Section::Unknown && base == "dependencies");
        if array_key && value.starts_with('[') {
            self.in_array = !t.iter().any(|x| x.is(']'));
            return array_requirements(t);
        }
        let poetry = section.starts_with("tool.poetry.") && section.ends_with("dependencies");
        if poetry && base != "python" {
            return vec![base.to_owned()];
        }
        Vec::new()
    }
}

/// Whether a value looks like a version requirement (`1.2`, `^4`, `~=2`, `>=1`, `*`, `workspace:`...).
fn looks_like_version(v: &str) -> bool {
    let first = v.chars().next();
    first.is_some_and(|c| c.is_ascii_digit() || "^~=<>*".contains(c))
        || [
            "workspace:",
            "npm:",
            "file:",
            "link:",
            "git+",
            "github:",
            "latest",
            "next",
        ]
        .iter()
        .any(|p| v.starts_with(p))
}

/// The requirement names in a TOML array line's strings.
fn array_requirements(t: &[Token]) -> Vec<String> {
    t.iter()
        .filter_map(|x| match x {
            Token::Str(s) => requirement(s),
            _ => None,
        })
        .collect()
}

/// A requirement string with a version, extras or URL part (stricter, for fragments).
fn strict_requirement(text: &str) -> bool {
    text.contains(['<', '>', '=', '~', '[', '@', ';'])
}

/// The distribution name of a requirement line (`name[extras] >= 1 ; marker`), if it is one.
fn requirement(line: &str) -> Option<String> {
    let line = line.split(" #").next().unwrap_or(line).trim();
    if line.is_empty() || line.starts_with('#') || line.starts_with('-') {
        return None;
    }
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || "._-".contains(c)))
        .unwrap_or(line.len());
    let (name, rest) = line.split_at(end);
    let rest = rest.trim_start();
    let tail_ok = rest.is_empty() || rest.starts_with(|c: char| "[<>=!~;@,(".contains(c));
    (!name.is_empty() && tail_ok).then(|| name.to_owned())
}

/// The package or crate name of a `[package]`/`[lib]` section in a Cargo.toml, if any.
pub fn cargo_package_names(text: &str) -> Vec<String> {
    let mut section = "";
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).trim();
        } else if let Some((key, value)) = line.split_once('=') {
            if key.trim() == "name" && (section == "package" || section == "lib") {
                out.push(norm(value.trim().trim_matches('"')));
            }
        }
    }
    out
}
