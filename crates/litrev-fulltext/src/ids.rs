//! Ids a text gives for itself: DOIs, PMCIDs and arXiv ids found in the words of a PDF's first
//! page.

/// DOIs (`10.1371/journal.pone.0000217`), PMCIDs (`PMC1234567`) and arXiv ids as arXiv stamps
/// them (`arXiv:1503.07589v1`) in a text, as `("doi", …)`, `("pmcid", …)` and `("arxiv", …)`
/// pairs, first seen first, each once.
pub(crate) fn ids_in_text(text: &str) -> Vec<(String, String)> {
    let mut ids: Vec<(String, String)> = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '(' | ')'))
    {
        let id = if let Some(at) = word.find("arXiv:") {
            let candidate = word[at + "arXiv:".len()..].trim_end_matches(['.', ',', ';', ']']);
            let body = candidate.split('v').next().unwrap_or_default();
            let (yymm, number) = body.split_once('.').unwrap_or(("", ""));
            let valid = yymm.len() == 4
                && (4..=5).contains(&number.len())
                && yymm
                    .bytes()
                    .chain(number.bytes())
                    .all(|b| b.is_ascii_digit());
            valid.then(|| ("arxiv".to_owned(), candidate.to_owned()))
        } else if let Some(at) = word.find("10.") {
            let candidate = word[at..].trim_end_matches(['.', ',', ';', ']', '}']);
            let (prefix, suffix) = candidate.split_once('/').unwrap_or((candidate, ""));
            let valid = prefix.len() > 4
                && prefix[3..].chars().all(|c| c.is_ascii_digit() || c == '.')
                && !suffix.is_empty();
            valid.then(|| ("doi".to_owned(), candidate.to_lowercase()))
        } else if let Some(at) = word.find("PMC") {
            let digits: String = word[at + 3..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            (digits.len() >= 4).then(|| ("pmcid".to_owned(), format!("PMC{digits}")))
        } else {
            None
        };
        if let Some(id) = id
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dois_and_pmcids_are_found_once() {
        let ids = ids_in_text(
            "Citation: PLoS ONE 2(2): e217. doi:10.1371/journal.pone.0000217. \
             (PMC1790863) https://doi.org/10.1371/JOURNAL.PONE.0000217, 10.5/x 10.1234 \
             arXiv:1503.07589v1 [hep-ex] arXiv:12.3 arXiv:1503.07589v1 arXiv:1510.01234",
        );
        assert_eq!(
            ids,
            vec![
                ("doi".to_owned(), "10.1371/journal.pone.0000217".to_owned()),
                ("pmcid".to_owned(), "PMC1790863".to_owned()),
                ("arxiv".to_owned(), "1503.07589v1".to_owned()),
                ("arxiv".to_owned(), "1510.01234".to_owned()),
            ]
        );
    }
}
