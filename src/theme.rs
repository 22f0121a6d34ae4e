//! The built-in theme: the bundled site's templates and static assets, compiled into the
//! binary so that a site with no `templates/` or `static/` folder still gets the full
//! design, and an upgrade of datapages brings design fixes to every site that did not
//! replace them. A site's own file of the same name always wins.

/// Templates by name (relative to `templates/`).
pub const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../templates/base.html")),
    ("dataset.html", include_str!("../templates/dataset.html")),
    ("datasets.html", include_str!("../templates/datasets.html")),
    ("index.html", include_str!("../templates/index.html")),
    ("tag.html", include_str!("../templates/tag.html")),
    ("page.html", include_str!("../templates/page.html")),
    ("404.html", include_str!("../templates/404.html")),
    ("rows.html", include_str!("../templates/rows.html")),
    (
        "partials/dataset_list.html",
        include_str!("../templates/partials/dataset_list.html"),
    ),
    (
        "partials/pagination.html",
        include_str!("../templates/partials/pagination.html"),
    ),
    (
        "partials/row_nav.html",
        include_str!("../templates/partials/row_nav.html"),
    ),
    (
        "partials/table.html",
        include_str!("../templates/partials/table.html"),
    ),
    (
        "partials/table_style.html",
        include_str!("../templates/partials/table_style.html"),
    ),
    (
        "partials/table_tools.html",
        include_str!("../templates/partials/table_tools.html"),
    ),
];

/// Static assets by output path (relative to `static/` and to the output root). The
/// templates and the explorer's worker load them, so each must exist in every output.
pub const STATIC_FILES: &[(&str, &[u8])] = &[
    ("style.css", include_bytes!("../static/style.css")),
    ("table.js", include_bytes!("../static/table.js")),
    ("listing.js", include_bytes!("../static/listing.js")),
    ("explore.js", include_bytes!("../static/explore.js")),
    (
        "explore-worker.js",
        include_bytes!("../static/explore-worker.js"),
    ),
    (
        "explore-cells.js",
        include_bytes!("../static/explore-cells.js"),
    ),
    (
        "explore-search.js",
        include_bytes!("../static/explore-search.js"),
    ),
];

/// The built-in static asset of that output path, if there is one.
pub fn static_file(name: &str) -> Option<&'static [u8]> {
    STATIC_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}

/// Every file of the theme as it would sit in a site folder (`templates/…`, `static/…`),
/// for `datapages eject`.
pub fn site_files() -> Vec<(String, &'static [u8])> {
    let templates = TEMPLATES
        .iter()
        .map(|(name, text)| (format!("templates/{name}"), text.as_bytes()));
    let statics = STATIC_FILES
        .iter()
        .map(|(name, bytes)| (format!("static/{name}"), *bytes));
    templates.chain(statics).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_the_base_template_links_is_built_in() {
        let base = TEMPLATES
            .iter()
            .find(|(n, _)| *n == "base.html")
            .map(|(_, t)| *t)
            .unwrap_or_default();
        let linked: Vec<&str> = STATIC_FILES
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| base.contains(n))
            .collect();
        assert!(linked.contains(&"style.css"), "base.html links style.css");
        assert!(static_file("table.js").is_some_and(|b| !b.is_empty()));
        assert!(static_file("nope.css").is_none());
        assert_eq!(site_files().len(), TEMPLATES.len() + STATIC_FILES.len());
    }

    /// A chart inside a page carries no `<style>`: the built-in stylesheet must hold the
    /// rules the chart files carry, byte for byte.
    #[test]
    fn the_site_stylesheet_holds_the_chart_style() {
        let css = static_file("style.css").unwrap_or_default();
        let css = String::from_utf8_lossy(css);
        assert!(
            css.contains(crate::render::chart::STYLE),
            "static/style.css must end with the chart style of datapages-charts' chart/svg.rs (STYLE)"
        );
    }
}
