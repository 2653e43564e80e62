//! The seed rule matrix: every normative statement of the four protocol seeds (000 Pair
//! Protocol, 002 Agent-PO, 003 Pair Claude, 004 droid message formats) as data. Each rule has
//! a stable id, the seed and section it comes from, the seed's own words, a level read from
//! that wording, and either the checks that decide it or the reason it is exempt (what no
//! message shows: an agent's internal state, a file, the server's own behaviour).
//!
//! The conformance report is computed per rule; `docs/conformance.md` prints the matrix's
//! coverage, and a test holds every quote to its seed's text, every rule to a check or an
//! exemption, and every check to a rule.

mod agent_po;
mod droid;
mod pair;
mod pair_claude;

use crate::protocol::FamilyId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How strongly a seed states a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Required: "must", "required", "never", "only", "always", a field marked required, a
    /// table of the protocol's own messages, orders, timeouts and limits.
    Must,
    /// Recommended: best practices, recommendations, "should"; a breach is a warning.
    Should,
}

impl Level {
    /// Both levels.
    pub const ALL: [Level; 2] = [Level::Must, Level::Should];

    /// `MUST` or `SHOULD`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
        }
    }
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::names::by_name(d, &Level::ALL, Level::as_str)
    }
}

/// A protocol seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seed {
    /// 000: the Pair Protocol 3.1.
    Pair,
    /// 002: the Agent-PO Message Protocol 20.0.
    AgentPo,
    /// 003: the Pair Claude architecture.
    PairClaude,
    /// 004: the MCP Agent Mail droid message formats 1.0.0.
    Droid,
}

impl Seed {
    /// Every seed with rules, in number order.
    pub const ALL: [Seed; 4] = [Seed::Pair, Seed::AgentPo, Seed::PairClaude, Seed::Droid];

    /// The seed's number (`000`, `002`, `003`, `004`).
    #[must_use]
    pub const fn number(self) -> &'static str {
        match self {
            Seed::Pair => "000",
            Seed::AgentPo => "002",
            Seed::PairClaude => "003",
            Seed::Droid => "004",
        }
    }

    /// The seed's title.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Seed::Pair => "Pair Protocol 3.1",
            Seed::AgentPo => "Agent-PO Message Protocol 20.0",
            Seed::PairClaude => "Pair Claude Architecture",
            Seed::Droid => "MCP Agent Mail droid message formats 1.0.0",
        }
    }

    /// The family whose messages the seed defines.
    #[must_use]
    pub const fn family(self) -> FamilyId {
        match self {
            Seed::Pair => FamilyId::Pair,
            Seed::AgentPo => FamilyId::AgentPo,
            Seed::PairClaude => FamilyId::PairClaude,
            Seed::Droid => FamilyId::Droid,
        }
    }

    /// The seed's rules, in the seed's order.
    #[must_use]
    pub fn rules(self) -> &'static [Rule] {
        match self {
            Seed::Pair => pair::RULES,
            Seed::AgentPo => agent_po::RULES,
            Seed::PairClaude => pair_claude::RULES,
            Seed::Droid => droid::RULES,
        }
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.number())
    }
}

/// How a rule is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// By these checks (ids of [`super::checks::CHECKS`]).
    By(&'static [&'static str]),
    /// Not observable from mail: why.
    Exempt(&'static str),
}

/// Which messages a rule's checks are read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The messages of the seed's own family.
    Family,
    /// Every mail message, whatever it carries (secrets, registered names, JSON): the seed
    /// states it for its family, the project holds all traffic to it.
    AllMail,
}

/// One normative statement of a seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable id: `<seed>.<section>.<rule>`.
    pub id: &'static str,
    /// The seed.
    pub seed: Seed,
    /// The section, as the seed titles it.
    pub section: &'static str,
    /// The seed's words, verbatim.
    pub quote: &'static str,
    /// MUST or SHOULD, read from the wording.
    pub level: Level,
    /// The checks that decide it, or why it is exempt.
    pub decided: Decided,
    /// The message types it is about (registry names without an `@` variant; empty: every
    /// message its checks apply to).
    pub about: &'static [&'static str],
    /// Which messages it reads.
    pub scope: Scope,
    /// The reasoning where the seeds disagree, are silent or leave a choice (empty: none).
    pub note: &'static str,
}

impl Rule {
    /// The checks that decide it (none for an exempt rule).
    #[must_use]
    pub const fn checks(&self) -> &'static [&'static str] {
        match self.decided {
            Decided::By(checks) => checks,
            Decided::Exempt(_) => &[],
        }
    }

    /// Whether mail shows it (it has checks).
    #[must_use]
    pub const fn observable(&self) -> bool {
        matches!(self.decided, Decided::By(_))
    }

    /// Whether it is about messages of type `message_type` (a registry name; an `@` variant
    /// counts as its base type).
    #[must_use]
    pub fn is_about(&self, message_type: &str) -> bool {
        let base = message_type.split('@').next().unwrap_or(message_type);
        self.about.is_empty() || self.about.contains(&base)
    }

    /// The rule, about these message types.
    #[must_use]
    pub const fn about(self, types: &'static [&'static str]) -> Rule {
        Rule {
            about: types,
            ..self
        }
    }

    /// The rule, with the reasoning behind how it is decided.
    #[must_use]
    pub const fn note(self, note: &'static str) -> Rule {
        Rule { note, ..self }
    }

    /// The rule, read on every mail message.
    #[must_use]
    pub const fn all_mail(self) -> Rule {
        Rule {
            scope: Scope::AllMail,
            ..self
        }
    }
}

/// The constructors of one seed's rules (each seed's file names its rules through one).
pub(super) struct Of(pub Seed);

impl Of {
    /// A MUST rule decided by `checks`.
    pub(super) const fn must(
        &self,
        id: &'static str,
        section: &'static str,
        quote: &'static str,
        checks: &'static [&'static str],
    ) -> Rule {
        rule(self.0, id, Level::Must, section, quote, checks)
    }

    /// A SHOULD rule decided by `checks`.
    pub(super) const fn should(
        &self,
        id: &'static str,
        section: &'static str,
        quote: &'static str,
        checks: &'static [&'static str],
    ) -> Rule {
        rule(self.0, id, Level::Should, section, quote, checks)
    }

    /// A rule no message shows, and why.
    pub(super) const fn not_mail(
        &self,
        id: &'static str,
        level: Level,
        section: &'static str,
        quote: &'static str,
        reason: &'static str,
    ) -> Rule {
        exempt(self.0, id, level, section, quote, reason)
    }
}

/// A rule of `seed` decided by `checks`.
#[must_use]
pub const fn rule(
    seed: Seed,
    id: &'static str,
    level: Level,
    section: &'static str,
    quote: &'static str,
    checks: &'static [&'static str],
) -> Rule {
    Rule {
        id,
        seed,
        section,
        quote,
        level,
        decided: Decided::By(checks),
        about: &[],
        scope: Scope::Family,
        note: "",
    }
}

/// A rule of `seed` no message shows.
#[must_use]
pub const fn exempt(
    seed: Seed,
    id: &'static str,
    level: Level,
    section: &'static str,
    quote: &'static str,
    reason: &'static str,
) -> Rule {
    Rule {
        id,
        seed,
        section,
        quote,
        level,
        decided: Decided::Exempt(reason),
        about: &[],
        scope: Scope::Family,
        note: "",
    }
}

/// Every rule, seed by seed.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    Seed::ALL.into_iter().flat_map(|s| s.rules().iter())
}

/// The rule with this id.
#[must_use]
pub fn by_id(id: &str) -> Option<&'static Rule> {
    all().find(|r| r.id == id)
}

/// Per seed: how many rules, how many each level, how many checked and exempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Coverage {
    /// Rules.
    pub rules: usize,
    /// MUST rules.
    pub must: usize,
    /// SHOULD rules.
    pub should: usize,
    /// Rules decided by checks.
    pub checked: usize,
    /// Rules exempt (not observable from mail).
    pub exempt: usize,
}

impl Coverage {
    /// The coverage of these rules.
    #[must_use]
    pub fn of<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> Coverage {
        let mut c = Coverage::default();
        for r in rules {
            c.rules += 1;
            match r.level {
                Level::Must => c.must += 1,
                Level::Should => c.should += 1,
            }
            if r.observable() {
                c.checked += 1;
            } else {
                c.exempt += 1;
            }
        }
        c
    }
}
