//! `review.docx`: the review for Word and LibreOffice, with real heading styles (so the
//! navigation pane and a table of contents find the sections), citations in the run's style
//! linking to their references, and the reference list in the `Bibliography` style.

use std::io::Cursor;

use docx_rs::{
    AlignmentType, Docx, Hyperlink, HyperlinkType, LineSpacing, Paragraph, Run as DocxRun,
    SpecialIndentType, Style, StyleType, Table, TableCell, TableRow, VertAlignType,
};

use crate::Error;
use crate::document::{Block, Document, Inline};
use crate::style::{Run, StyledText};

/// Deepest heading level with its own style; deeper sections reuse it.
const DEEPEST_HEADING: usize = 4;

/// Renders the laid-out review as the bytes of a `.docx` file.
///
/// # Errors
/// [`Error::Docx`] when the package cannot be written.
pub(crate) fn review_docx(document: &Document) -> Result<Vec<u8>, Error> {
    let mut docx = styles(Docx::new());
    docx = docx.add_paragraph(
        Paragraph::new()
            .style("Title")
            .add_run(DocxRun::new().add_text(document.title.as_str())),
    );
    // Bookmark names must start with a letter and hold only letters, digits and `_`; keys
    // need not, so references are bookmarked by position.
    let bookmark = |key: &str| {
        document
            .references
            .iter()
            .position(|reference| reference.key == key)
            .map(|index| format!("ref_{}", index + 1))
    };
    let paragraph_of = |inlines: &[Inline]| {
        // docx-rs marks no style as the default, so readers such as python-docx see an
        // unstyled paragraph as having none.
        let mut paragraph = Paragraph::new().style("Normal");
        for inline in inlines {
            match inline {
                Inline::Text(text) => {
                    paragraph = paragraph.add_run(DocxRun::new().add_text(text.as_str()));
                }
                Inline::Cite(cite) => {
                    let runs = docx_runs(&cite.styled.text);
                    match cite.styled.keys.first().and_then(|key| bookmark(key)) {
                        Some(anchor) => {
                            let mut link = Hyperlink::new(anchor, HyperlinkType::Anchor);
                            for run in runs {
                                link = link.add_run(run);
                            }
                            paragraph = paragraph.add_hyperlink(link);
                        }
                        None => {
                            for run in runs {
                                paragraph = paragraph.add_run(run);
                            }
                        }
                    }
                }
            }
        }
        paragraph
    };
    for block in &document.blocks {
        match block {
            Block::Heading { level, text } => {
                docx = docx.add_paragraph(
                    Paragraph::new()
                        .style(&heading_style(*level))
                        .add_run(DocxRun::new().add_text(text.as_str())),
                );
            }
            Block::Paragraph(inlines) => docx = docx.add_paragraph(paragraph_of(inlines)),
            Block::Table {
                caption,
                columns,
                rows,
            } => {
                docx = docx.add_paragraph(
                    Paragraph::new()
                        .style("Caption")
                        .add_run(DocxRun::new().add_text(caption.as_str())),
                );
                let header = TableRow::new(
                    columns
                        .iter()
                        .map(|column| {
                            TableCell::new().add_paragraph(
                                Paragraph::new()
                                    .style("Normal")
                                    .add_run(DocxRun::new().add_text(column.as_str()).bold()),
                            )
                        })
                        .collect(),
                );
                let body = rows.iter().map(|cells| {
                    TableRow::new(
                        cells
                            .iter()
                            .map(|cell| TableCell::new().add_paragraph(paragraph_of(cell)))
                            .collect(),
                    )
                });
                docx = docx.add_table(Table::new(std::iter::once(header).chain(body).collect()));
            }
        }
    }
    docx = docx.add_paragraph(
        Paragraph::new()
            .style(&heading_style(1))
            .add_run(DocxRun::new().add_text("References")),
    );
    for (index, reference) in document.references.iter().enumerate() {
        let mut paragraph = Paragraph::new()
            .style("Bibliography")
            .add_bookmark_start(index + 1, format!("ref_{}", index + 1));
        if let Some(label) = &reference.label {
            for run in docx_runs(label) {
                paragraph = paragraph.add_run(run);
            }
            paragraph = paragraph.add_run(DocxRun::new().add_text(" "));
        }
        for run in docx_runs(&reference.text) {
            paragraph = paragraph.add_run(run);
        }
        docx = docx.add_paragraph(paragraph.add_bookmark_end(index + 1));
    }
    let mut bytes = Cursor::new(Vec::new());
    docx.build()
        .pack(&mut bytes)
        .map_err(|error| Error::Docx(error.to_string()))?;
    Ok(bytes.into_inner())
}

/// The style id of a heading level: Word's built-in `Heading1`….
fn heading_style(level: usize) -> String {
    format!("Heading{}", level.clamp(1, DEEPEST_HEADING))
}

/// The paragraph styles the document uses, named as Word names its built-in ones so Word,
/// LibreOffice and python-docx recognise them (`heading 1` reads as "Heading 1").
fn styles(docx: Docx) -> Docx {
    let mut docx = docx.add_style(
        Style::new("Title", StyleType::Paragraph)
            .name("Title")
            .based_on("Normal")
            .next("Normal")
            .q_format(true)
            .size(52)
            .bold(),
    );
    for level in 1..=DEEPEST_HEADING {
        // Sizes in half-points: 16, 13, 12 and 11 pt.
        let size = [32, 26, 24, 22][level - 1];
        docx = docx.add_style(
            Style::new(heading_style(level), StyleType::Paragraph)
                .name(format!("heading {level}"))
                .based_on("Normal")
                .next("Normal")
                .q_format(true)
                .size(size)
                .bold()
                .outline_lvl(level - 1)
                .line_spacing(LineSpacing::new().before(240).after(80)),
        );
    }
    docx.add_style(
        Style::new("Caption", StyleType::Paragraph)
            .name("caption")
            .based_on("Normal")
            .next("Normal")
            .q_format(true)
            .italic()
            .line_spacing(LineSpacing::new().before(240).after(80)),
    )
    .add_style(
        Style::new("Bibliography", StyleType::Paragraph)
            .name("Bibliography")
            .based_on("Normal")
            .align(AlignmentType::Left)
            .indent(Some(720), Some(SpecialIndentType::Hanging(720)), None, None)
            .line_spacing(LineSpacing::new().after(120)),
    )
}

fn docx_runs(text: &StyledText) -> Vec<DocxRun> {
    text.runs.iter().map(docx_run).collect()
}

fn docx_run(run: &Run) -> DocxRun {
    let mut docx_run = DocxRun::new().add_text(run.text.as_str());
    if run.italic {
        docx_run = docx_run.italic();
    }
    if run.bold {
        docx_run = docx_run.bold();
    }
    let vertical = if run.superscript {
        Some(VertAlignType::SuperScript)
    } else if run.subscript {
        Some(VertAlignType::SubScript)
    } else {
        None
    };
    if let Some(vertical) = vertical {
        docx_run.run_property = docx_run.run_property.vert_align(vertical);
    }
    docx_run
}
