//! Web pages named with `--url`: the page reader (dom_smoothie's Readability) on real pages
//! that a registry package ships as test data (`scripts/fetch-web-pages.sh`).

use std::path::Path;

use litrev_model::{WebUrl, WorkKind};
use litrev_sources::web::read_page_within;

use crate::check::Checked;
use crate::seeds::{self, Seed, Seeds};

/// The real pages, gunzipped where they are stored so.
pub(super) fn seeds(_data: &Path) -> Seeds {
    let folder =
        litrev_testkit::web_pages().ok_or("no web pages: run scripts/fetch-web-pages.sh")?;
    let files = seeds::files(&folder, &[".html", ".html.gz"])?;
    files
        .iter()
        .map(|file| Ok(Seed::new(file.display().to_string(), seeds::read(file)?)))
        .collect()
}

/// Reads one page: a page read is a `webpage` work known by its address, with a title and at
/// most the abstract's words, and a text without empty sections or paragraphs; a refusal
/// names the address.
pub(super) fn run(input: &[u8]) -> Checked {
    let address: WebUrl = "url:https://example.org/page"
        .parse()
        .map_err(|_| "the test address")?;
    // Under the harness's limit for a hang: a page the reader takes too long on is refused.
    let limit = std::time::Duration::from_secs(2);
    match read_page_within(&address, "https://example.org/page", input, limit) {
        Ok(page) => {
            let work = page.work;
            // Every paragraph of the text is plain, squeezed text, and no section is empty.
            if page.text.sections.iter().any(|section| {
                section.paragraphs.is_empty()
                    || section
                        .paragraphs
                        .iter()
                        .any(|paragraph| paragraph.trim().is_empty() || paragraph.contains("  "))
            }) {
                return Err(format!("an empty section or paragraph: {:?}", page.text));
            }
            if work.kind != WorkKind::Webpage || work.ids.url.as_ref() != Some(&address) {
                return Err(format!("not a webpage known by its address: {work:?}"));
            }
            if work
                .title
                .as_deref()
                .is_none_or(|title| title.trim().is_empty())
            {
                return Err("a page without a title".into());
            }
            let words = work
                .abstract_text
                .as_deref()
                .map_or(0, |text| text.split_whitespace().count());
            if !(1..=300).contains(&words) {
                return Err(format!("an abstract of {words} words"));
            }
            if work
                .authors
                .iter()
                .any(|author| author.name.trim().is_empty())
            {
                return Err("a nameless author".into());
            }
            Ok(())
        }
        Err(error) if !error.to_string().contains("example.org") => {
            Err(format!("a refusal that does not name the page: {error}"))
        }
        Err(_) => Ok(()),
    }
}
