//! CSL style files: loading (`CitationStyle::from_csl`), writing back (`to_csl`, the
//! `style.csl` pandoc reads) and formatting a small review's citations and references in the
//! loaded style (`review_files`: HTML and DOCX), since a style file is outside data that only
//! shows its problems when used.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use hayagriva::archive::ArchivedStyle;
use litrev_model::{
    Author, Basis, CiteForm, Paragraph, Review, Section, SectionKind, Segment, Sentence, SpanRef,
    Work, WorkId, WorkKind,
};
use litrev_publish::{CitationStyle, review_files};

use super::text;
use crate::check::Checked;
use crate::seeds::{self, Seed, Seeds};

/// A small style written by hand: macros, names, dates, a bibliography.
const HAND_WRITTEN: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info>
    <title>litrev fuzz seed</title>
    <id>http://example.invalid/litrev-fuzz</id>
    <updated>2026-01-01T00:00:00+00:00</updated>
  </info>
  <macro name="author">
    <names variable="author">
      <name and="symbol" initialize-with=". " name-as-sort-order="all"/>
      <substitute><text variable="title"/></substitute>
    </names>
  </macro>
  <macro name="year">
    <date variable="issued"><date-part name="year"/></date>
  </macro>
  <citation>
    <layout prefix="(" suffix=")" delimiter="; ">
      <group delimiter=", "><text macro="author"/><text macro="year"/></group>
    </layout>
  </citation>
  <bibliography>
    <sort><key macro="author"/><key macro="year"/></sort>
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="author"/>
        <text macro="year" prefix="(" suffix=")"/>
        <text variable="title" font-style="italic"/>
        <text variable="container-title"/>
      </group>
    </layout>
  </bibliography>
</style>
"#;

/// hayagriva's built-in styles written as CSL, the styles of the CSL processor test suite, and
/// a hand-written one.
pub(super) fn seeds(data: &Path) -> Seeds {
    let mut out = vec![Seed::new("hand-written", HAND_WRITTEN)];
    for style in ArchivedStyle::all() {
        if let Ok(xml) = style.get().to_xml() {
            out.push(Seed::new(format!("hayagriva:{}", style.names()[0]), xml));
        }
    }
    let suite = data.join("csl-test-suite/processor-tests-humans.tar.gz");
    for fixture in seeds::tar_entries(&suite, ".txt")? {
        let text = String::from_utf8_lossy(&fixture.bytes);
        let csl = text
            .split(">>===== CSL =====>>")
            .nth(1)
            .and_then(|rest| rest.split("<<===== CSL =====<<").next());
        if let Some(csl) = csl {
            let origin = fixture.origin.replace(&format!("{}!", suite.display()), "");
            out.push(Seed::new(format!("csl-test-suite:{origin}"), csl.trim()));
        }
    }
    Ok(seeds::sized(out, seeds::keep))
}

/// Loads the style, writes it back and reads that again, then publishes a review in it.
pub(super) fn run(input: &[u8]) -> Checked {
    let path = Path::new("fuzz.csl");
    let Ok(style) = CitationStyle::from_csl(&text(input), path) else {
        return Ok(());
    };
    let written = style
        .to_csl()
        .map_err(|error| format!("a loaded style cannot be written back: {error}"))?;
    CitationStyle::from_csl(&written, path)
        .map_err(|error| format!("the style written back does not load: {error}\n{written}"))?;
    let (review, works) = review();
    let _ = review_files(review, works, &style);
    Ok(())
}

/// Two works and a review citing them in both forms, built once.
fn review() -> (&'static Review, &'static BTreeMap<WorkId, Work>) {
    static REVIEW: OnceLock<(Review, BTreeMap<WorkId, Work>)> = OnceLock::new();
    let (review, works) = REVIEW.get_or_init(|| {
        let abstract_text = "Background first. Rates fell by 5% & more.";
        let first = work("W1", "Ann Smith", 2011, "Falling rates <1%", abstract_text);
        let second = work("W2", "Bo Lee", 2012, "Rising costs", "Costs rose.");
        let (first_id, second_id) = (first.id(), second.id());
        let start = abstract_text.find("Rates").unwrap_or(0);
        let review = Review {
            title: "Rates & costs: a review".into(),
            sections: vec![Section {
                kind: SectionKind::Theme,
                heading: "Rates and costs".into(),
                paragraphs: vec![Paragraph {
                    sentences: vec![
                        Sentence {
                            segments: vec![
                                Segment::Text("Rates fell by 5% & more".into()),
                                Segment::Cite {
                                    works: vec![first_id.clone()],
                                    form: CiteForm::Parenthetical,
                                },
                                Segment::Text(".".into()),
                            ],
                            basis: Basis::Span(SpanRef {
                                work: first_id.clone(),
                                field: "abstract".into(),
                                sentence: 1,
                                start,
                                end: abstract_text.len(),
                                full_text: None,
                            }),
                        },
                        Sentence::structural(vec![
                            Segment::Cite {
                                works: vec![first_id.clone(), second_id.clone()],
                                form: CiteForm::Narrative,
                            },
                            Segment::Text(" agree.".into()),
                        ]),
                    ],
                }],
                tables: Vec::new(),
                subsections: Vec::new(),
            }],
        };
        let works = BTreeMap::from([(first_id, first), (second_id, second)]);
        (review, works)
    });
    (review, works)
}

fn work(id: &str, author: &str, year: i32, title: &str, abstract_text: &str) -> Work {
    let mut work = Work::default();
    if let Ok(id) = id.parse::<WorkId>() {
        work.ids.add(id);
    }
    work.kind = WorkKind::Article;
    work.title = Some(title.to_owned());
    work.authors = vec![Author::named(author)];
    work.year = Some(year);
    work.venue = Some("Journal of Tests & Checks".to_owned());
    work.abstract_text = Some(abstract_text.to_owned());
    work
}
