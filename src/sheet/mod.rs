//! Sheets as text: Tera templates fill a kit's strings and facts into sheet markup,
//! and [`markup`] reads that markup back as blocks for layout.

pub mod markup;
pub mod sandbox;
pub mod template;
