//! The page end to end in a real browser: `tests/browser/e2e.mjs` drives Debian's
//! Chromium (through playwright-core) against a server started here, and this test
//! checks what the browser downloaded with the same independent readers as the rest.
//! `.ci/run` installs Chromium and playwright-core and sets TABLEKIT_REQUIRE_BROWSER,
//! so there the test fails rather than skip. It is in the full tier: Chromium's start and
//! the page's round trips take some 3 s of the edit loop's 10, and the server's answers
//! are checked in the default tier by `serve.rs` all the same.

use std::path::Path;
use std::process::Command;

use crate::support::pdf_probe;
use crate::support::server::{Server, crossway_player_files, unzip};

fn chromium() -> Option<String> {
    let wanted = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    Path::new(&wanted).is_file().then_some(wanted)
}

/// Whether the browser test can run here; `None` with the reason if not.
fn browser_ready(script_dir: &Path) -> Result<String, String> {
    let chromium =
        chromium().ok_or("no Chromium (/usr/bin/chromium, or set CHROMIUM)")?;
    if !script_dir.join("node_modules/playwright-core").is_dir() {
        return Err(
            "playwright-core is not installed (npm ci --prefix tests/browser)".into()
        );
    }
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(chromium),
        _ => Err("no node".into()),
    }
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_facilitator_builds_previews_and_downloads_in_arabic_on_letter_in_a_real_browser() {
    let script_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let chromium = match browser_ready(&script_dir) {
        Ok(chromium) => chromium,
        Err(why) if std::env::var_os("TABLEKIT_REQUIRE_BROWSER").is_none() => {
            eprintln!("skipped: the browser test cannot run here: {why}");
            return;
        }
        Err(why) => panic!("TABLEKIT_REQUIRE_BROWSER is set, but {why}"),
    };
    let server = Server::start();
    let work = tempfile::tempdir().unwrap();
    let hostile = work.path().join("hostile-kit.zip");
    {
        use std::io::Write as _;
        let mut writer = zip::ZipWriter::new(std::fs::File::create(&hostile).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        writer.start_file("../../escape.toml", options).unwrap();
        writer.write_all(b"id = \"escape\"").unwrap();
        writer.finish().unwrap();
    }
    let downloads = work.path().join("downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    let out = Command::new("node")
        .arg(script_dir.join("e2e.mjs"))
        .current_dir(&script_dir)
        .env("TABLEKIT_URL", format!("http://{}/", server.host))
        .env("DOWNLOADS", &downloads)
        .env("HOSTILE_ZIP", &hostile)
        .env("CHROMIUM", chromium)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();

    assert_eq!(report["players_zip"], "crossway-ar-letter-7x7-players.zip");
    assert_eq!(report["host_key"], "crossway-ar-letter-7x7-host-key.pdf");
    assert_eq!(report["host_files"], serde_json::json!(["host-key.pdf"]));
    let title = report["kit_title"].as_str().unwrap();
    assert!(title.contains("7×7"), "the kit's card names the size chosen: {title}");
    let players = report["player_files"].as_array().unwrap();
    assert!(!players.iter().any(|f| f == "host-key.pdf"), "{players:?}");
    let alts = report["alts"].as_array().unwrap();
    // Every page has its own alternative text, in Arabic: the sheet and the page.
    let mut alts: Vec<&str> = alts.iter().map(|a| a.as_str().unwrap()).collect();
    assert!(alts.len() >= 8, "{alts:?}");
    assert!(
        alts.iter()
            .all(|a| a.contains("الصفحة") && a.chars().any(|c| c.is_ascii_digit()))
    );
    alts.dedup();
    assert!(alts.len() >= 8, "each alternative text is its own");
    assert!(report["upload_refusal"].as_str().unwrap().contains("../../escape.toml"));
    assert_eq!(report["overflow_390"], 0, "no sideways scrolling on a phone");
    assert_eq!(report["overflow_640"], 0, "no sideways scrolling at 200 %");
    assert_eq!(
        report["elsewhere"],
        serde_json::json!([]),
        "the page only talks to its server"
    );

    // The players' zip: their PDFs on Letter, and no host key.
    let entries = unzip(&std::fs::read(downloads.join("players.zip")).unwrap());
    for (name, pdf) in &entries {
        let page = &pdf_probe::load(pdf).pages[0];
        let letter =
            (page.width_mm - 215.9).abs() < 0.1 && (page.height_mm - 279.4).abs() < 0.1;
        assert!(letter, "{name}: {} × {} mm", page.width_mm, page.height_mm);
    }
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, crossway_player_files("crossway-ar-letter-7x7"));
    // The host key came apart, in Arabic, on Letter.
    let host = pdf_probe::load_file(&downloads.join("host-key.pdf"));
    assert!((host.pages[0].width_mm - 215.9).abs() < 0.1);
    let nothing_escaped = !work.path().join("escape.toml").exists()
        && !server.tmp().join("../escape.toml").exists();
    assert!(nothing_escaped);
}
