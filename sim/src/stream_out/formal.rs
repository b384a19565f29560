//! Formal properties of the stream-output units (`synth/formal/<unit>_props.sv`, run by
//! `ppu formal`): the batch-ID generator at its smallest legal window (2 slots). At the
//! exported window (16) the base case alone ran past 10 minutes, so it is not checked here
//! (flattened: Z3 does not leave step 0 in 90 s, cvc5 doubles its time a step, 122 s for step 7
//! of the 20 that IN_FLIGHT's mutant needs).
use crate::eda::export::verilog_of;
use crate::eda::formal::{FormalCheck, Mode, Mutant, Property, Solver};
use ppu_hdl::stream_out::batch_id_gen::BatchIdGen;

/// `BatchIdGen` at WINDOW = `W` (2, the smallest legal window: the slot logic is one loop over
/// the slots, the same at every window). The IDs are 14 bits at every window, so the claims
/// are about the real ID space.
fn batch_id_gen<const W: usize, const WB: usize>() -> FormalCheck {
    FormalCheck {
        unit: "batch_id_gen",
        props: "batch_id_gen",
        variant: format!("window {}", W),
        verilog: Box::new(|| verilog_of(BatchIdGen::<W, WB>::default(), "batch_id_gen")),
        defines: vec![("W".into(), W.to_string()), ("WB".into(), WB.to_string())],
        // Hierarchical, Z3 does not finish even the first step's assumptions.
        flatten: true,
        solver: Solver::Z3,
        properties: vec![
            Property {
                name: "CONSECUTIVE",
                claim: "the IDs handed out are 0, 1, 2, ... mod 2^14 after reset, one per handshake (SO-1)",
                mode: Mode::Prove { k: 4 },
                why: "inductive: the ID register equals the props' own count; k = 4 lets the mutant's BMC hand out two IDs",
                mutant: Mutant {
                    what: "the ID register steps by 2",
                    find: r"id_batch_id_reg\$d = id_batch_id_reg\$q \+ 14'h1;",
                    replace: "id_batch_id_reg$$d = id_batch_id_reg$$q + 14'h2;",
                },
            },
            Property {
                name: "IN_FLIGHT",
                claim: "a tracked ID in flight (handed out, no retire/done naming it since) is not handed out again and is among the last WINDOW handed out: at most WINDOW <= 2^13 in flight (SO-1)",
                mode: Mode::Prove { k: W as u32 + 4 },
                why: "inductive with the slot invariants (busy slot i holds an ID = i mod WINDOW among the last WINDOW); k = WINDOW + 4 lets the mutant's BMC hand out WINDOW + 1 IDs with none retired",
                mutant: Mutant {
                    what: "the next ID is offered even when its slot is busy (no stall)",
                    find: r"id_valid = ~next_slot_busy;",
                    replace: "id_valid = 1'b1;",
                },
            },
        ],
    }
}

/// The stream-output mechanism's formal checks.
pub fn checks() -> Vec<FormalCheck> {
    vec![batch_id_gen::<2, 1>()]
}
