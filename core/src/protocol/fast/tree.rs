//! The tree of a message the pass gives up on, read by the same tokenizer for the
//! validator to explain ([`crate::protocol::json::Json`]): strings borrowed from the text unless
//! they have escapes, arrays and objects as slices, no hashing. Every part of it lives in one
//! arena ([`Bump`], reused from message to message: [`with_tree`]): building it allocates
//! nothing once the arena has grown to the messages' size, and the tree needs no drop
//! (docs/benchmarks.md, "npm package"). Where the tokenizer gives up
//! (see [`super::scan`]) there is no tree, and the message is parsed into a `Value` instead.
//!
//! Objects keep their members as a parsed `Value` does: a member written twice counts once,
//! with its last value, at the first one's place.

use super::scan::{Read, Scalar, Scanner, Stop};
use crate::protocol::json::{Json, Node, Num, Object, Probe};
use crate::protocol::same::same;
use bumpalo::collections::Vec as ArenaVec;
use bumpalo::Bump;
use std::borrow::Cow;
use std::cell::RefCell;

/// The most members of one object the tree holds (each new name is compared with the ones
/// before it); a wider object is left to the `Value` parser.
const MAX_MEMBERS: usize = 256;

/// One JSON value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tree<'a> {
    Null,
    Bool(bool),
    Num(Num),
    Str(&'a str),
    Array(&'a [Tree<'a>]),
    Object(&'a [(&'a str, Tree<'a>)]),
}

thread_local! {
    /// The arena trees are read into: reset for each message, keeping its largest chunk, so
    /// a message's tree needs no allocation of its own once a few have been read.
    static ARENA: RefCell<Bump> = RefCell::new(Bump::new());
}

/// The most an arena keeps between messages; one that grew past it is dropped.
const ARENA_KEPT: usize = 1 << 20;

/// Hands the tree of JSON text ([`tree`]) to `explain` (`None` where the tokenizer gives up).
pub(crate) fn with_tree<T>(text: &str, explain: impl FnOnce(Option<&Tree<'_>>) -> T) -> T {
    ARENA.with(|cell| match cell.try_borrow_mut() {
        Ok(mut arena) => {
            arena.reset();
            let out = explain(tree(text, &arena).as_ref());
            if arena.allocated_bytes() > ARENA_KEPT {
                *arena = Bump::new();
            }
            out
        }
        // Only if `explain` read a tree itself (nothing does: the `Value` fallbacks run after
        // the arena is given back); a fresh arena then.
        Err(_) => explain(tree(text, &Bump::new()).as_ref()),
    })
}

/// The tree of JSON text, when the tokenizer reads all of it, in `arena`.
fn tree<'a>(text: &'a str, arena: &'a Bump) -> Option<Tree<'a>> {
    let mut sc = Scanner::new(text);
    let mut open = Open {
        items: ArenaVec::with_capacity_in(OPEN_CAPACITY, arena),
        members: ArenaVec::with_capacity_in(OPEN_CAPACITY, arena),
        arena,
    };
    let tree = open.read(&mut sc).ok()?;
    sc.end().ok()?;
    Some(tree)
}

/// How many values the stacks of [`Open`] hold before they grow.
const OPEN_CAPACITY: usize = 64;

/// The values of the arrays and objects being read, on two stacks: a finished array or
/// object takes its own off the top and is copied into the arena once, at its size (a vector
/// per array and object, grown as it is read, cost a copy per growth).
struct Open<'a> {
    items: ArenaVec<'a, Tree<'a>>,
    members: ArenaVec<'a, (&'a str, Tree<'a>)>,
    arena: &'a Bump,
}

impl<'a> Open<'a> {
    /// A string as the tree holds it: borrowed from the text, or (with escapes) copied to the
    /// arena.
    fn text(&self, s: Cow<'a, str>) -> &'a str {
        match s {
            Cow::Borrowed(s) => s,
            Cow::Owned(s) => self.arena.alloc_str(&s),
        }
    }

    fn read(&mut self, sc: &mut Scanner<'a>) -> Read<Tree<'a>> {
        Ok(match sc.peek().ok_or(Stop)? {
            b'"' => {
                sc.bump();
                Tree::Str(self.text(sc.string()?))
            }
            b'{' => {
                sc.bump();
                self.object(sc)?
            }
            b'[' => {
                sc.bump();
                sc.enter()?;
                let start = self.items.len();
                while sc.next_item(self.items.len() == start)? {
                    let item = self.read(sc)?;
                    self.items.push(item);
                }
                sc.leave();
                let items = self.arena.alloc_slice_copy(&self.items[start..]);
                self.items.truncate(start);
                Tree::Array(items)
            }
            _ => match sc.scalar()? {
                Scalar::Null => Tree::Null,
                Scalar::Bool(b) => Tree::Bool(b),
                Scalar::Num(n) => Tree::Num(n),
            },
        })
    }

    /// An object's members (after its `{`).
    fn object(&mut self, sc: &mut Scanner<'a>) -> Read<Tree<'a>> {
        sc.enter()?;
        let start = self.members.len();
        // A bit per hash of the names read so far: a name whose bit is clear is not written
        // twice, and is not looked for among the others (which cost 3% of an invalid message).
        let mut names = 0u64;
        let mut first = true;
        while sc.next_member(first)? {
            first = false;
            let name = self.text(sc.name()?);
            let bit = 1u64 << (name_hash(name) % u64::BITS);
            let value = self.read(sc)?;
            let members = &mut self.members[start..];
            let seen = names & bit != 0;
            names |= bit;
            let earlier = seen.then(|| members.iter().position(|(k, _)| same(k, name)));
            match earlier.flatten() {
                Some(earlier) => members[earlier].1 = value,
                None if members.len() < MAX_MEMBERS => self.members.push((name, value)),
                None => return Err(Stop),
            }
        }
        sc.leave();
        let members = self.arena.alloc_slice_copy(&self.members[start..]);
        self.members.truncate(start);
        Ok(Tree::Object(members))
    }
}

/// A hash of a member name from its length and its first and last bytes.
fn name_hash(name: &str) -> u32 {
    let b = name.as_bytes();
    let (first, last) = (b.first().copied(), b.last().copied());
    (b.len() as u32).wrapping_mul(7)
        ^ u32::from(first.unwrap_or(0))
        ^ u32::from(last.unwrap_or(0)) << 1
}

impl Tree<'_> {
    /// Whether the tree is an Agent Mail row (an object with a `body_md` member).
    pub(crate) fn is_row(&self) -> bool {
        matches!(self, Tree::Object(members) if members.iter().any(|(k, _)| *k == "body_md"))
    }
}

impl Probe for Tree<'_> {
    fn as_str(&self) -> Option<&str> {
        match self {
            Tree::Str(s) => Some(*s),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Tree::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn kind(&self) -> &'static str {
        Json::kind(self)
    }
}

impl<'v, 'a: 'v> Json<'v> for &'v Tree<'a> {
    type Array = std::slice::Iter<'v, Tree<'a>>;
    type Object = &'v [(&'a str, Tree<'a>)];

    #[inline]
    fn node(self) -> Node<'v, Self> {
        match self {
            Tree::Null => Node::Null,
            Tree::Bool(b) => Node::Bool(*b),
            Tree::Num(n) => Node::Num(*n),
            Tree::Str(s) => Node::Str(s),
            Tree::Array(items) => Node::Array(items.iter()),
            Tree::Object(members) => Node::Object(*members),
        }
    }

    fn probe(self) -> &'v dyn Probe {
        self
    }
}

/// A member of a tree object as the checks read it.
type Member<'v, 'a> = (&'v str, &'v Tree<'a>);

impl<'v, 'a: 'v> Object<'v> for &'v [(&'a str, Tree<'a>)] {
    type Value = &'v Tree<'a>;
    type Members = std::iter::Map<
        std::slice::Iter<'v, (&'a str, Tree<'a>)>,
        fn(&'v (&'a str, Tree<'a>)) -> Member<'v, 'a>,
    >;

    #[inline]
    fn members(self) -> Self::Members {
        self.iter().map(|(k, v)| (*k, v))
    }

    #[inline]
    fn get(self, key: &str) -> Option<&'v Tree<'a>> {
        self.iter().find(|(k, _)| same(k, key)).map(|(_, v)| v)
    }

    #[inline]
    fn len(self) -> usize {
        <[_]>::len(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The tree as a `Value` (to compare with the parser's).
    fn value(t: &Tree<'_>) -> Value {
        match t {
            Tree::Null => Value::Null,
            Tree::Bool(b) => Value::Bool(*b),
            #[allow(clippy::cast_possible_truncation)]
            Tree::Num(n) if n.integer => serde_json::json!(n.value as i64),
            Tree::Num(n) => serde_json::json!(n.value),
            Tree::Str(s) => Value::String(s.to_string()),
            Tree::Array(items) => Value::Array(items.iter().map(value).collect()),
            Tree::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.to_string(), value(v)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn members_written_twice_keep_the_first_place_and_the_last_value() {
        let text = r#"{"a":1,"b":{"c":[{"d":1,"d":2}],"c":3},"a":{"a":0},"\u0061":2}"#;
        let arena = Bump::new();
        let t = tree(text, &arena).unwrap();
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(value(&t).to_string(), parsed.to_string());
        assert_eq!(value(&t).to_string(), r#"{"a":2,"b":{"c":3}}"#);
        // Names of one hash are still told apart; the same name after them is still one.
        let text = r#"{"axb":1,"ayb":2,"azb":3,"ayb":4}"#;
        let t = tree(text, &arena).unwrap();
        assert_eq!(name_hash("axb"), name_hash("azb"));
        assert_eq!(value(&t).to_string(), r#"{"axb":1,"ayb":4,"azb":3}"#);
    }

    #[test]
    fn trees_are_read_one_after_another_and_one_inside_another() {
        // Past what the arena keeps between messages (24 bytes a value): dropped after it.
        let wide = format!("[{}]", vec!["\"x\""; 100_000].join(","));
        with_tree(&wide, |t| {
            assert!(matches!(t, Some(Tree::Array(items)) if items.len() == 100_000));
        });
        with_tree(r#"{"a":[1,{"b":"\u0063"}]}"#, |outer| {
            with_tree(r#"{"b":2}"#, |inner| {
                assert_eq!(value(inner.unwrap()).to_string(), r#"{"b":2}"#);
            });
            assert_eq!(value(outer.unwrap()).to_string(), r#"{"a":[1,{"b":"c"}]}"#);
        });
        with_tree("[1,", |t| assert!(t.is_none()));
    }

    #[test]
    fn what_the_tokenizer_leaves_to_the_parser_has_no_tree() {
        for text in [
            r#"{"a":"\ud83d\ude00"}"#,
            "[1,]",
            "{\"a\":1e400}",
            "",
            "1 2",
        ] {
            assert!(tree(text, &Bump::new()).is_none(), "{text}");
        }
        let wide = format!(
            "{{{}}}",
            (0..=MAX_MEMBERS)
                .map(|i| format!("\"m{i}\":0"))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(tree(&wide, &Bump::new()).is_none());
        assert!(tree(r#"[{"body_md":"x"}]"#, &Bump::new()).is_some_and(|t| !t.is_row()));
        assert!(tree(r#"{"x":1,"body_md":"x"}"#, &Bump::new()).is_some_and(|t| t.is_row()));
    }
}
