//! The detector table: every kind of secret the validator reports, as data. `docs/protocol.md`
//! ("Secrets in messages") prints it with each row's false-positive rules; the tests check the
//! two agree.

/// The characters a token's body may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// `[A-Z0-9]`.
    UpperDigit,
    /// `[A-Za-z0-9]`.
    Alnum,
    /// `[A-Za-z0-9_]`.
    Word,
    /// `[A-Za-z0-9_-]`.
    WordDash,
    /// `[A-Za-z0-9+/]` (base64 without padding).
    Base64,
}

impl Charset {
    /// Whether `b` belongs to the set.
    #[must_use]
    pub const fn has(self, b: u8) -> bool {
        match self {
            Charset::UpperDigit => b.is_ascii_uppercase() || b.is_ascii_digit(),
            Charset::Alnum => b.is_ascii_alphanumeric(),
            Charset::Word => b.is_ascii_alphanumeric() || b == b'_',
            Charset::WordDash => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Charset::Base64 => b.is_ascii_alphanumeric() || b == b'+' || b == b'/',
        }
    }

    /// The set as a regular-expression class, for the documentation.
    #[must_use]
    pub const fn regex(self) -> &'static str {
        match self {
            Charset::UpperDigit => "[A-Z0-9]",
            Charset::Alnum => "[A-Za-z0-9]",
            Charset::Word => "[A-Za-z0-9_]",
            Charset::WordDash => "[A-Za-z0-9_-]",
            Charset::Base64 => "[A-Za-z0-9+/]",
        }
    }
}

/// One shape of a provider token: a fixed public prefix and a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Form {
    /// The provider's prefix (shown in the mask: it names the kind, not the secret).
    pub prefix: &'static str,
    /// The body's characters.
    pub body: Charset,
    /// Fewest body characters.
    pub min: usize,
    /// Most body characters.
    pub max: usize,
    /// Whether the body must hold a digit (tokens are random; words are not).
    pub digit: bool,
}

/// How a detector recognises its secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// A provider token: one of the forms, starting at a word boundary (the character before
    /// is not `[A-Za-z0-9_]`) and ending at one (the body is the longest run of its set, and
    /// the character after it is not `[A-Za-z0-9_]`).
    Prefixed(&'static [Form]),
    /// A JSON Web Token: `eyJ…` `.` `eyJ…` `.` signature (each of the first two segments at
    /// least 13 base64url characters; the signature may be empty, as for `alg: none`).
    Jwt,
    /// A PEM private key: `-----BEGIN … PRIVATE KEY-----` (any algorithm, `PGP … KEY BLOCK`
    /// too) followed by at least 32 base64 characters of key material.
    PrivateKey,
    /// A password inside a URL: `scheme://user:password@host`.
    UrlCredentials,
    /// An HTTP `Authorization` value in text: `Bearer <token>` (16+ token characters with a
    /// letter and a digit) or `Basic <base64 of user:password>`.
    AuthorizationHeader,
    /// An assignment in text, `NAME=value`, whose `NAME` is a secret's name (the member-name
    /// rule below) and whose value is not a placeholder.
    Assignment,
    /// A member whose name is a secret's name (`password`, `client_secret`, `apiKey`,
    /// `DB_PASSWORD` …) holding a string that is not a placeholder.
    SecretName,
}

/// One row of the table.
#[derive(Debug, PartialEq, Eq)]
pub struct Detector {
    /// Stable id (the conformance check and the docs name it).
    pub id: &'static str,
    /// What it finds, as the issue message names it.
    pub title: &'static str,
    /// How.
    pub rule: Rule,
    /// The gitleaks / detect-secrets rules it follows.
    pub anchored_on: &'static str,
    /// What it deliberately does not report.
    pub false_positives: &'static str,
}

/// AWS access key ids (gitleaks `aws-access-token`).
const AWS: &[Form] = &[
    form("AKIA", Charset::UpperDigit, 16, 16, false),
    form("ASIA", Charset::UpperDigit, 16, 16, false),
    form("ABIA", Charset::UpperDigit, 16, 16, false),
    form("ACCA", Charset::UpperDigit, 16, 16, false),
    form("A3T", Charset::UpperDigit, 17, 17, true),
];

/// GitHub classic tokens: personal, OAuth, user-to-server, server-to-server, refresh.
const GITHUB: &[Form] = &[
    form("ghp_", Charset::Alnum, 30, 251, false),
    form("gho_", Charset::Alnum, 30, 251, false),
    form("ghu_", Charset::Alnum, 30, 251, false),
    form("ghs_", Charset::Alnum, 30, 251, false),
    form("ghr_", Charset::Alnum, 30, 251, false),
];

const GITHUB_FINE: &[Form] = &[form("github_pat_", Charset::Word, 40, 244, false)];

/// GitLab tokens (personal, OAuth, deploy, runner, CI job, pipeline trigger, feed, incoming
/// mail, agent, SCIM/OAuth, runner registration).
const GITLAB: &[Form] = &[
    form("glpat-", Charset::WordDash, 20, 300, false),
    form("gloas-", Charset::WordDash, 20, 300, false),
    form("gldt-", Charset::WordDash, 20, 300, false),
    form("glrt-", Charset::WordDash, 20, 300, false),
    form("glcbt-", Charset::WordDash, 20, 300, false),
    form("glptt-", Charset::WordDash, 20, 300, false),
    form("glft-", Charset::WordDash, 20, 300, false),
    form("glimt-", Charset::WordDash, 20, 300, false),
    form("glagent-", Charset::WordDash, 20, 300, false),
    form("glsoat-", Charset::WordDash, 20, 300, false),
    form("GR1348941", Charset::WordDash, 20, 300, false),
];

/// Slack tokens: bot, user, app-level, refresh, legacy workspace, configuration; and the
/// incoming-webhook path.
const SLACK: &[Form] = &[
    form("xoxb-", Charset::WordDash, 10, 300, true),
    form("xoxp-", Charset::WordDash, 10, 300, true),
    form("xoxa-", Charset::WordDash, 10, 300, true),
    form("xoxr-", Charset::WordDash, 10, 300, true),
    form("xoxs-", Charset::WordDash, 10, 300, true),
    form("xoxe-", Charset::WordDash, 10, 300, true),
    form("xoxe.xox", Charset::WordDash, 10, 300, true),
    form("xapp-", Charset::WordDash, 10, 300, true),
];

const SLACK_WEBHOOK: &[Form] = &[
    form("hooks.slack.com/services/", Charset::Base64, 20, 120, true),
    form("hooks.slack.com/workflows/", Charset::Base64, 20, 120, true),
    form("hooks.slack.com/triggers/", Charset::Base64, 20, 120, true),
];

/// Stripe live-mode secret and restricted keys (test-mode keys are not reported).
const STRIPE: &[Form] = &[
    form("sk_live_", Charset::Alnum, 16, 247, false),
    form("rk_live_", Charset::Alnum, 16, 247, false),
];

const NPM: &[Form] = &[form("npm_", Charset::Alnum, 30, 60, true)];

const GOOGLE: &[Form] = &[form("AIza", Charset::WordDash, 33, 40, false)];

/// OpenAI keys: project, service account, admin, and the older `sk-<48>` form (tried after
/// Anthropic's `sk-ant-`).
const OPENAI: &[Form] = &[
    form("sk-proj-", Charset::WordDash, 20, 300, false),
    form("sk-svcacct-", Charset::WordDash, 20, 300, false),
    form("sk-admin-", Charset::WordDash, 20, 300, false),
    form("sk-None-", Charset::WordDash, 20, 300, false),
    form("sk-", Charset::Alnum, 32, 300, true),
];

const ANTHROPIC: &[Form] = &[
    form("sk-ant-api03-", Charset::WordDash, 32, 300, false),
    form("sk-ant-admin01-", Charset::WordDash, 32, 300, false),
    form("sk-ant-", Charset::WordDash, 32, 300, false),
];

const fn form(prefix: &'static str, body: Charset, min: usize, max: usize, digit: bool) -> Form {
    Form {
        prefix,
        body,
        min,
        max,
        digit,
    }
}

/// The table, in the order findings at one place are preferred (a specific provider before
/// a generic shape).
pub static DETECTORS: &[Detector] = TABLE;

/// [`DETECTORS`] as a constant, for the anchor table built from it at compile time.
pub(super) const TABLE: &[Detector] = &[
    Detector {
        id: "aws-access-key-id",
        title: "an AWS access key id",
        rule: Rule::Prefixed(AWS),
        anchored_on: "gitleaks aws-access-token; detect-secrets AWSKeyDetector",
        false_positives:
            "exactly 20 characters between word boundaries (a longer upper-case run is \
            an identifier); A3T… needs a digit. Unlike gitleaks, AWS's documentation key \
            (…EXAMPLE) is reported: a message cannot tell an example from a real key",
    },
    Detector {
        id: "github-token",
        title: "a GitHub token",
        rule: Rule::Prefixed(GITHUB),
        anchored_on: "gitleaks github-pat, github-oauth, github-app-token, github-refresh-token",
        false_positives: "ghp_/gho_/ghu_/ghs_/ghr_ followed by 30+ letters and digits only \
            (a snake_case name such as ghp_token_name is not one)",
    },
    Detector {
        id: "github-fine-grained-pat",
        title: "a GitHub fine-grained personal access token",
        rule: Rule::Prefixed(GITHUB_FINE),
        anchored_on: "gitleaks github-fine-grained-pat",
        false_positives: "github_pat_ followed by 40+ word characters",
    },
    Detector {
        id: "gitlab-token",
        title: "a GitLab token",
        rule: Rule::Prefixed(GITLAB),
        anchored_on: "gitleaks gitlab-pat, gitlab-ptt, gitlab-rrt, gitlab-deploy-token …",
        false_positives: "the prefix followed by 20+ of [A-Za-z0-9_-]",
    },
    Detector {
        id: "slack-token",
        title: "a Slack token",
        rule: Rule::Prefixed(SLACK),
        anchored_on: "gitleaks slack-bot-token, slack-user-token, slack-app-token …; \
            detect-secrets SlackDetector",
        false_positives: "xox?-/xapp- followed by 10+ of [A-Za-z0-9_-] holding a digit",
    },
    Detector {
        id: "slack-webhook",
        title: "a Slack incoming webhook",
        rule: Rule::Prefixed(SLACK_WEBHOOK),
        anchored_on: "gitleaks slack-webhook-url",
        false_positives: "hooks.slack.com/services|workflows|triggers/ followed by 20+ path \
            characters holding a digit; the bare host is not reported",
    },
    Detector {
        id: "stripe-live-key",
        title: "a Stripe live secret key",
        rule: Rule::Prefixed(STRIPE),
        anchored_on: "gitleaks stripe-access-token; detect-secrets StripeDetector",
        false_positives: "live mode only: sk_test_/rk_test_ keys and publishable pk_ keys are not \
            reported",
    },
    Detector {
        id: "npm-token",
        title: "an npm access token",
        rule: Rule::Prefixed(NPM),
        anchored_on: "gitleaks npm-access-token",
        false_positives: "npm_ followed by 30–60 letters and digits holding a digit \
            (npm_config_registry and other npm_ variable names are not tokens)",
    },
    Detector {
        id: "google-api-key",
        title: "a Google API key",
        rule: Rule::Prefixed(GOOGLE),
        anchored_on: "gitleaks gcp-api-key",
        false_positives: "AIza followed by 33–40 of [A-Za-z0-9_-]",
    },
    Detector {
        id: "anthropic-api-key",
        title: "an Anthropic API key",
        rule: Rule::Prefixed(ANTHROPIC),
        anchored_on: "gitleaks anthropic-api-key, anthropic-admin-api-key",
        false_positives: "sk-ant- followed by 32+ of [A-Za-z0-9_-]",
    },
    Detector {
        id: "openai-api-key",
        title: "an OpenAI API key",
        rule: Rule::Prefixed(OPENAI),
        anchored_on: "gitleaks openai-api-key; detect-secrets OpenAIDetector",
        false_positives:
            "sk-proj-/sk-svcacct-/sk-admin- followed by 20+ characters, or sk- followed \
            by 32+ letters and digits holding a digit; task-list and other words ending in sk- \
            have no word boundary before sk",
    },
    Detector {
        id: "jwt",
        title: "a JSON Web Token",
        rule: Rule::Jwt,
        anchored_on: "gitleaks jwt; detect-secrets JwtTokenDetector",
        false_positives: "both the header and the payload must start eyJ (base64 of `{\"`) and be \
            13+ characters; dotted names and version strings are not tokens",
    },
    Detector {
        id: "private-key",
        title: "a private key",
        rule: Rule::PrivateKey,
        anchored_on: "gitleaks private-key; detect-secrets PrivateKeyDetector",
        false_positives: "the BEGIN line alone (prose about the PEM format) is not reported: 32+ \
            base64 characters of key material must follow; public keys and certificates are \
            not secrets",
    },
    Detector {
        id: "url-credentials",
        title: "a password in a URL",
        rule: Rule::UrlCredentials,
        anchored_on: "detect-secrets BasicAuthDetector; gitleaks curl-auth-user allowlist",
        false_positives: "a user without a password (https://token@host, git@host:repo), and \
            placeholder passwords (****, <password>, ${DB_PASSWORD}, $PASS, password, x) are \
            not reported",
    },
    Detector {
        id: "authorization-header",
        title: "an Authorization header credential",
        rule: Rule::AuthorizationHeader,
        anchored_on: "gitleaks curl-auth-header",
        false_positives:
            "prose such as \"send a Bearer token\" is not a credential: the token needs \
            16+ token characters with a letter and a digit; Basic needs base64 of user:password",
    },
    Detector {
        id: "secret-assignment",
        title: "a secret assigned in text",
        rule: Rule::Assignment,
        anchored_on: "gitleaks generic-api-key; detect-secrets KeywordDetector",
        false_positives:
            "the name must be a secret's name (as for members); the value must not be \
            a placeholder, a reference ($VAR, ${VAR}, {{ var }}, <value>, env:, vault:) or an \
            environment variable name, and must be 6+ characters",
    },
    Detector {
        id: "secret-named-member",
        title: "a secret-named member's value",
        rule: Rule::SecretName,
        anchored_on: "detect-secrets KeywordDetector (its denylist and false-positive values)",
        false_positives: "only string values that are not placeholders, references, environment \
            variable names or prose (a value with a space, other than an Authorization scheme); \
            names whose last word is not the secret's (token_count, max_tokens, secret_name, \
            password_hash, api_key_id) and pagination or public tokens (next_page_token, \
            csrf_token) are not secret names",
    },
];
