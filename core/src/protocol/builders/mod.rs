//! Message builders: the one place that writes protocol JSON. Every builder's output is valid
//! under the core's own rules by construction: inputs that could break a rule are typed
//! ([`Text`] is never blank, [`ArtifactPath`] always has the Pair artifact form), and property
//! tests run the outputs through the validator.
//!
//! - [`build`]: any message type from its own fields, what the protocol derives filled in.
//! - [`pair`]: Pair Protocol messages (checkpoint decisions, timeouts).
//! - [`agent_po`]: Agent-PO directives (GO / FEEDBACK / FIX / NEXT / BLOCKED).
//! - [`reply`]: the protocols' error replies to an invalid message.

pub mod agent_po;
pub mod build;
pub mod pair;
pub mod reply;

use super::registry::formats::PAIR_ARTIFACT;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// Text that is never blank (trimmed on construction): what a required human-readable member
/// (feedback, reason, strategy, …) holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Text(String);

impl Text {
    /// The trimmed text, or `None` when it is blank.
    #[must_use]
    pub fn new(text: &str) -> Option<Text> {
        let t = text.trim();
        (!t.is_empty()).then(|| Text(t.to_owned()))
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Text the crate composes itself, which starts with words and so is never blank.
    pub(crate) fn composed(text: String) -> Text {
        debug_assert!(!text.trim().is_empty());
        Text(text)
    }
}

impl<'de> Deserialize<'de> for Text {
    /// A string, trimmed; a blank one is an error (as [`Text::new`] refuses it).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        let text = String::deserialize(d)?;
        Text::new(&text).ok_or_else(|| serde::de::Error::custom("blank text"))
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A Pair artifact path (`tmp/pair_<timestamp>_<name>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ArtifactPath(String);

impl ArtifactPath {
    /// The path, when it has the artifact form.
    #[must_use]
    pub fn new(path: &str) -> Option<ArtifactPath> {
        (PAIR_ARTIFACT.check)(path).then(|| ArtifactPath(path.to_owned()))
    }

    /// The path.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The finalized name of a draft artifact: `…spec_draft.md` becomes `…spec_final.md`
    /// (pair.md: the draft spec is renamed on APPROVED); other names are kept.
    #[must_use]
    pub fn finalized(&self) -> ArtifactPath {
        ArtifactPath(self.0.replacen("spec_draft", "spec_final", 1))
    }

    /// The next version of an artifact (pair.md: change orders write `_v2`, `_v3`, … and never
    /// overwrite the original): `…tests.py` → `…tests_v2.py`, `…tests_v2.py` → `…tests_v3.py`.
    #[must_use]
    pub fn next_version(&self) -> ArtifactPath {
        let name_start = self.0.rfind('/').map_or(0, |i| i + 1);
        let (stem, ext) = match self.0[name_start..].rfind('.') {
            Some(dot) if dot > 0 => self.0.split_at(name_start + dot),
            _ => (self.0.as_str(), ""),
        };
        let (base, version) = match stem.rfind("_v") {
            Some(i) if stem[i + 2..].parse::<u32>().is_ok_and(|v| v >= 2) => {
                (&stem[..i], stem[i + 2..].parse::<u32>().unwrap_or(1))
            }
            _ => (stem, 1),
        };
        ArtifactPath(format!("{base}_v{}{ext}", version.saturating_add(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifact_versions() {
        let p = |s| ArtifactPath::new(s).unwrap();
        assert_eq!(
            p("tmp/pair_1_tests.py").next_version().as_str(),
            "tmp/pair_1_tests_v2.py"
        );
        assert_eq!(
            p("tmp/pair_1_spec_final_v2.md").next_version().as_str(),
            "tmp/pair_1_spec_final_v3.md"
        );
        assert_eq!(
            p("tmp/pair_1_tests").next_version().as_str(),
            "tmp/pair_1_tests_v2"
        );
        assert_eq!(
            p("tmp/pair_1_spec_draft.md").finalized().as_str(),
            "tmp/pair_1_spec_final.md"
        );
        assert!(ArtifactPath::new("src/tests.py").is_none());
        assert!(Text::new("  ").is_none());
        assert_eq!(Text::new(" x ").unwrap().as_str(), "x");
    }
}
