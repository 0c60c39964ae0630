pub mod boards;
pub mod pdf_probe;
