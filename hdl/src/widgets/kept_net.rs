//! `KeptNet` — a combinational net that synthesis keeps: `q` is `d`, and in the exported
//! Verilog the value passes through a wire marked `(* keep *)`, which Yosys's logic mapper
//! (ABC9) must produce as the output of a LUT of its own.
//!
//! Why: ABC9 maps every path for the depth of the design's deepest one and, to save LUTs,
//! lets shallower logic grow into chains, folding a late select into the start of a chain of
//! compares or an OR tree into logic it shares with another register's input. Placed routing
//! then makes such a chain the critical path. A `KeptNet` is a cut the mapper may not cross:
//! what feeds it is mapped as its own function of its inputs, and what reads it reads one
//! net, so a compare made from registers stays beside them and a wide OR of kept terms is a
//! balanced tree. It costs nothing in the Rust simulation's cycle behaviour and nothing on the
//! device but the freedom the mapper loses (it is the LUT output that would exist anyway when
//! the cut is at a function's natural boundary).
//!
//! Ports: `d` (in), `q` (out), both of type `T`. Timing: combinational, `q` = `d` in the same
//! cycle.
use rust_hdl::prelude::*;

#[derive(Clone, Debug, LogicBlock)]
pub struct KeptNet<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
}

impl<T: Synth> Default for KeptNet<T> {
    fn default() -> Self {
        Self {
            d: Signal::default(),
            q: Signal::default(),
        }
    }
}

impl<T: Synth> Logic for KeptNet<T> {
    fn update(&mut self) {
        self.q.next = self.d.val();
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let width = T::BITS;
        let range = if width > 1 {
            format!("[{}:0] ", width - 1)
        } else {
            String::new()
        };
        Verilog::Custom(format!(
            "\
(* keep *)
wire {range}kept;
assign kept = d;
always @(*) q = kept;
"
        ))
    }
}
