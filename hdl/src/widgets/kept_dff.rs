//! `KeptDff` — a register that synthesis keeps as flip-flops of its own: rust-hdl's `DFF` (no
//! reset; `q` follows `d` at every rising clock edge, 0 at start), whose Verilog process carries
//! `(* keep *)`.
//!
//! Why: Yosys merges flip-flops with the same input and clock (`opt_merge`), also across the
//! blocks of a flattened top block. Where every copy of a block registers the same broadcast
//! (the back end's release into each PROP), the copies become one flip-flop driving every
//! block's logic across the chip. A `KeptDff` stays one register per block, placed beside the
//! logic it feeds, so the broadcast's routing is spent before the register, not after it. In a
//! design with one copy it is exactly a `DFF`.
//!
//! Ports: `clock`, `d`, `q` (as `DFF`). Timing: one cycle, like `DFF`.
use rust_hdl::prelude::*;

#[derive(Clone, Debug, LogicBlock)]
pub struct KeptDff<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
}

impl<T: Synth> Default for KeptDff<T> {
    fn default() -> Self {
        Self {
            d: Signal::default(),
            q: Signal::default(),
            clock: Signal::default(),
        }
    }
}

impl<T: Synth> Logic for KeptDff<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val()
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
initial begin
   q = {:x};
end

(* keep *)
always @(posedge clock) begin
   q <= d;
end
",
            T::default().verilog()
        ))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "kept_dff".into(),
            clock: "clock".into(),
            inputs: vec!["d".into()],
            outputs: vec!["q".into()],
        }]
    }
}
