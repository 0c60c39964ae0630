//! The one integration-test binary: the CLI end to end, and the PDFs it writes read
//! back with an independent parser.

mod authoring;
mod browser;
mod calibration;
mod class;
mod cli;
mod cli_faults;
mod code_shape;
mod content;
mod copy_out;
mod crossway;
mod diagrams;
mod fuzz;
mod glossary;
mod languages;
mod pagination;
mod pathstone;
mod pdf_archive;
mod pdf_standards;
mod pdf_tagged;
mod pdfs;
mod pieces;
mod previews;
mod puzzle_sheet;
mod records;
mod serve;
mod sizes;
mod stack_top;
mod support;
mod tiers;
mod typography;
mod untrusted;
