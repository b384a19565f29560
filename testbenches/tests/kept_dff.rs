//! `KeptDff` (X-2 widget): cycle by cycle it is rust-hdl's `DFF`, and in the exported Verilog two
//! copies registering the same input stay two registers under Yosys, where two `DFF`s merge
//! into one (the reason the widget exists: `Prop`'s release registers in `BarrierCluster`).
use ppu_hdl::widgets::kept_dff::KeptDff;
use ppu_sim::eda;
use ppu_sim::eda::export::verilog_of;
use ppu_sim::eda::synth;
use ppu_sim::harness::Harness;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// A block whose two registers of type `$reg` both register the input `a`, as two blocks of a
/// cluster register one broadcast.
macro_rules! register_pair {
    ($(#[$doc:meta])* $name:ident, $reg:ty) => {
        $(#[$doc])*
        #[derive(LogicBlock, Default)]
        struct $name {
            clock: Signal<In, Clock>,
            a: Signal<In, Bits<8>>,
            x: Signal<Out, Bits<8>>,
            y: Signal<Out, Bits<8>>,
            first: $reg,
            second: $reg,
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, first, second);
                self.first.d.next = self.a.val();
                self.second.d.next = self.a.val();
                self.x.next = self.first.q.val();
                self.y.next = self.second.q.val();
            }
        }
    };
}

register_pair!(
    /// Two `KeptDff` copies of one input.
    KeptPair,
    KeptDff<Bits<8>>
);
register_pair!(
    /// The same with rust-hdl's `DFF`.
    PlainPair,
    DFF<Bits<8>>
);

#[test]
fn x2_kept_dff_follows_its_input_like_a_dff() {
    let mut kept = Harness::new(KeptPair::default(), |u, c| u.clock.next = c.into());
    let mut plain = Harness::new(PlainPair::default(), |u, c| u.clock.next = c.into());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut last = 0u64;
    for cycle in 0..500 {
        let a: u64 = rng.gen_range(0..256);
        kept.uut.a.next = bits::<8>(a);
        plain.uut.a.next = bits::<8>(a);
        kept.settle().unwrap();
        plain.settle().unwrap();
        for (got, name) in [(kept.uut.x.val(), "x"), (kept.uut.y.val(), "y")] {
            assert_eq!(got, plain.uut.x.val(), "cycle {}: {}", cycle, name);
            if cycle > 0 {
                assert_eq!(
                    got.index() as u64,
                    last,
                    "cycle {}: {} is not last cycle's a",
                    cycle,
                    name
                );
            }
        }
        last = a;
        kept.step().unwrap();
        plain.step().unwrap();
    }
}

/// Flip-flops of `module` as the report counts them (`synth_ice40` on the bare unit, no
/// place and route).
fn flip_flops(yosys: &std::path::Path, verilog: &str, module: &str) -> u64 {
    let dir = eda::scratch_dir(&format!("kept-dff-{}", module)).unwrap();
    synth::synth_ice40(yosys, None, module, verilog, &dir)
        .unwrap()
        .flip_flops
}

#[test]
fn x2_yosys_keeps_both_kept_dff_copies_and_merges_plain_dffs() {
    let Some(yosys) = eda::tool_for_test("yosys", "KeptDff synthesis check") else {
        return;
    };
    let kept = flip_flops(
        &yosys,
        &verilog_of(KeptPair::default(), "kept_pair"),
        "kept_pair",
    );
    let plain = flip_flops(
        &yosys,
        &verilog_of(PlainPair::default(), "plain_pair"),
        "plain_pair",
    );
    assert_eq!(kept, 16, "two KeptDff copies of 8 bits");
    assert_eq!(plain, 8, "Yosys merges two DFFs of the same input");
}
