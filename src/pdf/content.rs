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
                    // Names here are constants lopdf would not have escaped.
                    debug_assert!(name.bytes().all(|b| b.is_ascii_alphanumeric()));
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

/// `n` as lopdf writes it: `{n}`, the shortest digits that read back as `n` (never an
/// exponent). zmij finds those digits several times faster than std, and agrees with
/// it except where two shortest candidates are equally close, which it breaks towards
/// an even digit and std away from zero; std writes those few.
fn number(bytes: &mut Vec<u8>, n: f32) {
    /// Numbers remembered per thread: a board repeats its grid's coordinates, line
    /// widths and greys thousands of times.
    const REMEMBERED: usize = 4096;
    /// The bits of a finite number and how it is written (up to 15 bytes: the
    /// widest number a page holds, such as `-1234.5678`, is far shorter).
    type Printed = (u32, u8, [u8; 15]);
    thread_local! {
        static PRINTED: std::cell::RefCell<Vec<Printed>> =
            std::cell::RefCell::new(vec![(f32::NAN.to_bits(), 0, [0; 15]); REMEMBERED]);
    }
    if !n.is_finite() {
        return spell(bytes, n);
    }
    let bits = n.to_bits();
    let slot = (bits ^ (bits >> 13)).wrapping_mul(0x9e37_79b1) as usize >> 20;
    PRINTED.with_borrow_mut(|printed| {
        let (known, len, text) = &mut printed[slot % REMEMBERED];
        if *known == bits {
            bytes.extend_from_slice(&text[..*len as usize]);
            return;
        }
        let start = bytes.len();
        spell(bytes, n);
        let spelled = &bytes[start..];
        if spelled.len() <= text.len() {
            text[..spelled.len()].copy_from_slice(spelled);
            (*known, *len) = (bits, spelled.len() as u8);
        }
    });
}

/// [`number`] without the memory.
fn spell(bytes: &mut Vec<u8>, n: f32) {
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format(n).as_bytes();
    if !n.is_finite() || text.contains(&b'e') || may_tie(n, text) {
        write!(bytes, "{n}").expect("writing to memory cannot fail");
    } else {
        bytes.extend_from_slice(text.strip_suffix(b".0").unwrap_or(text));
    }
}

/// Whether `shortest` (zmij's digits for `n`) stops one digit short of `n`'s exact
/// value. `n` is an odd multiple of 2^-k, so its exact decimal has k places, the
/// last a 5; the two numbers with one place fewer on either side are then equally
/// close, and zmij and std may choose differently. Nowhere else can they tie.
fn may_tie(n: f32, shortest: &[u8]) -> bool {
    let bits = n.to_bits();
    let biased = ((bits >> 23) & 0xff) as i32;
    let fraction = bits & 0x7f_ffff;
    let (mantissa, exponent) = match biased {
        0 => (fraction, -149),
        _ => (fraction | 0x80_0000, biased - 150),
    };
    if mantissa == 0 {
        return false;
    }
    let places = -(exponent + mantissa.trailing_zeros() as i32);
    let printed = match shortest.iter().position(|&b| b == b'.') {
        Some(point) if &shortest[point..] != b".0" => (shortest.len() - point - 1) as i32,
        _ => 0,
    };
    places > 0 && printed == places - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(n: f32) -> String {
        let mut bytes = Vec::new();
        number(&mut bytes, n);
        // Once more from memory.
        number(&mut bytes, n);
        let half = bytes.len() / 2;
        assert_eq!(bytes[..half], bytes[half..]);
        bytes.truncate(half);
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn numbers_print_as_rust_prints_an_f32() {
        let special = [0.0, -0.0, 1.0, -1.0, 0.1, 142.578_12, 595.2756, 1e-7, 3e12, 1e20];
        for n in special {
            assert_eq!(printed(n), format!("{n}"));
        }
        let mut state = 0x9e37_79b9_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for _ in 0..200_000 {
            // Any bit pattern; a point on a page; a short binary fraction, where ties
            // between two shortest spellings happen.
            let any = f32::from_bits(next());
            let on_page = (next() as f32 / u32::MAX as f32 - 0.5) * 5000.0;
            let dyadic = (next() % 4_000_000) as f32 / (1u32 << (next() % 24)) as f32;
            for n in [any, on_page, dyadic, -dyadic] {
                if n.is_finite() {
                    assert_eq!(printed(n), format!("{n}"), "{:#x}", n.to_bits());
                }
            }
        }
    }

    #[test]
    #[ignore = "every finite f32, a few minutes: run by hand after changing `spell`"]
    fn every_finite_f32_is_spelled_as_std_spells_it() {
        use std::fmt::Write as _;
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
        std::thread::scope(|scope| {
            for first in 0..threads {
                scope.spawn(move || {
                    let (mut ours, mut theirs) = (Vec::new(), String::new());
                    let mut bits = Some(first);
                    while let Some(b) = bits {
                        let n = f32::from_bits(b);
                        if n.is_finite() {
                            ours.clear();
                            spell(&mut ours, n);
                            theirs.clear();
                            write!(theirs, "{n}").unwrap();
                            assert!(ours == theirs.as_bytes(), "{b:#x}: {theirs}");
                        }
                        bits = b.checked_add(threads);
                    }
                });
            }
        });
    }

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
