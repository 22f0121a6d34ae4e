//! The byte budget of a dataset page: at most [`PAGE_BYTES`] of HTML whatever the table's
//! width and length, shared out between the table's rows, the charts, the Columns section
//! and the rest (prose, downloads, snippets, citation), and the rule that fits rows into
//! the table's share.

/// The most HTML one dataset page (or row page) may hold: 256 kB.
pub const PAGE_BYTES: usize = 256_000;

/// The table rows' share: up to 96 kB of `<tr>` rows, as on a row page (less when the rest of the page
/// leaves less of [`PAGE_BYTES`]); the explorer and the download have every row.
pub const TABLE_BYTES: usize = 96_000;

/// The charts' share: inline `<svg>` up to 40 kB in all, the first chart always inline (a
/// page's one chart stays one that can be read, hovered and restyled in dark mode); a
/// later chart past the share is shown as an image of its own SVG file.
pub const CHARTS_BYTES: usize = 40_000;

/// The Columns section's share: the profiles of the columns in the table and one line for
/// each of the others, up to 64 kB (about 50 profiles with their histograms); the columns
/// past it are named by count and described in the Data Package, CSVW and Croissant files.
pub const COLUMNS_BYTES: usize = 64_000;

/// The most columns the page's JSON-LD names (`variableMeasured`, about 75 bytes each);
/// a wider table's JSON-LD names the columns its table shows.
pub const JSONLD_COLUMNS: usize = 300;

/// Kept free when the rows are fitted, for the sentence that says how many rows the page
/// shows (written after the rows are counted) and the small text around it.
pub const NOTE_BYTES: usize = 1_000;

/// The most characters of one cell a table shows; a longer cell is cut with `…` (the
/// download, the explorer and the typed copy hold it whole), so one giant cell cannot
/// take the page.
pub const CELL_CHARS: usize = 1_000;

/// What a page holds besides its prose and its table's rows (kicker to download block,
/// snippets, citation, Columns, JSON-LD): about 30 kB in practice (36 kB for a whole page
/// of 20 rows at N=10,000, BENCHMARKS.md), so prose past [`PAGE_BYTES`] less this leaves
/// the page over its budget whatever its table shows.
pub const REST_BYTES: usize = 30_000;

/// A warning for `file` when the author's prose (lede, intro, sections) takes so many bytes
/// of HTML that they leave no room for the rest of the page within [`PAGE_BYTES`].
pub fn prose_over_budget(
    body: &crate::content::Body,
    file: &std::path::Path,
) -> Option<crate::diagnostics::Diagnostic> {
    let sections = body.sections.iter().map(|s| s.title.len() + s.html.len());
    let prose = body.lede_html.len() + body.intro_html.len() + sections.sum::<usize>();
    (prose > PAGE_BYTES - REST_BYTES).then(|| {
        let message = format!(
            "the page's prose is {} kB of HTML: with the rest of the page it cannot stay within the {} kB page budget, and readers on slow connections wait for all of it",
            prose.div_ceil(1000),
            PAGE_BYTES / 1000
        );
        crate::diagnostics::Diagnostic::warning(file, message).with_hint(
            "move the longer parts to a plain page (content/<name>.md) and link to it from this one",
        )
    })
}

/// The bytes the table's rows may take on a page whose other HTML (everything but the
/// rows) is `rest` bytes: the table's share, or what is left of the page budget.
pub fn table_share(rest: usize) -> usize {
    TABLE_BYTES.min(PAGE_BYTES.saturating_sub(rest.saturating_add(NOTE_BYTES)))
}

/// How many of the rows, whose rendered sizes come in order, the table shows: the longest
/// run from the first that stays within `share` bytes, at most `limit` rows. A row that
/// does not fit ends the run (the table shows the first rows, never a selection).
pub fn fit_rows(sizes: impl IntoIterator<Item = usize>, share: usize, limit: u64) -> u64 {
    let mut used = 0usize;
    let mut shown = 0u64;
    for size in sizes {
        if shown >= limit || used.saturating_add(size) > share {
            break;
        }
        used += size;
        shown += 1;
    }
    shown
}

/// Rows a row page holds when row pages are on: the `table_rows` cap, lowered so that a
/// page of rows of this CSV's average length fits the table's share (`bytes` of CSV over
/// `rows` rows of `columns` columns; each cell costs its text and about 16 bytes of
/// markup, each row about 32, and the text is counted twice for escaping and number
/// marks), within [`ROW_PAGE_BYTES`]. A row page whose rows run longer than the average
/// shows those that fit.
pub fn rows_per_page(cap: u64, bytes: u64, rows: u64, columns: usize) -> u64 {
    let average = bytes / rows.max(1);
    let row = 2 * average + 16 * columns as u64 + 32;
    cap.min((ROW_PAGE_BYTES as u64 / row.max(1)).max(1))
}

/// The rows of a row page aim at this much of the table's share, so that the dataset
/// page, which holds the first page of rows beside its charts and Columns section, holds
/// as many as the other pages (about 100 kB is left for its rows when its other parts use
/// their whole shares).
pub const ROW_PAGE_BYTES: usize = 96_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_fit_until_the_first_that_does_not() {
        assert_eq!(fit_rows([100, 100, 100], 250, 10), 2);
        assert_eq!(fit_rows([100, 100, 100], 300, 10), 3);
        // The cap wins when the rows fit.
        assert_eq!(fit_rows([1; 50], 1_000, 20), 20);
        // A giant row ends the run: the rows after it are not picked out.
        assert_eq!(fit_rows([10, 10_000, 10, 10], 1_000, 10), 1);
        // A first row larger than the share: none shown.
        assert_eq!(fit_rows([5_000, 1], 1_000, 10), 0);
        assert_eq!(fit_rows(std::iter::empty(), 1_000, 10), 0);
    }

    #[test]
    fn the_table_gets_its_share_or_what_the_rest_leaves() {
        assert_eq!(table_share(20_000), TABLE_BYTES);
        assert_eq!(table_share(200_000), PAGE_BYTES - 200_000 - NOTE_BYTES);
        assert_eq!(table_share(PAGE_BYTES), 0);
        assert_eq!(table_share(usize::MAX), 0);
    }

    #[test]
    fn row_pages_hold_what_fits_on_average() {
        // 3 short columns (10 bytes a row): 96 kB / 100 bytes.
        assert_eq!(rows_per_page(1_000, 10_000, 1_000, 3), 960);
        assert_eq!(rows_per_page(500, 10_000, 1_000, 3), 500);
        // 10 short columns (30 bytes a row): 96 kB / 252 bytes.
        assert_eq!(rows_per_page(1_000, 30_000, 1_000, 10), 380);
        // 50 columns of numbers (about 500 bytes of CSV a row): 96 kB / 1,832 bytes.
        assert_eq!(rows_per_page(1_000, 500_000, 1_000, 50), 52);
        // A row longer than the share: one row a page, never none.
        assert_eq!(rows_per_page(1_000, 10_000_000, 10, 5), 1);
        assert_eq!(rows_per_page(1_000, 0, 0, 0), 1_000);
    }
}
