//! The players' download: their PDFs in one zip, the same bytes for the same build.

use std::io::Write as _;

use zip::write::SimpleFileOptions;

/// A zip of `files` (name, bytes) inside one folder `folder/`, every entry dated
/// 1980-01-01 so that a build zips to the same bytes each time.
pub fn zip(folder: &str, files: &[(&str, &[u8])]) -> zip::result::ZipResult<Vec<u8>> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o644);
    for (name, bytes) in files {
        writer.start_file(format!("{folder}/{name}"), options)?;
        writer.write_all(bytes)?;
    }
    Ok(writer.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use super::*;

    #[test]
    fn the_zip_holds_each_file_in_its_folder_and_zips_the_same_twice() {
        let files: [(&str, &[u8]); 2] =
            [("board.pdf", b"%PDF-1"), ("stones.pdf", b"%PDF-2")];
        let bytes = zip("crossway-en-a4-9x9", &files).unwrap();
        assert_eq!(bytes, zip("crossway-en-a4-9x9", &files).unwrap());
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut text = String::new();
        archive
            .by_name("crossway-en-a4-9x9/stones.pdf")
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "%PDF-2");
        assert_eq!(archive.len(), 2);
    }
}
