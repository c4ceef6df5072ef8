//! The organise step: the included works grouped into themes (from embeddings when the model
//! is installed, TF-IDF otherwise), set beside the citation communities and the plan's domains.

use std::collections::BTreeMap;

use litrev_model::{Citation, Organisation, Work, WorkId};
use litrev_organise::OrganiseConfig;
use litrev_store::StepWrites;

use super::screen::Screened;
use super::{Drive, Runner, finished};
use crate::error::Result;
use crate::events::Event;

impl Runner {
    /// Runs (or loads) the organise step over the `included` works.
    pub(super) fn organise_step(
        &mut self,
        drive: &Drive<'_>,
        screened: &Screened,
        included: &BTreeMap<WorkId, Work>,
        citations: &[Citation],
    ) -> Result<Organisation> {
        if let Some(organisation) = self.stored(drive, "organise")? {
            return Ok(organisation);
        }
        let events = drive.events;
        self.started(
            events,
            "organise",
            "grouping the included works into themes",
        );
        let semantic = match crate::embeddings::embed_if_installed(self.home(), included)? {
            Ok(semantic) => Some(semantic),
            Err(why) => {
                events(&Event::Notice {
                    message: format!("themes from TF-IDF vectors: {why}"),
                });
                None
            }
        };
        let embed_phrases = |texts: &[&str]| {
            let (_, embedder) = semantic.as_ref()?;
            embedder
                .embed(texts)
                .map_err(|error| {
                    events(&Event::Notice {
                        message: format!("theme titles chosen by their words alone: {error}"),
                    });
                })
                .ok()
        };
        let mut organisation = litrev_organise::organise(
            &OrganiseConfig::default(),
            included,
            citations,
            semantic.as_ref().map(|(embeddings, _)| embeddings),
            semantic
                .as_ref()
                .map(|_| &embed_phrases as litrev_organise::EmbedPhrases<'_>),
        );
        let domains: Vec<String> = screened
            .planned
            .plan
            .focuses()
            .into_iter()
            .map(|focus| focus.name)
            .collect();
        let domain_of: BTreeMap<WorkId, String> = screened
            .decisions
            .iter()
            .filter_map(|decision| Some((decision.work.clone(), decision.domain.clone()?)))
            .collect();
        litrev_organise::place_in_domains(&mut organisation, &domains, &domain_of);
        self.commit(
            drive.run,
            "organise",
            &organisation,
            &StepWrites::default(),
            Vec::new(),
        )?;
        let agreement = organisation
            .views
            .as_ref()
            .map_or_else(String::new, |views| {
                format!(
                    "; {} citation communities among {} linked works, NMI with the themes {:.2}",
                    views.communities, views.linked_works, views.nmi
                )
            });
        finished(
            events,
            "organise",
            format!("{} themes{agreement}", organisation.themes.len()),
        );
        Ok(organisation)
    }
}
