//! The page itself, carried in the binary: plain HTML, CSS and JavaScript with no
//! build step and nothing fetched from elsewhere.

/// The page.
pub const INDEX_HTML: &str = include_str!("page/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("page/app.js");
/// Its style.
pub const APP_CSS: &str = include_str!("page/app.css");
