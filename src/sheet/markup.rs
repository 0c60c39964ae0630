//! The sheet markup that templates produce: one block per line or paragraph.
//!
//! ```text
//! # Title                  big bold title
//! ## Heading               section heading
//! Plain lines …            a paragraph (consecutive lines join; a blank line ends it)
//! - item                   bullet
//! [ ] item                 a check-box line for the host to tick
//! ! text                   a highlighted note in a box
//! @figure arg arg          a drawing made by code at exact size (board, counters, …)
//! @pagebreak               start a new page
//! ```
//!
//! Strings are text, never markup: templates escape every value they print with
//! [`escape`], which marks it as plain text and turns its line breaks into line
//! separators, so no string can start a block or draw a figure.

/// Starts every value a template prints; a line that starts with it is plain text.
const PLAIN: char = '\u{E000}';

/// A value as a template prints it: plain text that cannot start a line of markup.
pub fn escape(value: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut text = String::with_capacity(value.len() + 3);
    text.push(PLAIN);
    text.extend(value.chars().map(|c| match c {
        // A break inside a string stays a break, but never a new markup line.
        '\n' | '\r' => '\u{2028}',
        c => c,
    }));
    out.write_all(text.as_bytes())
}

/// One block of a sheet.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // each variant's comment names its fields
pub enum Block {
    /// The sheet's title.
    Title(String),
    /// A section heading.
    Heading(String),
    /// Running text.
    Paragraph(String),
    /// A bulleted item.
    Bullet(String),
    /// A check-list item.
    Check(String),
    /// A boxed note.
    Note(String),
    /// A drawing by code: its name, arguments and the template line it came from.
    Figure { name: String, args: Vec<String>, line: usize },
    /// A forced page break.
    PageBreak,
}

/// Parses rendered markup into blocks.
pub fn parse(markup: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(paragraph.join(" ")));
            paragraph.clear();
        }
    };
    for (index, raw) in markup.lines().enumerate() {
        let line = raw.trim();
        let block = if line.is_empty() {
            None
        } else if line.starts_with(PLAIN) {
            paragraph.push(line);
            continue;
        } else if let Some(rest) = line.strip_prefix("## ") {
            Some(Block::Heading(rest.trim().to_string()))
        } else if let Some(rest) = line.strip_prefix("# ") {
            Some(Block::Title(rest.trim().to_string()))
        } else if let Some(rest) = line.strip_prefix("- ") {
            Some(Block::Bullet(rest.trim().to_string()))
        } else if let Some(rest) = line.strip_prefix("[ ] ") {
            Some(Block::Check(rest.trim().to_string()))
        } else if let Some(rest) = line.strip_prefix("! ") {
            Some(Block::Note(rest.trim().to_string()))
        } else if line == "@pagebreak" {
            Some(Block::PageBreak)
        } else if let Some(rest) = line.strip_prefix('@') {
            let mut words = rest.split_whitespace().map(str::to_string);
            let name = words.next().unwrap_or_default();
            Some(Block::Figure { name, args: words.collect(), line: index + 1 })
        } else {
            paragraph.push(line);
            continue;
        };
        flush(&mut paragraph, &mut blocks);
        blocks.extend(block);
    }
    flush(&mut paragraph, &mut blocks);
    blocks.into_iter().map(Block::without_marks).collect()
}

impl Block {
    /// The block with the plain-text marks of its values taken out.
    fn without_marks(self) -> Block {
        let clean = |text: String| text.replace(PLAIN, "");
        match self {
            Block::Title(t) => Block::Title(clean(t)),
            Block::Heading(t) => Block::Heading(clean(t)),
            Block::Paragraph(t) => Block::Paragraph(clean(t)),
            Block::Bullet(t) => Block::Bullet(clean(t)),
            Block::Check(t) => Block::Check(clean(t)),
            Block::Note(t) => Block::Note(clean(t)),
            Block::Figure { name, args, line } => Block::Figure {
                name: clean(name),
                args: args.into_iter().map(clean).collect(),
                line,
            },
            Block::PageBreak => Block::PageBreak,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_becomes_blocks() {
        let blocks = parse(
            "# Title\n\nA first\nparagraph.\n\n## Part\n- one\n[ ] tick\n! mind\n@board big\n@pagebreak\nend",
        );
        assert_eq!(
            blocks,
            vec![
                Block::Title("Title".into()),
                Block::Paragraph("A first paragraph.".into()),
                Block::Heading("Part".into()),
                Block::Bullet("one".into()),
                Block::Check("tick".into()),
                Block::Note("mind".into()),
                Block::Figure {
                    name: "board".into(),
                    args: vec!["big".into()],
                    line: 10
                },
                Block::PageBreak,
                Block::Paragraph("end".into()),
            ]
        );
    }
}
