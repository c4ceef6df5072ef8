//! What a stage asks its source for: the frontier's references the corpus does not know
//! (looked up by id, or listed by the works citing them, whichever takes fewer requests), and
//! the works citing the frontier, in lists packed by the works the corpus already holds.

use std::collections::{BTreeMap, BTreeSet};

use litrev_model::{Work, WorkId};
use litrev_sources::{Capabilities, Held, Source};

use crate::{
    IDS_PER_REQUEST, Result, SnowballState, WORKS_PER_PAGE, batches, batching, listing_minimum,
};

/// How a source's lists are packed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Packing {
    /// The known works a list's answer may hold: a page more is paid for every page of known
    /// works beyond those its request leaves out, so lists keep them under that and half a
    /// page (no limit when the source cannot leave any out).
    held_per_list: usize,
    /// Ids one request carries, those it leaves out included (0: the source leaves none out).
    pub(crate) ids_per_request: usize,
}

impl Packing {
    /// The packing that suits a source of `capabilities`.
    pub(crate) fn of(capabilities: &Capabilities) -> Packing {
        match capabilities.held_left_out {
            0 => Packing {
                held_per_list: usize::MAX,
                ids_per_request: 0,
            },
            room => Packing {
                held_per_list: room + WORKS_PER_PAGE / 2,
                ids_per_request: room + IDS_PER_REQUEST,
            },
        }
    }
}

/// The frontier's references the corpus did not know, as the source gave them.
pub(crate) struct Backward {
    /// The works found.
    pub(crate) found: Vec<Work>,
    /// The references asked for; those not found become stubs.
    pub(crate) unknown: BTreeSet<WorkId>,
    /// Frontier works with a reference the corpus does not know.
    pub(crate) referencing: usize,
    /// References of those works the corpus holds records of.
    pub(crate) held: usize,
    /// Whether they were listed by the works citing them (else looked up by id).
    pub(crate) lists: bool,
}

/// Fetches the references of `frontier` that the corpus does not know (`known`), looked up by
/// id or listed by the frontier (`cited_by:`), whichever takes fewer requests; the lists also
/// return references the corpus knows, and nothing for works the source does not hold.
pub(crate) fn backward(
    source: &dyn Source,
    state: &SnowballState<'_>,
    records: &BTreeMap<WorkId, &Work>,
    known: &BTreeSet<&WorkId>,
    frontier: &[WorkId],
    packing: Packing,
) -> Result<Backward> {
    let unknown: BTreeSet<WorkId> = frontier
        .iter()
        .flat_map(|id| state.works[id].references.iter())
        .filter(|reference| !known.contains(*reference))
        .cloned()
        .collect();
    // Works whose every reference the corpus knows have nothing to list.
    let referencing: Vec<WorkId> = frontier
        .iter()
        .filter(|id| {
            state.works[*id]
                .references
                .iter()
                .any(|reference| unknown.contains(reference))
        })
        .cloned()
        .collect();
    // What those works cite that the corpus holds records of: their lists' known answers,
    // the part certain to come back (one never seen may be outside the source's coverage: a
    // snapshot, a pool), so only these group the lists and weigh their answers.
    let held_references: Held<'_> = referencing
        .iter()
        .map(|id| {
            let held = state.works[id]
                .references
                .iter()
                .filter(|reference| records.contains_key(*reference))
                .collect();
            (id, held)
        })
        .collect();
    let held: BTreeSet<WorkId> = held_references
        .values()
        .flatten()
        .filter_map(|reference| records.get(*reference).map(|work| work.id()))
        .collect();
    let by_id = batches(unknown.len(), IDS_PER_REQUEST);
    let by_list = listing_minimum(
        referencing.len(),
        unknown.len(),
        held.len(),
        packing.ids_per_request,
    );
    let lists = !unknown.is_empty() && by_list < by_id && source.capabilities().reference_lists;
    let found = if unknown.is_empty() {
        Vec::new()
    } else if lists {
        let order = batching::packed(
            &referencing,
            |id| held_references[id].clone(),
            |_, held| held.len() as u64,
            IDS_PER_REQUEST,
            packing.held_per_list,
        );
        source.references(&order, &held_references)?
    } else {
        let ids: Vec<WorkId> = unknown.iter().cloned().collect();
        source.lookup(&ids)?
    };
    Ok(Backward {
        found,
        unknown,
        referencing: referencing.len(),
        held: held.len(),
        lists,
    })
}

/// The works citing the frontier, as the source gave them.
pub(crate) struct Forward {
    /// The works found.
    pub(crate) found: Vec<Work>,
    /// Frontier works whose citers were listed.
    pub(crate) cited: usize,
    /// Citers of those works the corpus holds.
    pub(crate) held_citing: usize,
}

/// Fetches the works citing `frontier`, grouped by the citers the corpus knows; the references
/// just found (`backward`) count among the known citers, so a frontier work they cite may now
/// have all its citers known. Sources that cannot list citing works (arXiv, Hugging Face, the
/// web) fetch nothing.
pub(crate) fn forward(
    source: &dyn Source,
    state: &SnowballState<'_>,
    frontier: &[WorkId],
    backward: &[Work],
    packing: Packing,
) -> Result<Forward> {
    let backward_ids: Vec<WorkId> = backward.iter().map(Work::id).collect();
    let mut citers: BTreeMap<&WorkId, BTreeSet<&WorkId>> = BTreeMap::new();
    for (citer, work) in state.works.iter().chain(backward_ids.iter().zip(backward)) {
        for reference in &work.references {
            citers.entry(reference).or_default().insert(citer);
        }
    }
    // Works whose every citer the corpus knows (as many as the source counts) have nothing to
    // add: asking would fetch known works again.
    let cited: Vec<WorkId> = frontier
        .iter()
        .filter(|id| {
            let known_citers = citers.get(*id).map_or(0, BTreeSet::len);
            state.works[*id]
                .cited_by_count
                .is_none_or(|count| known_citers < count as usize)
        })
        .cloned()
        .collect();
    let held_citing = cited
        .iter()
        .filter_map(|id| citers.get(id))
        .flatten()
        .collect::<BTreeSet<_>>()
        .len();
    let order = batching::packed(
        &cited,
        |id| citers.get(id).cloned().unwrap_or_default(),
        |id, _| u64::from(state.works[id].cited_by_count.unwrap_or(0)),
        IDS_PER_REQUEST,
        packing.held_per_list,
    );
    let found = if order.is_empty() || !source.capabilities().citing {
        Vec::new()
    } else {
        source.citing(&order, &citers)?
    };
    Ok(Forward {
        found,
        cited: cited.len(),
        held_citing,
    })
}
