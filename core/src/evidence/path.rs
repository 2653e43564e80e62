//! Paths a message names, resolved inside the linked project folder: `$PROJECT_ROOT/auth/x.py`
//! and `./auth/x.py` are the folder's `auth/x.py`, `tmp/pair_<ts>_tests.py` is the folder's
//! `tmp/…`. A path that would leave the folder is refused with the reason, never resolved.
//!
//! Resolution is lexical: `\` separates like `/` (a Windows path cannot slip `..\` past it),
//! `.` and empty segments drop, and `..` steps back up a segment that the path itself went
//! down (`tmp/../src/a.py` is `src/a.py`). The browser then walks the folder one name at a
//! time from its root, so what it opens is always the [`FolderPath`] shown.
//!
//! ```
//! use switchboard_core::evidence::path::{resolve, Refusal};
//!
//! assert_eq!(resolve("$PROJECT_ROOT/auth/jwt.py").unwrap().as_str(), "auth/jwt.py");
//! assert_eq!(resolve("tmp/pair_1_tests.py").unwrap().as_str(), "tmp/pair_1_tests.py");
//! assert!(matches!(resolve("tmp/pair_1_x/../../../etc/passwd"), Err(Refusal::Climbs { .. })));
//! assert!(matches!(resolve("/etc/passwd"), Err(Refusal::Absolute { .. })));
//! assert!(matches!(resolve("C:\\Windows\\win.ini"), Err(Refusal::Drive { .. })));
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The variable the Pair Protocol writes for the project's root (`$PROJECT_ROOT/auth/x.py`).
pub const PROJECT_ROOT: &str = "PROJECT_ROOT";

/// A file's path inside the linked folder: `/`-separated names, none of them empty, `.` or
/// `..`, never absolute. Only [`resolve`] (and the folder's own listing) makes one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FolderPath(String);

impl FolderPath {
    /// The path (`tmp/pair_1_tests.py`).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its names, from the folder's root down.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    /// The last name.
    #[must_use]
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// The directory holding it (`""` for a file at the root).
    #[must_use]
    pub fn parent(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(dir, _)| dir)
    }
}

impl fmt::Display for FolderPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a path a message names is not read: each would leave the linked folder, or names no
/// file in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "snake_case")]
pub enum Refusal {
    /// Starts at a file system root (`/etc/passwd`, `\\server\share`).
    Absolute {
        /// The path as written.
        path: String,
    },
    /// Names a drive (`C:\…`, `C:x`).
    Drive {
        /// The path as written.
        path: String,
    },
    /// A URL or other scheme (`file:///etc/passwd`).
    Scheme {
        /// The path as written.
        path: String,
    },
    /// Starts at a home directory (`~/.ssh/id_rsa`, `~root/x`).
    Home {
        /// The path as written.
        path: String,
    },
    /// Starts with an environment variable other than `$PROJECT_ROOT` (`$HOME/…`, `%APPDATA%\…`).
    Variable {
        /// The path as written.
        path: String,
        /// The variable's name.
        name: String,
    },
    /// Climbs above the folder with `..`.
    Climbs {
        /// The path as written.
        path: String,
    },
    /// Holds a control character (a NUL, a line break).
    Control {
        /// The path as written.
        path: String,
    },
    /// Names the folder itself, or nothing.
    Empty {
        /// The path as written.
        path: String,
    },
}

impl Refusal {
    /// The path as the message wrote it.
    #[must_use]
    pub fn path(&self) -> &str {
        match self {
            Refusal::Absolute { path }
            | Refusal::Drive { path }
            | Refusal::Scheme { path }
            | Refusal::Home { path }
            | Refusal::Variable { path, .. }
            | Refusal::Climbs { path }
            | Refusal::Control { path }
            | Refusal::Empty { path } => path,
        }
    }

    /// Whether the path would reach outside the folder (everything but [`Refusal::Empty`]
    /// and [`Refusal::Control`], which name nothing readable).
    #[must_use]
    pub fn leaves_folder(&self) -> bool {
        !matches!(self, Refusal::Empty { .. } | Refusal::Control { .. })
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        match self {
            Refusal::Absolute { .. } => write!(f, "{path:?} is absolute: it leaves the linked folder"),
            Refusal::Drive { .. } => write!(f, "{path:?} names a drive: it leaves the linked folder"),
            Refusal::Scheme { .. } => write!(f, "{path:?} is a URL, not a path in the linked folder"),
            Refusal::Home { .. } => {
                write!(f, "{path:?} starts at a home directory: it leaves the linked folder")
            }
            Refusal::Variable { name, .. } => write!(
                f,
                "{path:?} starts with ${name}, which is not ${PROJECT_ROOT}: it leaves the linked folder"
            ),
            Refusal::Climbs { .. } => {
                write!(f, "{path:?} climbs out of the linked folder with `..`")
            }
            Refusal::Control { .. } => write!(f, "{path:?} holds a control character"),
            Refusal::Empty { .. } => write!(f, "{path:?} names no file"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The file a message's path names inside the linked folder, or why it is not read.
///
/// # Errors
/// A [`Refusal`] for an absolute, drive, URL, home, other-variable, climbing, control-character
/// or empty path.
pub fn resolve(raw: &str) -> Result<FolderPath, Refusal> {
    let path = || raw.to_owned();
    if raw.chars().any(char::is_control) {
        return Err(Refusal::Control { path: path() });
    }
    let rest = match variable(raw) {
        Some((name, rest)) if name == PROJECT_ROOT => rest,
        Some((name, _)) => {
            return Err(Refusal::Variable {
                path: path(),
                name: name.to_owned(),
            })
        }
        None => raw,
    };
    let bytes = rest.as_bytes();
    if bytes.first() == Some(&b'~') {
        return Err(Refusal::Home { path: path() });
    }
    if let Some(colon) = rest.find(':') {
        let head = &rest[..colon];
        let is_scheme = !head.is_empty()
            && head
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
            && head.as_bytes()[0].is_ascii_alphabetic();
        if head.len() == 1 && is_scheme {
            return Err(Refusal::Drive { path: path() });
        }
        if is_scheme {
            return Err(Refusal::Scheme { path: path() });
        }
    }
    // A variable stripped off leaves `/rest`, which starts at the project root, not at `/`.
    if rest.len() == raw.len() && matches!(bytes.first(), Some(b'/' | b'\\')) {
        return Err(Refusal::Absolute { path: path() });
    }
    let mut names: Vec<&str> = Vec::new();
    for name in rest.split(['/', '\\']) {
        match name {
            "" | "." => {}
            ".." => {
                if names.pop().is_none() {
                    return Err(Refusal::Climbs { path: path() });
                }
            }
            name => names.push(name),
        }
    }
    if names.is_empty() {
        return Err(Refusal::Empty { path: path() });
    }
    Ok(FolderPath(names.join("/")))
}

/// A leading `$NAME`, `${NAME}` or `%NAME%` and what follows it.
fn variable(raw: &str) -> Option<(&str, &str)> {
    let name_end = |s: &str| {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    if let Some(braced) = raw.strip_prefix("${") {
        let (name, rest) = braced.split_once('}')?;
        return Some((name, rest));
    }
    if let Some(bare) = raw.strip_prefix('$') {
        let end = name_end(bare);
        return (end > 0).then(|| bare.split_at(end));
    }
    if let Some(windows) = raw.strip_prefix('%') {
        let (name, rest) = windows.split_once('%')?;
        return (!name.is_empty() && name_end(name) == name.len()).then_some((name, rest));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> String {
        resolve(raw)
            .map(|p| p.0)
            .unwrap_or_else(|e| panic!("{raw}: {e}"))
    }

    #[test]
    fn resolves_the_seeds_forms() {
        assert_eq!(
            ok("$PROJECT_ROOT/auth/jwt_handler.py"),
            "auth/jwt_handler.py"
        );
        assert_eq!(ok("${PROJECT_ROOT}/auth/x.py"), "auth/x.py");
        assert_eq!(ok("%PROJECT_ROOT%\\auth\\x.py"), "auth/x.py");
        assert_eq!(
            ok("tmp/pair_1234567890_tests.py"),
            "tmp/pair_1234567890_tests.py"
        );
        assert_eq!(ok("./src//a.py"), "src/a.py");
        assert_eq!(ok("tmp/../src/a.py"), "src/a.py");
        assert_eq!(ok("$PROJECT_ROOT//src/a.py"), "src/a.py");
        assert_eq!(ok("ratelimit.py"), "ratelimit.py");
        assert_eq!(ok("src/a:b.py"), "src/a:b.py");
    }

    #[test]
    fn refuses_what_leaves_the_folder() {
        let kind = |raw: &str| match resolve(raw) {
            Ok(p) => format!("ok {p}"),
            Err(e) => format!("{e:?}")
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_owned(),
        };
        assert_eq!(kind("/etc/passwd"), "Absolute");
        assert_eq!(kind("\\\\server\\share\\x"), "Absolute");
        assert_eq!(kind("C:\\Windows\\win.ini"), "Drive");
        assert_eq!(kind("c:x"), "Drive");
        assert_eq!(kind("file:///etc/passwd"), "Scheme");
        assert_eq!(kind("~/.ssh/id_rsa"), "Home");
        assert_eq!(kind("$HOME/.ssh/id_rsa"), "Variable");
        assert_eq!(kind("$PROJECT_ROOTX/a"), "Variable");
        assert_eq!(kind("%APPDATA%\\x"), "Variable");
        assert_eq!(kind("../x"), "Climbs");
        assert_eq!(kind("tmp/pair_1_x/../../../etc/passwd"), "Climbs");
        assert_eq!(kind("$PROJECT_ROOT/../x"), "Climbs");
        assert_eq!(kind("a\\..\\..\\x"), "Climbs");
        assert_eq!(kind("a\0b"), "Control");
        assert_eq!(kind("$PROJECT_ROOT"), "Empty");
        assert_eq!(kind("./"), "Empty");
        assert!(resolve("$HOME/x")
            .unwrap_err()
            .to_string()
            .contains("$HOME"));
    }
}
