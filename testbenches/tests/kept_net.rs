//! `KeptNet` (X-2 widget): cycle by cycle its output is its input, and after Yosys maps the
//! exported Verilog to LUTs the kept net is still there, the output of a LUT of its own, where
//! the same wire without `(* keep *)` is folded into the LUTs that read it (the reason the
//! widget exists: SSYNC's arrival compares, duplicate check and work-ID compare).
use ppu_hdl::widgets::kept_net::KeptNet;
use ppu_sim::eda;
use ppu_sim::eda::export::verilog_of;
use ppu_sim::harness::Harness;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::process::Command;

/// An 8-bit compare whose result a select reads: `y` is the compare, its inverse or `c`.
/// Through a wire without `(* keep *)` the mapper may merge the compare into the select.
macro_rules! compare_then_select {
    ($(#[$doc:meta])* $name:ident, $kept:ty) => {
        $(#[$doc])*
        #[derive(LogicBlock, Default)]
        struct $name {
            a: Signal<In, Bits<8>>,
            b: Signal<In, Bits<8>>,
            c: Signal<In, Bit>,
            s: Signal<In, Bits<2>>,
            y: Signal<Out, Bit>,
            kept: $kept,
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                self.kept.d.next = self.a.val() == self.b.val();
                self.y.next = self.c.val();
                if self.s.val() == bits::<2>(3) {
                    self.y.next = self.kept.q.val();
                }
                if self.s.val() == bits::<2>(1) {
                    self.y.next = !self.kept.q.val();
                }
            }
        }
    };
}

compare_then_select!(
    /// The compare through a `KeptNet`.
    KeptCompare,
    KeptNet<Bit>
);

/// `KeptNet`'s Verilog without the `(* keep *)`: the same wire `kept`, unmarked.
#[derive(LogicBlock, Default)]
struct PlainNet {
    d: Signal<In, Bit>,
    q: Signal<Out, Bit>,
}

impl Logic for PlainNet {
    fn update(&mut self) {
        self.q.next = self.d.val();
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom("wire kept;\nassign kept = d;\nalways @(*) q = kept;\n".into())
    }
}

compare_then_select!(
    /// The same through the unmarked wire.
    PlainCompare,
    PlainNet
);

#[test]
fn x2_kept_net_passes_its_input_through_in_the_same_cycle() {
    let mut kept = Harness::new(KeptCompare::default(), |_, _| {});
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for cycle in 0..500 {
        let a: u64 = rng.gen_range(0..256);
        // Equal half the time, so both outcomes of the compare are seen.
        let b: u64 = if rng.gen_bool(0.5) {
            a
        } else {
            rng.gen_range(0..256)
        };
        let c = rng.gen_bool(0.5);
        let s: u64 = rng.gen_range(0..4);
        kept.uut.a.next = bits::<8>(a);
        kept.uut.b.next = bits::<8>(b);
        kept.uut.c.next = c;
        kept.uut.s.next = bits::<2>(s);
        kept.settle().unwrap();
        let expect = match s {
            3 => a == b,
            1 => a != b,
            _ => c,
        };
        assert_eq!(
            kept.uut.y.val(),
            expect,
            "cycle {}: a {} b {} c {} s {}",
            cycle,
            a,
            b,
            c,
            s
        );
        assert_eq!(
            kept.uut.kept.q.val(),
            a == b,
            "cycle {}: the kept net",
            cycle
        );
    }
}

/// The LUTs whose output drives the wire `kept.kept` (the compare the select reads) after
/// `synth_ice40` of `module`, with every name Yosys does not have to keep removed
/// (`opt_clean -purge`).
fn luts_driving_kept(yosys: &std::path::Path, verilog: &str, module: &str) -> usize {
    let dir = eda::scratch_dir(&format!("kept-net-{}", module)).unwrap();
    std::fs::write(dir.join(format!("{}.v", module)), verilog).unwrap();
    let script = format!(
        "read_verilog -sv {m}.v; synth_ice40 -top {m}; opt_clean -purge; \
         tee -q -o drivers.txt select -list w:kept.kept %ci1:+SB_LUT4[O] t:SB_LUT4 %i",
        m = module
    );
    eda::run_ok(
        Command::new(yosys)
            .current_dir(&dir)
            .args(["-q", "-p", &script]),
    )
    .unwrap();
    std::fs::read_to_string(dir.join("drivers.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

#[test]
fn x2_yosys_keeps_the_kept_net_as_a_lut_output_and_folds_a_plain_one() {
    let Some(yosys) = eda::tool_for_test("yosys", "KeptNet synthesis check") else {
        return;
    };
    let kept = luts_driving_kept(
        &yosys,
        &verilog_of(KeptCompare::default(), "kept_compare"),
        "kept_compare",
    );
    let plain = luts_driving_kept(
        &yosys,
        &verilog_of(PlainCompare::default(), "plain_compare"),
        "plain_compare",
    );
    assert_eq!(kept, 1, "one LUT drives the kept compare");
    assert_eq!(
        plain, 0,
        "the unmarked wire is gone: the compare is folded into the select's LUTs"
    );
}
