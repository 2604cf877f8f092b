//! [`PageTable`]: one edition's published pages as a compact table over the
//! index's fast fields (paths, orders, document addresses), built once per
//! view and shared by every scope, lookup and listing of the edition.

use std::sync::OnceLock;

use lectern_index::{DocAddress, PageRow, Snapshot};

use crate::edition::EditionRecord;

/// One edition's published pages (paths packed into one string, orders,
/// document addresses; titles and descriptions are read from the index when
/// shown).
pub(crate) struct PageTable {
    snapshot: Snapshot,
    pub(crate) edition: String,
    pub(crate) locale: String,
    pub(crate) prefix: String,
    /// The pages' paths, back to back.
    text: String,
    /// Per page: where its path ends in `text`.
    ends: Vec<u32>,
    /// Per page, its `order`; empty when no page has one (most sites).
    orders: Vec<Option<i64>>,
    /// Per page: its document (bodies are read by address, no path lookup).
    addresses: Vec<DocAddress>,
    /// Rows in path order, sorted on the first lookup by path (listings
    /// never need it, so building a table never pays for it).
    by_path: OnceLock<Vec<u32>>,
}

impl std::fmt::Debug for PageTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageTable").field("edition", &self.edition).field("pages", &self.ends.len()).finish()
    }
}

impl PageTable {
    /// Reads the edition's page listing (fast fields only, never a document).
    pub(crate) fn build(snapshot: &Snapshot, edition: &EditionRecord) -> PageTable {
        let mut table = PageTable {
            snapshot: snapshot.clone(),
            edition: edition.id.clone(),
            locale: edition.locale.clone(),
            prefix: edition.prefix.clone(),
            text: String::new(),
            ends: Vec::new(),
            orders: Vec::new(),
            addresses: Vec::new(),
            by_path: OnceLock::new(),
        };
        // Sized first, so that building a large site's table never holds a
        // doubled buffer the allocator then keeps.
        let (mut pages, mut bytes) = (0usize, 0usize);
        snapshot.page_rows(&edition.id, &mut |row| {
            if !row.draft {
                pages += 1;
                bytes += row.path.len();
            }
        });
        table.text.reserve_exact(bytes);
        table.ends.reserve_exact(pages);
        table.addresses.reserve_exact(pages);
        snapshot.page_rows(&edition.id, &mut |row| {
            let PageRow { address, path, order, draft, .. } = row;
            if draft {
                return;
            }
            table.text.push_str(path);
            table.ends.push(table.text.len() as u32);
            if order.is_some() && table.orders.is_empty() {
                table.orders.resize(table.ends.len() - 1, None);
            }
            if order.is_some() || !table.orders.is_empty() {
                table.orders.push(order);
            }
            table.addresses.push(address);
        });
        table.text.shrink_to_fit();
        table.ends.shrink_to_fit();
        table.orders.shrink_to_fit();
        table.addresses.shrink_to_fit();
        table
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    pub(crate) fn path(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    pub(crate) fn title(&self, i: usize) -> String {
        self.snapshot.page_title_at(self.addresses[i])
    }

    /// The page's description: a stored field, so one document read.
    pub(crate) fn description(&self, i: usize) -> Option<String> {
        self.snapshot.page_description(&self.edition, self.path(i))
    }

    /// The page's place in the sidebar (a fast field, no document read).
    pub(crate) fn nav(&self, i: usize) -> lectern_corpus::nav::NavPlace {
        self.snapshot.page_nav_at(self.addresses[i])
    }

    pub(crate) fn order(&self, i: usize) -> Option<i64> {
        self.orders.get(i).copied().flatten()
    }

    pub(crate) fn address(&self, i: usize) -> DocAddress {
        self.addresses[i]
    }

    /// Rows in path order (byte order).
    pub(crate) fn in_path_order(&self) -> &[u32] {
        self.by_path.get_or_init(|| {
            let mut rows: Vec<u32> = (0..self.len() as u32).collect();
            rows.sort_by(|&a, &b| self.path(a as usize).cmp(self.path(b as usize)));
            rows
        })
    }

    /// The row of the page at `path`, if the edition publishes one.
    pub(crate) fn find(&self, path: &str) -> Option<usize> {
        let rows = self.in_path_order();
        let at = rows.partition_point(|&r| self.path(r as usize) < path);
        rows.get(at).map(|&r| r as usize).filter(|&r| self.path(r) == path)
    }
}
