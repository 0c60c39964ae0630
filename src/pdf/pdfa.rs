//! What PDF/A-2b (ISO 19005-2, level B) asks of a file beyond what the writer already
//! does: XMP metadata in the catalog that says the same as the Info dictionary and
//! claims part 2, conformance B (6.6), and an output intent with an embedded ICC
//! profile, so that DeviceGray (and any DeviceRGB) has a defined meaning (6.2.3,
//! 6.2.4.3). The profile is the CC0 compact sRGB profile shipped in `icc/`.

use lopdf::{Dictionary, Document, Object, Stream};

use super::info::{DocInfo, Stated};

/// The output intent's profile: sRGB, ICC v2, 456 bytes (see `icc/README.md`).
pub const SRGB_ICC: &[u8] = include_bytes!("../../icc/sRGB-v2-micro.icc");

/// Adds the XMP metadata stream and the sRGB output intent to the catalog.
pub(super) fn add(doc: &mut Document, info: &DocInfo, stated: &Stated) {
    // Unfiltered: PDF/A forbids a Filter on the metadata stream (6.6.2.1), so any
    // XMP reader finds it.
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Metadata".to_vec()));
    dict.set("Subtype", Object::Name(b"XML".to_vec()));
    let xmp = xmp(info, stated).into_bytes();
    let metadata = doc.add_object(Stream::new(dict, xmp).with_compression(false));

    let mut icc = Dictionary::new();
    icc.set("N", Object::Integer(3));
    let profile =
        doc.add_object(Stream::new(icc, SRGB_ICC.to_vec()).with_compression(false));
    let mut intent = Dictionary::new();
    intent.set("Type", Object::Name(b"OutputIntent".to_vec()));
    intent.set("S", Object::Name(b"GTS_PDFA1".to_vec()));
    intent.set("OutputConditionIdentifier", Object::string_literal("sRGB IEC61966-2.1"));
    intent.set("RegistryName", Object::string_literal("http://www.color.org"));
    intent.set("Info", Object::string_literal("sRGB IEC61966-2.1"));
    intent.set("DestOutputProfile", Object::Reference(profile));

    let catalog = doc.catalog_mut().expect("printpdf writes a catalog");
    catalog.set("Metadata", Object::Reference(metadata));
    catalog.set("OutputIntents", Object::Array(vec![Object::Dictionary(intent)]));
}

/// The XMP packet: title, language, creator tool, producer and dates as in the Info
/// dictionary, and the PDF/A identification.
fn xmp(info: &DocInfo, stated: &Stated) -> String {
    let date = xmp_date(stated.epoch);
    let mut props = String::new();
    let mut prop = |line: String| {
        props.push_str("   ");
        props.push_str(&line);
        props.push('\n');
    };
    prop("<dc:format>application/pdf</dc:format>".into());
    if !info.title.is_empty() {
        prop(format!(
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt></dc:title>",
            escape(&info.title)
        ));
    }
    if let Some(lang) = info.lang.as_deref().filter(|l| !l.is_empty()) {
        prop(format!(
            "<dc:language><rdf:Bag><rdf:li>{}</rdf:li></rdf:Bag></dc:language>",
            escape(lang)
        ));
    }
    prop(format!("<xmp:CreatorTool>{}</xmp:CreatorTool>", escape(stated.creator)));
    prop(format!("<xmp:CreateDate>{date}</xmp:CreateDate>"));
    prop(format!("<xmp:ModifyDate>{date}</xmp:ModifyDate>"));
    prop(format!("<xmp:MetadataDate>{date}</xmp:MetadataDate>"));
    prop(format!("<pdf:Producer>{}</pdf:Producer>", escape(stated.producer)));
    // No `pdf:Trapped`: PDF/A-2's predefined XMP schemas lack it (ISO 19005-2
    // 6.6.2.3.1), so it would need an extension schema; the Info dictionary's /Trapped
    // needs no XMP twin there.
    prop("<pdfaid:part>2</pdfaid:part>".into());
    prop("<pdfaid:conformance>B</pdfaid:conformance>".into());
    // PDF/UA-1's identification (ISO 14289-1, 5), in a schema that PDF/A-2 does not
    // predefine and so declares (ISO 19005-2, 6.6.2.3.2).
    prop("<pdfuaid:part>1</pdfuaid:part>".into());
    format!(
        "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n\
         <x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n \
         <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n  \
         <rdf:Description rdf:about=\"\"\n    \
         xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n    \
         xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"\n    \
         xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\"\n    \
         xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\"\n    \
         xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\">\n\
         {props}  </rdf:Description>\n\
         {PDFUA_EXTENSION} \
         </rdf:RDF>\n\
         </x:xmpmeta>\n\
         <?xpacket end=\"w\"?>"
    )
}

/// The PDF/A extension schema that declares `pdfuaid:part`.
const PDFUA_EXTENSION: &str = "  <rdf:Description rdf:about=\"\"
    xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\"
    xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\"
    xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">
   <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType=\"Resource\">
    <pdfaSchema:schema>PDF/UA identification</pdfaSchema:schema>
    <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
    <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
    <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">
     <pdfaProperty:name>part</pdfaProperty:name>
     <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
     <pdfaProperty:category>internal</pdfaProperty:category>
     <pdfaProperty:description>The part of ISO 14289 the file follows</pdfaProperty:description>
    </rdf:li></rdf:Seq></pdfaSchema:property>
   </rdf:li></rdf:Bag></pdfaExtension:schemas>
  </rdf:Description>
";

/// An XMP date (ISO 8601) in UTC, the same instant as the Info dictionary's.
fn xmp_date(epoch: i64) -> String {
    let (days, secs) = (epoch.div_euclid(86_400), epoch.rem_euclid(86_400));
    let (y, m, d) = crate::civil::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}+00:00",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Text as XML character data.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xmp_dates_are_the_info_dates() {
        assert_eq!(xmp_date(1_767_225_600), "2026-01-01T00:00:00+00:00");
        assert_eq!(xmp_date(951_827_696), "2000-02-29T12:34:56+00:00");
    }

    #[test]
    fn titles_are_escaped() {
        let info = DocInfo { title: "A & B <c>".into(), ..DocInfo::default() };
        let stated = Stated { creator: "t", producer: "p", epoch: 0 };
        assert!(xmp(&info, &stated).contains(">A &amp; B &lt;c&gt;</rdf:li>"));
    }

    #[test]
    fn the_profile_is_a_valid_srgb_display_profile() {
        let size = u32::from_be_bytes(SRGB_ICC[0..4].try_into().unwrap());
        assert_eq!(size as usize, SRGB_ICC.len());
        assert_eq!(&SRGB_ICC[36..40], b"acsp");
        assert_eq!(&SRGB_ICC[16..20], b"RGB ");
        assert_eq!(&SRGB_ICC[12..16], b"mntr");
        assert_eq!(SRGB_ICC[8], 2, "ICC version 2");
    }
}
