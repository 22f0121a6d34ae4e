//! Who every format credits for a dataset: its `creators`, or the site's author when it
//! names none (the author stays the publisher either way), and the schema.org `Person` or
//! `Organization` that JSON-LD and Croissant write for each.

use std::borrow::Cow;

use serde::Serialize;

use crate::content::{Creator, CreatorKind};
use crate::dataset::Dataset;
use crate::site::Site;

/// The dataset's creators; the site's author, as one organisation-like name, without them.
pub fn credited<'a>(site: &Site, dataset: &'a Dataset) -> Cow<'a, [Creator]> {
    if dataset.front.creators.is_empty() {
        Cow::Owned(vec![Creator {
            name: site.config.author.name.clone(),
            kind: CreatorKind::Organization,
            orcid: None,
            url: site.config.author.url.clone(),
            affiliation: None,
        }])
    } else {
        Cow::Borrowed(&dataset.front.creators)
    }
}

/// The names as a citation lists them: as written, joined by "; ".
pub fn names(creators: &[Creator]) -> String {
    let names: Vec<&str> = creators.iter().map(|c| c.name.trim()).collect();
    names.join("; ")
}

/// A schema.org `Person` or `Organization`, keys in sorted order; a person with an ORCID
/// iD is identified by it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Agent {
    #[serde(rename = "@id", skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    affiliation: Option<Affiliation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    family_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    given_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    identifier: Option<String>,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
}

/// The organisation a person worked for.
#[derive(Serialize)]
struct Affiliation {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: String,
}

/// The schema.org agent of each creator [`credited`] for the dataset.
pub(super) fn agents(site: &Site, dataset: &Dataset) -> Vec<Agent> {
    credited(site, dataset).iter().map(agent).collect()
}

fn agent(creator: &Creator) -> Agent {
    let url = creator.url.clone();
    match creator.kind {
        CreatorKind::Organization => Agent {
            id: None,
            kind: "Organization",
            affiliation: None,
            family_name: None,
            given_name: None,
            identifier: None,
            name: creator.reading_name(),
            url,
        },
        CreatorKind::Person => {
            let parts = creator.person_name();
            Agent {
                id: creator.orcid_url(),
                kind: "Person",
                affiliation: creator.affiliation.as_ref().map(|name| Affiliation {
                    kind: "Organization",
                    name: name.clone(),
                }),
                family_name: Some(parts.family.to_string()),
                given_name: parts.given.map(str::to_string),
                identifier: creator.orcid_url(),
                name: creator.reading_name(),
                url,
            }
        }
    }
}
