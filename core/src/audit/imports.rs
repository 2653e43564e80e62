//! Imports: the third-party modules a source line imports, the standard libraries they are
//! not, and the import names a distribution provides.

use super::lexer::{Language, Token};

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
