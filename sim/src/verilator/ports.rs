//! The signals that cross between the Rust system model and a verilated top block: a
//! [`PortMap`] lists, for one top block type, the top-level inputs the model drives and the
//! outputs (top-level, or ports of a direct sub-block that the model watches) it reads, each
//! with its name in the exported Verilog and a typed accessor into the rust-hdl block.
//!
//! Values travel as one packed bit vector per direction, port after port from bit 0 in list
//! order, each port least significant bit first ([`Words`], [`WordsReader`]). A rust-hdl
//! `LogicStruct` packs its first field at bit 0, as rust-hdl's own export does ([`PortBits`]).
use ppu_hdl::barrier::item::{BarrierToken, ScreenItem};
use ppu_hdl::msg::{FirstRequest, Msg128};
use ppu_hdl::primitive_attributes::item::VertexPos;
use rust_hdl::prelude::*;

/// A packed bit vector being written, 32-bit words, bit 0 first.
#[derive(Debug, Default)]
pub struct Words {
    pub words: Vec<u32>,
    bit: usize,
}

impl Words {
    /// Start writing over `words` (cleared to zero).
    pub fn restart(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
        self.bit = 0;
    }
    /// Append the low `width` (<= 64) bits of `v`.
    pub fn put(&mut self, v: u64, width: usize) {
        let mut v = if width < 64 {
            v & ((1u64 << width) - 1)
        } else {
            v
        };
        let mut left = width;
        while left > 0 {
            let (w, off) = (self.bit / 32, self.bit % 32);
            if w >= self.words.len() {
                self.words.push(0);
            }
            let take = (32 - off).min(left);
            self.words[w] |= ((v as u32) & mask32(take)) << off;
            v = if take < 64 { v >> take } else { 0 };
            left -= take;
            self.bit += take;
        }
    }
    /// Bits written so far.
    pub fn len(&self) -> usize {
        self.bit
    }
    pub fn is_empty(&self) -> bool {
        self.bit == 0
    }
}

fn mask32(bits: usize) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

/// A packed bit vector being read, bit 0 first.
pub struct WordsReader<'a> {
    words: &'a [u32],
    bit: usize,
}

impl<'a> WordsReader<'a> {
    pub fn new(words: &'a [u32]) -> Self {
        WordsReader { words, bit: 0 }
    }
    /// The next `width` (<= 64) bits.
    pub fn take(&mut self, width: usize) -> u64 {
        let mut v = 0u64;
        let mut got = 0;
        while got < width {
            let (w, off) = (self.bit / 32, self.bit % 32);
            let take = (32 - off).min(width - got);
            let word = self.words.get(w).copied().unwrap_or(0);
            v |= (((word >> off) & mask32(take)) as u64) << got;
            got += take;
            self.bit += take;
        }
        v
    }
}

/// A port value as packed bits (least significant first; a struct's first field first).
pub trait PortBits: Synth + 'static {
    fn put(self, w: &mut Words);
    fn take(r: &mut WordsReader) -> Self;
}

impl PortBits for Bit {
    fn put(self, w: &mut Words) {
        w.put(self as u64, 1);
    }
    fn take(r: &mut WordsReader) -> Self {
        r.take(1) != 0
    }
}

impl<const N: usize> PortBits for Bits<N> {
    fn put(self, w: &mut Words) {
        if N <= 64 {
            w.put(self.to_u64(), N);
        } else {
            for i in 0..N {
                w.put(self.get_bit(i) as u64, 1);
            }
        }
    }
    fn take(r: &mut WordsReader) -> Self {
        if N <= 64 {
            Bits::<N>::from(r.take(N))
        } else {
            let mut b = Bits::<N>::default();
            for i in 0..N {
                b = b.replace_bit(i, r.take(1) != 0);
            }
            b
        }
    }
}

/// `PortBits` for a `LogicStruct`, its fields listed in declaration order.
macro_rules! port_struct {
    ($t:ty { $($f:ident),+ }) => {
        impl PortBits for $t {
            fn put(self, w: &mut Words) {
                $( self.$f.put(w); )+
            }
            fn take(r: &mut WordsReader) -> Self {
                let mut v = <$t>::default();
                $( v.$f = PortBits::take(r); )+
                v
            }
        }
    };
}

port_struct!(FirstRequest {
    last,
    task_number,
    batch_id
});
port_struct!(Msg128 {
    lane0,
    lane1,
    lane2,
    lane3
});
port_struct!(ScreenItem { kind, prim, tile });
port_struct!(BarrierToken { kind, tile });
port_struct!(VertexPos { x, y, z, w });

type Pack<B> = Box<dyn Fn(&mut B, &mut Words) + Send + Sync>;
type Unpack<B> = Box<dyn Fn(&mut B, &mut WordsReader) + Send + Sync>;

/// One signal crossing to or from the verilated model.
pub struct MappedPort<F> {
    /// Its name in the exported top module (`reset`, `batch_valid$2`, `ssync$resp_valid`).
    pub name: String,
    pub width: usize,
    xfer: F,
}

/// The signals of a top block `B` that cross to the verilated model (see the module doc).
pub struct PortMap<B> {
    pub inputs: Vec<MappedPort<Pack<B>>>,
    pub outputs: Vec<MappedPort<Unpack<B>>>,
}

impl<B> Default for PortMap<B> {
    fn default() -> Self {
        PortMap {
            inputs: vec![],
            outputs: vec![],
        }
    }
}

type InRef<B, T> = for<'a> fn(&'a mut B) -> &'a mut Signal<In, T>;
type InRefAt<B, T> = for<'a> fn(&'a mut B, usize) -> &'a mut Signal<In, T>;
type OutRef<B, D, T> = for<'a> fn(&'a mut B) -> &'a mut Signal<D, T>;
type OutRefAt<B, D, T> = for<'a> fn(&'a mut B, usize) -> &'a mut Signal<D, T>;

impl<B: 'static> PortMap<B> {
    /// A top-level input the model drives: its `next` value (made current, as the harness's
    /// settling would) goes to the verilated model.
    pub fn input<T: PortBits>(&mut self, name: &str, f: InRef<B, T>) -> &mut Self {
        self.inputs.push(MappedPort {
            name: name.to_string(),
            width: T::BITS,
            xfer: Box::new(move |u, w| {
                let s = f(u);
                s.update_all();
                s.val().put(w);
            }),
        });
        self
    }
    /// An array of top-level inputs, `name$0 .. name$(n-1)`.
    pub fn inputs<T: PortBits>(&mut self, name: &str, n: usize, f: InRefAt<B, T>) -> &mut Self {
        for i in 0..n {
            self.inputs.push(MappedPort {
                name: format!("{}${}", name, i),
                width: T::BITS,
                xfer: Box::new(move |u, w| {
                    let s = f(u, i);
                    s.update_all();
                    s.val().put(w);
                }),
            });
        }
        self
    }
    /// An output the model reads: a top-level output, or (`sub$port`) a port of a direct
    /// sub-block, read through a hierarchical reference.
    pub fn output<D: Direction + 'static, T: PortBits>(
        &mut self,
        name: &str,
        f: OutRef<B, D, T>,
    ) -> &mut Self {
        self.outputs.push(MappedPort {
            name: name.to_string(),
            width: T::BITS,
            xfer: Box::new(move |u, r| {
                let s = f(u);
                s.next = T::take(r);
                s.update_all();
            }),
        });
        self
    }
    /// An array of outputs; `{}` in `pattern` stands for the index (`wr_valid${}`,
    /// `so${}$busy`).
    pub fn outputs<D: Direction + 'static, T: PortBits>(
        &mut self,
        pattern: &str,
        n: usize,
        f: OutRefAt<B, D, T>,
    ) -> &mut Self {
        for i in 0..n {
            self.outputs.push(MappedPort {
                name: pattern.replace("{}", &i.to_string()),
                width: T::BITS,
                xfer: Box::new(move |u, r| {
                    let s = f(u, i);
                    s.next = T::take(r);
                    s.update_all();
                }),
            });
        }
        self
    }
}

impl<B> PortMap<B> {
    /// Total input and output widths in bits.
    pub fn widths(&self) -> (usize, usize) {
        (
            self.inputs.iter().map(|p| p.width).sum(),
            self.outputs.iter().map(|p| p.width).sum(),
        )
    }

    /// Pack every input of `u` into `w`.
    pub fn pack(&self, u: &mut B, w: &mut Words) {
        w.restart();
        for p in &self.inputs {
            (p.xfer)(u, w);
        }
    }

    /// Load every output of `u` from `words`.
    pub fn unpack(&self, u: &mut B, words: &[u32]) {
        let mut r = WordsReader::new(words);
        for p in &self.outputs {
            (p.xfer)(u, &mut r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_across_word_boundaries() {
        let mut w = Words::default();
        let fields = [
            (1u64, 1),
            (0x3ff, 10),
            (0xdead_beef_1234, 48),
            (5, 3),
            (u64::MAX, 64),
        ];
        for (v, n) in fields {
            w.put(v, n);
        }
        assert_eq!(w.len(), 126);
        let mut r = WordsReader::new(&w.words);
        for (v, n) in fields {
            assert_eq!(r.take(n), v, "{}-bit field", n);
        }
    }

    #[test]
    fn struct_first_field_at_bit_zero() {
        let fr = FirstRequest {
            last: true,
            task_number: bits::<10>(3),
            batch_id: bits::<14>(0x2001),
        };
        let mut w = Words::default();
        fr.put(&mut w);
        assert_eq!(w.words[0], 1 | (3 << 1) | (0x2001 << 11));
        let mut r = WordsReader::new(&w.words);
        assert_eq!(FirstRequest::take(&mut r), fr);
    }

    #[test]
    fn wide_bits_per_bit() {
        let b = Bits::<70>::default()
            .replace_bit(0, true)
            .replace_bit(69, true);
        let mut w = Words::default();
        b.put(&mut w);
        assert_eq!(w.words.len(), 3);
        assert_eq!(w.words[2], 1 << 5);
        let mut r = WordsReader::new(&w.words);
        assert_eq!(Bits::<70>::take(&mut r), b);
    }
}
