//! A page's content stream, written straight to bytes.
//!
//! printpdf turns a page's ops into lopdf operations and lopdf turns those into text;
//! for the tens of thousands of ops a build draws, that took a fifth of the build.
//! Here each op is written once, in exactly the syntax those two wrote (operands each
//! followed by a space, then the operator; a newline between operations; a number
//! as Rust prints an `f32`), so a file's bytes are what they were.

use std::io::Write as _;

/// The bytes of one content stream.
#[derive(Default)]
pub(super) struct Content {
    bytes: Vec<u8>,
}

/// One operand.
#[derive(Clone, Copy)]
pub(super) enum Operand<'a> {
    Number(f32),
    Integer(i64),
    Name(&'a str),
    /// `<</MCID n>>`, the only dictionary a page stream holds.
    Mcid(i64),
    /// A dash array: `[on off]`, or `[]` for a solid line.
    Numbers(&'a [f32]),
}

/// An item of a `TJ` array.
#[derive(Clone, Copy)]
pub(super) enum Shown {
    /// A two-byte code, written in hex.
    Code(u16),
    /// A move back along the line, in thousandths of an em.
    Adjust(f32),
}

impl Content {
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Writes `operands operator`.
    pub fn op(&mut self, operands: &[Operand<'_>], operator: &str) {
        self.start();
        for operand in operands {
            match *operand {
                Operand::Number(n) => number(&mut self.bytes, n),
                Operand::Integer(i) => integer(&mut self.bytes, i),
                Operand::Name(name) => {
                    self.bytes.push(b'/');
                    self.bytes.extend_from_slice(name.as_bytes());
                }
                Operand::Mcid(mcid) => {
                    self.bytes.extend_from_slice(b"<</MCID ");
                    integer(&mut self.bytes, mcid);
                    self.bytes.extend_from_slice(b">>");
                }
                Operand::Numbers(numbers) => {
                    self.bytes.push(b'[');
                    for (i, &n) in numbers.iter().enumerate() {
                        if i > 0 {
                            self.bytes.push(b' ');
                        }
                        number(&mut self.bytes, n);
                    }
                    self.bytes.push(b']');
                }
            }
            self.bytes.push(b' ');
        }
        self.bytes.extend_from_slice(operator.as_bytes());
    }

    /// Writes `numbers operator`, the commonest shape of an operation.
    pub fn numbers(&mut self, numbers: &[f32], operator: &str) {
        self.start();
        for &n in numbers {
            number(&mut self.bytes, n);
            self.bytes.push(b' ');
        }
        self.bytes.extend_from_slice(operator.as_bytes());
    }

    /// Writes `[…] TJ`: codes as hex strings, adjustments as numbers, a space only
    /// before a number (as lopdf separates array items).
    pub fn show(&mut self, items: impl IntoIterator<Item = Shown>) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        self.start();
        self.bytes.push(b'[');
        let mut first = true;
        for item in items {
            match item {
                Shown::Code(code) => {
                    self.bytes.push(b'<');
                    for byte in code.to_be_bytes() {
                        self.bytes.push(HEX[(byte >> 4) as usize]);
                        self.bytes.push(HEX[(byte & 15) as usize]);
                    }
                    self.bytes.push(b'>');
                }
                Shown::Adjust(n) => {
                    if !first {
                        self.bytes.push(b' ');
                    }
                    number(&mut self.bytes, n);
                }
            }
            first = false;
        }
        self.bytes.extend_from_slice(b"] TJ");
    }

    /// A newline between operations.
    fn start(&mut self) {
        if !self.bytes.is_empty() {
            self.bytes.push(b'\n');
        }
    }
}

fn integer(bytes: &mut Vec<u8>, i: i64) {
    bytes.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
}

/// `n` as lopdf writes it: `{n}` (the shortest digits that read back as `n`, never
/// an exponent; zmij and ryu find the digits faster but break ties the other way).
fn number(bytes: &mut Vec<u8>, n: f32) {
    write!(bytes, "{n}").expect("writing to memory cannot fail");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_are_written_as_lopdf_writes_them() {
        let mut content = Content::default();
        content.op(&[Operand::Name("P"), Operand::Mcid(3)], "BDC");
        content.numbers(&[0.5], "G");
        content.op(&[Operand::Numbers(&[2.0, 1.5]), Operand::Number(0.0)], "d");
        content.op(&[Operand::Numbers(&[]), Operand::Number(0.0)], "d");
        content.op(&[Operand::Integer(2)], "J");
        content.op(&[Operand::Name("TKSANS"), Operand::Number(9.5)], "Tf");
        content.show([Shown::Code(0x1a), Shown::Adjust(-12.5), Shown::Code(2)]);
        content.show([Shown::Adjust(3.0), Shown::Code(0xbeef)]);
        content.op(&[], "EMC");
        let text = String::from_utf8(content.into_bytes()).unwrap();
        assert_eq!(
            text,
            "/P <</MCID 3>> BDC\n0.5 G\n[2 1.5] 0 d\n[] 0 d\n2 J\n/TKSANS 9.5 Tf\n\
             [<001A> -12.5<0002>] TJ\n[3<BEEF>] TJ\nEMC"
        );
    }
}
