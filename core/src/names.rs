//! Serde for the crate's closed sets that travel as their names (`as_str`): one reader for
//! every such enum, so each deserializes exactly as it serializes.

use serde::{Deserialize, Deserializer};

/// Deserializes one of `all` by the name `name` gives it (the name it serializes as).
///
/// # Errors
/// A value that is no text, or names none of `all` (the error lists the names).
pub(crate) fn by_name<'de, D: Deserializer<'de>, T: Copy>(
    d: D,
    all: &[T],
    name: fn(T) -> &'static str,
) -> Result<T, D::Error> {
    let text = String::deserialize(d)?;
    all.iter()
        .copied()
        .find(|t| name(*t) == text)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|t| name(*t)).collect();
            serde::de::Error::custom(format!("{text:?} is none of {}", names.join(", ")))
        })
}
