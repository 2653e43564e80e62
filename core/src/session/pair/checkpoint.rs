//! The Pair Protocol's three human checkpoints, the decisions each allows, and the literal
//! strings a reviewer types (`APPROVED`, `REVISE: <feedback>`, `MERGE APPROVED`, …).

use crate::names::by_name;
use crate::protocol::builders::Text;
use crate::protocol::registry::families::pair::Role;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A human checkpoint of the planner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Checkpoint {
    /// #1, after CONTRACT_DRAFT: is the contract good enough to build against?
    ContractReview,
    /// #2, after BUILD_COMPLETE: merge the implementation?
    ImplementationReview,
    /// #3, after CHANGE_ORDER: change the contract?
    ChangeOrderReview,
}

impl Checkpoint {
    /// Every checkpoint, in the seed's order.
    pub const ALL: [Checkpoint; 3] = [
        Checkpoint::ContractReview,
        Checkpoint::ImplementationReview,
        Checkpoint::ChangeOrderReview,
    ];

    /// The checkpoint's name.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Checkpoint::ContractReview => "contract_review",
            Checkpoint::ImplementationReview => "implementation_review",
            Checkpoint::ChangeOrderReview => "change_order_review",
        }
    }

    /// The seed's number for it (#1, #2, #3).
    #[must_use]
    pub const fn number(self) -> u8 {
        match self {
            Checkpoint::ContractReview => 1,
            Checkpoint::ImplementationReview => 2,
            Checkpoint::ChangeOrderReview => 3,
        }
    }

    /// The decisions it allows, in the seed's order.
    #[must_use]
    pub const fn decisions(self) -> &'static [DecisionKind] {
        match self {
            Checkpoint::ContractReview => &[
                DecisionKind::Approved,
                DecisionKind::Revise,
                DecisionKind::Abort,
            ],
            Checkpoint::ImplementationReview => &[
                DecisionKind::MergeApproved,
                DecisionKind::Reject,
                DecisionKind::Abort,
            ],
            Checkpoint::ChangeOrderReview => &[
                DecisionKind::AcceptChange,
                DecisionKind::RejectChange,
                DecisionKind::Abort,
            ],
        }
    }
}

impl Serialize for Checkpoint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Checkpoint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Checkpoint, D::Error> {
        by_name(d, &Checkpoint::ALL, Checkpoint::as_str)
    }
}

/// A decision a reviewer can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// #1: continue to build.
    Approved,
    /// #1: regenerate the contract (feedback).
    Revise,
    /// Any checkpoint: end the session.
    Abort,
    /// #2: merge and complete.
    MergeApproved,
    /// #2: send the build back (reason).
    Reject,
    /// #3: update the contract (reasoning).
    AcceptChange,
    /// #3: keep the contract, send a strategy (strategy).
    RejectChange,
}

impl DecisionKind {
    /// Every decision, in the seed's order.
    pub const ALL: [DecisionKind; 7] = [
        DecisionKind::Approved,
        DecisionKind::Revise,
        DecisionKind::Abort,
        DecisionKind::MergeApproved,
        DecisionKind::Reject,
        DecisionKind::AcceptChange,
        DecisionKind::RejectChange,
    ];

    /// The literal keyword the reviewer types.
    #[must_use]
    pub const fn keyword(self) -> &'static str {
        match self {
            DecisionKind::Approved => "APPROVED",
            DecisionKind::Revise => "REVISE",
            DecisionKind::Abort => "ABORT",
            DecisionKind::MergeApproved => "MERGE APPROVED",
            DecisionKind::Reject => "REJECT",
            DecisionKind::AcceptChange => "ACCEPT CHANGE",
            DecisionKind::RejectChange => "REJECT CHANGE",
        }
    }

    /// The text the decision requires after `KEYWORD:` (none for APPROVED, MERGE APPROVED and
    /// ABORT; an ABORT may still give a reason).
    #[must_use]
    pub const fn requires(self) -> Option<&'static str> {
        match self {
            DecisionKind::Revise => Some("feedback"),
            DecisionKind::Reject => Some("reason"),
            DecisionKind::AcceptChange => Some("reasoning"),
            DecisionKind::RejectChange => Some("strategy"),
            DecisionKind::Approved | DecisionKind::Abort | DecisionKind::MergeApproved => None,
        }
    }

    /// What a reviewer types first for it, as [`Decision::parse`] reads it: the keyword,
    /// then `: ` where a text follows (`REVISE: `, `APPROVED`).
    #[must_use]
    pub fn template(self) -> String {
        match self.requires() {
            Some(_) => format!("{}: ", self.keyword()),
            None => self.keyword().to_owned(),
        }
    }

    /// The seed's literal form: `REVISE: <feedback>`, `APPROVED`.
    #[must_use]
    pub fn literal(self) -> String {
        match self.requires() {
            Some(what) => format!("{}: <{what}>", self.keyword()),
            None => self.keyword().to_owned(),
        }
    }
}

impl Serialize for DecisionKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.keyword())
    }
}

impl<'de> Deserialize<'de> for DecisionKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DecisionKind, D::Error> {
        by_name(d, &DecisionKind::ALL, DecisionKind::keyword)
    }
}

/// What an open checkpoint offers, as the session view lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DecisionOption {
    /// The decision's keyword.
    pub decision: DecisionKind,
    /// The text it requires (`feedback`, `reason`, `reasoning`, `strategy`), if any.
    pub requires: Option<&'static str>,
}

impl<'de> Deserialize<'de> for DecisionOption {
    /// Reads the decision; what it requires is the decision's own ([`DecisionKind::requires`]).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DecisionOption, D::Error> {
        #[derive(Deserialize)]
        struct Wire {
            decision: DecisionKind,
        }
        let Wire { decision } = Wire::deserialize(d)?;
        Ok(DecisionOption {
            decision,
            requires: decision.requires(),
        })
    }
}

impl DecisionOption {
    /// The options of a checkpoint.
    #[must_use]
    pub fn of(checkpoint: Checkpoint) -> Vec<DecisionOption> {
        checkpoint
            .decisions()
            .iter()
            .map(|&decision| DecisionOption {
                decision,
                requires: decision.requires(),
            })
            .collect()
    }
}

/// A reviewer's decision with its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Which decision.
    pub kind: DecisionKind,
    /// Its text (required for REVISE, REJECT, ACCEPT CHANGE, REJECT CHANGE; optional reason
    /// for ABORT; none otherwise).
    pub text: Option<Text>,
}

/// Why a decision cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum DecisionError {
    /// The input names no decision (the allowed literals).
    Unknown {
        /// What was typed.
        input: String,
        /// The allowed literals.
        allowed: Vec<String>,
    },
    /// The decision is not one this checkpoint allows.
    NotAllowed {
        /// The decision.
        decision: DecisionKind,
        /// The checkpoint.
        checkpoint: Checkpoint,
    },
    /// The decision needs text (which).
    MissingText {
        /// The decision.
        decision: DecisionKind,
        /// What text.
        what: &'static str,
    },
    /// The decision takes no text.
    UnexpectedText {
        /// The decision.
        decision: DecisionKind,
    },
    /// No checkpoint is open in the session.
    NoOpenCheckpoint,
    /// The decision is for a checkpoint that is not the open one (it was decided meanwhile, or
    /// another opened).
    NotOpen {
        /// The checkpoint decided.
        checkpoint: Checkpoint,
        /// The open one, if any.
        open: Option<Checkpoint>,
    },
    /// The agent playing `role` is not known, so the decision's messages cannot be addressed.
    UnknownAgent {
        /// The role without an agent.
        role: Role,
        /// Whether a PAIR_INIT was seen (whose sender or recipient would have named it).
        pair_init_seen: bool,
    },
}

impl fmt::Display for DecisionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown { input, allowed } => write!(
                f,
                "{input:?} is no decision here; type one of: {}",
                allowed.join(", ")
            ),
            Self::NotAllowed {
                decision,
                checkpoint,
            } => write!(
                f,
                "{} is not a decision of checkpoint #{} ({})",
                decision.keyword(),
                checkpoint.number(),
                checkpoint.as_str()
            ),
            Self::MissingText { decision, what } => {
                write!(
                    f,
                    "{} needs its {what}: {}",
                    decision.keyword(),
                    decision.literal()
                )
            }
            Self::UnexpectedText { decision } => {
                write!(f, "{} takes no text", decision.keyword())
            }
            Self::NoOpenCheckpoint => f.write_str("no human checkpoint is open in this session"),
            Self::NotOpen { checkpoint, open } => {
                write!(
                    f,
                    "checkpoint #{} ({}) is not open in this session",
                    checkpoint.number(),
                    checkpoint.as_str()
                )?;
                match open {
                    Some(o) => write!(f, "; #{} ({}) is", o.number(), o.as_str()),
                    None => f.write_str("; none is"),
                }
            }
            Self::UnknownAgent {
                role,
                pair_init_seen,
            } => {
                let role = role.wire().to_ascii_lowercase();
                let why = if *pair_init_seen {
                    "the PAIR_INIT does not name it: a bare message without `from` does not \
                     say who sent it, one without recipients who the partner is"
                } else {
                    "no PAIR_INIT seen, and no message only that role sends names it"
                };
                write!(
                    f,
                    "the session's {role} is not known ({why}), so the decision's messages \
                     cannot be addressed"
                )
            }
        }
    }
}

impl std::error::Error for DecisionError {}

impl Decision {
    /// A decision of `kind` with `text`, checked against what the kind requires.
    ///
    /// # Errors
    /// [`DecisionError::MissingText`] / [`DecisionError::UnexpectedText`].
    pub fn new(kind: DecisionKind, text: &str) -> Result<Decision, DecisionError> {
        let text = Text::new(text);
        match (kind.requires(), text) {
            (Some(what), None) => Err(DecisionError::MissingText {
                decision: kind,
                what,
            }),
            (None, Some(_)) if kind != DecisionKind::Abort => {
                Err(DecisionError::UnexpectedText { decision: kind })
            }
            (_, text) => Ok(Decision { kind, text }),
        }
    }

    /// Parses what a reviewer typed at `checkpoint`: a keyword (ASCII case and inner spacing
    /// are free), then `:` and the text where one is required (`REVISE: add error tests`). An
    /// ABORT may carry a reason (`ABORT: wrong task`).
    ///
    /// # Errors
    /// [`DecisionError`] naming what is wrong and what is allowed.
    pub fn parse(checkpoint: Checkpoint, input: &str) -> Result<Decision, DecisionError> {
        let (head, text) = match input.split_once(':') {
            Some((head, text)) => (head, text),
            None => (input, ""),
        };
        let words: Vec<String> = head
            .split_whitespace()
            .map(str::to_ascii_uppercase)
            .collect();
        let keyword = words.join(" ");
        let Some(kind) = DecisionKind::ALL
            .into_iter()
            .find(|k| k.keyword() == keyword)
        else {
            return Err(DecisionError::Unknown {
                input: input.to_owned(),
                allowed: checkpoint.decisions().iter().map(|d| d.literal()).collect(),
            });
        };
        if !checkpoint.decisions().contains(&kind) {
            return Err(DecisionError::NotAllowed {
                decision: kind,
                checkpoint,
            });
        }
        Decision::new(kind, text)
    }

    /// The decision as the seed writes it (`REVISE: add error tests`).
    #[must_use]
    pub fn literal(&self) -> String {
        match &self.text {
            Some(t) => format!("{}: {t}", self.kind.keyword()),
            None => self.kind.keyword().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_seam_round_trips() {
        for c in Checkpoint::ALL {
            for option in DecisionOption::of(c) {
                let json = serde_json::to_string(&option).unwrap();
                assert_eq!(
                    serde_json::from_str::<DecisionOption>(&json).unwrap(),
                    option
                );
            }
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Checkpoint>(&json).unwrap(), c);
        }
        let d = Decision::parse(Checkpoint::ContractReview, "REVISE: add tests").unwrap();
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, r#"{"kind":"REVISE","text":"add tests"}"#);
        assert_eq!(serde_json::from_str::<Decision>(&json).unwrap(), d);
        assert!(serde_json::from_str::<DecisionKind>(r#""LGTM""#).is_err());
    }

    #[test]
    fn parses_the_seeds_literals() {
        let c1 = Checkpoint::ContractReview;
        assert_eq!(
            Decision::parse(c1, "APPROVED").unwrap().kind,
            DecisionKind::Approved
        );
        let d = Decision::parse(c1, "revise:  add tests for expiry ").unwrap();
        assert_eq!(d.literal(), "REVISE: add tests for expiry");
        assert!(matches!(
            Decision::parse(c1, "REVISE"),
            Err(DecisionError::MissingText {
                what: "feedback",
                ..
            })
        ));
        assert!(matches!(
            Decision::parse(c1, "MERGE APPROVED"),
            Err(DecisionError::NotAllowed { .. })
        ));
        assert!(matches!(
            Decision::parse(c1, "APPROVED: yes"),
            Err(DecisionError::UnexpectedText { .. })
        ));
        assert!(matches!(
            Decision::parse(c1, "LGTM"),
            Err(DecisionError::Unknown { .. })
        ));
        let c2 = Checkpoint::ImplementationReview;
        assert_eq!(
            Decision::parse(c2, "merge  approved").unwrap().kind,
            DecisionKind::MergeApproved
        );
        assert_eq!(
            Decision::parse(c2, "ABORT: wrong task").unwrap().literal(),
            "ABORT: wrong task"
        );
        let c3 = Checkpoint::ChangeOrderReview;
        assert_eq!(
            Decision::parse(c3, "REJECT CHANGE: use jose").unwrap().kind,
            DecisionKind::RejectChange
        );
        assert!(Decision::parse(c3, "REJECT: x").is_err());
    }
}
