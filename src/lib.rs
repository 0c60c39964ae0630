//! tablekit: turns a short TOML description of a tabletop activity into print-ready
//! PDFs at exact 100% scale.
//!
//! The pipeline, one module per stage: [`kit`] loads and validates a kit, `verify`
//! replays its worked examples through each game's rules (`games/<game>/`, behind the
//! `rules::Game` seam), `sheet` fills the sheet templates, `layout` lays pages out in
//! millimetres, and `pdf` writes them. [`pipeline`] strings the stages together; only
//! [`io`] and [`cli`] touch the disk.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod calibrate;
mod civil;
pub mod cli;
pub mod config;
pub mod diag;
pub mod game;
mod game_id;
mod games;
pub mod io;
pub mod kit;
mod layout;
mod page;
mod pdf;
pub mod pipeline;
mod preview;
pub mod puzzles;
pub mod rules;
mod serve;
mod sheet;
mod text;
mod verify;

pub use game_id::GameId;
pub use games::generate as generate_puzzles;
pub use layout::Paper;
pub use preview::{Format as PreviewFormat, Previews};
pub use sheet::sandbox;
pub use sheet::template::TemplateSet;
