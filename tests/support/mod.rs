pub mod pdf_probe;
