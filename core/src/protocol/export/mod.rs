//! The registry exported for other languages: [`schema`] writes JSON Schema 2020-12,
//! [`typescript`] writes TypeScript declarations. Both read only the registry, so what they
//! say is what validation enforces (the cases JSON Schema cannot express are listed in
//! [`schema`]).

pub mod schema;
pub mod typescript;
