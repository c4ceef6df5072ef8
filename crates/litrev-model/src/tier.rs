//! Quality tiers: how far a review goes and how long it is.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How thorough and how long a review is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// 2 snowball stages, 50 works, 3–5k words.
    Quick,
    /// 3 stages, 100 works, 5–8k words.
    Standard,
    /// 4 stages, 200 works, 8–12k words.
    Comprehensive,
    /// 5 stages, 300 works, 10–15k words.
    Exhaustive,
}

/// The limits a tier sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierLimits {
    /// Most snowball stages.
    pub max_stages: u32,
    /// Most works included in the review.
    pub max_works: usize,
    /// Fewest words of the review body.
    pub min_words: usize,
    /// Most words of the review body.
    pub max_words: usize,
    /// Most included works whose full text is read.
    pub max_fulltext: usize,
}

impl Tier {
    /// Every tier, shortest first.
    pub const ALL: [Tier; 4] = [
        Tier::Quick,
        Tier::Standard,
        Tier::Comprehensive,
        Tier::Exhaustive,
    ];

    /// The tier's seed values.
    pub fn limits(self) -> TierLimits {
        let (max_stages, max_works, min_words, max_words, max_fulltext) = match self {
            Tier::Quick => (2, 50, 3_000, 5_000, 20),
            Tier::Standard => (3, 100, 5_000, 8_000, 50),
            Tier::Comprehensive => (4, 200, 8_000, 12_000, 100),
            Tier::Exhaustive => (5, 300, 10_000, 15_000, 200),
        };
        TierLimits {
            max_stages,
            max_works,
            min_words,
            max_words,
            max_fulltext,
        }
    }

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Quick => "quick",
            Tier::Standard => "standard",
            Tier::Comprehensive => "comprehensive",
            Tier::Exhaustive => "exhaustive",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tier name that is not one of the four.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tier `{0}`: use quick, standard, comprehensive or exhaustive")]
pub struct UnknownTier(pub String);

impl FromStr for Tier {
    type Err = UnknownTier;
    fn from_str(text: &str) -> Result<Self, UnknownTier> {
        Tier::ALL
            .into_iter()
            .find(|tier| tier.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownTier(text.to_owned()))
    }
}
