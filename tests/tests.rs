//! The one integration-test binary: the CLI end to end, and the PDFs it writes read
//! back with an independent parser.

mod cli;
mod content;
mod crossway;
mod languages;
mod pathstone;
mod pdfs;
mod sizes;
mod stack_top;
mod support;
mod untrusted;
