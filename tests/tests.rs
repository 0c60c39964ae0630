//! The one integration-test binary: the CLI end to end, and the PDFs it writes read
//! back with an independent parser.

mod cli;
mod cli_faults;
mod content;
mod crossway;
mod fuzz;
mod languages;
mod pagination;
mod pathstone;
mod pdf_standards;
mod pdfs;
mod pieces;
mod sizes;
mod stack_top;
mod support;
mod typography;
mod untrusted;
