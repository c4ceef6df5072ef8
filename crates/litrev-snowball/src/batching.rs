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
//! When the source leaves the known works out of its answers, as many as its request has
//! room for, a list's known works past that room cost pages again: lists keep under it, and
//! half a page, before they share.
//!
//! Measured with `litrev bench snowball`, packing takes two to five requests off a densely
//! cited pool's run compared with the priority order, and keeps sparse pools at the minimum.
//! Grouping and weighing reference lists by the held references rather than every reference
//! took Jeyaraman_2020 from 36 to 34 requests (minimum 27); leaving the known works out took
//! it to 29, and keeping each list's known works under the room to 28 (minimum 26, as fewer
//! known works must come back); the other six datasets stayed at their minimum.

use std::collections::BTreeSet;

use litrev_model::WorkId;

/// `ids` packed into the fewest lists of `size` (the last holding the rest), in list order.
/// Works go heaviest first (`weight`, given the work and its `links`: how large its answer is
/// expected to be); each joins the list with room whose known `links` it takes least over
/// `limit` (the known works a request can leave out of its answer, and half a page), then the
/// one it adds the fewest new `links` to, the lightest among equals, so that overlapping works
/// share a list and the answers stay of similar size.
pub(crate) fn packed<'a>(
    ids: &[WorkId],
    links: impl Fn(&WorkId) -> BTreeSet<&'a WorkId>,
    weight: impl Fn(&WorkId, &BTreeSet<&'a WorkId>) -> u64,
    size: usize,
    limit: usize,
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
            .min_by_key(|(index, (_, held, total))| {
                let added = own.difference(held).count();
                let over = (held.len() + added).saturating_sub(limit);
                (over, added, *total, *index)
            })
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
        let order = packed(&ids, links, |_, _| 1, 2, usize::MAX);
        assert_eq!(order, [id("W1"), id("W3"), id("W2"), id("W4")]);

        let unlinked = |_: &WorkId| BTreeSet::new();
        let weight = |work: &WorkId, _: &BTreeSet<&WorkId>| match work.to_string().as_str() {
            "W1" => 300,
            "W2" => 200,
            "W3" => 100,
            _ => 50,
        };
        let order = packed(&ids, unlinked, weight, 2, usize::MAX);
        assert_eq!(
            order,
            [id("W1"), id("W4"), id("W2"), id("W3")],
            "the heaviest with the lightest"
        );

        // Past the known works a list may hold, sharing no longer pays: with a limit of 2, W3
        // (sharing W10 with W1) joins W2's list rather than take W1's to three.
        let (c, d) = (id("W30"), id("W40"));
        let over = |work: &WorkId| -> BTreeSet<&WorkId> {
            match work.to_string().as_str() {
                "W1" => [&a, &c].into(),
                "W3" => [&a, &d].into(),
                _ => BTreeSet::new(),
            }
        };
        let light = |work: &WorkId, _: &BTreeSet<&WorkId>| if *work == id("W1") { 2 } else { 1 };
        assert_eq!(
            packed(&ids, over, light, 2, usize::MAX),
            [id("W1"), id("W3"), id("W2"), id("W4")]
        );
        assert_eq!(
            packed(&ids, over, light, 2, 2),
            [id("W1"), id("W4"), id("W2"), id("W3")]
        );

        // The source cuts the order into lists of 2, so every list but the last is full: the
        // light W2 and W3 cannot both join the list that is not W1's.
        let three = [id("W1"), id("W2"), id("W3")];
        let heavy_first =
            |work: &WorkId, _: &BTreeSet<&WorkId>| if *work == id("W1") { 5 } else { 1 };
        assert_eq!(
            packed(&three, unlinked, heavy_first, 2, usize::MAX),
            [id("W1"), id("W3"), id("W2")]
        );
    }
}
