//! The order in which a stage hands its frontier to the source, so that its OR-lists answer in
//! few pages.
//!
//! A source lists the works citing (or cited by) up to [`crate::IDS_PER_REQUEST`] works per
//! request, and each answer costs whole pages. Two things waste pages: a work linked to
//! frontier works in two lists comes back twice (in a densely cited field that nearly doubles
//! the requests), and an answer just over a page boundary costs a page for a few works. So the
//! frontier is packed into as few lists as the limit allows: works that share links the corpus
//! already knows (citers, or references it holds records of) share a list, and otherwise the
//! expected answers (citation counts, counts of held references) are balanced across the
//! lists. The source cuts the order it is given into lists of 100, so every list but the last
//! is filled to 100 and the order is the packing.
//!
//! Measured with `litrev bench snowball`, packing takes two to five requests off a densely
//! cited pool's run compared with the priority order, and keeps sparse pools at the minimum.
//! Grouping and weighing reference lists by the held references rather than every reference
//! took Jeyaraman_2020 from 36 to 34 requests (minimum 27); the other six datasets stayed at
//! their minimum.

use std::collections::BTreeSet;

use litrev_model::WorkId;

/// `ids` packed into the fewest lists of `size` (the last holding the rest), in list order.
/// Works go heaviest first (`weight`, given the work and its `links`: how large its answer is
/// expected to be); each joins the
/// list with room it adds the fewest new known `links` to, the lightest among equals, so that
/// overlapping works share a list and the answers stay of similar size.
pub(crate) fn packed<'a>(
    ids: &[WorkId],
    links: impl Fn(&WorkId) -> BTreeSet<&'a WorkId>,
    weight: impl Fn(&WorkId, &BTreeSet<&'a WorkId>) -> u64,
    size: usize,
) -> Vec<WorkId> {
    let size = size.max(1);
    let count = ids.len().div_ceil(size).max(1);
    let mut works: Vec<(WorkId, BTreeSet<&'a WorkId>, u64)> = ids
        .iter()
        .map(|id| {
            let own = links(id);
            let load = weight(id, &own);
            (id.clone(), own, load)
        })
        .collect();
    works.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    let mut lists: Vec<(Vec<WorkId>, BTreeSet<&'a WorkId>, u64)> =
        vec![(Vec::new(), BTreeSet::new(), 0); count];
    // The source cuts the order into lists of `size`: every list but the last is full.
    let capacity = |index: usize| size.min(ids.len() - index * size);
    for (id, own, load) in works {
        let best = lists
            .iter()
            .enumerate()
            .filter(|(index, (members, _, _))| members.len() < capacity(*index))
            .min_by_key(|(index, (_, held, total))| (own.difference(held).count(), *total, *index))
            .map(|(index, _)| index)
            .unwrap_or(0);
        lists[best].1.extend(own);
        lists[best].2 += load;
        lists[best].0.push(id);
    }
    lists
        .into_iter()
        .flat_map(|(members, _, _)| members)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn works_sharing_links_share_a_list_and_loads_balance() {
        let id = |text: &str| text.parse::<WorkId>().expect("id");
        let ids = [id("W1"), id("W2"), id("W3"), id("W4")];
        let (a, b) = (id("W10"), id("W20"));
        let links = |work: &WorkId| -> BTreeSet<&WorkId> {
            match work.to_string().as_str() {
                "W1" | "W3" => [&a].into(),
                _ => [&b].into(),
            }
        };
        let order = packed(&ids, links, |_, _| 1, 2);
        assert_eq!(order, [id("W1"), id("W3"), id("W2"), id("W4")]);

        let unlinked = |_: &WorkId| BTreeSet::new();
        let weight = |work: &WorkId, _: &BTreeSet<&WorkId>| match work.to_string().as_str() {
            "W1" => 300,
            "W2" => 200,
            "W3" => 100,
            _ => 50,
        };
        let order = packed(&ids, unlinked, weight, 2);
        assert_eq!(
            order,
            [id("W1"), id("W4"), id("W2"), id("W3")],
            "the heaviest with the lightest"
        );

        // The source cuts the order into lists of 2, so every list but the last is full: the
        // light W2 and W3 cannot both join the list that is not W1's.
        let three = [id("W1"), id("W2"), id("W3")];
        let heavy_first =
            |work: &WorkId, _: &BTreeSet<&WorkId>| if *work == id("W1") { 5 } else { 1 };
        assert_eq!(
            packed(&three, unlinked, heavy_first, 2),
            [id("W1"), id("W3"), id("W2")]
        );
    }
}
