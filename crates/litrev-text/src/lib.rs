//! Text processing shared by the phases: content terms, TF-IDF vectors and sentences.
//!
//! Planning, snowballing, screening, organising and writing all judge text the same way, so
//! the way words become terms lives here once.
//!
//! ```
//! use litrev_text::{Corpus, terms};
//! assert_eq!(terms("The effects of running"), vec!["effect", "run"]);
//! let corpus = Corpus::fit(["insulin pumps in children", "school meals", "insulin dosing"]);
//! let a = corpus.vector("insulin for children");
//! let b = corpus.vector("insulin pumps");
//! assert!(a.cosine(&b) > 0.0);
//! ```

mod phrases;
mod relevance;
mod roles;
mod sentences;
mod stopwords;
mod support;
mod terms;
mod tfidf;

pub use phrases::{
    Phrase, PhraseGroup, acronym_definitions, best_phrase, most_common, phrase_ends,
    ranked_phrases, reads_as_adjective, spell_out_acronyms, spelling_key,
};
pub use relevance::RelevanceProfile;
pub use roles::{
    LabelledAbstract, ModelError, Reading, Role, RoleModel, TrainConfig, counts_included_studies,
    cue_role, full_text_role, label_role, labelled_abstract, roles_of, sentence_readings,
    sentence_roles, train,
};
pub use sentences::{
    LabelledSentence, is_boilerplate, reads_as_references, split_labelled, split_sentences,
    strip_boilerplate,
};
pub use stopwords::{is_generic, is_stopword};
pub use support::{MIN_SPAN_SUPPORT, MIN_SUPPORT, Support, Unsupported, check_support, support};
pub use terms::{content_words, stem, terms, terms_of_each, word_tokens};
pub use tfidf::{Corpus, SparseVector};
