//! Readable, stable citation keys: first author + year + first title word.

use std::collections::BTreeMap;

use crate::id::WorkId;
use crate::work::Work;

/// Title words that never make a key.
const SKIPPED_TITLE_WORDS: &[&str] = &[
    "a", "an", "the", "on", "of", "in", "for", "and", "to", "with", "from", "at", "by", "is",
    "are", "do", "does", "how", "what", "why", "when", "which", "who", "can", "its", "it", "as",
    "or",
];

/// The undisambiguated key of a work: `smith2011effect`.
pub fn base_key(work: &Work) -> String {
    let author = work
        .first_author_family()
        .map(ascii_word)
        .filter(|word| !word.is_empty())
        .unwrap_or_else(|| "anon".to_owned());
    let year = work
        .year
        .map(|year| year.to_string())
        .unwrap_or_else(|| "nd".to_owned());
    let title_word = work
        .title_or_empty()
        .split(|c: char| !c.is_alphanumeric())
        .map(ascii_word)
        .find(|word| word.len() > 1 && !SKIPPED_TITLE_WORDS.contains(&word.as_str()))
        .unwrap_or_default();
    format!("{author}{year}{title_word}")
}

/// Assigns every work a distinct key, disambiguating equal base keys with `a`, `b`, … in id order.
///
/// The result depends only on the set of works, not on their order.
pub fn assign_keys<'a>(works: impl IntoIterator<Item = &'a Work>) -> BTreeMap<WorkId, String> {
    let mut by_base: BTreeMap<String, Vec<WorkId>> = BTreeMap::new();
    for work in works {
        by_base.entry(base_key(work)).or_default().push(work.id());
    }
    let mut keys = BTreeMap::new();
    for (base, mut ids) in by_base {
        ids.sort();
        ids.dedup();
        if ids.len() == 1 {
            keys.insert(ids.remove(0), base);
            continue;
        }
        for (index, id) in ids.into_iter().enumerate() {
            keys.insert(id, format!("{base}{}", suffix(index)));
        }
    }
    keys
}

/// `a`…`z`, then `aa`, `ab`…
fn suffix(mut index: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'a' + (index % 26) as u8);
        if index < 26 {
            break;
        }
        index = index / 26 - 1;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ascii letters")
}

/// Lower-case ASCII letters and digits of a word, transliterating accents (`Müller` → `muller`).
fn ascii_word(word: &str) -> String {
    deunicode::deunicode(word)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::Author;

    fn work(id: &str, author: &str, year: i32, title: &str) -> Work {
        let mut work = Work::stub(id.parse().expect("id"));
        work.authors = vec![Author::named(author)];
        work.year = Some(year);
        work.title = Some(title.into());
        work
    }

    #[test]
    fn builds_readable_keys() {
        let check = |work: Work, expected: &str| assert_eq!(base_key(&work), expected);
        check(
            work("W1", "Jane Smith", 2011, "The effect of X on Y"),
            "smith2011effect",
        );
        check(
            work("W2", "Jörg Müller", 2020, "Über alles"),
            "muller2020uber",
        );
        check(
            work("W3", "Rens van de Schoot", 2018, "PTSD trajectories"),
            "vandeschoot2018ptsd",
        );
        let mut anonymous = Work::stub("W4".parse().expect("id"));
        anonymous.title = Some("A".into());
        check(anonymous, "anonnd");
    }

    #[test]
    fn disambiguates_in_id_order_whatever_the_input_order() {
        let a = work("W20", "Jane Smith", 2011, "Effects");
        let b = work("W10", "John Smith", 2011, "Effects of things");
        let c = work("W30", "Ann Lee", 2011, "Effects");
        let forward = assign_keys([&a, &b, &c]);
        let backward = assign_keys([&c, &b, &a]);
        assert_eq!(forward, backward);
        assert_eq!(forward[&b.id()], "smith2011effectsa");
        assert_eq!(forward[&a.id()], "smith2011effectsb");
        assert_eq!(forward[&c.id()], "lee2011effects");
    }

    #[test]
    fn suffixes_go_past_z() {
        assert_eq!(suffix(0), "a");
        assert_eq!(suffix(25), "z");
        assert_eq!(suffix(26), "aa");
        assert_eq!(suffix(27), "ab");
    }
}
