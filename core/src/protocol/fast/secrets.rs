//! Secrets on the path from bytes: the same scan ([`crate::protocol::secrets`]) on the same
//! strings the full path scans — values no rule covers (with their members' names), an Agent
//! Mail row's own members, its subject and the prose around its message, each secret listed
//! at its path. Strings with a rule are scanned by the rule's check.

use super::pass::{Seen, State};
use super::scan::{Read, Scanner};
use crate::protocol::ctx::{check_secrets, Ctx};
use crate::protocol::detect;
use crate::protocol::issue::LazyPath;
use crate::protocol::secrets::{around, holds_secret};

/// Reads a value no rule covers (as the tokenizer's `skip_value`), listing the secrets in its
/// strings and its members' string values (`name`: the member's, when the value is one's).
pub(super) fn any<'a>(
    sc: &mut Scanner<'a>,
    st: &mut State<'_, 'a>,
    name: Option<&str>,
    path: LazyPath<'_>,
) -> Read<()> {
    match sc.peek() {
        Some(b'"') => {
            sc.bump();
            let s = sc.string()?;
            check_secrets(st.ctx, name, &s, path);
        }
        Some(b'{') => {
            sc.bump();
            sc.enter()?;
            let mut first = true;
            while sc.next_member(first)? {
                first = false;
                let key = sc.name()?;
                any(sc, st, Some(&key), path.key(&key))?;
            }
            sc.leave();
        }
        Some(b'[') => {
            sc.bump();
            sc.enter()?;
            let mut len = 0;
            while sc.next_item(len == 0)? {
                any(sc, st, None, path.index(len))?;
                len += 1;
            }
            sc.leave();
        }
        _ => {
            sc.scalar()?;
        }
    }
    Ok(())
}

/// An undeclared member `key` held before detection answered (at `path`): its secrets, its
/// array or object read again from where it starts.
pub(super) fn held<'a>(
    st: &mut State<'_, 'a>,
    key: &str,
    seen: &Seen<'a>,
    path: LazyPath<'_>,
) -> Read<()> {
    match seen {
        Seen::Str(s) => check_secrets(st.ctx, Some(key), s, path),
        Seen::Array(at) | Seen::Object(at) => {
            any(&mut Scanner::at(st.text, *at), st, Some(key), path)?;
        }
        Seen::Null | Seen::Bool(_) | Seen::Num(_) => {}
    }
    Ok(())
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
    let mut ctx = Ctx::verdict();
    let mut st = State::new(text, &mut ctx);
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
                any(&mut sc, &mut st, Some(&key), LazyPath::Root)?;
            }
        }
        Ok(())
    };
    read().is_ok() && ctx.errors == 0
}
