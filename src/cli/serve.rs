//! `serve`: the web page gets the same kits, loaded and verified the same way, as
//! the other commands; the page itself is `crate::serve`.

use std::path::Path;

use super::Failure;
use super::kits::{load_verified, sources};

/// `serve`: every kit loaded and verified first, as `build` would, then the page.
pub(super) fn run(
    kits_dir: Option<&Path>,
    port: u16,
    open: bool,
    listen: Option<std::net::IpAddr>,
) -> Result<(), Failure> {
    let kits = load_verified(&sources(kits_dir, &[])?)?;
    let ip = listen.unwrap_or(std::net::Ipv4Addr::LOCALHOST.into());
    let config = crate::serve::Config { addr: (ip, port).into(), open, kits };
    crate::serve::run(config).map_err(Failure::Other)
}
