//! The endpoints. None of them reads or writes a path a request names: kits, builds
//! and files are looked up by id among what the server holds.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::form::{self, Form};
use super::state::{AppState, Build, MAX_WAITING, Offered};
use super::{assets, catalog, guard, upload, zipped};
use crate::kit::SheetKind;
use crate::layout::Paper;
use crate::pipeline;

/// The largest form accepted: a few hundred bytes are enough.
const MAX_FORM_BYTES: usize = 16 << 10;

/// Every endpoint, behind the guard.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(assets::INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(assets::APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { page(assets::APP_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/catalog", get(catalog_json))
        .route("/api/kits/{kit}/thumbnail.png", get(thumbnail))
        .route("/api/build", post(build))
        .route(
            "/api/upload",
            post(upload_kit).layer(DefaultBodyLimit::max(upload::MAX_UPLOAD_BYTES)),
        )
        .route("/api/builds/{id}/files/{file}", get(file))
        .route("/api/builds/{id}/previews/{picture}", get(preview))
        .route("/api/builds/{id}/players.zip", get(players_zip))
        .route("/api/calibration.pdf", get(calibration))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_FORM_BYTES))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard::guard))
        .with_state(state)
}

/// An error as the page shows it: `{"error": message}` with its status.
pub fn error(status: StatusCode, message: String) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

fn page(text: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

async fn catalog_json(State(state): State<Arc<AppState>>) -> Response {
    axum::Json(catalog::catalog(&state)).into_response()
}

/// Runs `work` on the build pool: requests beyond the pool wait their turn, and
/// beyond [`MAX_WAITING`] the server says it is busy rather than pile them up.
async fn on_pool<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    if state.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
        state.waiting.fetch_sub(1, Ordering::SeqCst);
        return Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy; try again".into(),
        ));
    }
    let permit = state.pool.acquire().await;
    state.waiting.fetch_sub(1, Ordering::SeqCst);
    let result = tokio::task::spawn_blocking(work).await;
    drop(permit);
    result.map_err(|_| {
        error(StatusCode::INTERNAL_SERVER_ERROR, "the build stopped unexpectedly".into())
    })
}

async fn build(State(state): State<Arc<AppState>>, body: Bytes) -> Response {
    let form: Form = match serde_json::from_slice(&body) {
        Ok(form) => form,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("the form could not be read: {e}"),
            );
        }
    };
    let Some(Offered { kit, verified }) = state.kit(&form.kit) else {
        let known: Vec<&str> = state.kits.iter().map(|k| k.kit.id.as_str()).collect();
        let shown: String = form.kit.chars().take(64).collect();
        let message =
            format!("unknown kit `{shown}`: expected one of {}", known.join(", "));
        return error(StatusCode::NOT_FOUND, message);
    };
    let printers = crate::io::read_profiles().map(|(_, p)| p).unwrap_or_default();
    let checked = match form::check(&form, &kit, &printers) {
        Ok(checked) => checked,
        Err(message) => return error(StatusCode::UNPROCESSABLE_ENTITY, message),
    };
    let id = build_id(&form);
    if let Some(kept) = state.builds.lock().ok().and_then(|mut b| b.get(&id)) {
        return axum::Json(manifest(&id, &kept)).into_response();
    }
    let lang = checked.options.lang.clone();
    let name = checked.name.clone();
    let shapers = state.clone();
    let built = on_pool(&state, move || {
        // A builder's shaper, taken and given back here: never more than builders.
        let idle = shapers.shapers.lock().ok().and_then(|mut idle| idle.pop());
        let shaper = idle.unwrap_or_default();
        let built =
            pipeline::build_shaped(&checked.kit, &verified, &checked.options, &shaper);
        if let Ok(mut idle) = shapers.shapers.lock() {
            idle.push(shaper);
        }
        built
    })
    .await;
    match built {
        Err(response) => response,
        Ok(Err(diags)) => diagnostics("this kit cannot be built as asked", &diags),
        Ok(Ok(built)) => {
            let kept = Arc::new(Build { name, lang, built });
            if let Ok(mut builds) = state.builds.lock() {
                builds.put(id.clone(), kept.clone());
            }
            axum::Json(manifest(&id, &kept)).into_response()
        }
    }
}

/// A build's id: a hash of its form, so the same form finds the build it made.
fn build_id(form: &Form) -> String {
    use std::hash::{Hash as _, Hasher as _};
    let mut hasher = rustc_hash::FxHasher::default();
    form.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// Problems found in a kit, each as the command line prints it.
fn diagnostics(summary: &str, diags: &[crate::diag::Diagnostic]) -> Response {
    let rendered: Vec<String> = diags.iter().map(|d| d.render()).collect();
    let body = json!({ "error": summary, "diagnostics": rendered });
    (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response()
}

/// What the page needs of a build: every file with its pages and pictures.
fn manifest(id: &str, build: &Build) -> Value {
    let files: Vec<Value> = build
        .built
        .outputs
        .iter()
        .map(|output| {
            let previews: Vec<String> = output
                .extras
                .iter()
                .filter_map(|(name, _)| name.strip_prefix("preview/"))
                .map(|picture| format!("/api/builds/{id}/previews/{picture}"))
                .collect();
            json!({
                "file": output.file_name,
                "sheet": output.sheet.name(),
                "title": output.title,
                "pages": output.pages,
                // Printed on one side: a sheet of paper per page.
                "sheets": output.pages,
                "host": output.sheet == SheetKind::HostKey,
                "download": format!("/api/builds/{id}/files/{}", output.file_name),
                "download_name": format!("{}-{}", build.name, output.file_name),
                "previews": previews,
            })
        })
        .collect();
    json!({
        "id": id,
        "name": build.name,
        "lang": build.lang,
        "rtl": crate::kit::strings::is_right_to_left(&build.lang),
        "files": files,
        "players_zip": format!("/api/builds/{id}/players.zip"),
        "players_zip_name": format!("{}-players.zip", build.name),
        "print_all": build.built.print_all.as_ref().map(|(pages, _)| json!({
            "pages": pages,
            "download": format!("/api/builds/{id}/files/{}", pipeline::PRINT_ALL_FILE),
            "download_name": format!("{}-{}", build.name, pipeline::PRINT_ALL_FILE),
        })),
        "notes": build.built.notes,
        "fell_back": build.built.fell_back,
    })
}

fn kept_build(state: &AppState, id: &str) -> Option<Arc<Build>> {
    state.builds.lock().ok().and_then(|mut b| b.get(id))
}

fn build_gone() -> Response {
    let message = "this build is no longer kept: change any option to build it again";
    error(StatusCode::NOT_FOUND, message.into())
}

/// A download: `attachment` with a file name of safe characters only.
fn download(bytes: Vec<u8>, kind: &'static str, name: &str, inline: bool) -> Response {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' })
        .collect();
    let disposition =
        format!("{}; filename=\"{safe}\"", if inline { "inline" } else { "attachment" });
    let mut response = ([(header::CONTENT_TYPE, kind)], bytes).into_response();
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

async fn file(
    State(state): State<Arc<AppState>>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    let Some(build) = kept_build(&state, &id) else {
        return build_gone();
    };
    let print_all =
        build.built.print_all.as_ref().filter(|_| file == pipeline::PRINT_ALL_FILE);
    let found = build.built.outputs.iter().find(|o| o.file_name == file);
    match (found.map(|o| &o.bytes), print_all.map(|(_, bytes)| bytes)) {
        (Some(bytes), _) | (None, Some(bytes)) => download(
            bytes.clone(),
            "application/pdf",
            &format!("{}-{file}", build.name),
            false,
        ),
        (None, None) => {
            error(StatusCode::NOT_FOUND, "this build has no such file".into())
        }
    }
}

async fn preview(
    State(state): State<Arc<AppState>>,
    Path((id, picture)): Path<(String, String)>,
) -> Response {
    let Some(build) = kept_build(&state, &id) else {
        return build_gone();
    };
    let wanted = format!("preview/{picture}");
    let found =
        build.built.outputs.iter().flat_map(|o| &o.extras).find(|(n, _)| *n == wanted);
    let Some((_, bytes)) = found else {
        return error(StatusCode::NOT_FOUND, "this build has no such picture".into());
    };
    let kind = if picture.ends_with(".png") { "image/png" } else { "image/svg+xml" };
    // A build's pictures never change: the same id is the same form and kit.
    let mut response = ([(header::CONTENT_TYPE, kind)], bytes.clone()).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=3600"));
    response
}

async fn players_zip(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Response {
    let Some(build) = kept_build(&state, &id) else {
        return build_gone();
    };
    // The host key is never among the players' files.
    let mut files: Vec<(&str, &[u8])> = build
        .built
        .outputs
        .iter()
        .filter(|o| o.sheet != SheetKind::HostKey)
        .map(|o| (o.file_name.as_str(), o.bytes.as_slice()))
        .collect();
    if let Some((_, bytes)) = &build.built.print_all {
        files.push((pipeline::PRINT_ALL_FILE, bytes));
    }
    match zipped::zip(&build.name, &files) {
        Ok(bytes) => download(
            bytes,
            "application/zip",
            &format!("{}-players.zip", build.name),
            false,
        ),
        Err(e) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the zip could not be made: {e}"),
        ),
    }
}

#[derive(serde::Deserialize)]
struct UploadQuery {
    name: Option<String>,
}

async fn upload_kit(
    State(state): State<Arc<AppState>>,
    Query(query): Query<UploadQuery>,
    body: Bytes,
) -> Response {
    let name = query.name.unwrap_or_else(|| "kit.zip".to_string());
    let token = format!("{:016x}", {
        use std::hash::Hasher as _;
        let mut hasher = rustc_hash::FxHasher::default();
        hasher.write(&body);
        hasher.finish()
    });
    let loaded = on_pool(&state, move || {
        let source = upload::unpack(&name, &body).map_err(Err)?;
        let kit = crate::pipeline::load(&source).map_err(Ok)?;
        let verified = crate::pipeline::verify(&kit).map_err(Ok)?;
        Ok::<_, Result<Vec<crate::diag::Diagnostic>, String>>(Offered { kit, verified })
    })
    .await;
    let offered = match loaded {
        Err(response) => return response,
        Ok(Err(Err(refusal))) => return error(StatusCode::UNPROCESSABLE_ENTITY, refusal),
        Ok(Err(Ok(diags))) => return diagnostics("this kit has problems", &diags),
        Ok(Ok(offered)) => offered,
    };
    let entry = catalog::kit_entry(&offered, &state.words, Some(&token));
    if let Ok(mut uploads) = state.uploads.lock() {
        uploads.put(token, Arc::new(offered));
    }
    axum::Json(entry).into_response()
}

async fn thumbnail(
    State(state): State<Arc<AppState>>,
    Path(kit): Path<String>,
) -> Response {
    if let Some(png) = state.thumbnails.lock().ok().and_then(|t| t.get(&kit).cloned()) {
        return picture_png(png.as_ref().clone());
    }
    let Some(found) = state.kit(&kit) else {
        return error(StatusCode::NOT_FOUND, "unknown kit".into());
    };
    match on_pool(&state, move || catalog::thumbnail(&found)).await {
        Err(response) => response,
        Ok(None) => error(StatusCode::NOT_FOUND, "this kit has no picture".into()),
        Ok(Some(png)) => {
            if let Ok(mut thumbnails) = state.thumbnails.lock() {
                thumbnails.insert(kit, Arc::new(png.clone()));
            }
            picture_png(png)
        }
    }
}

fn picture_png(bytes: Vec<u8>) -> Response {
    let mut response = ([(header::CONTENT_TYPE, "image/png")], bytes).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=3600"));
    response
}

#[derive(serde::Deserialize)]
struct CalibrationQuery {
    paper: Option<String>,
    lang: Option<String>,
}

async fn calibration(Query(query): Query<CalibrationQuery>) -> Response {
    let paper = match Paper::parse(query.paper.as_deref().unwrap_or("a4"), false) {
        Ok(paper) => paper,
        Err(e) => return error(StatusCode::UNPROCESSABLE_ENTITY, format!("paper: {e}")),
    };
    let wanted = query.lang.unwrap_or_else(|| "en".into());
    let lang = match crate::calibrate::sheet_languages().contains(&wanted.as_str()) {
        true => wanted,
        false => "en".to_string(),
    };
    match crate::calibrate::sheet(&paper, &lang) {
        Ok(pdf) => download(
            pdf,
            "application/pdf",
            &format!("calibration-{}.pdf", paper.name()),
            true,
        ),
        Err(e) => error(StatusCode::UNPROCESSABLE_ENTITY, e),
    }
}
