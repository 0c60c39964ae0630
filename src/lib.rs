//! tablekit: turns a short TOML description of a tabletop activity into print-ready
//! PDFs at exact 100% scale.
//!
//! The pipeline, one module per stage: [`kit`] loads and validates a kit, [`verify`]
//! replays its worked examples through [`rules`], [`templates`] fills the sheet
//! templates, [`layout`] lays pages out in millimetres, and [`pdf`] writes them.
//! [`build`] strings the stages together; only [`io`] and [`cli`] touch the disk.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod build;
pub mod cli;
pub mod diag;
pub mod io;
pub mod kit;
pub mod layout;
pub mod page;
pub mod pdf;
pub mod rules;
pub mod templates;
pub mod text;
pub mod verify;
