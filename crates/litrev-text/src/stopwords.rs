//! English function words, which carry no topic.

/// Sorted so lookups are a binary search.
const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "also", "although", "am", "among",
    "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below",
    "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "due",
    "during", "each", "either", "et", "etc", "few", "for", "from", "further", "had", "has", "have",
    "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "however",
    "i", "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more",
    "most", "must", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "one",
    "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "per", "same", "shall",
    "she", "should", "since", "so", "some", "such", "than", "that", "the", "their", "theirs",
    "them", "themselves", "then", "there", "therefore", "these", "they", "this", "those", "though",
    "through", "thus", "to", "too", "two", "under", "until", "up", "upon", "us", "use", "used",
    "using", "very", "via", "was", "we", "were", "what", "when", "where", "whether", "which",
    "while", "who", "whom", "why", "will", "with", "within", "without", "would", "yet", "you",
    "your", "yours",
];

/// Whether a lower-case word is an English function word.
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(is_stopword("the"));
        assert!(!is_stopword("insulin"));
    }
}
