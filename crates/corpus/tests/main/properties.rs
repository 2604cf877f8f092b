//! Property tests: conversions never panic on arbitrary input, and a page's
//! sections always cover its text (and, for Markdown, its body).

use lectern_corpus::{frontmatter, html_to_page, markdown_to_page};
use proptest::prelude::*;

use crate::check_invariants;

/// Markdown-ish text: arbitrary strings mixed with the syntax that matters.
fn markdownish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        Just("\n## Heading {#id}\n".to_owned()),
        Just("\n# Title\n".to_owned()),
        Just("\n### 标题 三\n".to_owned()),
        Just("\n```\ncode\n```\n".to_owned()),
        Just("\n| a | b |\n|---|---|\n| 1 | 2 |\n".to_owned()),
        Just("\n> quote\n> ## quoted heading\n".to_owned()),
        Just("<div>html</div>".to_owned()),
        Just("---\n".to_owned()),
        Just("\0".to_owned()),
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

fn htmlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        Just("<h2 id=\"x\">Heading</h2>".to_owned()),
        Just("<div class=\"sect2\" id=\"S\"><h3>Sub</h3>".to_owned()),
        Just("<div class=\"navheader\">nav</div>".to_owned()),
        Just("<table><tr><th>a</th><td>b|c</td></tr>".to_owned()),
        Just("<pre>```code```</pre>".to_owned()),
        Just("<ul><li>x<ol><li>y</li></ol></li></ul>".to_owned()),
        Just("<a href=\"../x.html#y\">l</a><code>`c`</code>".to_owned()),
        Just("<em> a </em><strong></strong>".to_owned()),
        Just("</div></table>".to_owned()),
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn markdown_never_panics_and_sections_cover(body in markdownish(), fm in any::<String>()) {
        for src in [body.clone(), format!("---\n{fm}\n---\n{body}")] {
            if let Ok(page) = markdown_to_page(src.as_bytes(), "dir/page.md", "/p") {
                check_invariants(&page);
                let joined: String = page.sections.iter().map(|s| s.markdown.as_str()).collect();
                prop_assert_eq!(joined.trim_start(), page.markdown.trim_start());
            }
        }
    }

    #[test]
    fn frontmatter_never_panics(yaml in any::<String>()) {
        let _ = frontmatter::parse(&yaml);
        let _ = frontmatter::split(&yaml);
    }

    #[test]
    fn html_never_panics_and_sections_cover(src in htmlish()) {
        let page = html_to_page(src.as_bytes(), "a/b.html", "/p").unwrap();
        check_invariants(&page);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = html_to_page(&bytes, "x.html", "");
        let _ = markdown_to_page(&bytes, "x.md", "");
    }
}
