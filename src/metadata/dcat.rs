//! The site as a DCAT-AP 3 catalog, `data/catalog.ttl` (and `data/catalog.jsonld` with
//! `dcat = ["turtle", "jsonld"]`), for the data portals that harvest DCAT (CKAN's
//! harvester, data.europa.eu, national portals): every dataset with its CSV, Data Package,
//! CSVW and Croissant distributions. Every syntax is written from the same nodes
//! ([`super::rdf`]), one dataset at a time.
//!
//! Past 1,000 datasets (`_dcat_page_datasets`) the catalog is paged the way DCAT harvesters follow (CKAN's
//! ckanext-dcat, piveau): `data/catalog.ttl` is page 1, `data/catalog/<n>.ttl` page n, and
//! each page carries a Hydra node linking first, previous, next and last page (both the
//! current `hydra:PartialCollectionView` terms and the older `hydra:PagedCollection` ones).
//! A page holds the datasets in slug order, so an edit in `serve` rewrites one page per
//! syntax instead of 150 MB at 10,000 datasets.

use std::io::{self, Write};

use super::rdf::{self, Node};
use crate::content::{date_string, CreatorKind};
use crate::dataset::entry::CatalogEntry;
use crate::dataset::FileDigest;
use crate::site::outputs::Distribution;
use crate::site::Site;

use crate::config::DcatSyntax;

/// Datasets per catalog file (the hidden setting `_dcat_page_datasets`, 1,000).
fn per_page(site: &Site) -> usize {
    site.config.dcat_page_datasets.get()
}

/// How many catalog files each syntax has (at least one, even with no dataset).
pub fn page_count(site: &Site) -> usize {
    site.datasets.len().div_ceil(per_page(site)).max(1)
}

/// The site-relative path of page `page` (from 1) in `syntax`.
pub fn page_path(syntax: DcatSyntax, page: usize) -> String {
    crate::layout::urls::dcat_file(syntax.extension(), page)
}

/// Every catalog file of `site`: (path, syntax, page).
pub fn files(site: &Site) -> Vec<(String, DcatSyntax, usize)> {
    let pages = page_count(site);
    (site.config.dcat.iter())
        .flat_map(|&syntax| (1..=pages).map(move |page| (page_path(syntax, page), syntax, page)))
        .collect()
}

/// The files of catalog page `page` (from 1), one per syntax of site.toml's `dcat`:
/// written together.
pub fn page_files(site: &Site, page: usize) -> Vec<(String, DcatSyntax)> {
    (site.config.dcat.iter())
        .map(|&syntax| (page_path(syntax, page), syntax))
        .collect()
}

/// The page (from 1) that holds the dataset at `index` in `Site::datasets`.
pub fn page_of(site: &Site, index: usize) -> usize {
    index / per_page(site) + 1
}

const EU: &str = "http://publications.europa.eu/resource/authority/";
const IANA: &str = "http://www.iana.org/assignments/media-types/";
const STABLE: &str = "http://publications.europa.eu/resource/authority/planned-availability/STABLE";
const SHA256: &str = "http://spdx.org/rdf/terms#checksumAlgorithm_sha256";

/// Writes page `page` (from 1) of the catalog in each syntax of `outs`; `shared` is
/// [`shared_facts`] of `site`, worked out once for every page. Memory holds one dataset's
/// nodes at a time, worked out once for every syntax, from its catalog entry (a whole
/// dataset, as `serve` keeps them, also keeps its finished parts for next time:
/// `Datasets::dcat_part`).
pub fn write(
    site: &Site,
    page: usize,
    shared: &[Node],
    outs: &mut [(DcatSyntax, &mut dyn Write)],
) -> io::Result<()> {
    let pages = page_count(site);
    let page = page.clamp(1, pages);
    let count = site.datasets.len();
    let start = ((page - 1) * per_page(site)).min(count);
    let end = (start + per_page(site)).min(count);
    // The site's own nodes come first, so every dataset's part starts with a separator.
    let mut nodes = shared.to_vec();
    // The catalog, first, names the datasets of this page last.
    if let Some(catalog) = nodes.first_mut() {
        for index in start..end {
            catalog.iri("dcat:dataset", &slug_iri(site, site.datasets.slug(index)));
        }
    }
    for (syntax, out) in outs.iter_mut() {
        let mut nodes = nodes.clone();
        if pages > 1 {
            nodes.push(paging_node(site, *syntax, page, pages));
        }
        match syntax {
            DcatSyntax::Turtle => {
                rdf::turtle_prefixes(site.config.base_url.as_str(), out)?;
                writeln!(out)?;
            }
            DcatSyntax::JsonLd => {
                let context =
                    serde_json::to_string(&rdf::json_ld_context()).map_err(io::Error::other)?;
                write!(out, "{{\"@context\":{context},\"@graph\":[")?;
            }
        }
        out.write_all(part(site, &nodes, *syntax, true)?.as_bytes())?;
    }
    for index in start..end {
        let entry = site.datasets.entry(index)?;
        let mut nodes = None;
        for (syntax, out) in outs.iter_mut() {
            let text = site.datasets.dcat_part(index, *syntax as usize, || {
                let nodes = nodes.get_or_insert_with(|| dataset_nodes(site, &entry));
                part(site, nodes, *syntax, false)
            })?;
            out.write_all(text.as_bytes())?;
        }
    }
    for (syntax, out) in outs.iter_mut() {
        if *syntax == DcatSyntax::JsonLd {
            writeln!(out, "]}}")?;
        }
    }
    Ok(())
}

/// Some nodes in one syntax; `first` when they open the JSON-LD graph (no comma before).
fn part(site: &Site, nodes: &[Node], syntax: DcatSyntax, first: bool) -> io::Result<String> {
    let mut out = Vec::new();
    let base = rdf::iri(site.config.base_url.as_str());
    for (index, node) in nodes.iter().enumerate() {
        match syntax {
            DcatSyntax::Turtle => rdf::turtle_node(node, &base, &mut out)?,
            DcatSyntax::JsonLd => {
                // Compact, as every JSON file: indented, the catalog of 10,000 datasets
                // was 4 million lines and 111 MB, half of it spaces.
                if !(first && index == 0) {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut out, &rdf::json_ld_node(node))
                    .map_err(io::Error::other)?;
            }
        }
    }
    String::from_utf8(out).map_err(io::Error::other)
}

fn language(site: &Site) -> Option<&str> {
    Some(site.config.language.as_str())
}

fn publisher_iri(site: &Site) -> String {
    site.config.base_url.join("#publisher")
}

fn creator_iri(site: &Site) -> String {
    if site.config.publisher() == &site.config.author {
        publisher_iri(site)
    } else {
        site.config.base_url.join("#creator")
    }
}

/// The dataset itself, distinct from its page (the `dcat:landingPage`, a document).
fn dataset_iri(site: &Site, dataset: &CatalogEntry) -> String {
    slug_iri(site, &dataset.slug)
}

/// The IRI of the dataset `slug`.
fn slug_iri(site: &Site, slug: &str) -> String {
    let page = site
        .config
        .absolute_url(&crate::layout::urls::dataset_page(slug));
    format!("{page}#dataset")
}

fn contact_iri(site: &Site) -> String {
    site.config.base_url.join("#contact")
}

/// The EU Publications Office language IRI for the site's language, when it is one of the
/// common ones (DCAT-AP asks for that vocabulary).
fn language_iri(tag: &str) -> Option<String> {
    const CODES: &str = "bg:BUL ca:CAT cs:CES da:DAN de:DEU el:ELL en:ENG es:SPA et:EST eu:EUS fi:FIN fr:FRA ga:GLE gl:GLG hr:HRV hu:HUN is:ISL it:ITA ja:JPN ko:KOR lt:LIT lv:LAV mt:MLT nb:NOB nl:NLD nn:NNO no:NOR pl:POL pt:POR ro:RON ru:RUS sk:SLK sl:SLV sv:SWE tr:TUR uk:UKR zh:ZHO";
    let primary = tag.split('-').next()?.to_ascii_lowercase();
    CODES
        .split(' ')
        .filter_map(|pair| pair.split_once(':'))
        .find(|(code, _)| *code == primary)
        .map(|(_, eu)| format!("{EU}language/{eu}"))
}

/// Where a page stands among the others, in the Hydra terms harvesters follow: the current
/// ones (`first`, `next`, …) and the older `PagedCollection` ones that ckanext-dcat also
/// reads (`firstPage`, `nextPage`, …), all IRIs of the same syntax's files.
fn paging_node(site: &Site, syntax: DcatSyntax, page: usize, pages: usize) -> Node {
    let url = |n: usize| site.config.absolute_url(&page_path(syntax, n));
    let mut node = Node::new(
        &url(page),
        &["hydra:PartialCollectionView", "hydra:PagedCollection"],
    );
    node.iri("hydra:first", &url(1))
        .iri("hydra:firstPage", &url(1))
        .iri("hydra:last", &url(pages))
        .iri("hydra:lastPage", &url(pages));
    if page > 1 {
        node.iri("hydra:previous", &url(page - 1))
            .iri("hydra:previousPage", &url(page - 1));
    }
    if page < pages {
        node.iri("hydra:next", &url(page + 1))
            .iri("hydra:nextPage", &url(page + 1));
    }
    node.typed(
        "hydra:totalItems",
        &site.datasets.len().to_string(),
        "xsd:integer",
    )
    .typed(
        "hydra:itemsPerPage",
        &per_page(site).to_string(),
        "xsd:integer",
    );
    node
}

/// The catalog facts every page states alike: the catalog (first, without its datasets),
/// its agents and the shared vocabulary terms (media types, formats, standards). A rebuild
/// that leaves them and the datasets' order as they were rewrites only the pages of the
/// datasets it changed.
pub fn shared_facts(site: &Site) -> Vec<Node> {
    let config = &site.config;
    let lang = language(site);
    let mut nodes = Vec::new();
    let mut catalog = Node::new(&config.base_url.join("#catalog"), &["dcat:Catalog"]);
    catalog.text("dct:title", &config.title, lang);
    let description = if config.description.trim().is_empty() {
        &config.title
    } else {
        &config.description
    };
    catalog
        .text("dct:description", description, lang)
        .iri("dct:publisher", &publisher_iri(site))
        .iri("foaf:homepage", config.base_url.as_str());
    let language = language_iri(&config.language);
    if let Some(language) = &language {
        catalog.iri("dct:language", language);
    }
    if let Some(url) = config.license.as_ref().and_then(|l| l.url.as_ref()) {
        catalog.iri("dct:license", url);
    }
    let created = site
        .datasets
        .summaries()
        .filter_map(|d| d.created.as_ref())
        .map(date_string)
        .min();
    if let Some(created) = created {
        catalog.typed("dct:issued", &created, "xsd:date");
    }
    if let Some(updated) = site
        .datasets
        .summaries()
        .filter_map(|d| d.updated().or_else(|| site.default_date.clone()))
        .max()
    {
        catalog.typed("dct:modified", &updated, rdf::temporal_datatype(&updated));
    }
    nodes.push(catalog);

    let mut homepage = Node::new(config.base_url.as_str(), &["foaf:Document"]);
    homepage.text("dct:title", &config.title, lang);
    nodes.push(homepage);
    if let Some(license) = &config.license {
        if let Some(url) = &license.url {
            let mut node = Node::new(url, &["dct:LicenseDocument"]);
            node.text("dct:title", &license.name, lang);
            nodes.push(node);
        }
    }
    if let Some(language) = &language {
        nodes.push(Node::new(language, &["dct:LinguisticSystem"]));
    }
    let mut parties = vec![(publisher_iri(site), config.publisher())];
    if creator_iri(site) != publisher_iri(site) {
        parties.push((creator_iri(site), &config.author));
    }
    for (id, party) in parties {
        let mut agent = Node::new(&id, &["foaf:Agent"]);
        agent.text("foaf:name", &party.name, None);
        if let Some(url) = party.url.as_ref().filter(|u| u.starts_with("http")) {
            agent.iri("foaf:homepage", url);
        }
        nodes.push(agent);
    }
    let mut contact = Node::new(&contact_iri(site), &["vcard:Kind"]);
    contact.text("vcard:fn", &config.publisher().name, None);
    for party in [config.publisher(), &config.author] {
        if let Some(url) = &party.url {
            let predicate = if url.starts_with("mailto:") {
                "vcard:hasEmail"
            } else {
                "vcard:hasURL"
            };
            contact.iri(predicate, url);
            break;
        }
    }
    nodes.push(contact);
    let mut stable = Node::new(STABLE, &["skos:Concept"]);
    stable.text("skos:prefLabel", "stable", Some("en"));
    nodes.push(stable);
    nodes.push(Node::new(SHA256, &["spdx:ChecksumAlgorithm"]));
    let listed = site.outputs.iter();
    for (output, kind) in listed.filter_map(|output| Some((output, output.distribution()?))) {
        let media_type = output.media_type();
        let media_type = Node::new(&format!("{IANA}{media_type}"), &["dct:MediaType"]);
        let file_type = Node::new(
            &format!("{EU}file-type/{}", kind.file_type),
            &["dct:MediaTypeOrExtent"],
        );
        let standard = kind.conforms_to.map(|s| Node::new(s, &["dct:Standard"]));
        for node in [Some(media_type), Some(file_type), standard]
            .into_iter()
            .flatten()
        {
            if !nodes.contains(&node) {
                nodes.push(node);
            }
        }
    }
    nodes
}

/// The dataset, its distributions, their checksums, its license and temporal coverage.
fn dataset_nodes(site: &Site, dataset: &CatalogEntry) -> Vec<Node> {
    let lang = language(site);
    let front = dataset;
    let page = super::slug_page_url(site, &dataset.slug);
    let license = super::slug_license_url(site, &dataset.slug, &dataset.license);
    let modified = dataset.updated().or_else(|| site.default_date.clone());
    let mut nodes = Vec::new();

    let mut node = Node::new(&dataset_iri(site, dataset), &["dcat:Dataset"]);
    node.text("dct:title", &front.title, lang)
        .text("dct:description", &dataset.description, lang)
        .text("dct:identifier", &page, None)
        .iri("dcat:landingPage", &page)
        .iri("dct:publisher", &publisher_iri(site))
        .iri("dcat:contactPoint", &contact_iri(site));
    if front.creators.is_empty() {
        node.iri("dct:creator", &creator_iri(site));
    }
    for (index, creator) in front.creators.iter().enumerate() {
        // A person is their ORCID iD when they have one; otherwise a node of this page.
        let id = (creator.orcid_url()).unwrap_or_else(|| format!("{page}#creator-{}", index + 1));
        let class = match creator.kind {
            CreatorKind::Person => "foaf:Person",
            CreatorKind::Organization => "foaf:Organization",
        };
        node.iri("dct:creator", &id);
        let mut agent = Node::new(&id, &["foaf:Agent", class]);
        agent.text("foaf:name", &creator.reading_name(), None);
        if let Some(url) = creator.url.as_ref().filter(|u| u.starts_with("http")) {
            agent.iri("foaf:homepage", url);
        }
        nodes.push(agent);
    }
    for tag in &front.tags {
        node.text("dcat:keyword", tag, lang);
    }
    for theme in &front.themes {
        node.iri("dcat:theme", &theme.iri);
        // DCAT-AP's shapes want a theme to be a labelled skos:Concept.
        let mut concept = Node::new(&theme.iri, &["skos:Concept"]);
        concept.text("skos:prefLabel", &theme.label, lang);
        nodes.push(concept);
    }
    if let Some(created) = &front.created {
        node.typed("dct:issued", &date_string(created), "xsd:date");
    }
    if let Some(modified) = &modified {
        node.typed("dct:modified", modified, rdf::temporal_datatype(modified));
    }
    if let Some(version) = &front.version {
        node.text("dcat:version", version, None);
    }
    let temporal = front.temporal_coverage.as_deref().map(|coverage| {
        let (start, end) = coverage.split_once('/').unwrap_or((coverage, coverage));
        let mut period = Node::new(&format!("{page}#temporal"), &["dct:PeriodOfTime"]);
        if let Some((value, datatype)) = rdf::coverage_end(start) {
            period.typed("dcat:startDate", value, datatype);
        }
        if let Some((value, datatype)) = rdf::coverage_end(end) {
            period.typed("dcat:endDate", value, datatype);
        }
        period
    });
    if let Some(period) = &temporal {
        node.iri("dct:temporal", &period.id);
    }
    // An output is listed once its file is there to state (`check` writes no typed copy).
    let distributions: Vec<Node> = site
        .outputs
        .distributions(dataset)
        .map(|(output, kind, file)| {
            let listed = Listed {
                kind,
                media_type: output.media_type(),
                file,
            };
            distribution(
                site,
                dataset,
                &listed,
                &license,
                modified.as_deref(),
                &mut nodes,
            )
        })
        .collect();
    for distribution in &distributions {
        node.iri("dcat:distribution", &distribution.id);
    }
    let mut license_node = Node::new(&license, &["dct:LicenseDocument"]);
    license_node.text("dct:title", &dataset.license.name, lang);
    let mut landing = Node::new(&page, &["foaf:Document"]);
    landing.text("dct:title", &front.title, lang);
    let mut all = vec![node, landing];
    all.extend(temporal);
    all.extend(distributions);
    all.append(&mut nodes);
    all.push(license_node);
    all
}

/// One distribution of a dataset: what kind of file, and the file as written.
struct Listed<'a> {
    kind: &'a Distribution,
    media_type: &'static str,
    file: &'a FileDigest,
}

/// One distribution node; its checksum node goes into `extra`.
fn distribution(
    site: &Site,
    dataset: &CatalogEntry,
    listed: &Listed,
    license: &str,
    modified: Option<&str>,
    extra: &mut Vec<Node>,
) -> Node {
    let lang = language(site);
    let page = super::slug_page_url(site, &dataset.slug);
    let kind = listed.kind;
    let FileDigest {
        path,
        bytes,
        sha256,
    } = listed.file;
    let place = site.config.data_place(dataset.data_url.as_ref());
    let url = site.outputs.url_of(&place, &dataset.slug, path);
    let mut node = Node::new(&format!("{page}#{}", kind.fragment), &["dcat:Distribution"]);
    node.text(
        "dct:title",
        &format!("{} ({})", kind.title, super::file_name(path)),
        lang,
    )
    .text("dct:description", kind.description, lang)
    .iri("dcat:accessURL", &url)
    .iri("dcat:downloadURL", &url)
    .iri("dcat:mediaType", &format!("{IANA}{}", listed.media_type))
    .iri("dct:format", &format!("{EU}file-type/{}", kind.file_type))
    .iri("dct:license", license)
    .iri("dcatap:availability", STABLE)
    .typed(
        "dcat:byteSize",
        &bytes.to_string(),
        "xsd:nonNegativeInteger",
    );
    if let Some(standard) = kind.conforms_to {
        node.iri("dct:conformsTo", standard);
    }
    if let Some(modified) = modified {
        node.typed("dct:modified", modified, rdf::temporal_datatype(modified));
    }
    let checksum_id = format!("{page}#{}-checksum", kind.fragment);
    node.iri("spdx:checksum", &checksum_id);
    let mut checksum = Node::new(&checksum_id, &["spdx:Checksum"]);
    checksum.iri("spdx:algorithm", SHA256).typed(
        "spdx:checksumValue",
        &sha256.to_string(),
        "xsd:hexBinary",
    );
    extra.push(checksum);
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_page_keeps_the_plain_name() {
        assert_eq!(page_path(DcatSyntax::Turtle, 1), "data/catalog.ttl");
        assert_eq!(page_path(DcatSyntax::JsonLd, 1), "data/catalog.jsonld");
        assert_eq!(page_path(DcatSyntax::Turtle, 2), "data/catalog/2.ttl");
        assert_eq!(page_path(DcatSyntax::JsonLd, 12), "data/catalog/12.jsonld");
    }
}
