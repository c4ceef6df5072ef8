//! An expert of a review's field: an author a source files many works under the core works'
//! topics, found by the expert channel, and why they were chosen.

use serde::{Deserialize, Serialize};

use crate::id::WorkId;
use crate::work::Topic;

/// An author whose works on the review's topics the expert channel added to the pool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expert {
    /// The source's author id (OpenAlex `A5023888391`).
    pub id: String,
    /// The name as the source displays it.
    pub name: String,
    /// ORCID iD, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orcid: Option<String>,
    /// The core topic the author writes most on.
    pub topic: Topic,
    /// The author's works the source files under that topic.
    pub works_in_topic: u32,
    /// Citations of all the author's works.
    pub cited_by_count: u32,
    /// The author's h-index, when the source states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h_index: Option<u32>,
    /// The author's works since `recent_since` (recent activity).
    pub recent_works: u32,
    /// The first year of the review's recent window, from which `recent_works` counts.
    pub recent_since: i32,
    /// The author's works on the topics that joined the candidate pool, most cited first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub works: Vec<WorkId>,
}

impl Expert {
    /// Why the author was chosen, for the review's appendix (`23 works on Scientometrics,
    /// h-index 17, 1203 citations in all, 4 works since 2022`).
    pub fn reason(&self) -> String {
        let mut parts = vec![format!(
            "{} {} on {}",
            self.works_in_topic,
            if self.works_in_topic == 1 {
                "work"
            } else {
                "works"
            },
            self.topic.name
        )];
        if let Some(h_index) = self.h_index {
            parts.push(format!("h-index {h_index}"));
        }
        parts.push(format!("{} citations in all", self.cited_by_count));
        parts.push(format!(
            "{} {} since {}",
            self.recent_works,
            if self.recent_works == 1 {
                "work"
            } else {
                "works"
            },
            self.recent_since
        ));
        parts.join(", ")
    }
}

/// Adds to `experts` those of `more` it does not name yet (by author id), in order: the one way
/// experts from several pages, sources or runs are put together.
pub fn add_experts(experts: &mut Vec<Expert>, more: impl IntoIterator<Item = Expert>) {
    for expert in more {
        if !experts.iter().any(|known| known.id == expert.id) {
            experts.push(expert);
        }
    }
}

/// Orders candidate experts by the mean of their ranks on works in the topic, h-index (or
/// citations, where the source states no h-index) and recent works, best first, ties by id.
///
/// Ranks rather than a weighted sum: the three measures have no common scale, and weights
/// would be fitted to whatever field they were tuned on.
pub fn rank_experts(mut candidates: Vec<Expert>) -> Vec<Expert> {
    let impact = |expert: &Expert| (expert.h_index.unwrap_or(0), expert.cited_by_count);
    let rank_by = |key: &dyn Fn(&Expert) -> (u32, u32)| -> Vec<usize> {
        candidates
            .iter()
            .map(|expert| {
                candidates
                    .iter()
                    .filter(|other| key(other) > key(expert))
                    .count()
            })
            .collect()
    };
    let by_topic = rank_by(&|expert| (expert.works_in_topic, 0));
    let by_impact = rank_by(&impact);
    let by_recent = rank_by(&|expert| (expert.recent_works, 0));
    let mut order: Vec<(usize, usize)> = (0..candidates.len())
        .map(|at| (by_topic[at] + by_impact[at] + by_recent[at], at))
        .collect();
    order.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| candidates[a.1].id.cmp(&candidates[b.1].id))
    });
    let mut slots: Vec<Option<Expert>> = candidates.drain(..).map(Some).collect();
    order
        .into_iter()
        .filter_map(|(_, at)| slots[at].take())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expert(id: &str, in_topic: u32, h_index: u32, recent: u32) -> Expert {
        Expert {
            id: id.to_owned(),
            name: id.to_owned(),
            topic: Topic {
                id: "T1".to_owned(),
                name: "Emicizumab".to_owned(),
            },
            works_in_topic: in_topic,
            cited_by_count: h_index * 10,
            h_index: Some(h_index),
            recent_works: recent,
            recent_since: 2022,
            ..Expert::default()
        }
    }

    #[test]
    fn an_expert_strong_on_every_measure_beats_one_strong_on_a_single_one() {
        let ranked = rank_experts(vec![
            expert("A1", 40, 5, 0),
            expert("A2", 20, 30, 6),
            expert("A3", 10, 10, 2),
        ]);
        let order: Vec<&str> = ranked.iter().map(|expert| expert.id.as_str()).collect();
        assert_eq!(order, ["A2", "A1", "A3"]);
        assert_eq!(
            ranked[0].reason(),
            "20 works on Emicizumab, h-index 30, 300 citations in all, 6 works since 2022"
        );
    }

    #[test]
    fn equal_experts_keep_an_order_by_id() {
        let ranked = rank_experts(vec![expert("A9", 3, 3, 1), expert("A2", 3, 3, 1)]);
        assert_eq!(ranked[0].id, "A2");
        assert!(rank_experts(Vec::new()).is_empty());
        let mut experts = vec![expert("A9", 3, 3, 1)];
        add_experts(&mut experts, [expert("A2", 1, 1, 1), expert("A9", 9, 9, 9)]);
        let ids: Vec<&str> = experts.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["A9", "A2"]);
        assert_eq!(
            experts[0].works_in_topic, 3,
            "the first record of an author stays"
        );
    }
}
