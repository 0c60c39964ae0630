//! Tagged PDF: the page model's structure markers ([`Item::Begin`], [`Item::End`])
//! become marked content in the page streams (`BDC … EMC` with an MCID), and the
//! structure tree that a screen reader walks (headings, paragraphs, lists, figures
//! with alternative text). Items outside any run are marked as artifacts, so every
//! mark on a page is either read or known to be decoration.
//!
//! The marks are written into the page's operations as they are made (`draw.rs`); the
//! tree is added to printpdf's output with lopdf, by object id.

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::info::text_string;
use crate::page::{Item, Role};
use printpdf::{DictItem, Op};

/// One structure element and where its content is: `(page index, MCID)` pairs in
/// reading order.
#[derive(Debug)]
pub(super) struct Element {
    pub role: Role,
    pub parts: Vec<(usize, i64)>,
    /// The text of a title or heading (for the outline), and where its first line's
    /// top is, in points from the bottom of its page.
    pub text: String,
    pub top: Option<f32>,
}

/// Turns one page's items into marked content as they are written: call
/// [`PageMarks::before`] for every item, then [`PageMarks::finish`].
pub(super) struct PageMarks<'a> {
    elements: &'a mut Vec<Element>,
    page: usize,
    next_mcid: i64,
    /// Nesting depth of runs; a run inside a run belongs to the outer one.
    depth: usize,
    artifact: bool,
}

impl<'a> PageMarks<'a> {
    pub fn new(elements: &'a mut Vec<Element>, page: usize) -> Self {
        PageMarks { elements, page, next_mcid: 0, depth: 0, artifact: false }
    }

    /// Opens or closes marked content for `item`; true when the item is a marker
    /// (and draws nothing).
    pub fn before(
        &mut self,
        item: &Item,
        top: impl Fn() -> f32,
        ops: &mut Vec<Op>,
    ) -> bool {
        match item {
            Item::Begin(tag) => {
                self.depth += 1;
                if self.depth > 1 {
                    return true;
                }
                self.close_artifact(ops);
                let mcid = self.next_mcid;
                self.next_mcid += 1;
                match self.elements.last_mut() {
                    Some(last) if tag.continues && last.role == tag.role => {
                        last.parts.push((self.page, mcid));
                    }
                    _ => self.elements.push(Element {
                        role: tag.role.clone(),
                        parts: vec![(self.page, mcid)],
                        text: String::new(),
                        top: None,
                    }),
                }
                ops.push(begin_marked(tag_name(&tag.role), mcid));
                true
            }
            Item::End => {
                if self.depth == 1 {
                    ops.push(Op::EndMarkedContent);
                }
                self.depth = self.depth.saturating_sub(1);
                true
            }
            Item::Text { shaped, .. } if self.depth > 0 => {
                let element = self.elements.last_mut().expect("a run is open");
                if matches!(element.role, Role::Title | Role::Heading) {
                    if !element.text.is_empty() {
                        element.text.push(' ');
                    }
                    element.text.push_str(shaped.text.trim());
                    element.top.get_or_insert_with(top);
                }
                false
            }
            _ if self.depth > 0 => false,
            _ => {
                if !self.artifact {
                    ops.push(Op::BeginMarkedContent { tag: "Artifact".to_string() });
                    self.artifact = true;
                }
                false
            }
        }
    }

    /// Closes whatever is still open at the end of the page.
    pub fn finish(mut self, ops: &mut Vec<Op>) {
        self.close_artifact(ops);
        if self.depth > 0 {
            ops.push(Op::EndMarkedContent);
        }
    }

    fn close_artifact(&mut self, ops: &mut Vec<Op>) {
        if self.artifact {
            ops.push(Op::EndMarkedContent);
            self.artifact = false;
        }
    }
}

/// The standard structure type of a role (ISO 32000-1, 14.8.4).
fn tag_name(role: &Role) -> &'static str {
    match role {
        Role::Title => "H1",
        Role::Heading => "H2",
        Role::Paragraph => "P",
        // The content of a list item is its body; the item and its list are
        // parents in the tree.
        Role::ListItem => "LBody",
        Role::Cell { head: true, .. } => "TH",
        Role::Cell { head: false, .. } => "TD",
        Role::Figure { .. } => "Figure",
    }
}

/// What consecutive elements of one role are gathered in.
#[derive(Clone, Copy, PartialEq, Debug)]
enum GroupKind {
    /// List items: a list (`L`), each item's body in its own `LI`.
    List,
    /// Cells: a table, each row a `TR`.
    Table,
}

impl GroupKind {
    fn of(role: &Role) -> Option<GroupKind> {
        match role {
            Role::ListItem => Some(GroupKind::List),
            Role::Cell { .. } => Some(GroupKind::Table),
            _ => None,
        }
    }
}

/// A list or table being filled, and the table row being filled.
struct Group {
    kind: GroupKind,
    id: ObjectId,
    kids: Vec<Object>,
    row: Option<(ObjectId, Vec<Object>)>,
}

impl Group {
    fn open(doc: &mut Document, kind: GroupKind, parent: ObjectId) -> Group {
        let id = doc.new_object_id();
        let tag = match kind {
            GroupKind::List => "L",
            GroupKind::Table => "Table",
        };
        doc.objects.insert(id, Object::Dictionary(elem(tag, parent)));
        Group { kind, id, kids: Vec::new(), row: None }
    }

    /// Files the element `content` of `role` in the group; returns its parent.
    fn add(&mut self, doc: &mut Document, role: &Role, content: ObjectId) -> ObjectId {
        match role {
            Role::Cell { starts_row, .. } => {
                if *starts_row || self.row.is_none() {
                    self.close_row(doc);
                    let row_id = doc.new_object_id();
                    doc.objects.insert(row_id, Object::Dictionary(elem("TR", self.id)));
                    self.kids.push(Object::Reference(row_id));
                    self.row = Some((row_id, Vec::new()));
                }
                let (row_id, cells) = self.row.as_mut().expect("a row is open");
                cells.push(Object::Reference(content));
                *row_id
            }
            _ => {
                let item_id = doc.new_object_id();
                let mut item = elem("LI", self.id);
                item.set("K", Object::Array(vec![Object::Reference(content)]));
                doc.objects.insert(item_id, Object::Dictionary(item));
                self.kids.push(Object::Reference(item_id));
                item_id
            }
        }
    }

    fn close_row(&mut self, doc: &mut Document) {
        if let Some((id, cells)) = self.row.take() {
            set_kids(doc, id, cells);
        }
    }

    fn close(mut self, doc: &mut Document) {
        self.close_row(doc);
        set_kids(doc, self.id, self.kids);
    }
}

fn set_kids(doc: &mut Document, id: ObjectId, kids: Vec<Object>) {
    let dict = doc.get_object_mut(id).and_then(Object::as_dict_mut).expect("an element");
    dict.set("K", Object::Array(kids));
}

/// Adds the structure tree for `elements` to `doc` (whose pages are `pages`, in
/// order), marks the document as tagged and gives each page its parent tree key.
pub(super) fn write_tree(doc: &mut Document, pages: &[ObjectId], elements: &[Element]) {
    let root_id = doc.new_object_id();
    let document_id = doc.new_object_id();
    // For each page, the element that owns each MCID, by MCID.
    let mut owners: Vec<Vec<(i64, ObjectId)>> = vec![Vec::new(); pages.len()];
    let mut children = Vec::new();
    // The list or table that the elements before this one went into.
    let mut open: Option<Group> = None;
    for element in elements {
        let Some(&(first_page, _)) = element.parts.first() else { continue };
        let content_id = doc.new_object_id();
        let kind = GroupKind::of(&element.role);
        if open.as_ref().map(|g| g.kind) != kind {
            if let Some(group) = open.take() {
                group.close(doc);
            }
            if let Some(kind) = kind {
                let group = Group::open(doc, kind, document_id);
                children.push(Object::Reference(group.id));
                open = Some(group);
            }
        }
        let parent = match &mut open {
            Some(group) => group.add(doc, &element.role, content_id),
            None => {
                children.push(Object::Reference(content_id));
                document_id
            }
        };
        let mut dict = element_dict(element, parent, pages[first_page]);
        let kids = element
            .parts
            .iter()
            .map(|&(page, mcid)| {
                owners[page].push((mcid, content_id));
                marked_content(page == first_page, pages[page], mcid)
            })
            .collect();
        dict.set("K", Object::Array(kids));
        doc.objects.insert(content_id, Object::Dictionary(dict));
    }
    if let Some(group) = open {
        group.close(doc);
    }

    let mut document = elem("Document", root_id);
    document.set("K", Object::Array(children));
    doc.objects.insert(document_id, Object::Dictionary(document));

    let parent_tree = write_parent_tree(doc, pages, owners);
    let mut root = Dictionary::new();
    root.set("Type", Object::Name(b"StructTreeRoot".to_vec()));
    root.set("K", Object::Reference(document_id));
    root.set("ParentTree", Object::Dictionary(parent_tree));
    root.set("ParentTreeNextKey", Object::Integer(pages.len() as i64));
    doc.objects.insert(root_id, Object::Dictionary(root));

    let mut mark_info = Dictionary::new();
    mark_info.set("Marked", Object::Boolean(true));
    let catalog = doc.catalog_mut().expect("printpdf writes a catalog");
    catalog.set("StructTreeRoot", Object::Reference(root_id));
    catalog.set("MarkInfo", Object::Dictionary(mark_info));
}

/// The structure element of `element` under `parent`, starting on page `first_page`,
/// with the attributes its role carries (a figure's text, a heading cell's scope);
/// its content is set by the caller.
fn element_dict(element: &Element, parent: ObjectId, first_page: ObjectId) -> Dictionary {
    let mut dict = elem(tag_name(&element.role), parent);
    dict.set("Pg", Object::Reference(first_page));
    match &element.role {
        Role::Figure { alt } => dict.set("Alt", text_string(alt)),
        // A heading names the cells below it (ISO 32000-1, 14.8.5.7).
        Role::Cell { head: true, .. } => {
            let mut attributes = Dictionary::new();
            attributes.set("O", Object::Name(b"Table".to_vec()));
            attributes.set("Scope", Object::Name(b"Column".to_vec()));
            dict.set("A", Object::Dictionary(attributes));
        }
        _ => {}
    }
    dict
}

/// A kid of a structure element: the bare MCID on the element's own page, else a
/// marked-content reference naming the page it is on.
fn marked_content(on_first_page: bool, page: ObjectId, mcid: i64) -> Object {
    if on_first_page {
        return Object::Integer(mcid);
    }
    let mut mcr = Dictionary::new();
    mcr.set("Type", Object::Name(b"MCR".to_vec()));
    mcr.set("Pg", Object::Reference(page));
    mcr.set("MCID", Object::Integer(mcid));
    Object::Dictionary(mcr)
}

/// Writes the parent tree, for page i (its /StructParents) the element of each MCID,
/// and gives each page its key; returns the tree's dictionary.
fn write_parent_tree(
    doc: &mut Document,
    pages: &[ObjectId],
    owners: Vec<Vec<(i64, ObjectId)>>,
) -> Dictionary {
    let mut nums = Vec::new();
    for (index, (&page_id, mut owned)) in pages.iter().zip(owners).enumerate() {
        owned.sort_by_key(|&(mcid, _)| mcid);
        let refs = owned.into_iter().map(|(_, id)| Object::Reference(id)).collect();
        let array_id = doc.add_object(Object::Array(refs));
        nums.push(Object::Integer(index as i64));
        nums.push(Object::Reference(array_id));
        if let Ok(page) = doc.get_object_mut(page_id).and_then(Object::as_dict_mut) {
            page.set("StructParents", Object::Integer(index as i64));
            // Tab order follows the structure.
            page.set("Tabs", Object::Name(b"S".to_vec()));
        }
    }
    let mut parent_tree = Dictionary::new();
    parent_tree.set("Nums", Object::Array(nums));
    parent_tree
}

/// A structure element of type `tag` under `parent`, without content yet.
fn elem(tag: &str, parent: ObjectId) -> Dictionary {
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"StructElem".to_vec()));
    dict.set("S", Object::Name(tag.as_bytes().to_vec()));
    dict.set("P", Object::Reference(parent));
    dict
}

/// A marked-content sequence of `tag` that a structure element finds by `mcid`.
pub(super) fn begin_marked(tag: &str, mcid: i64) -> Op {
    let map =
        std::collections::BTreeMap::from([("MCID".to_string(), DictItem::Int(mcid))]);
    Op::BeginMarkedContentWithProperties {
        tag: tag.to_string(),
        properties: DictItem::Dict { map },
    }
}

#[cfg(test)]
mod tests {
    use crate::page::{Color, Item, Page, Paint, Point, Role, Tag};
    use crate::text::{Reading, Shaper, Style};

    fn line(text: &str) -> Item {
        let shaped = Shaper::new().shape(text, Style::Regular, 10.0, Reading::Natural);
        Item::Text { origin: Point::new(20.0, 30.0), shaped, color: Color::BLACK }
    }

    #[test]
    fn a_paragraph_over_two_pages_is_one_element_and_decoration_an_artifact() {
        let mut first = Page::new(210.0, 297.0);
        first.items = vec![line("The first line"), line("and the second")];
        let mut second = Page::new(210.0, 297.0);
        second.items = vec![line("on the next page.")];
        Tag::wrap_text(Role::Paragraph, [&mut first.items, &mut second.items]);
        second.rect(Point::new(20.0, 40.0), 5.0, 5.0, Paint::fill(Color::BLACK));
        let bytes = super::super::write_with(&[first, second], &Default::default());
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let pages: Vec<_> = doc.get_pages().into_values().collect();
        let paragraphs: Vec<&lopdf::Dictionary> = doc
            .objects
            .values()
            .filter_map(|o| o.as_dict().ok())
            .filter(|d| d.get(b"S").ok().and_then(|s| s.as_name().ok()) == Some(b"P"))
            .collect();
        assert_eq!(paragraphs.len(), 1);
        let kids = paragraphs[0].get(b"K").unwrap().as_array().unwrap();
        assert_eq!(kids[0].as_i64().unwrap(), 0);
        let mcr = kids[1].as_dict().unwrap();
        assert_eq!(mcr.get(b"Pg").unwrap().as_reference().unwrap(), pages[1]);
        let content = doc.get_and_decode_page_content(pages[1]).unwrap();
        let ops: Vec<&str> =
            content.operations.iter().map(|o| o.operator.as_str()).collect();
        let artifact = ops.iter().position(|&o| o == "BMC").unwrap();
        assert!(ops[..artifact].contains(&"BDC") && ops[artifact..].contains(&"re"));
    }
}
