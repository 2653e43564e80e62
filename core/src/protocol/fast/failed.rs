//! What a pass does once it has failed: it stops, or (while the object may still be an Agent
//! Mail row, whose `body_md` may come later) reads the rest exactly without checking it. The
//! value checks ([`super::values`]) and the secret scan ([`super::secrets`]) both follow it.

use super::pass::State;
use super::scan::{Read, Scanner, Stop};
use crate::protocol::registry::Ty;

/// Any value: what a value no rule covers is checked against (it must still be JSON the
/// `Value` parser accepts).
pub(super) static ANY: Ty = Ty::Any;

/// Once a pass has failed, it stops, or (for a possible row) reads the rest exactly without
/// checking it: the rule a value is checked against (`None`: stop).
pub(super) fn rule(st: &mut State<'_>, ty: &'static Ty) -> Option<&'static Ty> {
    match st.failed() {
        false => Some(ty),
        true if st.may_stop() => None,
        true => Some(&ANY),
    }
}

/// Reads one value after the pass has failed: stops when the pass may, else reads the value
/// exactly, checking nothing (as the value checks read it against [`ANY`]).
pub(super) fn skip(sc: &mut Scanner<'_>, st: &mut State<'_>) -> Read<()> {
    if st.may_stop() {
        return Err(Stop);
    }
    sc.skip_value()
}
