//! File-pattern matching as Agent Mail reservations and task scopes use it: `**` any run of
//! characters, `*` any run without `/`, `?` one character other than `/`.

/// Whether `text` matches `pattern`. Time is proportional to pattern length × text length,
/// whatever the pattern (patterns come from other agents).
#[must_use]
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let text = text.as_bytes();
    let n = text.len();
    // `rest[j]`: whether the pattern after the current token matches `text[j..]`, built
    // from the pattern's end; with no pattern left only the empty text matches.
    let mut rest: Vec<bool> = (0..=n).map(|j| j == n).collect();
    let mut here = vec![false; n + 1];
    let mut tokens = pattern.as_bytes();
    while let Some((&last, before)) = tokens.split_last() {
        let any_run = last == b'*' && before.last() == Some(&b'*');
        tokens = if any_run {
            &before[..before.len() - 1]
        } else {
            before
        };
        for j in (0..=n).rev() {
            let c = text.get(j).copied();
            here[j] = match last {
                b'*' => rest[j] || (c.is_some_and(|c| any_run || c != b'/') && here[j + 1]),
                b'?' => c.is_some_and(|c| c != b'/') && rest[j + 1],
                _ => c == Some(last) && rest[j + 1],
            };
        }
        std::mem::swap(&mut rest, &mut here);
    }
    rest[0]
}

/// Whether two patterns can name the same file: equal, or one matches the other taken as a
/// path.
#[must_use]
pub fn patterns_overlap(a: &str, b: &str) -> bool {
    a == b || glob_match(a, b) || glob_match(b, a)
}

/// Whether `path` is in the scope `patterns` give (a task's files): named by one or matched by
/// one, a leading `./` on either ignored.
#[must_use]
pub fn in_scope<S: AsRef<str>>(patterns: &[S], path: &str) -> bool {
    let path = path.trim_start_matches("./");
    patterns.iter().any(|p| {
        let p = p.as_ref().trim_start_matches("./");
        p == path || glob_match(p, path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("src/api/*.py", "src/api/users.py"));
        assert!(!glob_match("src/api/*.py", "src/api/v2/users.py"));
        assert!(glob_match("src/**", "src/api/v2/users.py"));
        assert!(glob_match("src/**/*.tsx", "src/a/b/c.tsx"));
        assert!(glob_match("a?c", "abc"));
        assert!(!glob_match("a?c", "a/c"));
        assert!(patterns_overlap(
            "src/frontend/auth/**/*.ts",
            "src/frontend/auth/login/form.ts"
        ));
        assert!(!patterns_overlap("src/a/*.ts", "src/b/*.ts"));
        assert!(in_scope(&["./src/**"], "src/a.ts"));
        assert!(in_scope(&["src/a.ts"], "./src/a.ts"));
        assert!(!in_scope(&["src/*.ts"], "src/a/b.ts"));
        assert!(!in_scope::<&str>(&[], "src/a.ts"));
    }
}
