//! The contract an audit checks against: the spec, the test files and the dependency
//! baseline manifests, keyed by repository-relative path.

use super::deps::{self, Manifest};
use super::hardcode::{self, Expectation};
use super::imports;
use super::lexer::{Language, Lexer};
use crate::fingerprint::{ContractPath, FingerprintError};
use std::collections::{BTreeMap, BTreeSet};

/// The contract's files. Every file but a dependency manifest is immutable; manifests
/// (`requirements*.txt`, `pyproject.toml`, `package.json`, `Cargo.toml`) are the dependency
/// baseline; code files (`.py`, `.ts`/`.js`, `.rs`) are the tests whose assertions give the
/// literals the hard-coding check looks for; the other files are the spec.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contract {
    files: BTreeMap<ContractPath, String>,
}

impl Contract {
    /// Adds a file (path normalised; the same path twice is an error).
    pub fn insert(&mut self, path: &str, text: &str) -> Result<(), FingerprintError> {
        let path = ContractPath::parse(path)?;
        if self.files.contains_key(&path) {
            return Err(FingerprintError::DuplicatePath(path.as_str().to_owned()));
        }
        self.files.insert(path, text.to_owned());
        Ok(())
    }

    /// A contract from `(path, text)` pairs.
    pub fn from_files<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Contract, FingerprintError> {
        let mut contract = Contract::default();
        for (path, text) in files {
            contract.insert(path, text)?;
        }
        Ok(contract)
    }

    /// Every file, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&ContractPath, &str)> {
        self.files.iter().map(|(p, t)| (p, t.as_str()))
    }

    /// A file's text.
    pub fn get(&self, path: &ContractPath) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    /// Whether `path` is an immutable contract file (any contract file but a manifest).
    pub fn is_immutable(&self, path: &ContractPath) -> bool {
        self.files.contains_key(path) && Manifest::of(path).is_none()
    }
}

/// What the audit derives from a contract once.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    /// Assertions with literal inputs and one expected literal.
    pub expectations: Vec<Expectation>,
    /// The spec files' text, lower case.
    pub spec: String,
    /// Baseline dependencies (normalised).
    pub deps: BTreeSet<String>,
    /// Modules the contract's tests import (normalised).
    pub test_imports: BTreeSet<String>,
    /// Names of the contract's files and directories (normalised), plus its Cargo package names.
    pub local_names: BTreeSet<String>,
}

impl Facts {
    pub(crate) fn of(contract: &Contract) -> Facts {
        let mut facts = Facts::default();
        for (path, text) in contract.files() {
            facts.local_names.extend(path_names(path));
            if let Some(manifest) = Manifest::of(path) {
                let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
                facts.deps.extend(
                    deps::declared(manifest, lines, true)
                        .into_iter()
                        .map(|d| d.name),
                );
                if manifest == Manifest::CargoToml {
                    facts.local_names.extend(deps::cargo_package_names(text));
                }
            } else if let Some(lang) = Language::of(path.as_str()) {
                facts
                    .expectations
                    .extend(hardcode::expectations(lang, text));
                let mut lexer = Lexer::new(lang);
                for line in text.lines() {
                    let tokens = lexer.line(line);
                    facts.test_imports.extend(
                        imports::imports(lang, &tokens)
                            .iter()
                            .map(|m| deps::norm(m)),
                    );
                }
            } else {
                facts.spec.push_str(&text.to_ascii_lowercase());
                facts.spec.push('\n');
            }
        }
        facts
    }
}

/// The normalised directory names and file stems of a path (local module candidates).
pub(crate) fn path_names(path: &ContractPath) -> impl Iterator<Item = String> + '_ {
    path.as_str()
        .split('/')
        .map(|segment| deps::norm(segment.split('.').next().unwrap_or(segment)))
}

/// Whether a path is a test file by the usual conventions: a `test`/`tests`/`__tests__`/
/// `spec`/`__mocks__` directory, `test_*.py`, `*_test.py`, `conftest.py`, `*.test.ts`,
/// `*.spec.js`, `setupTests.ts`, `*_test.rs`, or a stem ending in `_tests` (the seed's
/// `tmp/pair_<ts>_tests.py`).
pub fn is_test_path(path: &ContractPath) -> bool {
    let s = path.as_str();
    let mut segments: Vec<&str> = s.split('/').collect();
    let name = segments.pop().unwrap_or(s);
    if segments.iter().any(|d| {
        matches!(
            *d,
            "test" | "tests" | "__tests__" | "spec" | "__mocks__" | "benches"
        )
    }) {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || matches!(
            stem,
            "conftest" | "tests" | "setupTests" | "jest" | "vitest"
        )
        || name.contains(".test.")
        || name.contains(".spec.")
}
