//! The page reader on real web pages (a registry package's test data, fetched by
//! `scripts/fetch-web-pages.sh`): each becomes a `webpage` work with its title and the opening
//! of its readable text, without the navigation around it.

use std::io::Read;
use std::path::Path;

use litrev_model::{WebUrl, WorkKind};
use litrev_sources::web::read_page;

fn html(folder: &Path, name: &str) -> Vec<u8> {
    let bytes = std::fs::read(folder.join(name)).expect("page");
    if !name.ends_with(".gz") {
        return bytes;
    }
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_end(&mut plain)
        .expect("gzip");
    plain
}

#[test]
fn real_pages_become_webpage_works_with_their_title_and_text() {
    let Some(folder) = litrev_testkit::web_pages() else {
        return;
    };
    let address: WebUrl = "url:https://fivethirtyeight.com/features/could-manchin-actually-leave-the-democratic-party/"
        .parse()
        .expect("address");
    let article = read_page(
        &address,
        address.address(),
        &html(&folder, "fivethirtyeight-manchin.html.gz"),
    )
    .expect("the article reads");
    assert_eq!(article.kind, WorkKind::Webpage);
    assert!(
        article.title.as_deref().is_some_and(
            |title| title.contains("Could Manchin Actually Leave The Democratic Party")
        ),
        "{:?}",
        article.title
    );
    let text = article.abstract_text.as_deref().expect("text");
    assert!(text.contains("Manchin"), "{text}");
    let words = text.split_whitespace().count();
    assert!((100..=300).contains(&words), "{words} words: {text}");
    assert!(!text.contains("NREUM"), "no script in the text: {text}");
    assert_eq!(article.id().to_string(), address.to_string());

    let mozilla: WebUrl = "url:https://www.mozilla.org/en-US/firefox/developer/"
        .parse()
        .expect("address");
    let page = read_page(
        &mozilla,
        mozilla.address(),
        &html(&folder, "mozilla-firefox-developer.html"),
    )
    .expect("the page reads");
    assert!(
        page.title
            .as_deref()
            .is_some_and(|title| title.contains("Firefox Developer Edition")),
        "{:?}",
        page.title
    );
    assert!(page.venue.is_some(), "the site or host names the venue");

    // Every page reads or is refused with its address, never a panic.
    for name in ["utf8-demo.html", "http-sample.html"] {
        let address: WebUrl = format!("url:https://example.org/{name}")
            .parse()
            .expect("address");
        if let Err(error) = read_page(&address, address.address(), &html(&folder, name)) {
            assert!(error.to_string().contains("example.org"), "{error}");
        }
    }
}
