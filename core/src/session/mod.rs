//! Pair session state that outlives single messages: the contract's fingerprints.

pub mod fingerprint;
