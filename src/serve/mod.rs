//! `tablekit serve`: a web page on this computer where a facilitator picks a kit and
//! how to print it, sees every page, and downloads the files, without a terminal.
//!
//! The server listens on loopback only unless told otherwise, answers only to its
//! own address (`guard`), builds on a bounded pool, keeps the last few builds in
//! memory (`state`), and reads uploaded kits under the command line's rules
//! (`upload`). The page (`page/`) is embedded and fetches nothing from elsewhere.

mod assets;
pub(crate) mod catalog;
mod form;
mod guard;
mod routes;
mod state;
mod upload;
mod words;
mod zipped;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context as _, Result};

pub use state::Offered;
use state::{AppState, KEPT_BUILDS, KEPT_UPLOADS, Recent};
use words::Words;

/// The port `tablekit serve` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8421;

/// What to serve, and where.
pub struct Config {
    /// The address to listen on (loopback unless `--listen` says otherwise).
    pub addr: SocketAddr,
    /// Open the page in the default browser once listening.
    pub open: bool,
    /// The kits offered, loaded and verified.
    pub kits: Vec<Offered>,
}

/// Serves until Ctrl-C.
pub fn run(config: Config) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("could not start the server")?;
    runtime.block_on(serve(config))
}

async fn serve(config: Config) -> Result<()> {
    let (words, problems) = Words::load(crate::io::page_words()).map_err(|diags| {
        let shown: Vec<String> = diags.iter().map(|d| d.render()).collect();
        anyhow::anyhow!("the web page's words cannot be read:\n{}", shown.join("\n"))
    })?;
    for problem in &problems {
        eprintln!("note: {}", problem.render().trim_end());
    }
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("could not listen on {}", config.addr))?;
    let addr = listener.local_addr()?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {addr}: anyone who can reach this computer on the \
             network can use the page and upload kits to it"
        );
    }
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let state = Arc::new(AppState {
        kits: config.kits,
        words,
        hosts: hosts(addr),
        beyond_loopback: !addr.ip().is_loopback(),
        builds: std::sync::Mutex::new(Recent::new(KEPT_BUILDS)),
        uploads: std::sync::Mutex::new(Recent::new(KEPT_UPLOADS)),
        thumbnails: Default::default(),
        pool: tokio::sync::Semaphore::new(workers),
        waiting: Default::default(),
        shapers: Default::default(),
    });
    let url = format!("http://{}/", state.hosts[0]);
    println!("tablekit is serving its page at {url}");
    println!("Open that address in a browser; press Ctrl-C here to stop.");
    if config.open {
        open_browser(&url);
    }
    axum::serve(listener, routes::router(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the server stopped with an error")?;
    println!("stopped");
    Ok(())
}

/// The `Host` headers that name this server: its address, and `localhost` for a
/// loopback address; `127.0.0.1:PORT` for a server listening on every address (which
/// also answers to any numeric address with its port, see `guard`).
fn hosts(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    if addr.ip().is_unspecified() {
        return vec![format!("127.0.0.1:{port}")];
    }
    let mut hosts = vec![addr.to_string()];
    if addr.ip().is_loopback() {
        hosts.push(format!("localhost:{port}"));
    }
    hosts
}

/// Opens `url` in the default browser; failing that, the printed address is enough.
fn open_browser(url: &str) {
    let command = match std::env::consts::OS {
        "macos" => vec!["open", url],
        "windows" => vec!["cmd", "/C", "start", "", url],
        _ => vec!["xdg-open", url],
    };
    let started = std::process::Command::new(command[0])
        .args(&command[1..])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        eprintln!("note: no browser could be opened; open {url} yourself");
    }
}
