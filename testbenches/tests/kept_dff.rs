//! `KeptDff` (X-2 widget): cycle by cycle it is rust-hdl's `DFF`, and in the exported Verilog two
//! copies registering the same input stay two registers under Yosys, where two `DFF`s merge
//! into one (the reason the widget exists: `Prop`'s release registers in `BarrierCluster`).
use ppu_hdl::widgets::kept_dff::KeptDff;
use ppu_sim::eda;
use ppu_sim::eda::export::verilog_of;
use ppu_sim::harness::Harness;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

/// Two `KeptDff` copies of one input, as two blocks of a cluster register one broadcast.
#[derive(LogicBlock, Default)]
struct KeptPair {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<8>>,
    x: Signal<Out, Bits<8>>,
    y: Signal<Out, Bits<8>>,
    first: KeptDff<Bits<8>>,
    second: KeptDff<Bits<8>>,
}

impl Logic for KeptPair {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, first, second);
        self.first.d.next = self.a.val();
        self.second.d.next = self.a.val();
        self.x.next = self.first.q.val();
        self.y.next = self.second.q.val();
    }
}

/// The same with rust-hdl's `DFF`.
#[derive(LogicBlock, Default)]
struct PlainPair {
    clock: Signal<In, Clock>,
    a: Signal<In, Bits<8>>,
    x: Signal<Out, Bits<8>>,
    y: Signal<Out, Bits<8>>,
    first: DFF<Bits<8>>,
    second: DFF<Bits<8>>,
}

impl Logic for PlainPair {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, first, second);
        self.first.d.next = self.a.val();
        self.second.d.next = self.a.val();
        self.x.next = self.first.q.val();
        self.y.next = self.second.q.val();
    }
}

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

/// Flip-flop bits of `module` after Yosys's generic flattening synthesis.
fn flip_flop_bits(yosys: &std::path::Path, verilog: &str, module: &str) -> u64 {
    let dir = eda::scratch_dir(&format!("kept-dff-{}", module)).unwrap();
    let file = dir.join(format!("{}.v", module));
    std::fs::write(&file, verilog).unwrap();
    let out = eda::run(
        std::process::Command::new(yosys)
            .arg("-q")
            .arg("-p")
            .arg(format!(
                "read_verilog {}; synth -flatten -top {}; tee -o {} stat",
                file.display(),
                module,
                dir.join("stat.txt").display()
            )),
    )
    .unwrap();
    assert!(
        out.status.success(),
        "yosys: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stat = std::fs::read_to_string(dir.join("stat.txt")).unwrap();
    stat.lines()
        .filter(|l| l.contains("$_DFF"))
        .filter_map(|l| l.split_whitespace().last()?.parse::<u64>().ok())
        .sum()
}

#[test]
fn x2_yosys_keeps_both_kept_dff_copies_and_merges_plain_dffs() {
    let Some(yosys) = eda::tool_for_test("yosys", "KeptDff synthesis check") else {
        return;
    };
    let kept = flip_flop_bits(
        &yosys,
        &verilog_of(KeptPair::default(), "kept_pair"),
        "kept_pair",
    );
    let plain = flip_flop_bits(
        &yosys,
        &verilog_of(PlainPair::default(), "plain_pair"),
        "plain_pair",
    );
    assert_eq!(kept, 16, "two KeptDff copies of 8 bits");
    assert_eq!(plain, 8, "Yosys merges two DFFs of the same input");
}
