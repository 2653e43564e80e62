//! Which member names name a secret, and which values are placeholders rather than secrets.

/// Last words that name a secret on their own.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passwort",
    "pwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "privatekey",
    "credential",
    "credentials",
    "creds",
    "authorization",
];

/// Words before `token` that make it something else than a credential (a page cursor, a
/// count, an anti-forgery value meant for the page).
const NOT_A_CREDENTIAL_TOKEN: &[&str] = &[
    "page",
    "next",
    "prev",
    "previous",
    "continuation",
    "cursor",
    "pagination",
    "sync",
    "resume",
    "csrf",
    "xsrf",
    "public",
    "max",
    "min",
    "total",
    "num",
    "input",
    "output",
    "count",
];

/// Words before `key` that make it a secret key (`key` alone is any key: a map key, a
/// keyboard key, an idempotency key).
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "priv",
    "client",
    "auth",
    "app",
    "application",
    "service",
    "account",
    "signing",
    "encryption",
    "master",
    "db",
    "database",
    "session",
    "ssh",
    "license",
    "consumer",
    "webhook",
    "bot",
    "subscription",
    "storage",
    "deploy",
    "gpg",
    "pgp",
    "hmac",
    "jwt",
    "admin",
    "root",
];

/// Words before `pass` that make it a password (`pass` alone is a verdict: `"pass": true`).
const PASS_QUALIFIERS: &[&str] = &[
    "db", "database", "user", "admin", "root", "smtp", "ftp", "mail", "key", "login", "ssh",
    "proxy", "redis", "mysql", "postgres", "ldap",
];

/// The words of a name, lower-cased: split at separators (anything but letters and digits)
/// and at camelCase humps (`apiKey`, `APIKey`); trailing digits dropped (`password2`).
fn words(name: &str) -> Vec<String> {
    let b = name.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let hump = c.is_ascii_uppercase()
            && i > 0
            && (b[i - 1].is_ascii_lowercase()
                || b[i - 1].is_ascii_digit()
                || (b[i - 1].is_ascii_uppercase()
                    && b.get(i + 1).is_some_and(u8::is_ascii_lowercase)));
        if hump && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(char::from(c.to_ascii_lowercase()));
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    if let Some(last) = out.last_mut() {
        let kept = last.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        last.truncate(kept);
        if last.is_empty() {
            out.pop();
        }
    }
    out
}

/// Whether a member (or assignment) name names a secret: its last word is one of
/// `password`, `passwd`, `pwd`, `passphrase`, `secret`, `token`, `apikey`, `privatekey`,
/// `credential(s)`, `creds`, `authorization`, or `key` / `pass` after a qualifying word
/// (`api_key`, `privateKey`, `DB_PASS`), or one lower-case word ending so (`accesstoken`,
/// `clientsecret`, `apikey`). Names with characters other than letters, digits, `_`, `-`,
/// `.` and spaces are not names of this kind.
#[must_use]
pub fn is_secret_name(name: &str) -> bool {
    // Most names end in no secret's word: decided here, before splitting into words.
    let mut bare = name.as_bytes();
    while let [rest @ .., b'0'..=b'9'] = bare {
        bare = rest;
    }
    let endings: &[&str] = match bare.last().map(u8::to_ascii_lowercase) {
        Some(b'd') => &["password", "passwd", "pwd"],
        Some(b't') => &["passwort", "secret"],
        Some(b'e') => &["phrase"],
        Some(b'n') => &["token", "authorization"],
        Some(b'y') => &["key"],
        Some(b's') => &["pass", "entials", "creds"],
        Some(b'l') => &["ential"],
        _ => return false,
    };
    let ends = |w: &&str| {
        bare.len() >= w.len() && bare[bare.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
    };
    if !endings.iter().any(ends) {
        return false;
    }
    let ident = name
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b' '));
    if !ident || name.len() > 64 {
        return false;
    }
    let words = words(name);
    let Some(last) = words.last() else {
        return false;
    };
    let prev = words.len().checked_sub(2).map(|i| words[i].as_str());
    secret_word(last, prev)
}

/// Whether `last` (after `prev`) names a secret, also as one compound word.
fn secret_word(last: &str, prev: Option<&str>) -> bool {
    let token_ok = |p: Option<&str>| !p.is_some_and(|p| NOT_A_CREDENTIAL_TOKEN.contains(&p));
    match last {
        "token" => return token_ok(prev),
        "key" => return prev.is_some_and(|p| KEY_QUALIFIERS.contains(&p)),
        "pass" => return prev.is_some_and(|p| PASS_QUALIFIERS.contains(&p)),
        w if SECRET_WORDS.contains(&w) => return true,
        _ => {}
    }
    // One word holding a qualifier and the secret's word: `accesstoken`, `apikey`.
    for (suffix, qualifiers) in [("key", KEY_QUALIFIERS), ("pass", PASS_QUALIFIERS)] {
        if let Some(head) = last.strip_suffix(suffix) {
            if qualifiers.contains(&head) {
                return true;
            }
        }
    }
    ["token", "secret", "password", "passwd"].iter().any(|w| {
        last.strip_suffix(w)
            .is_some_and(|head| !head.is_empty() && (*w != "token" || token_ok(Some(head))))
    })
}

/// Values that are documentation, not secrets (lower-case; compared case-insensitively).
const PLACEHOLDER_WORDS: &[&str] = &[
    "true",
    "false",
    "null",
    "none",
    "nil",
    "undefined",
    "n/a",
    "na",
    "tbd",
    "todo",
    "required",
    "optional",
    "hidden",
    "redacted",
    "masked",
    "removed",
    "omitted",
    "secret",
    "secrets",
    "password",
    "passwd",
    "pwd",
    "pass",
    "token",
    "apikey",
    "api_key",
    "changeme",
    "change_me",
    "changeit",
    "test",
    "testing",
    "string",
    "value",
    "default",
    "unset",
    "empty",
    "foo",
    "bar",
    "bearer",
    "basic",
];

/// Starts of references to a secret kept elsewhere (a variable, a template, a vault path).
const REFERENCE_STARTS: &[&str] = &[
    "$",
    "%",
    "<",
    "[",
    "{",
    "env:",
    "vault:",
    "secret:",
    "secrets:",
    "ssm:",
    "arn:",
    "op://",
    "sm://",
    "file:",
    "keychain:",
    "process.env",
    "os.environ",
    "env[",
];

/// Words inside a value that mark it as a stand-in.
const STAND_IN_WORDS: &[&str] = &[
    "redacted",
    "example",
    "placeholder",
    "dummy",
    "changeme",
    "***",
    "•••",
];

/// Whether a value (trimmed, without whitespace) is a placeholder rather than a secret:
/// a placeholder word (`true`, `none`, `changeme`, `redacted` …), one character repeated
/// (`****`, `xxxx`), a reference (`$VAR`, `${VAR}`, `%VAR%`, `<password>`, `[REDACTED]`,
/// `{{ secret }}`, `env:`, `vault:`, `arn:` …), a value holding `redacted`, `example`,
/// `placeholder`, `dummy`, `***`, an environment variable name (`GITHUB_TOKEN`), an
/// upper-case word (`NONE`), or `your…` (`your_api_key_here`).
#[must_use]
pub fn is_placeholder(value: &str) -> bool {
    if value.is_empty() {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    if PLACEHOLDER_WORDS.contains(&lower.as_str()) {
        return true;
    }
    let mut chars = value.chars();
    let first = chars.next();
    if first.is_some_and(|f| chars.all(|c| c == f)) {
        return true;
    }
    if REFERENCE_STARTS.iter().any(|s| lower.starts_with(s))
        || STAND_IN_WORDS.iter().any(|w| lower.contains(w))
        || lower.starts_with("your")
    {
        return true;
    }
    let b = value.as_bytes();
    let env_name = b[0].is_ascii_uppercase()
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_');
    env_name && (value.contains('_') || b.iter().all(u8::is_ascii_uppercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_separators_and_humps() {
        assert_eq!(words("apiKey"), ["api", "key"]);
        assert_eq!(words("APIKey"), ["api", "key"]);
        assert_eq!(words("DB_PASSWORD"), ["db", "password"]);
        assert_eq!(words("x-api-key"), ["x", "api", "key"]);
        assert_eq!(words("password2"), ["password"]);
        assert_eq!(words("client.secret"), ["client", "secret"]);
    }

    #[test]
    fn secret_names() {
        for name in [
            "password",
            "Password",
            "PASSWORD",
            "db_password",
            "dbPassword",
            "passwd",
            "pwd",
            "secret",
            "client_secret",
            "clientSecret",
            "token",
            "access_token",
            "accessToken",
            "refresh_token",
            "GITHUB_TOKEN",
            "api_key",
            "apiKey",
            "API_KEY",
            "apikey",
            "x-api-key",
            "private_key",
            "privateKey",
            "secret_key",
            "aws_secret_access_key",
            "credentials",
            "authorization",
            "Authorization",
            "db_pass",
            "accesstoken",
            "clientsecret",
            "passphrase",
            "password2",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            "pass",
            "key",
            "keys",
            "token_count",
            "max_tokens",
            "tokens",
            "token_type",
            "next_page_token",
            "pageToken",
            "csrf_token",
            "secret_name",
            "password_hash",
            "api_key_id",
            "monkey",
            "turkey",
            "hotkey",
            "authorized_files",
            "author",
            "idempotency_key",
            "primary_key",
            "password reset link?",
            "",
            "requestId",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[test]
    fn placeholders() {
        for v in [
            "****",
            "xxxxxxxx",
            "<redacted>",
            "<password>",
            "[REDACTED]",
            "REDACTED",
            "${DB_PASSWORD}",
            "$DB_PASSWORD",
            "%API_KEY%",
            "{{ secrets.TOKEN }}",
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "changeme",
            "your_api_key_here",
            "YOUR_TOKEN",
            "env:API_KEY",
            "vault:secret/data/db",
            "arn:aws:secretsmanager:us-east-1:123:secret:x",
            "none",
            "null",
            "sk-example-key",
            "••••••",
            "abc***xyz",
        ] {
            assert!(is_placeholder(v), "{v}");
        }
        for v in [
            "hunter22",
            "S3cr3t!pass",
            "a1b2c3d4e5",
            "550e8400-e29b-41d4-a716-446655440000",
            "Tr0ub4dor&3",
            "HUNTER2XYZ",
        ] {
            assert!(!is_placeholder(v), "{v}");
        }
    }
}
