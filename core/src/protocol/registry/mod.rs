//! The protocol registry: every family and message type as static data.
//!
//! One [`REGISTRY`] of [`FamilySpec`]s drives detection, validation, JSON Schema export and the
//! typed model. Nothing about a message type is written anywhere else. The types are in
//! [`spec`], the shared string formats in [`formats`], each family's data in [`families`].

pub mod families;
pub mod formats;
pub mod spec;

pub use spec::*;
use std::borrow::Cow;

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

/// A version a message declares, as a report names it: borrowed from the registry when it is
/// a family's modeled version (the common case, so no allocation), else copied.
pub(crate) fn declared_version(declared: &str) -> Cow<'static, str> {
    REGISTRY.iter().find(|f| f.version == declared).map_or_else(
        || Cow::Owned(declared.to_owned()),
        |f| Cow::Borrowed(f.version),
    )
}

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
