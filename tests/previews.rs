//! Previews and cut files, read back with parsers independent of their writers: the
//! SVG with roxmltree against the PDF read by the probe (positions within 0.01 mm),
//! the PNG against poppler's raster of the PDF page, and the cut file against the cut
//! lines the PDF draws.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cli::{stderr, tablekit};
use crate::support::games;
use crate::support::pdf_probe::{self, PageProbe};

/// Geometry must agree to this, in millimetres.
const MM: f64 = 0.01;

fn build(out: &Path, extra: &[&str]) {
    let mut args = vec!["build", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = crate::support::fixture(&args).output().expect("the fixture runs");
    assert!(run.status.success(), "{}", stderr(&run));
}

/// Every PDF under `out`, sorted.
fn pdfs(out: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![out.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pdf") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// `preview/<sheet>-<n>.<ext>` beside a PDF.
fn preview_of(pdf: &Path, page: usize, ext: &str) -> PathBuf {
    let sheet = pdf.file_stem().unwrap().to_str().unwrap();
    pdf.parent().unwrap().join("preview").join(format!("{sheet}-{page}.{ext}"))
}

/// What an SVG page draws, in the probe's terms.
#[derive(Default)]
struct Drawn {
    segments: Vec<[f64; 4]>,
    rects: Vec<[f64; 4]>,
    circles: Vec<[f64; 4]>,
    /// Text runs: x, y of the baseline's start, size in points.
    texts: Vec<[f64; 3]>,
    /// Glyph origins: x, y.
    glyphs: Vec<[f64; 2]>,
}

fn number(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("<{}> without {name}", node.tag_name().name()))
        .parse()
        .unwrap()
}

fn points(node: roxmltree::Node) -> Vec<(f64, f64)> {
    let list = node.attribute("points").unwrap();
    list.split(' ')
        .map(|pair| {
            let (x, y) = pair.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn read_svg(text: &str) -> (f64, f64, Drawn) {
    let doc = roxmltree::Document::parse(text).expect("the SVG parses");
    let root = doc.root_element();
    let view: Vec<f64> = root
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    let mm =
        |name: &str| root.attribute(name).unwrap().trim_end_matches("mm").parse::<f64>();
    assert_eq!((mm("width").unwrap(), mm("height").unwrap()), (view[2], view[3]));
    let mut drawn = Drawn::default();
    for node in root.descendants().filter(|n| n.is_element()) {
        if node.ancestors().any(|a| a.has_tag_name("defs")) {
            continue;
        }
        let stroked = node.attribute("stroke").is_some();
        let filled = node.attribute("fill").is_some_and(|f| f != "none");
        match node.tag_name().name() {
            "line" => {
                drawn.segments.push(["x1", "y1", "x2", "y2"].map(|a| number(node, a)))
            }
            "rect" if node.attribute("width") == Some("100%") => {}
            "rect" => {
                let [x, y, w, h] = ["x", "y", "width", "height"].map(|a| number(node, a));
                drawn.rects.push([x, y, w, h]);
                if stroked {
                    let c = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
                    for i in 0..4 {
                        let (a, b) = (c[i], c[(i + 1) % 4]);
                        drawn.segments.push([a.0, a.1, b.0, b.1]);
                    }
                }
            }
            "circle" => {
                let [x, y, r] = ["cx", "cy", "r"].map(|a| number(node, a));
                drawn.circles.push([x - r, y - r, x + r, y + r]);
            }
            "polygon" if stroked => {
                let p = points(node);
                for i in 0..p.len() {
                    let (a, b) = (p[i], p[(i + 1) % p.len()]);
                    drawn.segments.push([a.0, a.1, b.0, b.1]);
                }
            }
            "polygon" => assert!(filled),
            "text" => {
                let size = number(node, "font-size") * 72.0 / 25.4;
                drawn.texts.push([number(node, "x"), number(node, "y"), size]);
            }
            "use" => {
                let m = node.attribute("transform").unwrap();
                let m: Vec<f64> = m
                    .trim_start_matches("matrix(")
                    .trim_end_matches(')')
                    .split(' ')
                    .map(|v| v.parse().unwrap())
                    .collect();
                drawn.glyphs.push([m[4], m[5]]);
            }
            _ => {}
        }
    }
    (view[2], view[3], drawn)
}

/// Pairs every item of `a` with one of `b` within [`MM`] in every coordinate (a
/// segment in either direction); the first that has none is the error.
fn matched<const N: usize>(
    a: &[[f64; N]],
    b: &[[f64; N]],
    what: &str,
) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{what}: {} in the SVG, {} in the PDF", a.len(), b.len()));
    }
    let key = |v: &[f64; N]| ((v[0] * 10.0).round() as i64, (v[1] * 10.0).round() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, v) in b.iter().enumerate() {
        buckets.entry(key(v)).or_default().push(i);
    }
    let mut used = vec![false; b.len()];
    let close =
        |x: &[f64; N], y: &[f64; N]| x.iter().zip(y).all(|(p, q)| (p - q).abs() <= MM);
    for item in a {
        let mut forms = vec![*item];
        if N == 4 && what == "segments" {
            forms.push(
                [item[2], item[3], item[0], item[1]]
                    .map(|v| v)
                    .as_slice()
                    .try_into()
                    .unwrap(),
            );
        }
        let found = forms.iter().find_map(|form| {
            let (kx, ky) = key(form);
            (kx - 1..=kx + 1)
                .flat_map(|x| (ky - 1..=ky + 1).map(move |y| (x, y)))
                .filter_map(|k| buckets.get(&k))
                .flatten()
                .copied()
                .find(|&j| !used[j] && close(form, &b[j]))
        });
        match found {
            Some(j) => used[j] = true,
            None => return Err(format!("{what}: {item:?} has no match in the PDF")),
        }
    }
    Ok(())
}

fn compare_page(svg: &str, page: &PageProbe) -> Result<(), String> {
    let (w, h, drawn) = read_svg(svg);
    if (w - page.width_mm).abs() > MM || (h - page.height_mm).abs() > MM {
        return Err(format!(
            "page {w} × {h} mm, PDF {} × {}",
            page.width_mm, page.height_mm
        ));
    }
    let segments: Vec<[f64; 4]> =
        page.segments.iter().map(|s| [s.x1, s.y1, s.x2, s.y2]).collect();
    matched(&drawn.segments, &segments, "segments")?;
    let rects: Vec<[f64; 4]> = page.rects.iter().map(|r| [r.x, r.y, r.w, r.h]).collect();
    matched(&drawn.rects, &rects, "rectangles")?;
    let curves: Vec<[f64; 4]> =
        page.curves.iter().map(|c| [c.min_x, c.min_y, c.max_x, c.max_y]).collect();
    matched(&drawn.circles, &curves, "circles")?;
    let texts: Vec<[f64; 3]> = page.texts.iter().map(|t| [t.x, t.y, t.size_pt]).collect();
    matched(&drawn.texts, &texts, "text runs")?;
    // Every glyph sits on the baseline of a PDF run, between its start and end.
    for [x, y] in &drawn.glyphs {
        let inside = page
            .texts
            .iter()
            .any(|t| (t.y - y).abs() <= MM && *x >= t.x - MM && *x <= t.x_end + MM);
        if !inside {
            return Err(format!("a glyph at ({x}, {y}) lies on no run of the PDF"));
        }
    }
    Ok(())
}

#[test]
fn an_svg_page_has_the_geometry_of_its_pdf_page() {
    // Arabic Pathstone at its largest: right-to-left text and a board in parts.
    svg_pages_match(
        &["pathstone", "--size", "8", "--lang", "ar", "--preview", "svg"],
        7,
        10,
    );
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_svg_page_has_the_geometry_of_its_pdf_page() {
    svg_pages_match(&["--lang", "all", "--preview", "svg"], 24 * 6, 200);
}

/// Builds with `args` and compares every page's SVG preview with its PDF page; at
/// least `files` PDFs and more than `at_least` pages, so that a build writing fewer
/// fails rather than passes.
fn svg_pages_match(args: &[&str], files: usize, at_least: usize) {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), args);
    let found = pdfs(tmp.path());
    assert!(found.len() >= files, "{} PDFs", found.len());
    let files = found;
    let mut pages = 0;
    for pdf in &files {
        let probe = pdf_probe::load_file(pdf);
        for (i, page) in probe.pages.iter().enumerate() {
            let svg = std::fs::read_to_string(preview_of(pdf, i + 1, "svg")).unwrap();
            if let Err(e) = compare_page(&svg, page) {
                panic!("{} page {}: {e}", pdf.display(), i + 1);
            }
            pages += 1;
        }
        assert!(!preview_of(pdf, probe.pages.len() + 1, "svg").exists());
    }
    assert!(pages > at_least, "{pages} pages");
}

/// A PNG decoded to 8-bit grey, with its size.
fn grey(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()].chunks(channels).map(|p| p[0]).collect();
    (info.width, info.height, pixels)
}

pub(crate) fn poppler() -> bool {
    let found = Command::new("pdftoppm").arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("TABLEKIT_REQUIRE_POPPLER").is_none(),
            "TABLEKIT_REQUIRE_POPPLER is set but pdftoppm is not installed"
        );
        eprintln!("skipped: pdftoppm (poppler-utils) is not installed");
    }
    found
}

#[test]
fn a_png_page_matches_poppler_s_raster_of_its_pdf_page() {
    // Arabic Pathstone at its largest: a board in parts, and right-to-left text on
    // the quick start and the host key (poppler rasterises each page in some 40 ms, so
    // the other sheets are left to the full tier).
    let args = ["pathstone", "--size", "8", "--lang", "ar"];
    png_pages_match(&args, &["board", "quick-start", "host-key"], 3);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_png_page_matches_poppler_s_raster_of_its_pdf_page() {
    png_pages_match(&["--lang", "all"], &[], 200);
}

/// Builds with `args` and PNG previews at 72 dpi, and compares every page of the
/// `sheets` named (every sheet if none is) with poppler's raster of its PDF page
/// (more than `at_least` pages).
fn png_pages_match(args: &[&str], sheets: &[&str], at_least: usize) {
    if !poppler() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    build(&out, &[args, &["--preview", "png", "--dpi", "72"]].concat());
    let mut pages = 0;
    let named = |pdf: &PathBuf| {
        let sheet = pdf.file_stem().unwrap().to_string_lossy();
        sheets.is_empty() || sheets.contains(&sheet.as_ref())
    };
    for pdf in pdfs(&out).into_iter().filter(named) {
        let prefix = tmp.path().join("poppler");
        let run = Command::new("pdftoppm")
            .args(["-r", "72", "-gray", "-png"])
            .arg(&pdf)
            .arg(&prefix)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let mut rasters: Vec<PathBuf> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("poppler"))
            .collect();
        rasters.sort();
        for (i, raster) in rasters.iter().enumerate() {
            let (pw, ph, theirs) = grey(raster);
            let (w, h, ours) = grey(&preview_of(&pdf, i + 1, "png"));
            assert_eq!((w, h), (pw, ph), "{} page {}", pdf.display(), i + 1);
            let differ =
                theirs.iter().zip(&ours).filter(|(a, b)| a.abs_diff(**b) > 64).count();
            let share = differ as f64 / ours.len() as f64;
            assert!(
                share <= 0.01,
                "{} page {}: {:.2} % of pixels differ",
                pdf.display(),
                i + 1,
                share * 100.0
            );
            std::fs::remove_file(raster).unwrap();
            pages += 1;
        }
    }
    assert!(pages > at_least, "{pages} pages");
}

/// Cut lines of a PDF page as the SVG's cut layer should hold them: segments of the
/// house cut line (0.25 mm, dashed) and round pieces outlined with it.
fn pdf_cut_segments(page: &PageProbe) -> Vec<[f64; 4]> {
    page.segments
        .iter()
        .filter(|s| {
            s.dashed && (s.width_mm - 0.25).abs() < 0.02 && (s.gray - 0.45).abs() < 0.01
        })
        .map(|s| [s.x1, s.y1, s.x2, s.y2])
        .collect()
}

#[test]
fn every_cut_file_holds_exactly_the_cut_lines_its_sheet_prints() {
    let tmp = tempfile::tempdir().unwrap();
    // Shaped pieces cut on their outlines, and pieces on a grid cut on its lines.
    build(
        tmp.path(),
        &["--cut-file", "--cut-marks", "--size", "8", "pathstone", "--cut", "outline"],
    );
    build(
        tmp.path(),
        &["--cut-file", "--cut-marks", "crossway", "three-men-slide", "stack-top-roads"],
    );
    build(tmp.path(), &["--cut-file", "crossway", "--size", "19", "--cut", "outline"]);
    let mut files = 0;
    for pdf in pdfs(tmp.path()) {
        let probe = pdf_probe::load_file(&pdf);
        let stem = pdf.file_stem().unwrap().to_str().unwrap().to_string();
        let dir = pdf.parent().unwrap();
        // Round pieces are cut on their outline (on a grid their shape is only
        // printed); only piece sheets have them.
        let outline = dir.to_string_lossy().contains("-cut-outline");
        let pieces = (stem == "stones" || stem == "counters") && outline;
        let cut_pages: Vec<usize> = (0..probe.pages.len())
            .filter(|&i| {
                let round = probe.pages[i].curves.iter().any(|c| c.stroked && c.filled);
                !pdf_cut_segments(&probe.pages[i]).is_empty() || (pieces && round)
            })
            .collect();
        let single = dir.join(format!("{stem}.cut.svg"));
        let numbered = |n: usize| dir.join(format!("{stem}-{n}.cut.svg"));
        if stem == "host-key" || stem == "contents" {
            assert!(!single.exists() && !numbered(1).exists(), "{}", pdf.display());
            continue;
        }
        for (n, &index) in cut_pages.iter().enumerate() {
            let path = if single.exists() { single.clone() } else { numbered(n + 1) };
            let text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                panic!("no cut file {} for {}", path.display(), pdf.display())
            });
            let doc = roxmltree::Document::parse(&text).unwrap();
            let layer = |id: &str| {
                doc.descendants().find(|n| n.attribute("id") == Some(id)).unwrap()
            };
            let (cut, marks) = (layer("cut"), layer("registration"));
            assert_eq!(
                cut.attribute((
                    "http://www.inkscape.org/namespaces/inkscape",
                    "groupmode"
                )),
                Some("layer")
            );
            assert_eq!(marks.children().filter(|n| n.is_element()).count(), 3);
            // The marks are printed on the sheet too (--cut-marks), except the build without.
            let mut drawn = Drawn::default();
            let mut discs = 0;
            for node in cut.children().filter(|n| n.is_element()) {
                match node.tag_name().name() {
                    "line" => drawn
                        .segments
                        .push(["x1", "y1", "x2", "y2"].map(|a| number(node, a))),
                    "polygon" => {
                        let p = points(node);
                        for i in 0..p.len() {
                            let (a, b) = (p[i], p[(i + 1) % p.len()]);
                            drawn.segments.push([a.0, a.1, b.0, b.1]);
                        }
                    }
                    "rect" => {
                        let [x, y, w, h] =
                            ["x", "y", "width", "height"].map(|a| number(node, a));
                        let c = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
                        for i in 0..4 {
                            let (a, b) = (c[i], c[(i + 1) % 4]);
                            drawn.segments.push([a.0, a.1, b.0, b.1]);
                        }
                    }
                    "circle" => discs += 1,
                    other => panic!("unexpected <{other}> in the cut layer"),
                }
            }
            let page = &probe.pages[index];
            let wanted = pdf_cut_segments(page);
            let tolerance =
                |r: Result<(), String>| r.map_err(|e| format!("{}: {e}", path.display()));
            tolerance(matched(&drawn.segments, &wanted, "segments")).unwrap();
            let round =
                page.curves.iter().filter(|c| pieces && c.stroked && c.filled).count();
            assert_eq!(discs, round, "{}: round pieces", path.display());
            files += 1;
        }
        if cut_pages.len() > 1 {
            assert!(!single.exists());
        }
    }
    assert!(files >= 8, "{files} cut files");
}

#[test]
fn a_bad_preview_format_or_resolution_is_a_usage_error_naming_the_valid_values() {
    let bad = tablekit(&["build", "--preview", "gif", "--out", "/nonexistent"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("png") && stderr(&bad).contains("svg"),
        "{}",
        stderr(&bad)
    );
    for dpi in ["23", "601", "x"] {
        let bad = tablekit(&[
            "build",
            "--preview",
            "png",
            "--dpi",
            dpi,
            "--out",
            "/nonexistent",
        ]);
        assert_eq!(bad.status.code(), Some(2), "--dpi {dpi}");
        assert!(stderr(&bad).contains("--dpi"), "{}", stderr(&bad));
    }
}

#[test]
fn previews_are_written_with_their_pdfs_or_not_at_all() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    build(out, &["three-men-slide"]);
    let dir = out.join("three-men-slide").join("en-a4");
    let before = std::fs::read(dir.join("board.pdf")).unwrap();
    // A file where the kit's folder should be: nothing can be written.
    std::fs::rename(out.join("three-men-slide"), out.join("kept")).unwrap();
    std::fs::write(out.join("three-men-slide"), b"in the way").unwrap();
    let run = tablekit(&[
        "build",
        "three-men-slide",
        "--preview",
        "png",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_ne!(run.status.code(), Some(0));
    assert_eq!(std::fs::read(out.join("three-men-slide")).unwrap(), b"in the way");
    std::fs::remove_file(out.join("three-men-slide")).unwrap();
    std::fs::rename(out.join("kept"), out.join("three-men-slide")).unwrap();
    assert_eq!(std::fs::read(dir.join("board.pdf")).unwrap(), before);
    // Written: each page once, and the same bytes from the same build.
    build(out, &["three-men-slide", "--preview", "png"]);
    let first = std::fs::read(dir.join("preview").join("board-1.png")).unwrap();
    assert!(first.starts_with(b"\x89PNG"));
    build(out, &["three-men-slide", "--preview", "png"]);
    assert_eq!(std::fs::read(dir.join("preview").join("board-1.png")).unwrap(), first);
    assert_eq!(std::fs::read(dir.join("board.pdf")).unwrap(), before, "the PDF changed");
}

#[test]
fn a_kit_s_contents_sheet_shows_one_picture_per_file_it_lists() {
    // Arabic Pathstone: the pictures' labels in right-to-left text.
    pictures_per_file_listed(&["pathstone", "--lang", "ar"], 1);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_contents_sheet_shows_one_picture_per_file_it_lists() {
    let builds = games::kits().iter().map(|k| k.languages.len()).sum();
    pictures_per_file_listed(&["--lang", "all"], builds);
}

/// Every contents sheet of a build with `args` (`builds` of them) frames one picture
/// of each file it lists, labelled with the file's name.
fn pictures_per_file_listed(args: &[&str], builds: usize) {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), args);
    let mut sheets = 0;
    for pdf in pdfs(tmp.path()).iter().filter(|p| p.ends_with("contents.pdf")) {
        let dir = pdf.parent().unwrap();
        let listed = crate::support::variant_pdfs(dir);
        let files = listed.len();
        let probe = pdf_probe::load_file(pdf);
        let (w, h) = (probe.pages[0].width_mm, probe.pages[0].height_mm);
        // A picture is a page outline 18 to 24 mm wide in the page's proportions.
        let frames: usize = probe
            .pages
            .iter()
            .map(|p| {
                p.rects
                    .iter()
                    .filter(|r| r.stroked && (18.0 - MM..=24.0 + MM).contains(&r.w))
                    .filter(|r| (r.h - r.w * h / w).abs() < MM)
                    .count()
            })
            .sum();
        assert_eq!(frames, files, "{}", pdf.display());
        for (name, _) in listed {
            assert!(
                probe.pages.iter().any(|p| p.contains_text(&name)),
                "{}: no label {name}",
                pdf.display()
            );
        }
        sheets += 1;
    }
    assert_eq!(sheets, builds);
}
