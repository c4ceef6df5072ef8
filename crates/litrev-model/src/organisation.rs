//! Themes and key works: how the included works are organised.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;

/// A group of included works about one topic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Theme {
    /// Position in the review, from 1.
    pub id: u32,
    /// A short label made of words from the theme's works.
    pub label: String,
    /// One sentence describing the theme.
    pub description: String,
    /// The theme's most distinctive words, best first.
    pub top_words: Vec<String>,
    /// Works in the theme, most central first.
    pub works: Vec<WorkId>,
    /// The theme's key works (most cited within the corpus).
    pub key_works: Vec<WorkId>,
    /// First and last publication year.
    pub years: Option<(i32, i32)>,
    /// Works of the theme that bridge it to others (highest betweenness in the corpus graph).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bridges: Vec<WorkId>,
    /// Recent works of the theme gathering citations fastest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rising: Vec<WorkId>,
    /// Works per publication year.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub timeline: std::collections::BTreeMap<i32, usize>,
    /// The theme split once more, for themes large enough (each part of at least the minimum
    /// theme size); every work of the theme is in exactly one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sub_themes: Vec<SubTheme>,
    /// For a question split into domains, the domain most of the theme's works fit; none: the
    /// theme spans domains (or the question is one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
}

/// A part of a theme.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubTheme {
    /// A short label made of the words that set it apart from the theme's other parts.
    pub label: String,
    /// Those words, best first.
    pub top_words: Vec<String>,
    /// Its works, in the theme's order.
    pub works: Vec<WorkId>,
}

/// The role a work plays in the corpus citation graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyRole {
    /// Cited by many works of the corpus.
    Seminal,
    /// Recent and cited quickly.
    Rising,
    /// On the shortest paths between otherwise separate parts of the corpus.
    Bridging,
}

/// A work singled out by the citation graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyWork {
    /// The work.
    pub work: WorkId,
    /// Why it is key.
    pub role: KeyRole,
    /// Citations from works in the corpus.
    pub corpus_citations: usize,
    /// PageRank in the corpus graph.
    pub pagerank: f32,
}

/// The organise phase's output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Organisation {
    /// Themes, in review order.
    pub themes: Vec<Theme>,
    /// Key works of the whole corpus.
    pub key_works: Vec<KeyWork>,
    /// Included works that fit no theme.
    pub outliers: Vec<WorkId>,
    /// How the text-based themes agree with the citation communities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<Views>,
    /// The sentence-embedding model the themes were clustered with; `None` when they come from
    /// TF-IDF vectors (no model installed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding_model: Option<String>,
}

impl Organisation {
    /// Each themed work's theme, as its position in `themes`.
    pub fn theme_index(&self) -> std::collections::BTreeMap<&WorkId, usize> {
        self.themes
            .iter()
            .enumerate()
            .flat_map(|(index, theme)| theme.works.iter().map(move |id| (id, index)))
            .collect()
    }
}

/// The two views of the corpus and their agreement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Views {
    /// Themes from the works' text.
    pub text_themes: usize,
    /// Citation communities (Leiden) among the works with at least one citation link.
    pub communities: usize,
    /// The Leiden resolution chosen.
    pub resolution: f32,
    /// Works with at least one citation link to another included work.
    pub linked_works: usize,
    /// Normalised mutual information between themes and communities over the linked works.
    pub nmi: f32,
}
