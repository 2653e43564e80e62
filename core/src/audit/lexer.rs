//! A small line lexer for Python, TypeScript/JavaScript and Rust: words, numbers, string
//! literals and punctuation, with comments dropped. State (an open block comment, docstring,
//! template or raw string) carries from one line to the next, so a hunk is lexed in order.
//!
//! [`normal`] renders tokens as the text the pattern needles match: ASCII lower case, strings in
//! single quotes, and a space only between two adjacent words or numbers.

/// A source language the audit reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// `.py`, `.pyi`.
    Python,
    /// `.ts`, `.tsx`, `.mts`, `.cts`, `.js`, `.jsx`, `.mjs`, `.cjs`.
    TypeScript,
    /// `.rs`.
    Rust,
}

impl Language {
    /// The language of a file, by extension.
    pub fn of(path: &str) -> Option<Language> {
        let ext = path.rsplit_once('.')?.1;
        match ext {
            "py" | "pyi" => Some(Language::Python),
            "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs" => {
                Some(Language::TypeScript)
            }
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }

    /// The name used in the patterns table.
    pub const fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::TypeScript => "typescript",
            Language::Rust => "rust",
        }
    }
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// An identifier or keyword.
    Word(String),
    /// A numeric literal as written.
    Num(String),
    /// A string (or char) literal's content, escapes left as written.
    Str(String),
    /// One punctuation character.
    Punct(char),
}

impl Token {
    /// Whether this is the punctuation `c`.
    pub fn is(&self, c: char) -> bool {
        *self == Token::Punct(c)
    }

    /// Whether this is the word `w`.
    pub fn is_word(&self, w: &str) -> bool {
        matches!(self, Token::Word(x) if x == w)
    }
}

/// What is open at the end of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Open {
    Code,
    BlockComment,
    /// A string that continues on the next line, closed by `close`.
    Str {
        close: String,
        escapes: bool,
    },
}

/// A lexer for one language; feed it the lines of one side of a hunk in order.
#[derive(Debug, Clone)]
pub struct Lexer {
    lang: Language,
    open: Open,
}

impl Lexer {
    /// A lexer starting in code.
    pub fn new(lang: Language) -> Lexer {
        Lexer {
            lang,
            open: Open::Code,
        }
    }

    /// Lexes the next line.
    pub fn line(&mut self, text: &str) -> Vec<Token> {
        let chars: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            match std::mem::replace(&mut self.open, Open::Code) {
                Open::BlockComment => match find(&chars, i, &['*', '/']) {
                    Some(end) => i = end + 2,
                    None => {
                        self.open = Open::BlockComment;
                        return out;
                    }
                },
                Open::Str { close, escapes } => {
                    i = self.string(&chars, i, close, escapes, &mut out);
                }
                Open::Code => i = self.code(&chars, i, &mut out),
            }
            if i == usize::MAX {
                break;
            }
        }
        out
    }

    /// Lexes code from `i`; returns where to continue (`usize::MAX`: rest is a comment).
    fn code(&mut self, c: &[char], i: usize, out: &mut Vec<Token>) -> usize {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        let c_style = self.lang != Language::Python;
        if ch.is_whitespace() {
            return i + 1;
        }
        if (ch == '#' && self.lang == Language::Python)
            || (c_style && ch == '/' && next == Some('/'))
        {
            return usize::MAX;
        }
        if c_style && ch == '/' && next == Some('*') {
            self.open = Open::BlockComment;
            return i + 2;
        }
        if ch == '"' || ch == '`' || (ch == '\'' && self.lang != Language::Rust) {
            return self.quote(c, i, out);
        }
        if ch == '\'' {
            // Rust: a char literal ('x', '\n') or a lifetime ('a).
            if next == Some('\\') || c.get(i + 2) == Some(&'\'') {
                return self.string(c, i + 1, "'".into(), true, out);
            }
            out.push(Token::Punct('\''));
            return i + 1;
        }
        if ch.is_ascii_alphabetic()
            || ch == '_'
            || !ch.is_ascii()
            || (ch == '$' && self.lang == Language::TypeScript)
        {
            let end = scan(c, i, is_ident);
            let word: String = c[i..end].iter().collect();
            if self.string_prefix(&word, c.get(end).copied()) {
                return self.prefixed(c, end, &word, out);
            }
            out.push(Token::Word(word));
            return end;
        }
        if ch.is_ascii_digit() {
            let mut end = i;
            while end < c.len() {
                let x = c[end];
                let dot = x == '.' && c.get(end + 1).is_some_and(char::is_ascii_digit);
                if x.is_ascii_alphanumeric() || x == '_' || dot {
                    end += 1;
                } else {
                    break;
                }
            }
            out.push(Token::Num(c[i..end].iter().collect()));
            return end;
        }
        out.push(Token::Punct(ch));
        i + 1
    }

    /// Whether `word` is a string prefix (`r`, `b`, `f`, `rb`, `br`...) before `next`.
    fn string_prefix(&self, word: &str, next: Option<char>) -> bool {
        let Some(next) = next else {
            return false;
        };
        let lower = word.to_ascii_lowercase();
        match self.lang {
            Language::Python => {
                (next == '"' || next == '\'')
                    && matches!(
                        lower.as_str(),
                        "r" | "b" | "f" | "u" | "rb" | "br" | "fr" | "rf"
                    )
            }
            Language::Rust => {
                (next == '"' || next == '#') && matches!(word, "r" | "b" | "br" | "c" | "cr")
            }
            Language::TypeScript => false,
        }
    }

    /// A prefixed string: Python `r"..."`/`f'...'` (tokenized like plain strings), Rust
    /// `r#"..."#` / `b"..."`.
    fn prefixed(&mut self, c: &[char], at: usize, word: &str, out: &mut Vec<Token>) -> usize {
        if self.lang == Language::Rust && word.contains('r') {
            let hashes = scan(c, at, |x| x == '#') - at;
            if c.get(at + hashes) != Some(&'"') {
                out.push(Token::Word(word.to_owned()));
                return at;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            return self.string(c, at + hashes + 1, close, false, out);
        }
        self.quote(c, at, out)
    }

    /// A string opened by the quote at `i` (triple quotes in Python, templates in TS).
    fn quote(&mut self, c: &[char], i: usize, out: &mut Vec<Token>) -> usize {
        let q = c[i];
        let triple =
            self.lang == Language::Python && c.get(i + 1) == Some(&q) && c.get(i + 2) == Some(&q);
        if triple {
            return self.string(c, i + 3, q.to_string().repeat(3), true, out);
        }
        self.string(c, i + 1, q.to_string(), true, out)
    }

    /// String content from `i` to `close`; an unclosed string stays open for the next line
    /// (Python single-quoted strings and TS '...' / "..." close at the line end).
    fn string(
        &mut self,
        c: &[char],
        i: usize,
        close: String,
        escapes: bool,
        out: &mut Vec<Token>,
    ) -> usize {
        let close_chars: Vec<char> = close.chars().collect();
        let mut j = i;
        while j < c.len() {
            if escapes && c[j] == '\\' {
                j += 2;
                continue;
            }
            if c[j..].starts_with(&close_chars) {
                out.push(Token::Str(c[i..j].iter().collect()));
                return j + close_chars.len();
            }
            j += 1;
        }
        out.push(Token::Str(c[i.min(c.len())..].iter().collect()));
        let spans_lines = match self.lang {
            Language::Python => close_chars.len() == 3,
            Language::TypeScript => close == "`",
            Language::Rust => true,
        };
        if spans_lines {
            self.open = Open::Str { close, escapes };
        }
        usize::MAX
    }
}

fn scan(c: &[char], from: usize, keep: impl Fn(char) -> bool) -> usize {
    let mut end = from;
    while end < c.len() && keep(c[end]) {
        end += 1;
    }
    end
}

fn find(c: &[char], from: usize, pat: &[char]) -> Option<usize> {
    (from..c.len()).find(|&k| c[k..].starts_with(pat))
}

/// Renders tokens as matchable text: ASCII lower case, strings in single quotes, a space only
/// between two adjacent words or numbers.
pub fn normal(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut prev_word = false;
    for t in tokens {
        match t {
            Token::Word(w) | Token::Num(w) => {
                if prev_word {
                    out.push(' ');
                }
                out.push_str(&w.to_ascii_lowercase());
                prev_word = true;
                continue;
            }
            Token::Str(s) => {
                out.push('\'');
                out.push_str(&s.to_ascii_lowercase());
                out.push('\'');
            }
            Token::Punct(p) => out.push(*p),
        }
        prev_word = false;
    }
    out
}

/// An identifier character: ASCII alphanumeric, `_`, `$`, or any non-ASCII character (the
/// languages allow Unicode identifiers; ASCII-only tests keep Unicode tables out of the wasm).
fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$' || !c.is_ascii()
}

/// Whether `needle` occurs in `hay` (both normalised). A `*` in a needle stands for a run
/// of identifier characters (possibly empty). A needle that starts with an identifier
/// character must not be preceded by one; a needle that ends with one must not be followed by
/// one; a needle ending in `=` must not be followed by `=`.
pub fn contains(hay: &str, needle: &str) -> bool {
    // A leading `*` only lifts the start boundary. No allocation: this runs for every added
    // line and every needle.
    let open_start = needle.starts_with('*');
    let mut segments = needle[usize::from(open_start)..].split('*');
    let first = segments.next().unwrap_or_default();
    if first.is_empty() || hay.len() < first.len() {
        return false;
    }
    let starts_ident = !open_start && first.chars().next().is_some_and(is_ident);
    // Lines are short and the needles many: a plain scan beats building a `str` searcher
    // (Two-Way setup) for every line and needle.
    let (hb, nb) = (hay.as_bytes(), first.as_bytes());
    let candidates = (0..(hb.len() + 1).saturating_sub(nb.len()))
        .filter(|&i| hb[i] == nb[0] && hb[i..].starts_with(nb) && hay.is_char_boundary(i));
    for at in candidates {
        if starts_ident && hay[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let mut pos = at + first.len();
        let mut ok = true;
        for segment in segments.clone() {
            pos += hay[pos..]
                .find(|c: char| !is_ident(c))
                .unwrap_or(hay.len() - pos);
            if !hay[pos..].starts_with(segment) {
                ok = false;
                break;
            }
            pos += segment.len();
        }
        let after = hay[pos..].chars().next();
        let end_ok = match needle.chars().last() {
            Some('=') => after != Some('='),
            Some(c) if is_ident(c) => !after.is_some_and(is_ident),
            _ => true,
        };
        if ok && end_ok {
            return true;
        }
    }
    false
}
