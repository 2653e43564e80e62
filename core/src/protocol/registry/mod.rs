//! The protocol registry: every family and message type as static data.
//!
//! One [`REGISTRY`] of [`FamilySpec`]s drives detection, validation, JSON Schema export and the
//! typed model. Nothing about a message type is written anywhere else. The types are in
//! [`spec`], the shared string formats in [`formats`], each family's data in [`families`].

pub mod families;
pub mod formats;
pub mod spec;

pub use spec::*;

impl FamilyId {
    /// The registry entry of this family.
    pub fn spec(self) -> &'static FamilySpec {
        match self {
            FamilyId::Pair => &families::pair::FAMILY,
            FamilyId::AgentPo => &families::agent_po::FAMILY,
            FamilyId::Droid => &families::droid::FAMILY,
            FamilyId::PairClaude => &families::pair_claude::FAMILY,
        }
    }
}

/// The whole registry, in detection order.
pub static REGISTRY: [&FamilySpec; 4] = [
    &families::pair::FAMILY,
    &families::agent_po::FAMILY,
    &families::droid::FAMILY,
    &families::pair_claude::FAMILY,
];

/// Every deviation lenient mode accepts, for documentation.
pub static DEVIATIONS: &[&Deviation] = &[
    &formats::ISO8601_PLACEHOLDER,
    &formats::AGENT_UUID_ID,
    &formats::SEED_TEMPLATE,
    &formats::NON_HEX_COMMIT,
    &families::pair::CHANGE_ORDER_BARE,
    &families::pair::CLI_ABBREVIATED,
    &families::pair::AUDIT_SEVERITY_NONE,
    &families::droid::SHORT_FORM,
];
