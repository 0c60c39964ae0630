//! The outline (bookmarks) of a file of several pages: its title and headings where
//! they start (sections of a rule card, parts of a board), and each page that starts
//! no heading by its page label (the pages of a ledger), all in the sheet's language.

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::DocInfo;
use super::info::text_string;
use super::structure::Element;
use crate::page::Role;

/// One bookmark: its title, the page index and the top of the heading in points
/// (none: the top of the page).
pub(super) struct Entry {
    pub title: String,
    pub page: usize,
    pub top: Option<f32>,
}

/// The bookmarks for `page_count` pages: every title and heading, in order, and a
/// page label for each page on which none starts.
pub(super) fn entries(
    elements: &[Element],
    page_count: usize,
    info: &DocInfo,
) -> Vec<Entry> {
    let headings: Vec<Entry> = elements
        .iter()
        .filter(|e| matches!(e.role, Role::Title | Role::Heading) && !e.text.is_empty())
        .filter_map(|e| {
            let &(page, _) = e.parts.first()?;
            Some(Entry { title: e.text.clone(), page, top: e.top })
        })
        .collect();
    let mut entries = Vec::new();
    for page in 0..page_count {
        let on_page = headings.iter().filter(|h| h.page == page);
        if on_page.clone().next().is_none() {
            let label = match info.page_label.is_empty() {
                true => (page + 1).to_string(),
                false => info
                    .page_label
                    .replace("{page}", &(page + 1).to_string())
                    .replace("{pages}", &page_count.to_string()),
            };
            entries.push(Entry { title: label, page, top: None });
        }
        entries.extend(on_page.map(|h| Entry {
            title: h.title.clone(),
            page: h.page,
            top: h.top,
        }));
    }
    entries
}

/// Writes `entries` as the document's outline, one level deep, and asks viewers to
/// show it.
pub(super) fn write(doc: &mut Document, pages: &[ObjectId], entries: &[Entry]) {
    if entries.is_empty() {
        return;
    }
    let root_id = doc.new_object_id();
    let ids: Vec<ObjectId> = entries.iter().map(|_| doc.new_object_id()).collect();
    for (i, entry) in entries.iter().enumerate() {
        let mut dict = Dictionary::new();
        dict.set("Title", text_string(&entry.title));
        dict.set("Parent", Object::Reference(root_id));
        if i > 0 {
            dict.set("Prev", Object::Reference(ids[i - 1]));
        }
        if let Some(&next) = ids.get(i + 1) {
            dict.set("Next", Object::Reference(next));
        }
        let page = Object::Reference(pages[entry.page]);
        let dest = match entry.top {
            Some(top) => vec![
                page,
                Object::Name(b"XYZ".to_vec()),
                Object::Null,
                Object::Real(top),
                Object::Null,
            ],
            None => vec![page, Object::Name(b"Fit".to_vec())],
        };
        dict.set("Dest", Object::Array(dest));
        doc.objects.insert(ids[i], Object::Dictionary(dict));
    }
    let mut root = Dictionary::new();
    root.set("Type", Object::Name(b"Outlines".to_vec()));
    root.set("First", Object::Reference(ids[0]));
    root.set("Last", Object::Reference(ids[ids.len() - 1]));
    root.set("Count", Object::Integer(ids.len() as i64));
    doc.objects.insert(root_id, Object::Dictionary(root));
    let catalog = doc.catalog_mut().expect("printpdf writes a catalog");
    catalog.set("Outlines", Object::Reference(root_id));
    catalog.set("PageMode", Object::Name(b"UseOutlines".to_vec()));
}
