//! Dependencies: the entries of requirements*.txt, pyproject.toml, package.json and
//! Cargo.toml, and the third-party modules a source line imports.
//!
//! Manifests are read line by line (TOML and requirements with the Python lexer, JSON with the
//! TypeScript lexer) so every entry keeps its line number. A fragment that does not start at
//! the top of the file (a hunk without its section header) is read in an "unknown section"
//! state with stricter rules, documented in the patterns table.

use super::lexer::{Language, Lexer, Token};
use crate::session::fingerprint::ContractPath;

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

/// The top-level third-party-candidate modules one source line imports (relative, aliased and
/// standard-library imports excluded), as written.
pub fn imports(lang: Language, t: &[Token]) -> Vec<String> {
    match lang {
        Language::Python => python_imports(t),
        Language::TypeScript => ts_imports(t),
        Language::Rust => rust_imports(t),
    }
    .into_iter()
    .filter(|m| !is_builtin(lang, m))
    .collect()
}

fn python_imports(t: &[Token]) -> Vec<String> {
    match t {
        [first, Token::Word(m), ..] if first.is_word("from") => vec![m.clone()],
        [first, rest @ ..] if first.is_word("import") => {
            let mut out = Vec::new();
            let mut expect_name = true;
            for x in rest {
                match x {
                    Token::Word(w) if expect_name => {
                        out.push(w.clone());
                        expect_name = false;
                    }
                    Token::Punct(',') => expect_name = true,
                    _ => {}
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

fn ts_imports(t: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, x) in t.iter().enumerate() {
        let spec = match (x, t.get(i + 1), t.get(i + 2)) {
            (Token::Word(w), Some(Token::Str(s)), _) if w == "from" || w == "import" => s,
            (Token::Word(w), Some(p), Some(Token::Str(s)))
                if (w == "require" || w == "import") && p.is('(') =>
            {
                s
            }
            _ => continue,
        };
        if let Some(name) = npm_package(spec) {
            out.push(name);
        }
    }
    out
}

/// The package an import specifier names: `@scope/name` or the first segment.
fn npm_package(spec: &str) -> Option<String> {
    let relative = spec.starts_with('.') || spec.starts_with('/') || spec.starts_with('#');
    let alias = spec.starts_with("@/") || spec.starts_with("~/") || spec.starts_with("~");
    if spec.is_empty() || relative || alias || spec.starts_with("node:") || spec.contains(':') {
        return None;
    }
    let mut parts = spec.split('/');
    let first = parts.next()?;
    if first.starts_with('@') {
        return parts.next().map(|second| format!("{first}/{second}"));
    }
    Some(first.to_owned())
}

fn rust_imports(t: &[Token]) -> Vec<String> {
    let mut i = 0;
    if t.first().is_some_and(|x| x.is_word("pub")) {
        i = 1;
        if t.get(1).is_some_and(|x| x.is('(')) {
            i = t.iter().position(|x| x.is(')')).map_or(t.len(), |p| p + 1);
        }
    }
    match &t[i.min(t.len())..] {
        [u, c1, c2, Token::Word(name), ..] if u.is_word("use") && c1.is(':') && c2.is(':') => {
            vec![name.clone()]
        }
        [u, Token::Word(name), ..] if u.is_word("use") => vec![name.clone()],
        [e, c, Token::Word(name), ..] if e.is_word("extern") && c.is_word("crate") => {
            vec![name.clone()]
        }
        _ => Vec::new(),
    }
}

const PYTHON_STDLIB: &[&str] = &[
    "abc",
    "aifc",
    "argparse",
    "array",
    "ast",
    "asynchat",
    "asyncio",
    "asyncore",
    "atexit",
    "audioop",
    "base64",
    "bdb",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "cProfile",
    "calendar",
    "cgi",
    "cgitb",
    "chunk",
    "cmath",
    "cmd",
    "code",
    "codecs",
    "codeop",
    "collections",
    "colorsys",
    "compileall",
    "concurrent",
    "configparser",
    "contextlib",
    "contextvars",
    "copy",
    "copyreg",
    "crypt",
    "csv",
    "ctypes",
    "curses",
    "dataclasses",
    "datetime",
    "dbm",
    "decimal",
    "difflib",
    "dis",
    "distutils",
    "doctest",
    "email",
    "encodings",
    "ensurepip",
    "enum",
    "errno",
    "faulthandler",
    "fcntl",
    "filecmp",
    "fileinput",
    "fnmatch",
    "fractions",
    "ftplib",
    "functools",
    "gc",
    "genericpath",
    "getopt",
    "getpass",
    "gettext",
    "glob",
    "graphlib",
    "grp",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http",
    "idlelib",
    "imaplib",
    "imghdr",
    "imp",
    "importlib",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "lib2to3",
    "linecache",
    "locale",
    "logging",
    "lzma",
    "mailbox",
    "mailcap",
    "marshal",
    "math",
    "mimetypes",
    "mmap",
    "modulefinder",
    "msilib",
    "msvcrt",
    "multiprocessing",
    "netrc",
    "nis",
    "nntplib",
    "nt",
    "ntpath",
    "nturl2path",
    "numbers",
    "opcode",
    "operator",
    "optparse",
    "os",
    "ossaudiodev",
    "pathlib",
    "pdb",
    "pickle",
    "pickletools",
    "pipes",
    "pkgutil",
    "platform",
    "plistlib",
    "poplib",
    "posix",
    "posixpath",
    "pprint",
    "profile",
    "pstats",
    "pty",
    "pwd",
    "py_compile",
    "pyclbr",
    "pydoc",
    "pydoc_data",
    "pyexpat",
    "queue",
    "quopri",
    "random",
    "re",
    "readline",
    "reprlib",
    "resource",
    "rlcompleter",
    "runpy",
    "sched",
    "secrets",
    "select",
    "selectors",
    "shelve",
    "shlex",
    "shutil",
    "signal",
    "site",
    "smtpd",
    "smtplib",
    "sndhdr",
    "socket",
    "socketserver",
    "spwd",
    "sqlite3",
    "sre_compile",
    "sre_constants",
    "sre_parse",
    "ssl",
    "stat",
    "statistics",
    "string",
    "stringprep",
    "struct",
    "subprocess",
    "sunau",
    "symtable",
    "sys",
    "sysconfig",
    "syslog",
    "tabnanny",
    "tarfile",
    "telnetlib",
    "tempfile",
    "termios",
    "textwrap",
    "threading",
    "time",
    "timeit",
    "tkinter",
    "token",
    "tokenize",
    "tomllib",
    "trace",
    "traceback",
    "tracemalloc",
    "tty",
    "turtle",
    "types",
    "typing",
    "unicodedata",
    "unittest",
    "urllib",
    "uu",
    "uuid",
    "venv",
    "warnings",
    "wave",
    "weakref",
    "webbrowser",
    "winreg",
    "winsound",
    "wsgiref",
    "xdrlib",
    "xml",
    "xmlrpc",
    "zipapp",
    "zipfile",
    "zipimport",
    "zlib",
    "zoneinfo",
];

const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

const RUST_BUILTINS: &[&str] = &[
    "std",
    "core",
    "alloc",
    "crate",
    "self",
    "super",
    "proc_macro",
    "test",
    "Self",
];

fn is_builtin(lang: Language, module: &str) -> bool {
    match lang {
        Language::Python => module.starts_with('_') || PYTHON_STDLIB.contains(&module),
        Language::TypeScript => NODE_BUILTINS.contains(&module),
        Language::Rust => RUST_BUILTINS.contains(&module),
    }
}

/// Distributions whose import name differs from the distribution name (normalised both sides).
const IMPORT_ALIASES: &[(&str, &str)] = &[
    ("pyjwt", "jwt"),
    ("python_jose", "jose"),
    ("pyyaml", "yaml"),
    ("beautifulsoup4", "bs4"),
    ("pillow", "pil"),
    ("scikit_learn", "sklearn"),
    ("opencv_python", "cv2"),
    ("python_dateutil", "dateutil"),
    ("attrs", "attr"),
    ("psycopg2_binary", "psycopg2"),
    ("python_dotenv", "dotenv"),
    ("protobuf", "google"),
    ("pymongo", "bson"),
    ("pyopenssl", "openssl"),
    ("setuptools", "pkg_resources"),
    ("msgpack_python", "msgpack"),
];

/// The import names a distribution provides: itself and its known aliases.
pub fn provided_modules(dist: &str) -> impl Iterator<Item = String> + '_ {
    std::iter::once(dist.to_owned()).chain(
        IMPORT_ALIASES
            .iter()
            .filter(move |(d, _)| *d == dist)
            .map(|(_, m)| (*m).to_owned()),
    )
}
