//! `tablekit serve` over HTTP: every endpoint, and every bad request answered with its
//! status and message while the server keeps serving. The answers are read as they
//! came: JSON with serde_json, PDFs with the probe, SVGs with roxmltree, zips with zip.

use std::io::Write as _;

use serde_json::{Value, json};

use crate::support::pdf_probe;
use crate::support::server::{Reply, Server, crossway_player_files, unzip};

/// The server still answers, and with the whole catalog.
fn assert_healthy(server: &Server) {
    let reply = server.get("/api/catalog");
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["kits"].as_array().unwrap().len(), 4);
}

fn assert_error(reply: &Reply, status: u16, words: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    let body = reply.json();
    let all = format!("{} {}", body["error"], body["diagnostics"]);
    assert!(all.contains(words), "{words:?} not in {all}");
}

fn build(server: &Server, form: Value) -> Value {
    let reply = server.post_json("/api/build", &form);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn page_size(pdf: &[u8]) -> (f64, f64) {
    let probe = pdf_probe::load(pdf);
    let first = &probe.pages[0];
    (first.width_mm, first.height_mm)
}

#[test]
fn the_page_and_its_files_are_served_with_headers_that_keep_it_to_itself() {
    let server = Server::start();
    for (path, kind, needle) in [
        ("/", "text/html", "<script src=\"/app.js\""),
        ("/app.js", "text/javascript", "/api/build"),
        ("/app.css", "text/css", "[hidden]"),
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 200, "{path}");
        assert!(reply.header("content-type").unwrap().starts_with(kind), "{path}");
        assert!(reply.text().contains(needle), "{path}");
        let policy = reply.header("content-security-policy").unwrap();
        assert!(policy.contains("default-src 'self'"), "{policy}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(reply.header("access-control-allow-origin"), None, "no CORS");
    }
    // Nothing is fetched from elsewhere.
    for path in ["/", "/app.js", "/app.css"] {
        let text = server.get(path).text();
        assert!(
            !text.contains("https://") && !text.contains("http://"),
            "{path} links out"
        );
    }
    assert_error(&server.get("/etc/passwd"), 404, "no such page");
}

#[test]
fn the_catalog_offers_every_kit_with_its_words_languages_and_choices() {
    let server = Server::start();
    let catalog = server.get("/api/catalog").json();
    let kits = catalog["kits"].as_array().unwrap();
    let ids: Vec<&str> = kits.iter().map(|k| k["id"].as_str().unwrap()).collect();
    assert_eq!(ids, crate::support::games::ids(), "the kits `tablekit list` shows");
    for kit in kits {
        let id = kit["id"].as_str().unwrap();
        for lang in &crate::support::games::kit(id).languages {
            let lang = lang.as_str();
            let tagline = kit["taglines"][lang].as_str().unwrap_or_default();
            assert!(tagline.len() > 20 && !tagline.contains('{'), "{lang}: {tagline:?}");
            // The size is left for the page to fill with the size chosen.
            let title = kit["titles"][lang].as_str().unwrap().replace("{size}", "9");
            assert!(!title.contains('{') && !title.is_empty(), "{lang}: {title}");
        }
        let thumbnail = server.get(kit["thumbnail"].as_str().unwrap());
        assert_eq!(thumbnail.header("content-type"), Some("image/png"));
        assert_eq!(&thumbnail.body[1..4], b"PNG");
    }
    let crossway = kits.iter().find(|k| k["id"] == "crossway").unwrap();
    assert_eq!(crossway["sizes"], json!([5, 19]));
    assert_eq!(crossway["default_size"], 9);
    let presets: Vec<&str> = crossway["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(presets, ["large", "small", "standard"]);
    // The page's languages, each named in itself, Arabic right to left.
    let languages = catalog["languages"].as_array().unwrap();
    let named: Vec<(&str, &str)> = languages
        .iter()
        .map(|l| (l["code"].as_str().unwrap(), l["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        named,
        [
            ("ar", "العربية"),
            ("de", "Deutsch"),
            ("el", "Ελληνικά"),
            ("en", "English"),
            ("es", "Español"),
            ("fr", "Français")
        ]
    );
    assert!(languages.iter().all(|l| l["rtl"] == (l["code"] == "ar")));
    assert_eq!(
        catalog["papers"],
        json!(["a4", "letter", "a3", "legal", "a5", "tabloid"])
    );
    assert_eq!(catalog["printers"], json!([]));
}

#[test]
fn the_pages_words_are_complete_in_every_language() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kits/web");
    let read = |lang: &str| -> Vec<(String, String)> {
        let text = std::fs::read_to_string(dir.join(format!("{lang}.toml"))).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        let mut flat = Vec::new();
        for (section, keys) in &table {
            let Some(keys) = keys.as_table() else { continue };
            for (key, value) in keys {
                flat.push((
                    format!("{section}.{key}"),
                    value.as_str().unwrap().to_string(),
                ));
            }
        }
        flat.sort();
        flat
    };
    let names = |text: &str| -> Vec<String> {
        let mut found: Vec<String> = text
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split(['}', ':']).next())
            .map(str::to_string)
            .collect();
        found.sort();
        found
    };
    let english = read("en");
    assert!(english.len() > 50);
    for lang in ["fr", "de", "es", "el", "ar"] {
        let words = read(lang);
        let keys =
            |w: &[(String, String)]| w.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&words), keys(&english), "{lang}: keys differ from English");
        for ((key, en), (_, text)) in english.iter().zip(&words) {
            assert_eq!(names(text), names(en), "{lang}: placeholders of {key}");
        }
    }
    // The server says nothing of missing words when it starts.
    let mut server = Server::start();
    assert_eq!(server.get("/").status, 200);
    let stderr = server.stop();
    assert!(!stderr.contains("note:"), "{stderr}");
}

#[test]
fn a_build_offers_every_page_as_a_picture_and_every_file_for_download() {
    let server = Server::start();
    let manifest = build(&server, json!({ "kit": "crossway", "lang": "en" }));
    assert_eq!(manifest["name"], "crossway-en-a4-9x9");
    let files = manifest["files"].as_array().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "contents.pdf",
            "board.pdf",
            "quick-start.pdf",
            "stones.pdf",
            "ledger.pdf",
            "rule-card.pdf",
            "host-key.pdf"
        ]
    );
    let hosts: Vec<bool> = files.iter().map(|f| f["host"].as_bool().unwrap()).collect();
    assert_eq!(hosts, [false, false, false, false, false, false, true]);
    for file in files {
        let pdf = server.get(file["download"].as_str().unwrap());
        assert_eq!(pdf.header("content-type"), Some("application/pdf"));
        let name = file["download_name"].as_str().unwrap();
        assert_eq!(
            pdf.header("content-disposition").unwrap(),
            format!("attachment; filename=\"{name}\"")
        );
        let probe = pdf_probe::load(&pdf.body);
        assert_eq!(probe.pages.len() as u64, file["pages"].as_u64().unwrap(), "{name}");
        let (w, h) = page_size(&pdf.body);
        assert!((w - 210.0).abs() < 0.1 && (h - 297.0).abs() < 0.1, "{name}: {w} × {h}");
        assert!(!file["title"].as_str().unwrap().is_empty(), "{name} has a title");
        let previews = file["previews"].as_array().unwrap();
        assert_eq!(previews.len() as u64, file["pages"].as_u64().unwrap());
        for preview in previews {
            let svg = server.get(preview.as_str().unwrap());
            assert_eq!(svg.status, 200);
            assert_eq!(svg.header("content-type"), Some("image/svg+xml"));
            let text = svg.text();
            let doc = roxmltree::Document::parse(&text).unwrap();
            assert_eq!(doc.root_element().attribute("width"), Some("210mm"));
        }
    }
    // The same form finds the same build.
    assert_eq!(
        build(&server, json!({ "kit": "crossway", "lang": "en" }))["id"],
        manifest["id"]
    );
}

#[test]
fn the_players_zip_holds_their_sheets_and_never_the_host_key() {
    let server = Server::start();
    let form = json!({ "kit": "crossway", "lang": "ar", "paper": "letter", "size": 7 });
    let manifest = build(&server, form);
    assert_eq!(manifest["name"], "crossway-ar-letter-7x7");
    assert_eq!(manifest["rtl"], true);
    let zip = server.get(manifest["players_zip"].as_str().unwrap());
    assert_eq!(zip.header("content-type"), Some("application/zip"));
    assert!(
        zip.header("content-disposition")
            .unwrap()
            .contains("crossway-ar-letter-7x7-players.zip")
    );
    let entries = unzip(&zip.body);
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, crossway_player_files("crossway-ar-letter-7x7"));
    for (name, pdf) in &entries {
        let (w, h) = page_size(pdf);
        assert!((w - 215.9).abs() < 0.1 && (h - 279.4).abs() < 0.1, "{name}: {w} × {h}");
    }
    assert_eq!(
        server.get(manifest["players_zip"].as_str().unwrap()).body,
        zip.body,
        "same bytes"
    );
}

#[test]
fn options_reach_the_sheets_custom_paper_cell_printer_and_puzzles() {
    let server = Server::start();
    std::fs::write(
        server.config().join("printers.toml"),
        "[printers.office]\nacross = 99.0\ndown = 101.0\n",
    )
    .unwrap();
    let catalog = server.get("/api/catalog").json();
    assert_eq!(
        catalog["printers"],
        json!([{ "name": "office", "across": "99", "down": "101" }])
    );
    let form = json!({
        "kit": "three-men-slide", "lang": "fr", "paper": "custom", "width": "300", "height": "400,5",
        "landscape": true, "cell": "large", "printer": "office", "puzzles": 2, "plies": 1
    });
    let manifest = build(&server, form);
    assert_eq!(
        manifest["name"],
        "three-men-slide-fr-300x400.5mm-landscape-3x3-cell-large-corrected-99x101-puzzles-2-plies-1"
    );
    let files = manifest["files"].as_array().unwrap();
    assert!(files.iter().any(|f| f["file"] == "puzzles.pdf"), "{files:?}");
    let board = files.iter().find(|f| f["file"] == "board.pdf").unwrap();
    let pdf = server.get(board["download"].as_str().unwrap());
    let (w, h) = page_size(&pdf.body);
    assert!((w - 400.5).abs() < 0.1 && (h - 300.0).abs() < 0.1, "{w} × {h}");
    assert!(
        pdf_probe::load(&pdf.body).text().contains("99 × 101"),
        "the correction is printed"
    );
    let measured = json!({ "kit": "three-men-slide", "lang": "en", "across": "99,5", "down": "100" });
    build(&server, measured);
}

#[test]
fn a_class_build_offers_its_print_job_in_the_players_zip_and_apart() {
    let server = Server::start();
    let form =
        json!({ "kit": "three-men-slide", "lang": "en", "players": 8, "tables": 2 });
    let manifest = build(&server, form);
    assert_eq!(manifest["name"], "three-men-slide-en-a4-3x3-players-8-tables-2");
    let job = &manifest["print_all"];
    let pdf = server.get(job["download"].as_str().unwrap());
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert_eq!(
        pdf_probe::load(&pdf.body).pages.len() as u64,
        job["pages"].as_u64().unwrap()
    );
    let zip = unzip(&server.get(manifest["players_zip"].as_str().unwrap()).body);
    let names: Vec<&str> = zip.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.iter().any(|n| n.ends_with("/print-all.pdf")), "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with("host-key.pdf")), "{names:?}");
    let bad =
        json!({ "kit": "three-men-slide", "lang": "en", "players": 8, "tables": 5 });
    assert_error(&server.post_json("/api/build", &bad), 422, "1 to 4 tables");
}

#[test]
fn every_bad_request_gets_its_status_and_message_and_the_server_keeps_serving() {
    let server = Server::start();
    let port = server.host.rsplit(':').next().unwrap().to_string();
    let evil = format!("evil.example:{port}");
    let wrong_host = server.raw("GET", "/api/catalog", &[("Host", &evil)], b"");
    assert_eq!(wrong_host.status, 421, "{}", wrong_host.text());
    assert!(wrong_host.text().contains("answers only to"));
    let localhost = format!("localhost:{port}");
    assert_eq!(server.raw("GET", "/", &[("Host", &localhost)], b"").status, 200);
    let other_site =
        server.send("POST", "/api/build", &[("Origin", "http://evil.example")], b"{}");
    assert_error(&other_site, 403, "other sites");
    let big = vec![b' '; 64 << 10];
    let oversize =
        server.send("POST", "/api/build", &[("Content-Type", "application/json")], &big);
    assert_eq!(oversize.status, 413);
    for (form, status, words) in [
        (json!("not a form"), 400, "could not be read"),
        (
            json!({ "kit": "crossway", "lang": "en", "colour": "red" }),
            400,
            "unknown field",
        ),
        (json!({ "kit": "chess", "lang": "en" }), 404, "unknown kit `chess`"),
        (json!({ "kit": "crossway", "lang": "xx" }), 422, "no language `xx`"),
        (
            json!({ "kit": "crossway", "lang": "en", "paper": "a9" }),
            422,
            "unknown paper `a9`",
        ),
        (json!({ "kit": "crossway", "lang": "en", "size": 99 }), 422, "no board size 99"),
        (json!({ "kit": "crossway", "lang": "en", "cell": "huge" }), 422, "huge"),
        (
            json!({ "kit": "crossway", "lang": "en", "printer": "nowhere" }),
            422,
            "no printer `nowhere`",
        ),
        (
            json!({ "kit": "crossway", "lang": "en", "across": "9" }),
            422,
            "both measurements",
        ),
        (json!({ "kit": "crossway", "lang": "en", "puzzles": 99 }), 422, "puzzles"),
    ] {
        assert_error(&server.post_json("/api/build", &form), status, words);
        assert_healthy(&server);
    }
    assert_error(&server.get("/api/builds/0000/files/board.pdf"), 404, "no longer kept");
    assert_error(
        &server.get("/api/builds/0000/previews/board-1.svg"),
        404,
        "no longer kept",
    );
    let manifest = build(&server, json!({ "kit": "three-men-slide", "lang": "en" }));
    let id = manifest["id"].as_str().unwrap();
    for path in [
        format!("/api/builds/{id}/files/..%2F..%2Fkits%2Fcrossway%2Fkit.toml"),
        format!("/api/builds/{id}/files/kit.toml"),
        format!("/api/builds/{id}/previews/..%2Fboard.pdf"),
    ] {
        assert_eq!(server.get(&path).status, 404, "{path}");
    }
    assert_error(&server.get("/api/calibration.pdf?paper=a9"), 422, "unknown paper");
    assert_healthy(&server);
}

#[test]
fn listening_beyond_loopback_warns_and_still_refuses_names_it_does_not_have() {
    let mut server = Server::start_with(&["--listen", "0.0.0.0"]);
    let port = server.host.rsplit(':').next().unwrap().to_string();
    let numeric = format!("192.168.1.20:{port}");
    assert_eq!(server.raw("GET", "/", &[("Host", &numeric)], b"").status, 200);
    let named = format!("attacker.example:{port}");
    assert_eq!(server.raw("GET", "/", &[("Host", &named)], b"").status, 421);
    let other_port = format!("192.168.1.20:1{port}");
    assert_eq!(server.raw("GET", "/", &[("Host", &other_port)], b"").status, 421);
    let stderr = server.stop();
    assert!(stderr.contains("warning: listening on 0.0.0.0:"), "{stderr}");
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start();
    assert_eq!(server.get("/").status, 200);
    let (success, said) = server.interrupt();
    assert!(success, "{said}");
    assert!(
        said.starts_with("tablekit is serving its page at http://127.0.0.1:"),
        "{said}"
    );
    assert!(said.trim_end().ends_with("stopped"), "{said}");
}

#[test]
fn the_calibration_page_is_one_click_away_in_the_pages_paper_and_language() {
    let server = Server::start();
    let reply = server.get("/api/calibration.pdf?paper=letter&lang=fr");
    assert_eq!(reply.header("content-type"), Some("application/pdf"));
    let (w, h) = page_size(&reply.body);
    assert!((w - 215.9).abs() < 0.1 && (h - 279.4).abs() < 0.1);
    assert!(pdf_probe::load(&reply.body).text().contains("100 mm"));
}

#[test]
fn a_burst_of_builds_queues_on_the_pool_and_every_one_is_answered() {
    let server = Server::start();
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (5..=16)
            .map(|size| {
                let server = &server;
                scope.spawn(move || {
                    let form = json!({ "kit": "crossway", "lang": "en", "size": size });
                    server.post_json("/api/build", &form).status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
    assert_healthy(&server);
}

/// A zip of (name, contents) entries; a name ending in `/` is a folder.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        match name.strip_suffix('/') {
            Some(folder) => writer.add_directory(folder, options).unwrap(),
            None => {
                writer.start_file(*name, options).unwrap();
                writer.write_all(bytes).unwrap();
            }
        }
    }
    writer.finish().unwrap().into_inner()
}

/// The shipped three-men-slide kit as zip entries inside `folder/`, its id changed.
fn kit_entries(folder: &str, id: &str) -> Vec<(String, Vec<u8>)> {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kits/three-men-slide");
    let kit = std::fs::read_to_string(root.join("kit.toml")).unwrap();
    let kit = kit.replace("id = \"three-men-slide\"", &format!("id = \"{id}\""));
    let mut entries = vec![(format!("{folder}/kit.toml"), kit.into_bytes())];
    for lang in ["en", "fr"] {
        let text = std::fs::read(root.join(format!("lang/{lang}.toml"))).unwrap();
        entries.push((format!("{folder}/lang/{lang}.toml"), text));
    }
    entries
}

fn upload(server: &Server, name: &str, zip: &[u8]) -> Reply {
    let path = format!("/api/upload?name={name}");
    server.send("POST", &path, &[("Content-Type", "application/zip")], zip)
}

fn as_refs(entries: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    entries.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect()
}

#[test]
fn an_uploaded_kit_is_built_like_any_other_and_its_folder_is_removed() {
    let server = Server::start();
    let entries = kit_entries("my-slide", "my-slide");
    let reply = upload(&server, "my-slide.zip", &zip_of(&as_refs(&entries)));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let kit = reply.json();
    assert_eq!(kit["kit"], "my-slide");
    assert!(kit["id"].as_str().unwrap().starts_with("upload:"));
    let langs: Vec<&str> = kit["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["code"].as_str().unwrap())
        .collect();
    assert_eq!(langs, ["en", "fr"]);
    let manifest = build(&server, json!({ "kit": kit["id"], "lang": "fr" }));
    assert_eq!(manifest["name"], "my-slide-fr-a4-3x3");
    let leftovers: Vec<_> = std::fs::read_dir(server.tmp()).unwrap().collect();
    assert!(leftovers.is_empty(), "the upload's folder is removed: {leftovers:?}");
    // A zip made by macOS carries __MACOSX/ beside the folder: no part of the kit.
    let mut mac = kit_entries("my-slide", "my-slide");
    mac.push(("__MACOSX/my-slide/._kit.toml".to_string(), vec![0, 5, 22, 7]));
    assert_eq!(upload(&server, "mac.zip", &zip_of(&as_refs(&mac))).status, 200);
    // A kit at the zip's top is found too.
    let top = kit_entries("x", "my-slide");
    let top: Vec<(String, Vec<u8>)> = top
        .into_iter()
        .map(|(n, b)| (n.trim_start_matches("x/").to_string(), b))
        .collect();
    assert_eq!(upload(&server, "flat.zip", &zip_of(&as_refs(&top))).status, 200);
}

#[test]
fn a_kit_with_a_mistake_is_reported_at_its_file_line_and_column() {
    let server = Server::start();
    let mut entries = kit_entries("my-slide", "my-slide");
    let kit = String::from_utf8(entries[0].1.clone()).unwrap();
    entries[0].1 = kit.replacen("[board]", "[board]\ncolour = \"red\"", 1).into_bytes();
    let reply = upload(&server, "my-slide.zip", &zip_of(&as_refs(&entries)));
    assert_eq!(reply.status, 422, "{}", reply.text());
    let line = kit.lines().position(|l| l == "[board]").unwrap() + 2;
    assert_error(&reply, 422, &format!("my-slide.zip/my-slide/kit.toml:{line}:1"));
    assert_healthy(&server);
}

#[test]
fn a_hostile_zip_is_refused_and_nothing_is_written_outside_its_folder() {
    let server = Server::start();
    let good = kit_entries("k", "k");
    let with = |extra: (&str, &[u8])| {
        let mut all = as_refs(&good);
        all.push(extra);
        zip_of(&all)
    };
    let zeros = vec![0u8; 11 << 20];
    let many: Vec<(String, Vec<u8>)> =
        (0..300).map(|i| (format!("k/f{i}.txt"), vec![])).collect();
    for (name, zip, words) in [
        ("slip.zip", with(("../evil.toml", b"x")), "outside the kit folder"),
        ("deep.zip", with(("k/lang/../../../evil.toml", b"x")), "outside the kit folder"),
        ("absolute.zip", with(("/tmp/evil.toml", b"x")), "outside the kit folder"),
        ("bomb.zip", with(("k/big.txt", &zeros)), "more than 10 MiB"),
        ("many.zip", zip_of(&as_refs(&many)), "at most 256"),
        ("text.zip", b"not a zip at all".to_vec(), "not a zip file"),
        ("empty.zip", zip_of(&[("readme.txt", b"hello")]), "holds no kit"),
    ] {
        assert_error(&upload(&server, name, &zip), 422, words);
        assert_healthy(&server);
    }
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in &good {
        writer.start_file(name.as_str(), options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.add_symlink("k/lang/de.toml", "/etc/passwd", options).unwrap();
    let linked = writer.finish().unwrap().into_inner();
    assert_error(&upload(&server, "link.zip", &linked), 422, "is a link");
    let oversize = vec![0u8; 11 << 20];
    assert_eq!(upload(&server, "huge.zip", &oversize).status, 413);
    let parent = server.tmp().parent().unwrap().join("evil.toml");
    assert!(!parent.exists() && !std::path::Path::new("/tmp/evil.toml").exists());
    assert_eq!(
        std::fs::read_dir(server.tmp()).unwrap().count(),
        0,
        "every folder removed"
    );
    assert_healthy(&server);
}
