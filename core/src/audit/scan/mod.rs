//! Runs the pattern table over a diff: each file's hunks are lexed once per side, then every
//! [`Rule`] reads the lines it needs.

mod dependencies;

use super::contract::{is_test_path, path_names, Contract, Facts};
use super::deps;
use super::diff::{ChangeKind, Diff, DiffLine, FileChange, LineKind};
use super::hardcode::{self, Lit};
use super::lexer::{self, Language, Lexer, Token};
use super::patterns::{Handler, Needles, PatternSpec, Rule, Scope, PATTERNS};
use super::report::{Finding, Location, Side};
use dependencies::{new_dependency, new_import};
use std::collections::BTreeSet;

/// One lexed line of one side of a hunk.
struct ViewLine<'a> {
    line: &'a DiffLine,
    /// Position in the file's lines (for ordering findings).
    ordinal: usize,
    tokens: Vec<Token>,
    norm: String,
    /// Inside a Rust `mod tests` region.
    in_test: bool,
}

/// A hunk's two sides: new (context + added) and old (context + removed).
struct HunkView<'a> {
    new: Vec<ViewLine<'a>>,
    old: Vec<ViewLine<'a>>,
}

struct FileView<'a> {
    file: &'a FileChange,
    lang: Option<Language>,
    test_file: bool,
    hunks: Vec<HunkView<'a>>,
}

impl<'a> FileView<'a> {
    fn new(file: &'a FileChange) -> FileView<'a> {
        let lang = Language::of(file.new_path.as_str());
        let mut ordinal = 0;
        let hunks = file
            .hunks
            .iter()
            .map(|h| {
                let in_test = h
                    .section
                    .as_deref()
                    .is_some_and(|s| s.contains("mod tests") || s.contains("mod test "));
                let mut sides = (Vec::new(), Vec::new());
                let mut lexers = lang.map(|l| (Lexer::new(l), Lexer::new(l)));
                let mut regions = (in_test, in_test);
                for line in &h.lines {
                    let sides_of = match line.kind {
                        LineKind::Context => [true, true],
                        LineKind::Added => [true, false],
                        LineKind::Removed => [false, true],
                    };
                    for (is_new, on) in [(true, sides_of[0]), (false, sides_of[1])] {
                        if !on {
                            continue;
                        }
                        let tokens = match &mut lexers {
                            Some((n, o)) => (if is_new { n } else { o }).line(&line.text),
                            None => Vec::new(),
                        };
                        let norm = lexer::normal(&tokens);
                        let region = if is_new {
                            &mut regions.0
                        } else {
                            &mut regions.1
                        };
                        if lang == Some(Language::Rust)
                            && (norm.starts_with("mod tests") || norm.starts_with("mod test{"))
                        {
                            *region = true;
                        }
                        let view = ViewLine {
                            line,
                            ordinal,
                            tokens,
                            norm,
                            in_test: *region,
                        };
                        if is_new {
                            sides.0.push(view);
                        } else {
                            sides.1.push(view);
                        }
                    }
                    ordinal += 1;
                }
                HunkView {
                    new: sides.0,
                    old: sides.1,
                }
            })
            .collect();
        FileView {
            file,
            lang,
            test_file: is_test_path(&file.new_path) || is_test_path(&file.old_path),
            hunks,
        }
    }

    /// Whether a line is implementation code (not a test file, not a Rust test region).
    fn implementation(&self, line: &ViewLine<'_>) -> bool {
        !self.test_file && !line.in_test
    }
}

/// A finding with its sort key.
struct Hit {
    file: usize,
    ordinal: usize,
    pattern: usize,
    finding: Finding,
}

struct Ctx<'a> {
    contract: &'a Contract,
    facts: &'a Facts,
    approved: &'a BTreeSet<String>,
    /// Normalised code of every added line in the diff (a removed check added back is moved).
    added_norms: BTreeSet<String>,
    /// Local module names: contract and diff paths, Rust `mod` declarations.
    local: BTreeSet<String>,
    hits: Vec<Hit>,
}

pub(crate) fn run(
    contract: &Contract,
    facts: &Facts,
    diff: &Diff,
    approved: &BTreeSet<String>,
) -> Vec<Finding> {
    let views: Vec<FileView<'_>> = diff.files.iter().map(FileView::new).collect();
    let mut local = facts.local_names.clone();
    let mut added_norms = BTreeSet::new();
    for view in &views {
        local.extend(path_names(&view.file.old_path));
        local.extend(path_names(&view.file.new_path));
        for line in view
            .hunks
            .iter()
            .flat_map(|h| &h.new)
            .filter(|l| l.line.kind == LineKind::Added)
        {
            added_norms.insert(line.norm.clone());
            if let [m, Token::Word(name), ..] = line.tokens.as_slice() {
                if m.is_word("mod") {
                    local.insert(deps::norm(name));
                }
            }
        }
    }
    let mut ctx = Ctx {
        contract,
        facts,
        approved,
        added_norms,
        local,
        hits: Vec::new(),
    };
    let contract_file = |file: &FileChange| {
        contract.is_immutable(&file.old_path) && file.kind != ChangeKind::Copied
            || contract.is_immutable(&file.new_path)
    };
    // Manifests first, so an import of a dependency already reported is not reported again.
    let mut flagged_deps = BTreeSet::new();
    for manifests_pass in [true, false] {
        for (file_index, view) in views.iter().enumerate() {
            let contract_file = contract_file(view.file);
            for (pattern, spec) in PATTERNS.iter().enumerate() {
                if matches!(spec.rule, Rule::NewDependency) != manifests_pass {
                    continue;
                }
                let hits = match &spec.rule {
                    Rule::ContractEdit if contract_file => {
                        contract_edit(spec, view.file).into_iter().collect()
                    }
                    _ if contract_file => Vec::new(),
                    Rule::ContractEdit | Rule::ContractSyntax => Vec::new(),
                    Rule::Added {
                        scope,
                        needles,
                        unless_next,
                    } => added(spec, view, *scope, needles, unless_next),
                    Rule::EnvRead { forms, names } => env_read(spec, view, forms, names),
                    Rule::EmptyHandler(handlers) => empty_handler(spec, view, handlers),
                    Rule::Removed { needles, except } => {
                        removed(spec, view, needles, except, &ctx.added_norms)
                    }
                    Rule::HardcodedExpectation => hardcoded(spec, view, ctx.facts),
                    Rule::NewDependency => new_dependency(spec, view, &ctx, &mut flagged_deps),
                    Rule::NewImport => new_import(spec, view, &ctx, &flagged_deps),
                };
                ctx.hits
                    .extend(hits.into_iter().map(|(ordinal, finding)| Hit {
                        file: file_index,
                        ordinal,
                        pattern,
                        finding,
                    }));
            }
        }
    }
    let mut hits = ctx.hits;
    hits.sort_by_key(|h| (h.file, h.ordinal, h.pattern));
    hits.into_iter().map(|h| h.finding).collect()
}

fn finding(spec: &PatternSpec, file: &FileChange, line: &DiffLine, detail: String) -> Finding {
    let side = if line.kind == LineKind::Removed {
        Side::Old
    } else {
        Side::New
    };
    Finding {
        kind: spec.kind,
        severity: spec.severity,
        description: format!("{}: {detail}", spec.title),
        location: Location {
            path: file.path(line.kind).to_string(),
            line: line.number(),
        },
        code: spec.code,
        pattern: spec.id,
        side,
    }
}

/// The line's source, trimmed, for descriptions.
fn quote(line: &DiffLine) -> String {
    let text = line.text.trim();
    let short: String = text.chars().take(120).collect();
    if short.len() < text.len() {
        format!("`{short}…`")
    } else {
        format!("`{short}`")
    }
}

fn needles_for(needles: &'static [Needles], lang: Option<Language>) -> &'static [&'static str] {
    needles
        .iter()
        .find(|n| Some(n.lang) == lang)
        .map_or(&[], |n| n.any)
}

fn contract_edit(spec: &PatternSpec, file: &FileChange) -> Option<(usize, Finding)> {
    let what = match file.kind {
        ChangeKind::Added => "created at a contract path",
        ChangeKind::Deleted => "deleted",
        ChangeKind::Modified => "modified",
        ChangeKind::Renamed => "renamed away",
        ChangeKind::Copied => "overwritten by a copy",
    };
    let first = file
        .lines()
        .enumerate()
        .find(|(_, l)| l.kind != LineKind::Context);
    let detail = format!("contract file {} {what}", file.old_path);
    Some(match first {
        Some((ordinal, line)) => (
            ordinal,
            finding(spec, file, line, format!("{detail} at {}", quote(line))),
        ),
        None => {
            // Header-only (mode, rename, binary): no content line, so line 1 of the contract
            // path (old side when the file left it).
            let gone = matches!(file.kind, ChangeKind::Deleted | ChangeKind::Renamed);
            let kind = if gone {
                LineKind::Removed
            } else {
                LineKind::Added
            };
            let line = DiffLine {
                kind,
                old_line: Some(1),
                new_line: (!gone).then_some(1),
                text: String::new(),
                no_newline: false,
            };
            let detail = format!("{detail} (no content line: mode, rename or binary change)");
            (0, finding(spec, file, &line, detail))
        }
    })
}

/// The code after `needle` on its line, else the next non-blank line's code.
fn following<'l>(lines: &'l [ViewLine<'_>], at: usize, needle: &str) -> &'l str {
    let norm = &lines[at].norm;
    let core = needle.trim_matches('*');
    if let Some(pos) = norm.find(core) {
        let rest = &norm[pos + core.len()..];
        if !rest.is_empty() {
            return rest;
        }
    }
    lines[at + 1..]
        .iter()
        .map(|l| l.norm.as_str())
        .find(|n| !n.is_empty())
        .unwrap_or("")
}

fn added(
    spec: &PatternSpec,
    view: &FileView<'_>,
    scope: Scope,
    needles: &'static [Needles],
    unless_next: &[&str],
) -> Vec<(usize, Finding)> {
    let needles = needles_for(needles, view.lang);
    let mut out = Vec::new();
    for hunk in &view.hunks {
        for (i, line) in hunk.new.iter().enumerate() {
            if line.line.kind != LineKind::Added
                || (scope == Scope::NonTest && !view.implementation(line))
            {
                continue;
            }
            let hit = needles.iter().find(|n| {
                lexer::contains(&line.norm, n)
                    && !unless_next
                        .iter()
                        .any(|u| following(&hunk.new, i, n).starts_with(u))
            });
            if let Some(needle) = hit {
                let detail = format!(
                    "{} matches `{}`",
                    quote(line.line),
                    needle.trim_matches('*')
                );
                out.push((line.ordinal, finding(spec, view.file, line.line, detail)));
            }
        }
    }
    out
}

fn env_read(
    spec: &PatternSpec,
    view: &FileView<'_>,
    forms: &'static [Needles],
    names: &[&str],
) -> Vec<(usize, Finding)> {
    // Every form of every name, spelled out once (not once per line).
    let forms = needles_for(forms, view.lang);
    let spelled: Vec<(&str, Vec<String>)> = names
        .iter()
        .map(|name| (*name, forms.iter().map(|f| f.replace("{}", name)).collect()))
        .collect();
    let mut out = Vec::new();
    for line in view.hunks.iter().flat_map(|h| &h.new) {
        if line.line.kind != LineKind::Added || !view.implementation(line) {
            continue;
        }
        let hit = spelled.iter().find_map(|(name, needles)| {
            needles
                .iter()
                .any(|n| lexer::contains(&line.norm, n))
                .then_some(*name)
        });
        if let Some(name) = hit {
            let detail = format!(
                "{} reads the test-run variable {}",
                quote(line.line),
                name.to_ascii_uppercase()
            );
            out.push((line.ordinal, finding(spec, view.file, line.line, detail)));
        }
    }
    out
}

fn empty_handler(
    spec: &PatternSpec,
    view: &FileView<'_>,
    handlers: &[Handler],
) -> Vec<(usize, Finding)> {
    let mut out = Vec::new();
    for hunk in &view.hunks {
        for (i, line) in hunk.new.iter().enumerate() {
            if !view.implementation(line) {
                continue;
            }
            let trimmed = line.norm.trim_end_matches([';', ',']);
            for h in handlers
                .iter()
                .filter(|h| Some(h.lang) == view.lang && lexer::contains(&line.norm, h.opener))
            {
                let inline = h.inline_empty.iter().any(|e| trimmed.ends_with(e));
                let body = hunk.new[i + 1..].iter().find(|l| !l.norm.is_empty());
                let block = !inline
                    && !h.block_open.is_empty()
                    && trimmed.ends_with(h.block_open)
                    && body.is_some_and(|b| {
                        h.block_empty.contains(&b.norm.trim_end_matches([';', ',']))
                    });
                let at = match (inline, block) {
                    (true, _) if line.line.kind == LineKind::Added => Some(line),
                    (_, true) if line.line.kind == LineKind::Added => Some(line),
                    (_, true) => body.filter(|b| b.line.kind == LineKind::Added),
                    _ => None,
                };
                if let Some(at) = at {
                    let detail = format!(
                        "{} swallows the error (empty handler body)",
                        quote(line.line)
                    );
                    out.push((at.ordinal, finding(spec, view.file, at.line, detail)));
                    break;
                }
            }
        }
    }
    out
}

fn removed(
    spec: &PatternSpec,
    view: &FileView<'_>,
    needles: &'static [Needles],
    except: &[&str],
    added_norms: &BTreeSet<String>,
) -> Vec<(usize, Finding)> {
    let needles = needles_for(needles, view.lang);
    let mut out = Vec::new();
    for hunk in &view.hunks {
        let mut rewritten_by_needle = vec![None; needles.len()];
        for line in &hunk.old {
            let stub = except.iter().any(|e| lexer::contains(&line.norm, e));
            if line.line.kind != LineKind::Removed
                || !view.implementation(line)
                || stub
                || added_norms.contains(&line.norm)
            {
                continue;
            }
            let hit = needles.iter().position(|n| lexer::contains(&line.norm, n));
            let Some(needle) = hit else { continue };
            // Whether the hunk adds the needle again depends on the needle alone: asked once
            // per hunk and needle, so many removed checks do not rescan the hunk each.
            let rewritten = *rewritten_by_needle[needle].get_or_insert_with(|| {
                hunk.new.iter().any(|l| {
                    l.line.kind == LineKind::Added && lexer::contains(&l.norm, needles[needle])
                })
            });
            if !rewritten {
                let detail = format!("{} was deleted and not replaced", quote(line.line));
                out.push((line.ordinal, finding(spec, view.file, line.line, detail)));
            }
        }
    }
    out
}

fn hardcoded(spec: &PatternSpec, view: &FileView<'_>, facts: &Facts) -> Vec<(usize, Finding)> {
    let mut out = Vec::new();
    for hunk in &view.hunks {
        for (i, line) in hunk.new.iter().enumerate() {
            if line.line.kind != LineKind::Added || !view.implementation(line) {
                continue;
            }
            // Each step is linear in the line: branches and keys are found once per line,
            // each distinct literal is tried once, and what the next lines yield is read once.
            let branchy = hardcode::branches(&line.tokens);
            let keys = if branchy {
                BTreeSet::new()
            } else {
                hardcode::keyed(&line.tokens)
            };
            let mut tried = BTreeSet::new();
            let mut yields: Option<Vec<Lit>> = None;
            let mut hit = None;
            for a in hardcode::literals(&line.tokens) {
                if a.is_trivial() || !(branchy || keys.contains(&a)) || !tried.insert(a.clone()) {
                    continue;
                }
                let mut matching = facts.expectations.iter().filter(|e| {
                    e.inputs.contains(&a)
                        && e.expected != a
                        && !spec_names(&facts.spec, &a, &e.expected)
                });
                let found = matching.find(|e| {
                    yields
                        .get_or_insert_with(|| {
                            hunk.new[i..]
                                .iter()
                                .take(4)
                                .flat_map(|l| hardcode::yielded(&l.tokens))
                                .collect()
                        })
                        .contains(&e.expected)
                });
                if let Some(e) = found {
                    hit = Some((a.clone(), e.expected.clone()));
                    break;
                }
            }
            if let Some((input, expected)) = hit {
                let detail = format!(
                    "{} branches on the test input {input} and yields the expected {expected}",
                    quote(line.line)
                );
                out.push((line.ordinal, finding(spec, view.file, line.line, detail)));
            }
        }
    }
    out
}

/// Whether the spec names the mapping (both literals; booleans and null need only the input).
fn spec_names(spec: &str, input: &Lit, expected: &Lit) -> bool {
    let named = |l: &Lit| spec.contains(&l.text().to_ascii_lowercase());
    named(input) && (matches!(expected, Lit::Bool(_) | Lit::Null) || named(expected))
}
