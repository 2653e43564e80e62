//! Members that a later member of the same object and name replaces: the `Value` parser keeps
//! the last one (at the first one's place), so a message that repeats a member is judged by
//! its last value. A pass that has to stop at the first of two members is run again, told to
//! skip the first ones.

use super::scan::{Read, Scanner, Stop};
use std::borrow::Cow;

/// The most members of one object this scan compares names across; an object with more is
/// left to the full path (so the scan stays linear in the text).
const MAX_MEMBERS: usize = 64;

/// Where each replaced member starts (the offset of its name's opening quote), in order; `None`
/// when the text is not JSON this path reads, or has an object too wide to scan.
pub(super) fn replaced(text: &str) -> Option<Vec<usize>> {
    let mut sc = Scanner::new(text);
    let mut found = Vec::new();
    walk(&mut sc, &mut Vec::new(), &mut found).ok()?;
    sc.end().ok()?;
    found.sort_unstable();
    Some(found)
}

/// Reads one value, noting the replaced members of the objects in it. `names` holds the
/// names (and where their last member starts) of the objects it is in, innermost last.
fn walk<'a>(
    sc: &mut Scanner<'a>,
    names: &mut Vec<(Cow<'a, str>, usize)>,
    found: &mut Vec<usize>,
) -> Read<()> {
    match sc.peek().ok_or(Stop)? {
        b'{' => {
            sc.bump();
            sc.enter()?;
            let base = names.len();
            let mut first = true;
            while sc.next_member(first)? {
                first = false;
                let at = sc.pos();
                let name = sc.name()?;
                if let Some(earlier) = names[base..].iter_mut().find(|(n, _)| *n == name) {
                    found.push(std::mem::replace(&mut earlier.1, at));
                } else if names.len() - base < MAX_MEMBERS {
                    names.push((name, at));
                } else {
                    return Err(Stop);
                }
                walk(sc, names, found)?;
            }
            names.truncate(base);
            sc.leave();
        }
        b'[' => {
            sc.bump();
            sc.enter()?;
            let mut first = true;
            while sc.next_item(first)? {
                first = false;
                walk(sc, names, found)?;
            }
            sc.leave();
        }
        b'"' => {
            sc.bump();
            sc.skip_string()?;
        }
        _ => {
            sc.scalar()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_earlier_of_two_members_is_replaced_at_any_depth() {
        let text = r#"{"a":1,"b":{"c":[{"d":1,"d":2}],"c":3},"a":{"a":0},"\u0061":2}"#;
        let at = |s: &str| text.find(s).unwrap();
        let want = vec![
            at(r#""a":1"#),
            at(r#""d":1"#),
            at(r#""c":["#),
            at(r#""a":{"#),
        ];
        let mut want = want;
        want.sort_unstable();
        assert_eq!(replaced(text), Some(want));
        assert_eq!(replaced(r#"{"a":1,"b":2}"#), Some(Vec::new()));
        assert_eq!(replaced(r#"{"a":1,"a":"#), None);
        let wide = format!(
            "{{{}}}",
            (0..=MAX_MEMBERS)
                .map(|i| format!("\"m{i}\":0"))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert_eq!(replaced(&wide), None);
    }
}
