//! Safe Markdown: message bodies are untrusted, so no raw HTML or script from a message
//! ever reaches the page. pulldown-cmark parses; raw HTML events become escaped text;
//! links keep only `http`, `https`, `mailto` and relative URLs; images become plain links
//! (no remote loads); a code block's language keeps only characters that make one class
//! name. The output is HTML built only from pulldown-cmark's own escaping writer.

use pulldown_cmark::{html, CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Whether a link URL may be followed: `http:`, `https:`, `mailto:` or relative (no
/// scheme). Control characters and whitespace inside the scheme are rejected, as
/// browsers strip them (`java\tscript:`).
#[must_use]
pub fn is_safe_url(url: &str) -> bool {
    let trimmed = url.trim_start_matches(|c: char| c <= ' ');
    if trimmed.chars().any(|c| c.is_control()) {
        return false;
    }
    let scheme_end = trimmed.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if trimmed.as_bytes()[i] == b':' => {
            let scheme = trimmed[..i].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// The language of a fenced code block as one safe class-name part: the info string's
/// first word (split at any whitespace, not only spaces) and only `[A-Za-z0-9_+#.-]`.
/// pulldown-cmark splits at spaces only, so "```x<TAB>error" would otherwise give the
/// block the console's own `error` class.
fn code_language(info: &str) -> String {
    info.split(|c: char| c.is_ascii_whitespace())
        .next()
        .unwrap_or_default()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "_+#.-".contains(*c))
        .collect()
}

/// Renders untrusted Markdown to HTML that is safe to insert with `inner_html`.
#[must_use]
pub fn render(markdown: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let events = Parser::new_ext(markdown, options).filter_map(|event| match event {
        Event::Html(text) | Event::InlineHtml(text) => Some(Event::Text(text)),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Some(Event::Start(Tag::Link {
            link_type,
            dest_url: if is_safe_url(&dest_url) {
                dest_url
            } else {
                CowStr::Borrowed("#unsafe-link-removed")
            },
            title,
            id,
        })),
        Event::Start(Tag::Image { dest_url, .. }) => {
            let text = if is_safe_url(&dest_url) {
                format!("[image: {dest_url}] ")
            } else {
                "[image removed] ".to_string()
            };
            Some(Event::Text(CowStr::from(text)))
        }
        Event::End(TagEnd::Image) => None,
        Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => Some(Event::Start(
            Tag::CodeBlock(CodeBlockKind::Fenced(code_language(&info).into())),
        )),
        other => Some(other),
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_escaped_and_bad_links_are_dropped() {
        let html = render("<script>alert(1)</script>\n\n[x](javascript:alert(1)) **b**");
        assert!(!html.contains("<script"));
        assert!(html.contains("&lt;script&gt;"));
        assert!(!html.contains("javascript:"));
        assert!(html.contains("<strong>b</strong>"));
    }

    #[test]
    fn url_schemes_are_allow_listed() {
        for ok in [
            "https://a.example/x",
            "http://a",
            "mailto:a@b",
            "/rel",
            "rel/x",
            "#top",
            "?q=1",
        ] {
            assert!(is_safe_url(ok), "{ok}");
        }
        for bad in [
            "javascript:x",
            "JaVaScRiPt:x",
            " javascript:x",
            "data:text/html,x",
            "vbscript:x",
            "java\tscript:x",
            "file:///etc",
        ] {
            assert!(!is_safe_url(bad), "{bad}");
        }
    }

    #[test]
    fn code_languages_are_one_class_name() {
        assert_eq!(
            render("```rust\nx\n```"),
            "<pre><code class=\"language-rust\">x\n</code></pre>\n"
        );
        for info in ["x\terror", "x\u{c}badge", "x\"onclick=y", "x<b>"] {
            let html = render(&format!("```{info}\ny\n```"));
            assert!(
                html.starts_with("<pre><code class=\"language-x\">"),
                "{html}"
            );
        }
        assert!(render("```\"\ny\n```").starts_with("<pre><code>"));
    }

    #[test]
    fn images_never_load() {
        let html = render("![alt](https://tracker.example/p.png) ![x](javascript:1)");
        assert!(!html.contains("<img"));
        assert!(html.contains("[image: https://tracker.example/p.png]"));
        assert!(html.contains("[image removed]"));
    }
}
