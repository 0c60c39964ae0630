//! Printer calibration. Every page carries a 100 mm bar; a printer that prints it
//! 99.2 mm long across and 100.6 mm down gets its sheets drawn 100/99.2 wider and
//! 100/100.6 shorter, so what comes out of that printer is exact.
//!
//! Here: reading a measurement, the named profiles kept in the user's configuration
//! folder (as text; the `calibrate` command, `cli/calibrate.rs`, reads and writes the
//! file through `io`), and the calibration page to measure once. The scaling itself
//! is one transform per page at PDF writing time (`pdf::write_scaled`), so every
//! length on the page scales alike.

use std::collections::BTreeMap;

use crate::layout::Paper;
use crate::layout::footer::{calibration_bar, inch_scale};
use crate::layout::paper::MIN_PAPER_MM;
use crate::page::{Page, Paint, Point, Role, Stroke, Tag};
use crate::pdf;
use crate::text::{self, Reading, Shaper, Style};

/// The shortest plausible print of the 100 mm bar: anything shorter is a misreading
/// (or a printer set to shrink the page), not a correction to make.
pub const MIN_MM: f64 = 90.0;
/// The longest plausible print of the 100 mm bar.
pub const MAX_MM: f64 = 110.0;

/// How near the paper's edge a corrected sheet may draw (before the printer shrinks
/// it back to its true size): as near as an uncorrected sheet draws, so a printer's
/// unprintable border never takes a mark.
pub const CORRECTED_EDGE_MM: f64 = crate::layout::SAFE_MARGIN_MM;

/// What one printer made of the 100 mm bar, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The bar measured across the sheet.
    pub across: f64,
    /// The bar measured down the sheet.
    pub down: f64,
}

impl Calibration {
    /// A measurement, refused outside [`MIN_MM`] to [`MAX_MM`].
    pub fn new(across: f64, down: f64) -> Result<Calibration, String> {
        for value in [across, down] {
            if !(MIN_MM..=MAX_MM).contains(&value) {
                return Err(format!(
                    "a 100 mm bar printed {} mm long is not plausible: measure it again \
                     (a correction is made for {MIN_MM:.0} to {MAX_MM:.0} mm; check that \
                     the printer prints at 100 %, not \"fit to page\")",
                    shown(value, false)
                ));
            }
        }
        Ok(Calibration { across, down })
    }

    /// `99.2x100.6` (across, then down; `×` also works), or one number for both, in
    /// millimetres with an optional `mm`; a decimal comma (`99,2x100,6`) is read as a
    /// point, as a ruler in most of Europe is read.
    pub fn parse(text: &str) -> Result<Calibration, String> {
        let text = text.trim();
        let number = |part: &str| -> Result<f64, String> {
            let part = part.trim();
            let part = part.strip_suffix("mm").unwrap_or(part).trim().replace(',', ".");
            part.parse::<f64>().ok().filter(|n| n.is_finite()).ok_or_else(|| {
                format!(
                    "`{text}` is not a measurement: expected the bar's length in mm \
                     across and down, such as 99.2x100.6, or one number for both"
                )
            })
        };
        let (across, down) = match text.split_once(['x', 'X', '×']) {
            Some((a, d)) => (number(a)?, number(d)?),
            None => {
                let both = number(text)?;
                (both, both)
            }
        };
        Calibration::new(across, down)
    }

    /// How much larger to draw: across, then down.
    pub fn scale(&self) -> (f64, f64) {
        (100.0 / self.across, 100.0 / self.down)
    }

    /// The paper as sheets corrected for this printer are laid out on it. Where the
    /// printer shrinks, the page is drawn larger about its centre, so it is laid out
    /// on an area centred on the sheet small enough that its outermost ink
    /// (`SAFE_MARGIN_MM` inside the area) stays
    /// [`CORRECTED_EDGE_MM`] from the paper's edge once enlarged; the printer then
    /// shrinks it back, so every length comes out true. Refused, naming the
    /// strongest correction the paper allows, when that area is smaller than a sheet
    /// can be laid out on.
    pub fn printable(&self, paper: &Paper) -> Result<Paper, String> {
        let (width, height) = paper.sheet_mm();
        let (sx, sy) = self.scale();
        let (area_w, area_h) = (laid_out_side(width, sx), laid_out_side(height, sy));
        let (least_w, least_h) = match width <= height {
            true => MIN_PAPER_MM,
            false => (MIN_PAPER_MM.1, MIN_PAPER_MM.0),
        };
        if area_w >= least_w - 1e-9 && area_h >= least_h - 1e-9 {
            return Ok(paper.within(area_w, area_h));
        }
        // The shortest bars whose area is still large enough, to a tenth rounded up.
        let least = |side: f64, needed: f64| {
            let ink = crate::layout::SAFE_MARGIN_MM;
            let bar = 100.0 * (needed / 2.0 - ink) / (side / 2.0 - CORRECTED_EDGE_MM);
            shown(((bar * 10.0 - 1e-6).ceil() / 10.0).max(MIN_MM), false)
        };
        let (across, down) = self.shown(false);
        let tenths = |mm: f64| shown((mm * 10.0).floor() / 10.0, false);
        Err(format!(
            "corrected for bars of {across} × {down} mm, the sheets would have to fit in \
             {} × {} mm to stay {CORRECTED_EDGE_MM:.0} mm from the paper's edge, and a sheet \
             needs at least {} × {} mm; on this paper a correction works for bars of at \
             least {} mm across and {} mm down. Check that the printer prints at 100 % \
             (not \"fit to page\") and measure again",
            tenths(area_w),
            tenths(area_h),
            least_w,
            least_h,
            least(width, least_w),
            least(height, least_h),
        ))
    }

    /// The measurement as written on a sheet and in profiles: `99.2`, `100.6`
    /// (hundredths at most, no needless zeros), with a decimal comma if asked.
    pub fn shown(&self, comma: bool) -> (String, String) {
        (shown(self.across, comma), shown(self.down, comma))
    }
}

/// The side of the area a sheet is laid out on for a paper `side` mm long, drawn
/// `scale` times larger: its ink, at the area's margin, lands [`CORRECTED_EDGE_MM`]
/// from the paper's edge. A page drawn smaller keeps the whole side.
fn laid_out_side(side: f64, scale: f64) -> f64 {
    let ink = crate::layout::SAFE_MARGIN_MM;
    match scale > 1.0 {
        true => 2.0 * ((side / 2.0 - CORRECTED_EDGE_MM) / scale + ink),
        false => side,
    }
}

/// `99.25`, `99.2`, `100`: a measurement to a hundredth of a millimetre at most.
fn shown(value: f64, comma: bool) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    if comma { text.replace('.', ",") } else { text }
}

/// The profiles file: one table per printer, kept by `tablekit calibrate NAME`.
pub const PROFILES_FILE: &str = "printers.toml";

/// Named printer corrections, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profiles(pub BTreeMap<String, Calibration>);

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfiles {
    #[serde(default)]
    printers: BTreeMap<String, RawProfile>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    across: f64,
    down: f64,
}

impl Profiles {
    /// Reads a profiles file; `file` names it in messages (with the line and column
    /// of a syntax error).
    pub fn parse(text: &str, file: &str) -> Result<Profiles, String> {
        let raw: RawProfiles = toml::from_str(text).map_err(|e| {
            let (line, column) =
                crate::diag::line_col(text, e.span().map_or(0, |s| s.start));
            format!(
                "{file}:{line}:{column}: {}",
                crate::diag::plain_toml_message(e.message())
            )
        })?;
        let mut profiles = BTreeMap::new();
        for (name, p) in raw.printers {
            // A hand-written name may hold anything: shown escaped, never raw.
            let shown = shown_name(&name);
            let calibration = Calibration::new(p.across, p.down)
                .map_err(|e| format!("{file}: printer `{shown}`: {e}"))?;
            profiles.insert(name, calibration);
        }
        Ok(Profiles(profiles))
    }

    /// The profiles file `text` with printer `name` kept as `calibration`: its
    /// comments, order and other printers as they were (a new file starts with the
    /// comment [`Profiles::to_toml`] writes).
    pub fn keep(
        text: &str,
        name: &str,
        calibration: Calibration,
    ) -> Result<String, String> {
        valid_name(name)?;
        let start = if text.trim().is_empty() {
            Profiles::default().to_toml()
        } else {
            text.to_string()
        };
        let mut doc: toml_edit::DocumentMut = start
            .parse()
            .map_err(|e: toml_edit::TomlError| e.message().trim().to_string())?;
        let printers = doc
            .entry("printers")
            .or_insert_with(|| {
                let mut table = toml_edit::Table::new();
                table.set_implicit(true);
                toml_edit::Item::Table(table)
            })
            .as_table_mut()
            .ok_or("`printers` is not a table")?;
        let (across, down) = calibration.shown(false);
        let number = |v: &str| v.parse::<f64>().map_err(|e| e.to_string());
        let mut entry = toml_edit::Table::new();
        entry["across"] = toml_edit::value(number(&across)?);
        entry["down"] = toml_edit::value(number(&down)?);
        printers.insert(name, toml_edit::Item::Table(entry));
        Ok(doc.to_string())
    }

    /// The file's text: a comment, then each printer in name order.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# Printer corrections kept by `tablekit calibrate NAME --measured ACROSSxDOWN`:\n\
             # the 100 mm bar as each printer printed it, across and down, in mm.\n\
             # `tablekit build --printer NAME` draws every sheet to match.\n",
        );
        for (name, c) in &self.0 {
            let (across, down) = c.shown(false);
            out.push_str(&format!(
                "\n[printers.{name}]\nacross = {across}\ndown = {down}\n"
            ));
        }
        out
    }
}

/// A printer's name as messages and listings show it: at most 64 characters, with
/// controls and direction overrides escaped, so a hand-written name cannot drive
/// the terminal.
pub fn shown_name(name: &str) -> String {
    name.chars()
        .take(64)
        .flat_map(|c| {
            match c.is_control()
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
            {
                true => c.escape_unicode().collect::<Vec<_>>(),
                false => vec![c],
            }
        })
        .collect()
}

/// Whether `name` can name a profile: what a kit id may be (letters, digits, inner
/// hyphens), so it needs no quoting anywhere.
pub fn valid_name(name: &str) -> Result<(), String> {
    if crate::kit::is_slug(name) {
        Ok(())
    } else {
        Err(format!(
            "`{name}` cannot name a printer: use lowercase letters, digits and inner \
             hyphens (at most 64), such as office-laser"
        ))
    }
}

/// The words of the calibration page in one language: title, then the steps.
struct Words {
    lang: &'static str,
    title: &'static str,
    steps: [&'static str; 3],
    /// The square and bars, for a reader who cannot see them.
    drawing: &'static str,
}

/// What the last step says to type, the same in every language.
const COMMANDS: [&str; 2] =
    ["tablekit calibrate NAME --measured 99.2x100.6", "tablekit build --printer NAME"];

/// The calibration page's words in every language the kits ship.
const WORDS: &[Words] = &[
    Words {
        lang: "en",
        title: "Printer calibration page",
        steps: [
            "Print this page at 100 % (actual size, never “fit to page”), then measure with a ruler.",
            "Measure the bar across and the bar down from 0 to 10 cm, to the nearest tenth of a millimetre. The square and the 4-inch bar are there to check the result.",
            "If a bar is not exactly 100 mm, keep what you measured for this printer (across, then down) under a name, then build with that name:",
        ],
        drawing: "A 100 mm square with a 10 cm bar down its left side and a 10 cm bar across under it, both ticked every millimetre, and a 4-inch bar below them.",
    },
    Words {
        lang: "fr",
        title: "Page d'étalonnage de l'imprimante",
        steps: [
            "Imprimez cette page à 100 % (taille réelle, jamais « ajuster à la page »), puis mesurez à la règle.",
            "Mesurez la barre horizontale et la barre verticale de 0 à 10 cm, au dixième de millimètre près. Le carré et la barre de 4 pouces servent à vérifier le résultat.",
            "Si une barre ne fait pas exactement 100 mm, enregistrez vos mesures pour cette imprimante (largeur, puis hauteur) sous un nom, puis construisez avec ce nom :",
        ],
        drawing: "Un carré de 100 mm, avec une barre de 10 cm le long de son côté gauche et une barre de 10 cm sous lui, graduées au millimètre, et une barre de 4 pouces en dessous.",
    },
    Words {
        lang: "de",
        title: "Kalibrierseite für den Drucker",
        steps: [
            "Drucken Sie diese Seite mit 100 % (Originalgröße, nie „an Seite anpassen“) und messen Sie dann mit einem Lineal nach.",
            "Messen Sie den waagrechten und den senkrechten Balken von 0 bis 10 cm auf einen Zehntelmillimeter genau. Das Quadrat und der 4-Zoll-Balken dienen zur Kontrolle.",
            "Ist ein Balken nicht genau 100 mm lang, speichern Sie Ihre Messung für diesen Drucker (Breite, dann Höhe) unter einem Namen und bauen Sie dann mit diesem Namen:",
        ],
        drawing: "Ein Quadrat von 100 mm mit einem 10-cm-Balken an seiner linken Seite und einem 10-cm-Balken darunter, beide in Millimeter geteilt, und darunter ein 4-Zoll-Balken.",
    },
    Words {
        lang: "es",
        title: "Página de calibración de la impresora",
        steps: [
            "Imprima esta página al 100 % (tamaño real, nunca «ajustar a la página») y mida después con una regla.",
            "Mida la barra horizontal y la barra vertical de 0 a 10 cm, con precisión de una décima de milímetro. El cuadrado y la barra de 4 pulgadas sirven para comprobar el resultado.",
            "Si una barra no mide exactamente 100 mm, guarde sus medidas para esta impresora (ancho y luego alto) con un nombre y genere después con ese nombre:",
        ],
        drawing: "Un cuadrado de 100 mm con una barra de 10 cm a lo largo de su lado izquierdo y otra de 10 cm debajo, graduadas en milímetros, y una barra de 4 pulgadas más abajo.",
    },
    Words {
        lang: "el",
        title: "Σελίδα βαθμονόμησης εκτυπωτή",
        steps: [
            "Εκτυπώστε αυτή τη σελίδα στο 100 % (πραγματικό μέγεθος, ποτέ «προσαρμογή στη σελίδα») και μετρήστε με χάρακα.",
            "Μετρήστε την οριζόντια και την κατακόρυφη μπάρα από 0 έως 10 cm, με ακρίβεια δεκάτου του χιλιοστού. Το τετράγωνο και η μπάρα των 4 ιντσών χρησιμεύουν για έλεγχο.",
            "Αν μια μπάρα δεν είναι ακριβώς 100 mm, αποθηκεύστε τις μετρήσεις σας για αυτόν τον εκτυπωτή (πλάτος, μετά ύψος) με ένα όνομα και μετά δημιουργήστε με αυτό το όνομα:",
        ],
        drawing: "Ένα τετράγωνο 100 mm με μια μπάρα 10 cm κατά μήκος της αριστερής πλευράς του και μια μπάρα 10 cm από κάτω, με υποδιαιρέσεις ανά χιλιοστό, και μια μπάρα 4 ιντσών πιο κάτω.",
    },
    Words {
        lang: "ar",
        title: "صفحة معايرة الطابعة",
        steps: [
            "اطبع هذه الصفحة بنسبة 100 % (الحجم الفعلي، وليس «ملاءمة الصفحة» أبدًا)، ثم قِس بمسطرة.",
            "قِس الشريط الأفقي والشريط العمودي من 0 إلى 10 سم، بدقة عُشر المليمتر. المربع وشريط البوصات الأربع للتحقق من النتيجة.",
            "إذا لم يكن طول الشريط 100 مم تمامًا، فاحفظ قياساتك لهذه الطابعة (العرض ثم الارتفاع) باسم، ثم ابنِ بذلك الاسم:",
        ],
        drawing: "مربع طوله 100 مم، بجانبه الأيسر شريط عمودي طوله 10 سم وتحته شريط أفقي طوله 10 سم، مدرّجان بالمليمتر، وتحتهما شريط طوله 4 بوصات.",
    },
];

/// The languages the calibration page is written in.
pub fn sheet_languages() -> Vec<&'static str> {
    WORDS.iter().map(|w| w.lang).collect()
}

/// The calibration page as a PDF: a 100 mm bar across and one down, a 100 mm square
/// and a 4-inch bar, with how to measure them. Never corrected itself: it is what a
/// correction is measured from.
pub fn sheet(paper: &Paper, lang: &str) -> Result<Vec<u8>, String> {
    let words = WORDS.iter().find(|w| w.lang == lang).ok_or_else(|| {
        format!(
            "the calibration page has no language `{lang}`: available: {}",
            sheet_languages().join(", ")
        )
    })?;
    let (width, height) = paper.size_mm();
    const MARGIN: f64 = crate::layout::MARGIN_MM;
    // The drawing needs 100 mm plus room for its numbers across and 230 mm down.
    if width < 2.0 * MARGIN + 125.0 || height < 2.0 * MARGIN + 200.0 {
        return Err(format!(
            "{paper} paper is too small for the calibration page: it needs at least \
             {:.0} × {:.0} mm",
            2.0 * MARGIN + 125.0,
            2.0 * MARGIN + 200.0
        ));
    }
    let reading = match crate::kit::strings::is_right_to_left(lang) {
        true => Reading::RightToLeft,
        false => Reading::Natural,
    };
    // One sheet, its own shaping: nothing of it is worth keeping for another.
    let shaper = Shaper::new();
    let mut page = Page::new(width, height);
    let text_width = width - 2.0 * MARGIN;
    let mut y = MARGIN + 6.0;
    // Each part is read as what it is: the title, the steps, the commands, then the
    // square and bars as one drawing.
    let put = |page: &mut Page, line: text::Shaped, y: f64, role: Role| {
        let x = if line.rtl { width - MARGIN - line.width_mm() } else { MARGIN };
        let mut part = Page::new(width, height);
        part.text(Point::new(x, y), line);
        Tag::wrap_all(role, &mut part.items);
        page.items.append(&mut part.items);
    };
    let title = shaper.shape(words.title, Style::Bold, 16.0, reading);
    put(&mut page, title, y, Role::Title);
    y += 9.0;
    for (i, step) in words.steps.iter().enumerate() {
        let numbered = format!("{}. {step}", i + 1);
        let start = page.items.len();
        for line in shaper.wrap(&numbered, Style::Regular, 10.0, text_width, reading) {
            let x = if line.rtl { width - MARGIN - line.width_mm() } else { MARGIN };
            page.text(Point::new(x, y), line);
            y += 5.0;
        }
        let mut lines = page.items.split_off(start);
        Tag::wrap_all(Role::ListItem, &mut lines);
        page.items.append(&mut lines);
        y += 1.5;
    }
    // The commands, left to right in every language, as they are typed.
    for command in COMMANDS {
        let line = shaper.shape(command, Style::Bold, 10.0, Reading::Natural);
        put(&mut page, line, y, Role::Paragraph);
        y += 5.5;
    }
    // The square, with the down bar on its left and the across bar under it.
    let top = y + 8.0;
    let left = MARGIN + 14.0;
    let mut drawing = Page::new(width, height);
    drawing.rect(Point::new(left, top), 100.0, 100.0, Paint::outline(Stroke::solid(0.3)));
    let square = shaper.shape("100 × 100 mm", Style::Regular, 9.0, Reading::Natural);
    drawing.text_centered(left + 50.0, top + 52.0, square);
    down_bar(&shaper, &mut drawing, Point::new(MARGIN + 6.0, top));
    calibration_bar(&shaper, &mut drawing, Point::new(left, top + 106.0));
    inch_scale(&shaper, &mut drawing, Point::new(left, top + 126.0));
    Tag::wrap_all(Role::Figure { alt: words.drawing.to_string() }, &mut drawing.items);
    page.items.append(&mut drawing.items);
    let info = pdf::DocInfo {
        title: words.title.to_string(),
        lang: Some(lang.to_string()),
        right_to_left: reading.rtl(),
        page_label: String::new(),
        epoch: None,
    };
    Ok(pdf::write_with(&[page], &info))
}

/// A 100 mm bar running down from `at`, ticked every millimetre and numbered every
/// centimetre to its left.
fn down_bar(shaper: &Shaper, page: &mut Page, at: Point) {
    let stroke = Stroke::solid(0.3);
    page.line(at, Point::new(at.x, at.y + 100.0), stroke);
    for mm in 0..=100 {
        let y = at.y + f64::from(mm);
        let (tick, width) = match mm {
            _ if mm % 10 == 0 => (if mm % 50 == 0 { 3.2 } else { 2.2 }, 0.3),
            _ => (1.2, 0.12),
        };
        page.line(Point::new(at.x, y), Point::new(at.x + tick, y), Stroke::solid(width));
        if mm % 10 == 0 {
            let label = shaper.shape(
                &(mm / 10).to_string(),
                Style::Regular,
                6.0,
                Reading::Natural,
            );
            let x = at.x - 1.2 - label.width_mm();
            page.text(Point::new(x, y + 0.8), label);
        }
    }
    let unit = shaper.shape("cm", Style::Regular, 6.0, Reading::Natural);
    page.text(Point::new(at.x - 2.0, at.y + 104.5), unit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurements_are_read_across_then_down_or_one_for_both() {
        let c = Calibration::parse("99.2x100.6").unwrap();
        assert_eq!((c.across, c.down), (99.2, 100.6));
        let c = Calibration::parse("99.2 mm × 100.6 mm").unwrap();
        assert_eq!((c.across, c.down), (99.2, 100.6));
        let c = Calibration::parse("101").unwrap();
        assert_eq!((c.across, c.down), (101.0, 101.0));
        assert_eq!(c.scale(), (100.0 / 101.0, 100.0 / 101.0));
        assert!(Calibration::parse("abc").unwrap_err().contains("not a measurement"));
        assert!(Calibration::parse("99.2x").is_err());
        let c = Calibration::parse("99,2x100,6").unwrap();
        assert_eq!((c.across, c.down), (99.2, 100.6));
        assert_eq!(Calibration::parse("99,5").unwrap().across, 99.5);
    }

    #[test]
    fn implausible_measurements_are_refused() {
        for bad in ["89", "111", "89.99x100", "100x110.01", "inf", "NaN"] {
            assert!(Calibration::parse(bad).is_err(), "{bad}");
        }
        for good in ["90", "110", "90x110"] {
            assert!(Calibration::parse(good).is_ok(), "{good}");
        }
        assert!(Calibration::parse("89").unwrap_err().contains("89 mm"));
    }

    #[test]
    fn measurements_are_shown_to_a_hundredth_in_the_sheet_s_decimal_mark() {
        let c = Calibration::new(99.25, 100.0).unwrap();
        assert_eq!(c.shown(false), ("99.25".to_string(), "100".to_string()));
        assert_eq!(c.shown(true).0, "99,25");
    }

    #[test]
    fn profiles_round_trip_through_their_file() {
        let mut profiles = Profiles::default();
        profiles.0.insert("office".into(), Calibration::new(99.2, 100.6).unwrap());
        profiles.0.insert("home-inkjet".into(), Calibration::new(101.0, 101.0).unwrap());
        let text = profiles.to_toml();
        assert_eq!(Profiles::parse(&text, "printers.toml").unwrap(), profiles);
        let bad = "[printers.x]\nacross = 80\ndown = 100\n";
        let e = Profiles::parse(bad, "printers.toml").unwrap_err();
        assert!(e.contains("printers.toml: printer `x`"), "{e}");
        assert!(valid_name("office-laser").is_ok());
        assert!(valid_name("../x").is_err());
    }
}
