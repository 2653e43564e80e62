//! Secrets on the path from bytes: the same scan ([`crate::protocol::secrets`]) on the same
//! strings the full path scans — values no rule covers (with their members' names), an Agent
//! Mail row's own members, its subject and the prose around its message. A secret fails the
//! pass (the full path then reports it). Strings with a rule are scanned by the rule's check.

use super::failed;
use super::pass::{Seen, State};
use super::scan::{Read, Scanner};
use crate::protocol::detect;
use crate::protocol::secrets::{around, holds_secret};

/// Fails the pass when a string holds a secret (`name`: the member's, when the string is a
/// member's value).
pub(super) fn scan(st: &mut State<'_>, name: Option<&str>, s: &str) {
    if holds_secret(name, s) {
        st.ctx.fail();
    }
}

/// Reads a value no rule covers (as the tokenizer's `skip_value`), scanning its strings and
/// its members' string values.
pub(super) fn any<'a>(sc: &mut Scanner<'a>, st: &mut State<'a>, name: Option<&str>) -> Read<()> {
    if st.failed() {
        return failed::skip(sc, st);
    }
    match sc.peek() {
        Some(b'"') => {
            sc.bump();
            let s = sc.string()?;
            scan(st, name, &s);
        }
        Some(b'{') => {
            sc.bump();
            sc.enter()?;
            any_members(sc, st)?;
            sc.leave();
        }
        Some(b'[') => {
            sc.bump();
            sc.enter()?;
            let mut first = true;
            while sc.next_item(first)? {
                first = false;
                any(sc, st, None)?;
            }
            sc.leave();
        }
        _ => {
            sc.scalar()?;
        }
    }
    Ok(())
}

/// The members of an object no rule covers (after its `{`), scanned as [`any`] scans.
pub(super) fn any_members<'a>(sc: &mut Scanner<'a>, st: &mut State<'a>) -> Read<()> {
    let mut first = true;
    while sc.next_member(first)? {
        first = false;
        let key = sc.name()?;
        any(sc, st, Some(&key))?;
    }
    Ok(())
}

/// An undeclared member held before detection answered: its string was read but not scanned.
pub(super) fn held(st: &mut State<'_>, key: &str, seen: &Seen<'_>) {
    if let Seen::Str(s) = seen {
        scan(st, Some(key), s);
    }
}

/// Whether an Agent Mail row's own members, subject and the prose around its message hold no
/// secret (the message itself is checked by its own pass).
pub(super) fn row_clean(text: &str, body: &str, subject: Option<&str>) -> bool {
    let prose = detect::extract_json(body).map_or([body, ""], |json| around(body, json));
    if prose
        .into_iter()
        .chain(subject)
        .any(|t| holds_secret(None, t))
    {
        return false;
    }
    let mut sc = Scanner::new(text);
    let mut st = State::new(text, false);
    let mut read = || -> Read<()> {
        sc.eat(b'{')?;
        sc.enter()?;
        let mut first = true;
        while sc.next_member(first)? {
            first = false;
            let key = sc.name()?;
            if key == "body_md" || (key == "subject" && sc.peek() == Some(b'"')) {
                sc.skip_value()?;
            } else {
                any(&mut sc, &mut st, Some(&key))?;
            }
        }
        Ok(())
    };
    read().is_ok() && !st.failed()
}
