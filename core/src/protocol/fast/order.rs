//! The order the validator lists issues in, for a pass that reads members in the order they
//! are written: declared fields in registry order, each in full (an array's length before its
//! items), then the undeclared members (their secrets) in the order they are written. A
//! pass's issues are put in that order by the place of their paths ([`place`]), keeping the
//! order they were found in among equal places (the undeclared members, values no rule
//! covers, the issues of one value).

use crate::protocol::issue::SegmentRef;
use crate::protocol::registry::{ObjectSpec, Ty};
use crate::protocol::same::same;

/// How many steps of a path [`place`] ranks; a deeper ranked path is left to the tree.
const DEPTH: usize = 8;

/// Where the validator lists an issue at `path` under an object of `root`'s rule: one rank
/// per step (a declared field by its place in the registry, undeclared members after the
/// declared ones, an item by its index after its array's own issues), `0` past the end and
/// under values no rule covers. `None` for a path deeper than [`DEPTH`] ranked steps or an
/// index too large to rank.
pub(super) fn place<'a>(
    root: &ObjectSpec,
    path: impl Iterator<Item = SegmentRef<'a>>,
) -> Option<[u16; DEPTH]> {
    let mut ranks = [0u16; DEPTH];
    let mut spec = RuleAt::Object(root);
    for (depth, step) in path.enumerate() {
        let rank = match (spec, step) {
            (RuleAt::Object(obj), SegmentRef::Key(k)) => {
                match obj.fields.iter().position(|f| same(f.name, k)) {
                    Some(i) => {
                        spec = RuleAt::of(&obj.fields[i].ty);
                        i + 1
                    }
                    None => {
                        spec = RuleAt::Free;
                        obj.fields.len() + 1
                    }
                }
            }
            (RuleAt::Array(items), SegmentRef::Index(i)) => {
                spec = RuleAt::of(items);
                i.checked_add(2)?
            }
            // Under a value no rule covers, the order written.
            _ => return Some(ranks),
        };
        *ranks.get_mut(depth)? = u16::try_from(rank).ok()?;
    }
    Some(ranks)
}

/// The rule at one step of a path, as far as the order goes.
#[derive(Clone, Copy)]
enum RuleAt<'s> {
    Object(&'s ObjectSpec),
    Array(&'s Ty),
    Free,
}

impl<'s> RuleAt<'s> {
    fn of(ty: &'s Ty) -> Self {
        match ty {
            Ty::Object(spec) => RuleAt::Object(spec),
            Ty::Array { items, .. } => RuleAt::Array(items),
            _ => RuleAt::Free,
        }
    }
}
