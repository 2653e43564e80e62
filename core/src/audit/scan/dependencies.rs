//! The dependency rules: entries added to manifests and imports of third-party modules,
//! against the contract's baseline and the approved change orders.

use super::{finding, quote, Ctx, FileView};
use crate::audit::deps::{self, Manifest};
use crate::audit::diff::{ChangeKind, FileChange, LineKind};
use crate::audit::imports;
use crate::audit::patterns::PatternSpec;
use crate::audit::report::Finding;
use std::collections::BTreeSet;

pub(super) fn new_dependency(
    spec: &PatternSpec,
    view: &FileView<'_>,
    ctx: &Ctx<'_>,
    flagged: &mut BTreeSet<String>,
) -> Vec<(usize, Finding)> {
    let file = view.file;
    let Some(manifest) = Manifest::of(&file.new_path) else {
        return Vec::new();
    };
    if file.kind == ChangeKind::Deleted {
        return Vec::new();
    }
    let declared = manifest_entries(manifest, file, ctx.contract.get(&file.old_path));
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for dep in declared {
        let line = file
            .lines()
            .enumerate()
            .find(|(_, l)| l.kind == LineKind::Added && l.new_line == Some(dep.line));
        let Some((ordinal, line)) = line else {
            continue;
        };
        if ctx.facts.deps.contains(&dep.name)
            || ctx.approved.contains(&dep.name)
            || !seen.insert(dep.name.clone())
        {
            continue;
        }
        flagged.insert(dep.name.clone());
        let detail = format!(
            "{} adds `{}`, which the contract's baseline does not list and no accepted change order approves",
            quote(line),
            dep.written
        );
        out.push((ordinal, finding(spec, file, line, detail)));
    }
    out
}

/// The entries of a changed manifest, numbered on the new side: the whole new file when the
/// baseline applies (or the file is new), else each hunk's visible lines.
fn manifest_entries(
    manifest: Manifest,
    file: &FileChange,
    baseline: Option<&str>,
) -> Vec<deps::Dep> {
    if file.kind == ChangeKind::Added {
        let lines = file
            .lines()
            .filter_map(|l| l.new_line.map(|n| (n, l.text.as_str())));
        return deps::declared(manifest, lines, true);
    }
    if let Some(new_text) = baseline.and_then(|b| apply(b, file)) {
        let lines = new_text
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, l.as_str()));
        return deps::declared(manifest, lines, true);
    }
    file.hunks
        .iter()
        .flat_map(|h| {
            let lines = h
                .lines
                .iter()
                .filter_map(|l| l.new_line.map(|n| (n, l.text.as_str())));
            deps::declared(manifest, lines, h.new_start <= 1)
        })
        .collect()
}

/// The new file's lines: `baseline` with the hunks applied; `None` when they do not apply.
fn apply(baseline: &str, file: &FileChange) -> Option<Vec<String>> {
    let old: Vec<&str> = baseline.lines().collect();
    let mut out = Vec::new();
    let mut cursor = 0;
    for hunk in &file.hunks {
        let has_old = hunk.lines.iter().any(|l| l.kind != LineKind::Added);
        let start = if has_old {
            hunk.old_start.checked_sub(1)?
        } else {
            hunk.old_start
        };
        if start < cursor || start > old.len() {
            return None;
        }
        out.extend(old[cursor..start].iter().map(|s| (*s).to_owned()));
        cursor = start;
        for line in &hunk.lines {
            match line.kind {
                LineKind::Added => out.push(line.text.clone()),
                LineKind::Context | LineKind::Removed => {
                    if old.get(cursor).map(|s| s.trim_end_matches('\r')) != Some(line.text.as_str())
                    {
                        return None;
                    }
                    if line.kind == LineKind::Context {
                        out.push(line.text.clone());
                    }
                    cursor += 1;
                }
            }
        }
    }
    out.extend(old[cursor.min(old.len())..].iter().map(|s| (*s).to_owned()));
    Some(out)
}

pub(super) fn new_import(
    spec: &PatternSpec,
    view: &FileView<'_>,
    ctx: &Ctx<'_>,
    flagged: &BTreeSet<String>,
) -> Vec<(usize, Finding)> {
    let Some(lang) = view.lang else {
        return Vec::new();
    };
    let provided = |d: &String| imports::provided_modules(d).collect::<Vec<_>>();
    let allowed: BTreeSet<String> = ctx
        .facts
        .deps
        .iter()
        .chain(ctx.approved)
        .chain(flagged)
        .flat_map(provided)
        .chain(ctx.facts.test_imports.iter().cloned())
        .chain(ctx.local.iter().cloned())
        .collect();
    let mut out = Vec::new();
    for line in view.hunks.iter().flat_map(|h| &h.new) {
        if line.line.kind != LineKind::Added {
            continue;
        }
        let module = imports::imports(lang, &line.tokens)
            .into_iter()
            .find(|m| !allowed.contains(&deps::norm(m)));
        if let Some(module) = module {
            let detail = format!(
                "{} imports the third-party module `{module}`, which no baseline or approved dependency provides",
                quote(line.line)
            );
            out.push((line.ordinal, finding(spec, view.file, line.line, detail)));
        }
    }
    out
}
