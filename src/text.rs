//! Text shaping and line breaking with the shipped fonts' real glyphs and metrics.
//!
//! Layout measures text here, and the PDF writer prints exactly the glyphs measured
//! here, so what fits on screen fits on paper.

use std::cell::RefCell;
use std::sync::OnceLock;

use rustybuzz::ttf_parser::GlyphId;
use rustybuzz::ttf_parser::gdef::GlyphClass;
use rustybuzz::{Direction, Face, Script, ShapePlan, UnicodeBuffer};
use unicode_bidi::ParagraphBidiInfo;
use unicode_linebreak::{BreakOpportunity, linebreaks};

/// DejaVu Sans: covers Latin, Greek, Cyrillic and Arabic (see fonts/LICENSE-DejaVu.txt).
pub const REGULAR_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, for titles and headings.
pub const BOLD_TTF: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

const MM_PER_PT: f64 = 25.4 / 72.0;

/// The two faces the sheets use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Style {
    /// Body text.
    Regular,
    /// Titles, headings and labels that must stand out.
    Bold,
}

impl Style {
    /// The font file's bytes.
    pub fn font_bytes(self) -> &'static [u8] {
        match self {
            Style::Regular => REGULAR_TTF,
            Style::Bold => BOLD_TTF,
        }
    }

    /// Traces glyph `id`'s outline in font units (y up) into `builder`; false when
    /// the glyph draws nothing (a space).
    pub fn outline(
        self,
        id: u16,
        builder: &mut dyn rustybuzz::ttf_parser::OutlineBuilder,
    ) -> bool {
        self.face().outline_glyph(GlyphId(id), builder).is_some()
    }

    /// Glyph `id`'s advance in font units, as the font's `hmtx` gives it.
    pub fn advance(self, id: u16) -> u16 {
        self.face().glyph_hor_advance(GlyphId(id)).unwrap_or(0)
    }

    /// The shipped face, parsed on first use: a constant of the program (the fonts
    /// are compiled in and never change), not a cache of anything a build computes.
    fn face(self) -> &'static Face<'static> {
        static REGULAR: OnceLock<Face<'static>> = OnceLock::new();
        static BOLD: OnceLock<Face<'static>> = OnceLock::new();
        let cell = match self {
            Style::Regular => &REGULAR,
            Style::Bold => &BOLD,
        };
        cell.get_or_init(|| {
            Face::from_slice(self.font_bytes(), 0).expect("shipped font parses")
        })
    }
}

/// One glyph as the shaper placed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// Glyph id in the font.
    pub id: u16,
    /// The text this glyph stands for (several characters for a ligature, empty for
    /// the second glyph of a cluster), so the PDF can map glyphs back to text.
    /// Shared: a run from the cache is copied without copying its texts.
    pub text: std::sync::Arc<str>,
    /// Pen advance after this glyph, in font units.
    pub advance: i32,
}

/// A shaped run of text in one style and size.
#[derive(Clone, Debug, PartialEq)]
pub struct Shaped {
    /// The text that was shaped.
    pub text: String,
    /// Its face.
    pub style: Style,
    /// Its size in points.
    pub size_pt: f64,
    /// The glyphs in visual order.
    pub glyphs: Vec<Glyph>,
    /// The font's units per em, to turn advances into lengths.
    pub units_per_em: u16,
    /// The paragraph reads right to left (Arabic): lines align to the right.
    pub rtl: bool,
    /// Some of the text runs right to left, so its glyphs are in visual order.
    pub has_rtl: bool,
}

impl Shaped {
    /// The advance width in millimetres.
    pub fn width_mm(&self) -> f64 {
        let units: i64 = self.glyphs.iter().map(|g| g.advance as i64).sum();
        units as f64 / self.units_per_em as f64 * self.size_pt * MM_PER_PT
    }

    /// Characters of the text that the font has no glyph for.
    pub fn missing_chars(&self) -> Vec<char> {
        missing_chars(&self.text)
    }
}

/// Characters of a text that no shipped face can show (bold falls back to regular).
pub fn missing_chars(text: &str) -> Vec<char> {
    let face = Style::Regular.face();
    let mut missing: Vec<char> = text
        .chars()
        // The shipped faces have every printable ASCII character (tested): most
        // text needs no lookup.
        .filter(|c| !c.is_ascii_graphic())
        .filter(|&c| !c.is_whitespace() && !c.is_control() && !is_isolate(c))
        .filter(|&c| face.glyph_index(c).is_none())
        .collect();
    missing.sort();
    missing.dedup();
    missing
}

/// Which way a sheet's paragraphs run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reading {
    /// Each paragraph by its first strong letter.
    #[default]
    Natural,
    /// Every paragraph right to left, even one that starts with a move such as
    /// `2a1>11` (Arabic sheets); rows of pieces, diagrams and boxes start on the right.
    RightToLeft,
}

impl Reading {
    /// True on a right-to-left sheet.
    pub fn rtl(self) -> bool {
        self == Reading::RightToLeft
    }

    /// Where item `index` of `count` goes along a row, in reading order: from the
    /// left, or from the right on a right-to-left sheet.
    pub fn slot(self, index: usize, count: usize) -> usize {
        if self.rtl() { count - 1 - index } else { index }
    }
}

/// What text shaping keeps: runs shaped, their advance widths and the shaping plans,
/// for the text a build sets again and again (the same words, labels and numbers on
/// every sheet, and in every variant). One per thread of work, made by whoever builds
/// and passed to whatever sets text; nothing is kept anywhere else. The `build`
/// command hands one to all the variants a worker thread builds: one per variant
/// cost 18-23 % more CPU on the A4 matrix.
#[derive(Default)]
pub struct Shaper {
    /// Runs already shaped. Measured (A4 matrix, one thread): 3.9 s of CPU with it,
    /// 5.8 s without.
    runs: RefCell<RunCache<Vec<Glyph>>>,
    /// Advance widths already measured, in font units (so one entry serves every
    /// size): line breaking measures the same words again and again. Measured (A4
    /// matrix, one thread): 4.4 s of CPU with it, 4.85 s without (5.5 and 6.0 s in
    /// a second series).
    advances: RefCell<RunCache<i64>>,
    /// Shaping plans: a handful (two faces, two directions, a few scripts). Measured
    /// (A4 matrix, one thread): 4.0 s of CPU with them, 4.5 s without (5.4 and
    /// 5.55 s in a second series: 3-8 %).
    plans: RefCell<Vec<(PlanKey, ShapePlan)>>,
}

impl std::fmt::Debug for Shaper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shaper").finish_non_exhaustive()
    }
}

impl Shaper {
    /// A shaper with nothing kept yet.
    pub fn new() -> Shaper {
        Shaper::default()
    }

    /// Shapes one line of text (no line breaking), in visual order: right-to-left
    /// runs (Arabic) are reordered by the Unicode bidi algorithm, so numbers and
    /// coordinates inside them stay left to right.
    pub fn shape(
        &self,
        text: &str,
        style: Style,
        size_pt: f64,
        reading: Reading,
    ) -> Shaped {
        shape(self, text, style, size_pt, reading)
    }

    /// Breaks `text` into lines no wider than `max_width_mm`, at the places Unicode
    /// line breaking allows; a mandatory break (a newline) always starts a new line.
    /// A word wider than the whole line is broken between letters, so nothing runs
    /// past the margin.
    pub fn wrap(
        &self,
        text: &str,
        style: Style,
        size_pt: f64,
        max_width_mm: f64,
        reading: Reading,
    ) -> Vec<Shaped> {
        wrap_words(self, text, (style, size_pt), max_width_mm, reading, true)
    }

    /// Sets `text` in at most `max_lines` lines no wider than `width_mm`, at
    /// `size_pt` or, if it must, smaller down to `min_pt` (half a point at a time).
    /// `None` if even the smallest size does not fit: the caller reports it rather
    /// than lose text.
    pub fn fit(
        &self,
        text: &str,
        style: Style,
        (size_pt, min_pt): (f64, f64),
        width_mm: f64,
        max_lines: usize,
        reading: Reading,
    ) -> Option<Vec<Shaped>> {
        // Boxed text is set smaller, never cut inside a word; the caller refuses what
        // cannot fit even at the smallest size.
        let mut size = size_pt;
        while size >= min_pt - 1e-9 {
            let lines = wrap_words(self, text, (style, size), width_mm, reading, false);
            if lines.len() <= max_lines && lines.iter().all(|l| l.width_mm() <= width_mm)
            {
                return Some(lines);
            }
            size -= 0.5;
        }
        None
    }
}

fn shape(
    shaper: &Shaper,
    text: &str,
    style: Style,
    size_pt: f64,
    reading: Reading,
) -> Shaped {
    let right_to_left = reading.rtl();
    if !right_to_left && no_right_to_left_letters(text) {
        return Shaped {
            text: text.to_string(),
            style,
            size_pt,
            glyphs: shape_run(shaper, text, style, Direction::LeftToRight),
            units_per_em: style.face().units_per_em() as u16,
            rtl: false,
            has_rtl: false,
        };
    }
    let base = right_to_left.then_some(unicode_bidi::Level::rtl());
    // On a right-to-left sheet, notation such as `c2+` or `2a1>11` is isolated so it
    // reads left to right as one piece (its `+` would otherwise jump to the front).
    let marked = match right_to_left {
        true => reopen_isolate(isolate_notation(text)),
        false => text.to_string(),
    };
    let info = ParagraphBidiInfo::new(&marked, base);
    let rtl = info.paragraph_level.is_rtl();
    let has_rtl = info.has_rtl();
    // The isolates place the text; its words are the text without them.
    let plain: String = text.chars().filter(|&c| !is_isolate(c)).collect();
    let glyphs = if !has_rtl || text.is_empty() {
        shape_run(shaper, &plain, style, Direction::LeftToRight)
    } else {
        let (levels, runs) = info.visual_runs(0..marked.len());
        runs.into_iter()
            .flat_map(|run| {
                let dir = if levels[run.start].is_rtl() {
                    Direction::RightToLeft
                } else {
                    Direction::LeftToRight
                };
                let piece: String =
                    marked[run].chars().filter(|&c| !is_isolate(c)).collect();
                shape_run(shaper, &piece, style, dir)
            })
            .collect()
    };
    Shaped {
        text: plain,
        style,
        size_pt,
        glyphs,
        units_per_em: style.face().units_per_em() as u16,
        rtl,
        has_rtl,
    }
}

/// `text` with a left-to-right isolate opened at its start if it closes one it did
/// not open: the next line of an isolated run (a command broken across lines) keeps
/// reading left to right.
fn reopen_isolate(text: String) -> String {
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            LEFT_TO_RIGHT_ISOLATE => depth += 1,
            POP_DIRECTIONAL_ISOLATE if depth == 0 => {
                return format!("{LEFT_TO_RIGHT_ISOLATE}{text}");
            }
            POP_DIRECTIONAL_ISOLATE => depth -= 1,
            _ => {}
        }
    }
    text
}

/// `text` set as one left-to-right piece in any paragraph: a command, a file name.
pub fn left_to_right(text: &str) -> String {
    format!("{LEFT_TO_RIGHT_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}")
}

/// True when nothing in `text` is strong right-to-left: below U+0590 no character is
/// (Hebrew, Arabic and the explicit bidi controls all lie above), so most text
/// skips the bidi pass.
fn no_right_to_left_letters(text: &str) -> bool {
    text.chars().all(|c| (c as u32) < 0x0590)
}

/// Whether `text`, set as one paragraph, reads right to left: what
/// [`Shaper::shape`]`(text, …).rtl` says, without shaping it.
pub fn reads_right_to_left(text: &str, reading: Reading) -> bool {
    if reading.rtl() {
        // The sheet's direction is the paragraph's base level.
        return true;
    }
    if no_right_to_left_letters(text) {
        return false;
    }
    ParagraphBidiInfo::new(text, None).paragraph_level.is_rtl()
}

const LEFT_TO_RIGHT_ISOLATE: char = '\u{2066}';
const POP_DIRECTIONAL_ISOLATE: char = '\u{2069}';

fn is_isolate(c: char) -> bool {
    c == LEFT_TO_RIGHT_ISOLATE || c == POP_DIRECTIONAL_ISOLATE
}

/// Wraps each token of game notation (a run of Latin letters, digits and the signs
/// `+ - < > : * / .` that holds a letter or digit) in a left-to-right isolate.
fn isolate_notation(text: &str) -> String {
    let notation = |c: char| c.is_ascii_alphanumeric() || "+-<>:*/.".contains(c);
    let mut out = String::with_capacity(text.len() + 8);
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        // Signs at the edges of a token belong to the sentence, unless they are moves.
        let core = token.trim_end_matches([':', '.', '/']);
        // A direction sign on its own (`>` for right in a key to the notation) is
        // notation too: bare in right-to-left text the bidi algorithm mirrors it.
        let direction = !core.is_empty() && core.chars().all(|c| matches!(c, '<' | '>'));
        if direction || core.chars().any(|c| c.is_ascii_alphanumeric()) {
            out.push(LEFT_TO_RIGHT_ISOLATE);
            out.push_str(core);
            out.push(POP_DIRECTIONAL_ISOLATE);
            out.push_str(&token[core.len()..]);
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    for c in text.chars() {
        if notation(c) {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// How many runs a shaper keeps in each cache before starting afresh.
const SHAPED_RUNS_KEPT: usize = 50_000;

/// Something worked out for a run of text in one face and direction, kept by a
/// [`Shaper`]. Kept by face and direction first, so looking a run up copies nothing.
struct RunCache<V> {
    /// Regular and bold, each left to right and right to left.
    runs: [rustc_hash::FxHashMap<String, V>; 4],
}

impl<V> Default for RunCache<V> {
    fn default() -> Self {
        RunCache { runs: Default::default() }
    }
}

impl<V: Clone> RunCache<V> {
    fn kind(style: Style, rtl: bool) -> usize {
        let face = match style {
            Style::Regular => 0,
            Style::Bold => 1,
        };
        2 * face + rtl as usize
    }

    fn get(&self, text: &str, style: Style, rtl: bool) -> Option<V> {
        self.runs[Self::kind(style, rtl)].get(text).cloned()
    }

    fn insert(&mut self, text: &str, style: Style, rtl: bool, value: V) {
        if self.runs.iter().map(|runs| runs.len()).sum::<usize>() >= SHAPED_RUNS_KEPT {
            self.runs.iter_mut().for_each(|runs| runs.clear());
        }
        self.runs[Self::kind(style, rtl)].insert(text.to_string(), value);
    }
}

/// Shapes one run of a single direction; glyphs come back in visual order.
fn shape_run(
    shaper: &Shaper,
    text: &str,
    style: Style,
    direction: Direction,
) -> Vec<Glyph> {
    let rtl = direction == Direction::RightToLeft;
    if let Some(glyphs) = shaper.runs.borrow().get(text, style, rtl) {
        return glyphs;
    }
    let glyphs = shape_run_uncached(shaper, text, style, direction);
    shaper.runs.borrow_mut().insert(text, style, rtl, glyphs.clone());
    glyphs
}

fn shape_run_uncached(
    shaper: &Shaper,
    text: &str,
    style: Style,
    direction: Direction,
) -> Vec<Glyph> {
    let face = style.face();
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.set_direction(direction);
    // What `rustybuzz::shape` does, with the plan built once per face, direction and
    // script rather than for every run (building it cost more than shaping).
    buffer.guess_segment_properties();
    let script = Some(buffer.script()).filter(|&s| s != rustybuzz::script::UNKNOWN);
    let output = with_plan(shaper, (style, direction, script), |plan| {
        rustybuzz::shape_with_plan(face, plan, buffer)
    });
    let infos = output.glyph_infos();
    let positions = output.glyph_positions();
    let mut glyphs: Vec<Glyph> = infos
        .iter()
        .zip(positions)
        .map(|(info, pos)| Glyph {
            id: info.glyph_id as u16,
            text: "".into(),
            advance: pos.x_advance,
        })
        .collect();
    // Give each cluster's characters to its glyphs, so a PDF reader can map glyphs
    // back to text: a mark (shadda) to its own glyph, letters to the base glyph or
    // ligature, in the order a reader meets them.
    let rtl = direction == Direction::RightToLeft;
    // Where each cluster's text ends: at the next cluster's start, in logical order.
    let mut starts: Vec<usize> = infos.iter().map(|g| g.cluster as usize).collect();
    starts.sort_unstable();
    starts.dedup();
    let mut i = 0;
    while i < infos.len() {
        let cluster = infos[i].cluster;
        let end = (i..infos.len())
            .find(|&k| infos[k].cluster != cluster)
            .unwrap_or(infos.len());
        let start = cluster as usize;
        let next = starts.partition_point(|&c| c <= start);
        let text_end = starts.get(next).copied().unwrap_or(text.len());
        assign_cluster(&mut glyphs[i..end], &text[start..text_end], face, rtl);
        i = end;
    }
    if rtl {
        // Readers turn right-to-left glyphs back into reading order by reversing them
        // character by character, so a ligature's text (lam-alef) is stored reversed
        // and comes out the right way round.
        for glyph in &mut glyphs {
            glyph.text = glyph.text.chars().rev().collect::<String>().into();
        }
    }
    glyphs
}

type PlanKey = (Style, Direction, Option<Script>);

/// `work` done with the shaping plan for runs of one face, direction and script (no
/// language is set, as `rustybuzz::shape` sets none), made the first time.
fn with_plan<T>(shaper: &Shaper, key: PlanKey, work: impl FnOnce(&ShapePlan) -> T) -> T {
    let mut plans = shaper.plans.borrow_mut();
    let index = match plans.iter().position(|(k, _)| *k == key) {
        Some(index) => index,
        None => {
            let (style, direction, script) = key;
            plans.push((key, ShapePlan::new(style.face(), direction, script, None, &[])));
            plans.len() - 1
        }
    };
    work(&plans[index].1)
}

/// Shares a cluster's characters (in logical order) among its glyphs (in visual
/// order) so that reading the glyphs in reading order gives back exactly the
/// cluster: reversed visual order for right-to-left, where readers reverse the line.
///
/// First each character goes to a glyph of its own kind: its nominal glyph if the
/// cluster shows it, else a mark (harakat, accents) to a mark glyph and a letter to
/// a base or ligature glyph, one each in reading order, the rest to the last one
/// given (a ligature of two marks, or lam-alef). Then, in reading order, each glyph
/// takes the characters from its first own one up to the next glyph's first: where
/// a mark sits between a ligature's letters (lam, fathatan, alef), the ligature
/// reads its lam and the mark glyph the mark and the alef, so no glyph is left
/// without text (a code with no ToUnicode entry is read differently by each
/// reader) and the word still copies out as written.
fn assign_cluster(glyphs: &mut [Glyph], cluster: &str, face: &Face, rtl: bool) {
    if let [only] = glyphs {
        only.text = cluster.into();
        return;
    }
    let chars: Vec<char> = cluster.chars().collect();
    let reading: Vec<usize> =
        if rtl { (0..glyphs.len()).rev().collect() } else { (0..glyphs.len()).collect() };
    let mark_glyph = |id: u16| {
        let class = face.tables().gdef.and_then(|g| g.glyph_class(GlyphId(id)));
        class == Some(GlyphClass::Mark)
    };
    let is_mark = |c: char| unicode_bidi::bidi_class(c) == unicode_bidi::BidiClass::NSM;
    // owner[c] = the glyph (visual index) that character c belongs to.
    let mut owner: Vec<Option<usize>> = vec![None; chars.len()];
    let mut taken = vec![false; glyphs.len()];
    for (c, &ch) in chars.iter().enumerate() {
        let nominal = face.glyph_index(ch).map(|g| g.0);
        if let Some(&k) =
            reading.iter().find(|&&k| !taken[k] && Some(glyphs[k].id) == nominal)
        {
            taken[k] = true;
            owner[c] = Some(k);
        }
    }
    let mut last_given: [Option<usize>; 2] = [None, None];
    for (c, &ch) in chars.iter().enumerate() {
        if owner[c].is_some() {
            continue;
        }
        let kind = usize::from(is_mark(ch));
        let same_kind = |k: usize| mark_glyph(glyphs[k].id) == is_mark(ch);
        let free = reading.iter().copied().find(|&k| !taken[k] && same_kind(k));
        if let Some(k) = free {
            taken[k] = true;
            last_given[kind] = Some(k);
        }
        owner[c] = free.or(last_given[kind]);
    }
    // In reading order, each glyph takes the characters from its first own one up to
    // the next glyph's first own one (the first glyph from the cluster's start).
    let firsts: Vec<(usize, usize)> = reading
        .iter()
        .filter_map(|&k| Some((k, owner.iter().position(|&o| o == Some(k))?)))
        .fold(Vec::new(), |mut kept: Vec<(usize, usize)>, (k, first)| {
            if kept.last().is_none_or(|&(_, before)| first > before) {
                kept.push((k, first));
            }
            kept
        });
    for (i, &(k, first)) in firsts.iter().enumerate() {
        let from = if i == 0 { 0 } else { first };
        let to = firsts.get(i + 1).map_or(chars.len(), |&(_, next)| next);
        glyphs[k].text = chars[from..to].iter().collect::<String>().into();
    }
    if firsts.is_empty() {
        glyphs[reading[0]].text = cluster.into();
    }
}

/// The font's ascender and descender (positive below the baseline) in millimetres
/// at a size, for placing lines of text.
pub fn vertical_metrics_mm(style: Style, size_pt: f64) -> (f64, f64) {
    let face = style.face();
    let scale = size_pt * MM_PER_PT / face.units_per_em() as f64;
    (face.ascender() as f64 * scale, -(face.descender() as f64) * scale)
}

fn wrap_words(
    shaper: &Shaper,
    text: &str,
    (style, size_pt): (Style, f64),
    max_width_mm: f64,
    reading: Reading,
    break_words: bool,
) -> Vec<Shaped> {
    let shape = |t: &str| shape(shaper, t, style, size_pt, reading);
    let width = |t: &str| {
        advance_units(shaper, t, style, reading) as f64 * mm_per_unit(style, size_pt)
    };
    let mut lines = Vec::new();
    let mut line_start = 0;
    let mut last_fit: Option<usize> = None;
    // The width of text[line_start..last_fit], measured word by word: shaping every
    // candidate line whole made line breaking quadratic in the words of a line.
    let mut fitted_mm = 0.0;
    for (pos, opportunity) in linebreaks(text).filter(|&(pos, _)| !inside_move(text, pos))
    {
        let word_start = last_fit.unwrap_or(line_start);
        let candidate = text[line_start..pos].trim_end();
        let estimate = fitted_mm + width(text[word_start..pos].trim_end());
        // Words measured apart lose only kerning across a space; near the margin the
        // line is measured whole, so the breaks are exactly those of whole lines.
        let fits = if (estimate - max_width_mm).abs() > BREAK_TOLERANCE_MM {
            estimate <= max_width_mm
        } else {
            width(candidate) <= max_width_mm
        };
        if !fits && let Some(fit) = last_fit {
            lines.push(shape(text[line_start..fit].trim_end()));
            line_start = fit;
        }
        if !fits && break_words {
            // Whatever is left of the word is cut into pieces that fit the line.
            while let Some(cut) =
                overflow_cut(&text[line_start..pos], &shape, max_width_mm)
            {
                lines.push(shape(&text[line_start..line_start + cut]));
                line_start += cut;
            }
        }
        if opportunity == BreakOpportunity::Mandatory {
            let rest = text[line_start..pos].trim_end();
            if !rest.is_empty() || pos < text.len() {
                lines.push(shape(rest));
            }
            line_start = pos;
            last_fit = None;
            fitted_mm = 0.0;
        } else {
            fitted_mm = if line_start == pos {
                0.0
            } else if last_fit.is_some_and(|fit| fit > line_start) {
                fitted_mm + width(&text[word_start..pos])
            } else {
                width(&text[line_start..pos])
            };
            last_fit = Some(pos);
        }
    }
    lines
}

/// Whether `pos` falls just after the hyphen of a move such as `C3-C2`, where a line
/// must not break: the hyphen joins two squares; or just after the `--` of a command's
/// option (`--players`), which must be copied whole.
/// Also just after a direction sign standing alone in a key to the notation
/// (`+ up, - down`), which must stay with its word.
fn inside_move(text: &str, pos: usize) -> bool {
    let before: Vec<char> = text[..pos].chars().rev().take(3).collect();
    let after = text[pos..].chars().next();
    let option = before.starts_with(&['-', '-']);
    let joined =
        option || matches!(before.as_slice(), ['-', c, ..] if c.is_ascii_alphanumeric());
    let lone_sign = match before.as_slice() {
        [space, sign, rest @ ..] => {
            space.is_whitespace()
                && "+-<>".contains(*sign)
                && rest.first().is_none_or(|c| !c.is_alphanumeric())
        }
        _ => false,
    };
    (joined && after.is_some_and(|c| c.is_ascii_alphanumeric()))
        || (lone_sign && after.is_some_and(char::is_alphabetic))
}

/// How far from the margin a line measured word by word is measured again whole.
const BREAK_TOLERANCE_MM: f64 = 0.5;

fn mm_per_unit(style: Style, size_pt: f64) -> f64 {
    size_pt * MM_PER_PT / style.face().units_per_em() as f64
}

/// The advance width of `text` set on one line, in font units.
fn advance_units(shaper: &Shaper, text: &str, style: Style, reading: Reading) -> i64 {
    let rtl = reading.rtl();
    if let Some(units) = shaper.advances.borrow().get(text, style, rtl) {
        return units;
    }
    let shaped = shape(shaper, text, style, 12.0, reading);
    let units = shaped.glyphs.iter().map(|g| g.advance as i64).sum();
    shaper.advances.borrow_mut().insert(text, style, rtl, units);
    units
}

/// Where to cut `word` (in bytes) so its first part fits `max_width_mm`, or `None` if
/// the whole of it fits. At least one character is cut off, however narrow the line.
/// Only the first few hundred characters are measured: no line holds more.
fn overflow_cut(
    word: &str,
    shape: &dyn Fn(&str) -> Shaped,
    max_width_mm: f64,
) -> Option<usize> {
    const WINDOW: usize = 400;
    let trimmed = word.trim_end();
    let ends: Vec<usize> =
        trimmed.char_indices().map(|(i, c)| i + c.len_utf8()).take(WINDOW).collect();
    let last = *ends.last()?;
    if last == trimmed.len() && shape(trimmed).width_mm() <= max_width_mm {
        return None;
    }
    // The longest prefix that fits, by bisection over character boundaries.
    let (mut lo, mut hi) = (0, ends.len());
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if shape(&trimmed[..ends[mid - 1]]).width_mm() <= max_width_mm {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(ends[lo.max(1) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str, style: Style, size_pt: f64, reading: Reading) -> Shaped {
        Shaper::new().shape(text, style, size_pt, reading)
    }

    fn wrap(
        text: &str,
        style: Style,
        size_pt: f64,
        width: f64,
        reading: Reading,
    ) -> Vec<Shaped> {
        Shaper::new().wrap(text, style, size_pt, width, reading)
    }

    fn fit(
        text: &str,
        style: Style,
        sizes: (f64, f64),
        width: f64,
        max_lines: usize,
        reading: Reading,
    ) -> Option<Vec<Shaped>> {
        Shaper::new().fit(text, style, sizes, width, max_lines, reading)
    }

    #[test]
    fn a_line_that_ends_an_isolate_it_did_not_open_reopens_it() {
        let rest = format!("--players 24{POP_DIRECTIONAL_ISOLATE} نص");
        assert!(reopen_isolate(rest.clone()).starts_with(LEFT_TO_RIGHT_ISOLATE));
        let whole = left_to_right("tablekit build");
        assert_eq!(
            reopen_isolate(whole.clone()),
            whole,
            "a balanced line is left as it is"
        );
        let shaped =
            shape(&format!("نص {whole}"), Style::Regular, 10.0, Reading::RightToLeft);
        assert_eq!(shaped.text, "نص tablekit build", "no control reaches the text layer");
        assert!(missing_chars(&whole).is_empty(), "the isolates need no glyph");
    }

    #[test]
    fn a_direction_sign_keeps_its_direction_in_right_to_left_text() {
        let face = Style::Regular.face();
        let glyph = |c: char| face.glyph_index(c).unwrap().0;
        // "> right, < left", as the Arabic key to the notation says it.
        let shaped =
            shape("(> يمين، < يسار)", Style::Regular, 10.0, Reading::RightToLeft);
        let ids: Vec<u16> = shaped.glyphs.iter().map(|g| g.id).collect();
        let (right, left) = (glyph('>'), glyph('<'));
        let at = |id: u16| ids.iter().position(|&g| g == id).unwrap();
        // Drawn right to left: "> يمين" stands right of "< يسار", and each sign is
        // the one typed, not its mirror image.
        assert!(at(right) > at(left), "{ids:?}");
    }

    #[test]
    fn a_line_never_breaks_inside_a_command_option() {
        let text = "Make them again with: tablekit build crossway --lang en --players 24";
        for width in 20..90 {
            let lines = wrap(text, Style::Regular, 10.0, width as f64, Reading::Natural);
            for line in &lines {
                assert!(
                    !line.text.trim_end().ends_with("--"),
                    "{width} mm: {:?}",
                    line.text
                );
            }
        }
    }

    #[test]
    fn a_lone_direction_sign_keeps_its_word() {
        let text = "the direction (+ up, - down, > right, < left) and the drops in order";
        for width in 15..90 {
            let lines = wrap(text, Style::Regular, 10.0, width as f64, Reading::Natural);
            for line in &lines {
                let end = line.text.trim_end();
                assert!(
                    !end.ends_with(['+', '-', '<', '>']),
                    "{width} mm: {:?}",
                    line.text
                );
            }
        }
    }

    #[test]
    fn a_line_never_breaks_inside_a_move() {
        let text = "Slide C3-C2 then B1-B2 and A3-A2 again and again and again";
        for width in 10..60 {
            let lines = wrap(text, Style::Regular, 10.0, width as f64, Reading::Natural);
            for line in &lines {
                assert!(
                    !line.text.trim_end().ends_with('-'),
                    "{width} mm: {:?}",
                    line.text
                );
            }
        }
    }

    #[test]
    fn the_paragraph_direction_is_the_shaped_one() {
        let texts = ["Move a stone.", "حرّك حجرًا.", "c2+ حرّك", "حرّك c2+", "", "12 ١٢"];
        for text in texts {
            for reading in [Reading::Natural, Reading::RightToLeft] {
                let shaped = shape(text, Style::Regular, 10.0, reading);
                assert_eq!(reads_right_to_left(text, reading), shaped.rtl, "{text:?}");
            }
        }
    }

    #[test]
    fn shaping_measures_with_real_advances() {
        // DejaVu Sans: "M" is wider than "i" at the same size.
        let m = shape("MMMM", Style::Regular, 10.0, Reading::Natural).width_mm();
        let i = shape("iiii", Style::Regular, 10.0, Reading::Natural).width_mm();
        assert!(m > 2.0 * i, "M {m} i {i}");
        // Doubling the size doubles the width.
        let m20 = shape("MMMM", Style::Regular, 20.0, Reading::Natural).width_mm();
        assert!((m20 - 2.0 * m).abs() < 1e-9);
    }

    #[test]
    fn glyphs_carry_their_text() {
        let shaped = shape("A1 é", Style::Bold, 12.0, Reading::Natural);
        let text: String = shaped.glyphs.iter().map(|g| &*g.text).collect();
        assert_eq!(text, "A1 é");
        assert!(shaped.missing_chars().is_empty());
    }

    #[test]
    fn both_faces_have_every_printable_ascii_character() {
        for style in [Style::Regular, Style::Bold] {
            let face = style.face();
            let lacking: Vec<char> =
                ('!'..='~').filter(|&c| face.glyph_index(c).is_none()).collect();
            assert!(lacking.is_empty(), "{style:?} lacks {lacking:?}");
        }
    }

    #[test]
    fn a_character_the_font_lacks_is_reported() {
        let shaped = shape("go \u{4E00}", Style::Regular, 10.0, Reading::Natural);
        assert_eq!(shaped.missing_chars(), vec!['\u{4E00}']);
    }

    #[test]
    fn wrap_breaks_between_words_within_the_width() {
        let text =
            "Place three counters each, then slide one along a line to a free point.";
        let lines = wrap(text, Style::Regular, 10.0, 50.0, Reading::Natural);
        assert!(lines.len() > 1);
        for line in &lines {
            assert!(line.width_mm() <= 50.0, "{:?} is {} mm", line.text, line.width_mm());
        }
        let joined: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(joined.join(" "), text);
    }

    #[test]
    fn arabic_is_shaped_right_to_left_with_numbers_left_to_right() {
        // "turn 40" in Arabic: the letters join, the paragraph reads right to left,
        // and the number keeps its digit order.
        let shaped = shape("الدور 40", Style::Regular, 10.0, Reading::Natural);
        assert!(shaped.rtl && shaped.has_rtl);
        let visual: String = shaped.glyphs.iter().map(|g| &*g.text).collect();
        assert!(
            visual.starts_with("40"),
            "visual order puts the number first: {visual:?}"
        );
        // Joined letters use contextual forms: not the isolated glyphs.
        let isolated = shape("د", Style::Regular, 10.0, Reading::Natural).glyphs[0].id;
        let joined = shape("الدور", Style::Regular, 10.0, Reading::Natural);
        assert!(joined.glyphs.iter().all(|g| g.id != 0), "no missing glyphs");
        assert!(joined.glyphs.len() >= 4 && isolated != 0);
    }

    #[test]
    fn fit_sets_text_smaller_within_limits_and_refuses_past_them() {
        let text = "Seen before? One mark per repeat";
        let wide =
            fit(text, Style::Bold, (8.0, 6.0), 100.0, 1, Reading::Natural).unwrap();
        assert_eq!((wide.len(), wide[0].size_pt), (1, 8.0));
        let narrow =
            fit(text, Style::Bold, (8.0, 6.0), 40.0, 2, Reading::Natural).unwrap();
        assert!(narrow.len() <= 2 && narrow.iter().all(|l| l.width_mm() <= 40.0));
        assert!(fit(text, Style::Bold, (8.0, 6.0), 10.0, 2, Reading::Natural).is_none());
    }

    /// What a reader gives back from a right-to-left line: the glyphs' texts in
    /// visual order, the whole reversed character by character.
    fn read_back(shaped: &Shaped) -> String {
        let visual: String = shaped.glyphs.iter().map(|g| &*g.text).collect();
        visual.chars().rev().collect()
    }

    #[test]
    fn arabic_words_with_harakat_read_back_exactly() {
        // The words the translation review found broken: a base letter doubled into
        // its mark ligature (shadda + vowel), or a tanween moved behind the alef of a
        // lam-alef ligature.
        for word in [
            "مكمِّلة",
            "المعلَّمة",
            "وتُكدَّس",
            "صفٌّ",
            "شاملًا",
            "أولًا",
            "إجمالًا",
            "بدلًا",
            "كاملًا",
            "مثلًا",
            "فأضف",
            "مباشرةً",
        ] {
            let shaped = shape(word, Style::Regular, 10.0, Reading::RightToLeft);
            assert_eq!(read_back(&shaped), word);
            let bold = shape(word, Style::Bold, 10.0, Reading::RightToLeft);
            assert_eq!(read_back(&bold), word);
        }
    }

    #[test]
    fn a_mark_ligature_gets_the_marks_and_its_letter_keeps_its_own_text() {
        // meem + kasra + shadda: DejaVu sets the two marks as one glyph.
        let shaped = shape("مِّ", Style::Regular, 10.0, Reading::RightToLeft);
        let texts: Vec<&str> = shaped.glyphs.iter().map(|g| &*g.text).collect();
        // Visual order: the mark glyph first; texts stored reversed.
        assert_eq!(texts, ["\u{651}\u{650}", "م"]);
        // lam + fathatan + alef: the ligature reads its lam, the mark glyph the
        // fathatan and the alef that follows it.
        let shaped = shape("لًا", Style::Regular, 10.0, Reading::RightToLeft);
        let texts: Vec<&str> = shaped.glyphs.iter().map(|g| &*g.text).collect();
        assert_eq!(texts, ["ا\u{64b}", "ل"]);
    }

    #[test]
    fn moves_inside_arabic_keep_their_signs_in_place() {
        let shaped = shape("بعد c2+: التاج", Style::Regular, 10.0, Reading::RightToLeft);
        let visual: String = shaped.glyphs.iter().map(|g| &*g.text).collect();
        assert!(visual.contains("c2+"), "the move reads c2+ left to right: {visual:?}");
        assert!(!visual.contains('\u{2066}'), "no isolate control reaches the page");
    }

    #[test]
    fn a_word_wider_than_the_line_is_broken_between_letters() {
        let url = format!("https://example.org/{}", "a".repeat(150));
        let lines = wrap(&url, Style::Regular, 10.0, 60.0, Reading::Natural);
        assert!(lines.len() > 2, "{}", lines.len());
        assert!(lines.iter().all(|l| l.width_mm() <= 60.0));
        let joined: String = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(joined, url);
    }

    #[test]
    fn wrap_honours_newlines() {
        let lines = wrap("one\ntwo", Style::Regular, 10.0, 100.0, Reading::Natural);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["one", "two"]);
    }
}
