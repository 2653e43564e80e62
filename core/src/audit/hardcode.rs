//! Hard-coded test expectations: the contract's assertions as (literal inputs, expected
//! literal) pairs, and the branches of added code that map one to the other.

use super::lexer::{Language, Lexer, Token};
use std::collections::BTreeSet;

/// A literal value, compared across languages (`True`/`true`, `None`/`null`, `10`/`10.0`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lit {
    /// A string's content.
    Str(String),
    /// A number, in canonical text.
    Num(String),
    /// A boolean.
    Bool(bool),
    /// None / null / undefined.
    Null,
}

impl Lit {
    /// Whether the literal is too common to mean a test input (0, ±1, 2, booleans, null,
    /// strings under 2 characters).
    pub fn is_trivial(&self) -> bool {
        match self {
            Lit::Str(s) => s.chars().count() < 2,
            Lit::Num(n) => ["0", "1", "-1", "2", "-0"].contains(&n.as_str()),
            Lit::Bool(_) | Lit::Null => true,
        }
    }

    /// The literal as a spec would write it (strings: their content).
    pub fn text(&self) -> String {
        match self {
            Lit::Str(s) => s.clone(),
            Lit::Num(n) => n.clone(),
            Lit::Bool(b) => b.to_string(),
            Lit::Null => "null".into(),
        }
    }
}

impl std::fmt::Display for Lit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lit::Str(s) => write!(f, "{s:?}"),
            other => f.write_str(&other.text()),
        }
    }
}

/// One contract assertion: the literals passed to the code under test and the expected one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// Literals on the tested side (the call's arguments).
    pub inputs: Vec<Lit>,
    /// The single expected literal.
    pub expected: Lit,
}

/// A numeric literal in canonical text: `_` and type suffixes (`u32`, `f64`, JS `n`)
/// dropped, hex as decimal, trailing fraction zeros dropped (`10.0` is `10`). Text, not
/// `f64`, so float parsing and printing stay out of the wasm.
fn number(text: &str) -> Option<String> {
    let t = text.replace('_', "").to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(|v| v.to_string());
    }
    const SUFFIXES: &[&str] = &[
        "u128", "usize", "u16", "u32", "u64", "u8", "i128", "isize", "i16", "i32", "i64", "i8",
        "f32", "f64", "n",
    ];
    let digits = SUFFIXES
        .iter()
        .find_map(|s| t.strip_suffix(s))
        .unwrap_or(&t);
    if digits.is_empty()
        || !digits
            .chars()
            .all(|c| c.is_ascii_digit() || ".e+-".contains(c))
    {
        return None;
    }
    let canon = if digits.contains('.') && !digits.contains('e') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        digits
    };
    let canon = canon.trim_start_matches('0');
    Some(if canon.is_empty() || canon.starts_with('.') {
        format!("0{canon}")
    } else {
        canon.to_owned()
    })
}

/// The literal starting at `t[i]` (a negative number takes two tokens) and its length.
pub fn lit_at(t: &[Token], i: usize) -> Option<(Lit, usize)> {
    match t.get(i)? {
        Token::Str(s) => Some((Lit::Str(s.clone()), 1)),
        Token::Num(n) => Some((Lit::Num(number(n)?), 1)),
        Token::Word(w) => match w.as_str() {
            "True" | "true" => Some((Lit::Bool(true), 1)),
            "False" | "false" => Some((Lit::Bool(false), 1)),
            "None" | "null" | "undefined" => Some((Lit::Null, 1)),
            _ => None,
        },
        Token::Punct('-') => {
            let prev_value = i > 0
                && matches!(
                    t[i - 1],
                    Token::Word(_) | Token::Num(_) | Token::Str(_) | Token::Punct(')' | ']')
                );
            match (prev_value, t.get(i + 1)) {
                (false, Some(Token::Num(n))) => Some((Lit::Num(format!("-{}", number(n)?)), 2)),
                _ => None,
            }
        }
        Token::Punct(_) => None,
    }
}

/// Every literal in `t`.
pub fn literals(t: &[Token]) -> Vec<Lit> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match lit_at(t, i) {
            Some((lit, n)) => {
                out.push(lit);
                i += n;
            }
            None => i += 1,
        }
    }
    out
}

/// The assertions of a contract test file.
pub fn expectations(lang: Language, text: &str) -> Vec<Expectation> {
    let mut lexer = Lexer::new(lang);
    let mut out = Vec::new();
    let mut statement: Vec<Token> = Vec::new();
    let mut depth = 0i64;
    for line in text.lines() {
        for token in lexer.line(line) {
            match token {
                Token::Punct('(' | '[') => depth += 1,
                Token::Punct(')' | ']') => depth -= 1,
                Token::Punct(';') if depth <= 0 => {
                    assertions(&statement, &mut out);
                    statement.clear();
                    continue;
                }
                _ => {}
            }
            statement.push(token);
        }
        if depth <= 0 {
            assertions(&statement, &mut out);
            statement.clear();
            depth = 0;
        }
    }
    assertions(&statement, &mut out);
    out
}

/// Splits `t` on top-level commas.
fn args(t: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, x) in t.iter().enumerate() {
        match x {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => depth -= 1,
            Token::Punct(',') if depth == 0 => {
                out.push(&t[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&t[start..]);
    out
}

/// The tokens inside the parentheses opening at `t[open]`, and the index after the close.
fn group(t: &[Token], open: usize) -> Option<(&[Token], usize)> {
    let mut depth = 0;
    for (i, x) in t.iter().enumerate().skip(open) {
        match x {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return Some((&t[open + 1..i], i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

const PAIR_CALLS: &[&str] = &[
    "assertEqual",
    "assertEquals",
    "assertIs",
    "assertDictEqual",
    "assertListEqual",
    "assertTupleEqual",
    "assertAlmostEqual",
    "assert_eq",
    "assertStrictEquals",
];
const ASSERT_MODULE_CALLS: &[&str] = &["equal", "strictEqual", "deepEqual", "deepStrictEqual"];

fn push(actual: &[Token], expected: Option<Lit>, out: &mut Vec<Expectation>) {
    let calls = actual
        .windows(2)
        .any(|w| matches!(w[0], Token::Word(_)) && w[1].is('('));
    let inputs = literals(actual);
    if let (true, false, Some(expected)) = (calls, inputs.is_empty(), expected) {
        out.push(Expectation { inputs, expected });
    }
}

/// The single literal of an expected side (`5`, `Ok(5)`, `"x".to_string()`), if it has one.
fn sole_literal(t: &[Token]) -> Option<Lit> {
    let lits = literals(t);
    (lits.len() == 1).then(|| lits.into_iter().next()).flatten()
}

fn assertions(t: &[Token], out: &mut Vec<Expectation>) {
    if t.first().is_some_and(|x| x.is_word("assert"))
        && t.get(1)
            .is_none_or(|x| !x.is('!') && !x.is('(') && !x.is('.'))
    {
        python_assert(&t[1..], out);
        return;
    }
    for (i, x) in t.iter().enumerate() {
        let Token::Word(name) = x else { continue };
        let bang = t.get(i + 1).is_some_and(|p| p.is('!'));
        let open = i + 1 + usize::from(bang);
        if !t.get(open).is_some_and(|p| p.is('(')) {
            continue;
        }
        let Some((inner, after)) = group(t, open) else {
            continue;
        };
        let on_assert = i >= 2 && t[i - 1].is('.') && t[i - 2].is_word("assert");
        let parts = args(inner);
        if PAIR_CALLS.contains(&name.as_str())
            || (on_assert && ASSERT_MODULE_CALLS.contains(&name.as_str()))
        {
            if let [actual, expected, ..] = parts.as_slice() {
                push(actual, sole_literal(expected), out);
            }
        } else if matches!(
            name.as_str(),
            "assertTrue" | "assertFalse" | "assertIsNone" | "assert" | "ok"
        ) {
            let first = parts.first().copied().unwrap_or(&[]);
            let negated = first.first().is_some_and(|p| p.is('!'));
            let expected = match name.as_str() {
                "assertFalse" => Lit::Bool(false),
                "assertIsNone" => Lit::Null,
                "ok" if !on_assert => continue,
                _ => Lit::Bool(!negated),
            };
            push(&first[usize::from(negated)..], Some(expected), out);
        } else if name == "expect" {
            expect_chain(inner, &t[after..], out);
        }
    }
}

fn python_assert(t: &[Token], out: &mut Vec<Expectation>) {
    let body = args(t).into_iter().next().unwrap_or(&[]);
    let split = body.iter().enumerate().find_map(|(i, x)| {
        let eq = x.is('=') && body.get(i + 1).is_some_and(|y| y.is('='));
        let is = x.is_word("is") && !body.get(i + 1).is_some_and(|y| y.is_word("not"));
        match (eq, is) {
            (true, _) => Some((i, 2)),
            (_, true) => Some((i, 1)),
            _ => None,
        }
    });
    match split {
        Some((i, width)) => {
            let (left, right) = (&body[..i], &body[i + width..]);
            if sole_literal(left).is_some() && literals(right).len() > 1 {
                push(right, sole_literal(left), out);
            } else {
                push(left, sole_literal(right), out);
            }
        }
        None if body.first().is_some_and(|x| x.is_word("not")) => {
            push(&body[1..], Some(Lit::Bool(false)), out)
        }
        None => push(body, Some(Lit::Bool(true)), out),
    }
}

fn expect_chain(actual: &[Token], rest: &[Token], out: &mut Vec<Expectation>) {
    let mut i = 0;
    while rest.get(i).is_some_and(|x| x.is('.')) {
        match rest.get(i + 1) {
            Some(Token::Word(w)) if w == "resolves" => i += 2,
            Some(Token::Word(w)) => {
                let matcher = w.as_str();
                let Some((inner, _)) = rest
                    .get(i + 2)
                    .filter(|p| p.is('('))
                    .and_then(|_| group(rest, i + 2))
                else {
                    return;
                };
                let expected = match matcher {
                    "toBe" | "toEqual" | "toStrictEqual" | "toBeCloseTo" => {
                        sole_literal(args(inner)[0])
                    }
                    "toBeTruthy" => Some(Lit::Bool(true)),
                    "toBeFalsy" => Some(Lit::Bool(false)),
                    "toBeNull" | "toBeUndefined" => Some(Lit::Null),
                    _ => None,
                };
                push(actual, expected, out);
                return;
            }
            _ => return,
        }
    }
}

/// Tokens that may sit between a yield marker and its literal (`return Ok(5)`, `=> Some("x")`).
fn wrapper(t: &Token) -> bool {
    match t {
        Token::Word(w) => matches!(
            w.as_str(),
            "Ok" | "Some" | "Err" | "String" | "str" | "from" | "new" | "Box" | "await"
        ),
        Token::Punct(p) => matches!(p, '(' | ':' | '&'),
        _ => false,
    }
}

/// The literals a line yields: after `return`/`yield`/`then`/`=>`/`?`/`:` (skipping
/// wrappers), before a Python conditional `if`, or the line's only value (a tail expression).
pub fn yielded(t: &[Token]) -> Vec<Lit> {
    let mut out = Vec::new();
    for i in 0..t.len() {
        let trigger = match &t[i] {
            Token::Word(w) => matches!(w.as_str(), "return" | "yield" | "then"),
            Token::Punct('>') => i > 0 && t[i - 1].is('='),
            Token::Punct('?') | Token::Punct(':') => true,
            _ => false,
        };
        if trigger {
            let mut j = i + 1;
            while t.get(j).is_some_and(wrapper) {
                j += 1;
            }
            if let Some((lit, _)) = lit_at(t, j) {
                out.push(lit);
            }
        }
        if t[i].is_word("if") && i > 0 {
            let start = if t[i - 1].is(')') { None } else { Some(i - 1) };
            if let Some((lit, _)) = start.and_then(|s| lit_at(t, s)) {
                out.push(lit);
            }
        }
    }
    let values: Vec<&Token> = t
        .iter()
        .filter(|x| !matches!(x, Token::Punct(';' | ',' | '}' | '{' | ')')))
        .filter(|x| !wrapper(x))
        .collect();
    if values.len() == 1 {
        if let Some((lit, _)) = lit_at(&[values[0].clone()], 0) {
            out.push(lit);
        }
    }
    out
}

/// Whether a line branches: `if`, `elif`, `case`, `when`, a match arm `=>`, a ternary `?`.
pub fn branches(t: &[Token]) -> bool {
    t.iter().enumerate().any(|(i, x)| match x {
        Token::Word(w) => matches!(w.as_str(), "if" | "elif" | "case" | "when"),
        Token::Punct('>') => i > 0 && t[i - 1].is('='),
        Token::Punct('?') => true,
        _ => false,
    })
}

/// The literals of `t` that are followed by `:` or `=>` (lookup-table keys), in one pass.
pub fn keyed(t: &[Token]) -> BTreeSet<Lit> {
    (0..t.len())
        .filter_map(|i| {
            let (l, n) = lit_at(t, i)?;
            let key = t.get(i + n).is_some_and(|x| x.is(':'))
                || (t.get(i + n).is_some_and(|x| x.is('='))
                    && t.get(i + n + 1).is_some_and(|x| x.is('>')));
            key.then_some(l)
        })
        .collect()
}
